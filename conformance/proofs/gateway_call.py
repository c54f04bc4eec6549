"""One proposed tool call as the proofs see it: the facts the gateway reads, and the reason it gives.

A :class:`GatewayCall` abstracts a call to what decides it: which tool, the
proposal's fields (each a key and whether its value is an identifier
string), and the facts the host's session and stored records hold about the
session, the case and the destination. ``bound`` is the number of fields a
proposal may carry. :func:`lab_reason` is the lab-001 precedence of
``gateproof.model.gateway`` restated over those facts; it is tied to
``decide_call`` by the differential test in ``tests/test_proofs_gateway.py``,
because the model's checks read records and strings that have no z3 form here.
"""

from __future__ import annotations

import z3
from attrs import frozen

from gateproof.model.gateway.arguments import TOOLS

#: The tools by index; an index past the catalogue is a name the gateway does not know.
TOOL_NAMES = tuple(TOOLS)
EXPORT, READ = TOOL_NAMES.index("export_case"), TOOL_NAMES.index("read_case")
UNKNOWN_TOOL = len(TOOL_NAMES)
#: Field keys by index: the declared arguments, then forged authority, then any other undeclared key.
DECLARED_KEYS = ("case_id", "destination_id")
CASE_KEY, DESTINATION_KEY = 0, 1
FORGED_KEY = len(DECLARED_KEYS)
FORGED_FIELD = "approved_by"
#: Every reason a gateway may give, by index; 0 is the allowed call.
REASONS = (
    "allowed", "unknown_tool", "malformed_input", "extra_arguments", "missing_argument", "session_invalid",
    "role_denied", "destination_denied", "approval_required", "case_not_found", "tenant_mismatch", "not_assigned",
)
ALLOWED = 0


def reason_index(reason: str) -> int:
    return REASONS.index(reason)


@frozen
class GatewayCall:
    """The tool, the proposal's fields, and the facts about the session, the case and the destination."""

    tool: object
    arguments_object: object
    keys: tuple
    present: tuple
    values_ok: tuple
    session_valid: object
    support: object
    supervisor: object
    destination_configured: object
    destination_internal: object
    case_exists: object
    same_tenant: object
    assigned: object

    @property
    def bound(self) -> int:
        return len(self.keys)


@frozen
class GatewayVerdict:
    reason: object
    allowed: object


def fresh_call(name: str, bound: int) -> GatewayCall:
    def flag(what):
        return z3.Bool(f"{name}.{what}")

    return GatewayCall(
        tool=z3.Int(f"{name}.tool"),
        arguments_object=flag("object"),
        keys=tuple(z3.Int(f"{name}.key{i}") for i in range(bound)),
        present=tuple(flag(f"present{i}") for i in range(bound)),
        values_ok=tuple(flag(f"value_ok{i}") for i in range(bound)),
        **{what: flag(what) for what in (
            "session_valid", "support", "supervisor", "destination_configured", "destination_internal",
            "case_exists", "same_tenant", "assigned",
        )},
    )


def well_formed_call(call: GatewayCall) -> list:
    """Tool and key indices in range, and no key twice among the fields: a JSON object's keys are unique."""
    facts = [0 <= call.tool, call.tool <= UNKNOWN_TOOL, z3.Implies(call.destination_internal, call.destination_configured)]
    facts += [z3.And(0 <= key, key <= call.bound + FORGED_KEY) for key in call.keys]
    facts += [
        z3.Not(z3.And(call.present[i], call.present[j], call.keys[i] == call.keys[j]))
        for i in range(call.bound) for j in range(i + 1, call.bound)
    ]
    return facts


def is_declared(tool, key, ops):
    """G001.3: ``case_id`` is declared by both tools, ``destination_id`` by the export only."""
    return ops.Or(key == CASE_KEY, ops.And(tool == EXPORT, key == DESTINATION_KEY))


def has_field(call: GatewayCall, key, ops):
    return ops.Or(False, *(ops.And(present, k == key) for k, present in zip(call.keys, call.present)))


def has_extra(call: GatewayCall, ops, ignored=()):
    """G001.3: some field is not declared by the tool (``ignored`` keys aside)."""
    return ops.Or(False, *(
        ops.And(present, ops.Not(is_declared(call.tool, key, ops)), *(key != other for other in ignored))
        for key, present in zip(call.keys, call.present)
    ))


def has_missing(call: GatewayCall, ops):
    """G001.4: a declared argument of the tool is absent."""
    return ops.Or(ops.Not(has_field(call, CASE_KEY, ops)), ops.And(call.tool == EXPORT, ops.Not(has_field(call, DESTINATION_KEY, ops))))


def declared_values_ok(call: GatewayCall, ops):
    """G001.5: every declared field holds an identifier string."""
    return ops.And(True, *(
        ops.Or(ops.Not(ops.And(present, is_declared(call.tool, key, ops))), ok)
        for key, present, ok in zip(call.keys, call.present, call.values_ok)
    ))


def is_well_formed(call: GatewayCall, ops):
    """G001.1–G001.5 all hold: a known tool, an object, no extra or missing field, identifier values."""
    return ops.And(call.tool != UNKNOWN_TOOL, call.arguments_object, ops.Not(has_extra(call, ops)), ops.Not(has_missing(call, ops)), declared_values_ok(call, ops))


def first_failure(checks, ops):
    """G001.13: the reason of the first check that fails, in the order given; ``allowed`` when all hold."""
    reason = ALLOWED
    for holds, reason_name in reversed(checks):
        reason = ops.If(holds, reason, reason_index(reason_name))
    return reason


def shape_checks(call: GatewayCall, ops, extra=None):
    return [
        (call.tool != UNKNOWN_TOOL, "unknown_tool"),
        (call.arguments_object, "malformed_input"),
        (ops.Not(has_extra(call, ops) if extra is None else extra), "extra_arguments"),
        (ops.Not(has_missing(call, ops)), "missing_argument"),
        (declared_values_ok(call, ops), "malformed_input"),
    ]


def authorization_checks(call: GatewayCall, ops, role=None, destination=None, assigned=None):
    """G001.6–G001.12 in precedence order; the keyword arguments let a wrong variant replace one condition."""
    exporting = call.tool == EXPORT
    assigned = call.assigned if assigned is None else assigned
    role_check = (ops.Or(ops.Not(exporting), call.support if role is None else role), "role_denied")
    destination_checks = destination or [
        (ops.Or(ops.Not(exporting), ops.And(call.destination_configured, call.destination_internal)), "destination_denied"),
    ]
    return [
        (call.session_valid, "session_invalid"),
        role_check,
        *destination_checks,
        (call.case_exists, "case_not_found"),
        (call.same_tenant, "tenant_mismatch"),
        (ops.If(exporting, assigned, ops.Or(assigned, call.supervisor)), "not_assigned"),
    ]


def lab_reason(call: GatewayCall, ops):
    """The lab-001 reason for the call: the shape checks, then the authorization checks."""
    return first_failure(shape_checks(call, ops) + authorization_checks(call, ops), ops)


def verdict_of_reason(reason, ops) -> GatewayVerdict:
    return GatewayVerdict(reason, reason == ALLOWED)
