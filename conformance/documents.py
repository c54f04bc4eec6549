"""Reading JSON documents from files and streams, with errors a person can act on."""

from __future__ import annotations

import json

import orjson

from gateproof.model.scenario import ScenarioError


# orjson reads an integer beyond 64 bits as a float; a run of 20 digits marks
# a document that the exact (and slower) standard parser must read instead.
# The run is found by turning every digit into "0" and every other byte into
# "x", then searching for twenty zeros: ten times cheaper than a regular
# expression, which tries a match at every position.
_DIGITS_TO_ZERO = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x78 for byte in range(256))
_LONG_RUN = b"0" * 20


def has_long_number(raw: bytes) -> bool:
    """Whether the text holds a run of at least 20 ASCII digits (an integer orjson cannot keep exact)."""
    return _LONG_RUN in raw.translate(_DIGITS_TO_ZERO)


def parse_json(data: bytes | str, where: str = "$") -> object:
    """Parse one JSON document, integers exact at any size; malformed text is a :class:`ScenarioError` at ``where``."""
    raw = data.encode() if isinstance(data, str) else data
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise ScenarioError(where, f"not valid JSON ({error})") from None
    if has_long_number(raw):
        try:
            return json.loads(raw)
        except RecursionError:
            raise ScenarioError(where, "not valid JSON (nested too deeply)") from None
    return document


def dumps(document: object) -> bytes:
    return orjson.dumps(document)


def dumps_pretty(document: object) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_INDENT_2)
