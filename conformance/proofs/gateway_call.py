"""One proposed tool call as the proofs see it: the facts the gateway reads, and the reason it gives.

A :class:`GatewayCall` abstracts a call to what decides it: which tool, the
proposal's fields (each a key and whether its value is an identifier
string), and the facts the host's session and stored records hold about the
session, the case and the destination. ``bound`` is the number of fields a
proposal may carry. :func:`lab_reason` decides it by the model's own checks
and precedence (``shape_checks``, ``session_check``,
``authorization_checks``, ``first_failed_reason``), written once for
values and z3 terms. What is restated here, the facts read from records and
the fields of a JSON object, is tied to ``decide_call`` by the differential
test in ``tests/test_proofs_gateway.py``.
"""

from __future__ import annotations

import z3
from attrs import evolve, frozen

from gateproof.model.gateway.arguments import ALLOWED, REASON_CODES, TOOLS, first_failed_reason, shape_checks
from gateproof.model.gateway.authorize import AuthorizationFacts, authorization_checks, lab_destination_checks, session_check

from ..implementations.wrong.gateway import FORGED_FIELD

#: The tools by index; an index past the catalogue is a name the gateway does not know.
TOOL_NAMES = tuple(TOOLS)
EXPORT, READ = TOOL_NAMES.index("export_case"), TOOL_NAMES.index("read_case")
UNKNOWN_TOOL = len(TOOL_NAMES)
#: Field keys by index: the declared arguments, then forged authority, then any other undeclared key.
DECLARED_KEYS = ("case_id", "destination_id")
CASE_KEY, DESTINATION_KEY = 0, 1
FORGED_KEY = len(DECLARED_KEYS)  # the key of FORGED_FIELD
#: Every reason a gateway may give, by index; :data:`ALLOWED` is the allowed call.
REASONS = REASON_CODES


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


def facts_of_call(call: GatewayCall) -> AuthorizationFacts:
    return AuthorizationFacts(call.support, call.supervisor, call.case_exists, call.same_tenant, call.assigned)


def applied(checks, ops) -> tuple:
    """Each (check, applies) pair as one check that holds wherever it does not apply to the tool."""
    return tuple(evolve(check, passed=ops.Or(ops.Not(applies), check.passed)) for check, applies in checks)


def lab_checks(call: GatewayCall, ops, facts=None, destination=None, no_extra=None) -> tuple:
    """Every lab-001 check of the call in the order ``decide_call`` makes them: shape, session, authorization.

    The keyword arguments let a wrong variant replace the facts, the
    destination checks or what counts as an extra field.
    """
    if destination is None:
        destination = lab_destination_checks(call.destination_configured, call.destination_internal, ops)
    shape = shape_checks(
        call.tool != UNKNOWN_TOOL, call.arguments_object,
        ops.Not(has_extra(call, ops)) if no_extra is None else no_extra,
        ops.Not(has_missing(call, ops)), declared_values_ok(call, ops),
    )
    authorization = authorization_checks(call.tool == EXPORT, facts_of_call(call) if facts is None else facts, destination, ops)
    return (*shape, session_check(call.session_valid), *applied(authorization, ops))


def lab_reason(call: GatewayCall, ops):
    """The lab-001 reason for the call, as an index into :data:`REASONS`."""
    return first_failed_reason(lab_checks(call, ops), ops)


def verdict_of_reason(reason, ops) -> GatewayVerdict:
    return GatewayVerdict(reason, reason == ALLOWED)
