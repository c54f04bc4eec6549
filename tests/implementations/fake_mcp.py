"""A small MCP server on raw JSON-RPC that decides with the model: ``fake_mcp.py [--http] [FAULT]``.

It follows conformance/MCP.md without the SDK, over stdio or (``--http``)
plain JSON answers to POSTs on ``/mcp`` at ``GATEPROOF_MCP_PORT``, so the
bridge's tests do not lean on one server library. FAULT breaks it in one way
on the scenarios whose id ends in ``.fault`` (``no-hooks``, ``exit-at-start``
and ``child`` everywhere): ``hang``, ``garbage``, ``exit``, ``two-audits``,
``unmapped`` (a refusal code no map names), ``hides-rule`` (records no rule
ids, everywhere, and says so), ``coded`` (refuses with JSON-RPC
error -32003 and the reason in the message), ``fails-open-token``,
``http-500``, ``drop`` (closes the connection unanswered), ``child`` (leaves
a sleeping child behind), ``cross-tenant`` (serves a read of another tenant's
case). ``--everywhere`` makes the fault every scenario's. ``tools/list``
lists the lab's tools one a page, so a client must follow ``nextCursor``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import attrs
import jwt

from gateproof.conformance.harness.documents import dumps, parse_json
from gateproof.conformance.mcp.tokens import META_KEY, verify_token
from gateproof.model.gateway.gate import GATEWAY_VERSIONS, Call, GatewayState, decide_call
from gateproof.model.gateway.arguments import TOOLS
from gateproof.model.gateway.changes import apply_change
from gateproof.model.gateway.scenario import read_change, read_gateway_world

HTTP = "--http" in sys.argv[1:]
EVERYWHERE = "--everywhere" in sys.argv[1:]  # the fault on every scenario, not only those whose id ends in .fault
FAULT = next((argument for argument in sys.argv[1:] if not argument.startswith("--")), "")
state = {"scenario": "", "rules": None, "declared": None, "gateway": None, "staged": (), "records": {"exports": [], "reads": [], "audit": []}}


class Coded(Exception):
    """A refusal written as a JSON-RPC error of the server's own code, the reason only in its message."""


def write(message: dict) -> None:
    sys.stdout.buffer.write(dumps(message) + b"\n")
    sys.stdout.buffer.flush()


def claims(params: dict, header: str) -> dict | None:
    header = (header if HTTP else (params.get("_meta") or {}).get(META_KEY) or "").removeprefix("Bearer ")
    try:
        return verify_token(header, os.environ["GATEPROOF_MCP_JWKS"], os.environ["GATEPROOF_MCP_AUDIENCE"])
    except jwt.InvalidTokenError:
        return None


def fixture(method: str, params: dict) -> dict:
    if method == "describe":
        described = {"name": f"fake-mcp{'-' + FAULT if FAULT else ''}", "version": "0", "language": "python", "rules": ["lab-001", "lab-001+next"]}
        return described if FAULT == "hides-rule" else {**described, "shows": ["rule"]}
    if method == "load":
        world = read_gateway_world(params["world"])
        state.update(first_session=params["world"]["sessions"][0]["id"], scenario=params["scenario"], rules=GATEWAY_VERSIONS[params["rules"]], declared=world, gateway=GatewayState(world), staged=())
        state["records"] = {"exports": [], "reads": [], "audit": []}
    elif method == "change":
        gateway = state["gateway"]
        state["gateway"] = GatewayState(apply_change(gateway.world, read_change(params["change"], "$", state["declared"])), gateway.history, gateway.bindings)
    elif method == "before_write":
        state["staged"] = tuple(read_change(c, "$", state["declared"]) for c in params["changes"])
    elif method == "records":
        records, state["records"] = state["records"], {"exports": [], "reads": [], "audit": []}
        return records
    return {}


