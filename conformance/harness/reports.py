"""Reports of a campaign: JSON, JUnit XML, Markdown and HTML, each with the compliance matrix.

The matrix has one column per implementation and one row per corpus family
(generated scenarios by rule version), each cell counting passed, failed,
skipped and errored apart, like Bowtie's. Passing generated scenarios are
counted, not listed; every other verdict is listed with what it found.
"""

from __future__ import annotations

import html
import json
from collections import Counter
from xml.etree import ElementTree

from .expectations import size_text, smallest_counterexample, verdict_text
from .results import STATUSES, Tally, Verdict

FORMATS = ("json", "junit", "markdown", "html")


def percent_passing(tally: Tally) -> str:
    counts = tally.counts()
    decided = sum(counts.values()) - counts["skipped"]
    return f"{100 * counts['passed'] / decided:.0f}%" if decided else "-"


def counterexample_text(tally: Tally) -> str:
    """The smallest disagreement found, by id and size; - when there is none."""
    smallest = smallest_counterexample(tally)
    return "-" if smallest is None else f"{smallest.scenario_id} ({size_text(smallest.disagreement.scenario)})"


def summary_rows(tallies: list[Tally]) -> list[dict]:
    """One row per implementation: who it is, what it is expected to do and did, its counts, and what it took to drive it."""
    rows = []
    for tally in tallies:
        info = tally.info
        rows.append({
            "implementation": tally.name, "expected": tally.expected, "verdict": verdict_text(tally, tally.expected),
            "language": info.language if info else "", "version": info.version if info else "",
            **tally.counts(), "passing": percent_passing(tally), "generated": tally.generated, "restarts": tally.restarts,
            "counterexample": counterexample_text(tally), "lost": tally.lost,
        })
    return rows


def matrix(tallies: list[Tally]) -> tuple[list[str], dict[str, dict[str, Counter]]]:
    """Families in order, and for each family each implementation's counts by status."""
    cells: dict[str, dict[str, Counter]] = {}
    for tally in tallies:
        for verdict in tally.verdicts:
            cells.setdefault(verdict.family, {}).setdefault(tally.name, Counter())[verdict.status] += 1
        for (family, status), count in tally.unkept.items():
            cells.setdefault(family, {}).setdefault(tally.name, Counter())[status] += count
    return sorted(cells, key=lambda f: (f.startswith("generated"), f)), cells


def cell_text(counts: Counter | None) -> str:
    if not counts:
        return "-"
    return " ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])


def interesting(tally: Tally) -> list[Verdict]:
    return [v for v in tally.verdicts if v.status not in ("passed", "skipped")]


def json_report(tallies: list[Tally], settings: dict) -> str:
    """Every implementation with its counts and verdicts; valid against ``conformance/schema/verify-report.schema.json``."""
    document = {
        "gateproof_verify": 1,
        "settings": settings,
        "implementations": [
            {**row, "info": tally.info.serializable()["started"] if tally.info else None, "reordered": tally.reordered,
             "notes": list(tally.notes), "verdicts": [v.serializable() for v in tally.verdicts]}
            for row, tally in zip(summary_rows(tallies), tallies)
        ],
    }
    return json.dumps(document, indent=2)


def junit_report(tallies: list[Tally]) -> str:
    """One test suite per implementation, one test case per verdict; generated passes appear only as a count."""
    suites = ElementTree.Element("testsuites", name="gateproof verify")
    for tally in tallies:
        counts = tally.counts()
        suite = ElementTree.SubElement(suites, "testsuite", name=tally.name, tests=str(len(tally.verdicts)),
                                       failures=str(counts["failed"] + counts["nondeterministic"]), errors=str(counts["errored"]),
                                       skipped=str(counts["skipped"]))
        if tally.lost:
            ElementTree.SubElement(suite, "system-err").text = tally.lost
        for verdict in tally.verdicts:
            case = ElementTree.SubElement(suite, "testcase", classname=f"{tally.name}.{verdict.family}", name=verdict.scenario_id)
            if verdict.status in ("failed", "nondeterministic"):
                failure = ElementTree.SubElement(case, "failure", message=f"{verdict.status}: {verdict.message}", type=verdict.status)
                failure.text = disagreement_text(verdict)
            elif verdict.status == "errored":
                ElementTree.SubElement(case, "error", message=verdict.message)
            elif verdict.status in ("skipped", "known"):
                ElementTree.SubElement(case, "skipped", message=f"{verdict.status}: {verdict.issue or verdict.message}")
    return ElementTree.tostring(suites, encoding="unicode", xml_declaration=True)


