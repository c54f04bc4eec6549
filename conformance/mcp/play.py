"""One gateway scenario played against an MCP server, and the outcome read from what the server showed (conformance/MCP.md).

The world and its changes go through the test hooks, each call through
``tools/call`` under its session's token, and each call's result is made from
the server's answer and the records it wrote for that call. What the server
does not show is never filled in from the model: a refusal no reason names,
or a call with other than one audit record, is a :class:`ServerFault`.
"""

from __future__ import annotations

import hashlib
import json

from gateproof.model.gateway.scenario import FORMAT_VERSION
from gateproof.model.scenario.document import RepeatedKeys

from ..harness.protocol import scenario_rules
from .connection import Server, ServerFault
from .refusals import RefusalMap, is_refusal, refusal_reason, schema, schema_problem, shown
from .tokens import BAD_TOKENS

#: The reasons a refusal may carry: the gateway's reason codes less ``allowed``.
REFUSAL_REASONS = frozenset(schema("refusal-map")["properties"]["refusals"]["items"]["properties"]["reason"]["enum"])
#: Where a call's idempotency key travels: set by the host, like the token, never by the model.
IDEMPOTENCY_KEY = "io.gateproof/idempotency-key"


def json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words."""
    if isinstance(value, RepeatedKeys):
        return "an object that writes a key twice"
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    return {dict: "an object", list: "an array", str: "a string"}.get(type(value), "a number")


def unsendable(scenario: dict) -> str | None:
    """Why a scenario cannot be played over MCP (a proposal a tools/call cannot carry), or None."""
    for step in scenario.get("steps", ()):
        if step.get("op") != "call":
            continue
        if not isinstance(step.get("tool"), str):
            return f"a call names its tool with {json_kind(step.get('tool'))}, which a tools/call cannot carry: it names a tool with a string"
        if not isinstance(step.get("arguments"), dict):
            return f"a call proposes {json_kind(step.get('arguments'))} as its arguments, which a tools/call cannot carry: they are an object"
    return None


def call_result(step: dict, answer, records: dict, refusals: RefusalMap, shows_rule: bool, writes: bool = False) -> dict:
    """S001.10's result of one call, from the server's answer and the records it wrote for the call; its ``writes`` too where the catalog has a write tool."""
    problem = schema_problem("records", records)
    if problem:
        raise ServerFault(f"gateproof/fixture/records answered a document that breaks records.json at {problem}")
    audits = records["audit"]
    if len(audits) != 1:
        raise ServerFault(f"the call wrote {len(audits)} audit records, where G001.15 writes one a call: {json.dumps(audits)[:400]}")
    audit = dict(audits[0])
    rule = audit.pop("rule", None)
    if is_refusal(answer):
        caller_reason = refusal_reason(answer, refusals, REFUSAL_REASONS)
        if caller_reason is None:
            raise ServerFault(f"a refusal that names no reason: {shown(answer)}. Declare what it means in a refusal map "
                              "(verify --mcp-map FILE, conformance/MCP.md, A refusal)")
    else:
        caller_reason = "allowed"
    result = {
        "op": "call", "session": step["session"], "decision": "deny" if is_refusal(answer) else "allow", "reason": audit["reason"],
        "caller_reason": caller_reason, "rule": rule if shows_rule else None, "stage": audit["stage"], "replayed": audit["replayed"],
        "exports": records["exports"], "reads": records["reads"], "audit": audit,
    }
    if writes:
        result["writes"] = records.get("writes", [])
    return result


#: What a call under a token that fails verification must not leave: it is no call of any session.
RECORDED = {"exports": "exports", "reads": "cases served", "audit": "audit records of a call"}


#: One generated scenario in this many is probed with a token that must fail (every other scenario is): a probe costs two
#: requests of the seven or so a scenario makes, and a campaign of thousands probes hundreds of times either way.
PROBED_ONE_IN = 4


def bad_token_kind(scenario_id: str) -> str | None:
    """Which token that must fail a scenario's probe carries, or None when it is not probed: chosen by the id, so a replay
    makes the same probe and a shrunk scenario, which keeps the id, too."""
    digest = hashlib.sha256(scenario_id.encode()).digest()
    if scenario_id.startswith("generated.") and digest[1] % PROBED_ONE_IN:
        return None
    return BAD_TOKENS[digest[0] % len(BAD_TOKENS)]


async def probe(server: Server, scenario: dict, step: dict, user: str) -> None:
    """The scenario's first call made once more under a token that must authorize nothing; a :class:`ServerFault` if it did."""
    kind = bad_token_kind(scenario["id"])
    if kind is None:
        return
    bad, good = server.keys.bad_token(kind, step["session"], user), server.session_token(step["session"], user)
    answer = await server.call_as_forger(bad, good, step["tool"], step["arguments"])
    records = await server.fixture("records", {})
    did = [f"{len(records.get(key) or ())} {name}" for key, name in RECORDED.items() if records.get(key)]
    if not is_refusal(answer) or did:
        what = f"recorded {' and '.join(did)}" if did else "was answered as allowed"
        raise ServerFault(f"a tools/call {step['tool']!r} made with a token {kind.replace('_', ' ')} {what}: a token that fails "
                          "verification authorizes nothing (conformance/MCP.md, Identity)")


async def play(server: Server, scenario: dict, refusals: RefusalMap, shows_rule: bool) -> dict:
    """The outcome of ``scenario`` as the server decides it."""
    rules = scenario_rules(scenario)
    users = {session["id"]: session["user"] for session in scenario["world"]["sessions"]}
    writes = any(tool.get("effect") == "write" for tool in scenario.get("catalog", {}).get("tools", ()))
    await server.restart_if_broken()
    await server.fixture("load", {"scenario": scenario["id"], "rules": rules, "world": scenario["world"]})
    results, probed = [], False
    for position, step in enumerate(scenario["steps"]):
        try:
            if step["op"] != "call":
                await server.fixture("change", {"change": step})
                results.append({"op": step["op"]})
                continue
            if not probed:
                await probe(server, scenario, step, users[step["session"]])
                probed = True
            if step.get("before_write"):
                await server.fixture("before_write", {"changes": step["before_write"]})
            meta = {} if step.get("idempotency_key") is None else {IDEMPOTENCY_KEY: step["idempotency_key"]}
            token = server.session_token(step["session"], users[step["session"]])
            answer = await server.call(token, step["tool"], step["arguments"], meta)
            results.append(call_result(step, answer, await server.fixture("records", {}), refusals, shows_rule, writes))
        except ServerFault as fault:
            raise ServerFault(f"step {position}: {fault}") from None
    return {"gateproof": FORMAT_VERSION, "scenario": scenario["id"], "rules": rules, "results": results}
