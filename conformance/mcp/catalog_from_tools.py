"""A tool catalog made from an MCP server's ``tools/list`` and the extras that say what a JSON Schema cannot (docs/catalogs.md).

Each tool's arguments are read from its ``inputSchema``: every property a
string (an identifier when the extras say so), an integer or a number, with
the lengths or values it bounds and whether ``required`` names it. The rest of
the catalog (its id, record kinds, each tool's effect, record, roles and next
checks) is the extras document's. What a catalog cannot say, a tool one side
names and the other does not, and a catalog the model would not read are each
refused with a :class:`ListingError` naming the tool and the property.
"""

from __future__ import annotations

import re

from gateproof.model.gateway.catalog import CATALOG_VERSION, read_catalog
from gateproof.model.gateway.catalog_checks import CatalogError

from .refusals import schema_problem

EXTRAS_VERSION = 1
#: How each JSON Schema type a catalog can hold is written there, and the keywords that bound it, as the catalog names them.
BOUNDS = {"string": {"minLength": "min_length", "maxLength": "max_length"},
          "integer": {"minimum": "minimum", "maximum": "maximum"},
          "number": {"minimum": "minimum", "maximum": "maximum"}}
#: Keywords of a property that only annotate it: they change nothing a call may carry.
ANNOTATIONS = {"type", "description", "title", "default", "examples"}
#: Keywords of an inputSchema besides its properties that a catalog can follow.
SCHEMA_KEYWORDS = {"type", "properties", "required", "additionalProperties", "title", "description", "$schema"}
#: The least length a text argument has without a bound: an identifier is never empty, a string may be.
LEAST_LENGTH = {"identifier": 1, "string": 0}
_CATALOG_PATH = re.compile(r"^\$\.tools\[(\d+)\](?:\.arguments\[(\d+)\])?")


class ListingError(ValueError):
    """A catalog that cannot be made from this listing and these extras: the message names the tool, the property and why."""


def _refuse(tool: str, problem: str, prop: str | None = None) -> None:
    where = f"tool {tool!r}" + ("" if prop is None else f", property {prop!r}")
    raise ListingError(f"{where}: {problem}")


def check_extras(extras: object) -> None:
    """The extras document held to its schema (``conformance/schema/mcp/catalog-extras.json``), before any server is started."""
    if isinstance(extras, dict) and "catalog_extras" in extras and extras["catalog_extras"] != EXTRAS_VERSION:
        raise ListingError(f"$.catalog_extras: expected the extras format version {EXTRAS_VERSION}, got {extras['catalog_extras']!r}")
    problem = schema_problem("catalog-extras", extras)
    if problem:
        raise ListingError(problem)


def listed_tools(tools: list) -> dict[str, dict]:
    """The server's tools by name; a tool without a name or listed twice is refused."""
    by_name: dict[str, dict] = {}
    for position, tool in enumerate(tools):
        name = tool.get("name") if isinstance(tool, dict) else None
        if not isinstance(name, str):
            raise ListingError(f"tools/list: the tool at position {position} has no name")
        if name in by_name:
            _refuse(name, "tools/list lists it twice")
        by_name[name] = tool
    return by_name


def identifier_names(extras_tool: dict) -> set[str]:
    """The tool's arguments that are identifiers: those the extras name, and its record argument and destination (S003.4)."""
    named = [*extras_tool.get("identifiers", ()), extras_tool["record"].get("argument"), extras_tool.get("destination")]
    return {name for name in named if isinstance(name, str)}  # a field of another type is the catalog reader's to refuse


def argument(tool: str, name: str, schema: object, required: bool, identifier: bool) -> dict:
    """One catalog argument read from the property ``name`` of the tool's inputSchema."""
    if not isinstance(schema, dict):
        _refuse(tool, "its schema is not an object, so it bounds nothing a catalog can say", name)
    kind = schema.get("type")
    if not isinstance(kind, str) or kind not in BOUNDS:
        _refuse(tool, f"type {kind!r} cannot be said in a catalog: an argument is a string, an integer or a number", name)
    unsaid = sorted(set(schema) - ANNOTATIONS - set(BOUNDS[kind]))
    if unsaid:
        _refuse(tool, f"{unsaid[0]!r} cannot be said in a catalog (docs/catalogs.md, What a catalog can say)", name)
    if kind == "string" and "maxLength" not in schema:
        _refuse(tool, "a string without maxLength: a catalog bounds every text argument", name)
    if identifier and kind != "string":
        _refuse(tool, f"the extras make it an identifier, but its type is {kind}", name)
    catalog_type = "identifier" if identifier else kind
    fields = {"name": name, "type": catalog_type}
    if not required:
        fields["required"] = False
    for keyword, field in BOUNDS[kind].items():
        if keyword in schema and not (field == "min_length" and schema[keyword] == LEAST_LENGTH[catalog_type]):
            fields[field] = schema[keyword]
    if isinstance(schema.get("description"), str) and schema["description"]:
        fields["description"] = schema["description"]
    return fields


