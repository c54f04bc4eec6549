"""A proposal as the model wrote it: the tool and arguments of a tools/call, read from the message's own text.

The SDK reads JSON keeping the last value of a key written twice, and
validates ``params`` before a handler runs: a gateway on its reading alone
would never see a repeated key (G001.17), nor arguments that are not an
object (G001.2). So every incoming message is also read here, with repeated
keys kept (:class:`~gateproof.model.scenario.document.RepeatedKeys`, as the
model's own reader keeps them), and the tools/call handler decides on that
reading. Over stdio the reading travels by JSON-RPC request id from the line
reader to the handler; over HTTP in the ASGI scope of the request.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import replace

from attrs import frozen

from gateproof.model.scenario.document import RepeatedKeys, has_repeated_key, read_object

#: The ASGI scope key under which an HTTP request carries the proposal read from its body.
SCOPE_KEY = "io.gateproof.proposal"
#: Past this many bytes a body is not read here; the SDK refuses it for its size anyway.
MAX_BODY = 4 * 1024 * 1024


@frozen
class Proposal:
    """What a tools/call proposed: ``tool`` and ``arguments`` as any JSON values, repeated keys kept."""

    tool: object
    arguments: object


#: The proposal of the tools/call being handled, set by :class:`ProposalMiddleware` for the handler below it.
CURRENT: ContextVar[Proposal | None] = ContextVar("gateproof_proposal", default=None)


def _written(params: Mapping, key: str) -> list:
    """Every value ``params`` writes under ``key``, in the order written."""
    return [value for name, value in params.items() if name == key]


def _from_params(params: Mapping) -> Proposal:
    """The proposal ``params`` hold; a key written twice in them leaves which tool or arguments were meant open.

    A name written twice is no one name: the tool is not a string (G001.1).
    Arguments written twice are kept, both, as an object that repeats a key
    (G001.17). Absent arguments are MCP's empty arguments.
    """
    names, arguments = _written(params, "name"), _written(params, "arguments")
    tool = names[0] if len(names) == 1 else names
    if len(arguments) > 1:
        return Proposal(tool, RepeatedKeys([("arguments", value) for value in arguments]))
    return Proposal(tool, arguments[0] if arguments else {})


def request_key(request_id: object) -> tuple[str, object]:
    """A JSON-RPC id as a key: ``1`` and ``"1"`` are different ids."""
    return type(request_id).__name__, request_id


def read_wire(text: str | bytes) -> tuple[tuple[str, object], Proposal] | None:
    """The request key and proposal of a tools/call whose text writes a key twice in its tool or arguments; else None.

    Any other message is read as the SDK reads it, which is then exact.
    """
    try:
        message = json.loads(text)  # first as any reader does: only a tools/call is read again, keeping repeated keys
        if not isinstance(message, dict) or message.get("method") != "tools/call":
            return None
        message = json.loads(text, object_pairs_hook=read_object)
    except (ValueError, RecursionError):
        return None  # the SDK refuses what cannot be read
    if not isinstance(message, dict) or message.get("method") != "tools/call" or not isinstance(message.get("params"), dict):
        return None
    params = message["params"]
    proposal = _from_params(params)
    if len(_written(params, "name")) == 1 and len(_written(params, "arguments")) <= 1 and not has_repeated_key(proposal.arguments):
        return None
    return request_key(message.get("id")), proposal


class WireLines:
    """Stdio's incoming lines, passed on unchanged, with the proposal of each tools/call that repeats a key kept by request id."""

    def __init__(self, lines, keeps_last_key: bool):  # lines: an async iterable of them, or None when given one by one
        self.lines, self.keeps_last_key = lines, keeps_last_key
        self.pending: dict[tuple[str, object], Proposal] = {}  # until its handler takes it, a few microseconds later

    async def __aiter__(self):
        async for line in self.lines:
            yield self.note(line)

    def note(self, line: str) -> str:
        """Keep the proposal of ``line`` when it is a tools/call that repeats a key; the line itself, unchanged."""
        reading = None if self.keeps_last_key else read_wire(line)
        if reading is not None:
            self.pending[reading[0]] = reading[1]
        return line

    def take(self, request_id: object) -> Proposal | None:
        return self.pending.pop(request_key(request_id), None)


class WireBody:
    """ASGI middleware: reads a POST body once, keeps its tools/call proposal in the scope, and hands the body on unchanged."""

    def __init__(self, app, keeps_last_key: bool):
        self.app, self.keeps_last_key = app, keeps_last_key

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["method"] != "POST" or self.keeps_last_key:
            return await self.app(scope, receive, send)
        body, more, first = b"", True, []
        while more and len(body) <= MAX_BODY:
            message = await receive()
            first.append(message)
            body += message.get("body", b"")
            more = message.get("more_body", False) and message["type"] == "http.request"
        reading = None if more else read_wire(body)
        if reading is not None:
            scope[SCOPE_KEY] = reading[1]

        async def replay():
            return first.pop(0) if first else await receive()

        await self.app(scope, replay, send)


def _conforming(params: Mapping) -> dict:
    """``params`` the SDK's own validation accepts; what they really proposed travels beside them."""
    fixed = dict(params)
    if not isinstance(fixed.get("name"), str):
        fixed["name"] = ""
    if "arguments" in fixed and not isinstance(fixed["arguments"], dict):
        fixed["arguments"] = {}
    return fixed


class ProposalMiddleware:
    """The SDK's server middleware (before params validation): every tools/call's proposal, as written, for the handler."""

    def __init__(self, lines: WireLines | None):
        self.lines = lines

    def _wire(self, ctx) -> Proposal | None:
        if ctx.request is not None:
            return ctx.request.scope.get(SCOPE_KEY)
        return self.lines.take(ctx.request_id) if self.lines is not None else None

    async def __call__(self, ctx, call_next):
        if ctx.method != "tools/call" or not isinstance(ctx.params, Mapping):
            return await call_next(ctx)
        proposal = self._wire(ctx) or _from_params(ctx.params)
        token = CURRENT.set(proposal)
        try:
            return await call_next(replace(ctx, params=_conforming(ctx.params)))
        finally:
            CURRENT.reset(token)
