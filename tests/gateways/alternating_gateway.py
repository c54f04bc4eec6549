"""A nondeterministic gateway: every other answer comes from the cross-tenant bug, the rest are right."""

import itertools

from . import cross_tenant_gateway, lab_gateway

_calls = itertools.count()


def run(scenario: dict) -> dict:
    return (cross_tenant_gateway if next(_calls) % 2 else lab_gateway).run(scenario)
