"""``gateproof report``: any format from a results file, to standard output or a file, and bad input refused by line and field."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from xml.etree import ElementTree

import pytest

from report_helpers import Page, record, report, tally, verdict_of, wrong_export

GATEPROOF = str(Path(sys.executable).parent / "gateproof")


@pytest.fixture
def results(tmp_path):
    return record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", wrong_export())])])


def test_each_format_goes_to_standard_output_by_default(results):
    outputs = {f: report(str(results), "--format", f) for f in ("json", "junit", "markdown", "html")}
    assert all(r.exit_code == 0 for r in outputs.values())
    assert json.loads(outputs["json"].output)["implementations"][0]["failed"] == 1
    assert ElementTree.fromstring(outputs["junit"].output).get("failures") == "1"
    assert outputs["markdown"].output.startswith("# gateproof verify")
    assert not Page(outputs["html"].output).open


def test_output_names_the_one_file_written(results, tmp_path):
    target = tmp_path / "r.html"
    result = report(str(results), "--format", "html", "--output", str(target))
    assert result.exit_code == 0 and result.output == "" and target.read_text().startswith("<!doctype html>")


@pytest.mark.parametrize("content, message", [
    (None, "cannot read (No such file or directory)"),
    (b"", "no campaign record"),
    (b'{"gateproof_verify": 2}\n', "line 1: $: "),
    (b"\x00\xff\xfe garbage\nmore\n", "line 1: not a JSON record"),
])
def test_a_file_that_is_not_a_campaigns_results_is_refused_with_exit_2(tmp_path, content, message):
    path = tmp_path / "results.jsonl"
    if content is not None:
        path.write_bytes(content)
    result = report(str(path), "--format", "json")
    assert result.exit_code == 2 and message in result.output and "Traceback" not in result.output


def test_a_record_with_a_wrong_field_is_refused_by_its_line_and_field(results):
    lines = results.read_text().splitlines()
    verdict = json.loads(lines[1])
    verdict["status"] = "fine"
    results.write_text("\n".join([lines[0], json.dumps(verdict), *lines[2:]]) + "\n")
    result = report(str(results), "--format", "html")
    assert result.exit_code == 2 and "line 2: $.status: " in result.output


def test_a_cut_line_before_the_end_is_refused_but_the_last_may_be_cut(results):
    lines = results.read_text().splitlines()
    results.write_text("\n".join([lines[0], lines[1][:40], *lines[2:]]) + "\n")
    result = report(str(results), "--format", "json")
    assert result.exit_code == 2 and "line 2: not a JSON record" in result.output


def test_a_campaign_cut_short_is_rendered_marked_incomplete_and_exits_2(tmp_path):
    results = record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", wrong_export())])], complete=False)
    target = tmp_path / "r.md"
    result = report(str(results), "--format", "markdown", "--output", str(target))
    assert result.exit_code == 2 and "cut short" in result.output
    assert "incomplete" in target.read_text() and "my-gateway" in target.read_text()


@pytest.mark.parametrize("output, message", [("missing-folder/r.json", "does not exist"), (".", "is a directory")])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(results, output, message):
    result = report(str(results), "--format", "json", "--output", output)
    assert result.exit_code == 2 and message in result.output


def test_the_command_the_markdown_report_prints_runs_as_printed(tmp_path):
    wrong = [verdict_of("my-gateway", wrong_export())] * 9  # more than the Markdown report shows of one implementation
    record(tmp_path / "campaign", [tally("my-gateway", wrong)])
    # gateproof run by its path, its folder not on PATH: the command names it by that path, and a shell runs it as printed.
    bin_folder = str(Path(GATEPROOF).parent)
    environment = {**os.environ, "PATH": os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != bin_folder)}
    markdown = subprocess.run([GATEPROOF, "report", "campaign/results.jsonl", "--format", "markdown"], cwd=tmp_path, capture_output=True,
                              text=True, check=True, env=environment).stdout
    [command] = {line for line in markdown.splitlines() if line.startswith(f"{GATEPROOF} report ")}
    done = subprocess.run(["sh", "-c", command], cwd=tmp_path, capture_output=True, text=True, env=environment)
    assert done.returncode == 0, done.stderr
    assert markdown.count("<b>my-gateway</b>") == 1 and (tmp_path / "campaign" / "report.html").read_text().count("<details>") >= 9


def test_several_results_that_are_not_the_shards_of_one_campaign_are_refused(results):
    result = report(str(results), str(results), "--format", "json")
    assert result.exit_code == 2 and result.output.startswith("gateproof: error: ") and "Traceback" not in result.output


def test_a_bad_line_is_named_with_its_file(results, tmp_path):
    bad = tmp_path / "other.jsonl"
    bad.write_text('{"record": "end"}\n')
    result = report(str(bad), "--format", "json")
    assert result.exit_code == 2 and f"{bad}: line 1: $: " in result.output


def stopped_mid_campaign(tmp_path, builtin: str, verdicts: int, number: int) -> tuple[Path, int, bytes]:
    """A verify of ``builtin`` sent signal ``number`` once ``verdicts`` verdicts are written: its results, exit status and stderr."""
    results = tmp_path / "out" / "results.jsonl"
    verify = subprocess.Popen([GATEPROOF, "verify", "--builtin", builtin, "--examples", "100000", "--out", str(tmp_path / "out")],
                              cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 600  # generous: only a verify that never writes a verdict runs into it
        while time.monotonic() < deadline and verify.poll() is None:
            if results.is_file() and results.read_text().count('"record":"verdict"') >= verdicts:
                break
            time.sleep(0.2)
        assert verify.poll() is None, "verify ended before it was stopped"
        verify.send_signal(number)
        _, stderr = verify.communicate(timeout=120)
    finally:
        if verify.poll() is None:
            verify.kill()
            verify.wait()
    return results, verify.returncode, stderr


def test_results_are_written_as_they_come_so_a_verify_killed_mid_campaign_still_renders_what_it_found(tmp_path):
    """No end record, so the report says the campaign was cut short; every verdict written before the signal is in it."""
    results, _, _ = stopped_mid_campaign(tmp_path, "reference", 50, signal.SIGTERM)
    written = [json.loads(line) for line in results.read_text().splitlines() if line.endswith("}")]
    assert written[0]["record"] == "campaign" and all(r["record"] != "end" for r in written)
    result = report(str(results), "--format", "json")
    assert result.exit_code == 2 and "cut short" in result.output
    document = json.loads(result.stdout)
    [reference] = document["implementations"]
    verdicts = [r for r in written if r["record"] == "verdict"]
    assert document["complete"] is False and reference["implementation"] == "reference"
    assert reference["passed"] == len(verdicts) >= 50 and [v["scenario"] for v in reference["verdicts"]] == [v["scenario"] for v in verdicts]


def test_a_mutants_campaign_cut_short_by_ctrl_c_is_incomplete_not_a_verdict_on_the_mutant(tmp_path):
    """Stopped before its end, a mutant is neither caught nor missed, and never read as expected to conform."""
    results, returncode, stderr = stopped_mid_campaign(tmp_path, "mutant:forced-ungated", 20, signal.SIGINT)
    assert returncode == 130 and b"Traceback" not in stderr
    for report_format in ("json", "markdown"):
        result = report(str(results), "--format", report_format)
        assert result.exit_code == 2 and "cut short" in result.output
    document = json.loads(report(str(results), "--format", "json").stdout)
    [mutant] = document["implementations"]
    assert (mutant["implementation"], mutant["expected"], mutant["verdict"]) == ("mutant:forced-ungated", "must be caught", "INCOMPLETE")
    assert "INCOMPLETE" in report(str(results), "--format", "markdown").stdout
