"""``gateproof prove``: the table, the JSON report, exit statuses, and counterexample files that replay."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.proofs.catalog import CATALOG


REPORT_SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "conformance" / "schema" / "prove-report.schema.json").read_text())


def run(*arguments):
    return CliRunner().invoke(main, ["prove", *arguments])


def test_the_latest_rules_prove_the_whole_catalog():
    result = run("--bound", "4")
    assert result.exit_code == 0, result.output
    for entry in CATALOG:
        assert entry.id in result.output


def test_json_reports_every_invariant_with_its_result():
    result = run("--bound", "4", "--json")
    report = json.loads(result.output)
    jsonschema.validate(report, REPORT_SCHEMA)
    assert result.exit_code == 0
    assert report["proved_all_expected"] is True
    assert [r["id"] for r in report["results"]] == [entry.id for entry in CATALOG]
    assert {r["result"] for r in report["results"]} == {"proved"}


def test_a_wrong_variant_yields_a_counterexample_and_exit_status_1():
    result = run("--rules", "wrong:first-wins-ties", "--only", "I005", "--bound", "4", "--json")
    assert result.exit_code == 1
    report = json.loads(result.output)
    jsonschema.validate(report, REPORT_SCHEMA)
    (entry,) = report["results"]
    assert entry["result"] == "counterexample"
    assert entry["counterexample"]["scenarios"][0]["rules"] == "adr-179"


def test_a_known_departure_exits_0_and_its_counterexample_replays_through_decide(tmp_path):
    result = run("--rules", "pre-164", "--bound", "4", "--counterexamples", str(tmp_path))
    assert result.exit_code == 0, result.output
    scenarios = sorted(p for p in tmp_path.glob("*.json") if not p.name.endswith(".outcome.json"))
    assert {p.name.split("-")[0] for p in scenarios} == {"I002", "I005"}
    for scenario in scenarios:
        decided = CliRunner().invoke(main, ["decide", str(scenario)])
        assert decided.exit_code == 0
        assert json.loads(decided.output) == json.loads(scenario.with_suffix(".outcome.json").read_text())


@pytest.mark.parametrize("arguments", [("--rules", "adr-999"), ("--bound", "0"), ("--bound", "many"), ("--only", "I999")])
def test_bad_options_exit_2_without_a_traceback(arguments):
    result = run(*arguments)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "Invalid value" in result.output