def call(params: dict, faulty: bool, header: str) -> dict:
    found = claims(params, header)
    if found is None and not (faulty and FAULT == "fails-open-token"):
        raise PermissionError("the token does not verify")
    session = found["sid"] if found is not None else state["first_session"]
    key = (params.get("_meta") or {}).get("io.gateproof/idempotency-key")
    staged, state["staged"] = state["staged"], ()
    trace, state["gateway"] = decide_call(state["gateway"], Call(session, params["name"], params.get("arguments", {}), key, staged), state["rules"])
    if faulty and FAULT == "cross-tenant" and trace.reason == "tenant_mismatch" and params["name"] == "read_case":
        trace = attrs.evolve(trace, reason="allowed", reads=({"case_id": params["arguments"]["case_id"]},),
                             audit={**trace.audit, "decision": "allow", "reason": "allowed"}, checks=())
    records = state["records"]
    records["exports"] += trace.exports
    records["reads"] += trace.reads
    records["audit"].append(trace.audit if FAULT == "hides-rule" else {**trace.audit, "rule": trace.rule})
    if faulty and FAULT == "two-audits":
        records["audit"].append({**trace.audit, "rule": trace.rule})
    if trace.decision == "allow":
        return {"content": [{"type": "text", "text": "done"}]}
    reason = "no-such-code" if faulty and FAULT == "unmapped" else trace.caller_reason
    if FAULT == "coded":
        raise Coded(reason)
    return {"content": [{"type": "text", "text": f"refused: {reason}"}], "isError": True, "structuredContent": {"reason": reason}}


def listing_page(cursor: object) -> dict:
    """One of the lab's tools a page, its arguments required strings of 1 to 128 characters; the page after names the next."""
    names = sorted(TOOLS)
    at = names.index(cursor) if cursor in names else 0
    properties = {name: {"type": "string", "minLength": 1, "maxLength": 128} for name in TOOLS[names[at]].arguments}
    page = {"tools": [{"name": names[at], "inputSchema": {"type": "object", "properties": properties, "required": list(properties)}}]}
    return page if at + 1 == len(names) else {**page, "nextCursor": names[at + 1]}


def answer(message: dict, header: str = "") -> dict | None:
    """The answer to one JSON-RPC message, None for a notification; the faults that answer otherwise act here."""
    method, params, ident = message.get("method"), message.get("params") or {}, message.get("id")
    if ident is None:
        return None
    faulty = EVERYWHERE or state["scenario"].endswith(".fault")
    if method == "initialize":
        extensions = {} if FAULT == "no-hooks" else {"io.gateproof/fixture": {}}
        return {"jsonrpc": "2.0", "id": ident, "result": {"protocolVersion": params["protocolVersion"], "serverInfo": {"name": "fake", "version": "0"},
                                                          "capabilities": {"tools": {}, "extensions": extensions}}}
    if method.startswith("gateproof/fixture/") and FAULT != "no-hooks":
        return {"jsonrpc": "2.0", "id": ident, "result": fixture(method.rsplit("/", 1)[1], params)}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": ident, "result": listing_page(params.get("cursor"))}
    if method != "tools/call":
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": "Method not found"}}
    if faulty and FAULT == "hang":
        time.sleep(3600)
    if faulty and FAULT in ("garbage", "http-500", "drop"):
        return {"fault": FAULT}
    if faulty and FAULT == "exit":
        os._exit(3)
    try:
        return {"jsonrpc": "2.0", "id": ident, "result": call(params, faulty, header)}
    except PermissionError as error:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32001, "message": str(error)}}
    except Coded as error:
        return {"jsonrpc": "2.0", "id": ident, "error": {"code": -32003, "message": f"refused: {error.args[0]}"}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        reply = answer(parse_json(body, repeats=None, limit=None), self.headers.get("authorization", ""))
        if reply is not None and reply.get("fault") == "drop":
            self.close_connection = True
            self.connection.shutdown(2)
            return
        status, data = (202, b"") if reply is None else (500, b"internal error") if reply.get("fault") else (200, dumps(reply))
        self.send_response(status)
        self.send_header("content-type", "application/json" if status == 200 else "text/plain")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *arguments):
        pass


def main() -> None:
    if FAULT == "exit-at-start":
        sys.stderr.write("fake-mcp: cannot open its database\n")
        sys.exit(4)
    if FAULT == "child":
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    if HTTP:
        ThreadingHTTPServer(("127.0.0.1", int(os.environ["GATEPROOF_MCP_PORT"])), Handler).serve_forever()
    for line in sys.stdin.buffer:
        if line.strip():
            reply = answer(parse_json(line, repeats=None, limit=None))
            if reply is not None and reply.get("fault"):
                sys.stdout.write("this is not JSON-RPC\n")
                sys.stdout.flush()
            elif reply is not None:
                write(reply)


if __name__ == "__main__":
    main()
