"""How each path reads a list of uids from what it was handed (ADR-164, ADR-165, ADR-175).

Three paths rebuild a forced set from uids and each reads them by its own
rule; none removes duplicates or reorders.
"""

from __future__ import annotations

import re

# PHP's is_numeric: optional leading and trailing whitespace, a sign, digits
# with an optional fraction (or a fraction alone), an optional exponent.
_NUMERIC = re.compile(r"[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*\Z")
_INT_MAX = 2**63 - 1
_INT_MIN = -(2**63)


def _as_php_int(value: float | int | str) -> int:
    """PHP's ``(int)`` on a number or numeric string, saturating at the 64-bit limits."""
    number = float(value) if isinstance(value, str) else value
    if isinstance(number, float):
        if number != number:
            return 0
        number = int(number) if abs(number) < 2**63 else (_INT_MAX if number > 0 else _INT_MIN)
    return max(_INT_MIN, min(_INT_MAX, number))


def read_request_uids(raw: object) -> tuple[int, ...]:
    """C164.6: a playground request keeps each numeric entry whose integer value is above 0; a non-list gives none."""
    if not isinstance(raw, (list, tuple)):
        return ()
    uids = []
    for entry in raw:
        if isinstance(entry, bool) or not isinstance(entry, (int, float, str)):
            continue
        if isinstance(entry, str):
            if not _NUMERIC.match(entry):
                continue
            if re.fullmatch(r"\s*[+-]?\d+\s*", entry):
                value = max(_INT_MIN, min(_INT_MAX, int(entry)))
            else:
                value = _as_php_int(entry.strip())
        else:
            value = _as_php_int(entry)
        if value > 0:
            uids.append(value)
    return tuple(uids)


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
