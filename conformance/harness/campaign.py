"""A verify campaign: the corpus, then generated scenarios, each outcome held to the model's.

A disagreement on a generated scenario is shrunk by hypothesis to the
smallest scenario that still disagrees (``find`` with the disagreement as the
condition, as ``gateproof diff`` does for two rule versions), confirmed by
running it once more, and saved as a replayable scenario file. Any scenario
answered twice, differently, is nondeterministic. Every verdict is handed to
the observer the moment it is reached, so a report written as they come
loses nothing when a campaign is cut short.
"""

from __future__ import annotations

import math
import re
import shlex
import time
from pathlib import Path
from random import Random
from typing import Callable

import orjson
from attrs import evolve, frozen
from hypothesis import HealthCheck, find, settings, strategies as st
from hypothesis.errors import HypothesisException, NoSuchExample

from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

from ..documents import dumps_pretty
from ..gateway_strategies import gateway_scenarios
from ..lifecycle_strategies import lifecycle_scenarios
from ..strategies import ceiling_scenarios
from .corpus import CorpusCase
from .known import KnownDivergence
from .process import ImplementationProcess, StartFailed
from .protocol import Errored, RunReply, Skipped, scenario_rules
from .results import Disagreement, Tally, Verdict, is_same_reply, judge

KINDS = ("ceiling", "gateway")
RULES_OF_KIND = {"ceiling": tuple(VERSIONS), "gateway": tuple(GATEWAY_VERSIONS)}


@frozen
class CampaignSettings:
    level: str = "decision"
    examples: int = 100  # generated scenarios in all, shared among the rule versions driven
    seed: int = 0
    rules: tuple[str, ...] | None = None  # None: every version the implementation decides
    kinds: tuple[str, ...] = KINDS
    timeout: float = 10.0
    window: int = 64
    known: tuple[KnownDivergence, ...] = ()
    out: Path | None = None  # where disagreements are saved as replayable files
    replay_prefix: str = "gateproof verify"
    disagreements: int = 3  # distinct shrunk disagreements searched for per rule version: each costs a shrink


def model_outcome(scenario: dict) -> dict:
    return run_scenario(read_scenario(scenario))


#: Every integer a generated scenario holds fits here, so it reads exactly in any language (JavaScript's safe integers).
PORTABLE_INTEGERS = 2**53 - 1


