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
_INF = float("inf")


def _kept(number: int | float) -> int | None:
    """C164.6: PHP's ``(int)`` of a number when it is above 0, saturating at PHP_INT_MAX; None when it is not above 0.

    Every path keeps only uids above 0, so a value below 1 is dropped here
    whatever PHP would make of it, and no lower limit is needed.
    """
    return None if number < 1 else (int(number) if number < 2**63 else _INT_MAX)


def _as_php_int(value: object) -> int | None:
    """PHP's ``(int)`` on a number or numeric string, when above 0 (:func:`_kept`); None when not numeric or not above 0.

    An integer string is cast exactly; any other numeric string goes through
    a float first, as PHP does, so ``"1.9"`` is 1 and ``"1e3"`` is 1000. A
    JSON value is exactly an int, a float, a string or something else, so a
    bool (JSON's true) is not a number here.
    """
    if type(value) is str:
        if _INTEGER.match(value):
            return _kept(int(value))
        if not _NUMERIC.match(value):
            return None
        value = float(value)
    return _kept(value) if type(value) in (int, float) else None


def _wrapped(number: float) -> int:
    """PHP 8's ``(int)`` of a finite float: its integer value modulo 2**64, signed, which within the 64-bit range is the integer value itself."""
    value = int(number) % 2**64
    return value - 2**64 if value > _INT_MAX else value


def _as_decoded_php_int(value: object) -> int | None:
    """C164.6 under ``nr-llm``: ``(int)`` of what ``json_decode`` made of a request's entry.

    A JSON number beyond the 64-bit range is a float there, and ``(int)``
    wraps a float modulo 2**64 instead of saturating, an infinite one to 0;
    a numeric string is cast as :func:`_as_php_int` casts it, saturating,
    except that one whose float is infinite is 0 too. None stands for 0, as
    for every value not above 0. A JSON number is never infinite (the reader
    refuses one beyond a double's range), so a float here is finite.
    """
    if isinstance(value, str):
        if _NUMERIC.match(value) and not _INTEGER.match(value) and float(value) in (_INF, -_INF):
            return None
        return _as_php_int(value)
    if type(value) is int and abs(value) > _INT_MAX:
        try:
            value = float(value)
        except OverflowError:  # beyond any float: json_decode gives an infinite one
            return None
    if isinstance(value, float):
        return _kept(_wrapped(value))
    return _as_php_int(value)


def read_request_uids(raw: object, numbers_wrap: bool) -> tuple[int, ...]:
    """C164.6: a playground request (an array, as the schema makes it) keeps each numeric entry whose integer value is above 0.

    ``numbers_wrap`` (the ``nr-llm`` profile): a number beyond 64 bits wraps modulo 2**64 instead of saturating.
    """
    cast = _as_decoded_php_int if numbers_wrap else _as_php_int
    values = (cast(entry) for entry in raw)
    return tuple(value for value in values if value is not None)


def read_queued_uids(raw: object, numbers_decoded: bool) -> tuple[int, ...]:
    """C175.4: a queued payload (an array, as the schema makes a queue's uids) keeps positive integers only, so ``"12"`` is dropped on this path.

    ``numbers_decoded`` (the ``nr-llm`` profile): an integer beyond PHP's range is the float ``json_decode`` makes of it, so it is dropped too.
    """
    return tuple(e for e in raw if isinstance(e, int) and not isinstance(e, bool) and e > 0 and not (numbers_decoded and e > _INT_MAX))


def read_suspended_uids(raw: object, object_values: bool) -> tuple[int, ...]:
    """C165.2: a suspended state keeps positive integers and all-digit strings above 0; a missing key gives none.

    ``object_values`` (the ``nr-llm`` profile): a JSON object is read by its values in order, as a PHP array.
    """
    if object_values and isinstance(raw, dict):
        raw = list(raw.values())
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
