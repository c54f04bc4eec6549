"""Conformance needs something decided: skipping everything, or every scenario of a kind declared, is never conformant."""

import json
from pathlib import Path

import jsonschema_rs
import pytest
from attrs import evolve
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.campaign import under_latest_declared
from gateproof.conformance.harness.hunt import model_outcome
from gateproof.conformance.harness.expectations import CONFORMANT, is_met, undecided, verdict_text
from gateproof.conformance.harness.protocol import Started
from gateproof.conformance.harness.results import Tally
from gateproof.model.versions import ADR_SEQUENCE, DEFAULT_VERSION

from harness_helpers import fake

ROOT = Path(__file__).resolve().parent.parent
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


def test_an_implementation_a_version_behind_runs_every_case_that_names_no_version_under_the_latest_it_declares():
    """The default moves with each new ADR: until an implementation learns it, the cases that name no version run under the
    latest version it declares, expected as the model decides them there, rather than being dropped."""
    cases = load_corpus()
    unnamed = [c for c in cases if c.scenario.get("kind", "ceiling") == "ceiling" and "rules" not in c.scenario]
    named_default = [c for c in cases if c.scenario.get("rules") == DEFAULT_VERSION]
    status, row = verify("--examples", "0", "--", *fake("behind"))
    assert status == 0 and row["verdict"] == "conformant" and row["passed"] == len(cases) - len(named_default), row["notes"]
    behind = ADR_SEQUENCE[ADR_SEQUENCE.index(DEFAULT_VERSION) - 1]
    assert row["notes"] == [f"does not declare {DEFAULT_VERSION}, the default: {len(unnamed)} corpus cases naming no version run under "
                            f"{behind}, the latest it declares", f"does not declare {DEFAULT_VERSION}: {len(named_default)} corpus cases not run"]


def test_a_case_that_names_no_version_moves_only_for_an_implementation_that_declares_an_earlier_adr_but_not_the_default():
    case = next(c for c in load_corpus() if c.scenario.get("kind", "ceiling") == "ceiling" and "rules" not in c.scenario)
    started = lambda *rules: Started("x", "0", "python", "", rules, ["ceiling", "gateway"])
    moved = under_latest_declared(case, started("pre-164", "adr-164", "nr-llm"))
    assert moved.scenario == {**case.scenario, "rules": "adr-164"} and moved.expected == model_outcome(moved.scenario)
    assert moved.id == case.id and moved.rules == case.rules
    for rules in [(DEFAULT_VERSION, "pre-164"), ("nr-llm",), ("lab-001",)]:
        assert under_latest_declared(case, started(*rules)) is case
    pinned = evolve(case, scenario={**case.scenario, "rules": "adr-179"})
    assert under_latest_declared(pinned, started("pre-164")) is pinned


def test_a_replayed_scenario_that_names_no_version_runs_under_the_latest_version_an_implementation_a_version_behind_declares():
    replayed = ROOT / "examples" / "forced-snippet-refused.json"
    assert "rules" not in json.loads(replayed.read_text(encoding="utf-8"))
    status, row = verify("--replay", str(replayed), "--", *fake("behind"))
    behind = ADR_SEQUENCE[ADR_SEQUENCE.index(DEFAULT_VERSION) - 1]
    assert (status, row["verdict"], row["passed"]) == (0, "conformant", 1)
    assert row["notes"] == [f"does not declare {DEFAULT_VERSION}, the default: 1 replayed scenario naming no version run under {behind}, "
                            "the latest it declares"]
