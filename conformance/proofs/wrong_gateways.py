"""Deliberately wrong gateways: each gateway invariant must fail under at least one of them.

Each variant is two things kept side by side: its reason for an abstract
call (what the proofs search), and a runner that decides a gateway
scenario document as that gateway would (what a counterexample replays
through). The runners never patch the model: the unsafe baseline is its own
implementation, and the others rewrite the document so the model's own
rules give the wrong gateway's answer, which leaves them safe to run from
several threads at once.
"""

from __future__ import annotations

import copy

from gateproof.conformance.implementations import unsafe_gateway
from gateproof.model.scenario import read_scenario, run_scenario

from attrs import evolve

from gateproof.model.gateway.arguments import Check, first_failed_reason

from .gateway_call import (
    FORGED_FIELD, FORGED_KEY, declared_values_ok, facts_of_call, has_extra, has_field, has_missing, lab_checks, tool_is,
)
from .send import WRONG_PREFIX, Semantics


def unsafe_reason(call, ops):
    """The unsafe baseline: one of the lab's tools, whatever the catalog, string values for the declared fields and a stored case are all it asks."""
    return first_failed_reason((
        Check("G001.1", "unknown_tool", tool_is(call, lambda tool: tool.name in unsafe_gateway.TOOLS, ops)),
        Check("G001.2", "malformed_input",
              ops.And(call.arguments_object, ops.Not(has_missing(call, ops)), declared_values_ok(call, ops))),
        Check("G001.9", "case_not_found", call.case_exists),
    ), ops)


def forged_authority_reason(call, ops):
    """An ``approved_by`` field is accepted, and taken as granting the support role."""
    facts = facts_of_call(call, ops)
    facts = evolve(facts, support=ops.Or(facts.support, has_field(call, FORGED_KEY, ops)))
    no_extra = ops.Not(has_extra(call, ops, ignored=(FORGED_KEY,)))
    return first_failed_reason(lab_checks(call, ops, facts=facts, no_extra=no_extra), ops)


def _trusting_forged_authority(document: dict) -> dict:
    rewritten = copy.deepcopy(document)
    for step in rewritten["steps"]:
        arguments = step.get("arguments")
        if step["op"] == "call" and isinstance(arguments, dict) and FORGED_FIELD in arguments:
            del arguments[FORGED_FIELD]
            for session in rewritten["world"]["sessions"]:
                if session["id"] == step["session"]:
                    session["roles"] = sorted({*session.get("roles", ()), "support"})
    return rewritten


def skips_assignment_reason(call, ops):
    """The assignment is never checked: every session counts as assigned to every case."""
    return first_failed_reason(lab_checks(call, ops, facts=evolve(facts_of_call(call, ops), assigned=True)), ops)


def _assigning_everyone(document: dict) -> dict:
    rewritten = copy.deepcopy(document)
    users = sorted({session["user"] for session in rewritten["world"]["sessions"]})
    for case in rewritten["world"].get("cases", ()):
        case["assignees"] = sorted({*case.get("assignees", ()), *users})
    return rewritten


def approval_for_every_export_reason(call, ops):
    """Every export needs a recorded approval, internal destinations too, so an export the rules allow is refused."""
    destination = (
        Check("G001.8", "destination_denied", call.destination_configured),
        Check("G002.5", "approval_required", False),
    )
    return first_failed_reason(lab_checks(call, ops, destination=destination), ops)


def _every_destination_external(document: dict) -> dict:
    # The next checks ask an approval of an external destination only; with
    # every destination external and no approvals recorded, each export needs one.
    rewritten = copy.deepcopy(document)
    rewritten["rules"] = "lab-001+next"
    for destination in rewritten["world"].get("destinations", ()):
        destination["internal"] = False
    rewritten["world"]["approvals"] = []
    return rewritten


def _through_model(rewrite):
    def run(document: dict) -> dict:
        outcome = run_scenario(read_scenario(rewrite(document)))
        return {**outcome, "rules": document.get("rules", "lab-001")}

    return run


def _variant(name: str, reason, runner) -> Semantics:
    return Semantics(WRONG_PREFIX + name, description=" ".join(reason.__doc__.split()).replace("``", ""), gateway_reason=reason, runner=runner)


WRONG_GATEWAYS: dict[str, Semantics] = {
    variant.name: variant
    for variant in (
        _variant("unsafe-gateway", unsafe_reason, unsafe_gateway.run),
        _variant("trusts-forged-authority", forged_authority_reason, _through_model(_trusting_forged_authority)),
        _variant("skips-assignment", skips_assignment_reason, _through_model(_assigning_everyone)),
        _variant("approval-for-every-export", approval_for_every_export_reason, _through_model(_every_destination_external)),
    )
}


def _logging_case_content(document: dict) -> dict:
    """The audit record names the case with its content, so case text reaches the log."""
    outcome = run_scenario(read_scenario(document))
    contents = {case["id"]: case.get("content", "") for case in document["world"].get("cases", ())}
    for step, result in zip(document["steps"], outcome["results"]):
        if step["op"] == "edit_case":
            contents[step["case_id"]] = step["content"]
        audit = result.get("audit")
        if audit is not None and audit["case_id"] in contents:
            audit["case_id"] = f"{audit['case_id']}: {contents[audit['case_id']]}"
    return outcome


#: Wrong gateways whose defect is in what they record, not in what they decide. The proofs reason about
#: decisions, so no invariant refutes them: comparing outcomes (``gateproof verify``) catches them, and
#: ``decide --rules`` replays them.
WRONG_RECORDS: dict[str, Semantics] = {
    WRONG_PREFIX + "logs-case-content": Semantics(
        WRONG_PREFIX + "logs-case-content", description=_logging_case_content.__doc__, runner=_logging_case_content,
    ),
}

