"""The tools the gateway knows and the shape their arguments must have, as its catalog declares them.

Arguments arrive exactly as a model proposed them: any JSON value at all. Each
shape rule is checked before any record is read, so a malformed proposal can
neither probe storage nor smuggle authority in through an extra field.
"""

from __future__ import annotations

import json
from decimal import Decimal

from attrs import frozen

from ..lattice import CONCRETE
from ..scenario.document import has_repeated_key
from .catalog import ArgumentSpec, Catalog, CatalogTool
from .catalog_checks import TEXT_TYPES
from .lab import LAB_CATALOG


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


def is_known_tool(tool: object, catalog: Catalog = LAB_CATALOG) -> bool:
    """G001.1: only a tool the gateway's catalog declares (``tools[].name``) may be called; any other name is refused as ``unknown_tool``."""
    return catalog.tool(tool) is not None


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


def list_extra_arguments(tool: CatalogTool, arguments: dict) -> list[str]:
    """G001.3: fields the tool does not declare (``tools[].arguments[].name``; forged authority such as ``approved_by`` among them), sorted."""
    return sorted(str(key) for key in arguments if key not in tool.argument_names)


def list_missing_arguments(tool: CatalogTool, arguments: dict) -> list[str]:
    """G001.4: the required fields (``tools[].arguments[].required``, true when absent) the proposal lacks, in declaration order."""
    return [name for name in tool.required_arguments if name not in arguments]


def is_number(value: object) -> bool:
    """G001.5: a JSON number; ``true`` and ``false`` are not numbers, whatever a language makes of them."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_valid_value(argument: ArgumentSpec, value: object) -> bool:
    """G001.5: a value of the argument's declared type within its declared bounds, inclusive; no coercion of other types.

    A text (``identifier``, at least one character, or ``string``) is
    measured in Unicode code points; an ``integer`` is a number without a
    fractional part (``2.0`` is one, as JSON Schema reads it); a longer text
    or a larger number is malformed, never truncated.
    """
    if argument.type in TEXT_TYPES:
        least = argument.min_length if argument.min_length is not None else int(argument.type == "identifier")
        return isinstance(value, str) and least <= len(value) <= argument.max_length
    if not is_number(value) or (argument.type == "integer" and value != int(value)):
        return False
    return (argument.minimum is None or value >= argument.minimum) and (argument.maximum is None or value <= argument.maximum)


def has_valid_values(tool: CatalogTool, arguments: dict) -> bool:
    """G001.5: every argument the call carries holds a valid value of its declaration."""
    return all(is_valid_value(argument, arguments[argument.name]) for argument in tool.arguments if argument.name in arguments)


def shape_checks(known_tool, argument_object, no_extra, no_missing, valid_values, unique_keys=True) -> tuple[Check, ...]:
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
        Check("G001.5", "malformed_input", valid_values),
    )


def check_shape(tool: object, arguments: object, catalog: Catalog = LAB_CATALOG) -> tuple[Check, ...]:
    """G001.1–G001.5 and G001.17 in precedence order, up to and including the first that fails, for a tool of ``catalog``."""
    known, is_object = is_known_tool(tool, catalog), is_argument_object(arguments)
    spec = catalog.tool(tool) if known else None
    unique = known and is_object and has_unique_keys(arguments)
    no_extra = unique and not list_extra_arguments(spec, arguments)
    no_missing = unique and not list_missing_arguments(spec, arguments)
    values = no_missing and has_valid_values(spec, arguments)
    return until_first_failure(shape_checks(known, is_object, no_extra, no_missing, values, unique))


def canonical_number(value: int | float) -> str:
    """G002.7: a number as ECMAScript writes it (RFC 8785): ``600.0`` is ``600``, ``1e-7`` and ``1e+21`` keep their exponent; integers exactly.

    Two texts of one value are one action, in every language a gateway is written in.
    """
    if isinstance(value, int) or (value.is_integer() and abs(value) < 1e21):
        return str(int(value))
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    text, point = "".join(map(str, digits)), exponent + len(digits)
    minus = "-" if sign else ""
    if 0 < point <= 21:
        return f"{minus}{text[:point]}.{text[point:]}"
    if -6 < point <= 0:
        return f"{minus}0.{'0' * -point}{text}"
    mantissa = text if len(text) == 1 else f"{text[0]}.{text[1:]}"
    return f"{minus}{mantissa}e{'+' if point > 0 else '-'}{abs(point - 1)}"


def canonical_text(value: object) -> str:
    """G002.7: ``value`` in canonical JSON: object keys sorted, no whitespace, characters kept as they are, numbers by :func:`canonical_number`."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(key, ensure_ascii=False)}:{canonical_text(value[key])}" for key in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(map(canonical_text, value)) + "]"
    if is_number(value):
        return canonical_number(value)
    return json.dumps(value, ensure_ascii=False)


def compute_canonical_arguments(arguments: dict) -> str:
    """G002.7: the one text of an arguments object that approvals and idempotency keys compare: sorted keys, no spaces, UTF-8 kept,
    each number as ECMAScript writes it.

    No key is written twice in what it is given: an approval's arguments
    that repeat one are invalid input (S001.6), and a call's are refused
    before its action is compared (G001.17).
    """
    return canonical_text(arguments)
