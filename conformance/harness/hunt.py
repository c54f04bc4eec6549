"""Generated scenarios for one rule version, pipelined, and each new disagreement reduced to its smallest form.

Scenarios come from the seeded generators of ``conformance/generation`` and
go through the implementation as one pipeline, the model's outcome computed
while the implementation works. A disagreement not seen before is kept, and
no more scenarios are drawn: one of a new class (``harness/severity.py``), or
that differs first in a new set of keys (a reduction moves the step it is at),
or, for a security one, that lets more out in a new way wherever it differs
first. Once the runs still in flight are answered, it is reduced document by
document, each candidate run on its own, to the smallest scenario that still
disagrees in the same class and keys (a security one: that is still
security, so a renamed audit field on an earlier call is left out of it), then
run once more: an implementation that answers it differently is
nondeterministic. Scenarios are counted once, as they are generated; a
reduction's runs are not counted as passed scenarios.

The new disagreements of a sweep are reduced security first, then refusals,
then the rest, as many as the hunt still wants: a sweep runs only while one
is wanted, so a security disagreement it finds is kept, never counted in
place of one of another class answered before it.
"""

from __future__ import annotations

import hashlib
import time
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from attrs import evolve

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario

from ..generation import scenarios
from ..generation.reducer import reduce
from .shared_worlds import WorldsReadOnce
from .protocol import Outcome, RunReply
from .compare import same_json
from .results import MOST_ERRORS_KEPT, Disagreement, Verdict, judge
from .documents import dumps
from .severity import SECURITY, classify, severity_rank
from .shards import dealt, share

if TYPE_CHECKING:
    from .campaign import Campaign

REDUCTION_BUDGET = 1500  # candidate documents tried per reduction
REDUCTION_SECONDS = 20.0  # and the time it may take: an implementation that hangs on candidates is not waited on for ever
CONFIRMATIONS = 2  # more runs a generated disagreement must answer alike: two, so an answer that alternates cannot pass


def identity(verdict: Verdict) -> tuple:
    """What makes a disagreement distinct from those already kept: its class and the keys it first differs in; for a
    security one, the ways it lets more out and the rules they break, wherever it first differs."""
    d = verdict.disagreement
    if d.severity != SECURITY:
        return d.severity, d.keys
    return SECURITY, tuple(sorted({(lean.way, lean.rules) for lean in classify(d.expected, d.actual, d.scenario)[1]}))


def is_like(again: Verdict, kept: tuple) -> bool:
    """Whether a reduction's candidate still fails as the kept disagreement does: a security one only needs to stay security."""
    if again.status != "failed":
        return False
    return again.disagreement.severity == SECURITY if kept[0] == SECURITY else identity(again) == kept


def saved_name(version: str, shard_part: str, word: str, scenario: dict) -> str:
    """The name a generated scenario is saved under: its rule version, what it shows (``disagreement``, ``error`` or
    ``nondeterministic``) and a short hash of its content, so two saved scenarios never share a name or a file, and the same
    scenario found again is saved under the same name."""
    digest = hashlib.sha256(dumps({k: v for k, v in scenario.items() if k != "id"})).hexdigest()[:10]
    return f"generated.{version.replace('+', '.')}{shard_part}.{word}-{digest}"


def model_outcome(scenario: dict) -> dict:
    return run_scenario(read_scenario(scenario))


def with_expected_outcomes(batch: Iterable[dict], expected_of: dict) -> Iterator[dict]:
    """The batch as a pipeline pulls it, each scenario's expected outcome put in ``expected_of`` by ``id`` as it is drawn, while earlier ones are decided.

    The generators build documents the schema passes (tests/test_generation.py
    holds every one drawn there to the schema), so they are not checked again
    here; a reduction's candidates, edited blindly, are. A world that
    scenarios in a row share is read once.
    """
    read = WorldsReadOnce()
    for scenario in batch:
        try:
            expected_of[id(scenario)] = run_scenario(read(scenario))
        except ScenarioError:
            continue  # not a scenario the rules decide: never sent, so never judged
        yield scenario


class Feed:
    """Up to ``most`` scenarios of ``stream``, drawn one by one as the pipeline pulls them, and none once :meth:`stop` is called.

    The pipeline stays full from the first scenario to the last, and a
    disagreement waits only for the runs in flight to be reduced; what is not
    drawn stays in the stream for the next feed.
    """

    def __init__(self, stream: Iterator[dict], most: int):
        self.stream, self.most, self.drawn, self.stopped = stream, most, 0, False

    def __iter__(self) -> Feed:
        return self

    def __next__(self) -> dict:
        if self.stopped or self.drawn >= self.most:
            raise StopIteration
        scenario = next(self.stream)
        self.drawn += 1
        return scenario

    def stop(self) -> None:
        self.stopped = True


