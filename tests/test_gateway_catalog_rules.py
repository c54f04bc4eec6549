"""The gateway rules over a declared catalog: a scenario names its catalog, and the model decides its calls by the tools it declares."""

import copy
import json
from pathlib import Path

import pytest

from gateproof.conformance.harness.documents import parse_json
from gateproof.model.gateway.catalog import SHIPPED_DIR, CatalogError, read_catalog
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.errors import ScenarioError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = SHIPPED_DIR
PAYMENTS = json.loads((EXAMPLES / "payments.json").read_text(encoding="utf-8"))
HR = json.loads((EXAMPLES / "hr-records.json").read_text(encoding="utf-8"))
TICKETING = json.loads((EXAMPLES / "ticketing.json").read_text(encoding="utf-8"))
LAB = json.loads((SHIPPED_DIR / "lab-001.json").read_text(encoding="utf-8"))

SESSIONS = [
    {"id": "billing", "user": "ana", "tenant": "m1", "roles": ["billing"]},
    {"id": "finance", "user": "fin", "tenant": "m1", "roles": ["finance"]},
    {"id": "other", "user": "ana", "tenant": "m2", "roles": ["billing"]},
]
ORDERS = [{"id": "o1", "merchant": "m1", "account_managers": ["ana"], "content": "order o1"}]


def payments(*calls, rules="lab-001+next", world=None) -> list[dict]:
    """The results of ``calls`` (session, tool, arguments) in a payments scenario."""
    steps = [{"op": "call", "session": s, "tool": t, "arguments": a} for s, t, a in calls]
    document = {"gateproof": 1, "kind": "gateway", "id": "payments", "rules": rules, "catalog": PAYMENTS,
                "world": {"sessions": SESSIONS, "orders": ORDERS, "clock": 10, **(world or {})}, "steps": steps}
    return run_scenario(read_scenario(document))["results"]


def decided(result: dict) -> tuple:
    return result["reason"], result["rule"]


@pytest.mark.rule("G001.5")
@pytest.mark.parametrize(("amount", "reason"), [
    (0.01, "allowed"), (500, "allowed"), (10000, "approval_required"), (0.009, "malformed_input"), (10000.5, "malformed_input"),
    (True, "malformed_input"), ("20", "malformed_input"), (None, "malformed_input"), ([20], "malformed_input"),
])
def test_invalid_a_number_argument_outside_its_bounds_or_not_a_number_is_malformed(amount, reason):
    (result,) = payments(("billing", "refund_order", {"order_id": "o1", "amount": amount}))
    assert result["reason"] == reason


@pytest.mark.rule("G001.4", "G001.5")
def test_valid_an_optional_argument_may_be_left_out_and_is_held_to_its_length_when_given():
    short, long_, absent = payments(
        ("billing", "refund_order", {"order_id": "o1", "amount": 5, "reason": "x" * 500}),
        ("billing", "refund_order", {"order_id": "o1", "amount": 5, "reason": "x" * 501}),
        ("billing", "refund_order", {"order_id": "o1"}),
    )
    assert [short["reason"], long_["reason"], absent["reason"]] == ["allowed", "malformed_input", "missing_argument"]


@pytest.mark.rule("G001.5")
@pytest.mark.parametrize(("year", "reason"), [(2024, "allowed"), (2024.0, "allowed"), (2024.5, "malformed_input"), (False, "malformed_input")])
def test_valid_an_integer_argument_is_a_number_without_a_fractional_part(year, reason):
    world = {"sessions": [{"id": "s", "user": "u", "tenant": "t", "roles": ["hr_admin"]}],
             "employees": [{"id": "e1", "company": "t", "hr_partners": ["u"]}]}
    step = {"op": "call", "session": "s", "tool": "read_payslip", "arguments": {"employee_id": "e1", "year": year, "month": 3}}
    document = {"gateproof": 1, "kind": "gateway", "id": "hr", "catalog": HR, "world": world, "steps": [step]}
    (result,) = run_scenario(read_scenario(document))["results"]
    assert result["reason"] == reason


@pytest.mark.rule("G001.7")
def test_invalid_a_tool_that_lists_roles_refuses_a_session_holding_none_of_them_retrieval_too():
    world = {"sessions": SESSIONS + [{"id": "nobody", "user": "ana", "tenant": "m1", "roles": ["sales"]}]}
    read, refund = payments(("nobody", "read_order", {"order_id": "o1"}), ("nobody", "refund_order", {"order_id": "o1", "amount": 1}), world=world)
    assert decided(read) == decided(refund) == ("role_denied", "G001.7")


