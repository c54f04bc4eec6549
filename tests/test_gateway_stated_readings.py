"""What the gateway rule texts now say outright, each held against the model by the rule id that states it."""

from __future__ import annotations

import copy

import pytest
from gateway_helpers import ATTACK, EXPORT, LAB_WORLD, call, outcome, results

NEXT = "lab-001+next"
APPROVAL = {"id": "ap-1", "tool": "export_case", "arguments": ATTACK, "user": "ana", "expires_at": 100}


@pytest.mark.rule("G001.5")
def test_an_argument_value_is_measured_in_code_points():
    astral = "\U0001F600"  # one code point, two UTF-16 units, four UTF-8 bytes
    at_limit, over = (results(call("read_case", {"case_id": astral * n}))[0] for n in (128, 129))
    # 128 code points is a well-formed identifier naming no case; 129 is malformed, though 128 of them are 512 bytes.
    assert at_limit["reason"] == "case_not_found" and over["reason"] == "malformed_input"


@pytest.mark.rule("G001.15")
def test_the_audit_names_a_stored_case_and_a_configured_destination_on_every_call_shape_refusals_included():
    read, = results(call("read_case", {"case_id": "CASE-1", "destination_id": "review-queue"}))
    assert read["reason"] == "extra_arguments"
    assert (read["audit"]["case_id"], read["audit"]["destination_id"]) == ("CASE-1", "review-queue")
    unknown, = results(call("delete_case", {"case_id": "CASE-1", "destination_id": "nowhere"}))
    assert unknown["reason"] == "unknown_tool"
    assert (unknown["audit"]["tool"], unknown["audit"]["case_id"], unknown["audit"]["destination_id"]) == (None, "CASE-1", None)
    configured, = results(call("delete_case", {"case_id": "CASE-404", "destination_id": "partner-drop"}))
    assert (configured["audit"]["case_id"], configured["audit"]["destination_id"]) == (None, "partner-drop")


@pytest.mark.rule("G002.1", "G002.6")
def test_the_write_rechecks_an_approval_at_the_clock_the_before_write_changes_leave():
    step = call("export_case", ATTACK, before_write=[{"op": "advance_clock", "seconds": 60}])
    result, = results(step, rules=NEXT, approvals=[APPROVAL], clock=50)
    # At the check the clock is 50 and the approval runs to 100; at the write it is 110.
    assert (result["decision"], result["reason"], result["stage"]) == ("deny", "approval_expired", "write")


@pytest.mark.rule("G002.1")
def test_the_write_recheck_reports_the_first_failing_condition_in_precedence_order():
    changes = [{"op": "reassign_case", "case_id": "CASE-1", "assignees": []}, {"op": "revoke_session", "session": "ana"}]
    result, = results(call("export_case", EXPORT, before_write=changes), rules=NEXT)
    assert (result["reason"], result["stage"]) == ("session_invalid", "write")


@pytest.mark.rule("G002.1")
def test_a_read_is_never_rechecked_at_a_write():
    result, = results(call("read_case", {"case_id": "CASE-1"}, before_write=[{"op": "revoke_session", "session": "ana"}]), rules=NEXT)
    assert (result["decision"], result["stage"]) == ("allow", "check")


@pytest.mark.rule("G002.3")
def test_another_session_of_the_same_user_is_another_action_for_a_key():
    sessions = [*LAB_WORLD["sessions"], {"id": "ana-2", "user": "ana", "tenant": "acme", "roles": ["support"]}]
    first, second = results(call("export_case", EXPORT, idempotency_key="k"), call("export_case", EXPORT, session="ana-2", idempotency_key="k"),
                            rules=NEXT, sessions=sessions)
    assert first["decision"] == "allow" and second["reason"] == "idempotency_conflict"


def malformed_cases() -> list[dict]:
    from gateproof.conformance.corpus.attacks import FAMILIES

    return FAMILIES["malformed"][1]


def stripped(world: dict, change: str) -> dict:
    """The lab's world with the session revoked, or with no case, or with no destination stored."""
    world = copy.deepcopy(world)
    if change == "revoked":
        world["sessions"] = [dict(s, valid=False) for s in world["sessions"]]
    else:
        world[change] = []
    return world