class Hunt:
    """Up to ``disagreements`` distinct disagreements among ``budget`` generated scenarios of one kind and rule version."""

    def __init__(self, campaign: Campaign, kind: str, version: str, budget: int):
        self.campaign, self.kind, self.version, self.budget = campaign, kind, version, budget
        self.family = f"generated/{version}"
        self.found: set[tuple] = set()
        self.flagged: set[str] = set()  # error messages already reported, so one fault is not reported a thousand times

    def verdict(self, scenario: dict, reply: RunReply, expected: dict) -> Verdict:
        c = self.campaign
        return judge(c.name, "generated", self.family, scenario, expected, reply, c.settings.level, c.settings.known, (), c.tally.info.unobservable)

    def run(self) -> None:
        settings = self.campaign.settings
        stream = dealt(scenarios(self.kind, self.version, settings.seed, settings.catalog), self.budget, settings.shard)
        left, wanted = share(self.budget, settings.shard), 1 if settings.exitfirst else settings.disagreements
        while left > 0 and len(self.found) < wanted:
            feed = Feed(stream, left)
            new = self.sweep(feed, feed.stop)
            left = left - feed.drawn if feed.stopped else 0  # a stream that ends early leaves nothing to draw
            for verdict, reply in sorted(new, key=lambda pair: severity_rank(pair[0].disagreement.severity)):
                if len(self.found) < wanted:
                    self.settle(verdict, reply)
                else:
                    self.count_unkept(verdict)
        if left > 0:
            self.campaign.tally.notes.append(self.stopped_note(share(self.budget, settings.shard) - left, wanted))

    def stopped_note(self, drawn: int, wanted: int) -> str:
        """Why fewer scenarios were generated than asked, and how to search on."""
        planned = share(self.budget, self.campaign.settings.shard)
        if self.campaign.settings.exitfirst:
            why, on = "at its first disagreement (--exitfirst)", "run without --exitfirst"
        else:
            why = f"once {wanted} distinct disagreement{'s were' if wanted != 1 else ' was'} found (--disagreements {wanted})"
            on = "raise --disagreements, try another --seed, or declare those found in --known"
        return f"{self.version}: generated {drawn} of {planned} scenarios: the search stopped {why}; to search on, {on}"

    def count_unkept(self, verdict: Verdict) -> None:
        """A failure counted, not kept: by its family and, for the summaries, by its class."""
        self.campaign.tally.unkept[self.family, "failed"] += 1
        self.campaign.tally.unkept_severities[verdict.disagreement.severity] += 1

    def sweep(self, batch: Iterable[dict], stop: Callable[[], None] = lambda: None) -> list[tuple[Verdict, RunReply]]:
        """Run scenarios pipelined, ``stop`` called at each new disagreement; the new disagreements, to be reduced once the pipeline is empty."""
        c, tally, new = self.campaign, self.campaign.tally, []
        expected_of: dict[int, dict] = {}
        for scenario, reply in c.process.run_many(with_expected_outcomes(batch, expected_of), lambda scenario: expected_of.get(id(scenario))):
            tally.generated += 1
            c.advance()
            expected = expected_of.pop(id(scenario))
            if isinstance(reply, Outcome) and same_json(reply.outcome, expected):
                tally.count_scenario(scenario, "passed")
                tally.unkept[self.family, "passed"] += 1
                continue
            verdict = self.verdict(scenario, reply, expected)
            tally.count_scenario(scenario, verdict.status, verdict.message)
            if verdict.status in ("passed", "known", "skipped"):
                tally.unkept[self.family, verdict.status] += 1
            elif verdict.status == "errored":
                if verdict.message not in self.flagged and len(self.flagged) < MOST_ERRORS_KEPT:
                    self.flagged.add(verdict.message)
                    c.record(*self.named(verdict, scenario, "error"))
                else:
                    tally.unkept[self.family, "errored"] += 1
            elif identity(verdict) in self.found or any(identity(verdict) == identity(v) for v, _ in new):
                self.count_unkept(verdict)  # the same difference again: counted, not reduced again
            else:
                new.append((verdict, reply))
                stop()
        return new

    def settle(self, verdict: Verdict, reply: RunReply) -> None:
        """Confirm one disagreement by running it again, reduce it, confirm what is left, and record it."""
        kept = identity(verdict)
        self.found.add(kept)
        if not self.campaign.recurs(verdict.disagreement.scenario, reply, CONFIRMATIONS):
            self.campaign.record(self.named(unstable(verdict), verdict.disagreement.scenario, "nondeterministic")[0])
            return
        last: dict = {}
        deadline = time.monotonic() + REDUCTION_SECONDS
        tried = [0]

        def still_fails(candidate: dict) -> bool:
            if time.monotonic() > deadline:
                return False
            tried[0] += 1
            if tried[0] % 10 == 1:
                self.campaign.describe(f"reducing a disagreement ({self.version}): {tried[0]} candidates tried")
            try:
                expected = model_outcome(candidate)
            except ScenarioError:
                return False
            answer = self.campaign.process.run_one(candidate)
            again = self.verdict(candidate, answer, expected)
            if is_like(again, kept):
                last.update(verdict=again, reply=answer)
                return True
            return False

        smallest = reduce(verdict.disagreement.scenario, still_fails, REDUCTION_BUDGET)
        self.campaign.describe("")
        shrunk, first = (last["verdict"], last["reply"]) if last else (verdict, reply)
        if self.campaign.recurs(smallest, first, CONFIRMATIONS):
            self.campaign.record(self.named(shrunk, smallest, "disagreement")[0])
        else:
            self.campaign.record(self.named(unstable(shrunk), shrunk.disagreement.scenario, "nondeterministic")[0])

    def named(self, verdict: Verdict, scenario: dict, word: str) -> tuple[Verdict, dict]:
        """The verdict and its scenario under the name they are saved and reported by (``saved_name``)."""
        shard = self.campaign.settings.shard
        part = f".shard{shard.index}of{shard.count}" if shard.count > 1 else ""
        named = dict(scenario, id=saved_name(self.version, part, word, scenario))
        d = verdict.disagreement
        if d is not None:
            d = Disagreement(named, d.expected, d.actual, d.step, d.keys, severity=d.severity)
        return evolve(verdict, scenario_id=named["id"], disagreement=d), named


def unstable(verdict: Verdict) -> Verdict:
    return evolve(verdict, status="nondeterministic", message="answered the same scenario differently twice")
