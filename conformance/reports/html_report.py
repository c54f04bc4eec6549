"""The HTML report: one self-contained page, styled inline, every foreign string escaped by the template engine.

The page carries the campaign's header (gateproof version, start, durations,
settings), a summary with one row per implementation, the compliance matrix
whose cells link to the cases of that family and implementation, and a
section per implementation: who it is, its counts and durations, its errors
by reason, and per family each case that did not simply pass as a collapsed
``<details>``: the structured difference side by side (expected | actual per
leaf path, absent shown as absent), the rule that decides each leaf with its
title, the model's explanation of the step, and the commands that replay and
explain it. Verdicts are told apart by colour and always by their words too.

A security disagreement (``harness/severity.py``: the implementation lets out
more than the model) carries a ``security`` badge, a refusal a ``refusal``
one, each with what it lets out or holds back; the summary counts both apart,
and each implementation's section lists its security disagreements, linked,
before anything else, as each family lists them before its other cases.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from ..harness.difference import echo_text, parting
from ..harness.expectations import CAUGHT, smallest_counterexample
from ..harness.results import FAILING, STATUSES, Tally
from ..harness.severity import REFUSAL, SECURITY
from .campaign import RecordedCampaign
from .cases import anchor, case_of, context_lines, json_text, rule_title
from .escape import visible
from .failure import severity_reason
from .summary import counted_notes, matrix, summary_rows
from .terminal import distinct_first, errors_by_reason

TEMPLATE = "report.html.j2"
VERDICT_CLASS = {"conformant": "ok", "caught": "caught", "NOT CONFORMANT": "bad", "MISSED": "bad", "NOTHING DECIDED": "bad", "DID NOT START": "bad",
                 "INCOMPLETE": "na", "unavailable": "na"}


def _finalize(value):
    """Every value the template prints: text shown with its control characters as escapes, markup left to the engine."""
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return visible(value)


def _environment() -> Environment:
    environment = Environment(loader=FileSystemLoader(Path(__file__).resolve().parent), autoescape=True, finalize=_finalize,
                              undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    environment.filters.update(json_text=json_text, rule_title=rule_title, parting=lambda leaf: parting(leaf.expected, leaf.actual),
                               echo=lambda shown: echo_text(*shown) if shown[1] is not None else None)
    return environment


def status_class(status: str, expected: str) -> str:
    """How a status is coloured: a disagreement is what a mutant should show, and what an implementation to conform must not."""
    if status in FAILING:
        return "caught" if expected == CAUGHT and status == "failed" else "bad"
    return {"passed": "ok", "skipped": "skip", "known": "known"}.get(status, "")


def cell_class(counts, expected: str) -> str:
    if not counts:
        return "empty"
    worst = next((s for s in ("failed", "nondeterministic", "errored", "known", "passed", "skipped") if counts.get(s)), "skipped")
    return status_class(worst, expected)


def safe_link(url: object) -> str | None:
    """A link an implementation gives, kept only when it is an http(s) address."""
    return url if isinstance(url, str) and url.lower().startswith(("https://", "http://")) else None


def family_blocks(tally: Tally, number: int, families: list[str]) -> list[dict]:
    by_family = defaultdict(list)
    for verdict in tally.verdicts:
        by_family[verdict.family].append(verdict)
    blocks = []
    for index, family in enumerate(families):
        verdicts = by_family.get(family, [])
        unkept = {status: count for (f, status), count in tally.unkept.items() if f == family}
        if not verdicts and not unkept:
            continue
        shown = [v for v in verdicts if v.status not in ("passed", "skipped")]
        ordered = distinct_first([v for v in shown if v.disagreement is not None]) + [v for v in shown if v.disagreement is None]
        skipped = defaultdict(list)
        for verdict in verdicts:
            if verdict.status == "skipped":
                skipped[verdict.message].append(verdict.scenario_id)
        here = anchor("impl", number, "family", index, family)
        blocks.append({
            "family": family, "anchor": here,
            "cases": [{"case": case_of(v), "anchor": f"{here}-case-{position}", "verdict": v} for position, v in enumerate(ordered)], "passed": [v.scenario_id for v in verdicts if v.status == "passed"],
            "skipped": sorted(skipped.items()), "unkept": unkept,
        })
    return blocks


def error_groups(tally: Tally) -> list[dict]:
    """Each distinct reason a run errored, how often, one case it happened on, and that run's circumstances."""
    return [{"reason": reason, "count": count, "example": first, "context": context_lines(first)}
            for reason, (count, first) in errors_by_reason(tally).items()]


def html_report(campaign: RecordedCampaign) -> str:
    tallies = list(campaign.tallies)
    families, cells = matrix(tallies)
    implementations = []
    for number, (row, tally) in enumerate(zip(summary_rows(tallies), tallies)):
        info = tally.info.body()["started"] if tally.info else None
        blocks = family_blocks(tally, number, families)
        smallest = smallest_counterexample(tally)
        implementations.append({
            "security": [c for b in blocks for c in b["cases"] if c["verdict"].disagreement and c["verdict"].disagreement.severity == SECURITY],
            "counterexample_href": next((f"#{c['anchor']}" for b in blocks for c in b["cases"] if c["verdict"] is smallest), None),
            "row": row, "tally": tally, "anchor": anchor("impl", number, tally.name), "verdict_class": VERDICT_CLASS.get(row["verdict"], "bad"),
            "info": info, "homepage": safe_link(info and info.get("homepage")), "issues": safe_link(info and info.get("issues")),
            "families": blocks, "errors": error_groups(tally), "notes": counted_notes(tally),
        })
    grid = [{"family": family, "cells": [
        {"lines": [f"{cells[family][t['tally'].name][s]} {s}" for s in STATUSES if cells[family].get(t["tally"].name, {}).get(s)] or ["-"],
         "class": cell_class(cells[family].get(t["tally"].name), t["tally"].expected),
         "href": next((f"#{b['anchor']}" for b in t["families"] if b["family"] == family), None)} for t in implementations]}
        for family in families]
    shown_statuses = [s for s in STATUSES if s in ("passed", "failed") or any(item["row"][s] for item in implementations)]
    if any(item["row"]["failed"] for item in implementations):  # the failures' classes beside them
        shown_statuses[2:2] = [SECURITY, REFUSAL]
    verdict_counts = defaultdict(int)
    for item in implementations:
        verdict_counts[item["row"]["verdict"]] += 1
    return _environment().get_template(TEMPLATE).render(
        campaign=campaign, incomplete=campaign.incomplete_text, statuses=STATUSES, shown_statuses=shown_statuses, implementations=implementations, grid=grid,
        verdict_counts=sorted(verdict_counts.items()), verdict_class=VERDICT_CLASS, status_class=status_class, caught=CAUGHT, context_lines=context_lines,
        severity_reason=severity_reason, security_total=sum(item["row"][SECURITY] for item in implementations if item["tally"].expected != CAUGHT),
        report_commands=[campaign.report_command(f, name) for f, name in (("markdown", "report.md"), ("json", "report.json"))],
    )
