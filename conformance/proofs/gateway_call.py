"""One proposed tool call under one catalog, as the proofs see it: the facts the gateway reads, and the reason it gives.

A :class:`GatewayCall` abstracts a call to what decides it: the catalog
(which of :data:`~.catalog_space.TOOL_SHAPES` it declares), which of its
tools is called, the proposal's fields (each a key, whether its value is
valid for its declaration, and whether it is above the called tool's
approval threshold), and the facts the host's session and stored records
hold about the session, the record and the destination. ``bound`` is both
the most fields of a proposal and the most tools of a catalog.
:func:`lab_reason` decides it by the model's own checks and precedence
(``shape_checks``, ``session_check``, ``authorization_checks`` with the
role checked where the tool lists roles, ``lab_destination_checks``,
``first_failed_reason``), each applying where the called tool's
declaration says. What is restated here (which fields a tool declares and
requires, the G001.18 approval condition, the facts read from records)
is tied to ``decide_call`` by the differential test in
``tests/test_proofs_gateway.py``, over every tool shape.
"""

from __future__ import annotations

import z3
from attrs import evolve, frozen

from gateproof.model.gateway.arguments import ALLOWED, REASON_CODES, Check, first_failed_reason, shape_checks
from gateproof.model.gateway.authorize import AuthorizationFacts, authorization_checks, lab_destination_checks, session_check
from gateproof.model.gateway.catalog_checks import ANY_ROLE

from ..implementations.wrong.gateway import FORGED_FIELD
from .catalog_space import TOOL_SHAPES

#: A tool index naming no tool of the call's catalog.
UNKNOWN_TOOL = -1
#: Field keys by index: every argument name some shape declares, then forged authority, then any other undeclared key.
DECLARED_KEYS = tuple(dict.fromkeys(argument.name for tool in TOOL_SHAPES for argument in tool.arguments))
FORGED_KEY = len(DECLARED_KEYS)  # the key of FORGED_FIELD
#: Every reason a gateway may give, by index; :data:`ALLOWED` is the allowed call.
REASONS = REASON_CODES


@frozen
class GatewayCall:
    """The catalog, the tool called, the proposal's fields, and the facts about the session, the record and the destination."""

    catalog: tuple  # the index in TOOL_SHAPES of each tool slot, ascending; the first ``tools`` are declared
    tools: object
    tool: object  # a slot below ``tools``, or UNKNOWN_TOOL
    arguments_object: object
    keys: tuple
    present: tuple
    values_ok: tuple
    above: tuple  # the field's value is strictly above the called tool's argument_above threshold for it
    session_valid: object
    holds_role: object  # the session holds the role a tool that lists roles lists
    holds_reader: object  # the session holds the tenant reader role
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
        catalog=tuple(z3.Int(f"{name}.shape{i}") for i in range(bound)),
        tools=z3.Int(f"{name}.tools"),
        tool=z3.Int(f"{name}.tool"),
        arguments_object=flag("object"),
        keys=tuple(z3.Int(f"{name}.key{i}") for i in range(bound)),
        present=tuple(flag(f"present{i}") for i in range(bound)),
        values_ok=tuple(flag(f"value_ok{i}") for i in range(bound)),
        above=tuple(flag(f"above{i}") for i in range(bound)),
        **{what: flag(what) for what in (
            "session_valid", "holds_role", "holds_reader", "destination_configured", "destination_internal",
            "case_exists", "same_tenant", "assigned",
        )},
    )


def well_formed_call(call: GatewayCall) -> list:
    """A catalog of 1 to ``bound`` distinct shapes in ascending order, a tool of it or none, and no key twice among the fields."""
    slots = range(call.bound)
    facts = [1 <= call.tools, call.tools <= call.bound, z3.Implies(call.destination_internal, call.destination_configured)]
    facts += [z3.Or(call.tool == UNKNOWN_TOOL, z3.And(0 <= call.tool, call.tool < call.tools))]
    facts += [z3.And(0 <= shape, shape < len(TOOL_SHAPES)) for shape in call.catalog]
    facts += [z3.Implies(i + 1 < call.tools, call.catalog[i] < call.catalog[i + 1]) for i in slots[:-1]]
    facts += [z3.And(0 <= key, key <= call.bound + FORGED_KEY) for key in call.keys]
    facts += [
        z3.Not(z3.And(call.present[i], call.present[j], call.keys[i] == call.keys[j]))
        for i in slots for j in range(i + 1, call.bound)
    ]
    return facts


def called_shape(call: GatewayCall, ops):
    """The index in TOOL_SHAPES of the tool called; -1 for a name the catalog does not declare."""
    shape = -1
    for slot in reversed(range(len(call.catalog))):
        shape = ops.If(call.tool == slot, call.catalog[slot], shape)
    return shape


def tool_is(call: GatewayCall, holds, ops):
    """Whether the tool called is declared as ``holds`` (a predicate on a CatalogTool) says; false for an unknown tool."""
    shape = called_shape(call, ops)
    return ops.Or(False, *(shape == index for index, tool in enumerate(TOOL_SHAPES) if holds(tool)))


