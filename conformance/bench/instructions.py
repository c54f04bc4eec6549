"""Instructions a generated campaign scenario costs each side, counted by valgrind: a figure a busy machine does not change.

Run with ``python -m gateproof.conformance.bench.instructions``. A campaign's
rate and CPU time follow how fast the machine is that hour (on a shared
two-core machine they have moved by half between two runs), so a change of
a few per cent to the model or the protocol cannot be seen in them. The
instructions executed can: the same documents decided twice count the same
to a few parts in ten thousand. Each side's work is run once and three
times over the same scenarios under ``cachegrind``, and half the difference
is what the work costs, start-up and the first run's warming taken out.

The sides are ``reference`` (the protocol server's answer to each run line:
parse, check, read, decide, write) and ``harness`` (the campaign's share:
draw each scenario, read it with its world read once, decide it, write the
run line and the expected outcome's). Valgrind is not a dependency: without
it on PATH the command says so and measures nothing.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import subprocess
import sys

#: Scenarios drawn for each rule version of each kind: enough to hold a campaign's mix, few enough for valgrind.
PER_TARGET = 40
SIDES = ("reference", "harness")
_COUNT = re.compile(rb"I\s+refs:\s+([\d,]+)")


def campaign_streams(per_target: int = PER_TARGET) -> list:
    """The first ``per_target`` scenarios of each rule version's stream of each kind, as a default campaign draws them (seed 0)."""
    from ..generation import scenarios
    from ..harness.expectations import RULES_OF_KIND

    return [lambda kind=kind, version=version: itertools.islice(scenarios(kind, version, 0), per_target)
            for kind, versions in RULES_OF_KIND.items() for version in versions]


def side_work(side: str, per_target: int = PER_TARGET):
    """One side's work over the campaign documents, as a function of no arguments, and how many scenarios it decides."""
    from ..harness.documents import dumps
    from ..harness.hunt import with_expected_outcomes
    from ..harness.protocol import outcome_line, run_line
    from ..implementations.reference import INFO, run
    from ..implementations.serve import reply_to

    streams = campaign_streams(per_target)
    documents = [document for stream in streams for document in stream()]
    if side == "reference":
        lines = [run_line(seq, dumps(document)).rstrip(b"\n") for seq, document in enumerate(documents, start=1)]
        return (lambda: [reply_to(line, INFO, run, lambda scenario: None) for line in lines]), len(lines)

    def harness() -> None:
        """What a campaign's hunt does with each scenario it sends: its expected outcome, its run line, the outcome line it expects back."""
        for stream in streams:
            expected_of: dict = {}
            for seq, document in enumerate(with_expected_outcomes(stream(), expected_of), start=1):
                run_line(seq, dumps(document))
                outcome_line(seq, dumps(expected_of.pop(id(document))))

    return harness, len(documents)


def _work(side: str, repeats: int) -> None:
    """In the process valgrind runs: the side's work once to warm it, then ``repeats`` times."""
    import gc

    gc.disable()  # a collection's timing is the allocator's business, not the work's: kept out of the count
    work, _ = side_work(side)
    for _ in range(1 + repeats):
        work()


def count_instructions(side: str, repeats: int) -> int:
    """Instructions valgrind counts for a whole process that does the side's work ``repeats`` times after warming."""
    argv = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            sys.executable, "-m", "gateproof.conformance.bench.instructions", "--work", side, str(repeats)]
    done = subprocess.run(argv, capture_output=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = _COUNT.search(done.stderr)
    if done.returncode != 0 or found is None:
        tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        raise RuntimeError(f"valgrind on the {side} side exited {done.returncode}: {' / '.join(tail)}")
    return int(found.group(1).replace(b",", b""))


def per_scenario(side: str) -> float:
    """Instructions one scenario of the side's work costs: half of what two more repeats add, over the scenarios in one."""
    _, count = side_work(side)
    return (count_instructions(side, 3) - count_instructions(side, 1)) / 2 / count


def measure(print=print) -> None:
    if shutil.which("valgrind") is None:
        print("instructions a campaign scenario: not measured (valgrind is not on PATH; apt-get install valgrind)")
        return
    print(f"instructions a generated campaign scenario, counted by valgrind ({PER_TARGET} scenarios of each rule version)")
    for side in SIDES:
        print(f"  {side:<10} {per_scenario(side):>12,.0f}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--work"]:
        _work(sys.argv[2], int(sys.argv[3]))
    else:
        measure()
