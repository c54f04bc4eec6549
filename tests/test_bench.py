"""make bench's throughput figures: each measurement runs and prints, on a small input (the figures are never asserted)."""

from __future__ import annotations

import os
import platform
import re
import sys

from gateproof.conformance.bench.figures import bench_jsonl, interpreter


def test_the_jsonl_benchmark_runs_the_command_and_prints_every_figure():
    printed: list[str] = []
    bench_jsonl(print=printed.append, count=30)
    assert "target 20,000/s in one process" in printed[0]
    labels = [line.split("  ")[1].strip() for line in printed[1:] if line.startswith("  ")]
    assert labels[:3] == ["in process: parse, validate, decide, serialise", "the command's start-up, on empty input", "the command, --jobs 1, start-up included"]
    for line in printed[1:]:
        assert re.search(r"[0-9][0-9,.]*(/s| s)\b", line), line


def test_the_protocol_benchmark_interleaves_replays_and_campaigns_and_holds_the_slowest_to_the_target():
    from gateproof.conformance.bench.protocol import bench_protocol

    printed: list[str] = []
    bench_protocol(print=printed.append, repeat=2, examples=5, rounds=2)
    assert "through the protocol, best of 2" in printed[2] and "through the protocol, worst of 2" in printed[3]
    assert "2 runs, each after a replay" in printed[4] and "in the slowest" in printed[4]
    assert "best of 2" in printed[5] and "worst of 2" in printed[6] and "ratio to target" in printed[6]
    assert all(re.search(r"[0-9][0-9,.]*/s\b", line) for line in printed[1:4] + printed[5:7]), printed
    assert re.search(r"at most [0-9.]+x, at least [0-9.]+x$", printed[7]), printed
    assert "its own scenarios, drawn and decided beforehand, replayed, worst of 2" in printed[8], printed
    assert re.search(r"[0-9][0-9,.]*/s .* the campaign ran at [0-9]+% to [0-9]+% of its round's$", printed[8]), printed
    assert re.search(r"corpus replay [0-9]+ / [0-9]+ µs, its scenarios replayed [0-9]+ / [0-9]+ µs, campaign [0-9]+ / [0-9]+ µs$", printed[9]), printed


def test_the_scenarios_replayed_beside_a_campaign_are_the_ones_it_sends_with_the_models_outcomes():
    from itertools import islice

    from gateproof.conformance.bench.protocol import drawn_beforehand
    from gateproof.conformance.generation import scenarios
    from gateproof.conformance.harness.expectations import RULES_OF_KIND
    from gateproof.conformance.harness.hunt import model_outcome

    # The default campaign shares its examples among every rule version of both kinds, two each here, in the order verify drives them.
    drawn, expected_of = drawn_beforehand(2 * sum(len(versions) for versions in RULES_OF_KIND.values()))
    sent = [s for kind, versions in RULES_OF_KIND.items() for version in versions for s in islice(scenarios(kind, version), 2)]
    assert [s["id"] for s in drawn] == [s["id"] for s in sent]
    assert [expected_of[id(s)] for s in drawn] == [model_outcome(s) for s in sent]


def test_the_shard_benchmark_runs_one_and_two_shards_and_prints_their_ratio():
    from gateproof.conformance.bench.shards import bench_shards

    printed: list[str] = []
    bench_shards(print=printed.append, examples=40)
    assert "two shards side by side, merged" in printed[2] and "ratio to one" in printed[2] and "COUNTS DIFFER" not in printed[2]
    assert all(re.search(r"[0-9][0-9,.]* scenarios/s", line) for line in printed[1:3]), printed


def test_the_world_change_benchmark_times_both_kinds_on_two_sizes_and_prints_their_ratio():
    from gateproof.conformance.bench.figures import bench_changes

    printed: list[str] = []
    bench_changes(print=printed.append, sizes=(20, 200), changes=40)
    assert "on 20 and on 200 stored records" in printed[0]
    assert [line.split()[0] for line in printed[1:]] == ["gateway", "ceiling"]
    assert all(re.search(r"µs each, +[0-9.]+ µs each  ratio [0-9.]+x$", line) for line in printed[1:]), printed


def test_the_figures_name_the_interpreter_they_are_measured_on():
    named = interpreter()
    assert named.startswith(f"{platform.python_implementation()} {platform.python_version()} at ")
    assert os.path.realpath(sys.executable) in named


def test_the_protocol_report_holds_the_slowest_campaign_to_the_target_and_its_own_round_to_the_ratio():
    from gateproof.conformance.bench.protocol import Round, report

    rounds = [Round(12_000, (2e-5, 9e-5), 6_000, (1.6e-4, 1.6e-4), 6_500, (3e-5, 1.5e-4)),
              Round(9_000, (2e-5, 9e-5), 4_500, (2.2e-4, 2.2e-4), 5_000, (3e-5, 2e-4)),
              Round(11_000, (2e-5, 9e-5), 5_000, (1.8e-4, 1.8e-4), 5_000, (3e-5, 1.7e-4))]
    printed: list[str] = []
    report(rounds, 14_000, 298, 100, 20_000, printed.append)
    assert "12,000/s" in printed[2] and "9,000/s" in printed[3]
    assert "6,000/s" in printed[5] and "4,500/s" in printed[6]
    assert "ratio to target 0.90x" in printed[6] and "replay of its round is 2.00x faster" in printed[6]
    assert printed[7].endswith("at most 2.20x, at least 2.00x")
    assert "worst of 3         5,000/s" in printed[8] and printed[8].endswith("the campaign ran at 90% to 100% of its round's")
    assert printed[9].endswith("corpus replay 20 / 90 µs, its scenarios replayed 30 / 170 µs, campaign 180 / 180 µs")


def test_the_printing_bench_prints_both_printings_and_their_ratio():
    from gateproof.conformance.bench.printing import run

    printed = []
    ratios = run(print=printed.append, lengths=(10_000, 40_000))
    assert [name for name, _ in ratios] == ["verify: a disagreement's lines", "explain: the text"]
    assert len(printed) == 4 and all(" x" in line for line in printed[2:])
