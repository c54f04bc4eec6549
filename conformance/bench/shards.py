"""``make bench``: a campaign's throughput as one verify process, and split in two shards run side by side."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..reports.merge import merge
from ..reports.results_log import read_results


def _verify(folder: Path, examples: int, shard: str) -> subprocess.Popen:
    """One shard's verify, what it prints kept in ``folder``/printed.txt."""
    command = [sys.executable, "-m", "gateproof.conformance.cli", "verify", "--builtin", "reference", "--examples", str(examples),
               "--shard", shard, "--out", str(folder), "--quiet"]
    folder.mkdir(parents=True)
    with open(folder / "printed.txt", "wb") as printed:
        return subprocess.Popen(command, stdout=printed, stderr=subprocess.STDOUT, env={**os.environ, "NO_COLOR": "1"})


def _campaign(root: Path, examples: int, count: int) -> tuple[float, int]:
    """Wall seconds for ``count`` shards run at once, and the scenarios their merged results count."""
    started = time.perf_counter()
    running = [_verify(root / f"shard{i}", examples, f"{i}/{count}") for i in range(1, count + 1)]
    statuses = [process.wait() for process in running]
    seconds = time.perf_counter() - started
    for number, status in enumerate(statuses, 1):
        if status != 0:
            printed = (root / f"shard{number}" / "printed.txt").read_text(errors="replace")
            raise RuntimeError(f"shard {number}/{count} of the bench campaign exited {status}; it printed:\n{printed}")
    _, tallies, _ = merge([read_results(root / f"shard{i}" / "results.jsonl") for i in range(1, count + 1)])
    return seconds, sum(t.scenarios for t in tallies)


def bench_shards(print=print, examples: int = 20_000) -> None:
    with tempfile.TemporaryDirectory() as folder:
        one_seconds, one_count = _campaign(Path(folder) / "one", examples, 1)
        two_seconds, two_count = _campaign(Path(folder) / "two", examples, 2)
    cores = os.cpu_count() or 1
    print(f"a sharded verify campaign against reference: corpus and {examples:,} generated scenarios, start-up included ({cores} cores)")
    print(f"  one process                      {one_count / one_seconds:10,.0f} scenarios/s  ({one_seconds:.1f} s)")
    print(f"  two shards side by side, merged  {two_count / two_seconds:10,.0f} scenarios/s  ({two_seconds:.1f} s)  "
          f"ratio to one {one_seconds / two_seconds:.2f}x, the same {two_count:,} scenarios" + ("" if two_count == one_count else " (COUNTS DIFFER)"))
