"""How each path reads a list of uids from what it was handed (ADR-164, ADR-165, ADR-175).

Three paths rebuild a forced set from uids and each reads them by its own
rule; none removes duplicates or reorders.
"""

from __future__ import annotations

import re

# PHP's is_numeric: optional leading and trailing whitespace, a sign, ASCII
# digits with an optional fraction (or a fraction alone), an optional exponent.
# Python's \d would also accept other scripts' digits, which PHP refuses.
_SPACE = "[ \t\n\r\v\f]*"
_NUMERIC = re.compile(_SPACE + r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?" + _SPACE + r"\Z")
_INTEGER = re.compile(_SPACE + r"[+-]?[0-9]+" + _SPACE + r"\Z")
_INT_MAX = 2**63 - 1
_INT_MIN = -(2**63)


def _saturated(number: int) -> int:
    return number if _INT_MIN <= number <= _INT_MAX else (_INT_MAX if number > 0 else _INT_MIN)


def _as_php_int(value: object) -> int | None:
    """PHP's ``(int)`` on a number or numeric string, saturating at the 64-bit limits; None when not numeric.

    An integer string is cast exactly; any other numeric string goes through
    a float first, as PHP does, so ``"1.9"`` is 1 and ``"1e3"`` is 1000.
    """
    if type(value) is int:  # the common case first; a bool is not an int here
        return _saturated(value)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    if isinstance(value, str):
        if _INTEGER.match(value):
            return _saturated(int(value))
        if not _NUMERIC.match(value):
            return None
        value = float(value)
    if isinstance(value, float):
        if value != value:
            return 0
        return int(value) if abs(value) < 2**63 else (_INT_MAX if value > 0 else _INT_MIN)
    return _saturated(value)


def read_request_uids(raw: object) -> tuple[int, ...]:
    """C164.6: a playground request keeps each numeric entry whose integer value is above 0; a non-list gives none."""
    if not isinstance(raw, (list, tuple)):
        return ()
    values = (_as_php_int(entry) for entry in raw)
    return tuple(value for value in values if value is not None and value > 0)


def read_queued_uids(raw: object) -> tuple[int, ...]:
    """C175.4: a queued payload keeps positive integers only, so ``"12"`` is dropped on this path."""
    if not isinstance(raw, (list, tuple)):
        return ()
    return tuple(e for e in raw if isinstance(e, int) and not isinstance(e, bool) and e > 0)


def read_suspended_uids(raw: object) -> tuple[int, ...]:
    """C165.2: a suspended state keeps positive integers and all-digit strings above 0; a missing key gives none."""
    if not isinstance(raw, (list, tuple)):
        return ()
    uids = []
    for entry in raw:
        if isinstance(entry, bool):
            continue
        if isinstance(entry, int) and entry > 0:
            uids.append(entry)
        elif isinstance(entry, str) and entry.isascii() and entry.isdigit() and int(entry) > 0:
            uids.append(int(entry))
    return tuple(uids)
