"""How strictly an implementation's outcome is held to the model's: decision, reason, or full.

- ``decision``: the same number of results, each with the same ``op`` and the
  same verdict: ``decision`` (a send, a run's send, a gateway call), ``ended``
  (a run that ended), ``effective`` (a readout or classify).
- ``reason``: the decision, and what the verdict is attributed to: the
  declared class and the named ``source`` of a send, the ``effective_source``
  of a readout, the ``reason``, ``caller_reason`` and ``rule`` of a call.
- ``full``: the whole outcome document, byte for byte once parsed: names,
  messages, exceptions, audit records, exports, dropped records, stored state.
"""

from __future__ import annotations

import orjson
from attrs import frozen

from gateproof.model.scenario.document import RepeatedKeys

LEVELS = ("decision", "reason", "full")
DECISION_KEYS = ("op", "decision", "ended", "effective")
REASON_KEYS = DECISION_KEYS + ("declared_class", "source", "effective_source", "reason", "caller_reason", "rule")

#: The ceiling rules that define each key of a send or readout result (adr/ceiling.md, adr/lifecycle.md). The zone
#: is the primary provider's widened by the fallbacks, none of which uses the serving model: a differing zone may
#: come from any of the three rules, as the explanation's zone step lists them. The source named is the fold's
#: over the sources in composition order, tag-selected snippets in theirs: on a tie the order decides the name.
RULES_OF_KEY = {
    "declared_class": ("C144.9",), "source": ("C144.9", "C144.3", "C144.4"), "decision": ("C144.10",), "sent": ("C144.11",),
    "message": ("C144.12",), "exception": ("C144.13",), "audit": ("C144.14",), "zone": ("C094.8", "C094.10", "C149.1"),
    "ceiling": ("C094.4",), "effective": ("C144.16",), "effective_source": ("C144.16", "C144.3", "C144.4"), "sources": ("C144.16",),
    "dropped": ("C179.1",), "enforcing": ("C113.1",),
}
#: The lifecycle rule that decides each field a run's step adds to a send's (adr/lifecycle.md, adr/scenario.md).
RULES_OF_RUN_KEY = {
    "state": ("C165.1",), "forced_snippets": ("C175.3",), "forced_skills": ("C175.3",), "ended": ("S001.3",),
    "run": ("S001.3",), "with_input": ("S001.3",), "kind": ("S002.2",),
}
#: The keys of a step's result in the order the rules derive them, the outcome's own order aside: the forced
#: set a run reads, the sources and their fold, the zone and its ceiling, the switch, then the decision and
#: what follows from it; a call's checks give its reason before its decision. The first leaf listed is
#: then the earliest a reader can look for the cause, and the later ones often follow from it.
DERIVATION_ORDER = {key: rank for rank, key in enumerate((
    "op", "kind", "run", "session", "state", "forced_snippets", "forced_skills", "dropped", "sources", "declared_class",
    "source", "effective", "effective_source", "zone", "ceiling", "enforcing", "reason", "rule", "caller_reason", "stage",
    "replayed", "decision", "ended", "sent", "message", "exception", "exports", "reads", "writes", "audit",
))}
_ABSENT = object()


def rules_of_key(key: str) -> tuple[str, ...]:
    """The rules that define ``key`` of a send's, readout's or run step's result; none for a key no rule names."""
    return RULES_OF_RUN_KEY.get(key) or RULES_OF_KEY.get(key, ())


def derivation_rank(key: str | None) -> int:
    """Where ``key`` comes in :data:`DERIVATION_ORDER`; a key it does not list comes after every key it does."""
    return DERIVATION_ORDER.get(key, len(DERIVATION_ORDER))


@frozen
class Mismatch:
    """Where an outcome first departs from the model's: a step (None for the document itself) and the keys."""

    step: int | None
    keys: tuple[str, ...]


def _keys_at(level: str) -> tuple[str, ...] | None:
    if level not in LEVELS:
        raise ValueError(f"unknown strictness {level!r}; choose one of {', '.join(LEVELS)}")
    return {"decision": DECISION_KEYS, "reason": REASON_KEYS, "full": None}[level]


