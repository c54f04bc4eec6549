"""``gateproof prove``: the table, the JSON report, exit statuses, and counterexample files that replay."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import jsonschema_rs
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
    report = json.loads(result.stdout)
    jsonschema_rs.validate(REPORT_SCHEMA, report)
    assert result.exit_code == 0
    assert report["proved_all_expected"] is True
    assert [r["id"] for r in report["results"]] == [entry.id for entry in CATALOG]
    assert {r["result"] for r in report["results"]} == {"proved"}


def test_a_wrong_variant_yields_a_counterexample_and_exit_status_1():
    result = run("--rules", "wrong:first-wins-ties", "--only", "I005", "--bound", "4", "--json")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    jsonschema_rs.validate(REPORT_SCHEMA, report)
    (entry,) = report["results"]
    assert entry["result"] == "counterexample"
    assert entry["counterexample"]["scenarios"][0]["rules"] == "adr-179"


def test_a_known_departure_exits_0_and_its_counterexample_replays_through_decide(tmp_path):
    result = run("--rules", "pre-164", "--bound", "4", "--out", str(tmp_path))
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
    assert result.output.startswith("gateproof: error: --") and len(result.output.splitlines()) == 1


from gateproof.conformance.program import command, program  # noqa: E402
from gateproof.conformance.proofs.wrong import WRONG_VARIANTS  # noqa: E402


@pytest.mark.parametrize("variant", sorted(WRONG_VARIANTS))
def test_every_command_prove_prints_for_a_counterexample_runs_as_printed(variant, tmp_path):
    """decide replays the outcome prove wrote, labelled with the variant; explain runs under it and ends on the same results."""
    result = run("--rules", variant, "--bound", "4", "--out", str(tmp_path))
    assert result.exit_code == 1
    scenarios = sorted(p for p in tmp_path.glob("*.json") if not p.name.endswith(".outcome.json"))
    assert scenarios
    commands = [line.strip()[2:] for line in result.output.splitlines() if line.strip().startswith("$ ")]
    assert sorted(commands) == sorted(command(verb, "--rules", variant, str(p)) for p in scenarios for verb in ("decide", "explain"))
    for line in commands:
        arguments = shlex.split(line)[len(shlex.split(program())):]
        done = CliRunner().invoke(main, arguments)
        assert done.exit_code == 0, (line, done.output)
        expected = json.loads(Path(arguments[-1]).with_suffix(".outcome.json").read_text())
        assert expected["rules"] == variant
        if arguments[0] == "decide":
            assert json.loads(done.output) == expected
        else:
            assert f"under rules {variant}" in " ".join(done.output.split())
            trace = json.loads(CliRunner().invoke(main, [*arguments[:-1], "--json", arguments[-1]]).output)
            assert [step["result"] for step in trace["steps"]] == expected["results"]


def test_the_json_report_carries_the_replay_command(tmp_path):
    result = run("--rules", "wrong:skips-assignment", "--only", "I014", "--bound", "3", "--json", "--out", str(tmp_path))
    (entry,) = json.loads(result.stdout)["results"]
    (path,) = entry["counterexample"]["files"]
    assert entry["counterexample"]["replay"] == [command("decide", "--rules", "wrong:skips-assignment", path)]
    assert entry["counterexample"]["explain"] == [command("explain", "--rules", "wrong:skips-assignment", path)]


def test_progress_goes_to_stderr_and_quiet_silences_it():
    shown = run("--bound", "2", "--only", "I001")
    assert shown.exit_code == 0 and "prove: I001 proved" in shown.stderr and "prove:" not in shown.stdout
    quiet = run("--bound", "2", "--only", "I001", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == "" and "I001" in quiet.stdout


def test_an_unknown_rules_name_names_the_closest_not_every_name():
    result = run("--rules", "wrong:first-win-ties")
    assert result.exit_code == 2 and "closest: wrong:first-wins-ties" in result.output and "gateproof rules --versions" in result.output
    assert "wrong:skips-assignment" not in result.output and "wrong:skips-assignment" not in run("--help").output


def test_decide_rules_overrides_the_scenarios_version():
    example = str(Path(__file__).resolve().parent.parent / "examples" / "adr-175-tie-names-one-source.json")
    own = json.loads(CliRunner().invoke(main, ["decide", example]).output)
    under_166 = json.loads(CliRunner().invoke(main, ["decide", "--rules", "adr-166", example]).output)
    assert under_166["rules"] == "adr-166"
    assert [r.get("source") for r in own["results"]] != [r.get("source") for r in under_166["results"]]


def test_decide_rules_of_the_other_family_exits_2_naming_it():
    example = str(Path(__file__).resolve().parent.parent / "examples" / "forced-snippet-refused.json")
    for rules in ("wrong:unsafe-gateway", "lab-001"):
        result = CliRunner().invoke(main, ["decide", "--rules", rules, example])
        assert result.exit_code == 2
        assert f"--rules {rules} does not apply" in result.output


def test_decide_jsonl_applies_the_rules_to_every_line(tmp_path):
    example = json.loads((Path(__file__).resolve().parent.parent / "examples" / "adr-175-tie-names-one-source.json").read_text())
    lines = (json.dumps(example) + "\n") * 2
    result = CliRunner().invoke(main, ["decide", "--jsonl", "--rules", "adr-166"], input=lines)
    assert result.exit_code == 0, result.output
    outcomes = [json.loads(line) for line in result.output.splitlines()]
    assert [outcome["rules"] for outcome in outcomes] == ["adr-166", "adr-166"]
