"""``make bench``'s protocol figures: the corpus replayed to ``reference`` and a verify campaign against it, side by side.

A small machine shared with others runs the same code a third slower in
one minute than in the next, so one campaign says little about the rate a
user sees. Three rounds are run, each a corpus replay and then a campaign,
so each campaign is compared with a replay measured on the machine as it
was then; the target is held to the slowest campaign, and the ratio to
replay to the round where the campaign fell furthest behind.

Each round also replays the campaign's own scenarios, drawn and decided
beforehand: what the reference costs on them alone. The campaign's rate as
a share of that replay's is what drawing, deciding and comparing them cost
the wall clock; the rest is the implementation answering.
"""

from __future__ import annotations

import resource
import time
from itertools import islice
from typing import Callable

from attrs import frozen

from gateproof.model.scenario import read_scenario, run_scenario

from ..generation import scenarios as generated_scenarios
from ..harness.campaign import Campaign, CampaignSettings, budgets
from ..corpus.load import load_corpus
from ..harness.hunt import with_expected_outcomes
from ..harness.process import ImplementationProcess
from ..implementations import BUILTINS
from ..implementations.reference import INFO as REFERENCE

PROTOCOL_TARGET = 10_000  # corpus replays a second through the protocol
CAMPAIGN_TARGET = 5_000  # generated scenarios a second in a verify campaign against reference
CAMPAIGN_RATIO = 3.0  # corpus replay at most this many times faster than a campaign
ROUNDS = 3


def cpu_seconds(who: int) -> float:
    """User and system time of this process (``RUSAGE_SELF``) or of its reaped children (``RUSAGE_CHILDREN``)."""
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


class CpuSpent:
    """The CPU time the harness and its implementation process spend meanwhile; the process counts once it is closed (reaped)."""

    def __enter__(self):
        self.harness, self.implementation = cpu_seconds(resource.RUSAGE_SELF), cpu_seconds(resource.RUSAGE_CHILDREN)
        return self

    def __exit__(self, *exc_info):
        self.harness = cpu_seconds(resource.RUSAGE_SELF) - self.harness
        self.implementation = cpu_seconds(resource.RUSAGE_CHILDREN) - self.implementation


@frozen
class Round:
    """One corpus replay and the campaign run after it: scenarios a second, and the CPU each side spent a scenario."""

    replay_rate: float
    replay_cpu: tuple[float, float]  # harness, reference: seconds a scenario
    campaign_rate: float
    campaign_cpu: tuple[float, float]
    drawn_rate: float  # the campaign's own scenarios, drawn and decided beforehand, replayed
    drawn_cpu: tuple[float, float]

    @property
    def ratio(self) -> float:
        """How many times faster the replay ran than the campaign."""
        return self.replay_rate / self.campaign_rate

    @property
    def share_of_drawn(self) -> float:
        """The campaign's rate as a share of the rate its own scenarios replay at: what drawing and deciding them leaves."""
        return self.campaign_rate / self.drawn_rate


def rate(per_second: float) -> str:
    return f"{per_second:>12,.0f}/s  {1e6 / per_second:8.2f} µs each"


def replay(scenarios: list[dict], expected: Callable[[dict], dict]) -> tuple[float, tuple[float, float]]:
    """Scenarios through the protocol as verify replays the corpus, 64 in flight, every reply compared."""
    with CpuSpent() as spent:
        process = ImplementationProcess(BUILTINS["reference"], window=64)
        process.start()
        start = time.perf_counter()
        replies = process.run_many(scenarios, expected)
        agreed = sum(getattr(reply, "outcome", None) == expected(scenario) for scenario, reply in replies)  # an error or a skip agrees with nothing
        seconds = time.perf_counter() - start
        process.close()
    assert agreed == len(scenarios), f"the reference disagreed on {len(scenarios) - agreed} scenarios"
    return len(scenarios) / seconds, (spent.harness / len(scenarios), spent.implementation / len(scenarios))


def campaign(examples: int) -> tuple[float, tuple[float, float], int]:
    """The default verify campaign's generated part against reference: its rate, CPU a scenario, and how many it ran."""
    with CpuSpent() as spent:
        run = Campaign("reference", BUILTINS["reference"], CampaignSettings(examples=examples))
        run.start()
        run.run_generated()
        tally = run.finish()
    count = tally.generated
    return count / tally.generated_seconds, (spent.harness / count, spent.implementation / count), count


