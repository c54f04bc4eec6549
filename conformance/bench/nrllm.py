"""``decide --jsonl`` beside nr-llm's own PHP classes on the same single-send scenarios, and where its time goes.

Both programs run as whole processes, start-up included, one after the
other on the same single core, fed the same scenarios: gateproof as scenario
lines, nr-llm's classes (``conformance/implementations/nrllm/``) as the
protocol's run commands. Each is run a few times, alternating, and its least
CPU time is kept, since other work on the machine only ever adds to it. The
outcomes of the two are compared too: a ratio is only worth printing for
programs that decided alike.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import orjson
from attrs import frozen

from ..generation import scenarios

#: The rule version both sides decide under.
RULES = "nr-llm"


def single_sends(count: int, seed: int = 0) -> list[dict]:
    """``count`` generated ``nr-llm`` scenarios, each cut to its world and its first send (those with none are passed over)."""
    found: list[dict] = []
    for document in scenarios("ceiling", RULES, seed):
        send = next((step for step in document["steps"] if step["op"] == "send"), None)
        if send is not None:
            found.append({**document, "steps": [send]})
            if len(found) == count:
                return found
    raise AssertionError("unreachable: the stream is endless")


@frozen
class Measured:
    """One process run to its end: CPU seconds (user and system), wall seconds, and what it wrote on stdout."""

    cpu: float
    wall: float
    stdout: bytes


def one_core() -> int | None:
    """The core both programs are kept on, or None where processes cannot be pinned."""
    getter = getattr(os, "sched_getaffinity", None)
    return min(getter(0)) if getter else None


def run_measured(argv: list[str], stdin: Path, env: dict | None = None, core: int | None = None) -> Measured:
    """Run ``argv`` on ``stdin`` to its end, on ``core`` alone when given; RuntimeError, with its stderr, unless it exits 0."""
    import subprocess

    pin = (lambda: os.sched_setaffinity(0, {core})) if core is not None else None
    with open(stdin, "rb") as given, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdin=given, stdout=out, stderr=err, env=env, preexec_fn=pin)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        if process.returncode != 0:
            raise RuntimeError(f"{argv[0]} exited {process.returncode}: {err.read()[-2000:].decode(errors='replace')}")
        return Measured(usage.ru_utime + usage.ru_stime, wall, out.read())


def gateproof_command() -> list[str]:
    return [sys.executable, "-m", "gateproof.conformance.cli", "decide", "--jsonl", "--rules", RULES]


def php_command() -> list[str]:
    from ..implementations import BUILTINS

    return list(BUILTINS["nr-llm"])


def write_inputs(documents: list[dict], folder: Path) -> tuple[Path, Path]:
    """The scenarios as ``decide --jsonl`` lines, and as the protocol's commands (start, one run each, stop)."""
    lines, commands = folder / "scenarios.jsonl", folder / "commands.jsonl"
    lines.write_bytes(b"".join(orjson.dumps(document) + b"\n" for document in documents))
    runs = (orjson.dumps({"cmd": "run", "seq": seq, "scenario": document}) + b"\n" for seq, document in enumerate(documents))
    commands.write_bytes(b'{"cmd":"start","version":1}\n' + b"".join(runs) + b'{"cmd":"stop"}\n')
    return lines, commands


def agreeing(gateproof: bytes, php: bytes) -> int:
    """How many scenarios the two decided alike: gateproof's outcome lines against the PHP replies (after its start reply)."""
    replies = php.splitlines()[1:]
    return sum(orjson.loads(outcome)["results"] == orjson.loads(reply).get("outcome", {}).get("results")
               for outcome, reply in zip(gateproof.splitlines(), replies))


@frozen
class SideBySide:
    """The least CPU (and wall) time each side took over the rounds, and how many scenarios they decided alike."""

    count: int
    gateproof: Measured
    php: Measured
    agreed: int

    @property
    def ratio(self) -> float:
        """nr-llm's CPU time over gateproof's: above 1, gateproof decides faster."""
        return self.php.cpu / self.gateproof.cpu


