"""Right but in two ways: every call's audit record writes the tenant in capitals, and a supervisor may read another tenant's case.

The capitals make every gateway scenario disagree for one cause, none of them
a security fault (the outcome schema allows no renamed field, so a value is
rewritten instead); the cross-tenant read, allowed where the model denies it
as ``tenant_mismatch`` (G001.10), is its one security fault, hidden among
them. Ceiling scenarios it answers right.
"""

from fake import right, serve


def answer(seq: int, scenario: dict) -> list[dict]:
    reply = right(seq, scenario)
    if scenario.get("kind") != "gateway":
        return [reply]
    roles = {session["id"]: session.get("roles", []) for session in scenario["world"]["sessions"]}
    for step, result in zip(scenario["steps"], reply["outcome"]["results"]):
        if result["op"] != "call":
            continue
        if step["tool"] == "read_case" and result["reason"] == "tenant_mismatch" and "supervisor" in roles[step["session"]]:
            result.update(decision="allow", reason="allowed", caller_reason="allowed", rule=None, reads=[{"case_id": step["arguments"]["case_id"]}])
            result["audit"].update(decision="allow", reason="allowed")
        result["audit"]["tenant"] = result["audit"]["tenant"].upper()
    return [reply]


serve("shouts-tenant-reads-across", answer)