def is_portable(value: object) -> bool:
    """Whether JSON can carry every number in a value (no NaN or infinity) and every language reads each integer exactly."""
    if isinstance(value, dict):
        return all(is_portable(v) for v in value.values())
    if isinstance(value, list):
        return all(is_portable(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return not isinstance(value, int) or isinstance(value, bool) or -PORTABLE_INTEGERS <= value <= PORTABLE_INTEGERS


def strategy_for(kind: str, version: str) -> st.SearchStrategy[dict]:
    if kind == "gateway":
        return gateway_scenarios(rules=version).filter(is_portable)
    return st.one_of(ceiling_scenarios(rules=version), lifecycle_scenarios(rules=version)).filter(is_portable)


def targets(campaign: CampaignSettings, decided_kinds, decided_rules) -> list[tuple[str, str]]:
    """The (kind, rule version) pairs to generate for: chosen, and decided by the implementation."""
    return [
        (kind, version) for kind in campaign.kinds if kind in decided_kinds
        for version in RULES_OF_KIND[kind] if version in decided_rules and (campaign.rules is None or version in campaign.rules)
    ]


def is_selected(scenario: dict, campaign: CampaignSettings) -> bool:
    kind = scenario.get("kind", "ceiling")
    return kind in campaign.kinds and (campaign.rules is None or scenario_rules(scenario) in campaign.rules)


def _file_name(scenario_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", scenario_id) + ".json"


class Campaign:
    """One implementation driven through the corpus and generated scenarios."""

    def __init__(self, name: str | None, argv, campaign: CampaignSettings, observe: Callable[[Verdict], None] = lambda verdict: None,
                 advance: Callable[[], None] = lambda: None):
        self.name, self.argv, self.settings, self.observe, self.advance = name, tuple(argv), campaign, observe, advance
        self.process = ImplementationProcess(self.argv, campaign.timeout, campaign.window)
        self.tally = Tally(name)

    def start(self):
        """Start the implementation; StartFailed when it does not answer start as the protocol says.

        An implementation given by its command is known by the name it answers start with.
        """
        info = self.tally.info = self.process.start()
        if self.name is None:
            self.name = self.tally.name = info.name
        return info

    def record(self, verdict: Verdict) -> Verdict:
        if verdict.disagreement is not None and self.settings.out is not None:
            verdict = self._saved(verdict)
        self.tally.verdicts.append(verdict)
        self.observe(verdict)
        return verdict

    def _saved(self, verdict: Verdict) -> Verdict:
        """The verdict with its scenario written as a replayable file and the command that replays it."""
        directory = self.settings.out / _file_name(self.name)[:-5]
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / _file_name(verdict.scenario_id)
        path.write_bytes(dumps_pretty(verdict.disagreement.scenario) + b"\n")
        command = f"{self.settings.replay_prefix} --compare {self.settings.level} --replay {shlex.quote(str(path))}"
        disagreement = evolve(verdict.disagreement, replay_path=str(path), replay_command=command)
        return evolve(verdict, disagreement=disagreement)

    def run_known(self, phase: str, entries: list[tuple[str, tuple[str, ...], dict, dict]]) -> None:
        """Scenarios with a known expected outcome, pipelined: (family, pinned rules, scenario, expected) each."""
        by_scenario = {id(scenario): (family, pinned, expected) for family, pinned, scenario, expected in entries}
        failures = []
        for scenario, reply in self.process.run_many([scenario for _, _, scenario, _ in entries]):
            family, pinned, expected = by_scenario[id(scenario)]
            self.advance()
            verdict = judge(self.name, phase, family, scenario, expected, reply, self.settings.level, self.settings.known, pinned)
            if verdict.status == "failed":
                failures.append((verdict, reply))
            else:
                self.record(verdict)
        # Confirmed once the pipeline is empty: a run sent alone while others are in flight would read their replies.
        for verdict, reply in failures:
            self.record(self._confirmed(verdict, reply))

    def _confirmed(self, verdict: Verdict, first: RunReply) -> Verdict:
        """A failure, unless answering the same scenario again gives another answer: then it is nondeterministic."""
        second = self.process.run_one(verdict.disagreement.scenario)
        if is_same_reply(first, second):
            return verdict
        return evolve(verdict, status="nondeterministic", message="answered the same scenario differently twice")

    def run_corpus(self, cases: list[CorpusCase]) -> None:
        chosen = [c for c in cases if is_selected(c.scenario, self.settings)]
        self.run_known("corpus", [(c.family, c.rules, c.scenario, c.expected) for c in chosen])

    def run_replay(self, scenarios: list[dict]) -> None:
        self.run_known("replay", [("replay", (), s, model_outcome(s)) for s in scenarios])

    def run_generated(self) -> None:
        info = self.tally.info
        chosen = targets(self.settings, info.kinds, info.rules)
        started = time.perf_counter()
        for number, (kind, version) in enumerate(chosen):
            budget = self.settings.examples // len(chosen) + (number < self.settings.examples % len(chosen))
            if budget:
                Hunt(self, kind, version, budget).run()
        self.tally.generated_seconds = time.perf_counter() - started

    def finish(self) -> Tally:
        tally = self.tally
        tally.restarts, tally.reordered, tally.notes = self.process.restarts, self.process.reordered, list(self.process.notes)
        self.process.close()
        return tally

    def lose(self, error: StartFailed) -> Tally:
        """The implementation could not be restarted: what was measured stands, the rest is reported lost."""
        self.tally.lost = f"could not be restarted: {error}"
        return self.finish()


class Hunt:
    """Generated scenarios for one rule version, up to a few distinct shrunk disagreements."""

    def __init__(self, campaign: Campaign, kind: str, version: str, budget: int):
        self.campaign, self.kind, self.version, self.budget = campaign, kind, version, budget
        self.family = f"generated/{version}"
        self.answers: dict[bytes, RunReply] = {}
        self.flagged: set[bytes] = set()  # nondeterministic or errored scenarios already reported
        self.found: set[tuple] = set()

    def ask(self, scenario: dict) -> tuple[RunReply, bool]:
        """The implementation's answer, and whether it matches every earlier answer to the same scenario."""
        reply = self.campaign.process.run_one(scenario)
        self.campaign.tally.generated += 1
        self.campaign.advance()
        first = self.answers.setdefault(orjson.dumps(scenario, option=orjson.OPT_SORT_KEYS), reply)
        return reply, is_same_reply(first, reply)

    def verdict(self, scenario: dict, reply: RunReply) -> Verdict:
        c = self.campaign
        return judge(c.name, "generated", self.family, scenario, model_outcome(scenario), reply, c.settings.level, c.settings.known)

    def report_once(self, scenario: dict, verdict: Verdict) -> None:
        key = orjson.dumps(scenario, option=orjson.OPT_SORT_KEYS)
        if key not in self.flagged:
            self.flagged.add(key)
            self.campaign.record(verdict)

    def disagrees(self, scenario: dict) -> bool:
        """The condition hypothesis shrinks: a new disagreement, neither known nor nondeterministic."""
        reply, consistent = self.ask(scenario)
        if not consistent:
            verdict = self.verdict(scenario, reply)
            self.report_once(scenario, evolve(verdict, status="nondeterministic", message="answered the same scenario differently twice"))
            return False
        if isinstance(reply, (Skipped, Errored)):
            if isinstance(reply, Errored):
                self.report_once(scenario, self.verdict(scenario, reply))
            else:
                self.campaign.tally.unkept[self.family, "skipped"] += 1
            return False
        verdict = self.verdict(scenario, reply)
        if verdict.status == "passed":
            self.campaign.tally.unkept[self.family, "passed"] += 1
            return False
        if verdict.status == "known":
            self.campaign.tally.unkept[self.family, "known"] += 1
            return False
        return (verdict.disagreement.step, verdict.disagreement.keys) not in self.found

    def run(self) -> None:
        options = settings(database=None, max_examples=self.budget, deadline=None, suppress_health_check=list(HealthCheck))
        seed = self.campaign.settings.seed
        for attempt in range(self.campaign.settings.disagreements):
            try:
                scenario = find(strategy_for(self.kind, self.version), self.disagrees, settings=options, random=Random(seed + attempt))
            except (NoSuchExample, HypothesisException):
                return
            reply, consistent = self.ask(scenario)
            verdict = self.verdict(scenario, reply)
            if not consistent or verdict.status != "failed":
                self.report_once(scenario, evolve(verdict, status="nondeterministic", message="a shrunk disagreement did not recur"))
                continue
            named = dict(scenario, id=f"generated.{self.version}.{len(self.found) + 1}")
            d = verdict.disagreement
            self.found.add((d.step, d.keys))
            self.campaign.record(evolve(verdict, scenario_id=named["id"], disagreement=Disagreement(named, d.expected, d.actual, d.step, d.keys)))