def is_declared(call: GatewayCall, key, ops):
    """G001.3: the called tool declares the field ``key`` (``tools[].arguments[].name``)."""
    return ops.Or(False, *(ops.And(key == index, tool_is(call, lambda tool: name in tool.argument_names, ops)) for index, name in enumerate(DECLARED_KEYS)))


def has_field(call: GatewayCall, key, ops):
    return ops.Or(False, *(ops.And(present, k == key) for k, present in zip(call.keys, call.present)))


def has_extra(call: GatewayCall, ops, ignored=()):
    """G001.3: some field is not declared by the tool (``ignored`` keys aside)."""
    return ops.Or(False, *(
        ops.And(present, ops.Not(is_declared(call, key, ops)), *(key != other for other in ignored))
        for key, present in zip(call.keys, call.present)
    ))


def lacks(call: GatewayCall, counts, ops):
    """Some argument of the tool for which ``counts(tool, argument)`` holds is absent."""
    return ops.Or(False, *(
        ops.And(tool_is(call, lambda tool: any(a.name == name and counts(tool, a) for a in tool.arguments), ops), ops.Not(has_field(call, index, ops)))
        for index, name in enumerate(DECLARED_KEYS)
    ))


def has_missing(call: GatewayCall, ops):
    """G001.4: a required argument of the tool (``tools[].arguments[].required``) is absent."""
    return lacks(call, lambda tool, argument: argument.required, ops)


def declared_values_ok(call: GatewayCall, ops):
    """G001.5: every declared field holds a valid value of its declaration."""
    return ops.And(True, *(
        ops.Or(ops.Not(ops.And(present, is_declared(call, key, ops))), ok)
        for key, present, ok in zip(call.keys, call.present, call.values_ok)
    ))


def is_well_formed(call: GatewayCall, ops):
    """G001.1–G001.5 all hold: a known tool, an object, no extra or missing field, valid values."""
    return ops.And(call.tool != UNKNOWN_TOOL, call.arguments_object, ops.Not(has_extra(call, ops)), ops.Not(has_missing(call, ops)), declared_values_ok(call, ops))


def needs_approval(call: GatewayCall, ops):
    """G001.18: the call carries an argument of an ``argument_above`` approval of its tool with a value strictly above it."""
    def approves(index):
        return lambda tool: any(a.when == "argument_above" and a.argument == DECLARED_KEYS[index] for a in tool.approvals)

    return ops.Or(False, *(
        ops.And(present, above, ops.Or(False, *(ops.And(key == index, tool_is(call, approves(index), ops)) for index in range(FORGED_KEY))))
        for key, present, above in zip(call.keys, call.present, call.above)
    ))


def facts_of_call(call: GatewayCall, ops) -> AuthorizationFacts:
    """G001.7, G001.12: the tenant reader role counts only where the called tool names one."""
    reader = ops.And(call.holds_reader, tool_is(call, lambda tool: tool.tenant_reader_role is not None, ops))
    return AuthorizationFacts(call.holds_role, reader, call.case_exists, call.same_tenant, call.assigned)


def applied(checks, ops) -> tuple:
    """Each (check, applies) pair as one check that holds wherever it does not apply to the tool."""
    return tuple(evolve(check, passed=ops.Or(ops.Not(applies), check.passed)) for check, applies in checks)


def lab_checks(call: GatewayCall, ops, facts=None, destination=None, no_extra=None, no_missing=None, role_checked=None, approval=None) -> tuple:
    """Every lab-001 check of the call in the order ``decide_call`` makes them: shape, session, authorization.

    The keyword arguments let a wrong variant replace the facts, the
    destination checks, what counts as an extra or a missing field, where
    the role is checked, or the G001.18 approval check.
    """
    if destination is None:
        destination = lab_destination_checks(call.destination_configured, call.destination_internal, ops)
    if approval is None:
        approval = (Check("G001.18", "approval_required", ops.Not(needs_approval(call, ops))),)
    shape = shape_checks(
        call.tool != UNKNOWN_TOOL, call.arguments_object,
        ops.Not(has_extra(call, ops)) if no_extra is None else no_extra,
        ops.Not(has_missing(call, ops)) if no_missing is None else no_missing,
        declared_values_ok(call, ops),
    )
    exporting = tool_is(call, lambda tool: tool.destination is not None, ops)
    action = applied(((check, exporting) for check in destination), ops) + approval
    if role_checked is None:
        role_checked = tool_is(call, lambda tool: ANY_ROLE not in tool.roles, ops)
    side_effect = tool_is(call, lambda tool: tool.has_side_effect, ops)
    authorization = authorization_checks(side_effect, facts_of_call(call, ops) if facts is None else facts, action, ops, role_checked=role_checked)
    return (*shape, session_check(call.session_valid), *applied(authorization, ops))


def lab_reason(call: GatewayCall, ops):
    """The lab-001 reason for the call, as an index into :data:`REASONS`."""
    return first_failed_reason(lab_checks(call, ops), ops)


def verdict_of_reason(reason, ops) -> GatewayVerdict:
    return GatewayVerdict(reason, reason == ALLOWED)
