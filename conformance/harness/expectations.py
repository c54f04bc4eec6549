"""What each implementation is expected to do, and whether it did: conform, or, for a mutant, be caught.

A mutant is caught when verify finds a disagreement with the model on the
corpus or on a generated scenario; its smallest counterexample is the
disagreement with the fewest forced sources or calls, a shrunk generated
one before a corpus case of the same size.
"""

from __future__ import annotations

from .results import Tally, Verdict

CONFORMANT, CAUGHT = "conformant", "must be caught"


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
    found = [v for v in tally.verdicts if v.status == "failed" and v.disagreement is not None]
    if not found:
        return None
    return min(found, key=lambda v: (*scenario_size(v.disagreement.scenario), v.phase != "generated"))


def is_met(tally: Tally, expected: str) -> bool:
    """Whether the implementation did what it is expected to: conform, or be caught disagreeing."""
    if expected == CAUGHT:
        return tally.lost is None and smallest_counterexample(tally) is not None
    return tally.is_conformant()


def verdict_text(tally: Tally, expected: str) -> str:
    if tally.unavailable:
        return "unavailable"
    if expected == CAUGHT:
        return "caught" if is_met(tally, expected) else "MISSED"
    return "conformant" if is_met(tally, expected) else "NOT CONFORMANT"
