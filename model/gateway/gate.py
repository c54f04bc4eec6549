"""One proposed call through the gateway: the checks in order, the effects, the audit record.

Effects are returned as values (the exports recorded, the reads served, the
audit record); nothing here performs I/O.
"""

from __future__ import annotations

from attrs import frozen

from .arguments import Check, check_shape, has_unique_keys, is_known_tool
from .authorize import CALLER_REASONS, check_authorization, check_lab_destination, check_session, compute_reason
from .changes import apply_changes
from .lab import DESTINATION_ARGUMENT, LAB_CATALOG, RECORD_ARGUMENT
from .next_checks import (
    CallRecord,
    KeyBinding,
    check_next_destination,
    compute_fingerprint,
    is_same_action,
    is_within_rate_limit,
    lookup_key_binding,
    recheck_at_write,
)
from .records import GatewayWorld, Session


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


def _named(arguments: object, name: str, index: dict) -> str | None:
    value = arguments.get(name) if isinstance(arguments, dict) and has_unique_keys(arguments) else None
    return value if isinstance(value, str) and value in index else None


def compute_audit_record(world: GatewayWorld, session: Session, call: Call, reason: str, stage: str, replayed: bool) -> dict:
    """G001.15: one record per call, holding only values the gateway trusts, never case content or proposal text.

    The tool, case and destination are recorded only when they name a known
    tool, a stored case and a configured destination (read from the
    arguments ``tools[].record.argument`` and ``tools[].destination`` name); anything else the
    proposal wrote could carry copied content into the log. Arguments that
    write a key twice (G001.17) name no case and no destination: which of
    the values was meant is what the gateway cannot know.
    """
    return {
        "decision": "allow" if reason == "allowed" else "deny",
        "reason": reason,
        "tool": call.tool if is_known_tool(call.tool) else None,
        "user": session.user,
        "tenant": session.tenant,
        "case_id": _named(call.arguments, RECORD_ARGUMENT, world.case_index),
        "destination_id": _named(call.arguments, DESTINATION_ARGUMENT, world.destination_index),
        "stage": stage,
        "replayed": replayed,
    }


def compute_export(world: GatewayWorld, arguments: dict) -> dict:
    """G001.14: an export records the payload read from storage at the time of the write, never from the arguments.

    The case and the destination are those the arguments ``tools[].record.argument`` and ``tools[].destination`` name.
    """
    case = world.case_index[arguments[RECORD_ARGUMENT]]
    return {"case_id": case.id, "destination_id": arguments[DESTINATION_ARGUMENT], "tenant": case.tenant, "payload": case.content}


def _checks_before_authorization(state: GatewayState, session: Session, call: Call, rules: GatewayRules) -> tuple[tuple[Check, ...], bool]:
    """Shape, session, and under lab-001+next the rate limit and the idempotency key; also whether the call is a replay.

    G002.2: a key is looked up for a tool that takes one (``tools[].idempotency_key``).
    """
    checks = check_shape(call.tool, call.arguments)
    if compute_reason(checks) != "allowed":
        return checks, False
    checks += (check_session(session),)
    if not checks[-1].passed or not rules.next_checks:
        return checks, False
    world = state.world
    checks += (Check("G002.4", "rate_limited", is_within_rate_limit(world.rate_limit, state.history, session.id, world.clock)),)
    binding = lookup_key_binding(state.bindings, call.idempotency_key) if LAB_CATALOG.tool(call.tool).idempotency_key else None
    if not checks[-1].passed or binding is None:
        return checks, False
    same = is_same_action(binding, compute_fingerprint(session, call.tool, call.arguments))
    return checks + (Check("G002.3", "idempotency_conflict", same),), same


def decide_call(state: GatewayState, call: Call, rules: GatewayRules) -> tuple[CallTrace, GatewayState]:
    """G001.13: the call's checks in precedence order; the first failure is the reason, and nothing happens.

    G002.2: a repeated export with a bound idempotency key answers as the
    first did and records nothing new. G002.1: under lab-001+next an allowed
    export is judged again after ``before_write`` and happens only if it
    still holds; lab-001 checks once. Which tool exports, takes a key and is
    judged again is what the catalog declares (``tools[].effect``,
    ``tools[].idempotency_key``, ``tools[].recheck_at_write``).
    """
    world = state.world
    session = world.session_index[call.session]
    checks, replayed = _checks_before_authorization(state, session, call, rules)
    if compute_reason(checks) == "allowed" and not replayed:
        check_destination = check_next_destination if rules.next_checks else check_lab_destination
        checks += check_authorization(world, session, call.tool, call.arguments, check_destination)
    reason = compute_reason(checks)
    written = apply_changes(world, call.before_write)
    write_checks: tuple[Check, ...] = ()
    exports: tuple[dict, ...] = ()
    reads: tuple[dict, ...] = ()
    bindings = state.bindings
    if reason == "allowed" and not replayed:
        tool = LAB_CATALOG.tool(call.tool)
        if tool.recheck_at_write and rules.next_checks:
            write_checks = recheck_at_write(written, call.session, call.tool, call.arguments)
            reason = compute_reason(write_checks)
        if reason == "allowed" and tool.effect == "export":
            exports = (compute_export(written, call.arguments),)
            if rules.next_checks and tool.idempotency_key and call.idempotency_key is not None:
                bindings += (KeyBinding(call.idempotency_key, compute_fingerprint(session, call.tool, call.arguments)),)
        elif reason == "allowed":
            reads = ({"case_id": call.arguments[RECORD_ARGUMENT]},)
    stage = "write" if write_checks and reason != "allowed" else "check"
    audit = compute_audit_record(world, session, call, reason, stage, replayed)
    trace = CallTrace(checks, write_checks, reason, stage, replayed, exports, reads, audit)
    history = state.history + (CallRecord(session.id, world.clock, reason != "rate_limited"),)
    return trace, GatewayState(written, history, bindings)

