"""One tools/call through the gateway: read the store into the model's values, decide with ``decide_call``, write back.

The decision is the model's; what this module owns is the unit of work
around it (one transaction from the read to the last record), where the
call's ``before_write`` changes come from (the ones staged in the store),
and, for a faulty variant, the view it decides on.
"""

from __future__ import annotations

from attrs import frozen

from gateproof.model.gateway.authorize import CALLER_REASONS
from gateproof.model.gateway.changes import apply_changes
from gateproof.model.gateway.gate import (
    GATEWAY_VERSIONS,
    Call,
    GatewayRules,
    GatewayState,
    compute_audit_record,
    compute_export,
    decide_call,
)
from gateproof.model.gateway.next_checks import CallRecord
from gateproof.model.gateway.world import GatewayWorld
from gateproof.model.gateway.scenario import read_change
from gateproof.model.records import replaced

from .store import Store
from .variants import Fault


@frozen
class Decision:
    """What one call decided and what it leaves: the caller's answer, the records, the state to store."""

    tool: object
    arguments: object
    reason: str
    rule: str | None
    stage: str
    replayed: bool
    exports: tuple[dict, ...]
    reads: tuple[dict, ...]
    audit: dict
    state: GatewayState

    @property
    def allowed(self) -> bool:
        return self.reason == "allowed"

    @property
    def caller_reason(self) -> str:
        return CALLER_REASONS.get(self.reason, self.reason)


def staged_changes(store: Store, declared: GatewayWorld, where: str = "$.before_write") -> tuple:
    """The changes held for this call, as the model's values, checked against the world as declared."""
    return tuple(read_change(change, f"{where}[{i}]", declared) for i, change in enumerate(store.take_staged()))


def acting_session(world: GatewayWorld, session_id: str, arguments: object, fault: Fault) -> tuple[str, object]:
    """The session a call is made as: the token's, unless the faulty variant believes an ``on_behalf_of`` argument."""
    if not fault.acts_on_behalf or type(arguments) is not dict or "on_behalf_of" not in arguments:
        return session_id, arguments
    claimed = arguments["on_behalf_of"]
    rest = {name: value for name, value in arguments.items() if name != "on_behalf_of"}
    return (claimed if isinstance(claimed, str) and claimed in world.session_index else session_id), rest


def _from_trace(call: Call, trace, state: GatewayState, audit: dict, exports: tuple) -> Decision:
    return Decision(call.tool, call.arguments, trace.reason, trace.rule, trace.stage, trace.replayed, exports, trace.reads, audit, state)


def _allowed_anyway(state: GatewayState, call: Call) -> Decision:
    """fail-open: the catch-all answers ``allow`` for a call whose policy check raised; nothing is exported or read."""
    world = state.world
    session = world.session_index[call.session]
    audit = compute_audit_record(world, session, call, "allowed", "check", False)
    after = GatewayState(apply_changes(world, call.before_write), state.history + (CallRecord(session.id, world.clock, True),),
                         state.bindings)
    return Decision(call.tool, call.arguments, "allowed", None, "check", False, (), (), audit, after)


def decide(state: GatewayState, call: Call, rules: GatewayRules, fault: Fault) -> Decision:
    """G001.13 and the rest, by ``decide_call``; a faulty variant decides on its view and records against the store.

    The correct gateway's view is the store itself, so its decision, its
    audit record and the state it leaves are the model's, unchanged. A view
    changes only what is believed: the audit record, the exports' tenant and
    the world written back are the store's, with the call's changes applied.
    """
    world = state.world
    try:
        view = fault.view(world, call)
        trace, after = decide_call(replaced(state, world=view), call, rules)
    except Exception:
        if not fault.fails_open:
            raise
        return _allowed_anyway(state, call)
    if fault.spends_on_refusal:
        after = replaced(after, history=after.history[:-1] + (replaced(after.history[-1], counted=True),))
    if view is world:
        return _from_trace(call, trace, after, trace.audit, trace.exports)
    written = apply_changes(world, call.before_write)
    session = world.session_index[call.session]
    audit = compute_audit_record(world, session, call, trace.reason, trace.stage, trace.replayed)
    exports = tuple(compute_export(written, world.catalog.tool(call.tool), call.arguments) for _ in trace.exports)
    return _from_trace(call, trace, replaced(after, world=written), audit, exports)


def call_tool(store: Store, fault: Fault, session_id: str, tool: object, arguments: object, key: str | None) -> Decision:
    """One call, one transaction: the state read, decided, and everything it changed and recorded written back."""
    with store.transaction():
        world, declared = store.read_worlds()
        session_id, arguments = acting_session(world, session_id, arguments, fault)
        call = Call(session_id, tool, arguments, key, staged_changes(store, declared))
        state = store.read_state(world, session_id, key if tool == "export_case" else None)
        decision = decide(state, call, GATEWAY_VERSIONS[store.rules()], fault)
        store.write_state(state, decision.state)
        store.record(decision.exports, decision.reads, decision.audit, decision.rule)
    return decision


def served_case(decision: Decision) -> dict | None:
    """The case an allowed read served, as storage held it when it was read."""
    if not decision.reads:
        return None
    case = decision.state.world.case_index[decision.reads[0]["case_id"]]
    return {"case_id": case.id, "tenant": case.tenant, "content": case.content}
