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


def test_the_protocol_benchmark_replays_the_corpus_and_prints_best_and_worst():
    from gateproof.conformance.bench.figures import bench_protocol

    printed: list[str] = []
    bench_protocol(print=printed.append, repeat=2, examples=5)
    assert "through the protocol, best of 3" in printed[2] and "through the protocol, worst of 3" in printed[3]
    assert all(re.search(r"[0-9][0-9,.]*/s\b", line) for line in printed[1:4] + printed[5:6]), printed
    assert re.search(r"corpus replay [0-9]+ / [0-9]+ µs, campaign [0-9]+ / [0-9]+ µs$", printed[6]), printed


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