@pytest.mark.rule("G001.12", "G001.11")
def test_valid_the_tenant_reader_role_reads_unassigned_but_cannot_write():
    read, refund = payments(("finance", "read_order", {"order_id": "o1"}), ("finance", "refund_order", {"order_id": "o1", "amount": 1}))
    assert decided(read) == ("allowed", None) and read["reads"] == [{"case_id": "o1"}]
    assert decided(refund) == ("role_denied", "G001.7")


@pytest.mark.rule("G001.10", "G001.9")
def test_invalid_a_record_of_another_tenant_is_told_as_not_found():
    (result,) = payments(("other", "refund_order", {"order_id": "o1", "amount": 1}))
    assert decided(result) == ("tenant_mismatch", "G001.10") and result["caller_reason"] == "case_not_found"


@pytest.mark.rule("G001.18")
def test_invalid_lab_001_refuses_an_action_that_needs_an_approval_whatever_is_stored():
    approval = {"id": "a", "tool": "refund_order", "arguments": {"order_id": "o1", "amount": 600}, "user": "ana", "expires_at": 99}
    at, above = payments(("billing", "refund_order", {"order_id": "o1", "amount": 500}),
                         ("billing", "refund_order", {"order_id": "o1", "amount": 600}), rules="lab-001", world={"approvals": [approval]})
    assert decided(at) == ("allowed", None)
    assert decided(above) == ("approval_required", "G001.18") and above["writes"] == []


@pytest.mark.rule("G002.5", "G002.6")
@pytest.mark.parametrize(("amount", "expires_at", "expected"), [
    (600, 11, ("allowed", None)), (600, 10, ("approval_expired", "G002.6")), (601, 11, ("approval_required", "G002.5")),
    (600.0, 11, ("allowed", None)),
])
def test_valid_lab_001_next_asks_an_exact_unexpired_approval_above_the_value(amount, expires_at, expected):
    approval = {"id": "a", "tool": "refund_order", "arguments": {"order_id": "o1", "amount": 600}, "user": "ana", "expires_at": expires_at}
    (result,) = payments(("billing", "refund_order", {"order_id": "o1", "amount": amount}), world={"approvals": [approval]})
    assert decided(result) == expected


@pytest.mark.rule("G001.14")
def test_valid_an_allowed_write_is_listed_with_its_arguments_and_a_catalog_without_writes_lists_none():
    (result,) = payments(("billing", "refund_order", {"order_id": "o1", "amount": 5}))
    assert result["writes"] == [{"tool": "refund_order", "case_id": "o1", "arguments": {"order_id": "o1", "amount": 5}}]
    assert result["exports"] == [] and result["audit"]["case_id"] == "o1" and result["audit"]["destination_id"] is None


@pytest.mark.rule("G002.2")
def test_valid_a_write_repeated_under_its_key_answers_as_the_first_and_writes_nothing():
    steps = [{"op": "call", "session": "billing", "tool": "refund_order", "arguments": {"order_id": "o1", "amount": 5}, "idempotency_key": "k"}] * 2
    document = {"gateproof": 1, "kind": "gateway", "id": "p", "rules": "lab-001+next", "catalog": PAYMENTS,
                "world": {"sessions": SESSIONS, "orders": ORDERS}, "steps": steps}
    first, second = run_scenario(read_scenario(document))["results"]
    assert len(first["writes"]) == 1 and second["replayed"] and second["writes"] == []


@pytest.mark.rule("G002.4")
def test_invalid_the_catalogs_rate_limit_holds_where_the_world_sets_none():
    calls = [("billing", "read_order", {"order_id": "o1"})] * 11
    results = payments(*calls)
    assert [r["reason"] for r in results] == ["allowed"] * 10 + ["rate_limited"]


@pytest.mark.rule("G001.15")
def test_valid_the_audit_names_the_first_stored_record_among_the_catalogs_record_arguments():
    world = {"sessions": [{"id": "s", "user": "u", "tenant": "t", "roles": ["agent"]}],
             "tickets": [{"id": "t1", "organization": "t", "agents": ["u"]}]}
    steps = [{"op": "call", "session": "s", "tool": "nope", "arguments": {"ticket_id": "t1", "queue": "q-internal"}}]
    document = {"gateproof": 1, "kind": "gateway", "id": "tk", "catalog": TICKETING, "world": {**world, "destinations": [{"id": "q-internal", "internal": True}]},
                "steps": steps}
    (result,) = run_scenario(read_scenario(document))["results"]
    assert result["audit"]["tool"] is None and result["audit"]["case_id"] == "t1" and result["audit"]["destination_id"] == "q-internal"


