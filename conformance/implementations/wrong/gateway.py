"""Deliberately wrong gateways: each gateway invariant of the proofs must fail under at least one of them.

Each variant decides a gateway scenario document as that gateway would,
and its reason for an abstract call is encoded beside the proofs
(``gateproof.conformance.proofs.wrong``). The runners never patch the
model: the unsafe baseline is its own implementation, and the others
rewrite the document so the model's own rules give the wrong gateway's
answer, which leaves them safe to run from several threads at once.
"""

from __future__ import annotations

import copy

from gateproof.model.scenario import read_scenario, run_scenario

from .. import unsafe_gateway
from .variant import WRONG_PREFIX, Variant

#: The field a forged approval is sent in, and the key the gateway's schema would give it.
FORGED_FIELD = "approved_by"


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


def _assigning_everyone(document: dict) -> dict:
    rewritten = copy.deepcopy(document)
    users = sorted({session["user"] for session in rewritten["world"]["sessions"]})
    for case in rewritten["world"].get("cases", ()):
        case["assignees"] = sorted({*case.get("assignees", ()), *users})
    return rewritten


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


def _variant(name: str, description: str, runner) -> Variant:
    return Variant(WRONG_PREFIX + name, description=description, runner=runner)


WRONG_GATEWAYS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        _variant("unsafe-gateway", "The unsafe baseline: one of the lab's tools, whatever the catalog, string values for the declared fields and a stored case are all it asks.",
                 unsafe_gateway.run),
        _variant("trusts-forged-authority", f"An {FORGED_FIELD} field is accepted, and taken as granting the support role.",
                 _through_model(_trusting_forged_authority)),
        _variant("skips-assignment", "The assignment is never checked: every session counts as assigned to every case.",
                 _through_model(_assigning_everyone)),
        _variant("approval-for-every-export", "Every export needs a recorded approval, internal destinations too, so an export the rules allow is refused.",
                 _through_model(_every_destination_external)),
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
WRONG_RECORDS: dict[str, Variant] = {
    WRONG_PREFIX + "logs-case-content": Variant(
        WRONG_PREFIX + "logs-case-content", description=_logging_case_content.__doc__, runner=_logging_case_content,
    ),
}
