"""An explained trace of every gateway call: each check in precedence order, the reason, the effects, the audit.

It reads the same :class:`CallTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

from gateproof.model.gateway.changes import AdvanceClock, EditCase, EditRunbook, ReassignCase, RemoveDestination, RevokeSession
from gateproof.model.gateway.gate import Call, CallTrace
from gateproof.model.gateway.scenario import CHANGE_OPS, GatewayScenario, call_result, trace_gateway_scenario

from .trace import Applied, ExplainedStep, shown


def _checks_applied(checks, id: str, says: str, rules: tuple[str, ...] = ()) -> Applied:
    lines = []
    for check in checks:
        verdict = "passed" if check.passed else f"FAILED -> {check.reason}"
        lines.append(f"{check.name:<58} {verdict}  [{check.rule}]")
    failed = bool(checks) and not checks[-1].passed
    if failed:
        lines.append("(the first failure is the reason; nothing after it is consulted)  [G001.13]")
    result = [{"check": c.name, "rule": c.rule, "passed": c.passed, "reason": None if c.passed else c.reason} for c in checks]
    return Applied(id, says, (*rules, *(("G001.13",) if failed else ())), lines, result=result)


def explain_call(call: Call, trace: CallTrace, rules_name: str) -> tuple[str, list[Applied]]:
    proposed = {"tool": call.tool, "arguments": call.arguments, "session": call.session}
    applied = [Applied("proposal", f"arguments as proposed: {shown(call.arguments)}", inputs=proposed)]
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
    return f"the clock advances {change.seconds} seconds"


def explain_gateway_steps(scenario: GatewayScenario) -> list[ExplainedStep]:
    """Each step of a gateway scenario explained, with its result as the outcome has it."""
    steps = []
    for number, (step, trace, _) in enumerate(trace_gateway_scenario(scenario)):
        if trace is None:
            steps.append(ExplainedStep(number, CHANGE_OPS[type(step)], describe_change(step), [], {"op": CHANGE_OPS[type(step)]}))
        else:
            says, applied = explain_call(step, trace, scenario.rules.name)
            steps.append(ExplainedStep(number, "call", says, applied, call_result(step, trace)))
    return steps
