"""A security fault hidden among many disagreements of one other cause: printed first by verify, counted as security in every report.

The wrong gateway of ``tests/implementations/shouts_tenant_reads_across.py``
writes every call's audit tenant in capitals (hundreds of disagreements, none
of them a security fault) and lets a supervisor read another tenant's case,
which the model denies (G001.10): its one security fault.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import jsonschema_rs
import pytest

from gateproof.conformance.reports.render import render_results

from harness_helpers import fake
from report_helpers import invalid_records, schema

CROSS_TENANT = "gw.boundary.g001.12.other-tenant.applies"  # the corpus case of a supervisor reading another tenant's case
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def run_verify(out: Path, *arguments: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run(["gateproof", "verify", "--kinds", "gateway", "--examples", "200", "--out", str(out), *arguments,
                           "--", *fake("shouts_tenant_reads_across")], env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("security") / "out"
    done = run_verify(out, *(f"--report={f}" for f in ("json", "junit", "markdown", "html")))
    assert done.returncode == 1, done.stdout + done.stderr
    return done, out


def records(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]


@pytest.mark.rule("G001.10")
def test_the_one_security_fault_is_printed_first_by_default(campaign):
    done, _ = campaign
    printed = [ANSI.sub("", line) for line in done.stdout.splitlines()]
    headings = [line for line in printed if re.match(r"shouts-tenant-reads-across (failed|nondeterministic): ", line)]
    assert len(headings) == 3  # the default shows three of hundreds
    assert printed[0].startswith("SECURITY: step 0: allows a call the model denies (tenant_mismatch) [G001.13, G001.10]")
    assert headings[0].startswith(f"shouts-tenant-reads-across failed: {CROSS_TENANT}  (gateway/boundary")


def test_the_terminal_summary_counts_the_security_fault_apart(campaign):
    done, out = campaign
    printed = [ANSI.sub("", line) for line in done.stdout.splitlines()]
    [header] = [line for line in printed if "implementation" in line and "failed" in line]
    columns = [cell.strip() for cell in header.strip("┃").split("┃")]
    assert columns[:6] == ["implementation", "verdict", "passed", "failed", "security", "refusal"]
    [row] = [line for line in printed if line.startswith("│ shouts-tenant-reads-across")]
    cells = [cell.strip() for cell in row.strip("│").split("│")]
    implementation = next(r for r in records(out) if r["record"] == "implementation")
    security = sum(r["status"] == "failed" and r["disagreement"]["severity"] == "security" for r in records(out) if r["record"] == "verdict")
    security += implementation["unkept_severities"].get("security", 0)
    assert int(cells[4]) == security >= 1 and cells[5] == "-"
    failed = int(cells[3])
    assert f"shouts-tenant-reads-across: {failed} failed: {security} security, 0 refusal, {failed - security} other" in printed


def test_results_jsonl_records_each_disagreements_class(campaign):
    _, out = campaign
    verdicts = {r["scenario"]: r for r in records(out) if r["record"] == "verdict" and r.get("disagreement")}
    assert verdicts[CROSS_TENANT]["disagreement"]["severity"] == "security"
    classes = {v["disagreement"]["severity"] for v in verdicts.values()}
    assert classes == {"security", "other"} and sum(v["disagreement"]["severity"] == "other" for v in verdicts.values()) > 100
    # Every generated rule version keeps its security fault beside the disagreement of the repeated cause.
    for version in ("lab-001", "lab-001+next"):
        assert {v["disagreement"]["severity"] for v in verdicts.values() if v["family"] == f"generated/{version}"} == {"security", "other"}
    assert invalid_records(out / "results.jsonl") == []


def test_the_html_report_marks_the_security_fault_and_lists_it_first(campaign):
    _, out = campaign
    page = (out / "report.html").read_text()
    section = page[page.index('<section class="impl"'):]
    first_case = section.index("<details id=")
    assert section.index('<span class="badge security">security</span>') < first_case  # listed before the families
    listed = section[:first_case]
    assert CROSS_TENANT in listed and "allows a call the model denies (tenant_mismatch)" in html.unescape(listed)
    [summary] = [s for s in section.split("<summary>")[1:] if f"<code>{CROSS_TENANT}</code>" in s]
    assert '<span class="badge security">security</span>' in summary
    assert re.search(r"<th>failed</th><th>security</th><th>refusal</th>", page)


def test_the_markdown_report_marks_the_security_fault_and_shows_it_first(campaign):
    _, out = campaign
    text = (out / "report.md").read_text()
    cases = [line for line in text.splitlines() if re.match(r"(\*\*[A-Z]+\*\* )?\*\*failed\*\* ", line)]
    assert cases[0].startswith(f"**SECURITY** **failed** {CROSS_TENANT.replace('_', chr(92) + '_')} ")
    marked = [line.startswith("**SECURITY**") for line in cases]
    assert marked == sorted(marked, reverse=True) and not all(marked)  # every security case before every other one
    header = next(line for line in text.splitlines() if line.startswith("| implementation"))
    assert "| failed | security | refusal |" in header


def test_the_junit_report_types_the_security_fault_and_puts_it_first(campaign):
    _, out = campaign
    suite = ElementTree.parse(out / "report.junit.xml").getroot().find("testsuite")
    failures = [(case.get("name"), case.find("failure")) for case in suite.findall("testcase") if case.find("failure") is not None]
    first_name, first = failures[0]
    assert first.get("type") == "security" and first.get("message").startswith("SECURITY: step 0: allows a call the model denies")
    assert CROSS_TENANT in [name for name, failure in failures if failure.get("type") == "security"]
    assert {failure.get("type") for _, failure in failures} == {"security", "failed"}
    typed = [failure.get("type") == "security" for _, failure in failures]
    assert typed == sorted(typed, reverse=True)  # every security failure before every other one
    properties = {p.get("name"): p.get("value") for p in suite.find("properties")}
    security = sum(failure.get("type") == "security" for _, failure in failures)
    assert int(properties["security"]) >= security >= 1 and properties["refusal"] == "0"


def test_the_json_report_counts_the_security_fault(campaign):
    _, out = campaign
    document = json.loads((out / "report.json").read_text())
    jsonschema_rs.validate(schema("verify-report.schema.json"), document)
    [implementation] = document["implementations"]
    assert implementation["security"] >= 1 and implementation["refusal"] == 0
    [verdict] = [v for v in implementation["verdicts"] if v["scenario"] == CROSS_TENANT]
    assert verdict["disagreement"]["severity"] == "security"


def test_a_results_file_that_records_no_class_is_classed_again_when_read(campaign, tmp_path):
    _, out = campaign
    old = tmp_path / "results.jsonl"
    lines = []
    for record in records(out):
        record.pop("unkept_severities", None)
        if isinstance(record.get("disagreement"), dict):
            record["disagreement"].pop("severity")
        lines.append(json.dumps(record))
    old.write_text("\n".join(lines) + "\n")
    junit = ElementTree.fromstring(render_results(old, "junit"))
    [case] = [c for c in junit.iter("testcase") if c.get("name") == CROSS_TENANT]
    assert case.find("failure").get("type") == "security"
    assert json.loads(render_results(old, "json"))["implementations"][0]["security"] >= 1


def test_quiet_prints_the_table_with_the_classes_and_the_line_under_it(tmp_path):
    done = run_verify(tmp_path / "quiet", "--quiet")
    printed = [ANSI.sub("", line) for line in done.stdout.splitlines()]
    assert not any(line.startswith("SECURITY") for line in printed)
    assert any(re.match(r"shouts-tenant-reads-across: \d+ failed: [1-9]\d* security, 0 refusal, \d+ other$", line) for line in printed)