def side_by_side(documents: list[dict], rounds: int = 3) -> SideBySide:
    """Both programs on ``documents``, ``rounds`` times each, alternating, on one core; the least CPU time of each."""
    core = one_core()
    with tempfile.TemporaryDirectory() as folder:
        lines, commands = write_inputs(documents, Path(folder))
        ours, theirs = [], []
        for _ in range(rounds):
            ours.append(run_measured(gateproof_command(), lines, core=core))
            theirs.append(run_measured(php_command(), commands, core=core))
    best_ours, best_theirs = min(ours, key=lambda m: m.cpu), min(theirs, key=lambda m: m.cpu)
    return SideBySide(len(documents), best_ours, best_theirs, agreeing(best_ours.stdout, best_theirs.stdout))


PHASES = ("parse", "validate", "read", "decide", "serialise")


def phase_times(lines: list[bytes], rules: str | None = RULES) -> dict[str, float]:
    """CPU µs per line in each phase, in process, through the very functions ``decide --jsonl`` runs on a line.

    ``decide_line`` is ``dumps(outcome_of(read_valid_scenario(validated(parse_json(line)))))``;
    here each call is timed apart (the clock's own cost, well under a µs a
    reading, is in the figures).
    """
    from gateproof.model.scenario.read import read_valid_scenario, validated

    from ..harness.bulk import outcome_of
    from ..harness.documents import dumps, parse_json

    clock = time.process_time_ns
    spent = [0] * len(PHASES)
    for line in lines:
        t0 = clock()
        document = parse_json(line)
        t1 = clock()
        validated(document)
        t2 = clock()
        scenario = read_valid_scenario(document)
        t3 = clock()
        outcome = outcome_of(scenario, document, rules)
        t4 = clock()
        dumps(outcome)
        t5 = clock()
        for phase, took in enumerate((t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4)):
            spent[phase] += took
    return {phase: total / len(lines) / 1e3 for phase, total in zip(PHASES, spent)}


def scenario_sets(count: int) -> dict[str, list[dict]]:
    """The two sets both programs decide: generated single sends, and the bench's 10-source sends under ``nr-llm``."""
    import random

    from .sends import ten_source_scenario

    rng = random.Random(7)
    return {"generated single sends": single_sends(count),
            "10-source sends": [{**ten_source_scenario(rng, number), "rules": RULES} for number in range(count)]}


def bench_nrllm(print=print, count: int = 10_000, rounds: int = 3) -> None:
    """make bench's figures for ``decide --jsonl --rules nr-llm``: beside nr-llm's PHP classes when they can run, and per phase."""
    from ..implementations import unavailable

    sets = scenario_sets(count)
    why = unavailable("nr-llm")
    if why is None:
        print(f"decide --jsonl --rules {RULES} beside nr-llm's own PHP classes, {count:,} scenarios a set, each a whole process "
              f"on one core, start-up included; least CPU of {rounds} (target: ratio at least 1.00x)")
        for name, documents in sets.items():
            both = side_by_side(documents, rounds)
            alike = "" if both.agreed == both.count else "  DECIDED APART"
            print(f"  {name:<24} gateproof {both.gateproof.cpu:6.2f} s CPU ({both.gateproof.wall:5.2f} s wall)   "
                  f"nr-llm {both.php.cpu:6.2f} s CPU ({both.php.wall:5.2f} s wall)   ratio {both.ratio:.2f}x   "
                  f"decided alike {both.agreed:,} of {both.count:,}{alike}")
    else:
        print(f"decide --jsonl beside nr-llm's PHP classes: not measured ({why}); the fixed 20,000/s figure stands in, below")
    print(f"where each µs of decide --jsonl --rules {RULES} goes, per scenario, CPU in process ({', '.join(PHASES)})")
    for name, documents in sets.items():
        lines = [orjson.dumps(document) for document in documents]
        phase_times(lines[:200])  # every module loaded and every cache warm before the clock runs
        spent = phase_times(lines)
        print(f"  {name:<24} " + "  ".join(f"{phase} {spent[phase]:6.2f}" for phase in PHASES) + f"   total {sum(spent.values()):6.2f} µs")
