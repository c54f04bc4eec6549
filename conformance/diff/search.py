"""Where two rule versions part: a search for the smallest stories they decide differently.

Seeded stories (:mod:`gateproof.conformance.generation.stories`) are run
under both versions, and the first on which the outcomes differ in a way not
yet found is reduced, as a document, to the smallest story that still
differs in that way; every difference found is attributed to the
consequence an ADR documents for it, or reported as unexpected. The ADRs'
own consequence claims are checked the same way (``gateproof.conformance.diff.claims``).
"""

from __future__ import annotations

import time
from typing import Callable, Iterator

from attrs import frozen

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.versions import adr_versions, declarations, declared, predecessor

from ..generation.reducer import reduce
from ..generation.stories import story_document

def outcome_under(document: dict, version: str) -> dict:
    """The outcome of a scenario document run under ``version`` instead of the rules it names."""
    return run_scenario(read_scenario({**document, "rules": version}))


_ABSENT = object()


def differing_keys(left: dict, right: dict) -> list[str]:
    return sorted(k for k in set(left) | set(right) if left.get(k, _ABSENT) != right.get(k, _ABSENT))


def first_difference(left: dict, right: dict) -> tuple[int, list[str]] | None:
    """The first step whose results differ, and the keys that differ in it."""
    for position, (a, b) in enumerate(zip(left["results"], right["results"])):
        keys = differing_keys(a, b)
        if keys:
            return position, keys
    return None


def diff_order() -> list[str]:
    """Every declared version, the ADR versions in the order they were written, then the profiles of the code."""
    return [d.name for d in adr_versions()] + [d.name for d in declarations() if d.profile_of is not None]


def ordered(a: str, b: str) -> tuple[str, str]:
    """The two versions, older first."""
    order = diff_order()
    return tuple(sorted((a, b), key=order.index))


def _position(version: str) -> int:
    """Where a version stands among the ADR versions: a profile stands where the version it departs from does."""
    declaration = declared(version)
    return [d.name for d in adr_versions()].index(declaration.profile_of or version)


def within(version: str, first: str, last: str | None) -> bool:
    """Whether ``version`` stands between ``first`` and ``last`` (None: the latest), both included."""
    return _position(first) <= _position(version) <= (_position(last) if last is not None else len(adr_versions()))


def span_words(span) -> str:
    return f"{span.holds_from} to {span.holds_until}" if span.holds_until else f"{span.holds_from} on"


def _lineage(version: str) -> list[str]:
    """The version, its predecessor, and so on back to the first."""
    names = []
    current = declared(version)
    while current is not None:
        names.append(current.name)
        current = predecessor(current.name)
    return names


def between(older: str, newer: str) -> list[str]:
    """The versions whose changes part the two: each one's line back to the version both come from, in diff order."""
    left, right = _lineage(older), _lineage(newer)
    common = next(name for name in left if name in right)
    apart = left[:left.index(common)] + right[:right.index(common)]
    return sorted(apart, key=diff_order().index)


def documented_consequence(older: str, newer: str, op: str, keys: list[str]) -> str | None:
    """The consequence a version between the two documents for a difference at ``op`` in ``keys``; None when none does."""
    for version in between(older, newer):
        for consequence in declared(version).consequences:
            if consequence.covers(op, keys):
                return consequence.text
    return None


@frozen
class Difference:
    """One story two versions decide differently, with where and why."""

    scenario: dict
    step: int
    op: str
    keys: tuple[str, ...]
    left: dict  # the outcome under the --from version
    right: dict
    consequence: str | None  # the documented consequence, or None: unexpected
    seconds: float  # from the start of the search until this one was found and shrunk

    @property
    def signature(self) -> tuple:
        return signature(self.op, list(self.keys), self.consequence)


def signature(op: str, keys: list[str], consequence: str | None) -> tuple:
    """Two differences are the same finding when one step kind differs for one documented reason."""
    return (op, consequence) if consequence is not None else (op, tuple(keys))


#: Stories a difference may be reduced through: each costs a decision under both versions.
REDUCTION_BUDGET = 2000


def _finding(document: dict, left: str, right: str) -> tuple | None:
    """The signature of the first step ``document``'s outcomes differ at under the two versions; None when they agree."""
    found = first_difference(outcome_under(document, left), outcome_under(document, right))
    if found is None:
        return None
    position, keys = found
    op = document["steps"][position]["op"]
    return signature(op, keys, documented_consequence(*ordered(left, right), op, keys))


def _valid(document: dict) -> bool:
    try:
        read_scenario(document)
    except ScenarioError:
        return False
    return True


def each_difference(left: str, right: str, examples: int = 1000, limit: int = 3, seed: int = 0,
                    on_story: Callable[[], None] = lambda: None) -> Iterator[Difference]:
    """Up to ``limit`` reduced stories on which the versions differ, each at a different (op, keys), each as soon as it is found.

    Each search tries up to ``examples`` new stories. ``on_story`` is called
    for every story run under both versions, those tried while reducing included.
    """
    older, newer = ordered(left, right)
    seen: set = set()
    started = time.perf_counter()
    stories = (story_document(seed * 1_000_003 + number) for number in range(examples * limit))
    for _ in range(limit):
        for _, story in zip(range(examples), stories):
            on_story()
            found = _finding(story, left, right)
            if found is not None and found not in seen:
                break
        else:
            return

        def same_finding(document: dict, wanted: tuple = found) -> bool:
            if not _valid(document):
                return False
            on_story()
            return _finding(document, left, right) == wanted

        document = reduce(story, same_finding, REDUCTION_BUDGET)
        a, b = outcome_under(document, left), outcome_under(document, right)
        position, keys = first_difference(a, b)
        op = document["steps"][position]["op"]
        difference = Difference(document, position, op, tuple(keys), a, b, documented_consequence(older, newer, op, keys), time.perf_counter() - started)
        seen.add(difference.signature)
        yield difference


def search_differences(left: str, right: str, examples: int = 1000, limit: int = 3, seed: int = 0) -> list[Difference]:
    """Every difference :func:`each_difference` finds."""
    return list(each_difference(left, right, examples, limit, seed))


def forced_source_count(document: dict) -> int:
    """How many forced uids a story asks for, over all its steps."""
    return sum(len(s.get("forced_snippets", [])) + len(s.get("forced_skills", [])) for s in document["steps"])
