"""What each JSON Schema validator earns: ``python -m gateproof.conformance.bench.schema [COUNT]``.

Validation runs ``jsonschema-rs`` on every document and ``jsonschema`` only
when a document is invalid, to choose the most relevant error. This prints,
on generated scenarios of both kinds, the microseconds each validator takes
for a valid document beside a whole ``read_scenario`` and ``run_scenario``,
and, on the same scenarios each broken at one random field, how often the
compiled validator's first error names the same field as ``jsonschema``'s
choice. Figures are printed, never asserted.
"""

from __future__ import annotations

import copy
import sys
import time
from itertools import islice
from random import Random

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


def broken(document: dict, random: Random) -> dict:
    """The document with one field replaced by a wrong value, or removed."""
    document = copy.deepcopy(document)
    path = random.choice([p for p in _places(document) if p])
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and random.random() < 0.3:
        del parent[path[-1]]
    else:
        parent[path[-1]] = random.choice(BROKEN_VALUES)
    return document


def measure(count: int = 2500, print=print) -> dict:
    import jsonschema
    import jsonschema_rs
    from jsonschema.exceptions import best_match

    from gateproof.model.scenario import read_scenario, run_scenario
    from gateproof.model.scenario.schema import schema

    from ..generation import scenarios

    documents = [s for kind, rules in (("ceiling", "adr-179"), ("gateway", "lab-001")) for s in islice(scenarios(kind, rules, 0), count)]
    fast, precise = jsonschema_rs.validator_for(schema("scenario")), jsonschema.Draft202012Validator(schema("scenario"))
    figures = {"jsonschema_rs": _seconds_each(fast.is_valid, documents), "jsonschema": _seconds_each(precise.is_valid, documents),
               "decide": _seconds_each(lambda d: run_scenario(read_scenario(d)), documents)}
    random, same, invalid = Random(0), 0, 0
    for document in documents[:: max(1, len(documents) // 500)]:
        wrong = broken(document, random)
        if fast.is_valid(wrong):
            continue
        invalid += 1
        same += list(best_match(precise.iter_errors(wrong)).absolute_path) == list(next(iter(fast.iter_errors(wrong))).instance_path)
    figures.update(invalid=invalid, same_field=same)
    print(f"a valid scenario ({len(documents)} generated): jsonschema-rs {figures['jsonschema_rs'] * 1e6:.1f} µs, "
          f"jsonschema {figures['jsonschema'] * 1e6:.1f} µs; read and decided in {figures['decide'] * 1e6:.1f} µs")
    print(f"an invalid one ({invalid} broken at one field): the compiled validator's first error names jsonschema's "
          f"chosen field in {same} ({same / max(invalid, 1):.0%})")
    return figures


if __name__ == "__main__":
    measure(int(sys.argv[1]) if len(sys.argv) > 1 else 2500)
