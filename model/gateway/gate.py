"""One proposed call through the gateway: the checks in order, the effects, the audit record.

Effects are returned as values (the exports recorded, the reads served, the
audit record); nothing here performs I/O.
"""

from __future__ import annotations

from attrs import frozen

from .arguments import Check, check_shape, has_unique_keys
from .authorize import CALLER_REASONS, check_authorization, check_lab_action, check_session, compute_reason
from .catalog import CatalogTool
from .changes import apply_changes
from .next_checks import (
    CallRecord,
    KeyBinding,
    check_next_action,
    compute_fingerprint,
    is_same_action,
    is_within_rate_limit,
    lookup_key_binding,
    recheck_at_write,
)
from .world import GatewayWorld, Session


@frozen
class GatewayRules:
    """A gateway rule version: lab-001 as the lab shipped it, or with the ADR's next checks."""

    name: str
    next_checks: bool


GATEWAY_VERSIONS = {rules.name: rules for rules in (GatewayRules("lab-001", False), GatewayRules("lab-001+next", True))}
DEFAULT_GATEWAY_VERSION = "lab-001"


@frozen
class Call:
    """A call as a model proposed it (``tool`` and ``arguments`` are any JSON) under a host-held session.

    ``idempotency_key`` is set by the host, not the model; ``before_write`` are
    world changes that land between the check and the write.
    """

    session: str
    tool: object
    arguments: object
    idempotency_key: str | None = None
    before_write: tuple = ()


@frozen
class GatewayState:
    """The world and what the gateway remembers of earlier calls."""

    world: GatewayWorld
    history: tuple[CallRecord, ...] = ()
    bindings: tuple[KeyBinding, ...] = ()


@frozen
class CallTrace:
    """Everything decided for one call: the outcome and the explanation both read it."""

    checks: tuple[Check, ...]
    write_checks: tuple[Check, ...]  # G002.1: empty unless the write was re-checked
    reason: str
    stage: str  # "write" when the re-check at the write refused the call, else "check"
    replayed: bool
    exports: tuple[dict, ...]
    reads: tuple[dict, ...]
    audit: dict
    writes: tuple[dict, ...] = ()

    @property
    def decision(self) -> str:
        return "allow" if self.reason == "allowed" else "deny"

    @property
    def rule(self) -> str | None:
        """The id of the rule whose check refused the call; None when it was allowed."""
        failed = [c for c in self.checks + self.write_checks if not c.passed]
        return failed[0].rule if failed else None

    @property
    def caller_reason(self) -> str:
        return CALLER_REASONS.get(self.reason, self.reason)


def _named(arguments: object, names: tuple[str, ...], index) -> str | None:
    """The first value among ``names`` of the arguments that is a key of ``index``; None for arguments that write a key twice."""
    if not (isinstance(arguments, dict) and has_unique_keys(arguments)):
        return None
    values = (arguments.get(name) for name in names)
    return next((value for value in values if isinstance(value, str) and value in index), None)


def compute_audit_record(world: GatewayWorld, session: Session, call: Call, reason: str, stage: str, replayed: bool) -> dict:
    """G001.15: one record per call, holding only values the gateway trusts, never record content or proposal text.

    The tool is recorded only when the catalog declares it. ``case_id`` is
    the first value, among the arguments the catalog's tools name records
    with (``tools[].record.argument``, in declaration order), that is the id
    of a stored record, and ``destination_id`` likewise among the destination
    arguments (``tools[].destination``), whatever the tool called: anything
    else the proposal wrote could carry copied content into the log.
    Arguments that write a key twice (G001.17) name no record and no
    destination: which of the values was meant is what the gateway cannot know.
    """
    catalog = world.catalog
    return {
        "decision": "allow" if reason == "allowed" else "deny",
        "reason": reason,
        "tool": call.tool if catalog.tool(call.tool) is not None else None,
        "user": session.user,
        "tenant": session.tenant,
        "case_id": _named(call.arguments, catalog.record_arguments, world.case_index),
        "destination_id": _named(call.arguments, catalog.destination_arguments, world.destination_index),
        "stage": stage,
        "replayed": replayed,
    }


