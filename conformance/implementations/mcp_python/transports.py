"""The two ways the gateway is reached: MCP over stdio, and streamable HTTP on a loopback port at ``/mcp``.

Over HTTP the SDK's own bearer middleware verifies the ``Authorization``
header with the campaign's key set before anything else reads the request,
so a bad or absent token is answered 401 and reaches neither the body
reader nor the gateway. Each POST is answered with one JSON body rather
than an event stream: the gateway never streams, and a stream costs a task
group and an event encoder a request. Over stdio each request's token is in
its ``params._meta`` and is verified by the handler; stdin and stdout are
the event loop's own pipes (``pipes.py``).
"""

from __future__ import annotations

import sys
from io import TextIOWrapper

import anyio
import uvicorn
from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp, StreamableHTTPSessionManager
from mcp.server.transport_security import TransportSecuritySettings
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import Route

from .identity import CampaignTokenVerifier
from .pipes import loop_pipes
from .proposals import WireBody, WireLines
from .server import Config, build

HOST = "127.0.0.1"
PATH = "/mcp"
#: Loopback only, as the SDK sets it for a server on localhost: DNS rebinding cannot reach it from a browser.
LOOPBACK = TransportSecuritySettings(
    enable_dns_rebinding_protection=True,
    allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
    allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"],
)


async def serve_stdio(config: Config) -> None:
    """Serve one client on stdin and stdout until stdin ends, on the event loop's own pipes when they are pipes."""
    lines = WireLines(None, config.fault.keeps_last_key)
    server = build(config, lines)
    async with loop_pipes(lines) as streams:
        if streams is not None:
            await server.run(*streams, server.create_initialization_options())
            return
    # Stdin or stdout is no pipe (a terminal, a file): the SDK's own transport, which reads and writes through a thread.
    lines.lines = anyio.wrap_file(TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    async with stdio_server(stdin=lines) as (read_stream, write_stream):
        await server.run(read_stream, write_stream, server.create_initialization_options())


def http_app(config: Config) -> Starlette:
    """The ASGI application: bearer authentication, then the body reader, then the SDK's streamable HTTP transport."""
    manager = StreamableHTTPSessionManager(app=build(config, None), json_response=True, security_settings=LOOPBACK)
    transport = WireBody(StreamableHTTPASGIApp(manager), config.fault.keeps_last_key)
    return Starlette(
        routes=[Route(PATH, endpoint=RequireAuthMiddleware(transport, required_scopes=[]))],
        middleware=[Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(CampaignTokenVerifier(config.trust))),
                    Middleware(AuthContextMiddleware)],
        lifespan=lambda app: manager.run(),
    )


def serve_http(config: Config, port: int) -> None:
    """Serve on the loopback port until SIGTERM (or SIGINT), which uvicorn turns into a graceful shutdown."""
    settings = uvicorn.Config(http_app(config), host=HOST, port=port, log_level="warning", access_log=False,
                              timeout_graceful_shutdown=1)
    uvicorn.Server(settings).run()
