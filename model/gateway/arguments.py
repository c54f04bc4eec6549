"""The tools the gateway knows and the shape their arguments must have.

Arguments arrive exactly as a model proposed them: any JSON value at all. Each
shape rule is checked before any record is read, so a malformed proposal can
neither probe storage nor smuggle authority in through an extra field.
"""

from __future__ import annotations

import json

from attrs import frozen

#: The longest identifier an argument may carry; longer is malformed, not truncated.
ARGUMENT_MAX_LENGTH = 128


@frozen
class ToolSpec:
    """A tool and its arguments; every argument is a required identifier string."""

    name: str
    arguments: tuple[str, ...]


TOOLS: dict[str, ToolSpec] = {
    spec.name: spec
    for spec in (
        ToolSpec("export_case", ("case_id", "destination_id")),
        ToolSpec("read_case", ("case_id",)),
    )
}


@frozen
class Check:
    """One rule applied to a call: its id, what it checks, its reason code on failure, and whether it held."""

    rule: str
    name: str
    reason: str
    passed: bool


def is_known_tool(tool: object) -> bool:
    """G001.1: only a tool the gateway knows may be called; any other name is refused as ``unknown_tool``."""
    return isinstance(tool, str) and tool in TOOLS


def is_argument_object(arguments: object) -> bool:
    """G001.2: the arguments must be a JSON object; anything else is ``malformed_input``."""
    return isinstance(arguments, dict)


def list_extra_arguments(spec: ToolSpec, arguments: dict) -> list[str]:
    """G001.3: fields the tool does not declare (forged authority such as ``approved_by`` among them), sorted."""
    return sorted(str(key) for key in arguments if key not in spec.arguments)


def list_missing_arguments(spec: ToolSpec, arguments: dict) -> list[str]:
    """G001.4: declared fields the proposal lacks, in declaration order."""
    return [name for name in spec.arguments if name not in arguments]


def is_identifier_value(value: object) -> bool:
    """G001.5: an argument value is a string of 1 to ARGUMENT_MAX_LENGTH characters; no coercion of other types."""
    return isinstance(value, str) and 0 < len(value) <= ARGUMENT_MAX_LENGTH


def check_shape(tool: object, arguments: object) -> tuple[Check, ...]:
    """G001.1–G001.5 in precedence order, up to and including the first that fails."""
    checks: list[Check] = []

    def add(rule: str, name: str, reason: str, passed: bool) -> bool:
        checks.append(Check(rule, name, reason, passed))
        return passed

    if not add("G001.1", "known tool", "unknown_tool", is_known_tool(tool)):
        return tuple(checks)
    if not add("G001.2", "arguments are an object", "malformed_input", is_argument_object(arguments)):
        return tuple(checks)
    spec = TOOLS[tool]
    if not add("G001.3", "no undeclared arguments", "extra_arguments", not list_extra_arguments(spec, arguments)):
        return tuple(checks)
    if not add("G001.4", "every declared argument present", "missing_argument", not list_missing_arguments(spec, arguments)):
        return tuple(checks)
    add("G001.5", "every value an identifier string", "malformed_input", all(is_identifier_value(arguments[n]) for n in spec.arguments))
    return tuple(checks)


def compute_canonical_arguments(arguments: dict) -> str:
    """G002.7: the one text of an arguments object that approvals and idempotency keys compare: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