def compute_export(world: GatewayWorld, tool: CatalogTool, arguments: dict) -> dict:
    """G001.14: an export records the payload read from storage at the time of the write, never from the arguments.

    The record and the destination are those the arguments ``tools[].record.argument`` and ``tools[].destination`` name.
    """
    case = world.case_index[arguments[tool.record_argument]]
    return {"case_id": case.id, "destination_id": arguments[tool.destination], "tenant": case.tenant, "payload": case.content}


def compute_write(tool: CatalogTool, arguments: dict) -> dict:
    """G001.14: a write records the tool, the record it acts on (``tools[].record.argument``) and the arguments it was allowed with."""
    return {"tool": tool.name, "case_id": arguments[tool.record_argument], "arguments": arguments}


def _checks_before_authorization(state: GatewayState, session: Session, call: Call, rules: GatewayRules) -> tuple[tuple[Check, ...], bool]:
    """Shape, session, and under lab-001+next the rate limit and the idempotency key; also whether the call is a replay.

    G002.2: a key is looked up for a tool that takes one (``tools[].idempotency_key``).
    """
    world = state.world
    checks = check_shape(call.tool, call.arguments, world.catalog)
    if compute_reason(checks) != "allowed":
        return checks, False
    checks += (check_session(session),)
    if not checks[-1].passed or not rules.next_checks:
        return checks, False
    checks += (Check("G002.4", "rate_limited", is_within_rate_limit(world.limit, state.history, session.id, world.clock)),)
    binding = lookup_key_binding(state.bindings, call.idempotency_key) if world.catalog.tool(call.tool).idempotency_key else None
    if not checks[-1].passed or binding is None:
        return checks, False
    same = is_same_action(binding, compute_fingerprint(session, call.tool, call.arguments))
    return checks + (Check("G002.3", "idempotency_conflict", same),), same


def decide_call(state: GatewayState, call: Call, rules: GatewayRules) -> tuple[CallTrace, GatewayState]:
    """G001.13: the call's checks in precedence order; the first failure is the reason, and nothing happens.

    G002.2: a repeated call with a side effect and a bound idempotency key
    answers as the first did and records nothing new. G002.1: under lab-001+next an allowed
    export is judged again after ``before_write`` and happens only if it
    still holds; lab-001 checks once. Which tool exports, takes a key and is
    judged again is what the catalog declares (``tools[].effect``,
    ``tools[].idempotency_key``, ``tools[].recheck_at_write``).
    """
    world = state.world
    session = world.session_index[call.session]
    checks, replayed = _checks_before_authorization(state, session, call, rules)
    tool = world.catalog.tool(call.tool)
    if compute_reason(checks) == "allowed" and not replayed:
        checks += check_authorization(world, session, tool, call.arguments, check_next_action if rules.next_checks else check_lab_action)
    reason = compute_reason(checks)
    written = apply_changes(world, call.before_write)
    write_checks: tuple[Check, ...] = ()
    effects: dict[str, tuple[dict, ...]] = {}
    bindings = state.bindings
    if reason == "allowed" and not replayed:
        if tool.recheck_at_write and rules.next_checks:
            write_checks = recheck_at_write(written, call.session, tool, call.arguments)
            reason = compute_reason(write_checks)
        if reason == "allowed":
            effects = _effect(written, tool, call.arguments)
            if rules.next_checks and tool.idempotency_key and call.idempotency_key is not None:
                bindings += (KeyBinding(call.idempotency_key, compute_fingerprint(session, call.tool, call.arguments)),)
    stage = "write" if write_checks and reason != "allowed" else "check"
    audit = compute_audit_record(world, session, call, reason, stage, replayed)
    trace = CallTrace(checks, write_checks, reason, stage, replayed, effects.get("exports", ()), effects.get("reads", ()), audit, effects.get("writes", ()))
    history = state.history + (CallRecord(session.id, world.clock, reason != "rate_limited"),)
    return trace, GatewayState(written, history, bindings)


def _effect(world: GatewayWorld, tool: CatalogTool, arguments: dict) -> dict[str, tuple[dict, ...]]:
    """G001.14: what an allowed call does, by its tool's effect: an export, a read of the record it names, or a write."""
    if tool.effect == "export":
        return {"exports": (compute_export(world, tool, arguments),)}
    if tool.effect == "write":
        return {"writes": (compute_write(tool, arguments),)}
    return {"reads": ({"case_id": arguments[tool.record_argument]},)}
