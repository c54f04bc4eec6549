"""An explained trace of every gateway call: each check in precedence order, the reason, the effects, the audit.

It reads the same :class:`CallTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

from gateproof.model.gateway.arguments import TOOLS
from gateproof.model.gateway.changes import AdvanceClock, EditCase, EditRunbook, ReassignCase, RemoveDestination, RevokeSession
from gateproof.model.gateway.gate import Call, CallTrace, GatewayRules, GatewayState
from gateproof.model.gateway.scenario import CHANGE_OPS, GatewayScenario, call_result, trace_gateway_scenario
from gateproof.model.gateway.next_checks import calls_in_window, lookup_key_binding

from .trace import Applied, ExplainedStep, shown

#: What each check of a call asks, in words, by the rule id the model's check carries.
CHECK_NAMES = {
    "G001.1": "known tool", "G001.2": "arguments are an object", "G001.17": "no key written twice",
    "G001.3": "no undeclared arguments", "G001.4": "every declared argument present", "G001.5": "every value an identifier string",
    "G001.6": "session is valid", "G001.7": "session holds the support role", "G001.8": "destination is configured and internal",
    "G001.9": "case exists", "G001.10": "case belongs to the session's tenant", "G001.11": "session's user is assigned to the case",
    "G001.12": "session may read the case (assigned, or supervisor)", "G002.3": "a reused idempotency key names the same action",
    "G002.4": "session is within its rate limit", "G002.5": "external destination: an approval names this exact action",
    "G002.6": "external destination: the approval has not expired",
    "G001.18": "no argument_above approval condition holds (lab-001 honours none)",
}


def _checks_applied(checks, id: str, says: str, rules: tuple[str, ...] = ()) -> Applied:
    lines, column = [], max((len(CHECK_NAMES[check.rule]) for check in checks), default=0)
    for check in checks:
        verdict = "passed" if check.passed else f"FAILED -> {check.reason}"
        lines.append(f"{CHECK_NAMES[check.rule]:<{column}}  {verdict}  [{check.rule}]")
    failed = bool(checks) and not checks[-1].passed
    if failed:
        lines.append("(the first failure is the reason; nothing after it is consulted)  [G001.13]")
    result = [{"check": CHECK_NAMES[c.rule], "rule": c.rule, "passed": c.passed, "reason": None if c.passed else c.reason} for c in checks]
    return Applied(id, says, (*rules, *(("G001.13",) if failed else ())), lines, result=result)


def _named(arguments: object, name: str) -> str | None:
    value = arguments.get(name) if isinstance(arguments, dict) else None
    return value if isinstance(value, str) else None


def held_records(state: GatewayState, call: Call, next_checks: bool) -> Applied:
    """What the host holds for a call as it is made: the tools, its session, the case and destination its arguments name, and
    under the next checks (G002) the approvals of its tool, the clock and the rate limit.

    The checks read these and nothing the proposal claims; shown beside them,
    a wrong answer's cause (a supervisor's role, an assignee, an expiry) can be read off.
    """
    world = state.world
    session = world.session_index[call.session]
    validity = "valid" if session.valid else "revoked by the host"
    lines = [f"the gateway's tools: {shown(sorted(TOOLS))} (a tool is known by its exact name)",
             f"session {shown(session.id)}: user {shown(session.user)}, tenant {shown(session.tenant)}, roles {shown(sorted(session.roles))}, {validity}"]
    inputs: dict = {"session": {"user": session.user, "tenant": session.tenant, "roles": sorted(session.roles), "valid": session.valid}}
    if (case_id := _named(call.arguments, "case_id")) is not None:
        case = world.case_index.get(case_id)
        assigned = f"assigned to {shown(sorted(case.assignees))}" if case and case.assignees else "assigned to nobody"
        lines.append(f"case {shown(case_id)}: " + (f"tenant {shown(case.tenant)}, {assigned}" if case else "not stored"))
        inputs["case"] = {"tenant": case.tenant, "assignees": sorted(case.assignees)} if case else None
    if (destination_id := _named(call.arguments, "destination_id")) is not None:
        destination = world.destination_index.get(destination_id)
        lines.append(f"destination {shown(destination_id)}: " + (("internal" if destination.internal else "external") if destination else "not configured"))
        inputs["destination"] = {"internal": destination.internal} if destination else None
    if next_checks:
        approvals = [a for a in world.approvals if a.tool == call.tool]
        lines += [f"approval {shown(a.id)}: {a.tool} {a.arguments} for user {shown(a.user)}, expires at {a.expires_at}" for a in approvals]
        limit, rate_limit = world.rate_limit, None
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
            bound = "not bound yet (an allowed export binds it)" if binding is None else \
                f"bound by session {shown(binding.fingerprint[0])} to {binding.fingerprint[1]} {binding.fingerprint[2]}"
            lines.append(f"idempotency key {shown(call.idempotency_key)} (set by the host): {bound}")
            inputs["idempotency_key"] = {"key": call.idempotency_key, "bound_to": None if binding is None else list(binding.fingerprint)}
        inputs.update(clock=world.clock, rate_limit=rate_limit,
                      approvals=[{"id": a.id, "arguments": a.arguments, "user": a.user, "expires_at": a.expires_at} for a in approvals])
    return Applied("records", "what the host holds for this call (the proposal only names records)", (), lines, inputs=inputs)


def explain_call(call: Call, trace: CallTrace, rules: GatewayRules, state: GatewayState) -> tuple[str, list[Applied]]:
    rules_name = rules.name
    proposed = {"tool": call.tool, "arguments": call.arguments, "session": call.session}
    applied = [Applied("proposal", f"arguments as proposed: {shown(call.arguments)}", inputs=proposed), held_records(state, call, rules.next_checks)]
    if trace.replayed:
        applied.append(Applied("idempotency", f"idempotency key {shown(call.idempotency_key)} already bound to this action: answered as before, nothing recorded",
                               ("G002.2",), inputs={"idempotency_key": call.idempotency_key}, result="replayed"))
    applied.append(_checks_applied(trace.checks, "checks", f"checks in precedence order (rules {rules_name})"))
    if call.before_write:
        late = ["lab-001 checks once: the write goes ahead on the state as checked"] if not trace.write_checks and rules_name == "lab-001" else []
        applied.append(Applied("before-write", f"{len(call.before_write)} change(s) land between the check and the write",
                               details=[describe_change(change) for change in call.before_write] + late))
    if trace.write_checks:
        applied.append(_checks_applied(trace.write_checks, "write-checks", "re-checked at the write", ("G002.1",)))
    told = f" (the caller is told {trace.caller_reason})" if trace.caller_reason != trace.reason else ""
    decision = {"decision": trace.decision, "reason": trace.reason, "caller_reason": trace.caller_reason, "stage": trace.stage}
    applied.append(Applied("decision", f"decision: {trace.decision}; reason {trace.reason}{told}; stage {trace.stage}",
                           ("G001.10",) if told else (), result=decision))
    effects = [f"export: case {shown(e['case_id'])} to {shown(e['destination_id'])}, payload of {len(e['payload'])} characters read from storage" for e in trace.exports]
    effects += [f"read: case {shown(r['case_id'])} served" for r in trace.reads]
    rules = (("G001.14",) if trace.exports else ()) + (("G001.12",) if trace.reads else ())
    applied.append(Applied("effects", "effects" if effects else "effects: none", rules, effects,
                           result={"exports": list(trace.exports), "reads": list(trace.reads)}))
    applied.append(Applied("audit", "audit record", ("G001.15",), [f"{key}: {shown(value)}" for key, value in trace.audit.items()], result=trace.audit))
    return f"call {shown(call.tool)} under session {shown(call.session)}", applied


def describe_change(change) -> str:
    if isinstance(change, ReassignCase):
        return f"case {shown(change.case_id)} reassigned to {shown(sorted(change.assignees)) if change.assignees else 'nobody'}"
    if isinstance(change, RevokeSession):
        return f"the host revokes session {shown(change.session_id)}"
    if isinstance(change, RemoveDestination):
        return f"destination {shown(change.destination_id)} is removed from the configuration"
    if isinstance(change, EditCase):
        return f"case {shown(change.case_id)} now holds other content (never read by a decision  [G001.16])"
    if isinstance(change, EditRunbook):
        return f"runbook {shown(change.runbook_id)} now holds other content (never read by a decision  [G001.16])"
    assert isinstance(change, AdvanceClock)
    return f"the clock advances {change.seconds} second{'' if change.seconds == 1 else 's'}"


def explain_gateway_steps(scenario: GatewayScenario) -> list[ExplainedStep]:
    """Each step of a gateway scenario explained, with its result as the outcome has it."""
    steps, before = [], GatewayState(scenario.world)  # the state as the step finds it
    for number, (step, trace, after) in enumerate(trace_gateway_scenario(scenario)):
        if trace is None:
            steps.append(ExplainedStep(number, CHANGE_OPS[type(step)], describe_change(step), [], {"op": CHANGE_OPS[type(step)]}))
        else:
            says, applied = explain_call(step, trace, scenario.rules, before)
            steps.append(ExplainedStep(number, "call", says, applied, call_result(step, trace)))
        before = after
    return steps
