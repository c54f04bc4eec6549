"""``gateproof verify`` end to end: exit statuses, disagreements that replay, known divergences, reports."""

import json
import shlex
from pathlib import Path
from xml.etree import ElementTree

import jsonschema_rs
import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main

from harness_helpers import fake

REPORT_SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "conformance" / "schema" / "verify-report.schema.json").read_text())


def verify(*arguments):
    return CliRunner().invoke(main, ["verify", *arguments], catch_exceptions=False)


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_the_reference_is_conformant_and_every_report_is_written(tmp_path):
    result = verify("--builtin", "reference", "--examples", "10", *(f"--report={f}" for f in ("json", "junit", "markdown", "html")))
    assert result.exit_code == 0, result.output
    written = tmp_path / "gateproof-verify"
    document = json.loads((written / "report.json").read_text())
    jsonschema_rs.validate(REPORT_SCHEMA, document)
    [reference] = document["implementations"]
    assert reference["failed"] == reference["errored"] == 0 and reference["passed"] > 10
    assert ElementTree.parse(written / "report.junit.xml").getroot().tag == "testsuites"
    assert "## Compliance matrix" in (written / "report.md").read_text()
    assert (written / "report.html").read_text().startswith("<!doctype html>")
    records = [json.loads(line) for line in (written / "results.jsonl").read_text().splitlines()]
    assert [r["record"] for r in records] == ["campaign", *["verdict"] * len(reference["verdicts"]), "implementation", "end"]


def test_the_unsafe_gateway_disagrees_and_each_disagreement_replays(tmp_path, monkeypatch):
    result = verify("--builtin", "mutant:unsafe-gateway", "--examples", "0", "--compare", "decision", "--report", "json")
    assert result.exit_code == 0  # a mutant that is caught did what is expected of it
    document = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())
    jsonschema_rs.validate(REPORT_SCHEMA, document)
    verdicts = document["implementations"][0]["verdicts"]
    failed = {v["scenario"]: v for v in verdicts if v["status"] == "failed"}
    attack = failed["gw.poisoned-runbook.attack-proposal"]
    assert attack["rules"] == ["G001.8"] and attack["disagreement"]["keys"] == ["decision"]
    replay = shlex.split(attack["disagreement"]["replay_command"])[2:]
    assert not Path(attack["disagreement"]["replay_path"]).is_absolute()  # relative to the folder verify ran in, where it runs
    again = verify(*replay, "--report", "json", "--out", "again")
    assert again.exit_code == 0
    [only] = json.loads((tmp_path / "again" / "report.json").read_text())["implementations"][0]["verdicts"]
    assert (only["scenario"], only["status"], only["disagreement"]["expected"]) == (attack["scenario"], "failed", attack["disagreement"]["expected"])


def test_a_generated_disagreement_is_shrunk_to_a_small_scenario(tmp_path):
    verify("--builtin", "mutant:unsafe-gateway", "--examples", "30", "--disagreements", "1", "--report", "json")
    verdicts = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"][0]["verdicts"]
    generated = [v for v in verdicts if v["phase"] == "generated" and v["status"] == "failed"]
    assert generated
    for verdict in generated:
        scenario = verdict["disagreement"]["scenario"]
        assert len(scenario["steps"]) <= 2 and len(scenario["world"].get("cases", [])) <= 2
        assert (tmp_path / verdict["disagreement"]["replay_path"]).exists()


