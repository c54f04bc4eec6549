"""The published JSON Schemas, and validation with an error that names the field.

One compiled (Rust) validator decides, fast enough for bulk use; only when it
refuses a document are its violations listed, and the one a person should fix
first is reported (:func:`_relevance`): a size over its limit before anything
else, so 30,000 steps are refused in the time it takes to count them. A valid
document pays for the check alone.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema_rs

from ..versions import VERSIONS, default_version
from .errors import ScenarioError, join_path

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
SCHEMA_FILES = {"scenario": "scenario.schema.json", "outcome": "outcome.schema.json", "catalog": "catalog.schema.json"}
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def published_schema(name: str) -> dict:
    """The JSON Schema of a document kind as shipped in ``model/schema/``."""
    return json.loads((SCHEMA_DIR / SCHEMA_FILES[name]).read_text(encoding="utf-8"))


def rules_definition() -> dict:
    """S001.9: the scenario's ``rules``: one of the declared versions, the latest ADR version when absent."""
    default = default_version()
    return {"description": f"The rule version in force; {default} when absent.", "default": default, "enum": list(VERSIONS)}


@cache
def schema(name: str) -> dict:
    """The JSON Schema of a document kind (``scenario``, ``outcome`` or ``catalog``), the scenario's rule versions as declared.

    The shipped file says the same (a test holds it to the declarations;
    ``gateproof corpus build`` writes it), so a version is declared once.
    """
    document = published_schema(name)
    if name == "scenario":
        document["$defs"]["rules"] = rules_definition()
    return document


@cache
def _validator(name: str):
    return jsonschema_rs.validator_for(schema(name))


def json_type(value: object) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _brief(value: object) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else json_type(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: The words for a violation of each keyword, by the validator's name for it, filled from what it reports.
_WORDS = {
    "MaxLength": "longer than {limit} characters", "MinLength": "shorter than {limit} characters",
    "MaxItems": "more than {limit} items", "MinItems": "fewer than {limit} items",
    "MinProperties": "fewer than {limit} fields",
    "Minimum": "below the minimum {limit}", "Maximum": "above the maximum {limit}",
    "Pattern": "does not match {pattern}", "UniqueItems": "holds one item twice",
    "FalseSchema": "not a field of a scenario of this kind",
}
#: Limits on size: a violation of one is reported before anything else (S001.1).
_SIZES = ("MaxItems", "MaxLength")


def _relevance(error) -> tuple[bool, int]:
    """S001.1: which of a document's violations is reported: a size over its limit first, then the one nearest the top.

    Nearest the top is where the most is wrong (a missing field of a step
    before a wrong value inside it), and a person fixing that one first fixes
    what it holds with it. Among equals the validator's own order decides.
    """
    return type(error.kind).__name__ not in _SIZES, len(error.instance_path)


def _describe(error) -> tuple[list, str]:
    """The path and a short statement of one schema violation, never echoing a huge value."""
    path, kind, value = list(error.instance_path), error.kind, error.instance
    name, found = type(kind).__name__, kind.as_dict()
    if name == "Required":
        return [*path, found["property"]], "required field is missing"
    if name == "AdditionalProperties":
        return [*path, min(found["unexpected"])], "unknown field"
    if name == "PropertyNames":  # a key no field may have: named, as a field, with the pattern it breaks
        inner = found["error"]
        return [*path, inner.instance], "not a field name: " + _WORDS["Pattern"].format(**inner.kind.as_dict())
    if name == "Type":
        return path, f"expected {' or '.join(found['types'])}, got {json_type(value)}"
    if name in ("Enum", "Constant"):
        options = found.get("options", [found.get("expected_value")])
        return path, f"expected one of {', '.join(json.dumps(o) for o in options)}, got {_brief(value)}"
    return path, _WORDS[name].format(**found) if name in _WORDS else f"invalid ({name})"


def _first_problem(validator, document: object) -> tuple[list, str]:
    """The violation of ``document`` a person should fix first (:func:`_relevance`), described."""
    return _describe(min(validator.iter_errors(document), key=_relevance))


def check_kind(document: object) -> None:
    """S001.1: a scenario's ``kind``, when given, is one the schema lists, and is blamed by name when it is not."""
    if isinstance(document, dict) and "kind" in document:
        problem = _problem(_scenario_part("properties", "kind"), document["kind"])
        if problem is not None:
            raise ScenarioError("$.kind", problem)


def validate(name: str, document: object) -> None:
    """Raise :class:`ScenarioError` naming the wrong field a person should fix first when ``document`` breaks the schema."""
    validator = _validator(name)
    if not validator.is_valid(document):
        path, problem = _first_problem(validator, document)
        raise ScenarioError(join_path(path), problem)


@cache
def _scenario_part(*keys: str):
    """The validator of the part of the scenario schema found at ``keys`` from its top, its definitions with it."""
    part = schema("scenario")
    for key in keys:
        part = part[key]
    return jsonschema_rs.validator_for({"$defs": schema("scenario")["$defs"], **part})


def _problem(validator, value: object) -> str | None:
    return None if validator.is_valid(value) else _first_problem(validator, value)[1]


def field_problem(record: str, field: str, value: object) -> str | None:
    """What is wrong with ``value`` as the ``field`` of a ``record`` (snippet, skill…); None when nothing is."""
    return _problem(_scenario_part("$defs", record, "properties", field), value)
