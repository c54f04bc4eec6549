"""The bytes gateproof writes to an MCP server: request params as exact JSON text, over stdio or streamable HTTP.

The SDK's session does the protocol (ids, the handshake, matching answers),
but it writes params through pydantic, which keeps the last of a key written
twice and may write a number otherwise than the scenario did. A call's
arguments are what a model proposed, exactly (G001.17, S001.4), so every
request's params travel as a placeholder that the transport replaces with the
params written by gateproof's own writer just before the bytes leave.
"""

from __future__ import annotations

import itertools
import re
from contextlib import asynccontextmanager

import anyio
import httpx2
import mcp_types as types
from mcp.shared.message import SessionMessage

from ..harness.documents import dumps

PLACEHOLDER_KEY = "__gateproof_params__"
_PLACEHOLDER = re.compile(rb'\{\s*"' + PLACEHOLDER_KEY.encode() + rb'"\s*:\s*"(\d+)"\s*\}')
#: The most a server may write on one line or in one HTTP body before it is a broken stream, as for PROTOCOL.md's replies.
MOST_BYTES = 64 << 20


class ExactParams:
    """Params written as gateproof writes JSON, keyed by a placeholder the SDK carries in their place."""

    def __init__(self):
        self.pending: dict[str, bytes] = {}
        self.numbers = itertools.count()

    def placeholder(self, params: dict) -> dict:
        """What the SDK is handed for ``params``: ``{"__gateproof_params__": "N"}``."""
        number = str(next(self.numbers))
        self.pending[number] = dumps(params)
        return {PLACEHOLDER_KEY: number}

    def written(self, body: bytes) -> bytes:
        """``body`` with each placeholder replaced by the params it stands for."""
        return _PLACEHOLDER.sub(lambda match: self.pending.pop(match.group(1).decode()), body)


def _message(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as error:
        return ValueError(f"the server wrote a line that is not a JSON-RPC message: {line[:200]!r} ({error.__class__.__name__})")


@asynccontextmanager
async def stdio_streams(process: anyio.abc.Process, exact: ExactParams, faults: list[str]):
    """The SDK's read and write streams over a started server's stdin and stdout, one JSON-RPC message a line.

    The server is started by the caller in gateproof's own process group, not
    a session of its own as the SDK's stdio client starts one, so that every
    process it leaves is ended with the group (PROTOCOL.md, Processes). A line
    that is not JSON-RPC, or the end of the server's output, ends the stream
    and is said in ``faults``, so a request waiting on it fails for what happened.
    """
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](16)

    async def read_lines():
        pending = b""
        async with read_writer:
            try:
                async for chunk in process.stdout:
                    *lines, pending = (pending + chunk).split(b"\n")
                    if len(pending) > MOST_BYTES:
                        faults.append(f"the server wrote a line longer than {MOST_BYTES} bytes")
                        return
                    for line in filter(bytes.strip, lines):
                        message = _message(line)
                        if isinstance(message, Exception):
                            faults.append(str(message))
                            return
                        await read_writer.send(message)
                faults.append("the server closed its output")
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                return

    async def write_lines():
        async with write_reader:
            try:
                async for message in write_reader:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True).encode()
                    await process.stdin.send(exact.written(text) + b"\n")
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await read_writer.aclose()

    async with anyio.create_task_group() as group:
        group.start_soon(read_lines)
        group.start_soon(write_lines)
        try:
            yield read_stream, write_stream
        finally:
            group.cancel_scope.cancel()


class ExactTransport(httpx2.AsyncBaseTransport):
    """An HTTP transport that writes each request's params exactly, and says in ``faults`` when a request gets no answer."""

    def __init__(self, exact: ExactParams, faults: list[str]):
        self.exact, self.faults = exact, faults
        self.inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        if request.method == "POST":
            body = self.exact.written(await request.aread())
            headers = [(k, v) for k, v in request.headers.raw if k.lower() != b"content-length"]
            request = httpx2.Request(request.method, request.url, headers=headers, content=body, extensions=request.extensions)
        try:
            return await self.inner.handle_async_request(request)
        except httpx2.HTTPError as error:
            self.faults.append(f"the HTTP connection broke: {type(error).__name__}: {error}")
            raise

    async def aclose(self) -> None:
        await self.inner.aclose()
