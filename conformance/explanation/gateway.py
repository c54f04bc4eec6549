"""An explained trace of every gateway call: each check in precedence order, the reason, the effects, the audit.

It reads the same :class:`CallTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

from gateproof.model.gateway.arguments import compute_canonical_arguments
from gateproof.model.gateway.changes import AdvanceClock, EditCase, EditRunbook, ReassignCase, RemoveDestination, RevokeSession, apply_changes
from gateproof.model.gateway.gate import Call, CallTrace, GatewayRules, GatewayState
from gateproof.model.gateway.next_checks import calls_in_window, lookup_key_binding
from gateproof.model.gateway.world import GatewayWorld
from gateproof.model.gateway.scenario import CHANGE_OPS, GatewayScenario, call_result, trace_gateway_scenario

from .names import CallNames, call_names
from .trace import Applied, ExplainedStep, shown


def _checks_applied(checks, names: CallNames, id: str, says: str, rules: tuple[str, ...] = ()) -> Applied:
    """The checks in order, each named in the catalog's names, a failure with why where the catalog is not the lab's."""
    asks = [names.check_name(check.rule) for check in checks]
    lines, column = [], max(map(len, asks), default=0)
    for check, asked in zip(checks, asks):
        why = None if check.passed else names.why_failed(check)
        verdict = "passed" if check.passed else f"FAILED -> {check.reason}" + (f" ({why})" if why else "")
        lines.append(f"{asked:<{column}}  {verdict}  [{check.rule}]")
    failed = bool(checks) and not checks[-1].passed
    if failed:
        lines.append("(the first failure is the reason; nothing after it is consulted)  [G001.13]")
    result = [{"check": asked, "rule": c.rule, "passed": c.passed, "reason": None if c.passed else c.reason} for c, asked in zip(checks, asks)]
    return Applied(id, says, (*rules, *(("G001.13",) if failed else ())), lines, result=result)


def _binding_words(catalog) -> str:
    """What binds a key not bound yet: an allowed call of a tool that takes one (``tools[].idempotency_key``), by its effect."""
    effects = sorted({tool.effect for tool in catalog.tools if tool.idempotency_key})
    return f"not bound yet (an allowed {' or '.join(effects)} binds it)" if effects else "not bound (no tool of the catalog takes a key)"


def held_records(state: GatewayState, call: Call, next_checks: bool) -> Applied:
    """What the host holds for a call as it is made: the tools, its session, the record and destination its arguments name, and
    under the next checks (G002) the approvals of its tool, the clock and the rate limit.

    The checks read these and nothing the proposal claims; shown beside them,
    a wrong answer's cause (a supervisor's role, an assignee, an expiry) can be read off.
    Each is named as the scenario's catalog names it.
    """
    world = state.world
    names = call_names(world, call.session, call.tool, call.arguments)
    session = names.session
    validity = "valid" if session.valid else "revoked by the host"
    lines = [f"the gateway's tools: {shown(sorted(tool.name for tool in world.catalog.tools))} (a tool is known by its exact name)"]
    lines += [names.tool_line()] if names.tool is not None and not names.lab else []
    lines.append(f"session {shown(session.id)}: user {shown(session.user)}, tenant {shown(session.tenant)}, roles {shown(sorted(session.roles))}, {validity}")
    inputs: dict = {"session": {"user": session.user, "tenant": session.tenant, "roles": sorted(session.roles), "valid": session.valid}}
    if names.named(names.record_argument) is not None:
        case = names.record
        lines.append(names.record_line())
        inputs["case"] = {"tenant": case.tenant, "assignees": sorted(case.assignees)} if case else None
    if (destination_id := names.named(names.destination_argument)) is not None:
        destination = world.destination_index.get(destination_id)
        lines.append(f"destination {shown(destination_id)}: " + (("internal" if destination.internal else "external") if destination else "not configured"))
        inputs["destination"] = {"internal": destination.internal} if destination else None
    if next_checks:
        approvals = [a for a in world.approvals if a.tool == call.tool]
        lines += [f"approval {shown(a.id)}: {a.tool} {a.arguments} for user {shown(a.user)}, expires at {a.expires_at}" for a in approvals]
        limit, rate_limit = world.limit, None
        if limit is None:
            lines.append(f"clock {world.clock}; no rate limit")
        else:
            earlier = [r.time for r in state.history if r.session == call.session and r.counted]
            within = calls_in_window(limit, state.history, call.session, world.clock)
            lines.append(f"clock {world.clock}; at most {limit.calls} call(s) a session in any {limit.window} s; "
                         f"this session's earlier counted calls at {shown(earlier)}, {len(within)} of them in the window "
                         f"({world.clock - limit.window}, {world.clock}]")
            rate_limit = {"calls": limit.calls, "window": limit.window, "earlier_calls": earlier, "in_window": list(within)}
        if call.idempotency_key is not None:
            binding = lookup_key_binding(state.bindings, call.idempotency_key)
            bound = _binding_words(world.catalog) if binding is None else \
                f"bound by session {shown(binding.fingerprint[0])} to {binding.fingerprint[1]} {binding.fingerprint[2]}"
            lines.append(f"idempotency key {shown(call.idempotency_key)} (set by the host): {bound}")
            inputs["idempotency_key"] = {"key": call.idempotency_key, "bound_to": None if binding is None else list(binding.fingerprint)}
        inputs.update(clock=world.clock, rate_limit=rate_limit,
                      approvals=[{"id": a.id, "arguments": a.arguments, "user": a.user, "expires_at": a.expires_at} for a in approvals])
    return Applied("records", "what the host holds for this call (the proposal only names records)", (), lines, inputs=inputs)


def effects_applied(trace: CallTrace, world: GatewayWorld) -> Applied:
    """G001.14, G001.12: what the call did, each record named by its kind."""
    kinds = world.case_index
    effects = [f"export: {kinds[e['case_id']].kind} {shown(e['case_id'])} to {shown(e['destination_id'])}, payload of {len(e['payload'])} characters "
               "read from storage" for e in trace.exports]
    effects += [f"read: {kinds[r['case_id']].kind} {shown(r['case_id'])} served" for r in trace.reads]
    effects += [f"write: {w['tool']} on {kinds[w['case_id']].kind} {shown(w['case_id'])} with {compute_canonical_arguments(w['arguments'])}"
                for w in trace.writes]
    rules = (("G001.14",) if trace.exports or trace.writes else ()) + (("G001.12",) if trace.reads else ())
    result = {"exports": list(trace.exports), "reads": list(trace.reads)} | ({"writes": list(trace.writes)} if world.catalog.writes else {})
    return Applied("effects", "effects" if effects else "effects: none", rules, effects, result=result)


def explain_call(call: Call, trace: CallTrace, rules: GatewayRules, state: GatewayState) -> tuple[str, list[Applied]]:
    rules_name = rules.name
    world = state.world
    written = apply_changes(world, call.before_write)
    proposed = {"tool": call.tool, "arguments": call.arguments, "session": call.session}
    applied = [Applied("proposal", f"arguments as proposed: {shown(call.arguments)}", inputs=proposed), held_records(state, call, rules.next_checks)]
    if trace.replayed:
        applied.append(Applied("idempotency", f"idempotency key {shown(call.idempotency_key)} already bound to this action: answered as before, nothing recorded",
                               ("G002.2",), inputs={"idempotency_key": call.idempotency_key}, result="replayed"))
    checked = call_names(world, call.session, call.tool, call.arguments)
    applied.append(_checks_applied(trace.checks, checked, "checks", f"checks in precedence order (rules {rules_name})"))
    if call.before_write:
        late = ["lab-001 checks once: the write goes ahead on the state as checked"] if not trace.write_checks and rules_name == "lab-001" else []
        applied.append(Applied("before-write", f"{len(call.before_write)} change(s) land between the check and the write",
                               details=[describe_change(change, world) for change in call.before_write] + late))
    if trace.write_checks:
        at_write = call_names(written, call.session, call.tool, call.arguments)
        applied.append(_checks_applied(trace.write_checks, at_write, "write-checks", "re-checked at the write", ("G002.1",)))
    told = f" (the caller is told {trace.caller_reason})" if trace.caller_reason != trace.reason else ""
    decision = {"decision": trace.decision, "reason": trace.reason, "caller_reason": trace.caller_reason, "stage": trace.stage}
    applied.append(Applied("decision", f"decision: {trace.decision}; reason {trace.reason}{told}; stage {trace.stage}",
                           ("G001.10",) if told else (), result=decision))
    applied.append(effects_applied(trace, written))
    audit = [f"{checked.audit_label(key)}: {shown(value)}" for key, value in trace.audit.items()]
    applied.append(Applied("audit", "audit record", ("G001.15",), audit, result=trace.audit))
    return f"call {shown(call.tool)} under session {shown(call.session)}", applied


def describe_change(change, world: GatewayWorld) -> str:
    """A world change in words, the record it names by its kind (``record_kinds[].name``) in ``world``, where it is stored."""
    if isinstance(change, ReassignCase):
        kind = world.case_index[change.case_id].kind
        return f"{kind} {shown(change.case_id)} reassigned to {shown(sorted(change.assignees)) if change.assignees else 'nobody'}"
    if isinstance(change, RevokeSession):
        return f"the host revokes session {shown(change.session_id)}"
    if isinstance(change, RemoveDestination):
        return f"destination {shown(change.destination_id)} is removed from the configuration"
    if isinstance(change, EditCase):
        kind = world.case_index[change.case_id].kind
        return f"{kind} {shown(change.case_id)} now holds other content (never read by a decision  [G001.16])"
    if isinstance(change, EditRunbook):
        return f"runbook {shown(change.runbook_id)} now holds other content (never read by a decision  [G001.16])"
    assert isinstance(change, AdvanceClock)
    return f"the clock advances {change.seconds} second{'' if change.seconds == 1 else 's'}"


def explain_gateway_steps(scenario: GatewayScenario) -> list[ExplainedStep]:
    """Each step of a gateway scenario explained, with its result as the outcome has it."""
    steps, before = [], GatewayState(scenario.world)  # the state as the step finds it
    writes = scenario.world.catalog.writes
    for number, (step, trace, after) in enumerate(trace_gateway_scenario(scenario)):
        if trace is None:
            steps.append(ExplainedStep(number, CHANGE_OPS[type(step)], describe_change(step, before.world), [], {"op": CHANGE_OPS[type(step)]}))
        else:
            says, applied = explain_call(step, trace, scenario.rules, before)
            steps.append(ExplainedStep(number, "call", says, applied, call_result(step, trace, writes)))
        before = after
    return steps
