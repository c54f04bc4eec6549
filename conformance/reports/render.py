"""Any report, rendered from a campaign's ``results.jsonl``: JSON, JUnit XML, Markdown or HTML.

``gateproof verify --report FORMAT`` and ``gateproof report`` both render
here, from the file alone, so a report costs no campaign of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ..harness.paths import write_whole
from .campaign import RecordedCampaign, read_campaign

FORMATS = ("json", "junit", "markdown", "html")
FILE_NAMES = {"json": "report.json", "junit": "report.junit.xml", "markdown": "report.md", "html": "report.html"}


def render_chunks(campaign: RecordedCampaign, report_format: str) -> Iterator[str]:
    """The report in pieces to write as they come: JSON a verdict at a time, the other formats whole."""
    if report_format == "json":
        from .json_report import json_chunks

        yield from json_chunks(campaign)
    else:
        yield render(campaign, report_format)


def render(campaign: RecordedCampaign, report_format: str) -> str:
    if report_format == "json":
        from .json_report import json_report as renderer
    elif report_format == "junit":
        from .junit import junit_report as renderer
    elif report_format == "markdown":
        from .markdown import markdown_report as renderer
    else:
        from .html_report import html_report as renderer
    return renderer(campaign)


def render_results(results: Path, report_format: str) -> str:
    """The report of the campaign in ``results`` (raises ``ResultsError`` naming the line when it cannot be read)."""
    return render(read_campaign(results), report_format)


def render_into(results: Path, report_format: str) -> Path:
    """Render the report beside ``results`` under its format's file name, whole or not at all; the path written.

    Raises ``WriteFailed`` naming the report when it cannot be written (a full disk): no part of it is left.
    """
    path = results.parent / FILE_NAMES[report_format]
    write_whole(path, (chunk.encode("utf-8") for chunk in render_chunks(read_campaign(results), report_format)))
    return path
