"""The tools the gateway knows and the shape their arguments must have, as the lab's catalog declares them.

Arguments arrive exactly as a model proposed them: any JSON value at all. Each
shape rule is checked before any record is read, so a malformed proposal can
neither probe storage nor smuggle authority in through an extra field.
"""

from __future__ import annotations

import json

from attrs import frozen

from ..lattice import CONCRETE
from ..scenario.document import has_repeated_key
from .lab import ARGUMENT_MAX_LENGTH, LAB_CATALOG


@frozen
class ToolSpec:
    """A tool and its arguments; every argument of the lab's tools is a required identifier string."""

    name: str
    arguments: tuple[str, ...]


#: The lab's tools in the order its catalog declares them (``tools[].name``, ``tools[].arguments[].name``).
TOOLS: dict[str, ToolSpec] = {tool.name: ToolSpec(tool.name, tool.argument_names) for tool in LAB_CATALOG.tools}


#: G001.13: the closed set of reasons, ``allowed`` first, in the order of precedence of the checks that give them.
REASON_CODES = (
    "allowed", "unknown_tool", "malformed_input", "extra_arguments", "missing_argument", "session_invalid",
    "rate_limited", "idempotency_conflict", "role_denied", "destination_denied", "approval_required",
    "approval_expired", "case_not_found", "tenant_mismatch", "not_assigned",
)
ALLOWED = 0


@frozen
class Check:
    """One rule applied to a call: its id, its reason code on failure, and whether it held.

    ``passed`` is a bool in the model and a z3 term in the proofs; what a
    check is called in words is the explanation's (keyed by the rule id).
    """

    rule: str
    reason: str
    passed: object


def first_failed_reason(checks, ops=CONCRETE):
    """G001.13: the index in :data:`REASON_CODES` of the first check that failed; :data:`ALLOWED` when all held.

    Written with ``ops`` so the proofs decide a call by this very precedence.
    """
    reason = ALLOWED
    for check in reversed(tuple(checks)):
        reason = ops.If(check.passed, reason, REASON_CODES.index(check.reason))
    return reason


def until_first_failure(checks) -> tuple[Check, ...]:
    """The checks up to and including the first that failed: no later check is consulted (G001.13)."""
    taken = []
    for check in checks:
        taken.append(check)
        if not check.passed:
            break
    return tuple(taken)


def is_known_tool(tool: object) -> bool:
    """G001.1: only a tool the gateway's catalog declares (``tools[].name``) may be called; any other name is refused as ``unknown_tool``."""
    return isinstance(tool, str) and tool in TOOLS


def is_argument_object(arguments: object) -> bool:
    """G001.2: the arguments must be a JSON object; anything else is ``malformed_input``."""
    return isinstance(arguments, dict)


def has_unique_keys(arguments: object) -> bool:
    """G001.17: no key is written twice in the arguments, nor in an object nested in them; a repeat is ``malformed_input``.

    Parsers disagree on which of two values they keep: a gateway that read
    one and a tool that read the other would authorize one action and run
    another.
    """
    return not has_repeated_key(arguments)


def list_extra_arguments(spec: ToolSpec, arguments: dict) -> list[str]:
    """G001.3: fields the tool does not declare (``tools[].arguments[].name``; forged authority such as ``approved_by`` among them), sorted."""
    return sorted(str(key) for key in arguments if key not in spec.arguments)


def list_missing_arguments(spec: ToolSpec, arguments: dict) -> list[str]:
    """G001.4: declared fields the proposal lacks, in declaration order."""
    return [name for name in spec.arguments if name not in arguments]


def is_identifier_value(value: object) -> bool:
    """G001.5: an argument value is a string of 1 to ARGUMENT_MAX_LENGTH (``tools[].arguments[].max_length``) characters; no coercion of other types."""
    return isinstance(value, str) and 0 < len(value) <= ARGUMENT_MAX_LENGTH


def shape_checks(known_tool, argument_object, no_extra, no_missing, identifier_values, unique_keys=True) -> tuple[Check, ...]:
    """G001.1–G001.5 and G001.17 in precedence order, over whether each held: the tool, the object, its keys, extra and missing fields, the values.

    A fact a failed earlier check makes unreadable (the fields of a
    non-object) is never consulted, whatever value it is given.
    ``unique_keys`` holds for every proposal a parsed value can state
    without :class:`~gateproof.model.scenario.document.RepeatedKeys`.
    """
    return (
        Check("G001.1", "unknown_tool", known_tool),
        Check("G001.2", "malformed_input", argument_object),
        Check("G001.17", "malformed_input", unique_keys),
        Check("G001.3", "extra_arguments", no_extra),
        Check("G001.4", "missing_argument", no_missing),
        Check("G001.5", "malformed_input", identifier_values),
    )


def check_shape(tool: object, arguments: object) -> tuple[Check, ...]:
    """G001.1–G001.5 and G001.17 in precedence order, up to and including the first that fails."""
    known, is_object = is_known_tool(tool), is_argument_object(arguments)
    spec = TOOLS[tool] if known else None
    unique = known and is_object and has_unique_keys(arguments)
    readable = unique
    no_extra = readable and not list_extra_arguments(spec, arguments)
    no_missing = readable and not list_missing_arguments(spec, arguments)
    values = no_missing and all(is_identifier_value(arguments[name]) for name in spec.arguments)
    return until_first_failure(shape_checks(known, is_object, no_extra, no_missing, values, unique))


def compute_canonical_arguments(arguments: dict) -> str:
    """G002.7: the one text of an arguments object that approvals and idempotency keys compare: sorted keys, no spaces, UTF-8 kept.

    No key is written twice in what it is given: an approval's arguments
    that repeat one are invalid input (S001.6), and a call's are refused
    before its action is compared (G001.17).
    """
    return json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
