"""The unsafe baseline of lab ADR-001: a gateway that does what the proposal says.

It knows the tools and reads the payload from storage, but it takes the
proposal's word for everything else: any destination, any tenant's case, any
role, extra fields claiming authority. The conformance suite must catch it on
the attack corpus; on a benign call it answers as the model does.
"""

from __future__ import annotations

TOOLS = {"export_case": ("case_id", "destination_id"), "read_case": ("case_id",)}


def decide(world: dict, step: dict) -> dict:
    session = world["sessions"][step["session"]]
    tool, arguments = step["tool"], step["arguments"]
    known = isinstance(tool, str) and tool in TOOLS
    case_id = arguments.get("case_id") if isinstance(arguments, dict) else None
    if not known:
        reason, rule = "unknown_tool", "G001.1"
    elif not isinstance(arguments, dict) or not all(isinstance(arguments.get(n), str) for n in TOOLS[tool]):
        reason, rule = "malformed_input", "G001.2"
    elif case_id not in world["cases"]:
        reason, rule = "case_not_found", "G001.9"
    else:
        reason, rule = "allowed", None
    exports, reads = [], []
    if reason == "allowed" and tool == "export_case":
        case = world["cases"][case_id]
        exports.append({"case_id": case_id, "destination_id": arguments["destination_id"], "tenant": case["tenant"], "payload": case.get("content", "")})
    elif reason == "allowed":
        reads.append({"case_id": case_id})
    destination = arguments.get("destination_id") if isinstance(arguments, dict) else None
    audit = {
        "decision": "allow" if reason == "allowed" else "deny", "reason": reason, "tool": tool if known else None,
        "user": session["user"], "tenant": session["tenant"],
        "case_id": case_id if isinstance(case_id, str) and case_id in world["cases"] else None,
        "destination_id": destination if isinstance(destination, str) and destination in world["destinations"] else None,
        "stage": "check", "replayed": False,
    }
    return {
        "op": "call", "session": step["session"], "decision": audit["decision"], "reason": reason, "caller_reason": reason,
        "rule": rule, "stage": "check", "replayed": False, "exports": exports, "reads": reads, "audit": audit,
    }


def run(scenario: dict) -> dict:
    """The baseline's outcome document; of the world changes only edited content matters to a gateway that checks nothing."""
    given = scenario["world"]
    world = {
        "sessions": {s["id"]: s for s in given["sessions"]},
        "cases": {c["id"]: c for c in given.get("cases", [])},
        "destinations": {d["id"]: d for d in given.get("destinations", [])},
    }
    results = []
    for step in scenario["steps"]:
        if step["op"] == "edit_case":
            world["cases"][step["case_id"]] = dict(world["cases"][step["case_id"]], content=step["content"])
        results.append(decide(world, step) if step["op"] == "call" else {"op": step["op"]})
    return {"gateproof": 1, "scenario": scenario["id"], "rules": scenario.get("rules", "lab-001"), "results": results}
