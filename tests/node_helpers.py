"""What the tests of the Node implementation compare outcomes by."""

from __future__ import annotations


def typed(value):
    """value with every scalar tagged by its JSON type, so that 1, 1.0 and true never compare equal."""
    if isinstance(value, dict):
        return {key: typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [typed(item) for item in value]
    return (type(value).__name__, value)
