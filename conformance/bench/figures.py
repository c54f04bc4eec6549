"""``make bench``: the figures the project promises, measured side by side in one run.

Run with ``python -m gateproof.conformance.bench``. Figures are printed, never
asserted: machines are noisy, and a timed assertion would make the suite flaky.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time

import orjson

from gateproof.model.context_gate import decide
from gateproof.model.enforcement import is_enforcing
from gateproof.model.fold import fold
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.read import Send
from gateproof.model.scenario.run import trace_send

from ..harness.bulk import decide_line
from ..harness.campaign import Campaign, CampaignSettings
from ..corpus.load import load_corpus
from ..harness.expectations import size_text, smallest_counterexample
from ..implementations import BUILTINS, is_mutant, unavailable
from ..figure_pages import Printed, interpreter, machine, write_page
from ..reports.failure import failure_lines
from .nrllm import bench_nrllm
from .sends import ten_source_scenario

DECISION_TARGET = 100_000  # decisions a second, in process, 10 sources
JSONL_TARGET = 20_000  # scenarios a second end to end, the nr-llm PHP figure


def rate(count: int, seconds: float) -> str:
    return f"{count / seconds:>12,.0f}/s  {seconds / count * 1e6:8.2f} µs each"


def timed(function, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        function()
    return time.perf_counter() - start


def bench_decisions(print=print) -> None:
    scenario = read_scenario(ten_source_scenario(random.Random(1), 0))
    world, step = scenario.world, scenario.steps[0]
    assert isinstance(step, Send)
    trace = trace_send(world, step, scenario.rules)
    assert len(trace.sources) == 10, len(trace.sources)
    sources = trace.sources
    configuration = world.configuration_index["c"]
    from gateproof.model.resolution import resolve_zone

    def gate_only():
        decide(fold(sources), lambda: resolve_zone(world, configuration).zone, lambda: is_enforcing(world.enforcement))

    def whole_send():
        trace_send(world, step, scenario.rules)

    repeat = 50_000
    timed(whole_send, 1000)
    gate_seconds = timed(gate_only, repeat)
    send_seconds = timed(whole_send, repeat)
    print("ceiling decisions, in process, a send with 10 sources (target 100,000/s)")
    print(f"  fold + zone + decision          {rate(repeat, gate_seconds)}  ratio to target {repeat / gate_seconds / DECISION_TARGET:.2f}x")
    print(f"  whole send (lookups, sources…)  {rate(repeat, send_seconds)}  ratio to target {repeat / send_seconds / DECISION_TARGET:.2f}x")


def run_command(argv: list[str]) -> tuple[float, bytes]:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, check=True)
    return time.perf_counter() - start, done.stdout


def bench_jsonl(print=print, count: int = 10_000) -> None:
    """The command's own per-line function in process, then the command itself, its start-up measured apart."""
    rng = random.Random(7)
    lines = [orjson.dumps(ten_source_scenario(rng, n)) for n in range(count)]
    start = time.perf_counter()
    for line in lines:
        decide_line(line)
    in_process = time.perf_counter() - start
    with tempfile.NamedTemporaryFile("wb", suffix=".jsonl", delete=False) as handle:
        handle.write(b"\n".join(lines) + b"\n")
    decide = [sys.executable, "-m", "gateproof.conformance.cli", "decide", "--jsonl"]
    try:
        start_up = min(run_command([*decide, os.devnull])[0] for _ in range(3))
        commands = {}
        for jobs in sorted({1, os.cpu_count() or 1}):
            commands[jobs], stdout = run_command([*decide, "--jobs", str(jobs), handle.name])
            assert stdout.count(b"\n") == count
    finally:
        os.unlink(handle.name)
    print(f"decide --jsonl, {count:,} generated 10-source scenarios (target 20,000/s in one process, the nr-llm PHP figure)")
    print(f"  in process: parse, validate, decide, serialise  {rate(count, in_process)}  ratio to target {count / in_process / JSONL_TARGET:.2f}x")
    print(f"  the command's start-up, on empty input          {start_up:12.2f} s")
    for jobs, seconds in commands.items():
        label = f"the command, --jobs {jobs}, start-up included"
        print(f"  {label:<47} {rate(count, seconds)}  ratio to target {count / seconds / JSONL_TARGET:.2f}x")


def bench_diff(print=print) -> None:
    from ..diff.search import forced_source_count, search_differences
    from ..proofs.equivalence import compare_versions

    print("gateproof diff between consecutive versions (target: 166 to 175 found in under 10 s, at most two forced sources)")
    for left, right in (("adr-166", "adr-175"), ("adr-175", "adr-179")):
        start = time.perf_counter()
        found = search_differences(left, right)
        total = time.perf_counter() - start
        first = f"first after {found[0].seconds:.2f} s, {forced_source_count(found[0].scenario)} forced source(s)" if found else "none found"
        keys = sorted({key for difference in found for key in difference.keys})
        print(f"  {left} -> {right}: {len(found)} difference(s), {first}; keys that differ {keys}; whole search {total:.2f} s")
        start = time.perf_counter()
        proofs = compare_versions(left, right, 8)
        verdicts = ", ".join(f"{c.subjects.domain.name} {'alike' if c.outcome == 'proved' else c.outcome}" for c in proofs)
        print(f"  {left} -> {right}: decisions proved with z3 at bound 8 ({verdicts}) in {time.perf_counter() - start:.2f} s")