@pytest.mark.rule("G001.13", "G001.15")
@pytest.mark.parametrize("rules", ["lab-001", NEXT])
@pytest.mark.parametrize("entry", malformed_cases(), ids=lambda entry: entry["id"])
def test_a_shape_refusal_is_decided_on_the_proposal_alone_whatever_storage_and_the_session_hold(entry, rules):
    verdict_keys = ("decision", "reason", "caller_reason", "rule", "stage")
    verdicts = []
    for change in (None, "revoked", "cases", "destinations"):
        document = dict(entry["scenario"], rules=rules, world=stripped(entry["scenario"]["world"], change) if change else entry["scenario"]["world"])
        result, = outcome(document)["results"]
        verdicts.append(tuple(result[key] for key in verdict_keys))
    assert len(set(verdicts)) == 1 and verdicts[0][0] == "deny" and verdicts[0][4] == "check"


@pytest.mark.rule("G001.15", "G001.10", "G002.2")
def test_the_audit_record_holds_each_value_under_the_key_the_text_names():
    first, replay = results(call("export_case", EXPORT, idempotency_key="k"), call("export_case", EXPORT, idempotency_key="k"), rules=NEXT)
    expected = {"decision": "allow", "reason": "allowed", "tool": "export_case", "user": "ana", "tenant": "acme", "case_id": "CASE-1",
                "destination_id": "review-queue", "stage": "check", "replayed": False}
    assert first["audit"] == expected and replay["audit"] == {**expected, "replayed": True}
    # eve of globex asks for acme's case: the caller is told case_not_found, the record keeps the true reason.
    across, = results(call("read_case", {"case_id": "CASE-1"}, session="eve"))
    assert across["caller_reason"] == "case_not_found" and across["audit"]["reason"] == "tenant_mismatch" and across["audit"]["tenant"] == "globex"


@pytest.mark.rule("S001.10", "G001.14")
def test_an_export_and_a_read_record_what_the_text_says_and_a_replay_records_none():
    export, replay, read = results(call("export_case", EXPORT, idempotency_key="k"), call("export_case", EXPORT, idempotency_key="k"),
                                   call("read_case", {"case_id": "CASE-1"}), rules=NEXT)
    case = LAB_WORLD["cases"][0]
    assert export["exports"] == [{"case_id": "CASE-1", "destination_id": "review-queue", "tenant": case["tenant"], "payload": case["content"]}]
    assert (replay["exports"], replay["reads"], read["exports"], read["reads"]) == ([], [], [], [{"case_id": "CASE-1"}])
    assert (export["rule"], read["rule"]) == (None, None)
    refused, = results(call("export_case", EXPORT, session="bo"))
    assert (refused["reason"], refused["rule"]) == ("not_assigned", "G001.11")


@pytest.mark.rule("G001.7", "G001.12")
def test_a_role_is_the_lower_case_string_exactly_as_written():
    world = copy.deepcopy(LAB_WORLD)
    world["sessions"] += [{"id": "Dee", "user": "dee", "tenant": "acme", "roles": ["Supervisor"]},
                          {"id": "Ana", "user": "ana", "tenant": "acme", "roles": ["Support"]}]
    unassigned = next(c["id"] for c in world["cases"] if c["tenant"] == "acme" and "dee" not in c["assignees"])
    read, spelled, export, capital = results(call("read_case", {"case_id": unassigned}, session="dee"),
                                             call("read_case", {"case_id": unassigned}, session="Dee"),
                                             call("export_case", EXPORT, session="ana"), call("export_case", EXPORT, session="Ana"), world=world)
    assert read["decision"] == "allow" and (spelled["reason"], spelled["rule"]) == ("not_assigned", "G001.12")
    assert export["decision"] == "allow" and (capital["reason"], capital["rule"]) == ("role_denied", "G001.7")


@pytest.mark.rule("G001.14")
def test_under_lab_001_before_write_changes_land_after_the_check_and_nothing_is_checked_again():
    changes = [{"op": "edit_case", "case_id": "CASE-1", "content": "Revised."}, {"op": "revoke_session", "session": "ana"}]
    result, = results(call("export_case", EXPORT, before_write=changes))
    assert (result["decision"], result["stage"], result["exports"][0]["payload"]) == ("allow", "check", "Revised.")
    refused, = results(call("export_case", EXPORT, before_write=changes), rules=NEXT)
    assert (refused["decision"], refused["stage"], refused["rule"]) == ("deny", "write", "G001.6")