def test_known_divergences_are_reported_as_known_with_their_issue(tmp_path):
    (tmp_path / "known.json").write_text(json.dumps({"divergences": [
        {"implementation": "mutant:unsafe-gateway", "rule": "G001.3", "issue": "https://example.org/issues/3"},
        {"scenario": "gw.cross-tenant.export", "issue": "https://example.org/issues/4"},
    ]}))
    result = verify("--builtin", "mutant:unsafe-gateway", "--examples", "0", "--known", "known.json", "--report", "json")
    verdicts = {v["scenario"]: v for v in json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"][0]["verdicts"]}
    assert verdicts["gw.forged.role"]["status"] == "known" and verdicts["gw.forged.role"]["issue"].endswith("/3")
    assert verdicts["gw.cross-tenant.export"]["status"] == "known"
    assert verdicts["gw.cross-tenant.read"]["status"] == "failed" and result.exit_code == 0  # still caught


def test_all_builtins_make_one_matrix_with_statuses_counted_apart(tmp_path):
    result = verify("--builtin", "all", "--examples", "0", "--report", "markdown")
    assert result.exit_code == 0, result.output  # the conformant ones conform and the corpus alone catches every mutant
    report = (tmp_path / "gateproof-verify" / "report.md").read_text()
    assert "| family | reference | node | cedar | mutant:forced-ungated |" in report
    assert "| gateway/next\\_checks | 12 passed | " in report  # an underscore escaped, as every Markdown mark in a cell is
    assert "| mutant:unsafe-gateway | must be caught | caught |" in report


def test_a_command_after_the_double_dash_is_run_without_a_shell():
    result = verify("--examples", "0", "--kinds", "gateway", "--rules", "lab-001", "--", *fake("always_wrong"))
    assert result.exit_code == 1 and "always-wrong" in result.output


def test_an_implementation_that_fails_start_exits_2_without_a_traceback():
    result = verify("--examples", "0", "--", *fake("fail_on_start"))
    words = " ".join(result.output.split())  # the console wraps the message where the command's path makes it long
    assert result.exit_code == 2 and "did not answer start" in words and "Traceback" not in result.output


@pytest.mark.parametrize("arguments, problem", [
    ([], "name an implementation"),
    (["--builtin", "nope"], "'nope' is not a built-in"),
    (["--builtin", "reference", "--rules", "adr-999"], "--rules 'adr-999' is not a rule version"),
    (["--builtin", "reference", "--kinds", "email"], "--kinds email"),
    (["--builtin", "reference", "--report", "pdf"], "pdf"),
    (["--builtin", "reference", "--replay", "missing.json"], "cannot read"),
    (["--builtin", "reference", "--compare", "vibes"], "vibes"),
])
def test_bad_options_exit_2_with_a_clear_message(arguments, problem):
    result = verify(*arguments)
    assert result.exit_code == 2 and problem in result.output and "Traceback" not in result.output


def test_corpus_export_writes_every_family(tmp_path):
    result = CliRunner().invoke(main, ["corpus", "export", "out"])
    assert result.exit_code == 0
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"ceiling.json", "lifecycle.json", "gateway"}


def test_an_implementation_that_cannot_be_restarted_keeps_what_was_measured_and_exits_2(tmp_path):
    command = [*fake("dies_for_good"), str(tmp_path / "started-once")]
    result = verify("--examples", "0", "--kinds", "gateway", "--window", "1", "--report", "json", "--", *command)
    assert result.exit_code == 2 and "could not be restarted" in (tmp_path / "gateproof-verify" / "report.json").read_text()
    [tally] = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"]
    assert tally["passed"] > 0 and tally["lost"].startswith("could not be restarted")


def test_a_nondeterministic_implementation_is_flagged_among_generated_scenarios_too(tmp_path):
    result = verify("--examples", "20", "--rules", "lab-001", "--disagreements", "1", "--report", "json", "--", *fake("nondeterministic"))
    verdicts = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"][0]["verdicts"]
    assert result.exit_code == 1
    assert any(v["phase"] == "generated" and v["status"] == "nondeterministic" for v in verdicts)


def test_exitfirst_stops_a_campaign_at_its_first_disagreement(tmp_path):
    result = verify("--exitfirst", "--examples", "500", "--report", "json", "--", *fake("always_wrong"))
    [tally] = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"]
    assert result.exit_code == 1 and tally["failed"] >= 1 and tally["generated"] == 0
    result = verify("-x", "--builtin", "mutant:logs-case-content", "--kinds", "gateway", "--examples", "2000", "--report", "json")
    [tally] = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"]
    assert result.exit_code == 0 and tally["generated"] == 0  # the corpus catches it; nothing is generated after


def test_exitfirst_stops_generating_once_the_runs_in_flight_at_its_first_disagreement_are_answered():
    from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
    from gateproof.conformance.implementations import BUILTINS

    settings = CampaignSettings(examples=5000, exitfirst=True)
    campaign = Campaign("mutant:forged-authority", BUILTINS["mutant:forged-authority"], settings)
    campaign.start()
    campaign.run_generated()
    tally = campaign.finish()
    # No scenario is drawn after the disagreement: only those already in flight, fewer than a window, are answered after it.
    assert [v.status for v in tally.verdicts] == ["failed"] and tally.generated - tally.first_failure_after < settings.window


def test_list_builtins_names_each_with_what_it_must_do():
    result = verify("--list-builtins")
    lines = result.output.splitlines()
    assert result.exit_code == 0 and lines[0].split()[:2] == ["reference", "conformant"]
    assert any(line.startswith("mutant:forged-authority") and "must be caught" in line for line in lines)
