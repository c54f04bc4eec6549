"""An explained trace of every gateway call: each check in precedence order, the reason, the effects, the audit.

It reads the same :class:`CallTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

import json

from gateproof.model.gateway.changes import AdvanceClock, EditCase, EditRunbook, ReassignCase, RemoveDestination, RevokeSession
from gateproof.model.gateway.gate import Call, CallTrace
from gateproof.model.gateway.scenario import GatewayScenario, trace_gateway_scenario


def _brief(value: object) -> str:
    """A proposal's value as JSON, cut short: the explanation must stay readable whatever the model wrote."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 80 else text[:77] + "..."


def _check_lines(checks, heading: str) -> list[str]:
    lines = [f"  {heading}"]
    for check in checks:
        verdict = "passed" if check.passed else f"FAILED -> {check.reason}"
        lines.append(f"    {check.name:<58} {verdict}  [{check.rule}]")
    if checks and not checks[-1].passed:
        lines.append("    (the first failure is the reason; nothing after it is consulted)  [G001.13]")
    return lines


def explain_call(call: Call, trace: CallTrace, rules_name: str) -> list[str]:
    lines = [f"call {_brief(call.tool)} under session {call.session!r}", f"  arguments as proposed: {_brief(call.arguments)}"]
    if trace.replayed:
        lines.append(f"  idempotency key {call.idempotency_key!r} already bound to this action: answered as before, nothing recorded  [G002.2]")
    lines += _check_lines(trace.checks, f"checks in precedence order (rules {rules_name})")
    if call.before_write:
        lines.append(f"  {len(call.before_write)} change(s) land between the check and the write")
        if not trace.write_checks and rules_name == "lab-001":
            lines.append("    lab-001 checks once: the write goes ahead on the state as checked")
    if trace.write_checks:
        lines += _check_lines(trace.write_checks, "re-checked at the write  [G002.1]")
    told = f" (the caller is told {trace.caller_reason})  [G001.10]" if trace.caller_reason != trace.reason else ""
    lines.append(f"  decision: {trace.decision}; reason {trace.reason}{told}; stage {trace.stage}")
    for export in trace.exports:
        lines.append(f"  export: case {export['case_id']} to {export['destination_id']}, payload of {len(export['payload'])} characters read from storage  [G001.14]")
    for read in trace.reads:
        lines.append(f"  read: case {read['case_id']} served  [G001.12]")
    if not trace.exports and not trace.reads:
        lines.append("  effects: none")
    audit = ", ".join(f"{key}={value}" for key, value in trace.audit.items())
    lines.append(f"  audit: {audit}  [G001.15]")
    return lines


def describe_change(change) -> str:
    if isinstance(change, ReassignCase):
        return f"case {change.case_id} reassigned to {sorted(change.assignees) or 'nobody'}"
    if isinstance(change, RevokeSession):
        return f"the host revokes session {change.session_id}"
    if isinstance(change, RemoveDestination):
        return f"destination {change.destination_id} is removed from the configuration"
    if isinstance(change, EditCase):
        return f"case {change.case_id} now holds other content (never read by a decision  [G001.16])"
    if isinstance(change, EditRunbook):
        return f"runbook {change.runbook_id} now holds other content (never read by a decision  [G001.16])"
    assert isinstance(change, AdvanceClock)
    return f"the clock advances {change.seconds} seconds"


def explain_gateway_scenario(scenario: GatewayScenario) -> str:
    lines = [f"gateway scenario {scenario.id} under rules {scenario.rules.name}"]
    if scenario.description:
        lines.append(f"  {scenario.description}")
    for number, (step, trace, _) in enumerate(trace_gateway_scenario(scenario), 1):
        body = explain_call(step, trace, scenario.rules.name) if trace else [describe_change(step)]
        lines += ["", f"step {number}: {body[0]}"] + body[1:]
    return "\n".join(lines)