CATCH_TARGET_SECONDS = 2.0


class FirstCatch:
    """Notes how long a campaign ran until its first disagreement was recorded."""

    def __init__(self):
        self.started = time.perf_counter()
        self.seconds: float | None = None

    def observe(self, verdict) -> None:
        if self.seconds is None and verdict.status == "failed":
            self.seconds = time.perf_counter() - self.started


def bench_mutants(print=print, examples: int = CampaignSettings().examples) -> None:
    """Each mutant driven as verify drives it: scenarios and seconds until caught, and its smallest counterexample."""
    print(f"the mutant zoo: corpus, then up to {examples} generated scenarios each, compared in full "
          f"(target: caught within {CATCH_TARGET_SECONDS:g} s, at most two forced sources or one call)")
    for name, argv in BUILTINS.items():
        if not is_mutant(name):
            continue
        catch = FirstCatch()
        campaign = Campaign(name, argv, CampaignSettings(level="full", examples=examples, disagreements=1), observe=catch.observe)
        campaign.start()
        campaign.run_corpus(load_corpus())
        campaign.run_generated()
        tally = campaign.finish()
        smallest = smallest_counterexample(tally)
        if catch.seconds is None or smallest is None:
            print(f"  {name:<28} MISSED after {tally.scenarios} scenarios")
            continue
        print(f"  {name:<28} caught after {tally.first_failure_after:>4} scenarios, {catch.seconds:5.2f} s (start-up included); "
              f"smallest: {smallest.scenario_id} ({size_text(smallest.disagreement.scenario)}, {len(failure_lines(smallest))} lines to read)")


def bench_conformant(print=print, examples: int = CampaignSettings().examples) -> None:
    """The implementations that must conform, on the corpus and ``examples`` generated scenarios each."""
    print(f"conformant implementations: corpus, then {examples:,} generated scenarios each")
    for name in ("reference", "node", "cedar"):
        if unavailable(name):
            print(f"  {name:<10} unavailable: {unavailable(name)}")
            continue
        campaign = Campaign(name, BUILTINS[name], CampaignSettings(level="full", examples=examples))
        started = time.perf_counter()
        campaign.start()
        campaign.run_corpus(load_corpus())
        campaign.run_generated()
        tally = campaign.finish()
        counts = tally.counts()
        verdict = "conformant" if tally.is_conformant() else "NOT CONFORMANT"
        print(f"  {name:<10} {verdict}: {counts['passed']} passed, {counts['failed']} failed, {counts['errored']} errored, "
              f"{counts['skipped']} skipped; {tally.generated:,} generated; {time.perf_counter() - started:.2f} s")


def bench_changes(print=print, sizes: tuple = (1000, 10_000), changes: int = 1000) -> None:
    """Time per world change on worlds of two sizes, best of five: a change copying its table would cost ten times more."""
    from ..generation.large_worlds import ceiling_changes, gateway_changes

    print(f"a world change ({changes:,} in a story, best of 5), on {sizes[0]:,} and on {sizes[1]:,} stored records (target: ratio near 1)")
    for kind, story in (("gateway", gateway_changes), ("ceiling", ceiling_changes)):
        scenarios = [read_scenario(story(size, changes)) for size in sizes]
        each = [min(timed(lambda: run_scenario(scenario), 1) for _ in range(5)) / changes for scenario in scenarios]
        print(f"  {kind:<8} {each[0] * 1e6:8.2f} µs each, {each[1] * 1e6:8.2f} µs each  ratio {each[1] / each[0]:.2f}x")


def reach(print=print) -> None:
    from ..generation.reach import bench_reach  # coverage.py loads only for this last figure

    bench_reach(print=print)


def sections() -> list:
    """Each figure of ``make bench``, in the order printed: a function of ``print``."""
    from . import proofs as bench_proofs
    from .mcp import bench_mcp
    from .protocol import bench_protocol
    from .shards import bench_shards

    return [bench_decisions, bench_changes, bench_nrllm, bench_jsonl, bench_diff, bench_protocol, bench_conformant, bench_mcp,
            bench_mutants, bench_shards, bench_proofs.run, reach]


def main(sections=sections) -> None:
    """Every figure, printed as measured; the page ``docs/figures/bench.md`` written only when the last is."""
    started_on = machine()
    printed = Printed()
    printed(f"measured on {interpreter()}, {os.cpu_count()} cores")
    for section in sections():
        printed()
        section(print=printed)
    write_page("bench.md", "make bench: the figures, measured side by side in one run",
               "make bench (python -m gateproof.conformance.bench)", started_on, printed.lines)


if __name__ == "__main__":
    main()
