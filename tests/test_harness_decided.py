"""Conformance needs something decided: skipping everything, or every scenario of a kind declared, is never conformant."""

import json

import jsonschema_rs
import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.harness.expectations import CONFORMANT, is_met, undecided, verdict_text
from gateproof.conformance.harness.protocol import Started
from gateproof.conformance.harness.results import Tally

from harness_helpers import fake
from test_harness_verify import REPORT_SCHEMA


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def verify(*arguments) -> tuple[int, dict]:
    """Exit status and the one implementation's row of the JSON report."""
    result = CliRunner().invoke(main, ["verify", "--report", "json", *arguments], catch_exceptions=False)
    document = json.loads(open("gateproof-verify/report.json", encoding="utf-8").read())
    jsonschema_rs.validate(REPORT_SCHEMA, document)
    [row] = document["implementations"]
    return result.exit_code, row


def test_an_implementation_that_skips_everything_decides_nothing_and_exits_1():
    status, row = verify("--examples", "20", "--kinds", "gateway", "--", *fake("skips"))
    assert status == 1 and row["verdict"] == "NOTHING DECIDED"
    assert row["passed"] == row["failed"] == row["errored"] == 0 and row["skipped"] > 20  # the corpus, then every generated one
    assert f"skipped {row['skipped']}: gateway scenarios are not decided here" in row["notes"]
    assert f"nothing decided: none of the {row['skipped']} scenarios asked was answered with an outcome" in row["notes"]


def test_an_implementation_that_declares_no_rule_version_gateproof_knows_decides_nothing():
    status, row = verify("--examples", "100", "--", *fake("skips"), "--declare", "lab-999")
    assert status == 1 and row["verdict"] == "NOTHING DECIDED" and row["generated"] == 0
    assert "generated 0 of the 100 scenarios asked: it declares no kind and rule version selected" in row["notes"]
    assert any(note.startswith("does not declare adr-179: ") for note in row["notes"]) and row["skipped"] == 0


def test_skipping_every_scenario_of_a_kind_it_declares_is_not_conformant():
    status, row = verify("--examples", "0", "--", *fake("skips"), "ceiling")
    assert status == 1 and row["verdict"] == "NOTHING DECIDED" and row["passed"] > 0
    assert any(note.startswith("no ceiling scenario decided, though it declares ceiling") for note in row["notes"])


def test_what_an_implementation_does_not_declare_is_one_line_not_a_skipped_case_each():
    # cedar declares only gateway scenarios under lab-001: the ceiling corpus and lab-001+next's are not sent, and it conforms.
    result = CliRunner().invoke(main, ["verify", "--report", "json", "--report", "junit", "--examples", "10", "--builtin", "cedar"])
    [row] = json.loads(open("gateproof-verify/report.json", encoding="utf-8").read())["implementations"]
    assert result.exit_code == 0 and row["verdict"] == "conformant" and row["skipped"] == 0 and row["passed"] > 0
    assert [note.split(":")[0] for note in row["notes"]] == ["does not declare ceiling", "does not declare lab-001+next"]
    assert all(note.endswith("corpus cases not run") for note in row["notes"])
    assert "does not declare ceiling: " in " ".join(result.output.split())
    assert "<skipped" not in open("gateproof-verify/report.junit.xml", encoding="utf-8").read()


def test_cedar_asked_only_for_what_it_does_not_decide_decides_nothing():
    status, row = verify("--examples", "10", "--builtin", "cedar", "--kinds", "ceiling")
    assert status == 1 and row["verdict"] == "NOTHING DECIDED"


def test_a_campaign_that_asks_nothing_decides_nothing():
    # No corpus case is a gateway scenario under a ceiling rule version, and nothing is generated.
    status, row = verify("--examples", "0", "--builtin", "reference", "--kinds", "gateway", "--rules", "adr-179")
    assert status == 1 and row["verdict"] == "NOTHING DECIDED" and sum(row[s] for s in ("passed", "skipped")) == 0


def tally_with(asked: dict, decided: dict, kinds=("ceiling", "gateway"), rules=("adr-179", "lab-001")) -> Tally:
    tally = Tally("x", info=Started("x", "0", "python", "", rules, kinds))
    tally.asked.update(asked)
    tally.decided.update(decided)
    return tally


@pytest.mark.parametrize("asked, decided, kinds, rules, reason", [
    ({"gateway": 3}, {}, ("gateway",), ("lab-001",), "nothing decided: none of the 3 scenarios asked"),
    ({"ceiling": 2, "gateway": 3}, {"gateway": 3}, ("ceiling", "gateway"), ("adr-179", "lab-001"), "no ceiling scenario decided"),
    ({"ceiling": 2, "gateway": 3}, {"gateway": 3}, ("gateway",), ("lab-001",), None),  # ceiling is not declared
    ({"ceiling": 2, "gateway": 3}, {"gateway": 3}, ("ceiling", "gateway"), ("lab-001",), None),  # nor any ceiling version
    ({"ceiling": 2}, {"ceiling": 1}, ("ceiling", "gateway"), ("adr-179", "lab-001"), None),  # no gateway scenario was asked
])
def test_what_decides_enough(asked, decided, kinds, rules, reason):
    tally = tally_with(asked, decided, kinds, rules)
    found = undecided(tally)
    assert (found is None) == (reason is None) and (reason is None or found.startswith(reason))
    assert is_met(tally, CONFORMANT) == (reason is None)
    assert verdict_text(tally, CONFORMANT) == ("conformant" if reason is None else "NOTHING DECIDED")


def test_a_failure_is_reported_as_one_even_when_little_was_decided():
    tally = tally_with({"gateway": 1}, {})
    tally.lost = "could not be restarted"
    assert undecided(tally) is None and verdict_text(tally, CONFORMANT) == "NOT CONFORMANT"
