"""Where two outcomes differ, leaf by leaf: the JSON path, both values in full, and the rules that decide the field.

A verdict says *that* an outcome departs from the model's; a difference says
*where*, precisely enough to act on without opening a file: every differing
leaf under its path (``results[0].audit[0].detail``), expected and actual as
JSON, a field one side lacks marked absent (never shown as ``null``, which is a
value), and the rule ids of ``adr/`` that decide that field.
"""

from __future__ import annotations

import json
import re

from attrs import frozen

from .compare import derivation_rank, rules_of_key
from .preview import preview


class _Absent:
    """The value of a field one side does not have."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()

#: The gateway rule that decides each field of a call's result, beside the ``rule`` the result names itself (adr/gateway.md).
RULE_OF_CALL_KEY = {
    "audit": "G001.15", "exports": "G001.14", "writes": "G001.14", "reads": "G001.12", "replayed": "G002.2", "stage": "G002.1",
    "session": "G001.6", "caller_reason": "G001.13",
}
_LIMIT = 200  # leaves listed at most; an outcome that differs everywhere is summed up by the first of them


@frozen
class Leaf:
    """One differing leaf: where it is, what the model says, what the implementation said, which rules decide it."""

    path: str
    expected: object
    actual: object
    rules: tuple[str, ...] = ()

    def serializable(self) -> dict:
        """The leaf as JSON: a side that lacks the field has no ``expected`` or ``actual`` key at all."""
        document: dict = {"path": self.path}
        if self.expected is not ABSENT:
            document["expected"] = self.expected
        if self.actual is not ABSENT:
            document["actual"] = self.actual
        document["rules"] = list(self.rules)
        return document


def _same(left, right) -> bool:
    """JSON equality: ``true`` is not ``1`` and ``1`` is not ``1.0``, though Python says they are equal."""
    if type(left) is not type(right):
        return False
    if isinstance(left, dict):
        return left.keys() == right.keys() and all(_same(left[k], right[k]) for k in left)
    if isinstance(left, list):
        return len(left) == len(right) and all(map(_same, left, right))
    return left == right


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _child(path: str, key) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if _NAME.match(key) else f"{path}[{json.dumps(key)}]"


def _leaves(expected, actual, path: str, found: list) -> None:
    if len(found) >= _LIMIT or _same(expected, actual):
        return
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in [*expected, *(k for k in actual if k not in expected)]:
            _leaves(expected.get(key, ABSENT), actual.get(key, ABSENT), _child(path, key), found)
    elif isinstance(expected, list) and isinstance(actual, list):
        for index in range(max(len(expected), len(actual))):
            _leaves(expected[index] if index < len(expected) else ABSENT,
                    actual[index] if index < len(actual) else ABSENT, _child(path, index), found)
    else:
        found.append((path, expected, actual))


def rules_of_field(result: dict | None, key: str) -> tuple[str, ...]:
    """The rule ids that decide ``key`` of one step's result, by what kind of step it is."""
    if not isinstance(result, dict):
        return ("S001.2",)
    if result.get("op") == "call":
        named = result.get("rule") if isinstance(result.get("rule"), str) else None
        if key in ("decision", "reason", "rule"):
            return (named,) if named else ("G001.13",)
        return tuple(dict.fromkeys(filter(None, (RULE_OF_CALL_KEY.get(key), named))))
    return rules_of_key(key)


def _top_key(path: str) -> tuple[int | None, str | None]:
    """(step, key of that step's result) for a path under ``results``; (None, None) for the document's own fields."""
    match = re.match(r"results\[(\d+)\](?:\.([A-Za-z_][A-Za-z0-9_]*))?", path)
    if not match:
        return None, None
    return int(match.group(1)), match.group(2)


def _derived_order(found: list) -> list:
    """The leaves of each step in the derivation order of their keys (``compare.DERIVATION_ORDER``), steps and the document's own fields in document order."""

    def rank(numbered: tuple[int, tuple]) -> tuple:
        position, (path, _, _) = numbered
        step, key = _top_key(path)
        if step is None:
            return (-1, 0, position)
        return (step, derivation_rank(key) if key else -1, position)

    return [leaf for _, leaf in sorted(enumerate(found), key=rank)]


