"""The explanation of a gateway call shows what the host holds for it, as the world stands when the call is made."""

from __future__ import annotations

import pytest

from gateproof.conformance.explanation.explain import explained
from gateproof.conformance.explanation.trace import text_of
from gateproof.model.gateway.catalog import catalog_document
from gateproof.model.gateway.lab import LAB_CATALOG
from gateproof.model.scenario import read_scenario

WORLD = {
    "clock": 100,
    "sessions": [
        {"id": "s-1", "user": "dana", "tenant": "globex", "roles": ["supervisor", "support"]},
        {"id": "s-2", "user": "eve", "tenant": "acme", "roles": ["support"]},
    ],
    "cases": [{"id": "CASE-1", "tenant": "globex", "assignees": ["ana"]}],
    "destinations": [{"id": "audit-queue", "internal": True}, {"id": "legal-hold", "internal": False}],
    "approvals": [{"id": "ap-1", "tool": "export_case", "arguments": {"case_id": "CASE-1", "destination_id": "legal-hold"},
                   "user": "dana", "expires_at": 100}],
    "rate_limit": {"calls": 2, "window": 60},
}


def scenario(steps: list[dict], rules: str = "lab-001") -> dict:
    return {"gateproof": 1, "kind": "gateway", "id": "records", "rules": rules, "world": WORLD, "steps": steps}


def export(case: str = "CASE-1", destination: str = "audit-queue", session: str = "s-1") -> dict:
    return {"op": "call", "session": session, "tool": "export_case", "arguments": {"case_id": case, "destination_id": destination}}


def held(document: dict, step: int = 0):
    return next(a for a in explained(read_scenario(document)).steps[step].applied if a.id == "records")


@pytest.mark.rule("G001.11")
def test_the_session_roles_and_the_case_assignees_the_checks_read_are_shown():
    records = held(scenario([export()]))
    assert records.details[:4] == (
        'the gateway\'s tools: ["export_case", "read_case"] (a tool is known by its exact name)',
        'session "s-1": user "dana", tenant "globex", roles ["supervisor", "support"], valid',
        'case "CASE-1": tenant "globex", assigned to ["ana"]',
        'destination "audit-queue": internal',
    )
    assert records.inputs["session"]["roles"] == ["supervisor", "support"] and records.inputs["case"]["assignees"] == ["ana"]


@pytest.mark.rule("G002.1")
def test_records_are_shown_as_the_call_finds_them_after_earlier_changes():
    steps = [{"op": "reassign_case", "case_id": "CASE-1", "assignees": []}, {"op": "revoke_session", "session": "s-1"}, export()]
    records = held(scenario(steps), step=2)
    assert 'case "CASE-1": tenant "globex", assigned to nobody' in records.details
    assert records.details[1].endswith("revoked by the host") and records.inputs["session"]["valid"] is False


@pytest.mark.rule("G001.9")
def test_a_case_or_destination_the_host_does_not_hold_is_said_so():
    records = held(scenario([export(case="CASE-9", destination="nowhere")]))
    assert 'case "CASE-9": not stored' in records.details and 'destination "nowhere": not configured' in records.details
    assert records.inputs["case"] is None and records.inputs["destination"] is None


@pytest.mark.rule("G001.5")
def test_arguments_that_name_no_record_show_the_session_alone():
    call = {"op": "call", "session": "s-2", "tool": "export_case", "arguments": {"case_id": 7, "extra": "x"}}
    assert held(scenario([call])).details[1:] == ('session "s-2": user "eve", tenant "acme", roles ["support"], valid',)


@pytest.mark.rule("G002.6")
def test_approvals_the_clock_and_the_rate_limit_are_shown_only_where_the_next_checks_read_them():
    shipped = held(scenario([export(destination="legal-hold")]))
    assert not any(line.startswith(("approval", "clock")) for line in shipped.details)
    nxt = held(scenario([export(destination="legal-hold")], rules="lab-001+next"))
    assert nxt.details[-2:] == (
        'approval "ap-1": export_case {"case_id":"CASE-1","destination_id":"legal-hold"} for user "dana", expires at 100',
        "clock 100; at most 2 call(s) a session in any 60 s; this session's earlier counted calls at [], 0 of them in the window (40, 100]",
    )
    assert nxt.inputs["clock"] == 100 and nxt.inputs["approvals"][0]["expires_at"] == 100


