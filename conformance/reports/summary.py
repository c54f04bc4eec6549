"""What every report of a campaign shows first: one row per implementation, and the compliance matrix.

The matrix has one row per corpus family (generated scenarios by rule
version) and one column per implementation, each cell counting passed,
failed, known, nondeterministic, skipped and errored apart, like Bowtie's.
Passing generated scenarios are counted, not listed; every other verdict is
listed with what it found. Each row also counts the failed scenarios whose
disagreement is ``security`` (the implementation lets out more than the
model) and ``refusal`` (it holds back what the model lets out) apart.
"""

from __future__ import annotations

from collections import Counter

from ..harness.expectations import size_text, smallest_counterexample, verdict_text
from ..harness.results import STATUSES, Tally, kept_by_family
from ..harness.severity import REFUSAL, SECURITY, SEVERITIES


def percent_passing(tally: Tally) -> str:
    """The share of decided scenarios that passed, rounded down: 100% only when none failed, 0% only when none passed."""
    counts = tally.counts()
    decided = sum(counts.values()) - counts["skipped"]
    if not decided:
        return "-"
    tenths = max(1000 * counts["passed"] // decided, 1 if counts["passed"] else 0)  # tenths of a percent
    return f"{tenths // 10}%" if tenths % 10 == 0 else f"{tenths / 10:.1f}%"


def counterexample_text(tally: Tally) -> str:
    """The smallest disagreement found, by id and size; - when there is none."""
    smallest = smallest_counterexample(tally)
    return "-" if smallest is None else f"{smallest.scenario_id} ({size_text(smallest.disagreement.scenario)})"


def counted_notes(tally: Tally) -> list[str]:
    """The notes of a campaign, each said once in the order first seen, with how often when more than once: 123 restarts are one line."""
    counts = Counter(tally.notes)
    return [note if counts[note] == 1 else f"{note} ({counts[note]} times)" for note in counts]


def severity_counts(tally: Tally) -> dict[str, int]:
    """Of the failed scenarios, how many disagree as security and how many as refusals (``harness/severity.py``)."""
    counted = tally.severities()
    return {SECURITY: counted[SECURITY], REFUSAL: counted[REFUSAL]}


def severity_text(tally: Tally) -> str:
    """The failed scenarios by class in words, security first: ``2 failed: 1 security, 0 refusal, 1 other``."""
    counted = tally.severities()
    return f"{sum(counted.values())} failed: " + ", ".join(f"{counted[name]} {name}" for name in SEVERITIES)


def summary_rows(tallies: list[Tally]) -> list[dict]:
    """One row per implementation: who it is, what it is expected to do and did, its counts, and what it took to drive it."""
    rows = []
    for tally in tallies:
        info = tally.info
        rows.append({
            "implementation": tally.name, "expected": tally.expected, "verdict": verdict_text(tally, tally.expected),
            "language": info.language if info else "", "version": info.version if info else "",
            **tally.counts(), **severity_counts(tally), "passing": percent_passing(tally), "generated": tally.generated, "restarts": tally.restarts,
            "counterexample": counterexample_text(tally), "lost": tally.lost,
        })
    return rows


def matrix(tallies: list[Tally]) -> tuple[list[str], dict[str, dict[str, Counter]]]:
    """Families in order, corpus families first, and for each family each implementation's counts by status."""
    cells: dict[str, dict[str, Counter]] = {}
    for tally in tallies:
        for (family, status), count in [*kept_by_family(tally.verdicts).items(), *tally.unkept.items()]:
            cells.setdefault(family, {}).setdefault(tally.name, Counter())[status] += count
    return sorted(cells, key=lambda f: (f.startswith("generated"), f)), cells


def cell_text(counts: Counter | None) -> str:
    if not counts:
        return "-"
    return " ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
