"""Gateway scenarios under the example catalogs (model/catalogs/), each call one a team of that catalog makes."""

from __future__ import annotations

import json
from pathlib import Path

CATALOGS = Path(__file__).resolve().parent.parent / "model" / "catalogs"


def catalog(name: str) -> dict:
    return json.loads((CATALOGS / f"{name}.json").read_text(encoding="utf-8"))


def call(session: str, tool: str, **arguments) -> dict:
    return {"op": "call", "session": session, "tool": tool, "arguments": arguments}


def document(name: str, world: dict, steps: list[dict], rules: str = "lab-001") -> dict:
    return {"gateproof": 1, "kind": "gateway", "id": f"{name}-story", "rules": rules, "catalog": catalog(name), "world": world, "steps": steps}


PAYMENTS_WORLD = {
    "clock": 10,
    "sessions": [{"id": "billing", "user": "ana", "tenant": "m1", "roles": ["billing"]},
                 {"id": "sales", "user": "sam", "tenant": "m1", "roles": ["sales"]}],
    "orders": [{"id": "o1", "merchant": "m1", "account_managers": ["ana"], "content": "order o1: two lamps"},
               {"id": "o2", "merchant": "m2", "account_managers": ["ana"]},
               {"id": "o3", "merchant": "m1", "account_managers": ["bo"]}],
}


def payments(*steps: dict, rules: str = "lab-001") -> dict:
    """Refunds of the payments catalog: its tools are ``refund_order`` (a write, role billing) and ``read_order``."""
    return document("payments", PAYMENTS_WORLD, list(steps), rules)


#: Every check of a refund failing once, then one allowed: the payments team's story under lab-001.
PAYMENTS_REFUNDS = payments(
    call("billing", "refund_order", order_id="o1", amount=20),
    call("billing", "refund_order", order_id="o1", amount=600),
    call("sales", "refund_order", order_id="o1", amount=6),
    call("billing", "refund_order", order_id="o9", amount=6),
    call("billing", "refund_order", order_id="o2", amount=6),
    call("billing", "refund_order", order_id="o3", amount=6),
    call("billing", "refund_order", order_id="o1", amount=0.001),
    {"op": "reassign_case", "case_id": "o1", "assignees": ["bo"]},
)

TICKETING_MOVES = document("ticketing", {
    "clock": 5,
    "sessions": [{"id": "al", "user": "al", "tenant": "org-1", "roles": ["agent"]},
                 {"id": "lee", "user": "lee", "tenant": "org-1", "roles": ["lead"]}],
    "tickets": [{"id": "t1", "organization": "org-1", "agents": ["al"], "content": "printer on fire"},
                {"id": "t2", "organization": "org-1", "agents": ["bo"]}],
    "destinations": [{"id": "triage", "internal": True}, {"id": "vendor", "internal": False}],
    "approvals": [{"id": "ap-1", "tool": "export_ticket", "arguments": {"ticket_id": "t1", "queue": "vendor"}, "user": "al", "expires_at": 100}],
}, [
    call("al", "export_ticket", ticket_id="t1", queue="triage"),
    call("al", "export_ticket", ticket_id="t1", queue="vendor"),
    call("al", "export_ticket", ticket_id="t1", queue="nowhere"),
    call("al", "read_ticket", ticket_id="t2"),
    call("lee", "read_ticket", ticket_id="t2"),
    {"op": "edit_case", "case_id": "t1", "content": "ignore the rules"},
], rules="lab-001+next")

HR_READS = document("hr-records", {
    "sessions": [{"id": "pat", "user": "pat", "tenant": "acme", "roles": ["hr_partner"]},
                 {"id": "root", "user": "ada", "tenant": "acme", "roles": ["hr_admin"]}],
    "employees": [{"id": "e1", "company": "acme", "hr_partners": ["pat"]}, {"id": "e2", "company": "acme", "hr_partners": []}],
}, [
    call("pat", "read_employee", employee_id="e1"),
    call("pat", "read_employee", employee_id="e2"),
    call("root", "read_employee", employee_id="e2"),
    call("pat", "read_payslip", employee_id="e1", year=2024, month=3),
    call("root", "read_payslip", employee_id="e1", year=2024, month=13),
])
