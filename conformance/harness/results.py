"""What a campaign finds: one verdict per scenario run, and each implementation's tally.

Passed, failed, skipped, errored, known and nondeterministic are counted
apart: a skipped scenario is the implementation's declared limit, an errored
one its failure to answer, a known one a disagreement declared with an issue.
Each disagreement carries its class (``harness/severity.py``): security,
refusal or other, and the failed scenarios are counted by class too.
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property

from attrs import define, field, frozen

from .compare import compare, rule_ids, same_json
from .known import KnownDivergence, known_issue
from .protocol import Errored, Outcome, RunReply, Skipped, Started
from .severity import OTHER, SEVERITIES, classify

STATUSES = ("passed", "failed", "known", "nondeterministic", "skipped", "errored")
#: Statuses that make an implementation non-conformant (exit status 1).
FAILING = ("failed", "nondeterministic", "errored")
#: Distinct errors kept as verdicts for each rule version's generated scenarios; the rest are counted.
#: An implementation whose every error names its scenario would otherwise be kept answer by answer.
MOST_ERRORS_KEPT = 20
#: A first answer that decides its scenario: an outcome, whether or not it agrees.
DECIDED = ("passed", "failed", "known")
REASONS = 20  # distinct skip reasons counted apart; the rest are counted together
#: How ``Tally.lost`` begins for an implementation that never answered start: it was not judged, so it is not non-conformant.
NOT_STARTED = "did not start"


@frozen
class Disagreement:
    """The scenario on which the implementation departs from the model, both outcomes, and where."""

    scenario: dict
    expected: dict
    actual: dict
    step: int | None
    keys: tuple[str, ...]
    replay_path: str | None = None
    replay_command: str | None = None
    # Given when read from a results file that records it; otherwise computed from the outcomes when first asked for, so a
    # copy with other outcomes (attrs.evolve) is classed by its own, and an older results file is classed again.
    _severity: str | None = field(default=None, alias="severity")

    @cached_property
    def severity(self) -> str:
        """``security``, ``refusal`` or ``other`` (``harness/severity.py``)."""
        return self._severity or classify(self.expected, self.actual, self.scenario)[0] or OTHER


@frozen
class Verdict:
    implementation: str
    phase: str  # corpus, generated or replay
    family: str  # the corpus file, or generated/<rules>
    scenario_id: str
    status: str
    message: str = ""
    rules: tuple[str, ...] = ()
    issue: str | None = None
    disagreement: Disagreement | None = None
    context: dict = field(factory=dict)  # an errored run's circumstances: the fault, the implementation's stderr tail
    seconds: float | None = field(default=None, eq=False)  # what answering it added to the campaign (ImplementationProcess.reply_seconds)

    def serializable(self) -> dict:
        document = {
            "implementation": self.implementation, "phase": self.phase, "family": self.family, "scenario": self.scenario_id,
            "status": self.status, "message": self.message, "rules": list(self.rules), "issue": self.issue,
        }
        if self.context:
            document["context"] = self.context
        if self.seconds is not None:
            document["seconds"] = round(self.seconds, 6)
        if self.disagreement is not None:
            d = self.disagreement
            document["disagreement"] = {
                "step": d.step, "keys": list(d.keys), "scenario": d.scenario, "expected": d.expected, "actual": d.actual,
                "replay_path": d.replay_path, "replay_command": d.replay_command, "severity": d.severity,
            }
        return document


#: Why an implementation's verdicts end without its tally: verify was stopped (a signal, a full disk) before it finished.
CUT_SHORT = "the campaign was cut short before this implementation finished"


@define
class Tally:
    """One implementation's run, filled in as it goes: who it is, its verdicts, and what the driver had to do.

    Generated scenarios that pass or are skipped are counted, not kept: a campaign runs thousands.
    Of their errors, the first :data:`MOST_ERRORS_KEPT` distinct ones are kept, the rest counted.
    """

    name: str
    info: Started | None = None
    verdicts: list[Verdict] = field(factory=list)
    unkept: Counter = field(factory=Counter)  # (family, status) -> how many
    generated: int = 0
    generated_seconds: float = 0.0
    seconds: float = 0.0  # the whole campaign of this implementation, start to finish
    scenarios: int = 0  # corpus, replayed and generated scenarios run, each once; a reduction's runs are not counted
    first_failure_after: int | None = None  # how many scenarios had run when the first disagreement was seen
    restarts: int = 0
    reordered: int = 0
    notes: list[str] = field(factory=list)
    outlived: list[int] = field(factory=list)  # processes it started that left its group and outlived verify (harness/environment.py)
    lost: str | None = None  # why the implementation could not be driven to the end (CUT_SHORT: verify itself was stopped)
    unavailable: str | None = None  # why it could not be run on this machine at all (its interpreter is missing)
    expected: str = "conformant"  # or "must be caught": see harness/expectations.py
    asked: Counter = field(factory=Counter)  # kind -> scenarios sent (each once: retries, confirmations and reductions are not counted)
    decided: Counter = field(factory=Counter)  # kind -> of those, answered with an outcome
    skipped_for: Counter = field(factory=Counter)  # the reason a skip gave -> how many
    undeclared: Counter = field(factory=Counter)  # a kind or rule version it does not declare -> corpus cases of it not sent
    defaulted: Counter = field(factory=Counter)  # (corpus case or replayed scenario, version) -> how many that name none ran under it
    unkept_severities: Counter = field(factory=Counter)  # severity -> failed generated scenarios counted, not kept

    def count_scenario(self, scenario: dict, status: str, message: str = "") -> None:
        """One scenario's first answer: counted by kind as asked, and as decided when it is an outcome; a skip by its reason."""
        self.scenarios += 1
        if status == "failed" and self.first_failure_after is None:
            self.first_failure_after = self.scenarios
        kind = scenario.get("kind", "ceiling")
        self.asked[kind] += 1
        self.decided[kind] += status in DECIDED
        if status == "skipped":
            reason = message if message in self.skipped_for or len(self.skipped_for) < REASONS else "other reasons"
            self.skipped_for[reason] += 1

    def counts(self) -> dict[str, int]:
        counted = Counter()
        for (_, status), count in [*kept_by_family(self.verdicts).items(), *self.unkept.items()]:
            counted[status] += count
        return {status: counted.get(status, 0) for status in STATUSES}

    def severities(self) -> dict[str, int]:
        """The failed scenarios by class: security, refusal, and the rest as other; those counted, not kept, by the class they were judged.

        A results file written before classes were counted holds no class for the failures it counted only: they read as other.
        """
        counted = Counter(v.disagreement.severity for v in disagreeing(self.verdicts) if v.status == "failed")
        counted.update(self.unkept_severities)
        found = {name: counted.get(name, 0) for name in SEVERITIES if name != OTHER}
        return {**found, OTHER: max(0, self.counts()["failed"] - sum(found.values()))}

    def did_not_start(self) -> bool:
        return self.lost is not None and self.lost.startswith(NOT_STARTED)

    def is_conformant(self) -> bool:
        counts = self.counts()
        return self.lost is None and not any(counts[s] for s in FAILING)


