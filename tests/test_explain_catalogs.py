"""``gateproof explain`` under a declared catalog speaks the team's names: its tools, roles, record kind and fields,
destination argument and approval conditions, and never the lab's where the catalog has others."""

from __future__ import annotations

import json
import re

import pytest
from catalog_scenarios import HR_READS, PAYMENTS_REFUNDS, TICKETING_MOVES, call, payments
from click.testing import CliRunner

from gateproof.conformance.cli.main import main
from gateproof.conformance.explanation.explain import explain_under
from gateproof.conformance.explanation.trace import text_of
from gateproof.model.scenario import read_scenario, run_scenario

#: The lab's names, which none of these catalogs uses: the word "case" alone, its argument, its roles.
LAB_WORDS = re.compile(r"\bcase\b|case_id|destination_id|support|supervisor")


def text(document: dict, rules: str | None = None) -> str:
    return text_of(explain_under(document, rules))


def lines(document: dict, rules: str | None = None) -> str:
    """The text with every run of spaces and line breaks one space, so a phrase wrapped or aligned is found whole."""
    return flat(text(document, rules))


def flat(words: str) -> str:
    return " ".join(words.split())


@pytest.mark.rule("G001.7", "G001.9", "G001.10", "G001.11", "G001.18")
def test_a_refund_is_explained_in_the_payments_teams_names():
    said = lines(PAYMENTS_REFUNDS)
    for phrase in (
        'the gateway\'s tools: ["read_order", "refund_order"]',
        'order "o1": merchant "m1", account_managers ["ana"]',
        "session holds a role of refund_order: billing  passed",
        'write: refund_order on order "o1" with {"amount":20,"order_id":"o1"}',
        "FAILED -> approval_required (amount 600 is above 500: needs an approval of this exact refund_order)  [G001.18]",
        'FAILED -> role_denied (the session\'s roles ["sales"] hold none of billing)  [G001.7]',
        'FAILED -> case_not_found (no order "o9" stored)  [G001.9]',
        'FAILED -> tenant_mismatch (the order\'s merchant is "m2", the session\'s is "m1")  [G001.10]',
        'FAILED -> not_assigned ("ana" is not among the order\'s account_managers)  [G001.11]',
        "FAILED -> malformed_input (amount 0.001 does not fit number 0.01..10000)  [G001.5]",
        'order_id: "o1"',
        'step 7: order "o1" reassigned to ["bo"]',
    ):
        assert flat(phrase) in said, phrase
    assert not LAB_WORDS.search(said), LAB_WORDS.search(said)


@pytest.mark.rule("G002.5", "G002.6")
def test_an_approval_of_a_refund_is_asked_for_by_the_amount_under_the_next_checks():
    said = lines(payments(call("billing", "refund_order", order_id="o1", amount=600), rules="lab-001+next"))
    assert 'amount 600 above 500: an approval names this exact action FAILED -> approval_required (no approval of this exact refund_order for "ana")' \
        in said


@pytest.mark.rule("G001.8", "G001.12", "G002.5")
def test_a_ticket_moved_to_a_queue_is_explained_in_the_help_desks_names():
    said = lines(TICKETING_MOVES)
    for phrase in (
        'ticket "t1": organization "org-1", agents ["al"]',
        "external destination: an approval names this exact action  passed  [G002.5]",
        'export: ticket "t1" to "vendor"',
        'FAILED -> destination_denied (queue "nowhere" names no configured destination)  [G001.8]',
        "session may read the ticket (assigned, or lead)",
        'FAILED -> not_assigned ("al" is not among the ticket\'s agents, nor does the session hold lead)  [G001.12]',
        'read: ticket "t2" served',
        'queue: "vendor"',
        'step 5: ticket "t1" now holds other content',
    ):
        assert flat(phrase) in said, phrase
    assert not LAB_WORDS.search(said), LAB_WORDS.search(said)


@pytest.mark.rule("G001.5", "G001.7", "G001.12")
def test_an_employee_read_is_explained_in_the_hr_teams_names():
    said = lines(HR_READS)
    for phrase in (
        'employee "e2": company "acme", hr_partners []',
        "session may read the employee (assigned, or hr_admin)",
        'FAILED -> role_denied (the session\'s roles ["hr_partner"] hold none of hr_admin)  [G001.7]',
        "FAILED -> malformed_input (month 13 does not fit integer 1..12)  [G001.5]",
        'read: employee "e2" served',
    ):
        assert flat(phrase) in said, phrase
    assert not LAB_WORDS.search(said), LAB_WORDS.search(said)


@pytest.mark.rule("S001.10", "G001.14")
@pytest.mark.parametrize("document", [PAYMENTS_REFUNDS, TICKETING_MOVES, HR_READS], ids=lambda d: d["id"])
def test_each_explained_step_carries_the_result_the_outcome_has_writes_included(document):
    steps = explain_under(document).steps
    assert [step.result for step in steps] == run_scenario(read_scenario(document))["results"]


@pytest.mark.rule("G002.4")
def test_the_rate_limit_a_catalog_declares_is_the_one_shown():
    said = text(TICKETING_MOVES)
    assert "at most 30 call(s) a session in any 60 s" in said and "no rate limit" not in said


def test_explain_and_decide_run_on_a_payments_scenario_file_from_the_command_line(tmp_path):
    path = tmp_path / "refunds.json"
    path.write_text(json.dumps(PAYMENTS_REFUNDS), encoding="utf-8")
    explained = CliRunner().invoke(main, ["explain", str(path)])
    assert explained.exit_code == 0, explained.output
    assert "session holds a role of refund_order: billing" in explained.output
    decided = CliRunner().invoke(main, ["decide", str(path)])
    assert decided.exit_code == 0, decided.output
    assert json.loads(decided.output) == run_scenario(read_scenario(PAYMENTS_REFUNDS))
