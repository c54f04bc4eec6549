"""MCP over stdin and stdout read and written by the event loop itself, when both are pipes.

The SDK's ``stdio_server`` reads stdin and writes stdout through a worker
thread (one hand-off for each line read, each line written and each flush),
and relays every message through a reader task, a writer task and two
memory streams. A client that starts the server gives it pipes, which the
event loop can watch directly: here the server's read stream parses each
line as it is read and its write stream writes each answer as it is sent,
parsed and written exactly as ``stdio_server`` parses and writes them (one
JSON-RPC message a line, UTF-8, ``errors="replace"`` on the way in). For
anything else (a terminal, a file) the server keeps the SDK's transport.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import stat
import sys
from contextlib import asynccontextmanager, suppress

import anyio
import mcp_types as types
from mcp.shared.message import SessionMessage

#: A line is never cut: a load carries a whole world on one line (a scenario holds at most 16 MiB).
MAX_LINE = 1 << 30


def _is_pipe(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class PipeReader:
    """The SDK's read stream: each line of stdin parsed, a tools/call's line also noted by ``lines`` (the proposal as written)."""

    def __init__(self, reader: asyncio.StreamReader, lines):
        self.reader, self.lines = reader, lines

    async def receive(self) -> SessionMessage | Exception:
        line = await self.reader.readline()
        if not line:
            raise anyio.EndOfStream
        text = line.decode("utf-8", errors="replace")
        try:
            message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
        except Exception as error:  # noqa: BLE001 - as stdio_server: the stream carries what could not be read
            return error
        if isinstance(message, types.JSONRPCRequest) and message.method == "tools/call":
            self.lines.note(text)  # only a call's proposal is read again, as written, before its handler runs
        return SessionMessage(message)

    def __aiter__(self) -> PipeReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        """The pipe itself is closed by :func:`loop_pipes`, once the server is done with it."""

    async def __aenter__(self) -> PipeReader:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()


class PipeWriter:
    """The SDK's write stream: each message written as one line, sent once the pipe has taken all of it."""

    def __init__(self, writer: asyncio.StreamWriter):
        self.writer, self.closed = writer, False

    async def send(self, message: SessionMessage) -> None:
        if self.closed:
            raise anyio.ClosedResourceError
        line = message.message.model_dump_json(by_alias=True, exclude_unset=True) + "\n"
        try:
            self.writer.write(line.encode("utf-8"))  # whole lines: answers of concurrent handlers never interleave
            await self.writer.drain()
        except (ConnectionError, RuntimeError):
            raise anyio.BrokenResourceError from None  # the client is gone: the dispatcher drops what it still owes

    async def aclose(self) -> None:
        self.closed = True

    async def __aenter__(self) -> PipeWriter:
        return self

    async def __aexit__(self, *exc) -> None:
        await self.aclose()


@asynccontextmanager
async def loop_pipes(lines):
    """(read stream, write stream) on the process's stdin and stdout, or None when either is no pipe.

    While serving, fd 1 points at stderr, as ``stdio_server`` points it, so
    that a stray print cannot corrupt the wire; the wire is a private
    duplicate of it, given back at the end.
    """
    if not (_is_pipe(0) and _is_pipe(1)):
        yield None
        return
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=MAX_LINE)
    stdin, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                            os.fdopen(0, "rb", buffering=0, closefd=False))
    sys.stdout.flush()
    wire = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    os.dup2(2, 1)
    stdout, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin,
                                                     os.fdopen(wire, "wb", buffering=0, closefd=False))
    stdout.set_write_buffer_limits(high=0)  # drain waits for every byte: an answer is sent when send returns
    try:
        yield PipeReader(reader, lines), PipeWriter(asyncio.StreamWriter(stdout, protocol, None, loop))
    finally:
        stdin.close()
        stdout.close()
        os.dup2(wire, 1)
        os.close(wire)
        for fd in (0, 1):  # blocking again, as they were found: others may share these pipes after this process
            with suppress(OSError):
                os.set_blocking(fd, True)
