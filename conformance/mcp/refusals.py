"""Reading an MCP server's answer to a tools/call as allowed or refused, and a refusal's reason (conformance/MCP.md, A refusal).

MCP gateways refuse in several ways: an HTTP status, a JSON-RPC error, a
tool result marked ``isError``. The reason is read from the refusal when it
carries one of the gateway's reason codes, else from the map the team
declares for its own codes; a refusal neither names is never guessed.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import jsonschema_rs
from attrs import frozen

from gateproof.model.scenario import ScenarioError
from gateproof.model.scenario.errors import join_path

from ..harness.documents import parse_json

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema" / "mcp"
#: A refusal map is a short list: a file larger than this is not one, and is refused before it is read whole.
MOST_MAP_BYTES = 1 << 20


@cache
def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))


@cache
def validator(name: str):
    registry = jsonschema_rs.Registry([(schema("change")["$id"], schema("change"))])
    return jsonschema_rs.validator_for(schema(name), registry=registry)


def schema_problem(name: str, document: object) -> str | None:
    """Where and how ``document`` breaks the MCP schema ``name``, or None when it is valid."""
    checker = validator(name)
    if checker.is_valid(document):
        return None
    error = next(checker.iter_errors(document))
    return f"{join_path(error.instance_path)}: {error.message}"


# What a server answered a tools/call with.

@frozen
class ToolResult:
    """A tools/call result: ``is_error``, its ``structuredContent`` and the text of its first text content."""

    is_error: bool
    structured: object = None
    text: str | None = None


@frozen
class RpcError:
    """A JSON-RPC error answering the call."""

    code: int
    message: str
    data: object = None


@frozen
class HttpRefusal:
    """An HTTP status other than 200 or 202 answering the call's POST."""

    status: int
    body: str = ""


Answer = ToolResult | RpcError | HttpRefusal


def read_tool_result(result: dict) -> ToolResult:
    """A tools/call result as a :class:`ToolResult`: whether it is an error, its structured content, its first text."""
    texts = [item.get("text") for item in result.get("content") or () if isinstance(item, dict) and item.get("type") == "text"]
    return ToolResult(result.get("isError") is True, result.get("structuredContent"), texts[0] if texts else None)


def is_refusal(answer: Answer) -> bool:
    return not isinstance(answer, ToolResult) or answer.is_error


def shown(answer: Answer) -> str:
    """The refusal as the server wrote it, short enough for a verdict's message."""
    if isinstance(answer, RpcError):
        text = f"JSON-RPC error {answer.code} {answer.message!r}" + ("" if answer.data is None else f" data {json.dumps(answer.data, default=repr)[:200]}")
    elif isinstance(answer, HttpRefusal):
        text = f"HTTP {answer.status} {answer.body[:200]!r}"
    else:
        text = f"a tool result with isError true, text {(answer.text or '')[:200]!r}, structuredContent {json.dumps(answer.structured, default=repr)[:200]}"
    return text


# The map a team declares for its gateway's own refusals.

@frozen
class RefusalEntry:
    reason: str
    jsonrpc_code: int | None = None
    http_status: int | None = None
    message_pattern: re.Pattern | None = None
    tool_error_pattern: re.Pattern | None = None

    def matches(self, answer: Answer) -> bool:
        if isinstance(answer, RpcError):
            return (self.http_status is None and self.tool_error_pattern is None
                    and self.jsonrpc_code in (None, answer.code)
                    and (self.message_pattern is None or self.message_pattern.search(answer.message) is not None))
        if isinstance(answer, HttpRefusal):
            return self.jsonrpc_code is None and self.message_pattern is None and self.tool_error_pattern is None and self.http_status == answer.status
        return (self.jsonrpc_code is None and self.http_status is None and self.message_pattern is None
                and self.tool_error_pattern is not None and self.tool_error_pattern.search(answer.text or "") is not None)


@frozen
class RefusalMap:
    entries: tuple[RefusalEntry, ...] = ()


NO_MAP = RefusalMap()


class MapError(ValueError):
    """A refusal map that cannot be used: the file, the field and what is wrong."""


def read_refusal_map(path: Path) -> RefusalMap:
    """The map in ``path``; :class:`MapError` naming the field when it is not one."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MOST_MAP_BYTES + 1)
    except OSError as error:
        raise MapError(f"{path}: cannot be read: {error.strerror or error}") from None
    if len(raw) > MOST_MAP_BYTES:
        raise MapError(f"{path}: larger than {MOST_MAP_BYTES} bytes, the most a refusal map may hold")
    try:
        document = parse_json(raw, limit=MOST_MAP_BYTES)
    except ScenarioError as error:
        raise MapError(f"{path}: {error}") from None
    problem = schema_problem("refusal-map", document)
    if problem:
        raise MapError(f"{path}: {problem}")
    entries = []
    for position, entry in enumerate(document["refusals"]):
        patterns = {}
        for key in ("message_pattern", "tool_error_pattern"):
            if key in entry:
                try:
                    patterns[key] = re.compile(entry[key])
                except re.error as error:
                    raise MapError(f"{path}: $.refusals[{position}].{key}: not a regular expression: {error}") from None
        entries.append(RefusalEntry(entry["reason"], entry.get("jsonrpc_code"), entry.get("http_status"), **patterns))
    return RefusalMap(tuple(entries))


def carried_reason(answer: Answer, reasons: frozenset[str]) -> str | None:
    """The reason code the refusal carries itself: ``error.data.reason`` or ``structuredContent.reason``."""
    holder = answer.data if isinstance(answer, RpcError) else answer.structured if isinstance(answer, ToolResult) else None
    reason = holder.get("reason") if isinstance(holder, dict) else None
    return reason if isinstance(reason, str) and reason in reasons else None


def refusal_reason(answer: Answer, refusals: RefusalMap, reasons: frozenset[str]) -> str | None:
    """The caller's reason for a refusal: the one it carries, else the first entry of the map that matches it, else None."""
    return carried_reason(answer, reasons) or next((entry.reason for entry in refusals.entries if entry.matches(answer)), None)
