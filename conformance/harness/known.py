"""Known divergences: disagreements an implementation is allowed, each with the issue that tracks it.

A file lists entries ``{"implementation"?, "scenario" | "rule", "issue"}``
(``conformance/schema/protocol/known-divergences.json``); a disagreement on a
listed scenario id, or involving a listed rule id, is reported as known with
that issue instead of as a failure. Nothing is tolerated silently.
"""

from __future__ import annotations

from attrs import frozen

from .inputs import read_json
from .protocol import check


@frozen
class KnownDivergence:
    issue: str
    scenario: str | None = None
    rule: str | None = None
    implementation: str | None = None

    def covers(self, implementation: str, scenario_id: str, rules: tuple[str, ...]) -> bool:
        if self.implementation is not None and self.implementation != implementation:
            return False
        return self.scenario == scenario_id or (self.rule is not None and self.rule in rules)


def read_known(path: str) -> tuple[KnownDivergence, ...]:
    """The divergences declared in ``path``, read as a scenario is (at most 16 MiB, no key written twice).

    Raises ``InputError`` naming the file when it cannot be read as JSON, ProtocolError when it breaks its schema.
    """
    document = read_json(path)
    check("known-divergences", document)
    return tuple(KnownDivergence(**entry) for entry in document["divergences"])


def known_issue(known: tuple[KnownDivergence, ...], implementation: str, scenario_id: str, rules: tuple[str, ...]) -> str | None:
    """The issue of the first declared divergence covering this disagreement, or None."""
    return next((k.issue for k in known if k.covers(implementation, scenario_id, rules)), None)
