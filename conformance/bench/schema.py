"""What validation costs and how well its error aims: ``python -m gateproof.conformance.bench.schema [COUNT]``.

This prints, on generated scenarios of both kinds, the microseconds the
compiled validator takes for a valid document beside a whole
``read_scenario`` and ``run_scenario``, and, on the same scenarios each
broken at one random field, how often the refusal names the field that was
broken (it, or the object or array holding it, or a field inside it).
Figures are printed, never asserted.
"""

from __future__ import annotations

import copy
import sys
import time
from itertools import islice
from random import Random

from gateproof.model.scenario.errors import join_path

BROKEN_VALUES = (None, 7, -1, "", "x" * 300, [], {}, True, 1.5, {"unexpected": 1})


def _seconds_each(function, documents: list) -> float:
    best = float("inf")
    for _ in range(3):
        began = time.perf_counter()
        for document in documents:
            function(document)
        best = min(best, time.perf_counter() - began)
    return best / len(documents)


def _places(value, path=()):
    yield path
    children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in children:
        yield from _places(child, (*path, key))


def broken(document: dict, random: Random) -> tuple[dict, tuple]:
    """The document with one field replaced by a wrong value, or removed; and the path of that field."""
    document = copy.deepcopy(document)
    path = random.choice([p for p in _places(document) if p])
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and random.random() < 0.3:
        del parent[path[-1]]
    else:
        parent[path[-1]] = random.choice(BROKEN_VALUES)
    return document, path


def _aims_at(named: str, path: tuple) -> bool:
    """Whether a refusal naming ``named`` names the field at ``path``, what holds it or something inside it."""
    broken_at = join_path(path)
    return named == broken_at or broken_at.startswith(named + ".") or broken_at.startswith(named + "[") or named.startswith(broken_at)


def measure(count: int = 2500, print=print) -> dict:
    import jsonschema_rs

    from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
    from gateproof.model.scenario.schema import schema

    from ..generation import scenarios

    documents = [s for kind, rules in (("ceiling", "adr-179"), ("gateway", "lab-001")) for s in islice(scenarios(kind, rules, 0), count)]
    validator = jsonschema_rs.validator_for(schema("scenario"))
    figures = {"jsonschema_rs": _seconds_each(validator.is_valid, documents),
               "decide": _seconds_each(lambda d: run_scenario(read_scenario(d)), documents)}
    random, aimed, invalid = Random(0), 0, 0
    for document in documents[:: max(1, len(documents) // 500)]:
        wrong, path = broken(document, random)
        try:
            read_scenario(wrong)
        except ScenarioError as refusal:
            invalid += 1
            aimed += _aims_at(refusal.path, path)
    figures.update(invalid=invalid, aimed=aimed)
    print(f"a valid scenario ({len(documents)} generated): validated in {figures['jsonschema_rs'] * 1e6:.1f} µs; "
          f"read and decided in {figures['decide'] * 1e6:.1f} µs")
    print(f"an invalid one ({invalid} broken at one field): the refusal names the broken field in {aimed} ({aimed / max(invalid, 1):.0%})")
    return figures


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 2500)
