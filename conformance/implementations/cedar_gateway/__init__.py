"""An independent implementation of the lab-001 gateway whose authorization is decided by Cedar.

``policies.cedar`` decides every condition on a stored case (session, role,
destination, tenant, assignment, the read rule). Three things Cedar cannot
express stay here, in plain sight: the shape of a proposal's arguments (Cedar
sees only typed entities, never raw JSON), whether the named case exists (a
storage lookup that precedes building the request), and which of several
failed conditions is reported (Cedar answers a set, the rules an order).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import cedarpy

from gateproof.model.scenario.document import RepeatedKeys

HERE = Path(__file__).resolve().parent
TOOLS = {"export_case": ("case_id", "destination_id"), "read_case": ("case_id",)}
MAX_LENGTH = 128
#: The order in which a failed condition is reported (adr/gateway.md); kept outside Cedar.
PRECEDENCE = (
    "session_invalid", "role_denied", "destination_denied", "case_not_found", "tenant_mismatch", "not_assigned",
)
RULES = {"session_invalid": "G001.6", "role_denied": "G001.7", "destination_denied": "G001.8", "case_not_found": "G001.9", "tenant_mismatch": "G001.10"}


@cache
def policies() -> cedarpy.PolicySet:
    return cedarpy.PolicySet.from_str((HERE / "policies.cedar").read_text(encoding="utf-8"))


@cache
def annotations() -> dict[str, dict]:
    """Policy id (as Cedar numbers them) to its annotations: the reason and rule a forbid stands for."""
    text = (HERE / "policies.cedar").read_text(encoding="utf-8")
    parsed = json.loads(cedarpy.policies_to_json_str(text))
    return {pid: policy["annotations"] for pid, policy in parsed["staticPolicies"].items()}


def repeats_a_key(value) -> bool:
    """Whether the value, or an object or array anywhere in it, holds an object whose text wrote a key twice."""
    if isinstance(value, RepeatedKeys) and len(value.pairs) > len(value):
        return True
    children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return any(repeats_a_key(child) for child in children)


def shape_failure(tool, arguments) -> tuple[str, str] | None:
    """Argument-shape validation, outside the policy: the reason and rule of the first failure, or None."""
    if not (isinstance(tool, str) and tool in TOOLS):
        return "unknown_tool", "G001.1"
    if not isinstance(arguments, dict):
        return "malformed_input", "G001.2"
    if repeats_a_key(arguments):
        return "malformed_input", "G001.17"
    declared = TOOLS[tool]
    if any(key not in declared for key in arguments):
        return "extra_arguments", "G001.3"
    if any(name not in arguments for name in declared):
        return "missing_argument", "G001.4"
    if not all(isinstance(arguments[n], str) and 0 < len(arguments[n]) <= MAX_LENGTH for n in declared):
        return "malformed_input", "G001.5"
    return None


def _uid(kind: str, ident: str) -> dict:
    return {"type": f"Gateway::{kind}", "id": ident}


def entities(world: dict, session: dict) -> list[dict]:
    """The Cedar entities of one request: the session's user, every case and configured destination."""
    user = {"uid": _uid("User", session["user"]), "attrs": {"tenant": session["tenant"], "valid": session.get("valid", True)},
            "parents": [_uid("Role", role) for role in session.get("roles", [])]}
    cases = [{"uid": _uid("Case", c["id"]), "attrs": {"tenant": c["tenant"], "assignees": [{"__entity": _uid("User", a)} for a in c.get("assignees", [])]},
              "parents": []} for c in world["cases"].values()]
    destinations = [{"uid": _uid("Destination", d["id"]), "attrs": {},
                     "parents": [_uid("DestinationGroup", "internal")] if d["internal"] else []} for d in world["destinations"].values()]
    return [user] + cases + destinations


