"""A nondeterministic gateway: the first answer to a scenario comes from the cross-tenant bug, any later one is right.

Keyed by the scenario itself, not by a count of calls, so which answers are
wrong does not depend on what ran before in the same process.
"""

import json

from . import cross_tenant_gateway, lab_gateway

_seen: set[str] = set()


def run(scenario: dict) -> dict:
    key = json.dumps(scenario, sort_keys=True)
    first = key not in _seen
    _seen.add(key)
    return (cross_tenant_gateway if first else lab_gateway).run(scenario)
