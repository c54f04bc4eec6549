"""The published JSON Schemas, and validation with an error that names the field.

Validation runs a compiled (Rust) validator first (fast, for bulk use) and only on
failure asks which field is wrong: first the compiled validator, for a size
over its limit (so 30,000 steps are refused in the time it takes to count
them), then ``jsonschema``, whose choice of the most relevant error names the
field. A valid document pays for the fast check alone.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import jsonschema_rs

from .errors import ScenarioError, join_path

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schema"
SCHEMA_FILES = {"scenario": "scenario.schema.json", "outcome": "outcome.schema.json"}
_JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


@cache
def schema(name: str) -> dict:
    """The JSON Schema of a document kind (``scenario`` or ``outcome``)."""
    return json.loads((SCHEMA_DIR / SCHEMA_FILES[name]).read_text(encoding="utf-8"))


@cache
def _fast_validator(name: str):
    return jsonschema_rs.validator_for(schema(name))


@cache
def _precise_validator(name: str):
    import jsonschema  # only an invalid document pays for importing the precise validator

    return jsonschema.Draft202012Validator(schema(name))


def json_type(value: object) -> str:
    return _JSON_TYPES.get(type(value), type(value).__name__)


def _brief(value: object) -> str:
    text = json.dumps(value) if isinstance(value, (str, int, float, bool, type(None))) else json_type(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _describe(error) -> tuple[list, str]:
    """The path and a short statement of one schema violation, never echoing a huge value."""
    path, kind, expected, value = list(error.absolute_path), error.validator, error.validator_value, error.instance
    if kind == "required":
        missing = next(p for p in expected if p not in value)
        return path + [missing], "required field is missing"
    if kind == "additionalProperties":
        allowed = error.schema.get("properties", {})
        extra = sorted(k for k in value if k not in allowed)
        return path + [extra[0]], "unknown field"
    if kind == "type":
        wanted = expected if isinstance(expected, str) else " or ".join(expected)
        return path, f"expected {wanted}, got {json_type(value)}"
    if kind in ("enum", "const"):
        options = [expected] if kind == "const" else expected
        return path, f"expected one of {', '.join(json.dumps(o) for o in options)}, got {_brief(value)}"
    limits = {
        "maxLength": f"longer than {expected} characters",
        "minLength": f"shorter than {expected} characters",
        "maxItems": f"more than {expected} items",
        "minItems": f"fewer than {expected} items",
        "minimum": f"below the minimum {expected}",
        "maximum": f"above the maximum {expected}",
        "pattern": f"does not match {expected}",
    }
    return path, limits.get(kind, f"invalid ({kind})")


#: The limits on sizes, by the compiled validator's name for them: checked before anything else is judged.
_SIZE_LIMITS = {
    "MaxItems": "more than {} items", "MaxLength": "longer than {} characters", "MaxProperties": "more than {} fields",
}


def size_problem(name: str, document: object) -> ScenarioError | None:
    """S001.1: the first value of ``document`` over a size limit of the schema, found in time linear in its size."""
    for error in _fast_validator(name).iter_errors(document):
        words = _SIZE_LIMITS.get(type(error.kind).__name__)
        if words is not None:
            return ScenarioError(join_path(error.instance_path), words.format(error.kind.limit))
    return None


def check_kind(document: object) -> None:
    """S001.1: a scenario's ``kind``, when given, is one the schema lists, and is blamed by name when it is not."""
    if not isinstance(document, dict) or "kind" not in document:
        return
    kinds = schema("scenario")["properties"]["kind"]["enum"]
    if document["kind"] not in kinds or not isinstance(document["kind"], str):
        raise ScenarioError("$.kind", f"expected one of {', '.join(json.dumps(k) for k in kinds)}, got {_brief(document['kind'])}")


def validate(name: str, document: object) -> None:
    """Raise :class:`ScenarioError` naming the first wrong field when ``document`` breaks the schema."""
    if _fast_validator(name).is_valid(document):
        return
    too_big = size_problem(name, document)
    if too_big is not None:
        raise too_big
    from jsonschema.exceptions import best_match

    error = best_match(_precise_validator(name).iter_errors(document))
    if error is None:  # the two validators disagree: trust neither silently
        raise ScenarioError("$", "rejected by the schema")
    path, problem = _describe(error)
    raise ScenarioError(join_path(path), problem)


def _field_schema(record: str, field: str) -> dict:
    """The schema of one field of a record kind (snippet, skill…) as the scenario schema defines it."""
    defs = schema("scenario")["$defs"]
    return {"$defs": defs, **defs[record]["properties"][field]}


@cache
def _fast_field_validator(record: str, field: str):
    return jsonschema_rs.validator_for(_field_schema(record, field))


@cache
def _precise_field_validator(record: str, field: str):
    import jsonschema

    return jsonschema.Draft202012Validator(_field_schema(record, field))


def field_problem(record: str, field: str, value: object) -> str | None:
    """What is wrong with ``value`` as the ``field`` of a ``record``; None when nothing is."""
    if _fast_field_validator(record, field).is_valid(value):
        return None
    from jsonschema.exceptions import best_match

    error = best_match(_precise_field_validator(record, field).iter_errors(value))
    return "rejected by the schema" if error is None else error.message