def authorize(world: dict, session: dict, tool: str, arguments: dict) -> tuple[str, str | None]:
    """Cedar's decision on a well-formed call, reported as the first failed condition in PRECEDENCE order."""
    context = {"destination": {"__entity": _uid("Destination", arguments["destination_id"])}} if tool == "export_case" else {}
    request = {"principal": _uid("User", session["user"]), "action": _uid("Action", tool), "resource": _uid("Case", arguments["case_id"]), "context": context}
    result = cedarpy.is_authorized(request, policies(), entities(world, session))
    failed = {annotations()[pid]["reason"]: annotations()[pid].get("rule") for pid in result.diagnostics.reasons if annotations()[pid]["reason"] != "allowed"}
    if arguments["case_id"] not in world["cases"]:
        failed["case_not_found"] = "G001.9"
    for reason in PRECEDENCE:
        if reason in failed:
            return reason, failed[reason]
    if not result.allowed:
        raise RuntimeError(f"Cedar denied without a determining forbid: {result.diagnostics.errors}")
    return "allowed", None


def _named(arguments, name: str, index: dict):
    value = arguments.get(name) if isinstance(arguments, dict) and not repeats_a_key(arguments) else None
    return value if isinstance(value, str) and value in index else None


def decide(world: dict, step: dict) -> dict:
    session = world["sessions"][step["session"]]
    tool, arguments = step["tool"], step["arguments"]
    failure = shape_failure(tool, arguments)
    reason, rule = failure if failure else authorize(world, session, tool, arguments)
    audit = {
        "decision": "allow" if reason == "allowed" else "deny", "reason": reason,
        "tool": tool if isinstance(tool, str) and tool in TOOLS else None, "user": session["user"], "tenant": session["tenant"],
        "case_id": _named(arguments, "case_id", world["cases"]), "destination_id": _named(arguments, "destination_id", world["destinations"]),
        "stage": "check", "replayed": False,
    }
    for change in step.get("before_write", []):
        apply(world, change)
    exports, reads = [], []
    if reason == "allowed" and tool == "export_case":
        case = world["cases"][arguments["case_id"]]
        exports.append({"case_id": case["id"], "destination_id": arguments["destination_id"], "tenant": case["tenant"], "payload": case.get("content", "")})
    elif reason == "allowed":
        reads.append({"case_id": arguments["case_id"]})
    return {
        "op": "call", "session": step["session"], "decision": audit["decision"], "reason": reason,
        "caller_reason": "case_not_found" if reason == "tenant_mismatch" else reason, "rule": rule,
        "stage": "check", "replayed": False, "exports": exports, "reads": reads, "audit": audit,
    }


def apply(world: dict, change: dict) -> None:
    """A world change, in place on this implementation's own copy of the world."""
    op = change["op"]
    if op == "reassign_case":
        world["cases"][change["case_id"]]["assignees"] = list(change["assignees"])
    elif op == "revoke_session":
        world["sessions"][change["session"]]["valid"] = False
    elif op == "remove_destination":
        world["destinations"].pop(change["destination_id"], None)
    elif op == "edit_case":
        world["cases"][change["case_id"]]["content"] = change["content"]


def run(scenario: dict) -> dict:
    """The outcome document of a lab-001 gateway scenario, decided by Cedar."""
    rules = scenario.get("rules", "lab-001")
    if rules != "lab-001":
        raise ValueError(f"the Cedar gateway implements lab-001 only, not {rules!r}")
    given = scenario["world"]
    world = {
        "sessions": {s["id"]: dict(s) for s in given["sessions"]},
        "cases": {c["id"]: dict(c) for c in given.get("cases", [])},
        "destinations": {d["id"]: dict(d) for d in given.get("destinations", [])},
    }
    results = []
    for step in scenario["steps"]:
        if step["op"] == "call":
            results.append(decide(world, step))
        else:
            apply(world, step)
            results.append({"op": step["op"]})
    return {"gateproof": 1, "scenario": scenario["id"], "rules": rules, "results": results}
