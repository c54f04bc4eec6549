"""Branch measurement with coverage.py, and a profile hook for what coverage cannot see: a predicate's two answers.

coverage.py takes a branch at an ``if``, a loop or a ``try``; it does not see
``and``, ``or`` or a conditional expression, so a rule written as one
expression (``return a == b``) has no branch at all. For such functions the
hook records each value returned, as (is it a bool, is it truthy); it is
filtered to the watched functions' code objects, so every other call costs
one dictionary look-up.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from types import CodeType
from typing import Callable, Iterable

import coverage
from attrs import frozen

Arc = tuple[int, int]  # (from line, to line); a negative to line is an exit from the code object starting there


@frozen
class BranchPoint:
    """A line with more than one way on, and the ways taken and not taken."""

    file: Path
    line: int
    taken: tuple[Arc, ...]
    missed: tuple[Arc, ...]


@frozen
class Region:
    """One function as coverage measured it, its nested functions included."""

    called: bool
    points: tuple[BranchPoint, ...]

    @property
    def arcs(self) -> int:
        return sum(len(p.taken) + len(p.missed) for p in self.points)

    @property
    def arcs_taken(self) -> int:
        return sum(len(p.taken) for p in self.points)


@frozen
class Measurement:
    report: dict  # coverage's JSON report, files keyed by resolved path
    returns: dict  # code object -> the set of (is a bool, truthy) results seen

    def file_report(self, file: Path) -> dict:
        return self.report["files"].get(file, {"functions": {}})

    def region(self, file: Path, name: str) -> Region:
        """The function ``name`` (a qualified name without ``<locals>``) of ``file`` with the functions nested in it."""
        functions = self.file_report(file)["functions"]
        parts = [report for key, report in functions.items() if key == name or key.startswith(name + ".")]
        return region_of(file, parts)

    def unnamed_regions(self, named: set[tuple[Path, str]]) -> Iterable[tuple[Path, str, Region]]:
        """Every function region of the measured files outside those ``named`` and the functions nested in them (module bodies left out)."""
        for file, report in self.report["files"].items():
            names = [name for named_file, name in named if named_file == file]
            for key, function in report["functions"].items():
                if key and not any(key == name or key.startswith(name + ".") for name in names):
                    yield file, key, region_of(file, [function])

    def answers(self, code: CodeType) -> set[tuple[bool, bool]]:
        return self.returns.get(code, set())


def region_of(file: Path, reports: list[dict]) -> Region:
    arcs: dict[int, tuple[list, list]] = defaultdict(lambda: ([], []))
    for report in reports:
        for start, end in report["executed_branches"]:
            arcs[start][0].append((start, end))
        for start, end in report["missing_branches"]:
            arcs[start][1].append((start, end))
    points = tuple(BranchPoint(file, line, tuple(taken), tuple(missed)) for line, (taken, missed) in sorted(arcs.items()))
    return Region(any(r["executed_lines"] for r in reports), points)


def measure(run: Callable[[], object], source: list[Path], watched: Iterable[CodeType]) -> Measurement:
    """Run ``run()`` with branch measurement of the files under ``source`` and the predicate hook on ``watched``."""
    returns: dict[CodeType, set] = {code: set() for code in watched}

    def hook(frame, event, result):
        if event == "return":
            seen = returns.get(frame.f_code)
            if seen is not None:
                seen.add((type(result) is bool, bool(result)))

    measuring = coverage.Coverage(branch=True, source=[str(s) for s in source], data_file=None)
    previous = sys.getprofile()
    measuring.start()
    sys.setprofile(hook)
    try:
        run()
    finally:
        sys.setprofile(previous)
        measuring.stop()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "coverage.json"
        measuring.json_report(outfile=str(path))
        report = json.loads(path.read_text(encoding="utf-8"))
    report["files"] = {Path(name).resolve(): details for name, details in report["files"].items()}
    return Measurement(report, returns)
