"""The team's MCP gateway: `export_case` and `read_case` behind the tool-call rules.

    python server.py            # MCP over stdin and stdout
    python server.py --http     # MCP over streamable HTTP, at http://127.0.0.1:$GATEPROOF_MCP_PORT/mcp

Built on the SDK's high-level `MCPServer`. The two tools are declared as
ordinary tools (so `tools/list` shows them), and every `tools/call` goes
through the `ToolGate` extension first: it authenticates the host's token,
judges the raw arguments with the team's own rules (`gateway.py`) and answers
a refusal itself; only an allowed call reaches the tool.

Environment (conformance/MCP.md): GATEPROOF_MCP_JWKS, GATEPROOF_MCP_ISSUER,
GATEPROOF_MCP_AUDIENCE carry the trust root; GATEPROOF_MCP_FIXTURE=1 turns on
test mode, which serves the `io.gateproof/fixture` hooks.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import anyio
import jwt
import mcp_types as types
from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import ConfigDict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gateway import (  # noqa: E402
    RULE_VERSIONS,
    FixtureError,
    Gateway,
    KeyPairs,
    repeats_a_key,
)

NAME = "team-mcp-gateway"
VERSION = "0.1.0"
AUTHORIZATION_META = "io.gateproof/authorization"
IDEMPOTENCY_META = "io.gateproof/idempotency-key"
FIXTURE_EXTENSION = "io.gateproof/fixture"
TOOL_SCOPE = "tools"
FIXTURE_SCOPE = "gateproof:fixture"
UNAUTHORIZED = -32001  # the server's own code: the token authorizes nothing
REPEATED_SCOPE_KEY = "team_gateway.repeated_ids"

GATEWAY = Gateway()

# Request ids (as text) of stdio `tools/call` messages whose arguments write a key twice.
_stdio_repeated: set[str] = set()


# ---- identity ------------------------------------------------------------


class TokenCheck:
    """Verifies the host's JSON Web Tokens against the campaign's key set."""

    def __init__(self) -> None:
        self.issuer = os.environ.get("GATEPROOF_MCP_ISSUER", "gateproof")
        self.audience = os.environ.get("GATEPROOF_MCP_AUDIENCE", "gateproof-mcp-stdio")
        jwks = os.environ.get("GATEPROOF_MCP_JWKS")
        self.keys = jwt.PyJWKSet.from_json(jwks) if jwks else None

    def claims(self, token: str | None) -> dict[str, Any] | None:
        if not token or self.keys is None:
            return None
        try:
            kid = jwt.get_unverified_header(token).get("kid")
            key = next((k for k in self.keys.keys if k.key_id == kid), None)
            if key is None:
                return None
            return jwt.decode(
                token,
                key.key,
                algorithms=["ES256"],
                audience=self.audience,
                issuer=self.issuer,
                options={"require": ["exp", "iss", "aud"]},
            )
        except (jwt.PyJWTError, ValueError, TypeError):
            return None


TOKENS = TokenCheck()


def _raw_params(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
    return dict(ctx.params) if isinstance(ctx.params, dict) else {}


def _meta(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
    meta = _raw_params(ctx).get("_meta")
    return meta if isinstance(meta, dict) else {}


def _bearer(ctx: ServerRequestContext[Any, Any]) -> str | None:
    """The token the host sent: the Authorization header over HTTP, `_meta` over stdio."""
    if ctx.request is not None:
        value = ctx.request.headers.get("authorization")
    else:
        value = _meta(ctx).get(AUTHORIZATION_META)
    if isinstance(value, str) and value[:7].lower() == "bearer ":
        return value[7:].strip()
    return None


def _scopes(claims: dict[str, Any]) -> set[str]:
    scope = claims.get("scope")
    return set(scope.split()) if isinstance(scope, str) else set()


def _unauthorized() -> MCPError:
    return MCPError(code=UNAUTHORIZED, message="unauthorized: the token authorizes nothing")


def _repeated_keys(ctx: ServerRequestContext[Any, Any]) -> bool:
    rid = str(ctx.request_id)
    if ctx.request is not None:
        return rid in ctx.request.scope.get(REPEATED_SCOPE_KEY, ())
    if rid in _stdio_repeated:
        _stdio_repeated.discard(rid)
        return True
    return False


# ---- the gate on tools/call ----------------------------------------------


def _refusal(caller_reason: str) -> types.CallToolResult:
    return types.CallToolResult(
        content=[types.TextContent(text=f"refused: {caller_reason}")],
        structured_content={"reason": caller_reason},
        is_error=True,
    )


class ToolGate(Extension):
    """Decides every `tools/call` before any tool runs."""

    identifier = "dev.team-gateway/tool-gate"

    async def intercept_tool_call(
        self,
        params: types.CallToolRequestParams,
        ctx: ServerRequestContext[Any, Any],
        call_next: CallNext,
    ) -> HandlerResult:
        claims = TOKENS.claims(_bearer(ctx))
        sid = claims.get("sid") if claims else None
        if not claims or TOOL_SCOPE not in _scopes(claims) or not isinstance(sid, str):
            raise _unauthorized()
        if GATEWAY.session(sid) is None:
            raise _unauthorized()

        raw = _raw_params(ctx)
        arguments = raw.get("arguments", {})
        key = _meta(ctx).get(IDEMPOTENCY_META)
        decision = GATEWAY.call(
            sid,
            raw.get("name"),
            arguments,
            repeated_keys=_repeated_keys(ctx),
            idempotency_key=key if isinstance(key, str) else None,
        )
        if decision.decision != "allow":
            return _refusal(decision.caller_reason)
        if decision.replayed:
            return types.CallToolResult(
                content=[types.TextContent(text=json.dumps(decision.served))],
                structured_content=decision.served,
            )
        return await call_next(ctx)


# ---- the tools (reached only when the gate allowed the call) --------------


def export_case(case_id: str, destination_id: str) -> dict[str, Any]:
    """Export a case to a configured destination. The payload is read from storage."""
    return {"case_id": case_id, "destination_id": destination_id, "exported": True}


def read_case(case_id: str) -> dict[str, Any]:
    """Read a case."""
    case = GATEWAY.store.cases[case_id]
    return {"case_id": case.id, "content": case.content}


# ---- the test hooks: io.gateproof/fixture (test mode only) ----------------


class OpenParams(types.RequestParams):
    model_config = ConfigDict(extra="allow")


def _fixture_call(ctx: ServerRequestContext[Any, Any]) -> dict[str, Any]:
    claims = TOKENS.claims(_bearer(ctx))
    if not claims or FIXTURE_SCOPE not in _scopes(claims) or "sid" in claims:
        raise _unauthorized()
    return _raw_params(ctx)


def _bad(exc: FixtureError) -> MCPError:
    return MCPError(code=types.INVALID_PARAMS, message=str(exc))


async def _describe(ctx: ServerRequestContext[Any, Any], params: Any) -> HandlerResult:
    _fixture_call(ctx)
    return {
        "name": NAME,
        "version": VERSION,
        "language": "Python",
        "rules": list(RULE_VERSIONS),
        "shows": ["rule"],
    }


async def _load(ctx: ServerRequestContext[Any, Any], params: Any) -> HandlerResult:
    p = _fixture_call(ctx)
    try:
        GATEWAY.load(p.get("scenario"), p.get("rules"), p.get("world"))
    except FixtureError as exc:
        raise _bad(exc) from None
    _stdio_repeated.clear()
    return {}


async def _change(ctx: ServerRequestContext[Any, Any], params: Any) -> HandlerResult:
    p = _fixture_call(ctx)
    try:
        GATEWAY.apply_change(GATEWAY.check_change(p.get("change")))
    except FixtureError as exc:
        raise _bad(exc) from None
    return {}


async def _before_write(ctx: ServerRequestContext[Any, Any], params: Any) -> HandlerResult:
    p = _fixture_call(ctx)
    try:
        GATEWAY.hold_before_write(p.get("changes"))
    except FixtureError as exc:
        raise _bad(exc) from None
    return {}


async def _records(ctx: ServerRequestContext[Any, Any], params: Any) -> HandlerResult:
    _fixture_call(ctx)
    return GATEWAY.take_records()


class Fixture(Extension):
    identifier = FIXTURE_EXTENSION

    def methods(self) -> Sequence[MethodBinding]:
        return [
            MethodBinding("gateproof/fixture/describe", OpenParams, _describe),
            MethodBinding("gateproof/fixture/load", OpenParams, _load),
            MethodBinding("gateproof/fixture/change", OpenParams, _change),
            MethodBinding("gateproof/fixture/before_write", OpenParams, _before_write),
            MethodBinding("gateproof/fixture/records", OpenParams, _records),
        ]


def advertising(extensions: Sequence[Extension]) -> Any:
    """Middleware: advertise the extensions in `initialize` on a 2025-11-25 connection too.

    The SDK's 2025-era wire model of `ServerCapabilities` has no `extensions`
    field, so it drops them from the handshake; conformance/MCP.md asks for
    `capabilities.extensions["io.gateproof/fixture"]` in the `initialize` answer.
    """
    advertised = {e.identifier: e.settings() for e in extensions}

    async def middleware(ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        result = await call_next(ctx)
        if ctx.method == "initialize" and isinstance(result, dict):
            capabilities = result.setdefault("capabilities", {})
            if isinstance(capabilities, dict):
                capabilities.setdefault("extensions", {}).update(advertised)
        return result

    return middleware


def build_server() -> MCPServer:
    extensions: list[Extension] = [ToolGate()]
    if os.environ.get("GATEPROOF_MCP_FIXTURE") == "1":
        extensions.append(Fixture())
    server = MCPServer(
        NAME, version=VERSION, extensions=extensions, middleware=[advertising(extensions)], log_level="WARNING"
    )
    server.add_tool(export_case, structured_output=True)
    server.add_tool(read_case, structured_output=True)
    return server


# ---- transports: seeing a key written twice --------------------------------


def _scan(text: str | bytes) -> set[str]:
    """Ids of the `tools/call` requests in a JSON-RPC text whose arguments write a key twice."""
    try:
        message = json.loads(text, object_pairs_hook=KeyPairs.hook)
    except (ValueError, RecursionError):
        return set()
    found: set[str] = set()
    for m in message if isinstance(message, list) else [message]:
        if isinstance(m, dict) and m.get("method") == "tools/call" and "id" in m:
            params = m.get("params")
            if isinstance(params, dict) and repeats_a_key(params.get("arguments")):
                found.add(str(m["id"]))
    return found


class ScanningStdin:
    """stdin, line by line, noting before the SDK parses it which calls write a key twice."""

    def __init__(self) -> None:
        self._file = anyio.wrap_file(sys.stdin.buffer)

    def __aiter__(self) -> ScanningStdin:
        return self

    async def __anext__(self) -> str:
        line = await self._file.readline()
        if not line:
            raise StopAsyncIteration
        _stdio_repeated.update(_scan(line))
        return line.decode("utf-8", errors="replace")


class ScanningApp:
    """ASGI wrapper: reads a POST body once, notes calls that write a key twice, replays it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, receive, send)  # the client went away
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        scope[REPEATED_SCOPE_KEY] = _scan(body)
        delivered = False

        async def replay() -> dict[str, Any]:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def serve_stdio(server: MCPServer) -> None:
    from mcp.server.stdio import stdio_server

    lowlevel = server._lowlevel_server
    async with stdio_server(stdin=ScanningStdin()) as (read_stream, write_stream):  # type: ignore[arg-type]
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


def serve_http(server: MCPServer) -> None:
    import uvicorn

    port = int(os.environ.get("GATEPROOF_MCP_PORT", "8931"))
    app = server.streamable_http_app(host="127.0.0.1", max_request_body_size=32 * 1024 * 1024)
    uvicorn.run(ScanningApp(app), host="127.0.0.1", port=port, log_level="warning")


def main(argv: list[str]) -> None:
    server = build_server()
    if "--http" in argv:
        serve_http(server)
    else:
        anyio.run(serve_stdio, server)


if __name__ == "__main__":
    main(sys.argv[1:])
