"""Any report, rendered from a campaign's ``results.jsonl``: JSON, JUnit XML, Markdown or HTML."""

from __future__ import annotations

from pathlib import Path

from ..harness import reports
from .results_log import read_results

FORMATS = reports.FORMATS
FILE_NAMES = {"json": "report.json", "junit": "report.junit.xml", "markdown": "report.md", "html": "report.html"}


def render_results(results: Path, report_format: str) -> str:
    campaign, tallies, _ = read_results(results)
    return reports.render(report_format, tallies, campaign["settings"])


def render_into(results: Path, report_format: str) -> Path:
    """Render the report beside ``results`` under its format's file name; the path written."""
    path = results.parent / FILE_NAMES[report_format]
    path.write_text(render_results(results, report_format), encoding="utf-8")
    return path
