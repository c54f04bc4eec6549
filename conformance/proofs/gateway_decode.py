"""Abstract gateway calls as gateway scenario documents carrying their catalog, and the verdicts a replayed outcome shows.

Each call gets a document of its own, so the facts of one never meet
another's: its catalog inline, one session ``s-1`` of user ``ana`` in
tenant ``acme``, one stored case and one destination whose records make
the call's facts true or false, and the call itself, naming the case and
the destination only when its facts say they exist.
"""

from __future__ import annotations

from gateproof.model.gateway.catalog import catalog_document
from gateproof.model.gateway.lab import SUPERVISOR_ROLE, SUPPORT_ROLE

from .catalog_space import catalog_of
from .gateway_call import DECLARED_KEYS, FORGED_FIELD, FORGED_KEY, REASONS, UNKNOWN_TOOL, GatewayCall, GatewayVerdict

USER, OTHER_USER, TENANT, OTHER_TENANT = "ana", "bo", "acme", "globex"
CASE, MISSING_CASE, DESTINATION, MISSING_DESTINATION = "case-1", "case-missing", "dest-1", "dest-missing"
#: A tool no generated catalog declares.
UNKNOWN_NAME = "delete_case"
#: A value that is no identifier string, and one that is no integer: G001.5 refuses them without coercion.
NOT_AN_IDENTIFIER, NOT_AN_INTEGER = 7, "seven"


def _key_name(key: int) -> str:
    if key < FORGED_KEY:
        return DECLARED_KEYS[key]
    return FORGED_FIELD if key == FORGED_KEY else f"field_{key}"


def _amount(tool, name: str, above: bool) -> int:
    """A value at or strictly above the tool's approval threshold for ``name``, as ``above`` says; any small number where it has none."""
    thresholds = [a.above for a in (tool.approvals if tool else ()) if a.when == "argument_above" and a.argument == name]
    return (thresholds[0] + 1 if above else thresholds[0]) if thresholds else 1


def _value(call: GatewayCall, tool, key: int, ok: bool, above: bool):
    name = _key_name(key)
    declared = {argument.name: argument for argument in tool.arguments} if tool else {}
    if name not in declared:
        return "admin"
    if declared[name].type == "integer":
        return _amount(tool, name, above) if ok else NOT_AN_INTEGER
    if not ok:
        return NOT_AN_IDENTIFIER
    if name == tool.record_argument:
        return CASE if call.case_exists else MISSING_CASE
    return DESTINATION if call.destination_configured else MISSING_DESTINATION


def _arguments(call: GatewayCall, tool):
    fields = {
        _key_name(key): _value(call, tool, key, ok, above)
        for key, present, ok, above in zip(call.keys, call.present, call.values_ok, call.above)
        if present
    }
    return fields if call.arguments_object else list(fields.values())


def call_document(title: str, claim: str, rules_name: str, call: GatewayCall, description: str, number: int) -> dict:
    catalog = catalog_of(call.catalog[:call.tools])
    tool = None if call.tool == UNKNOWN_TOOL else catalog.tools[call.tool]
    roles = [role for role, held in ((SUPPORT_ROLE, call.holds_role), (SUPERVISOR_ROLE, call.holds_reader)) if held]
    return {
        "gateproof": 1,
        "kind": "gateway",
        "id": f"counterexample/{title}/{rules_name}/call-{number}",
        "description": f"A counterexample to {title} ({claim}) under {description}, with the catalog {catalog.id}.",
        "rules": "lab-001",
        "catalog": catalog_document(catalog),
        "world": {
            "sessions": [{"id": "s-1", "user": USER, "tenant": TENANT, "roles": roles, "valid": call.session_valid}],
            "cases": [{
                "id": CASE, "tenant": TENANT if call.same_tenant else OTHER_TENANT,
                "assignees": [USER] if call.assigned else [OTHER_USER], "content": "stored case content",
            }],
            "destinations": [{"id": DESTINATION, "internal": call.destination_internal}] if call.destination_configured else [],
        },
        "steps": [{"op": "call", "session": "s-1", "tool": UNKNOWN_NAME if tool is None else tool.name, "arguments": _arguments(call, tool)}],
    }


def gateway_documents(title: str, claim: str, semantics, calls: tuple[GatewayCall, ...]) -> list[tuple[dict, list[int]]]:
    """One gateway scenario per call."""
    if semantics.is_model_version:
        description = "the model's lab-001 gateway, so decide shows it"
    else:
        description = f"the wrong gateway {semantics.name} ({semantics.description}); replay it with decide --rules {semantics.name}"
    return [(call_document(title, claim, semantics.name, call, description, index + 1), [index]) for index, call in enumerate(calls)]


def gateway_verdicts_of(outcome: dict) -> list[tuple[GatewayVerdict]]:
    """The verdict of the call of each document's one call step."""
    (result,) = [result for result in outcome["results"] if result["op"] == "call"]
    reason = REASONS.index(result["reason"])
    return [(GatewayVerdict(reason, result["decision"] == "allow"),)]
