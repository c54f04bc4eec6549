"""G002.*: the checks past the lab, each shown against lab-001, where the gap is still open."""

import pytest
from gateway_helpers import ATTACK, EXPORT, call, results

NEXT = "lab-001+next"
APPROVAL = {"id": "ap-1", "tool": "export_case", "arguments": ATTACK, "user": "ana", "expires_at": 100}


@pytest.mark.rule("G002.1")
@pytest.mark.parametrize(
    "change,reason",
    [
        ({"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}, "not_assigned"),
        ({"op": "revoke_session", "session": "ana"}, "session_invalid"),
        ({"op": "remove_destination", "destination_id": "review-queue"}, "destination_denied"),
    ],
)
def test_state_changed_before_the_write_is_rechecked(change, reason):
    step = call("export_case", EXPORT, before_write=[change])
    lab, = results(step)
    assert (lab["decision"], len(lab["exports"])) == ("allow", 1)  # the lab checks once: the stale export happens
    rechecked, = results(step, rules=NEXT)
    assert (rechecked["decision"], rechecked["reason"], rechecked["stage"], rechecked["exports"]) == ("deny", reason, "write", [])
    assert rechecked["audit"]["stage"] == "write"


@pytest.mark.rule("G002.1")
def test_a_change_that_keeps_every_condition_lets_the_write_happen():
    step = call("export_case", EXPORT, before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["ana", "bo"]}])
    result, = results(step, rules=NEXT)
    assert (result["decision"], result["stage"], len(result["exports"])) == ("allow", "check", 1)


@pytest.mark.rule("G002.2")
def test_repeated_export_with_the_same_key_records_one_export():
    step = call("export_case", EXPORT, idempotency_key="k-1")
    first, second = results(step, step, rules=NEXT)
    assert (first["decision"], first["replayed"], len(first["exports"])) == ("allow", False, 1)
    assert (second["decision"], second["reason"], second["replayed"], second["exports"]) == ("allow", "allowed", True, [])
    lab = results(step, step)
    assert [len(r["exports"]) for r in lab] == [1, 1]  # the lab ignores the key


@pytest.mark.rule("G002.2")
def test_arguments_in_another_order_are_the_same_action():
    reordered = {"destination_id": "review-queue", "case_id": "CASE-1"}
    second = results(call("export_case", EXPORT, idempotency_key="k"), call("export_case", reordered, idempotency_key="k"), rules=NEXT)[1]
    assert second["replayed"] and second["exports"] == []


@pytest.mark.rule("G002.2")
def test_a_refused_call_binds_no_key():
    steps = [
        call("export_case", EXPORT, idempotency_key="k", before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": []}]),
        {"op": "reassign_case", "case_id": "CASE-1", "assignees": ["ana"]},
        call("export_case", EXPORT, idempotency_key="k"),
    ]
    first, _, retry = results(*steps, rules=NEXT)
    assert first["decision"] == "deny" and (retry["decision"], retry["replayed"], len(retry["exports"])) == ("allow", False, 1)


@pytest.mark.rule("G002.3")
@pytest.mark.parametrize(
    "second",
    [
        call("export_case", {"case_id": "CASE-1", "destination_id": "partner-drop"}, idempotency_key="k"),
        call("export_case", EXPORT, session="bo", idempotency_key="k"),
    ],
)
def test_a_key_reused_for_another_action_conflicts(second):
    result = results(call("export_case", EXPORT, idempotency_key="k"), second, rules=NEXT)[1]
    assert (result["decision"], result["reason"], result["exports"]) == ("deny", "idempotency_conflict", [])


@pytest.mark.rule("G002.2", "G002.3")
def test_only_an_export_reads_or_binds_a_key():
    export = call("export_case", EXPORT, idempotency_key="k")
    read = call("read_case", {"case_id": "CASE-1"}, idempotency_key="k")
    first, reread, again = results(export, read, export, rules=NEXT)
    assert (reread["decision"], reread["reason"], reread["replayed"], reread["reads"]) == ("allow", "allowed", False, [{"case_id": "CASE-1"}])
    assert (again["replayed"], again["exports"]) == (True, [])  # the key still stands for the first export
    opened, exported = results(read, export, rules=NEXT)
    assert (opened["replayed"], exported["replayed"], len(exported["exports"])) == (False, False, 1)  # a read binds nothing


@pytest.mark.rule("G002.4")
def test_rate_limit_per_session_over_a_window():
    limit = {"calls": 2, "window": 60}
    read = call("read_case", {"case_id": "CASE-1"})
    steps = [read, read, read, call("read_case", {"case_id": "CASE-1"}, session="dee"), {"op": "advance_clock", "seconds": 60}, read]
    outcome = results(*steps, rules=NEXT, rate_limit=limit)
    assert [r.get("reason") for r in outcome] == ["allowed", "allowed", "rate_limited", "allowed", None, "allowed"]
    assert [r["reason"] for r in results(read, read, read, rate_limit=limit)] == ["allowed"] * 3  # lab-001 has no limit


@pytest.mark.rule("G002.4")
def test_refusals_by_the_limit_do_not_count_but_other_calls_do():
    limit = {"calls": 1, "window": 10}
    bad = call("read_case", {"case_id": 1})
    read = call("read_case", {"case_id": "CASE-1"})
    outcome = results(bad, read, {"op": "advance_clock", "seconds": 10}, read, rules=NEXT, rate_limit=limit)
    assert [r.get("reason") for r in outcome] == ["malformed_input", "rate_limited", None, "allowed"]


@pytest.mark.rule("G002.5")
def test_external_export_only_with_an_approval_of_the_exact_action():
    allowed, = results(call("export_case", ATTACK), rules=NEXT, approvals=[APPROVAL])
    assert (allowed["decision"], len(allowed["exports"])) == ("allow", 1)
    refused, = results(call("export_case", ATTACK), rules=NEXT)
    assert refused["reason"] == "approval_required"
    lab, = results(call("export_case", ATTACK), approvals=[APPROVAL])
    assert lab["reason"] == "destination_denied"  # lab-001 never exports externally


@pytest.mark.rule("G002.5")
@pytest.mark.parametrize(
    "drift",
    [
        {"tool": "read_case"},
        {"user": "bo"},
        {"arguments": {"case_id": "CASE-1", "destination_id": "partner-drop", "note": "x"}},
        {"arguments": {"case_id": "CASE-1 ", "destination_id": "partner-drop"}},
        {"arguments": {"case_id": "CASE-1"}},
    ],
)
def test_any_drift_in_the_approval_denies(drift):
    result, = results(call("export_case", ATTACK), rules=NEXT, approvals=[{**APPROVAL, **drift}])
    assert (result["decision"], result["reason"]) == ("deny", "approval_required")


@pytest.mark.rule("G002.5")
def test_an_approval_never_overrides_the_other_conditions():
    result, = results(call("export_case", ATTACK, session="bo"), rules=NEXT, approvals=[{**APPROVAL, "user": "bo"}])
    assert result["reason"] == "not_assigned"


@pytest.mark.rule("G002.6")
def test_an_expired_approval_denies():
    steps = [call("export_case", ATTACK), {"op": "advance_clock", "seconds": 99}, call("export_case", ATTACK), {"op": "advance_clock", "seconds": 1}, call("export_case", ATTACK)]
    outcome = results(*steps, rules=NEXT, approvals=[APPROVAL])
    assert [r.get("reason") for r in outcome] == ["allowed", None, "allowed", None, "approval_expired"]
