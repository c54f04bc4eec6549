"""A verify campaign: the corpus, then generated scenarios, each outcome held to the model's.

Generated scenarios come from the seeded generators and run pipelined
(``harness/hunt.py``); a disagreement is reduced to the smallest scenario
that still disagrees, confirmed by running it twice more (a corpus case
once), and saved as a replayable scenario file. Any scenario answered twice, differently, is
nondeterministic. Every verdict is handed to
the observer the moment it is reached, so a report written as they come
loses nothing when a campaign is cut short.
"""

from __future__ import annotations

import re
import shlex
import time
from pathlib import Path
from typing import Callable

from attrs import evolve, frozen

from ..documents import dumps_pretty
from .corpus import CorpusCase
from .expectations import RULES_OF_KIND, undecided
from .hunt import Hunt, model_outcome
from .known import KnownDivergence
from .process import ImplementationProcess, StartFailed
from .protocol import Errored, RunReply, scenario_rules
from .results import Tally, Verdict, is_same_reply, judge

KINDS = ("ceiling", "gateway")


@frozen
class CampaignSettings:
    level: str = "decision"
    examples: int = 10_000  # generated scenarios in all, shared among the rule versions driven
    seed: int = 0
    rules: tuple[str, ...] | None = None  # None: every version the implementation decides
    kinds: tuple[str, ...] = KINDS
    timeout: float = 10.0
    window: int = 64
    known: tuple[KnownDivergence, ...] = ()
    out: Path | None = None  # where disagreements are saved as replayable files
    replay_prefix: str = "gateproof verify"
    disagreements: int = 3  # distinct shrunk disagreements searched for per rule version: each costs a shrink
    exitfirst: bool = False  # stop at the first disagreement: whether, not where, an implementation departs


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
        self.process = ImplementationProcess(self.argv, campaign.timeout, campaign.window, on_duplicate=self._duplicate)
        self.tally = Tally(name)
        self.origin: dict[str, tuple[str, str, tuple[str, ...]]] = {}  # scenario id -> (phase, family, pinned rules) of known scenarios
        self.duplicated: set[str] = set()  # generated families in which a duplicate reply is already recorded

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

    def _duplicate(self, scenario: dict, errored: Errored) -> None:
        """A second reply to a run already answered: an error of that run's scenario, whatever its first answer was judged.

        Among generated scenarios the first in each family is recorded and the rest counted, as for any repeated error.
        """
        scenario_id = scenario.get("id", "")
        phase, family, pinned = self.origin.get(scenario_id, ("generated", f"generated/{scenario_rules(scenario)}", ()))
        if phase == "generated" and family in self.duplicated:
            self.tally.unkept[family, "errored"] += 1
            return
        self.duplicated.add(family)
        self.record(Verdict(self.name, phase, family, scenario_id, "errored", errored.message, pinned))

    def run_known(self, phase: str, entries: list[tuple[str, tuple[str, ...], dict, dict]]) -> None:
        """Scenarios with a known expected outcome, pipelined: (family, pinned rules, scenario, expected) each."""
        by_scenario = {id(scenario): (family, pinned, expected) for family, pinned, scenario, expected in entries}
        self.origin.update((scenario.get("id", ""), (phase, family, pinned)) for family, pinned, scenario, _ in entries)
        failures = []
        for scenario, reply in self.process.run_many([scenario for _, _, scenario, _ in entries]):
            family, pinned, expected = by_scenario[id(scenario)]
            self.advance()
            verdict = judge(self.name, phase, family, scenario, expected, reply, self.settings.level, self.settings.known, pinned)
            self.tally.count_scenario(scenario, verdict.status, verdict.message)
            if verdict.status == "failed":
                failures.append((verdict, reply))
            else:
                self.record(verdict)
        # Confirmed once the pipeline is empty: a run sent alone while others are in flight would read their replies.
        for verdict, reply in failures:
            self.record(self._confirmed(verdict, reply))

    def recurs(self, scenario: dict, reply: RunReply, times: int = 1) -> bool:
        """Whether ``times`` more runs of the scenario, each alone, answer as ``reply`` did."""
        return all(is_same_reply(reply, self.process.run_one(scenario)) for _ in range(times))

    def _confirmed(self, verdict: Verdict, first: RunReply) -> Verdict:
        """A failure, unless answering the same scenario again gives another answer: then it is nondeterministic."""
        if self.recurs(verdict.disagreement.scenario, first):
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
        if not chosen and self.settings.examples:
            self.tally.notes.append(f"generated 0 of the {self.settings.examples} scenarios asked: it declares no kind and rule version selected")
        started = time.perf_counter()
        for number, (kind, version) in enumerate(chosen):
            budget = self.settings.examples // len(chosen) + (number < self.settings.examples % len(chosen))
            if self.settings.exitfirst and self.tally.first_failure_after is not None:
                break
            if budget:
                Hunt(self, kind, version, budget).run()
        self.tally.generated_seconds = time.perf_counter() - started

    def finish(self) -> Tally:
        tally = self.tally
        tally.restarts, tally.reordered = self.process.restarts, self.process.reordered
        tally.notes += self.process.notes
        tally.notes += [f"skipped {count}: {reason}" for reason, count in tally.skipped_for.most_common()]
        tally.notes += filter(None, [undecided(tally)])
        self.process.close()
        return tally

    def lose(self, error: StartFailed) -> Tally:
        """The implementation could not be restarted: what was measured stands, the rest is reported lost."""
        self.tally.lost = f"could not be restarted: {error}"
        return self.finish()
