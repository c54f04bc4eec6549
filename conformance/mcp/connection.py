"""gateproof's connections to one MCP server under test: started, spoken to through the SDK, restarted when it breaks.

Over stdio one connection carries every request, each with its token in
``params._meta``; over streamable HTTP each token has a connection of its own
(``Authorization: Bearer``), kept while a campaign reuses its session. Any
fault of the transport (a timeout, a stream closed, a line that is not
JSON-RPC, an HTTP 500) is a :class:`ServerFault` on the request it concerns,
and the next scenario starts the server afresh.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import OrderedDict
from contextlib import AsyncExitStack

import anyio
import httpx2
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from .refusals import HttpRefusal, RpcError, ToolResult, read_tool_result, shown
from .target import Target
from .tokens import META_KEY, CampaignKeys
from ..harness.documents import dumps
from .http_alone import post_alone
from .wire import MOST_BYTES, ExactParams, ExactTransport, stdio_streams

try:
    BaseExceptionGroup
except NameError:  # Python 3.10: the backport anyio depends on there
    from exceptiongroup import BaseExceptionGroup

FIXTURE_EXTENSION = "io.gateproof/fixture"
#: HTTP connections kept open, one a token: a campaign's sessions recur, so most calls find theirs.
KEPT_CONNECTIONS = 32
#: Tokens kept for reuse, one a session and user: generated worlds draw both from small pools.
KEPT_TOKENS = 4096
_ANY_RESULT = TypeAdapter(dict)


class ServerFault(Exception):
    """What the server did that leaves a run without an outcome: the message says what, for the run's verdict."""


class StartFault(Exception):
    """The server could not be started or does not serve what MCP.md asks: verify stops with this message."""


class Refused(Exception):
    """The server refused a connection under a token (HTTP 401 or 403 answering its initialize): a refusal of what it carried."""

    def __init__(self, refusal: HttpRefusal):
        super().__init__(shown(refusal))
        self.refusal = refusal


class Request(types.Request[dict, str]):
    """A request whose params gateproof writes itself (``wire.ExactParams``)."""


class RefusalSeen(httpx2.AsyncBaseTransport):
    """Keeps the last HTTP refusal (a status of 400 or more) a connection met, which the SDK turns into a bare JSON-RPC
    error, and the MCP session id the server gave it."""

    def __init__(self, inner: httpx2.AsyncBaseTransport):
        self.inner, self.last, self.session_id = inner, None, None

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        response = await self.inner.handle_async_request(request)
        self.session_id = response.headers.get("mcp-session-id", self.session_id)
        if response.status_code < 400:
            return response
        body = (await response.aread())[:MOST_BYTES]
        self.last = HttpRefusal(response.status_code, body[:2000].decode("utf-8", "replace"))
        return httpx2.Response(response.status_code, headers=response.headers, content=body, request=request)

    async def aclose(self) -> None:
        await self.inner.aclose()


class Connection:
    """One MCP session with the server, under one token (HTTP) or all of them (stdio).

    Its streams and session are task groups, which anyio lets only the task that entered them leave: a keeper task
    enters them, and leaves them when the connection is closed, whichever task asks for a request or the close.
    """

    def __init__(self, session: ClientSession, refusals: RefusalSeen | None, faults: list[str], version: str = ""):
        self.session, self.refusals, self.faults, self.version = session, refusals, faults, version
        self.closing, self.closed = anyio.Event(), anyio.Event()

    async def request(self, method: str, params: dict, exact: ExactParams, timeout: float) -> dict:
        if self.refusals is not None:
            self.refusals.last = None
        with anyio.fail_after(timeout):
            return await self.session.send_request(Request(method=method, params=exact.placeholder(params)), _ANY_RESULT)

    async def aclose(self) -> None:
        self.closing.set()
        with anyio.CancelScope(shield=True), anyio.move_on_after(2):
            await self.closed.wait()


