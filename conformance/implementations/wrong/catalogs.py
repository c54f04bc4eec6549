"""Deliberately wrong gateways that misread a catalog: each refutes a gateway invariant over some generated catalog.

Each decides a scenario document as that gateway would: it rewrites the
document's catalog (the lab's where it names none) so the model's own rules
give the wrong gateway's answer. Their reasons for an abstract call are
encoded beside the proofs (``gateproof.conformance.proofs.wrong``).
"""

from __future__ import annotations

import copy

from gateproof.model.gateway.catalog import catalog_document
from gateproof.model.gateway.catalog_checks import ANY_ROLE
from gateproof.model.gateway.lab import LAB_CATALOG
from gateproof.model.scenario import read_scenario, run_scenario

from .variant import WRONG_PREFIX, Variant


def _retrievals_open(tool: dict) -> None:
    if tool["effect"] == "retrieval":
        tool["roles"] = [ANY_ROLE]


def _no_argument_above(tool: dict) -> None:
    kept = [approval for approval in tool.pop("approvals", ()) if approval["when"] != "argument_above"]
    if kept:
        tool["approvals"] = kept


def _every_argument_required(tool: dict) -> None:
    for argument in tool["arguments"]:
        argument.pop("required", None)


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


def _variant(name: str, description: str, rewrite) -> Variant:
    return Variant(WRONG_PREFIX + name, description=description, runner=_rewriting_tools(rewrite))


WRONG_CATALOG_GATEWAYS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        _variant("skips-role-for-retrievals", "The role is checked for tools with a side effect only, as if every retrieval were open to any role.",
                 _retrievals_open),
        _variant("approves-argument-above", "Under lab-001 an argument_above approval is never asked, so an amount above it passes.",
                 _no_argument_above),
        _variant("optional-taken-as-required",
                 "Every declared argument is taken as required, so a call leaving out an optional one is refused as missing_argument.",
                 _every_argument_required),
        _variant("required-taken-as-optional",
                 "A required argument that names no record or destination is taken as optional, so a call may leave it out.",
                 _only_names_required),
    )
}