def disagreeing(verdicts) -> list[Verdict]:
    """The verdicts holding a disagreement, in order: a results file read back keeps them apart, so no other verdict is read for them."""
    found = getattr(verdicts, "disagreements", None)
    return list(found) if found is not None else [v for v in verdicts if v.disagreement is not None]


def kept_by_family(verdicts) -> Counter:
    """(family, status) -> how many verdicts were kept: counted as they were read when a results file is read back."""
    found = getattr(verdicts, "cells", None)
    return found if found is not None else Counter((v.family, v.status) for v in verdicts)


def judge(name: str, phase: str, family: str, scenario: dict, expected: dict, reply: RunReply, level: str,
          known: tuple[KnownDivergence, ...], pinned: tuple[str, ...] = (), unobservable: tuple[str, ...] = ()) -> Verdict:
    """The verdict on one reply: passed, failed, known, skipped or errored."""
    scenario_id = scenario.get("id", "")
    if isinstance(reply, Skipped):
        return Verdict(name, phase, family, scenario_id, "skipped", reply.message, pinned, reply.issue_url)
    if isinstance(reply, Errored):
        return Verdict(name, phase, family, scenario_id, "errored", reply.message, pinned, context=reply.context)
    assert isinstance(reply, Outcome)
    mismatch = compare(expected, reply.outcome, level, unobservable)
    if mismatch is None:
        return Verdict(name, phase, family, scenario_id, "passed", "", pinned)
    rules = rule_ids(mismatch, expected, reply.outcome, pinned)
    disagreement = Disagreement(scenario, expected, reply.outcome, mismatch.step, mismatch.keys)
    issue = known_issue(known, name, scenario_id, rules)
    where = "the outcome" if mismatch.step is None else f"step {mismatch.step}"
    message = f"{where} differs in {', '.join(mismatch.keys)}"
    return Verdict(name, phase, family, scenario_id, "known" if issue else "failed", message, rules, issue, disagreement)


def is_same_reply(first: RunReply, second: RunReply) -> bool:
    """Whether two answers to one scenario agree: the same kind, and the same outcome when there is one."""
    if type(first) is not type(second):
        return False
    return not isinstance(first, Outcome) or same_json(first.outcome, second.outcome)
