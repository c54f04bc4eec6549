"""G001.1–G001.5 and G001.17: the proposal's shape is judged before any record is read."""

import pytest
from gateway_helpers import EXPORT, call, decide_one, results

from gateproof.model.gateway.arguments import check_shape, compute_canonical_arguments
from gateproof.model.gateway.lab import ARGUMENT_MAX_LENGTH
from gateproof.model.scenario.document import RepeatedKeys


@pytest.mark.rule("G001.1")
@pytest.mark.parametrize("tool", ["delete_case", "EXPORT_CASE", "export_case ", "", None, 7, ["export_case"], {"name": "export_case"}])
def test_invalid_unknown_tool(tool):
    result = decide_one(tool, EXPORT)
    assert (result["decision"], result["reason"], result["rule"]) == ("deny", "unknown_tool", "G001.1")
    assert result["exports"] == [] and result["audit"]["tool"] is None


@pytest.mark.rule("G001.2")
@pytest.mark.parametrize("arguments", [None, [], ["CASE-1", "review-queue"], "CASE-1", 42, 1.5, True])
def test_invalid_non_object_arguments(arguments):
    result = decide_one("export_case", arguments)
    assert (result["reason"], result["rule"]) == ("malformed_input", "G001.2")


@pytest.mark.rule("G001.17")
@pytest.mark.parametrize("arguments", [
    RepeatedKeys([("case_id", "CASE-1"), ("destination_id", "partner-drop"), ("destination_id", "review-queue")]),
    RepeatedKeys([("case_id", "CASE-1"), ("destination_id", "review-queue"), ("destination_id", "review-queue")]),
    {"case_id": "CASE-1", "destination_id": "review-queue", "approved_by": RepeatedKeys([("who", "a"), ("who", "b")])},
    {"case_id": [RepeatedKeys([("x", 1), ("x", 2)])], "destination_id": "review-queue"},
], ids=["external first", "the same value twice", "nested in an extra field", "nested in a list"])
def test_invalid_a_key_written_twice_anywhere_in_the_arguments(arguments):
    result = decide_one("export_case", arguments)
    assert (result["decision"], result["reason"], result["rule"]) == ("deny", "malformed_input", "G001.17")
    assert result["exports"] == [] and result["audit"]["destination_id"] is None and result["audit"]["case_id"] is None


@pytest.mark.rule("G001.17")
def test_a_key_written_twice_is_judged_before_extra_and_missing_fields():
    arguments = RepeatedKeys([("case_id", "CASE-1"), ("case_id", "CASE-1"), ("approved_by", "admin")])
    assert [c.rule for c in check_shape("export_case", arguments)] == ["G001.1", "G001.2", "G001.17"]
    assert [c.rule for c in check_shape("export_case", RepeatedKeys([("a", 1)]))][-1] == "G001.3"  # written once: read


@pytest.mark.rule("G001.3")
@pytest.mark.parametrize("field", ["approved_by", "role", "tenant", "on_behalf_of", "user", "payload", "idempotency_key"])
def test_invalid_forged_authority_is_an_extra_argument(field):
    result = decide_one("export_case", {**EXPORT, field: "admin"})
    assert (result["decision"], result["reason"]) == ("deny", "extra_arguments")
    assert result["exports"] == []


@pytest.mark.rule("G001.3", "G001.13")
def test_extra_arguments_are_reported_before_missing_ones():
    result = decide_one("export_case", {"case_id": "CASE-1", "approved_by": "admin"})
    assert result["reason"] == "extra_arguments"


@pytest.mark.rule("G001.4")
@pytest.mark.parametrize("arguments", [{}, {"case_id": "CASE-1"}, {"destination_id": "review-queue"}])
def test_invalid_missing_argument(arguments):
    assert decide_one("export_case", arguments)["reason"] == "missing_argument"


@pytest.mark.rule("G001.5")
@pytest.mark.parametrize("value", ["", "x" * (ARGUMENT_MAX_LENGTH + 1), 1, 1.0, None, True, ["CASE-1"], {"id": "CASE-1"}])
def test_invalid_argument_value(value):
    assert decide_one("read_case", {"case_id": value})["reason"] == "malformed_input"
    assert decide_one("export_case", {**EXPORT, "destination_id": value})["reason"] == "malformed_input"


@pytest.mark.rule("G001.5")
def test_the_longest_identifier_is_accepted_in_shape():
    assert decide_one("read_case", {"case_id": "x" * ARGUMENT_MAX_LENGTH})["reason"] == "case_not_found"


@pytest.mark.rule("G001.13")
def test_shape_is_judged_before_the_session_and_any_record():
    # A revoked session, a foreign case and an external destination: the shape still decides first.
    steps = [{"op": "revoke_session", "session": "eve"}, call("export_case", {"case_id": "CASE-1", "destination_id": 3}, session="eve")]
    assert results(*steps)[1]["reason"] == "malformed_input"
    assert [c.rule for c in check_shape("export_case", {"case_id": "CASE-1"})] == ["G001.1", "G001.2", "G001.17", "G001.3", "G001.4"]


@pytest.mark.rule("G002.7")
def test_canonical_arguments_ignore_order_and_keep_every_value():
    assert compute_canonical_arguments({"b": "2", "a": "é"}) == compute_canonical_arguments({"a": "é", "b": "2"}) == '{"a":"é","b":"2"}'
    assert compute_canonical_arguments({"a": "1"}) != compute_canonical_arguments({"a": "1 "})


@pytest.mark.rule("G001.13")
@pytest.mark.parametrize("tool,arguments", [("delete_case", EXPORT), ("export_case", None), ("export_case", {**EXPORT, "role": "admin"}), ("export_case", {}), ("read_case", {"case_id": ""})])
def test_malformed_proposals_are_refused_before_the_session_or_any_record_is_consulted(monkeypatch, tool, arguments):
    from gateproof.model.gateway import gate

    def consulted(*_):
        raise AssertionError("a malformed proposal reached the authorization checks")

    monkeypatch.setattr(gate, "check_session", consulted)
    monkeypatch.setattr(gate, "check_authorization", consulted)
    assert decide_one(tool, arguments)["decision"] == "deny"
