"""Reading JSON documents from files and streams, with errors a person can act on."""

from __future__ import annotations

import json
import re

import orjson

from gateproof.model.scenario import ScenarioError


# orjson reads an integer beyond 64 bits as a float; a run of 20 digits marks
# a document that the exact (and slower) standard parser must read instead.
_LONG_NUMBER = re.compile(rb"[0-9]{20}")


def parse_json(data: bytes | str, where: str = "$") -> object:
    """Parse one JSON document, integers exact at any size; malformed text is a :class:`ScenarioError` at ``where``."""
    raw = data.encode() if isinstance(data, str) else data
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise ScenarioError(where, f"not valid JSON ({error})") from None
    if _LONG_NUMBER.search(raw):
        try:
            return json.loads(raw)
        except RecursionError:
            raise ScenarioError(where, "not valid JSON (nested too deeply)") from None
    return document


def dumps(document: object) -> bytes:
    return orjson.dumps(document)


def dumps_pretty(document: object) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_INDENT_2)
