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

import time
from pathlib import Path
from typing import Callable

from attrs import evolve, frozen

from ..program import command
from .documents import dumps_pretty
from .environment import marked
from .collection import fewer_collections
from ..corpus.load import CorpusCase
from .expectations import RULES_OF_KIND, undecided
from .hunt import Hunt, model_outcome
from .known import KnownDivergence
from .paths import WriteFailed, as_typed_here, folder_within, is_disk_full, path_component, write_no_follow
from .process import DEFAULT_START_TIMEOUT, ImplementationProcess, StartFailed
from .protocol import CEILING_ADR_VERSIONS, CEILING_DEFAULT, Errored, RunReply, Started, scenario_rules
from .results import Tally, Verdict, is_same_reply, judge
from .shards import WHOLE, Shard, holds_case, share

KINDS = ("ceiling", "gateway")
DEFAULT_TIMEOUT = 10.0


@frozen
class CampaignSettings:
    level: str = "decision"
    examples: int = 10_000  # generated scenarios in all, shared among the rule versions driven
    seed: int = 0
    rules: tuple[str, ...] | None = None  # None: every version the implementation decides
    kinds: tuple[str, ...] = KINDS
    timeout: float = DEFAULT_TIMEOUT
    window: int = 64
    known: tuple[KnownDivergence, ...] = ()
    out: Path | None = None  # where disagreements are saved as replayable files
    implementation_arguments: tuple[str, ...] = ()  # how verify names the implementation: --builtin NAME, or -- and its command
    disagreements: int = 3  # distinct shrunk disagreements searched for per rule version: each costs a shrink
    exitfirst: bool = False  # stop at the first disagreement: whether, not where, an implementation departs
    shard: Shard = WHOLE  # which part of the campaign this run is: see harness/shards.py
    environment: tuple[tuple[str, str], ...] | None = None  # what the implementation starts with (None: verify's whole environment)
    marker: str | None = None  # the token every process of the implementation carries (harness/environment.py)
    start_timeout: float = DEFAULT_START_TIMEOUT  # seconds for start to be answered, after a restart too
    catalog: dict | None = None  # the tool catalog gateway scenarios are generated under (None: the lab's gateway generator)


def targets(campaign: CampaignSettings, decided_kinds, decided_rules) -> list[tuple[str, str]]:
    """The (kind, rule version) pairs to generate for: chosen, and decided by the implementation."""
    return [
        (kind, version) for kind in campaign.kinds if kind in decided_kinds
        for version in RULES_OF_KIND[kind] if version in decided_rules and (campaign.rules is None or version in campaign.rules)
    ]