GATEWAY_CASES = [
    case for path in sorted((ROOT / "conformance" / "corpus").rglob("*.json")) if '"kind": "gateway"' in path.read_text(encoding="utf-8")
    for case in parse_json(path.read_bytes(), repeats=None, limit=None)["cases"] if case.get("scenario", {}).get("kind") == "gateway"
]


@pytest.mark.rule("G001.13")
def test_valid_every_gateway_corpus_case_decides_as_expected_with_the_lab_catalog_written_out():
    assert len(GATEWAY_CASES) > 200
    for case in GATEWAY_CASES:
        named = dict(case["scenario"], catalog=LAB)
        assert run_scenario(read_scenario(named))["results"] == case["expected"]["results"], case["id"]


@pytest.mark.rule("S003.7")
@pytest.mark.parametrize(("edit", "path", "problem"), [
    (lambda k: k.update(name="session"), "$.record_kinds[0].name", "the world key 'sessions' is taken"),
    (lambda k: k.update(collection="clock"), "$.record_kinds[0].collection", "the world key 'clock' is taken"),
    (lambda k: k.update(tenant="id"), "$.record_kinds[0].tenant", "'id' is a field of every record"),
    (lambda k: k.update(collection="cases"), "$.record_kinds[0].collection", "records stored as 'cases' keep"),
])
def test_invalid_a_kind_without_a_place_of_its_own_in_the_world_is_refused(edit, path, problem):
    document = copy.deepcopy(PAYMENTS)
    edit(document["record_kinds"][0])
    with pytest.raises(CatalogError) as raised:
        read_catalog(document)
    assert raised.value.path == path and raised.value.problem.startswith(problem)


@pytest.mark.rule("S003.7")
@pytest.mark.parametrize(("world", "path", "problem"), [
    ({"cases": []}, "$.world.cases", "unknown field: the catalog 'payments' stores no records as 'cases'"),
    ({"orders": [{"id": "o1", "tenant": "m1"}]}, "$.world.orders[0].tenant", "unknown field"),
    ({"orders": [{"id": "o1"}]}, "$.world.orders[0].merchant", "required"),
    ({"orders": [{"id": "o1", "merchant": "m1", "account_managers": "ana"}]}, "$.world.orders[0].account_managers", "not a list"),
    ({"orders": ORDERS * 2}, "$.world.orders[1].id", "duplicate id 'o1'"),
])
def test_invalid_records_outside_the_catalogs_kinds_or_fields_are_document_errors(world, path, problem):
    document = {"gateproof": 1, "kind": "gateway", "id": "p", "catalog": PAYMENTS, "world": {"sessions": SESSIONS, **world},
                "steps": [{"op": "advance_clock", "seconds": 1}]}
    with pytest.raises(ScenarioError) as raised:
        read_scenario(document)
    assert raised.value.path == path and raised.value.problem.startswith(problem)


def test_invalid_a_scenarios_catalog_is_refused_at_its_field_under_catalog():
    broken = copy.deepcopy(PAYMENTS)
    broken["tools"][0]["roles"] = []
    document = {"gateproof": 1, "kind": "gateway", "id": "p", "catalog": broken, "world": {"sessions": SESSIONS}, "steps": [{"op": "advance_clock", "seconds": 1}]}
    with pytest.raises(ScenarioError) as raised:
        read_scenario(document)
    assert (raised.value.path, raised.value.problem) == ("$.catalog.tools[0].roles", "fewer than 1 items")


def test_invalid_a_trust_ceiling_scenario_takes_no_catalog():
    document = json.loads((ROOT / "examples" / "observe-mode.json").read_text(encoding="utf-8"))
    with pytest.raises(ScenarioError) as raised:
        read_scenario(dict(document, catalog=PAYMENTS))
    assert raised.value.path == "$.catalog"


@pytest.mark.rule("G001.13")
@pytest.mark.parametrize("rules", ["lab-001", "lab-001+next"])
def test_valid_generated_lab_scenarios_decide_alike_with_the_lab_catalog_written_out(rules):
    from gateproof.conformance.generation import scenarios

    for document, _ in zip(scenarios("gateway", rules, 7), range(1_500)):
        named = dict(document, catalog=LAB)
        assert run_scenario(read_scenario(named))["results"] == run_scenario(read_scenario(document))["results"], document["id"]
