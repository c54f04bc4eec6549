"""A tool-call gateway for lab-001 written from adr/gateway.md alone, sharing no code with the model.

It is what a team adopting the lab's rules might write: plain dictionaries,
the reason table checked top to bottom, the first failing check reported.
"""

from __future__ import annotations

import copy

TOOLS = {"export_case": ("case_id", "destination_id"), "read_case": ("case_id",)}
CALLER_REASONS = {"tenant_mismatch": "case_not_found"}


def _identifier(value) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= 128


def _writes_a_key_twice(value) -> bool:
    """G001.17: an object whose pairs name a key twice, at any depth; such an object's ``items()`` answers every pair written."""
    if isinstance(value, dict):
        pairs = list(value.items())
        return len(pairs) != len(value) or any(_writes_a_key_twice(child) for _, child in pairs)
    return isinstance(value, list) and any(_writes_a_key_twice(child) for child in value)


def _reason(world: dict, session: dict, tool, arguments) -> tuple[str, str | None]:
    """(reason, rule) of the first check in the reason table that fails; ("allowed", None) when none does."""
    if not isinstance(tool, str) or tool not in TOOLS:
        return "unknown_tool", "G001.1"
    if not isinstance(arguments, dict):
        return "malformed_input", "G001.2"
    if _writes_a_key_twice(arguments):
        return "malformed_input", "G001.17"
    declared = TOOLS[tool]
    if any(name not in declared for name in arguments):
        return "extra_arguments", "G001.3"
    if any(name not in arguments for name in declared):
        return "missing_argument", "G001.4"
    if not all(_identifier(arguments[name]) for name in declared):
        return "malformed_input", "G001.5"
    if not session.get("valid", True):
        return "session_invalid", "G001.6"
    roles = session.get("roles", [])
    if tool == "export_case":
        if "support" not in roles:
            return "role_denied", "G001.7"
        destination = next((d for d in world.get("destinations", []) if d["id"] == arguments["destination_id"]), None)
        if destination is None or not destination["internal"]:
            return "destination_denied", "G001.8"
    case = next((c for c in world.get("cases", []) if c["id"] == arguments["case_id"]), None)
    if case is None:
        return "case_not_found", "G001.9"
    if case["tenant"] != session["tenant"]:
        return "tenant_mismatch", "G001.10"
    assigned = session["user"] in case.get("assignees", [])
    if tool == "export_case" and not assigned:
        return "not_assigned", "G001.11"
    if tool == "read_case" and not (assigned or "supervisor" in roles):
        return "not_assigned", "G001.12"
    return "allowed", None


def _change(world: dict, change: dict) -> None:
    op = change["op"]
    cases = {c["id"]: c for c in world.get("cases", [])}
    if op == "reassign_case":
        cases[change["case_id"]]["assignees"] = list(change["assignees"])
    elif op == "revoke_session":
        next(s for s in world["sessions"] if s["id"] == change["session"])["valid"] = False
    elif op == "remove_destination":
        world["destinations"] = [d for d in world.get("destinations", []) if d["id"] != change["destination_id"]]
    elif op == "edit_case":
        cases[change["case_id"]]["content"] = change["content"]
    elif op == "edit_runbook":
        for runbook in world.get("runbooks", []):
            if runbook["id"] == change["runbook_id"]:
                runbook["content"] = change["content"]
    elif op == "advance_clock":
        world["clock"] = world.get("clock", 0) + change["seconds"]


def _named(world: dict, arguments, name: str, records: str) -> str | None:
    if _writes_a_key_twice(arguments):
        return None  # which of the two values is meant is what cannot be known
    value = arguments.get(name) if isinstance(arguments, dict) else None
    known = {r["id"] for r in world.get(records, [])}
    return value if isinstance(value, str) and value in known else None


def _call(world: dict, step: dict) -> dict:
    session = next(s for s in world["sessions"] if s["id"] == step["session"])
    tool, arguments = step["tool"], step["arguments"]
    reason, rule = _reason(world, session, tool, arguments)
    audit = {
        "decision": "allow" if reason == "allowed" else "deny", "reason": reason,
        "tool": tool if isinstance(tool, str) and tool in TOOLS else None,
        "user": session["user"], "tenant": session["tenant"],
        "case_id": _named(world, arguments, "case_id", "cases"),
        "destination_id": _named(world, arguments, "destination_id", "destinations"),
        "stage": "check", "replayed": False,
    }
    for change in step.get("before_write", []):  # the world moves on between the check and the write
        _change(world, change)
    exports, reads = [], []
    if reason == "allowed" and tool == "export_case":
        case = next(c for c in world["cases"] if c["id"] == arguments["case_id"])
        exports.append({"case_id": case["id"], "destination_id": arguments["destination_id"],
                        "tenant": case["tenant"], "payload": case.get("content", "")})
    elif reason == "allowed":
        reads.append({"case_id": arguments["case_id"]})
    return {
        "op": "call", "session": step["session"], "decision": audit["decision"], "reason": reason,
        "caller_reason": CALLER_REASONS.get(reason, reason), "rule": rule, "stage": "check", "replayed": False,
        "exports": exports, "reads": reads, "audit": audit,
    }


def run(scenario: dict) -> dict:
    """The outcome of a lab-001 gateway scenario: one result per step."""
    world = copy.deepcopy(scenario["world"])
    results = [_call(world, step) if step["op"] == "call" else (_change(world, step) or {"op": step["op"]}) for step in scenario["steps"]]
    return {"gateproof": 1, "scenario": scenario["id"], "rules": scenario.get("rules", "lab-001"), "results": results}
