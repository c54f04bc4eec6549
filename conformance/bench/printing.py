"""How the time to print a long value grows with its length: it should not, past the few thousand characters a line shows.

``python -m gateproof.conformance.bench.printing`` prints, for a value of n
characters and of 4n, the seconds verify takes to lay out a disagreement in
it and explain takes to explain a scenario holding it, and the ratio of the
two times: about 1 where the value is cut before anything reads it
character by character (``harness/preview.py``), 4 where printing is linear
in it, 16 where quadratic. Printed, never asserted.
"""

from __future__ import annotations

import copy
import time
from pathlib import Path

import orjson

from gateproof.model.scenario import read_scenario, run_scenario

from ..explanation.explain import explained
from ..explanation.trace import text_of
from ..harness.results import Disagreement, Verdict
from ..reports.failure import failure_lines

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "forced-snippet-refused.json"
LENGTHS = (1_000_000, 4_000_000)


def _scenario(enforcement: object = "enforce") -> dict:
    scenario = orjson.loads(EXAMPLE.read_bytes())
    scenario["world"]["enforcement"] = enforcement
    return scenario


def disagreement_lines(length: int):
    """What lays out verify's lines for a disagreement whose reply writes a message of ``length`` characters."""
    scenario = _scenario()
    expected = run_scenario(read_scenario(scenario))
    actual = copy.deepcopy(expected)
    actual["results"][-1]["message"] = "x" * length
    verdict = Verdict("long", "replay", "replay", scenario["id"], "failed", disagreement=Disagreement(scenario, expected, actual, 1, ("message",)))
    return lambda: failure_lines(verdict, explained=False)


def explanation_text(length: int):
    """What writes explain's text for a scenario whose enforcement switch is a string of ``length`` characters, decided already."""
    trace = explained(read_scenario(_scenario("e" * length)))
    return lambda: text_of(trace)


def seconds(prepare, length: int) -> float:
    """The seconds the printing ``prepare`` sets up takes: the value is built and decided before the clock starts."""
    work = prepare(length)
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def run(print=print, lengths=LENGTHS) -> list[tuple[str, float]]:
    """One row per printing: the seconds at each length, and the ratio of the last to the first."""
    small, large = lengths
    print(f"printing a value of {small:,} and of {large:,} characters (x{large / small:g})")
    print(f"{'what':<40}  {'seconds':>9}  {'seconds':>9}  ratio")
    ratios = []
    for name, work in (("verify: a disagreement's lines", disagreement_lines), ("explain: the text", explanation_text)):
        times = [seconds(work, length) for length in lengths]
        ratio = times[1] / times[0]
        print(f"{name:<40}  {times[0]:>9.3f}  {times[1]:>9.3f}  x{ratio:.2f}")
        ratios.append((name, ratio))
    return ratios


if __name__ == "__main__":
    run()
