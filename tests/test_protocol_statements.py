"""PROTOCOL.md and S001.11 state the comparison levels themselves; what they say is what the harness compares."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gateproof.conformance.explanation.adr_entries import adr_entries
from gateproof.conformance.harness.compare import DECISION_KEYS, REASON_KEYS, compare

PROTOCOL = (Path(__file__).resolve().parent.parent / "conformance" / "PROTOCOL.md").read_text(encoding="utf-8")


def level_text(level: str) -> str:
    section = PROTOCOL[PROTOCOL.index("## How outcomes are compared"):PROTOCOL.index("## What `verify` sends")]
    return re.search(rf"^- `{level}`:(.*?)(?=^- `|\Z)", section, re.S | re.M).group(1)


@pytest.mark.rule("S001.11")
def test_the_protocol_names_exactly_the_keys_each_level_compares():
    assert set(re.findall(r"`(\w+)`", level_text("decision"))) == set(DECISION_KEYS)
    assert set(re.findall(r"`(\w+)`", level_text("reason"))) == set(REASON_KEYS) - set(DECISION_KEYS)
    assert "compare.py" not in PROTOCOL


@pytest.mark.rule("S001.11")
def test_a_key_one_side_lacks_differs_and_the_number_of_results_counts_at_every_level():
    mine = {"gateproof": 1, "scenario": "s", "rules": "adr-179", "results": [{"op": "send", "decision": "permitted"}]}
    for level in ("decision", "reason", "full"):
        assert compare(mine, {**mine, "results": [{"op": "send"}]}, level).keys == ("decision",)
        assert compare(mine, {**mine, "results": mine["results"] * 2}, level).keys == ("results",)
    assert compare(mine, {**mine, "rules": "nr-llm"}, "full").keys == ("rules",)
    assert compare(mine, {**mine, "rules": "nr-llm"}, "reason") is None


@pytest.mark.rule("S001.1")
def test_a_generated_scenario_the_model_refuses_as_input_is_never_sent():
    from collections import Counter
    from types import SimpleNamespace

    from gateproof.conformance.harness.hunt import Hunt, model_outcome
    from gateproof.conformance.harness.protocol import Outcome

    valid = {"gateproof": 1, "id": "valid", "world": {"configurations": [{"identifier": "c"}]}, "steps": [{"op": "classify", "configuration": "c"}]}
    invalid = {**valid, "id": "invalid", "steps": [{"op": "classify", "configuration": "nowhere"}]}
    sent = []

    def run_many(scenarios, expect=None):
        for scenario in scenarios:
            sent.append(scenario["id"])
            yield scenario, Outcome(0, model_outcome(scenario))

    tally = SimpleNamespace(generated=0, unkept=Counter(), count_scenario=lambda *args: None)
    campaign = SimpleNamespace(process=SimpleNamespace(run_many=run_many), tally=tally, advance=lambda: None)
    assert Hunt(campaign, "ceiling", "adr-179", 2).sweep([invalid, valid, invalid]) == []
    assert sent == ["valid"] and tally.generated == 1


@pytest.mark.rule("S001.1")
def test_an_invalid_replay_file_stops_verify_naming_the_field(tmp_path):
    from click.testing import CliRunner

    from gateproof.conformance.cli import main

    document = {"gateproof": 1, "id": "r", "world": {"configurations": [{"identifier": "c"}]}, "steps": [{"op": "send", "configuration": "gone"}]}
    (tmp_path / "r.json").write_text(json.dumps(document), encoding="utf-8")
    done = CliRunner().invoke(main, ["verify", "--builtin", "reference", "--out", str(tmp_path / "out"), "--replay", str(tmp_path / "r.json")])
    assert done.exit_code == 2 and "$.steps[0].configuration" in done.output and "Traceback" not in done.output


@pytest.mark.rule("S001.11")
def test_the_rule_text_names_the_keys_of_each_level_as_the_protocol_does():
    text = adr_entries()["S001.11"].text
    decision = text[text.index("`decision` compares"):text.index("`reason` compares")]
    reason = text[text.index("`reason` compares"):text.index("`full`, the default")]
    assert set(re.findall(r"`(\w+)`", decision)) == set(DECISION_KEYS)
    assert set(re.findall(r"`(\w+)`", reason)) - {"reason"} == set(REASON_KEYS) - set(DECISION_KEYS) - {"reason"}


@pytest.mark.rule("S001.11")
def test_true_is_not_1_while_1_and_1_0_are_one_number_at_every_level():
    from gateproof.conformance.harness.protocol import Outcome
    from gateproof.conformance.harness.results import is_same_reply, judge

    state = {"forced_snippet_uids": [True, 2], "kept": False}
    mine = {"gateproof": 1, "scenario": "s", "rules": "adr-179", "results": [{"op": "suspend", "run": "r", "reason": "approval", "state": state}]}
    numbers = {**mine, "results": [{**mine["results"][0], "state": {"forced_snippet_uids": [1, 2], "kept": 0}}]}
    floats = {**mine, "results": [{**mine["results"][0], "state": {"kept": False, "forced_snippet_uids": [True, 2.0]}}]}
    assert compare(mine, numbers, "full").keys == ("state",)
    assert compare(mine, floats, "full") is None
    verdict = judge("impl", "generated", "f", {"id": "s"}, mine, Outcome(0, numbers), "full", ())
    assert verdict.status == "failed" and verdict.disagreement.keys == ("state",)
    assert not is_same_reply(Outcome(0, mine), Outcome(0, numbers)) and is_same_reply(Outcome(0, mine), Outcome(1, floats))
    # At the decision level a gateway call's verdict key alone counts; a boolean there is still not a number.
    call = {"gateproof": 1, "scenario": "s", "rules": "lab-001", "results": [{"op": "call", "decision": "deny", "replayed": False}]}
    assert compare(call, {**call, "results": [{"op": "call", "decision": "deny", "replayed": 0}]}, "decision") is None
    assert compare(call, {**call, "results": [{"op": "call", "decision": "deny", "replayed": 0}]}, "full").keys == ("replayed",)