def differences(expected: dict, actual: dict) -> list[Leaf]:
    """Every leaf at which ``actual`` departs from ``expected``, each step's in the order the rules derive them, each with its deciding rules."""
    found: list = []
    for key in [*expected, *(k for k in actual if k not in expected)]:
        _leaves(expected.get(key, ABSENT), actual.get(key, ABSENT), key, found)
    results = expected.get("results") if isinstance(expected.get("results"), list) else []
    leaves = []
    for path, mine, theirs in _derived_order(found):
        step, key = _top_key(path)
        rules = ("S001.2",) if step is not None and key is None else ()
        if key is not None:
            rules = rules_of_field(results[step] if step < len(results) else None, key)
        leaves.append(Leaf(path, mine, theirs, rules))
    return leaves


def echoed(leaf: Leaf, earlier: list[Leaf]) -> Leaf | None:
    """The first of ``earlier`` whose change is the whole of ``leaf``'s, else None.

    Both leaves are texts, and ``leaf``'s actual text is its expected text
    with every occurrence of that leaf's expected text written as that
    leaf's actual one: a message, an exception or an audit detail that names
    the source which differs. A reader told so reads one change, not four.
    """
    if not (isinstance(leaf.expected, str) and isinstance(leaf.actual, str)):
        return None
    for cause in earlier:
        if (isinstance(cause.expected, str) and isinstance(cause.actual, str) and cause.expected
                and cause.expected in leaf.expected and leaf.expected.replace(cause.expected, cause.actual) == leaf.actual):
            return cause
    return None


def echoes(leaves: list[Leaf]) -> list[Leaf | None]:
    """For each leaf, the earlier leaf whose change is all of its own (:func:`echoed`), or None."""
    return [echoed(leaf, leaves[:position]) for position, leaf in enumerate(leaves)]


def echo_text(leaf: Leaf, cause: Leaf) -> str:
    """What a leaf whose change is all ``cause``'s says instead of both its values."""
    if leaf.expected == cause.expected:
        return f"the same two values as {cause.path}"
    return f"differs only as {cause.path} does: {value_text(cause.expected)} in it reads {value_text(cause.actual)}"


def step_of(leaf: Leaf) -> int | None:
    return _top_key(leaf.path)[0]


#: Where a value cut on the terminal is whole.
WHOLE = "results.jsonl and the reports hold it whole"


def value_text(value) -> str:
    """A value as a reader sees it: JSON, its start alone past 2,000 characters (``preview``), or ``absent``."""
    return "absent" if value is ABSENT else preview(value, WHOLE)


#: Characters compared at once while looking for where two texts part: each slice comparison is one pass at C speed.
_CHUNK = 4096


def shared_length(expected: str, actual: str) -> int:
    """How many characters the two texts share from their start; found a chunk at a time, then a character at a time within it."""
    start, end = 0, min(len(expected), len(actual))
    while start < end and expected[start:start + _CHUNK] == actual[start:start + _CHUNK]:
        start += _CHUNK
    return next((i for i in range(start, min(start + _CHUNK, end)) if expected[i] != actual[i]), min(start + _CHUNK, end))


PARTING_CONTEXT = 24  # characters shown on each side of where two long texts part


def parting(expected: object, actual: object) -> str | None:
    """Where two texts too long to compare by eye part: the last characters they share, then each one's next.

    None unless both are strings and one is longer than the context shown;
    both values are shown whole beside it, so this only points.
    """
    if not (isinstance(expected, str) and isinstance(actual, str)) or max(len(expected), len(actual)) <= PARTING_CONTEXT:
        return None
    shared = shared_length(expected, actual)
    before = value_text(expected[max(0, shared - PARTING_CONTEXT):shared])
    return (f"they part after character {shared}, {before}: expected {value_text(expected[shared:shared + PARTING_CONTEXT])}, "
            f"actual {value_text(actual[shared:shared + PARTING_CONTEXT])}")
