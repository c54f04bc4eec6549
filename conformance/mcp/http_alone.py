"""One JSON-RPC request POSTed outside the SDK's session, for what the session would not send: a request of an open MCP
session carrying a token that must fail (conformance/MCP.md, Identity)."""

from __future__ import annotations

import json

import httpx2

from .refusals import HttpRefusal, RpcError, read_tool_result


def _messages(response: httpx2.Response, body: bytes) -> list:
    """The JSON-RPC messages of a response: its JSON body, or the data of each event of its event stream."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return [json.loads(line[5:]) for line in body.decode("utf-8", "replace").splitlines() if line.startswith("data:") and line[5:].strip()]
    return [json.loads(body)]


async def post_alone(client: httpx2.AsyncClient, url: str, body: bytes, headers: dict):
    """How the server answered ``body``, a JSON-RPC request whose id is ``gateproof-forged``: a refusal or a tool result."""
    response = await client.post(url, content=body, headers={**headers, "content-type": "application/json",
                                                             "accept": "application/json, text/event-stream"})
    data = await response.aread()
    if response.status_code >= 400 or response.status_code == 202:
        return HttpRefusal(response.status_code, data[:2000].decode("utf-8", "replace"))
    try:
        answer = next(m for m in _messages(response, data) if isinstance(m, dict) and m.get("id") == "gateproof-forged")
    except (ValueError, StopIteration):
        return HttpRefusal(response.status_code, data[:2000].decode("utf-8", "replace"))
    if isinstance(answer.get("error"), dict):
        error = answer["error"]
        return RpcError(error.get("code", 0), str(error.get("message", "")), error.get("data"))
    return read_tool_result(answer.get("result") if isinstance(answer.get("result"), dict) else {})
