"""Shrinking a scenario document that shows a failure: delete what it does not need, simplify what it keeps.

The reducer knows JSON, not the rules: it tries deleting steps, list entries
and object fields, then replacing values by simpler ones, and keeps every
change after which the document is still a valid scenario and still shows
the failure. Each kept change makes the document strictly smaller, so it
ends; ``budget`` bounds how many candidates are tried (each costs a run of
the implementation).
"""

from __future__ import annotations

from typing import Callable, Iterator

from gateproof.model.scenario.document import RepeatedKeys

#: Simpler values to try in place of a scalar, in the order tried.
SIMPLER = (0, 1, "", False, None)


class _Pair(int):
    """A step of a path into an object that writes a key twice (a ``RepeatedKeys``): the position of one of its pairs, which its key alone does not name."""


#: The fields that hold text (a record's content, a prompt, a description), which the reducer shortens. Every other
#: string is a name (an id, a user, a skill, a tag, a name drawn with a space around it) and is kept as drawn: a
#: counterexample reads as a plausible case only with its names (a skill named ``""`` would read like a fault of its
#: own), so the empty string appears in one only where the scenario was drawn with it, where it is the point.
TEXT_FIELDS = frozenset({"text", "content", "system_prompt", "system_prompt_override", "description", "note"})


def _field(path: tuple, key) -> object:
    """The name of the field a value stands in: its key, or for an item of a list the list's own key."""
    if isinstance(key, str):
        return key
    named = [step for step in path if isinstance(step, str)]
    return named[-1] if named else None


def size(value: object) -> int:
    """Every node of a JSON value; strings count their length too, so shortening text is progress."""
    if isinstance(value, RepeatedKeys):
        return 1 + sum(1 + size(v) for _, v in value.pairs)
    if isinstance(value, dict):
        return 1 + sum(1 + size(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(size(v) for v in value)
    if isinstance(value, str):
        return 1 + len(value)
    return 1


def _entries(container) -> list[tuple]:
    """(path step, value) of each entry of a list or object; of an object that writes a key twice, of each pair as written."""
    if isinstance(container, RepeatedKeys):
        return [(_Pair(position), value) for position, (_, value) in enumerate(container.pairs)]
    return list(container.items() if isinstance(container, dict) else enumerate(container))


def _containers(value: object, path: tuple = ()) -> Iterator[tuple[tuple, object]]:
    """Every list and object in the document with its path, outermost first."""
    if isinstance(value, (dict, list)):
        yield path, value
        for step, inner in _entries(value):
            yield from _containers(inner, path + (step,))


def _replaced(document, path: tuple, new: object):
    """A copy of ``document`` with the value at ``path`` replaced, sharing every untouched part."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(head, _Pair):
        pairs = list(document.pairs)
        key, inner = pairs[head]
        pairs[head] = (key, _replaced(inner, rest, new))
        return RepeatedKeys(pairs)
    copy = list(document) if isinstance(document, list) else dict(document)
    copy[head] = _replaced(document[head], rest, new)
    return copy


def _deletions(document: dict) -> Iterator[dict]:
    """Candidates with part of one list or object removed: halves first, then single entries."""
    for path, container in _containers(document):
        if path == ():
            continue  # the document's own fields say which rules and kind it is: changing them is another scenario
        if isinstance(container, RepeatedKeys):
            pairs = container.pairs
            for position in range(len(pairs)):
                yield _replaced(document, path, RepeatedKeys(pairs[:position] + pairs[position + 1:]))
        elif isinstance(container, list):
            count = len(container)
            chunk = count // 2
            while chunk >= 1:
                for start in range(0, count, chunk):
                    yield _replaced(document, path, container[:start] + container[start + chunk:])
                chunk //= 2
        else:
            for key in list(container):
                if isinstance(container[key], str) and key not in TEXT_FIELDS:
                    continue  # a name left out reads as "" (its default): kept as drawn
                yield _replaced(document, path, {k: v for k, v in container.items() if k != key})


def _simplifications(document: dict) -> Iterator[dict]:
    for path, container in _containers(document):
        for key, value in _entries(container):
            if isinstance(value, (dict, list)):
                if value:
                    yield _replaced(document, path + (key,), [] if isinstance(value, list) else {})
                continue
            if isinstance(value, str):
                if _field(path, key) not in TEXT_FIELDS:
                    continue  # a name
                yield _replaced(document, path + (key,), value[: len(value) // 2].rstrip())  # text: its first half, still words
            for simpler in SIMPLER:
                if type(simpler) is type(value) and simpler != value:
                    yield _replaced(document, path + (key,), simpler)


def reduce(document: dict, still_fails: Callable[[dict], bool], budget: int = 2000) -> dict:
    """The smallest document found from ``document`` on which ``still_fails`` holds; ``still_fails(document)`` is assumed.

    ``still_fails`` must answer False for a document that is not a valid
    scenario: the reducer proposes many.
    """
    current, current_size, tried = document, size(document), 0
    progress = True
    while progress and tried < budget:
        progress = False
        for candidates in (_deletions, _simplifications):
            for candidate in candidates(current):
                candidate_size = size(candidate)
                if candidate_size >= current_size:
                    continue
                tried += 1
                if still_fails(candidate):
                    current, current_size, progress = candidate, candidate_size, True
                    break
                if tried >= budget:
                    return current
            if progress:
                break
    return current