def differing_lines(verdict: Verdict) -> list[str]:
    """The keys that differ at the first differing step, expected beside actual, one line each."""
    d = verdict.disagreement
    if d.step is None:
        return [f"  {key}: expected {_short(d.expected.get(key))}, got {_short(d.actual.get(key))}" for key in d.keys]
    expected = d.expected["results"][d.step] if d.step < len(d.expected["results"]) else {}
    actual = d.actual["results"][d.step] if d.step < len(d.actual["results"]) else {}
    return [f"  step {d.step} {key}: expected {_short(expected.get(key))}, got {_short(actual.get(key))}" for key in d.keys]


def _short(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 70 else text[:67] + "..."


def brief_text(verdict: Verdict) -> str:
    """A disagreement in a few lines, for the terminal; the report and the saved file hold the rest."""
    lines = [f"{verdict.implementation} {verdict.status}: {verdict.scenario_id}  rules: {', '.join(verdict.rules) or '-'}"]
    lines += differing_lines(verdict)
    if verdict.disagreement.replay_command:
        lines.append(f"  replay: {verdict.disagreement.replay_command}")
    return "\n".join(lines)


def disagreement_text(verdict: Verdict) -> str:
    """The disagreement as a person reads it: rules, the differing step side by side, and the replay command."""
    lines = [f"{verdict.scenario_id}: {verdict.message}", f"rules: {', '.join(verdict.rules) or '-'}"]
    d = verdict.disagreement
    if d is None:
        return "\n".join(lines)
    if d.step is None:
        lines += [f"expected: {json.dumps(d.expected)}", f"actual:   {json.dumps(d.actual)}"]
    else:
        expected = d.expected["results"][d.step] if d.step < len(d.expected["results"]) else "(absent)"
        actual = d.actual["results"][d.step] if d.step < len(d.actual["results"]) else "(absent)"
        lines += [f"expected step {d.step}: {json.dumps(expected)}", f"actual step {d.step}:   {json.dumps(actual)}"]
    lines.append(f"scenario: {json.dumps(d.scenario)}")
    if d.replay_command:
        lines.append(f"replay: {d.replay_command}")
    return "\n".join(lines)


def _markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    return lines + ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]


def markdown_report(tallies: list[Tally]) -> str:
    columns = ["implementation", "expected", "verdict", "language", "version", *STATUSES, "passing", "generated", "restarts", "counterexample"]
    lines = ["# gateproof verify", "", *_markdown_table(columns, [[row[c] for c in columns] for row in summary_rows(tallies)])]
    families, cells = matrix(tallies)
    lines += ["", "## Compliance matrix", "", *_markdown_table(["family", *(t.name for t in tallies)],
                                                              [[f, *(cell_text(cells[f].get(t.name)) for t in tallies)] for f in families])]
    for tally in tallies:
        found = interesting(tally)
        if found or tally.lost or tally.notes:
            lines += ["", f"## {tally.name}", ""]
            lines += [f"- lost: {tally.lost}"] * bool(tally.lost) + [f"- note: {n}" for n in tally.notes]
            for verdict in found:
                issue = f" ({verdict.issue})" if verdict.issue else ""
                lines += ["", f"### {verdict.status}: `{verdict.scenario_id}`{issue}", "", "```", disagreement_text(verdict), "```"]
    return "\n".join(lines) + "\n"


def html_report(tallies: list[Tally]) -> str:
    def table(header: list[str], rows: list[list[str]]) -> str:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in row) + "</tr>" for row in rows)
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    columns = ["implementation", "expected", "verdict", "language", "version", *STATUSES, "passing", "generated", "restarts", "counterexample"]
    families, cells = matrix(tallies)
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'><title>gateproof verify</title>",
        "<style>body{font-family:sans-serif}td,th{border:1px solid #ccc;padding:2px 6px}table{border-collapse:collapse}pre{background:#f6f6f6;padding:6px}</style>",
        "</head><body><h1>gateproof verify</h1>",
        table(columns, [[row[c] for c in columns] for row in summary_rows(tallies)]),
        "<h2>Compliance matrix</h2>",
        table(["family", *(t.name for t in tallies)], [[f, *(cell_text(cells[f].get(t.name)) for t in tallies)] for f in families]),
    ]
    for tally in tallies:
        for verdict in interesting(tally):
            parts.append(f"<h3>{html.escape(tally.name)}: {html.escape(verdict.status)} {html.escape(verdict.scenario_id)}</h3>")
            parts.append(f"<pre>{html.escape(disagreement_text(verdict))}</pre>")
    return "".join(parts) + "</body></html>\n"


def render(report_format: str, tallies: list[Tally], settings: dict) -> str:
    if report_format == "json":
        return json_report(tallies, settings)
    return {"junit": junit_report, "markdown": markdown_report, "html": html_report}[report_format](tallies)