def same_json(first: object, second: object) -> bool:
    """S001.11: whether two parsed JSON values are one value: objects whatever their key order, lists in order, numbers by value.

    Python's ``==`` holds ``true`` equal to 1 and ``false`` to 0; JSON does
    not, so a boolean equals only itself. An object that writes a key twice
    equals only one that writes the same pairs in the same order. ``==`` is
    coarser than this equality, so what it tells apart is never one value,
    and two values written alike in canonical form are one: only the rest is
    walked. A value is one value with itself: a reply read as the very outcome
    expected (``ImplementationProcess.run_many``) is not written out again.
    """
    if first is second:
        return True
    if first != second:
        return False
    try:
        if _canonical(first) == _canonical(second):
            return True
    except TypeError:  # an integer beyond 64 bits, an object that writes a key twice: walked
        pass
    return _same(first, second)


def _canonical(value: object) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_SUBCLASS)


def _same(first: object, second: object) -> bool:
    if first is second:
        return True
    if isinstance(first, bool) or isinstance(second, bool) or first is None or second is None:
        return False
    if isinstance(first, RepeatedKeys) or isinstance(second, RepeatedKeys):
        return isinstance(first, RepeatedKeys) and isinstance(second, RepeatedKeys) and len(first.pairs) == len(second.pairs) and all(
            a == b and _same(x, y) for (a, x), (b, y) in zip(first.pairs, second.pairs))
    if isinstance(first, dict) or isinstance(second, dict):
        return isinstance(first, dict) and isinstance(second, dict) and first.keys() == second.keys() and all(_same(v, second[k]) for k, v in first.items())
    if isinstance(first, list) or isinstance(second, list):
        return isinstance(first, list) and isinstance(second, list) and len(first) == len(second) and all(map(_same, first, second))
    return first == second


def differing_keys(expected: dict, actual: dict, keys: tuple[str, ...] | None) -> tuple[str, ...]:
    names = set(expected) | set(actual) if keys is None else keys
    return tuple(sorted(k for k in names if not same_json(expected.get(k, _ABSENT), actual.get(k, _ABSENT))))


def compare(expected: dict, actual: dict, level: str, unobservable: tuple[str, ...] = ()) -> Mismatch | None:
    """S001.11: the first place ``actual`` departs from ``expected`` at strictness ``level``; None when they agree.

    A key of a result the implementation declares ``unobservable`` (an MCP server that records no rule ids) is
    compared at no level: it carries nothing the implementation decided.
    """
    keys = _keys_at(level)
    if level == "full":
        header = differing_keys({k: v for k, v in expected.items() if k != "results"}, {k: v for k, v in actual.items() if k != "results"}, None)
        if header:
            return Mismatch(None, header)
    for position, (mine, theirs) in enumerate(zip(expected["results"], actual["results"])):
        found = differing_keys(mine, theirs, keys)
        if unobservable:
            found = tuple(key for key in found if key not in unobservable)
        if found:
            return Mismatch(position, found)
    if len(expected["results"]) != len(actual["results"]):
        return Mismatch(None, ("results",))
    return None


def rule_ids(mismatch: Mismatch, expected: dict, actual: dict, pinned: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The rules a disagreement involves: the rule the model's call result names (the check that decides it), those
    a corpus case pins, the rule the implementation's call result names, then those defining the keys (in the order
    the rules derive them)."""
    if mismatch.step is None:
        return tuple(dict.fromkeys(pinned))
    ours, theirs = (doc["results"][mismatch.step] if mismatch.step < len(doc["results"]) else {} for doc in (expected, actual))
    named = [result["rule"] if isinstance(result.get("rule"), str) else None for result in (ours, theirs)]
    found = [named[0], *pinned, named[1]]
    if ours.get("op") != "call":
        found += (rule for key in sorted(mismatch.keys, key=derivation_rank) for rule in rules_of_key(key))
    return tuple(dict.fromkeys(filter(None, found)))
