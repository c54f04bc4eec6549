"""Abstract gateway calls as gateway scenario documents, and the verdicts a replayed outcome shows.

Each call gets a world of its own, so the facts of one never meet another's:
one session ``s-1`` of user ``ana`` in tenant ``acme``, one stored case and
one destination whose records make the call's facts true or false, and the
call itself, naming the case and the destination only when its facts say
they exist.
"""

from __future__ import annotations

from .gateway_call import (
    CASE_KEY, DECLARED_KEYS, DESTINATION_KEY, FORGED_FIELD, FORGED_KEY, REASONS, TOOL_NAMES, UNKNOWN_TOOL,
    GatewayCall, GatewayVerdict,
)

USER, OTHER_USER, TENANT, OTHER_TENANT = "ana", "bo", "acme", "globex"
CASE, MISSING_CASE, DESTINATION, MISSING_DESTINATION = "case-1", "case-missing", "dest-1", "dest-missing"
#: A value that is no identifier string: G001.5 refuses it without coercion.
NOT_AN_IDENTIFIER = 7


def _key_name(key: int) -> str:
    if key < FORGED_KEY:
        return DECLARED_KEYS[key]
    return FORGED_FIELD if key == FORGED_KEY else f"field_{key}"


def _value(call: GatewayCall, key: int, ok: bool):
    if not ok:
        return NOT_AN_IDENTIFIER
    if key == CASE_KEY:
        return CASE if call.case_exists else MISSING_CASE
    if key == DESTINATION_KEY:
        return DESTINATION if call.destination_configured else MISSING_DESTINATION
    return "admin"


def _arguments(call: GatewayCall):
    fields = {
        _key_name(key): _value(call, key, ok)
        for key, present, ok in zip(call.keys, call.present, call.values_ok)
        if present
    }
    return fields if call.arguments_object else list(fields.values())


def call_document(title: str, claim: str, rules_name: str, call: GatewayCall, description: str, number: int) -> dict:
    roles = [role for role, held in (("support", call.support), ("supervisor", call.supervisor)) if held]
    return {
        "gateproof": 1,
        "kind": "gateway",
        "id": f"counterexample/{title}/{rules_name}/call-{number}",
        "description": f"A counterexample to {title} ({claim}) under {description}.",
        "rules": "lab-001",
        "world": {
            "sessions": [{"id": "s-1", "user": USER, "tenant": TENANT, "roles": roles, "valid": call.session_valid}],
            "cases": [{
                "id": CASE, "tenant": TENANT if call.same_tenant else OTHER_TENANT,
                "assignees": [USER] if call.assigned else [OTHER_USER], "content": "stored case content",
            }],
            "destinations": [{"id": DESTINATION, "internal": call.destination_internal}] if call.destination_configured else [],
        },
        "steps": [{
            "op": "call", "session": "s-1",
            "tool": "delete_case" if call.tool == UNKNOWN_TOOL else TOOL_NAMES[call.tool],
            "arguments": _arguments(call),
        }],
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