def drawn_beforehand(examples: int) -> tuple[list[dict], dict[int, dict]]:
    """The scenarios a default campaign of ``examples`` sends the reference, and each one's outcome by ``id()`` of it: drawn and decided here, untimed."""
    settings, expected_of, drawn = CampaignSettings(examples=examples), {}, []
    for kind, version, budget in budgets(settings, REFERENCE):
        drawn += with_expected_outcomes(islice(generated_scenarios(kind, version, settings.seed), budget), expected_of)
    return drawn, expected_of


def cpu(pair: tuple[float, float]) -> str:
    return f"{pair[0] * 1e6:.0f} / {pair[1] * 1e6:.0f} µs"


def bench_protocol(print=print, repeat: int = 100, examples: int = 20_000, rounds: int = ROUNDS) -> None:
    """The corpus replayed through the protocol beside the model in process; then a campaign after each replay."""
    cases = load_corpus()
    scenarios = [case.scenario for case in cases] * repeat
    expected = {case.id: case.expected for case in cases}
    start = time.perf_counter()
    for scenario in scenarios:
        run_scenario(read_scenario(scenario))
    in_process = len(scenarios) / (time.perf_counter() - start)
    drawn, expected_of = drawn_beforehand(examples)
    measured, generated = [], 0
    for _ in range(rounds):
        replay_rate, replay_cpu = replay(scenarios, lambda scenario: expected[scenario["id"]])
        drawn_rate, drawn_cpu = replay(drawn, lambda scenario: expected_of[id(scenario)])
        campaign_rate, campaign_cpu, generated = campaign(examples)
        measured.append(Round(replay_rate, replay_cpu, campaign_rate, campaign_cpu, drawn_rate, drawn_cpu))
    report(measured, in_process, len(cases), repeat, generated, print)


def report(measured: list[Round], in_process: float, cases: int, repeat: int, generated: int, print=print) -> None:
    """The figures of the rounds: replay's best and worst, the campaigns' best and worst, the worst held to the target."""
    rounds = len(measured)
    replays = sorted(measured, key=lambda r: r.replay_rate)
    campaigns = sorted(measured, key=lambda r: r.campaign_rate)
    behind = max(measured, key=lambda r: r.ratio)
    print(f"corpus replay, {cases} cases x {repeat}, to reference through the protocol, 64 in flight, {rounds} runs (target {PROTOCOL_TARGET:,}/s)")
    print(f"  model in process: read, decide                   {rate(in_process)}")
    print(f"  through the protocol, best of {rounds}, compared        {rate(replays[-1].replay_rate)}  ratio to in process "
          f"{replays[-1].replay_rate / in_process:.2f}x  ratio to target {replays[-1].replay_rate / PROTOCOL_TARGET:.2f}x")
    print(f"  through the protocol, worst of {rounds}                 {rate(replays[0].replay_rate)}  ratio to target {replays[0].replay_rate / PROTOCOL_TARGET:.2f}x")
    print(f"verify campaign against reference, {generated:,} generated scenarios over every rule version, {rounds} runs, each after a replay "
          f"(target {CAMPAIGN_TARGET:,}/s in the slowest, and corpus replay at most {CAMPAIGN_RATIO:g}x faster)")
    print(f"  generated, run through the protocol and compared, best of {rounds}   {rate(campaigns[-1].campaign_rate)}")
    print(f"  generated, run through the protocol and compared, worst of {rounds}  {rate(campaigns[0].campaign_rate)}  "
          f"ratio to target {campaigns[0].campaign_rate / CAMPAIGN_TARGET:.2f}x  corpus replay of its round is {campaigns[0].ratio:.2f}x faster")
    print(f"  corpus replay faster than the campaign after it: at most {behind.ratio:.2f}x, "
          f"at least {min(r.ratio for r in measured):.2f}x")
    shares = sorted(r.share_of_drawn for r in measured)
    print(f"  its own scenarios, drawn and decided beforehand, replayed, worst of {rounds}  {rate(min(r.drawn_rate for r in measured))}  "
          f"the campaign ran at {shares[0]:.0%} to {shares[-1]:.0%} of its round's")
    # Time on a core, unlike the rates, is not shared with whatever else the machine runs: where each scenario's time goes.
    middle = campaigns[len(campaigns) // 2]
    print(f"  CPU a scenario, harness / reference, start-up included, the median campaign's round: corpus replay {cpu(middle.replay_cpu)},"
          f" its scenarios replayed {cpu(middle.drawn_cpu)}, campaign {cpu(middle.campaign_cpu)}")
