"""Scenario generation for verify campaigns: fast seeded generators, and a reducer that shrinks what they find.

``scenarios(kind, version, seed)`` is an endless, reproducible stream of
scenario documents valid against the scenario schema; the same arguments
give the same stream in any process. Documents drawn on one world hold
one dict as their world, so whoever reads them may read it once; no one
may change a document drawn here (the reducer copies what it edits). The hypothesis strategies
(``gateproof.conformance.generation.ceiling_strategies`` and its siblings) stay what property
tests draw from; a campaign draws from here, since it needs thousands of
scenarios a second.
"""

from __future__ import annotations

import zlib
from typing import Iterator

from gateproof.model.gateway.catalog import read_catalog

from .ceiling import scenarios_on_a_world
from .draw import Draw
from .catalog_gateway import catalog_scenario
from .gateway import gateway_scenario

#: Each kind's generator: the scenarios drawn on one world, numbered from a given number.
GENERATORS = {
    "ceiling": scenarios_on_a_world,  # several on each world
    "gateway": lambda d, version, first: [gateway_scenario(d, version, first)],  # one: its world is drawn with its clock and calls
}


def under_catalog(document: dict):
    """The gateway generator for scenarios under the catalog ``document``, read once."""
    catalog = read_catalog(document)
    return lambda d, version, first: [catalog_scenario(d, catalog, document, version, first)]


def stream_seed(kind: str, version: str, seed: int) -> int:
    """One seed per (kind, version, seed), the same in every process (``hash`` of a string is not)."""
    return zlib.crc32(f"{kind}/{version}".encode()) ^ (seed * 0x9E3779B1)


def scenarios(kind: str, version: str, seed: int = 0, catalog: dict | None = None) -> Iterator[dict]:
    """The stream for one kind and rule version; gateway scenarios under ``catalog`` (a catalog document) when one is given."""
    generate, d = GENERATORS[kind], Draw(stream_seed(kind, version, seed))
    if catalog is not None and kind == "gateway":
        generate = under_catalog(catalog)
    number = 0
    while True:
        for document in generate(d, version, number + 1):
            number += 1
            yield document
