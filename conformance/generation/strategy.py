"""The hypothesis strategy of each scenario kind and rule version: what property tests and the pytest plugin draw from.

Hypothesis shrinks what it draws by itself, which a test in a team's own
suite wants; a verify campaign draws from the faster seeded generators beside
this module instead.
"""

from __future__ import annotations

import math

from hypothesis import strategies as st

from .gateway_strategies import gateway_scenarios
from .lifecycle_strategies import lifecycle_scenarios
from .ceiling_strategies import ceiling_scenarios

#: Every integer a generated scenario holds fits here, so it reads exactly in any language (JavaScript's safe integers).
PORTABLE_INTEGERS = 2**53 - 1


def is_portable(value: object) -> bool:
    """Whether JSON can carry every number in a value (no NaN or infinity) and every language reads each integer exactly."""
    if isinstance(value, dict):
        return all(is_portable(v) for v in value.values())
    if isinstance(value, list):
        return all(is_portable(v) for v in value)
    if isinstance(value, float):
        return math.isfinite(value)
    return not isinstance(value, int) or isinstance(value, bool) or -PORTABLE_INTEGERS <= value <= PORTABLE_INTEGERS


def strategy_for(kind: str, version: str) -> st.SearchStrategy[dict]:
    if kind == "gateway":
        return gateway_scenarios(rules=version).filter(is_portable)
    return st.one_of(ceiling_scenarios(rules=version), lifecycle_scenarios(rules=version)).filter(is_portable)
