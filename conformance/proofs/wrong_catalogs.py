"""Deliberately wrong gateways that misread a catalog: each refutes a gateway invariant over some generated catalog.

As in ``wrong_gateways``, each variant is its reason for an abstract call
and a runner that decides a scenario document as that gateway would; each
runner rewrites the document's catalog (the lab's where it names none) so
the model's own rules give the wrong gateway's answer.
"""

from __future__ import annotations

import copy

from gateproof.model.gateway.arguments import first_failed_reason
from gateproof.model.gateway.catalog import catalog_document
from gateproof.model.gateway.catalog_checks import ANY_ROLE
from gateproof.model.gateway.lab import LAB_CATALOG
from gateproof.model.scenario import read_scenario, run_scenario

from .gateway_call import lab_checks, lacks, tool_is
from .send import WRONG_PREFIX, Semantics


def _names_a_record_or_destination(tool, argument) -> bool:
    return argument.name in (tool.record_argument, tool.destination)


def skips_role_for_retrievals_reason(call, ops):
    """The role is checked for tools with a side effect only, as if every retrieval were open to any role."""
    listed = tool_is(call, lambda tool: tool.has_side_effect and ANY_ROLE not in tool.roles, ops)
    return first_failed_reason(lab_checks(call, ops, role_checked=listed), ops)


def _retrievals_open(tool: dict) -> None:
    if tool["effect"] == "retrieval":
        tool["roles"] = [ANY_ROLE]


def approves_argument_above_reason(call, ops):
    """Under lab-001 an argument_above approval is never asked, so an amount above it passes."""
    return first_failed_reason(lab_checks(call, ops, approval=()), ops)


def _no_argument_above(tool: dict) -> None:
    kept = [approval for approval in tool.pop("approvals", ()) if approval["when"] != "argument_above"]
    if kept:
        tool["approvals"] = kept


def optional_taken_as_required_reason(call, ops):
    """Every declared argument is taken as required, so a call leaving out an optional one is refused as missing_argument."""
    return first_failed_reason(lab_checks(call, ops, no_missing=ops.Not(lacks(call, lambda tool, argument: True, ops))), ops)


def _every_argument_required(tool: dict) -> None:
    for argument in tool["arguments"]:
        argument.pop("required", None)


def required_taken_as_optional_reason(call, ops):
    """A required argument that names no record or destination is taken as optional, so a call may leave it out."""
    naming = ops.Not(lacks(call, lambda tool, argument: argument.required and _names_a_record_or_destination(tool, argument), ops))
    return first_failed_reason(lab_checks(call, ops, no_missing=naming), ops)


def _only_names_required(tool: dict) -> None:
    for argument in tool["arguments"]:
        if argument["name"] not in (tool["record"]["argument"], tool.get("destination")):
            argument["required"] = False


def _rewriting_tools(rewrite):
    """A runner deciding the document by the model with ``rewrite`` applied to every tool of its catalog."""
    def run(document: dict) -> dict:
        rewritten = copy.deepcopy(document)
        catalog = rewritten.setdefault("catalog", catalog_document(LAB_CATALOG))
        for tool in catalog["tools"]:
            rewrite(tool)
        outcome = run_scenario(read_scenario(rewritten))
        return {**outcome, "rules": document.get("rules", "lab-001")}

    return run


def _variant(name: str, reason, rewrite) -> Semantics:
    return Semantics(WRONG_PREFIX + name, description=" ".join(reason.__doc__.split()), gateway_reason=reason, runner=_rewriting_tools(rewrite))


WRONG_CATALOG_GATEWAYS: dict[str, Semantics] = {
    variant.name: variant
    for variant in (
        _variant("skips-role-for-retrievals", skips_role_for_retrievals_reason, _retrievals_open),
        _variant("approves-argument-above", approves_argument_above_reason, _no_argument_above),
        _variant("optional-taken-as-required", optional_taken_as_required_reason, _every_argument_required),
        _variant("required-taken-as-optional", required_taken_as_optional_reason, _only_names_required),
    )
}
