"""Properties of the gateway over generated worlds and proposals, with the lab-001 conditions restated here independently."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.gateway_strategies import CANARY, INJECTIONS, authorized_calls, calls, gateway_scenarios, gateway_worlds, json_values
from gateproof.conformance.implementations import cedar_gateway
from gateproof.model.scenario import read_scenario, run_scenario

TOOL_ARGUMENTS = {"export_case": {"case_id", "destination_id"}, "read_case": {"case_id"}}


def is_well_formed(tool, arguments) -> bool:
    return (
        isinstance(tool, str) and tool in TOOL_ARGUMENTS and isinstance(arguments, dict) and set(arguments) == TOOL_ARGUMENTS[tool]
        and all(isinstance(v, str) and 0 < len(v) <= 128 for v in arguments.values())
    )


def conditions_hold(world: dict, session_id: str, tool: str, arguments: dict) -> bool:
    """The lab-001 conditions as the ADR states them, written without the model's code."""
    session = next(s for s in world["sessions"] if s["id"] == session_id)
    roles = set(session.get("roles", []))
    case = next((c for c in world["cases"] if c["id"] == arguments["case_id"]), None)
    if not session.get("valid", True) or case is None or case["tenant"] != session["tenant"]:
        return False
    assigned = session["user"] in case["assignees"]
    if tool == "read_case":
        return assigned or "supervisor" in roles
    destination = next((d for d in world["destinations"] if d["id"] == arguments["destination_id"]), None)
    return "support" in roles and assigned and destination is not None and destination["internal"]


def decide(world: dict, step: dict, rules: str = "lab-001") -> dict:
    document = {"gateproof": 1, "kind": "gateway", "id": "p", "rules": rules, "world": world, "steps": [step]}
    return run_scenario(read_scenario(document))["results"][0]


@settings(max_examples=400)
@given(gateway_worlds(), calls())
def test_allow_implies_every_condition_holds(world, step):
    """Soundness: nothing is allowed that the lab's conditions refuse, however the proposal is shaped."""
    if decide(world, step)["decision"] == "allow":
        assert is_well_formed(step["tool"], step["arguments"])
        assert conditions_hold(world, step["session"], step["tool"], step["arguments"])


@settings(max_examples=400)
@given(gateway_worlds(), calls())
def test_every_condition_holding_implies_allow(world, step):
    """Completeness: a well-formed call meeting every condition is allowed, with exactly its one effect."""
    if is_well_formed(step["tool"], step["arguments"]) and conditions_hold(world, step["session"], step["tool"], step["arguments"]):
        result = decide(world, step)
        assert result["decision"] == "allow"
        assert len(result["exports"]) + len(result["reads"]) == 1


@settings(max_examples=200)
@given(authorized_calls())
def test_every_condition_holding_implies_allow_on_constructed_calls(pair):
    """Completeness again, on calls built to meet every condition, so that every example counts."""
    world, step = pair
    assert conditions_hold(world, step["session"], step["tool"], step["arguments"])
    result = decide(world, step)
    assert result["decision"] == "allow" and len(result["exports"]) + len(result["reads"]) == 1


@pytest.mark.parametrize("rules", ["lab-001", "lab-001+next"])
@settings(max_examples=300)
@given(world=gateway_worlds(), tool=json_values(max_leaves=2) | st.sampled_from(sorted(TOOL_ARGUMENTS)), arguments=json_values())
def test_no_malformed_proposal_raises_or_is_allowed(rules, world, tool, arguments):
    result = decide(world, {"op": "call", "session": "s-1", "tool": tool, "arguments": arguments}, rules)
    if not is_well_formed(tool, arguments):
        assert result["decision"] == "deny" and result["exports"] == [] and result["reads"] == []


@pytest.mark.parametrize("rules", ["lab-001", "lab-001+next"])
@settings(max_examples=200)
@given(document=gateway_scenarios())
def test_case_content_never_reaches_an_audit_record_or_a_reason(rules, document):
    document["rules"] = rules
    for result in run_scenario(read_scenario(document))["results"]:
        if result["op"] == "call":
            assert CANARY not in json.dumps(result["audit"]) + result["reason"] + result["caller_reason"]


def _replant(document: dict, text: str) -> dict:
    """The same scenario with every case content, runbook and content edit replaced by ``text``."""
    planted = copy.deepcopy(document)
    for record in planted["world"]["cases"] + planted["world"]["runbooks"]:
        record["content"] = text
    for step in planted["steps"]:
        if step["op"] == "edit_case":
            step["content"] = text
    return planted


def _decisions(document: dict) -> list:
    return [(r.get("decision"), r.get("reason"), r.get("audit"), len(r.get("exports", []))) for r in run_scenario(read_scenario(document))["results"]]


@pytest.mark.parametrize("rules", ["lab-001", "lab-001+next"])
@settings(max_examples=200)
@given(document=gateway_scenarios(), text=st.sampled_from(INJECTIONS) | st.text(max_size=40))
def test_decisions_never_depend_on_text_in_cases_or_runbooks(rules, document, text):
    document["rules"] = rules
    assert _decisions(document) == _decisions(_replant(document, text))


@settings(max_examples=200, deadline=None)
@given(document=gateway_scenarios(rules="lab-001"))
def test_cedar_implementation_agrees_with_the_model(document):
    assert cedar_gateway.run(document) == run_scenario(read_scenario(document))


@settings(max_examples=100, deadline=None)
@given(pair=authorized_calls(), other=calls())
def test_cedar_implementation_agrees_on_allowed_calls(pair, other):
    """Side by side where generated scenarios rarely go: calls that meet every condition, then one more call."""
    world, step = pair
    document = {"gateproof": 1, "kind": "gateway", "id": "p", "world": world, "steps": [step, other]}
    assert cedar_gateway.run(document) == run_scenario(read_scenario(document))

