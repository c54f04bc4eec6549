"""What each implementation is expected to do, and whether it did: conform, or, for a mutant, be caught.

Conformance needs something decided: an implementation expected to conform
that answered no scenario with an outcome, or none of a kind it declares
(with a rule version gateproof knows) though scenarios of that kind were
asked, is not conformant but ``NOTHING DECIDED`` (``conformance/PROTOCOL.md``,
"Nothing decided"). A kind it does not declare may be skipped whole: cedar's
ceiling scenarios.

An implementation whose campaign was cut short (verify stopped by a signal
or a full disk before it finished) is ``INCOMPLETE``, whatever it was
expected to do: a mutant not yet caught is not missed, and a conformant
implementation's verdicts so far are not the whole.

A mutant is caught when verify finds a disagreement with the model on the
corpus or on a generated scenario; its smallest counterexample is the
disagreement with the fewest forced sources or calls, a shrunk generated
one before a corpus case of the same size.
"""

from __future__ import annotations

from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.versions import VERSIONS

from .protocol import Started
from .results import CUT_SHORT, Tally, Verdict, disagreeing

CONFORMANT, CAUGHT = "conformant", "must be caught"
#: The verdict on an implementation whose campaign was cut short, whatever it was expected to do: not enough was run to say.
INCOMPLETE = "INCOMPLETE"
DID_NOT_START = "DID NOT START"  # the verdict of an implementation that never answered start: not judged, so not non-conformant
RULES_OF_KIND = {"ceiling": tuple(VERSIONS), "gateway": tuple(GATEWAY_VERSIONS)}


def declared_kinds(info: Started) -> list[str]:
    """The kinds an implementation declares together with at least one rule version of that kind gateproof knows."""
    return [kind for kind in RULES_OF_KIND if kind in info.kinds and any(v in info.rules for v in RULES_OF_KIND[kind])]


def undecided(tally: Tally) -> str | None:
    """Why the campaign decided too little to call the implementation conformant, or None when it decided enough."""
    if tally.info is None or tally.lost is not None:
        return None  # never started or not driven to the end: reported as such
    asked, decided = sum(tally.asked.values()), sum(tally.decided.values())
    if not decided:
        return f"nothing decided: none of the {asked} scenario{'s' * (asked != 1)} asked was answered with an outcome"
    for kind in declared_kinds(tally.info):
        if tally.asked[kind] and not tally.decided[kind]:
            return f"no {kind} scenario decided, though it declares {kind} and {tally.asked[kind]} were asked"
    return None


def scenario_size(scenario: dict) -> tuple[int, int, int]:
    """(forced sources, calls, steps) of a scenario: what a counterexample's size is counted in."""
    steps = [step for step in scenario.get("steps", ()) if isinstance(step, dict)]
    forced = sum(len(step.get(key) or ()) for step in steps for key in ("forced_snippets", "forced_skills") if isinstance(step.get(key), list))
    calls = sum(step.get("op") == "call" for step in steps)
    return forced, calls, len(steps)


def size_text(scenario: dict) -> str:
    forced, calls, steps = scenario_size(scenario)
    counted = f"{calls} call{'s' * (calls != 1)}" if scenario.get("kind") == "gateway" else f"{forced} forced"
    return f"{counted}, {steps} step{'s' * (steps != 1)}"


def smallest_counterexample(tally: Tally) -> Verdict | None:
    found = [v for v in disagreeing(tally.verdicts) if v.status == "failed"]
    if not found:
        return None
    return min(found, key=lambda v: (*scenario_size(v.disagreement.scenario), v.phase != "generated"))


def is_met(tally: Tally, expected: str) -> bool:
    """Whether the implementation did what it is expected to: conform, or be caught disagreeing; never when cut short."""
    if tally.lost == CUT_SHORT:
        return False
    if expected == CAUGHT:
        return tally.lost is None and smallest_counterexample(tally) is not None
    return tally.is_conformant() and undecided(tally) is None


def verdict_text(tally: Tally, expected: str) -> str:
    if tally.unavailable:
        return "unavailable"
    if tally.did_not_start():
        return DID_NOT_START
    if tally.lost == CUT_SHORT:
        return INCOMPLETE
    if expected == CAUGHT:
        return "caught" if is_met(tally, expected) else "MISSED"
    if tally.is_conformant() and undecided(tally):
        return "NOTHING DECIDED"
    return "conformant" if is_met(tally, expected) else "NOT CONFORMANT"
