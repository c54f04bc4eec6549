"""Reading JSON documents from files and streams, with errors a person can act on."""

from __future__ import annotations

import orjson

from gateproof.model.scenario import ScenarioError


def parse_json(data: bytes | str, where: str = "$") -> object:
    """Parse one JSON document; malformed text is a :class:`ScenarioError` at ``where``."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError as error:
        raise ScenarioError(where, f"not valid JSON ({error})") from None


def dumps(document: object) -> bytes:
    return orjson.dumps(document)


def dumps_pretty(document: object) -> bytes:
    return orjson.dumps(document, option=orjson.OPT_INDENT_2)
