"""``report`` keeps what it shows, not what it reads: four times the records, not four times the memory, and one pass at a time.

A results file's verdicts are read back as counts, the disagreements (which
every report shows), and where each other line starts; the Markdown summary
renders from that. Ratios only: no figure here depends on the machine.
"""

from __future__ import annotations

import json
import tracemalloc

from gateproof.conformance.harness.results import Tally, Verdict
from gateproof.conformance.reports.render import render_into, render_results
from gateproof.conformance.reports.results_log import ResultLog
from report_helpers import CASE, SETTINGS, verdict_of, wrong_export

DISAGREEMENTS = 20


def campaign_of(folder, records: int):
    """A campaign of ``records`` verdicts: a few disagreements, the rest passed, errored (seven reasons) and skipped corpus cases."""
    log = ResultLog(folder / "results.jsonl", SETTINGS)
    found = verdict_of("my-gateway", wrong_export())
    for number in range(records):
        if number < DISAGREEMENTS:
            log.write(Verdict("my-gateway", "corpus", CASE.family, f"case-{number}", "failed", found.message, found.rules, None, found.disagreement))
            continue
        status = ("passed", "errored", "skipped")[number % 3]
        log.write(Verdict("my-gateway", "corpus", f"family-{number % 40}", f"case-{number}", status, "" if status == "passed" else f"reason {number % 7}"))
    log.implementation(Tally("my-gateway"))
    log.close()
    return folder / "results.jsonl"


def peak_rendering(results, report_format: str) -> tuple[int, str]:
    tracemalloc.start()
    try:
        text = render_results(results, report_format)
        return tracemalloc.get_traced_memory()[1], text
    finally:
        tracemalloc.stop()


def test_the_markdown_report_of_four_times_the_records_takes_about_the_same_memory(tmp_path):
    render_results(campaign_of(tmp_path / "warm", 100), "markdown")  # what is read once and cached (rule titles, schemas) is not counted
    small, small_text = peak_rendering(campaign_of(tmp_path / "small", 10_000), "markdown")
    large, large_text = peak_rendering(campaign_of(tmp_path / "large", 40_000), "markdown")
    assert "13326 errored" in large_text  # every record was read
    assert large < 2 * small, f"{large} bytes at its peak for 40,000 records against {small} for 10,000"


def test_results_read_from_a_pipe_are_kept_whole_and_rendered(tmp_path):
    import os
    import threading

    text = campaign_of(tmp_path / "campaign", 50).read_bytes()
    fifo = tmp_path / "results.pipe"
    os.mkfifo(fifo)

    def write_once() -> None:
        with open(fifo, "wb") as handle:
            handle.write(text)

    writer = threading.Thread(target=write_once, daemon=True)
    writer.start()
    rendered = render_results(fifo, "json")
    writer.join(timeout=10)
    assert rendered == render_results(tmp_path / "campaign" / "results.jsonl", "json").replace(str(tmp_path / "campaign" / "results.jsonl"), str(fifo))


def peak_written(results, report_format: str) -> int:
    tracemalloc.start()
    try:
        render_into(results, report_format)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_the_json_report_of_four_times_the_records_is_written_in_about_the_same_memory(tmp_path):
    """The JSON report lists every verdict, and is written a verdict at a time: its size grows, its writer's memory not."""
    render_into(campaign_of(tmp_path / "warm", 100), "json")
    small = peak_written(campaign_of(tmp_path / "small", 10_000), "json")
    large = peak_written(campaign_of(tmp_path / "large", 40_000), "json")
    written = json.loads((tmp_path / "large" / "report.json").read_text(encoding="utf-8"))
    assert len(written["implementations"][0]["verdicts"]) == 40_000  # every verdict is in it
    assert large < 2 * small, f"{large} bytes at its peak for 40,000 records against {small} for 10,000"