def budgets(campaign: CampaignSettings, info: Started) -> list[tuple[str, str, int]]:
    """(kind, rule version, generated scenarios) for each target, ``examples`` shared among those the implementation decides."""
    chosen = targets(campaign, info.kinds, info.rules)
    examples = campaign.examples
    return [(kind, version, examples // len(chosen) + (number < examples % len(chosen))) for number, (kind, version) in enumerate(chosen)]


def is_selected(scenario: dict, campaign: CampaignSettings) -> bool:
    kind = scenario.get("kind", "ceiling")
    return kind in campaign.kinds and (campaign.rules is None or scenario_rules(scenario) in campaign.rules)


def started_with(campaign: CampaignSettings) -> dict[str, str] | None:
    """The environment the implementation starts with: the one chosen (None: verify's own), marked when a marker is given."""
    environment = None if campaign.environment is None else dict(campaign.environment)
    return environment if campaign.marker is None else marked(environment, campaign.marker)


def undeclared(scenario: dict, info: Started | None) -> str | None:
    """What of a scenario the implementation does not declare in ``started``: its kind, else its rule version; None when both are."""
    kind = scenario.get("kind", "ceiling")
    if info is None or (kind in info.kinds and scenario_rules(scenario) in info.rules):
        return None
    return kind if kind not in info.kinds else scenario_rules(scenario)


def version_behind(scenario: dict, info: Started | None) -> str | None:
    """The version a trust-ceiling scenario that names none runs under, for an implementation that declares ADR versions but
    not the default: the latest of them. None: the scenario runs as it is.

    The default is the latest ADR and moves with the next one: an implementation that has not learned it yet is still held
    to every scenario that names no version, under the rules it says it decides, rather than losing them all.
    """
    if info is None or "rules" in scenario or scenario.get("kind", "ceiling") != "ceiling" or CEILING_DEFAULT in info.rules:
        return None
    declared = [version for version in CEILING_ADR_VERSIONS if version in info.rules]
    return declared[-1] if declared else None


def under_latest_declared(case: CorpusCase, info: Started | None) -> CorpusCase:
    """The case under :func:`version_behind`'s version, expected as the model decides it there; else the case as it is."""
    version = version_behind(case.scenario, info)
    if version is None:
        return case
    scenario = {**case.scenario, "rules": version}
    return evolve(case, scenario=scenario, expected=model_outcome(scenario))


class Campaign:
    """One implementation driven through the corpus and generated scenarios."""

    def __init__(self, name: str | None, argv, campaign: CampaignSettings, observe: Callable[[Verdict], None] = lambda verdict: None,
                 advance: Callable[[], None] = lambda: None, describe: Callable[[str], None] = lambda text: None):
        self.name, self.argv, self.settings, self.observe, self.advance = name, tuple(argv), campaign, observe, advance
        self.describe = describe  # says what the campaign does when it is not counting scenarios: reducing a disagreement
        self.process = ImplementationProcess(self.argv, campaign.timeout, campaign.window, on_duplicate=self._duplicate,
                                             environment=started_with(campaign), start_timeout=campaign.start_timeout)
        self.tally = Tally(name)
        self.began = time.perf_counter()
        self.origin: dict[str, tuple[str, str, tuple[str, ...]]] = {}  # scenario id -> (phase, family, pinned rules) of known scenarios
        self.as_run: dict[str, CorpusCase] = {}  # corpus case id -> the case as run (chosen)
        self.duplicated: set[str] = set()  # generated families in which a duplicate reply is already recorded

    def start(self):
        """Start the implementation; StartFailed when it does not answer start as the protocol says.

        An implementation given by its command is known by the name it answers start with.
        """
        info = self.tally.info = self.process.start()
        if self.name is None:
            self.name = self.tally.name = info.name
        if info.unobservable:
            self.tally.notes.append(f"compared without {', '.join(info.unobservable)}: the implementation declares it cannot show "
                                    "it (PROTOCOL.md, start)")
        return info

    def record(self, verdict: Verdict, scenario: dict | None = None) -> Verdict:
        """Keep a verdict, a disagreement's scenario saved with the command that replays it, and an errored run's (given as ``scenario``) too."""
        if self.settings.out is not None and (verdict.disagreement is not None or scenario is not None):
            try:
                verdict = self._saved(verdict) if verdict.disagreement is not None else self._saved_errored(verdict, scenario)
            except OSError as error:
                self.tally.notes.append(f"could not save the scenario of {verdict.scenario_id}: {error}")
        self.tally.verdicts.append(verdict)
        self.observe(verdict)
        return verdict

    def _saved(self, verdict: Verdict) -> Verdict:
        """The verdict with its scenario written as a replayable file and the command that replays it, from the folder verify ran in."""
        path = self._written(verdict.scenario_id, verdict.disagreement.scenario)
        disagreement = evolve(verdict.disagreement, replay_path=str(path), replay_command=self.replay_command(path))
        return evolve(verdict, disagreement=disagreement)

    def _saved_errored(self, verdict: Verdict, scenario: dict) -> Verdict:
        """An errored run with its scenario written as a file, and the command that runs it again in its context."""
        path = self._written(verdict.scenario_id, scenario)
        return evolve(verdict, context={**verdict.context, "replay": self.replay_command(path)})

    def _written(self, scenario_id: str, scenario: dict) -> Path:
        """Where the scenario is written, as a person types it in the working folder (``paths.as_typed_here``)."""
        directory = folder_within(self.settings.out, path_component(self.name))
        path = (directory / f"{path_component(scenario_id)}.json").absolute()
        try:
            write_no_follow(path, dumps_pretty(scenario) + b"\n")
        except OSError as error:
            if not is_disk_full(error):
                raise  # noted, and the campaign goes on
            path.unlink(missing_ok=True)  # no part of a scenario is left to replay
            raise WriteFailed(path, error) from None
        return Path(as_typed_here(path))

    def replay_command(self, path: Path) -> str:
        """The command that runs the saved scenario again as this campaign ran it: the options first, the implementation last.

        An implementation given by its command comes after ``--``, so nothing may follow it.
        """
        settings, options = self.settings, ["--compare", self.settings.level]
        if settings.timeout != DEFAULT_TIMEOUT:
            options += ["--timeout", repr(settings.timeout)]
        if settings.start_timeout != DEFAULT_START_TIMEOUT:
            options += ["--start-timeout", repr(settings.start_timeout)]
        return command("verify", *options, "--replay", str(path), *settings.implementation_arguments)

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
        self.record(Verdict(self.name, phase, family, scenario_id, "errored", errored.message, pinned), scenario)

    def run_known(self, phase: str, entries: list[tuple[str, tuple[str, ...], dict, dict]]) -> None:
        """Scenarios with a known expected outcome, pipelined: (family, pinned rules, scenario, expected) each."""
        by_scenario = {id(scenario): (family, pinned, expected) for family, pinned, scenario, expected in entries}
        self.origin.update((scenario.get("id", ""), (phase, family, pinned)) for family, pinned, scenario, _ in entries)
        failures = []
        with fewer_collections():
            for scenario, reply in self.process.run_many([scenario for _, _, scenario, _ in entries], lambda scenario: by_scenario[id(scenario)][2]):
                family, pinned, expected = by_scenario[id(scenario)]
                self.advance()
                verdict = evolve(judge(self.name, phase, family, scenario, expected, reply, self.settings.level, self.settings.known, pinned,
                                       self.tally.info.unobservable),
                                 seconds=self.process.reply_seconds)
                self.tally.count_scenario(scenario, verdict.status, verdict.message)
                if verdict.status == "failed":
                    failures.append((verdict, reply))
                else:
                    self.record(verdict, scenario if verdict.status == "errored" else None)
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

    def chosen(self, cases: list[CorpusCase]) -> list[CorpusCase]:
        """The corpus cases selected and of its shard, each as :func:`under_latest_declared` gives it, decided once however often
        the campaign asks (verify counts them for its progress before it runs them)."""
        of_shard = [c for c in cases if is_selected(c.scenario, self.settings) and holds_case(self.settings.shard, c.id)]
        for case in of_shard:
            if case.id not in self.as_run:
                self.as_run[case.id] = under_latest_declared(case, self.tally.info)
        return [self.as_run[c.id] for c in of_shard if is_selected(self.as_run[c.id].scenario, self.settings)]

    def held(self, cases: list[CorpusCase]) -> list[CorpusCase]:
        """The cases of :meth:`chosen` this campaign runs: of a kind and rule version the implementation declares."""
        return [c for c in self.chosen(cases) if not undeclared(c.scenario, self.tally.info)]

    def run_corpus(self, cases: list[CorpusCase]) -> None:
        """The corpus cases held; those of a kind or rule version the implementation does not declare are counted in one note each."""
        chosen, given = self.chosen(cases), {c.id: c for c in cases}
        self.tally.defaulted.update(("corpus case", c.scenario["rules"]) for c in chosen if c is not given[c.id])
        missing = [undeclared(c.scenario, self.tally.info) for c in chosen]
        self.tally.undeclared.update(filter(None, missing))
        self.run_known("corpus", [(c.family, c.rules, c.scenario, c.expected) for c, what in zip(chosen, missing) if what is None])

    def run_replay(self, scenarios: list[dict]) -> None:
        """The scenarios given, each held to the model's outcome; one that names no version as :func:`version_behind` says."""
        behind = [version_behind(s, self.tally.info) for s in scenarios]
        self.tally.defaulted.update(("replayed scenario", version) for version in filter(None, behind))
        scenarios = [s if version is None else {**s, "rules": version} for s, version in zip(scenarios, behind)]
        self.run_known("replay", [("replay", (), s, model_outcome(s)) for s in scenarios])

    def planned(self, cases: list[CorpusCase]) -> int:
        """How many scenarios this campaign runs, once started: its corpus cases and its share of the generated ones."""
        return len(self.held(cases)) + sum(share(budget, self.settings.shard) for _, _, budget in budgets(self.settings, self.tally.info))

    def run_generated(self) -> None:
        shared = budgets(self.settings, self.tally.info)
        if not shared and self.settings.examples:
            self.tally.notes.append(f"generated 0 of the {self.settings.examples} scenarios asked: it declares no kind and rule version selected")
        started = time.perf_counter()
        with fewer_collections():
            for kind, version, budget in shared:
                if self.settings.exitfirst and self.tally.first_failure_after is not None:
                    break
                if budget:
                    Hunt(self, kind, version, budget).run()
        self.tally.generated_seconds = time.perf_counter() - started

    def finish(self) -> Tally:
        tally = self.tally
        tally.restarts, tally.reordered = self.process.restarts, self.process.reordered
        tally.seconds = time.perf_counter() - self.began
        tally.notes += self.process.notes
        tally.notes += [f"does not declare {CEILING_DEFAULT}, the default: {count} {what}{'s' * (count != 1)} naming no version "
                        f"run under {version}, the latest it declares" for (what, version), count in tally.defaulted.items()]
        tally.notes += [f"does not declare {what}: {count} corpus case{'s' * (count != 1)} not run" for what, count in tally.undeclared.items()]
        tally.notes += [f"skipped {count}: {reason}" for reason, count in tally.skipped_for.most_common()]
        tally.notes += filter(None, [undecided(tally)])
        self.process.close()
        return tally

    def lose(self, error: StartFailed) -> Tally:
        """The implementation could not be restarted: what was measured stands, the rest is reported lost."""
        self.tally.lost = f"could not be restarted: {error}"
        return self.finish()