class Server:
    """The server under test and gateproof's connections to it."""

    def __init__(self, target: Target, keys: CampaignKeys, timeout: float, start_timeout: float | None = None, fixture: bool = True):
        self.target, self.keys, self.timeout = target, keys, timeout
        self.fixture_required = fixture  # a campaign needs the test hooks; reading the server's tools/list does not
        # Serving and answering initialize wait on the server's start (its interpreter, its store): that has its own allowance.
        self.start_timeout = max(timeout, start_timeout or timeout)
        self.exact = ExactParams()
        self.process: anyio.abc.Process | None = None
        self.connections: OrderedDict[str, Connection] = OrderedDict()
        self.group: anyio.abc.TaskGroup | None = None  # where connections are kept: the owning task's, set before start
        self.broken = False
        self.fixture_token = keys.fixture_token()
        self.tokens: OrderedDict[tuple[str, str], str] = OrderedDict()
        self.forger: httpx2.AsyncClient | None = None  # sends the requests under tokens that must fail, over HTTP

    # Starting and stopping.

    async def start(self) -> None:
        environment = {**os.environ, **self.target.environment(), **self.keys.environment()}
        if self.target.argv:
            self.process = await anyio.open_process(
                list(self.target.argv), env=environment, stderr=None,
                stdin=subprocess.PIPE if self.target.stdio else subprocess.DEVNULL,
                stdout=subprocess.PIPE if self.target.stdio else sys.stderr.fileno())
        if not self.target.stdio:
            await self._await_listening()
        self.broken = False

    async def _await_listening(self) -> None:
        host, port = self.target.host_and_port()
        with anyio.move_on_after(self.start_timeout) as waited:
            while True:
                if self.process is not None and self.process.returncode is not None:
                    raise StartFault(f"the server exited with status {self.process.returncode} before it served {self.target.url}")
                try:
                    stream = await anyio.connect_tcp(host, port)
                except OSError:
                    await anyio.sleep(0.05)
                    continue
                await stream.aclose()
                return
        if waited.cancelled_caught:
            raise StartFault(f"nothing served {self.target.url} within {self.start_timeout:g} seconds")

    async def _end_process(self) -> None:
        process = self.process
        self.process = None
        if process is None or process.returncode is not None:
            return
        with anyio.CancelScope(shield=True):
            if process.stdin is not None:
                with anyio.move_on_after(0.1):
                    await process.stdin.aclose()
            with anyio.move_on_after(1):
                await process.wait()
                return
            process.kill()
            with anyio.move_on_after(1):
                await process.wait()

    async def close(self) -> None:
        if self.forger is not None:
            forger, self.forger = self.forger, None
            await forger.aclose()
        connections = list(self.connections.values())
        self.connections.clear()
        for connection in connections:
            await connection.aclose()
        await self._end_process()

    async def restart_if_broken(self) -> None:
        if self.broken:
            await self.close()
            await self.start()

    async def exit_note(self, wait: float = 0.5) -> str:
        """Whether the server exited, and how: a stream that ends is mostly a server that is ending, so it is given a moment."""
        process = self.process
        if process is None:
            return ""
        with anyio.move_on_after(wait):
            await process.wait()
        return "" if process.returncode is None else f" (the server exited with status {process.returncode})"

    def session_token(self, session: str, user: str) -> str:
        """The token of a world session, made once: over HTTP a token is a connection, which a campaign's later scenarios reuse."""
        key = (session, user)
        if key not in self.tokens:
            self.tokens[key] = self.keys.session_token(session, user)
            while len(self.tokens) > KEPT_TOKENS:
                self.tokens.popitem(last=False)
        return self.tokens[key]

    # Connections.

    async def connection(self, token: str) -> Connection:
        """The connection a request under ``token`` travels on: the one stdio connection, or this token's over HTTP."""
        key = "stdio" if self.target.stdio else token
        if key in self.connections:
            self.connections.move_to_end(key)
            return self.connections[key]
        connection = await self.group.start(self._keep, token)
        self.connections[key] = connection
        while len(self.connections) > KEPT_CONNECTIONS:
            _, oldest = self.connections.popitem(last=False)
            await oldest.aclose()
        return connection

    async def _keep(self, token: str, task_status) -> None:
        """Open a connection, hand it over, and hold it open in this task until it is closed."""
        connection = None
        try:
            async with AsyncExitStack() as stack:
                connection = await self._connect(stack, token)
                task_status.started(connection)
                await connection.closing.wait()
        except Exception:  # a broken server's streams may fail as they close: the connection is gone either way
            if connection is None:
                raise
        finally:
            if connection is not None:
                connection.closed.set()

    async def _connect(self, stack: AsyncExitStack, token: str) -> Connection:
        refusals, faults = None, []
        if self.target.stdio:
            streams = await stack.enter_async_context(stdio_streams(self.process, self.exact, faults))
        else:
            refusals = RefusalSeen(ExactTransport(self.exact, faults))
            client = await stack.enter_async_context(httpx2.AsyncClient(
                transport=refusals, headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(self.timeout)))
            streams = await stack.enter_async_context(streamable_http_client(self.target.url, http_client=client))
        session = await stack.enter_async_context(ClientSession(*streams))
        try:
            with anyio.fail_after(self.start_timeout):
                result = await session.initialize()
        except MCPError:
            if refusals is not None and refusals.last is not None and refusals.last.status < 500:
                raise Refused(refusals.last) from None
            raise
        capabilities = result.capabilities.model_dump(by_alias=True, exclude_none=True)
        if self.fixture_required and FIXTURE_EXTENSION not in (capabilities.get("extensions") or {}) | (capabilities.get("experimental") or {}):
            raise StartFault(f"the server does not advertise the extension {FIXTURE_EXTENSION} under capabilities.extensions or "
                             f"capabilities.experimental (conformance/MCP.md, The test hooks); on protocol {result.protocol_version} "
                             f"it answered initialize with the capabilities {json.dumps(capabilities)[:400]}")
        return Connection(session, refusals, faults, result.protocol_version)

    # Requests.

    def with_token(self, params: dict, token: str) -> dict:
        return {**params, "_meta": {**params.get("_meta", {}), META_KEY: f"Bearer {token}"}} if self.target.stdio else params

    async def fixture(self, method: str, params: dict) -> dict:
        """One test hook, ``gateproof/fixture/<method>``; a :class:`ServerFault` when it is not answered with a result."""
        connection = None
        try:
            connection = await self.connection(self.fixture_token)
            return await connection.request(f"gateproof/fixture/{method}", self.with_token(params, self.fixture_token), self.exact, self.timeout)
        except Exception as error:
            await self._raise_fault(f"gateproof/fixture/{method}", error, connection)
            if isinstance(error, MCPError) and error.code == types.METHOD_NOT_FOUND:
                raise StartFault(f"the server does not serve gateproof/fixture/{method} (conformance/MCP.md, The test hooks)") from None
            raise ServerFault(f"gateproof/fixture/{method} answered {shown(self._refusal(error, connection))}") from None

    async def call(self, token: str, tool: str, arguments: dict, meta: dict) -> ToolResult | RpcError | HttpRefusal:
        """One tools/call under ``token``, and how the server answered it: a result, or a refusal of the server's."""
        params = self.with_token({"name": tool, "arguments": arguments, "_meta": meta}, token)
        connection = None
        try:
            connection = await self.connection(token)
            return read_tool_result(await connection.request("tools/call", params, self.exact, self.timeout))
        except Exception as error:
            await self._raise_fault(f"tools/call {tool!r}", error, connection)
            return self._refusal(error, connection)

    async def call_as_forger(self, bad_token: str, good_token: str, tool: str, arguments: dict) -> ToolResult | RpcError | HttpRefusal:
        """A tools/call under ``bad_token``; over HTTP sent on the MCP session ``good_token`` opened, so that a server that
        checks a token only when a session starts is caught letting a request of that session through."""
        if self.target.stdio:
            return await self.call(bad_token, tool, arguments, {})
        connection = None
        try:
            connection = await self.connection(good_token)
            body = dumps({"jsonrpc": "2.0", "id": "gateproof-forged", "method": "tools/call", "params": {"name": tool, "arguments": arguments}})
            with anyio.fail_after(self.timeout):
                if self.forger is None:
                    self.forger = httpx2.AsyncClient(timeout=self.timeout)
                return await post_alone(self.forger, self.target.url, body, {
                    "authorization": f"Bearer {bad_token}", "mcp-session-id": connection.refusals.session_id or "",
                    "mcp-protocol-version": connection.version})
        except Exception as error:
            await self._raise_fault(f"tools/call {tool!r} under a token that must fail", error, connection)
            return self._refusal(error, connection)

    async def _raise_fault(self, what: str, error: Exception, connection: Connection | None) -> None:
        """Raise a :class:`ServerFault` when ``error`` is the transport's and not the server's answer; return otherwise.

        An error answer the server wrote is its answer (a refusal, a missing hook); a request that timed out, a
        stream that ended, an HTTP status of 500 or more or an HTTP connection that broke is a fault, after which
        the server is started afresh.
        """
        error = leaf(error)
        if isinstance(error, (StartFault, ServerFault)):
            raise error
        if isinstance(error, Refused):
            return
        seen = self._refusal(error, connection) if isinstance(error, MCPError) else None
        if isinstance(error, TimeoutError):
            fault = f"not answered within {self.timeout:g} seconds"
        elif connection is not None and connection.faults:
            fault = connection.faults[0]
        elif isinstance(seen, HttpRefusal) and seen.status >= 500:
            fault = f"answered HTTP {seen.status}: {seen.body[:300]!r}"
        elif isinstance(error, MCPError) and connection is not None:
            return
        else:
            fault = f"failed: {type(error).__name__}: {error}"
        self.broken = True
        raise ServerFault(f"{what}: {fault}{await self.exit_note(0 if isinstance(error, TimeoutError) else 0.5)}") from None

    @staticmethod
    def _refusal(error: Exception, connection: Connection | None) -> RpcError | HttpRefusal:
        error = leaf(error)
        if isinstance(error, Refused):
            return error.refusal
        seen = connection.refusals.last if connection is not None and connection.refusals is not None else None
        return seen if seen is not None else RpcError(error.code, error.error.message, error.error.data)


def leaf(error: BaseException) -> BaseException:
    """The first error an exception group holds (the SDK's task groups wrap what failed inside them), or the error itself."""
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error
