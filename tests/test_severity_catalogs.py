"""A disagreement under a declared catalog leans as under the lab's: a write the model refuses or does not make is security,
a write it makes left out a refusal, and the catalog's tools and records are named as the scenario declares them."""

from __future__ import annotations

import copy

import pytest
from catalog_scenarios import call, payments

from gateproof.conformance.harness.difference import differences
from gateproof.conformance.harness.severity import OTHER, REFUSAL, SECURITY, classify
from gateproof.model.scenario import read_scenario, run_scenario

REFUND = call("billing", "refund_order", order_id="o1", amount=20)
READ = call("billing", "read_order", order_id="o1")


def outcome(document: dict) -> dict:
    return run_scenario(read_scenario(document))


def texts(found: list, severity: str) -> list[str]:
    return [lean.text(severity) for lean in found]


@pytest.mark.rule("G001.18", "G001.14")
def test_a_refund_above_its_approval_threshold_allowed_and_written_is_security():
    document = payments(call("billing", "refund_order", order_id="o1", amount=600))
    expected = outcome(document)
    assert expected["results"][0]["reason"] == "approval_required"
    actual = copy.deepcopy(expected)
    result = actual["results"][0]
    result.update(decision="allow", reason="allowed", caller_reason="allowed", rule=None,
                  writes=[{"tool": "refund_order", "case_id": "o1", "arguments": {"order_id": "o1", "amount": 600}}])
    found, leans = classify(expected, actual, document)
    assert found == SECURITY
    assert texts(leans, SECURITY) == ["step 0: allows a call the model denies (approval_required) [G001.13, G001.18]",
                                      "step 0: makes a write the model does not [G001.14]"]


@pytest.mark.rule("G001.14")
def test_a_write_the_model_does_not_make_is_security_and_its_mirror_a_refusal():
    document = payments(READ)
    expected = outcome(document)
    assert expected["results"][0]["decision"] == "allow" and expected["results"][0]["writes"] == []
    spurious = copy.deepcopy(expected)
    spurious["results"][0]["writes"] = [{"tool": "refund_order", "case_id": "o1", "arguments": {"order_id": "o1", "amount": 20}}]
    found, leans = classify(expected, spurious, document)
    assert found == SECURITY and texts(leans, SECURITY) == ["step 0: makes a write the model does not [G001.14]"]
    held, back = classify(spurious, expected, document)
    assert held == REFUSAL and texts(back, REFUSAL) == ["step 0: leaves out a write the model makes [G001.14]"]
    assert [leaf.rules for leaf in differences(expected, spurious)] == [("G001.14",)]


@pytest.mark.rule("G001.14")
def test_a_refund_the_model_writes_left_out_is_a_refusal():
    document = payments(REFUND)
    expected = outcome(document)
    unwritten = copy.deepcopy(expected)
    unwritten["results"][0]["writes"] = []
    found, leans = classify(expected, unwritten, document)
    assert found == REFUSAL and texts(leans, REFUSAL) == ["step 0: leaves out a write the model makes [G001.14]"]


@pytest.mark.rule("G001.15")
def test_a_tool_of_the_scenarios_catalog_in_the_audit_is_a_name_not_proposal_text():
    document = payments(REFUND, READ)
    expected = outcome(document)
    misnamed = copy.deepcopy(expected)
    misnamed["results"][1]["audit"]["tool"] = "refund_order"  # a wrong tool recorded: a difference, nothing let out
    assert classify(expected, misnamed, document) == (OTHER, [])


@pytest.mark.rule("G001.15")
def test_order_content_in_the_audit_is_security_said_in_the_catalogs_record_kind():
    document = payments(REFUND)
    expected = outcome(document)
    logged = copy.deepcopy(expected)
    logged["results"][0]["audit"]["detail"] = "order o1: two lamps"
    found, leans = classify(expected, logged, document)
    assert found == SECURITY
    assert texts(leans, SECURITY) == ["step 0: writes order content or proposal text into the audit (content 'order o1: two lamps') [G001.15]"]
