"""What a JSON document may be before it is read as a scenario: its size, its depth and its repeated keys.

S001.4 to S001.6 are stated in ``adr/scenario.md``. The checks here work on
values already parsed; reading the bytes is the caller's (the command line
and the harness read with ``gateproof.conformance.harness.documents.parse_json``).
"""

from __future__ import annotations

from .errors import ScenarioError, join_path

#: S001.4: the most bytes one scenario document may hold (16 MiB).
MAX_DOCUMENT_BYTES = 16 * 1024 * 1024

#: S001.5: the deepest nesting of arrays and objects a document may hold; the document itself is level 1.
MAX_DEPTH = 64


def check_size(size: int, limit: int = MAX_DOCUMENT_BYTES) -> None:
    """S001.4: a :class:`ScenarioError` for a document of ``size`` bytes when that is more than ``limit``."""
    if size > limit:
        raise ScenarioError("$", f"larger than {limit} bytes")


class RepeatedKeys(dict):
    """A JSON object whose text writes some key more than once (S001.6).

    As a mapping it holds each key's last value, which is how most JSON
    parsers read such an object; ``pairs`` keeps every (key, value) in the
    order written, and ``items()`` answers them, so the standard ``json``
    writer writes the object back with its keys repeated.
    """

    __slots__ = ("pairs",)

    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = tuple(pairs)

    def items(self):
        return list(self.pairs)

    def repeated(self) -> list[str]:
        """The keys written more than once, each once, in the order of their second occurrence."""
        seen: set = set()
        twice: list[str] = []
        for key, _ in self.pairs:
            if key in seen and key not in twice:
                twice.append(key)
            seen.add(key)
        return twice

    def __eq__(self, other):
        if isinstance(other, RepeatedKeys):
            return self.pairs == other.pairs
        return not self.repeated() and dict.__eq__(self, other)  # no plain object equals one that repeats a key

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __reduce__(self):
        return (type(self), (self.pairs,))

    def __repr__(self):
        return f"RepeatedKeys({list(self.pairs)!r})"


def read_object(pairs: list) -> dict:
    """An object hook for ``json.loads(object_pairs_hook=...)``: a dict, or a :class:`RepeatedKeys` when a key repeats."""
    document = dict(pairs)
    return document if len(document) == len(pairs) else RepeatedKeys(pairs)


def _children(value):
    """(key or index, child) of an object or array; every pair of a :class:`RepeatedKeys`, the earlier values too."""
    return value.items() if isinstance(value, dict) else enumerate(value)


def too_deep(document: object, limit: int = MAX_DEPTH) -> list | None:
    """S001.5: the path of the first array or object nested deeper than ``limit``; None when there is none.

    Walked with a stack of its own, so no depth at all raises ``RecursionError``.
    """
    if not isinstance(document, (dict, list)):
        return None
    stack = [(document, 1, ())]
    while stack:
        value, depth, path = stack.pop()
        if depth > limit:
            return list(path)
        for key, child in reversed(list(_children(value))):
            if isinstance(child, (dict, list)):
                stack.append((child, depth + 1, (*path, key)))
    return None


def check_depth(document: object, limit: int = MAX_DEPTH) -> None:
    """S001.5: a :class:`ScenarioError` naming the first value nested deeper than ``limit`` levels."""
    path = too_deep(document, limit)
    if path is not None:
        raise ScenarioError(join_path(path), f"nested more than {limit} levels deep")


def _is_proposal(path: tuple) -> bool:
    """Whether ``path`` lies within a call's ``tool`` or ``arguments``: what a model proposed, judged by G001.17."""
    return len(path) >= 3 and path[0] == "steps" and isinstance(path[1], int) and path[2] in ("tool", "arguments")


def check_repeated_keys(document: object) -> None:
    """S001.6: a key written twice in one object is invalid input, except within a call's ``tool`` and ``arguments``.

    The error names the object and the key. Within a proposal the object
    stays a :class:`RepeatedKeys`, and G001.17 refuses the call.
    """
    if not isinstance(document, (dict, list)):
        return
    stack = [(document, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, RepeatedKeys) and value.repeated() and not _is_proposal(path):
            raise ScenarioError(join_path(path), f"the key {value.repeated()[0]!r} is written more than once")
        for key, child in reversed(list(_children(value))):
            if isinstance(child, (dict, list)):
                stack.append((child, (*path, key)))


def has_repeated_key(value: object) -> bool:
    """Whether ``value`` or any object nested in it writes a key more than once."""
    stack = [value] if isinstance(value, (dict, list)) else []
    while stack:
        current = stack.pop()
        if isinstance(current, RepeatedKeys) and current.repeated():
            return True
        stack.extend(child for child in (current.values() if isinstance(current, dict) else current) if isinstance(child, (dict, list)))
    return False