def test_the_check_column_is_as_wide_as_the_names_of_the_checks_shown():
    text = text_of(explained(read_scenario(scenario([export()]))))
    assert "    session's user is assigned to the case  FAILED -> not_assigned  [G001.11]" in text


@pytest.mark.rule("G002.4")
def test_the_rate_limit_is_shown_with_the_sessions_earlier_counted_calls_and_those_its_window_holds():
    steps = [export(), {"op": "advance_clock", "seconds": 59}, export(), {"op": "advance_clock", "seconds": 1}, export(), export(session="s-2")]
    document = scenario(steps, rules="lab-001+next")
    assert held(document, step=2).details[-1] == (
        "clock 159; at most 2 call(s) a session in any 60 s; this session's earlier counted calls at [100], 1 of them in the window (99, 159]")
    # One window on, the first call is out of it: the window is open at its start.
    records = held(document, step=4)
    assert records.details[-1] == (
        "clock 160; at most 2 call(s) a session in any 60 s; this session's earlier counted calls at [100, 159], 1 of them in the window (100, 160]")
    assert records.inputs["rate_limit"] == {"calls": 2, "window": 60, "earlier_calls": [100, 159], "in_window": [159]}
    assert held(document, step=5).details[-1].endswith("earlier counted calls at [], 0 of them in the window (100, 160]")  # another session's


def test_without_a_rate_limit_the_next_checks_show_the_clock_alone():
    document = scenario([export()], rules="lab-001+next")
    document["world"] = {key: value for key, value in WORLD.items() if key != "rate_limit"}
    assert held(document).details[-1] == "clock 100; no rate limit"


@pytest.mark.rule("G002.2", "G002.3")
def test_an_idempotency_key_is_shown_with_the_action_an_earlier_allowed_export_bound_it_to():
    first, second = (dict(export(session=session), idempotency_key="k-1") for session in ("s-1", "s-2"))
    document = scenario([first, second, export()], rules="lab-001+next")
    document["world"] = dict(WORLD, cases=[{"id": "CASE-1", "tenant": "globex", "assignees": ["dana"]}])
    assert held(document).details[-1] == 'idempotency key "k-1" (set by the host): not bound yet (an allowed export binds it)'
    records = held(document, step=1)
    assert records.details[-1] == ('idempotency key "k-1" (set by the host): bound by session "s-1" to export_case '
                                   '{"case_id":"CASE-1","destination_id":"audit-queue"}')
    assert records.inputs["idempotency_key"] == {"key": "k-1", "bound_to": ["s-1", "export_case", '{"case_id":"CASE-1","destination_id":"audit-queue"}']}
    assert not any("idempotency key" in line for line in held(document, step=2).details)  # a call without a key


@pytest.mark.rule("G001.18")
def test_a_call_an_argument_above_approval_holds_for_is_explained_under_lab_001():
    catalog = catalog_document(LAB_CATALOG)
    tool = catalog["tools"][0]
    tool["arguments"].append({"name": "amount", "type": "integer", "required": False})
    tool["approvals"].append({"when": "argument_above", "argument": "amount", "above": 500})
    call = export()
    call["arguments"]["amount"] = 501
    document = {**scenario([call]), "catalog": catalog, "world": {**WORLD, "cases": [{"id": "CASE-1", "tenant": "globex", "assignees": ["dana"]}]}}
    checks = next(a for a in explained(read_scenario(document)).steps[0].applied if a.id == "checks")
    assert checks.result[-1] == {"check": "no approval needed (lab-001 honours none)", "rule": "G001.18",
                                 "passed": False, "reason": "approval_required"}
