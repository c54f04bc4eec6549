"""Argument values drawn from a catalog's declarations: inside the bounds, at them, and one step past them.

Every value is derived from the argument's declared type and bounds
(``tools[].arguments[]``), so a catalog of any team gets its own limits
either side without a pool written for it.
"""

from __future__ import annotations

from gateproof.model.gateway.catalog import ArgumentSpec
from gateproof.model.gateway.catalog_checks import TEXT_TYPES

from .draw import Draw

#: A letter beyond the Basic Multilingual Plane: one code point, two UTF-16 units, so a length counted in units is told apart.
WIDE = "\U0001F512"


def least_length(argument: ArgumentSpec) -> int:
    """G001.5: the shortest text the argument takes: its ``min_length``, else 1 for an identifier and 0 for a string."""
    return argument.min_length if argument.min_length is not None else int(argument.type == "identifier")


def text_of_length(length: int, wide: bool = False) -> str:
    """A text of ``length`` code points, ending in :data:`WIDE` when asked and there is room."""
    if wide and length > 0:
        return "x" * (length - 1) + WIDE
    return "x" * length


def step(argument: ArgumentSpec) -> int | float:
    """How far past a numeric bound the nearest value the catalog refuses lies: 1 for an integer, a small fraction for a number."""
    return 1 if argument.type == "integer" else 0.5


def bounds(argument: ArgumentSpec) -> tuple[object, object]:
    """The least and the greatest value the argument takes; None where it declares no bound."""
    if argument.type in TEXT_TYPES:
        return least_length(argument), argument.max_length
    return argument.minimum, argument.maximum


def inside(d: Draw, argument: ArgumentSpec) -> object:
    """A value the argument takes, at a bound now and then."""
    low, high = bounds(argument)
    if argument.type in TEXT_TYPES:
        length = d.pick([low, high, min(high, max(low, 8)), min(high, low + 1)])
        return text_of_length(length, wide=d.chance(0.3))
    low = low if low is not None else (high - 100 if high is not None else 0)
    high = high if high is not None else low + 100
    if argument.type == "integer":
        low, high = int(-(-low // 1)), int(high // 1)
        return d.pick([low, high, d.number(low, high)])
    middle = round(low + (high - low) * d.random.random(), 2)
    return d.pick([low, high, min(high, max(low, middle))])


def outside(d: Draw, argument: ArgumentSpec) -> object:
    """A value the argument refuses: one past a bound, of another JSON type, a boolean, a number with a fraction for an integer."""
    low, high = bounds(argument)
    options: list = [True, None, [inside(d, argument)]]
    if argument.type in TEXT_TYPES:
        options += [text_of_length(high + 1, wide=d.chance(0.5)), 7]
        if low > 0:
            options.append(text_of_length(low - 1))
    else:
        options.append("1")
        if high is not None:
            options.append(high + step(argument))
        if low is not None:
            options.append(low - step(argument))
        if argument.type == "integer":
            options.append((low if low is not None else 0) + 0.5)
    return d.pick(options)


def either_side(argument: ArgumentSpec) -> list[tuple[str, object, bool]]:
    """Each bound of the argument with the value at it (taken) and one step past it (refused), named for a corpus case."""
    low, high = bounds(argument)
    pairs: list[tuple[str, object, bool]] = []
    if argument.type in TEXT_TYPES:
        pairs += [("longest", text_of_length(high, wide=True), True), ("past-longest", text_of_length(high + 1, wide=True), False)]
        if low > 0:
            pairs += [("shortest", text_of_length(low), True), ("past-shortest", text_of_length(low - 1), False)]
        pairs += [("not-text", 7, False)]
        return pairs
    if high is not None:
        pairs += [("greatest", high, True), ("past-greatest", high + step(argument), False)]
    if low is not None:
        pairs += [("least", low, True), ("past-least", low - step(argument), False)]
    pairs += [("text-for-number", "1", False), ("boolean", True, False)]
    if argument.type == "integer":
        middle = low if low is not None else (high if high is not None else 0)
        pairs += [("integral-fraction", float(middle), True), ("fraction", middle + 0.5, False)]
    return pairs