def arguments(tool: str, input_schema: object, identifiers: set[str]) -> tuple[list[dict], list[str]]:
    """The tool's catalog arguments in the order its inputSchema lists them, and a note for what the catalog says otherwise."""
    if not isinstance(input_schema, dict) or input_schema.get("type") != "object":
        _refuse(tool, "its inputSchema is not of type object")
    unsaid = sorted(set(input_schema) - SCHEMA_KEYWORDS)
    if unsaid:
        _refuse(tool, f"its inputSchema's {unsaid[0]!r} cannot be said in a catalog")
    properties, required = input_schema.get("properties", {}), input_schema.get("required", [])
    if not isinstance(properties, dict) or not properties:
        _refuse(tool, "its inputSchema declares no properties: a catalog tool has at least one argument")
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        _refuse(tool, "its inputSchema's required is not a list of names")
    for name in [*required, *sorted(identifiers)]:
        if name not in properties:
            _refuse(tool, "no such property in the inputSchema, which " + ("requires it" if name in required else "the extras name"), name)
    notes = [] if input_schema.get("additionalProperties") is False else [
        f"tool {tool!r}: its inputSchema admits properties it does not list; the catalog refuses any argument it does not declare (G001.3)"]
    return [argument(tool, name, schema, name in required, name in identifiers) for name, schema in properties.items()], notes


def catalog_tool(extras_tool: dict, listed: dict) -> tuple[dict, list[str]]:
    """One catalog tool: the extras' fields, the server's description unless the extras give one, and the arguments of its inputSchema."""
    name = extras_tool["name"]
    made, notes = arguments(name, listed.get("inputSchema"), identifier_names(extras_tool))
    fields = {key: value for key, value in extras_tool.items() if key not in ("name", "description", "identifiers")}
    description = extras_tool.get("description", listed.get("description"))
    said = {"description": description} if isinstance(description, str) and description else {}
    return {"name": name, **said, "effect": fields.pop("effect"), "arguments": made, **fields}, notes


def catalog_from_tools(tools: list, extras: dict) -> tuple[dict, list[str]]:
    """The catalog document made from a ``tools/list`` result's tools and an extras document, and the notes on it.

    Every listed tool must be described by the extras and every described tool listed; the catalog is then read as
    any catalog is (S003.1), and a field it refuses is named with its tool and property.
    """
    check_extras(extras)
    listed = listed_tools(tools)
    described = [tool["name"] for tool in extras["tools"]]
    for name in listed:
        if name not in described:
            _refuse(name, "the server lists it and the extras do not describe it")
    for name in described:
        if name not in listed:
            _refuse(name, "the extras describe it and the server does not list it")
    made = [catalog_tool(tool, listed[tool["name"]]) for tool in extras["tools"]]
    head = {key: value for key, value in extras.items() if key not in ("catalog_extras", "tools", "rate_limit")}
    tail = {"rate_limit": extras["rate_limit"]} if "rate_limit" in extras else {}
    document = {"catalog": CATALOG_VERSION, **head, "tools": [tool for tool, _ in made], **tail}
    try:
        read_catalog(document)
    except CatalogError as error:
        raise ListingError(f"{_named(document, error.path)}{error.path}: {error.problem}") from None
    return document, [note for _, notes in made for note in notes]


def _named(document: dict, path: str) -> str:
    """``tool 'x', property 'y': `` for a refused field of a tool or of one of its arguments, else nothing."""
    found = _CATALOG_PATH.match(path)
    if found is None:
        return ""
    tool = document["tools"][int(found[1])]
    if found[2] is None:
        return f"tool {tool['name']!r}: "
    return f"tool {tool['name']!r}, property {tool['arguments'][int(found[2])]['name']!r}: "
