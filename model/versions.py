"""The rule versions a scenario may select, each a small difference from its predecessor.

``adr-179`` is the latest ADR text and the default. ``nr-llm`` is the code as
it stands where it departs from that text.
"""

from __future__ import annotations

from attrs import evolve, frozen


@frozen
class Rules:
    """The switches by which one rule version differs from another."""

    name: str
    #: C164.1: a run's forced sources are folded with the configuration's own.
    gates_forced_sources: bool = True


LATEST = Rules("adr-179")

VERSIONS: dict[str, Rules] = {
    # Before ADR-164 the gate folded classify(): the forced set was shown, not gated.
    "pre-164": evolve(LATEST, name="pre-164", gates_forced_sources=False),
    "adr-164": evolve(LATEST, name="adr-164"),
    "adr-165": evolve(LATEST, name="adr-165"),
    "adr-166": evolve(LATEST, name="adr-166"),
    "adr-175": evolve(LATEST, name="adr-175"),
    "adr-179": LATEST,
    "nr-llm": evolve(LATEST, name="nr-llm"),
}

DEFAULT_VERSION = LATEST.name


def rules_named(name: str) -> Rules:
    return VERSIONS[name]
