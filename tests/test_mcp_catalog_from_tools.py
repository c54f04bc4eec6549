"""A catalog made from a tools/list and its extras (``conformance/mcp/catalog_from_tools.py``): dicts in, a catalog document out,
and every listing or extras a catalog cannot be made from refused naming the tool and the property."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from gateproof.conformance.mcp.catalog_from_tools import ListingError, catalog_from_tools
from gateproof.model.gateway.catalog import SHIPPED_DIR, read_catalog

ROOT = Path(__file__).resolve().parent.parent
LAB_EXTRAS = json.loads((ROOT / "examples" / "mcp-extras" / "lab-001.json").read_text(encoding="utf-8"))
LAB = json.loads((SHIPPED_DIR / "lab-001.json").read_text(encoding="utf-8"))


def text(maximum: int = 128, **more) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": maximum, **more}


def listing(name: str, properties: dict, required: list | None = None, **more) -> dict:
    schema = {"type": "object", "properties": properties, "required": list(properties) if required is None else required,
              "additionalProperties": False, **more}
    return {"name": name, "description": f"The tool {name}.", "inputSchema": schema}


def lab_tools() -> list[dict]:
    """What the lab's MCP gateways list: every argument a required string of 1 to 128 characters, nothing else admitted."""
    return [listing("export_case", {"case_id": text(), "destination_id": text()}), listing("read_case", {"case_id": text()})]


def without_descriptions(document: dict) -> dict:
    document = copy.deepcopy(document)
    for tool in document["tools"]:
        tool.pop("description", None)
    return document


def test_the_lab_listing_and_its_extras_make_the_lab_catalog_with_the_servers_descriptions():
    document, notes = catalog_from_tools(lab_tools(), LAB_EXTRAS)
    assert without_descriptions(document) == LAB and notes == []
    assert [tool["description"] for tool in document["tools"]] == ["The tool export_case.", "The tool read_case."]


def test_the_extras_description_of_a_tool_is_kept_over_the_servers():
    extras = copy.deepcopy(LAB_EXTRAS)
    extras["tools"][1]["description"] = "Reads one case."
    document, _ = catalog_from_tools(lab_tools(), extras)
    assert document["tools"][1]["description"] == "Reads one case."


PAYMENTS_EXTRAS = {
    "catalog_extras": 1, "id": "payments",
    "record_kinds": [{"name": "order", "tenant": "merchant", "assignees": "handlers"}],
    "tools": [{"name": "refund_order", "effect": "write", "record": {"argument": "order_id", "kind": "order"}, "roles": ["refunds"],
               "identifiers": ["reference"], "approvals": [{"when": "argument_above", "argument": "amount", "above": 500}]}],
    "rate_limit": {"calls": 30, "window": 60},
}
PAYMENTS_TOOLS = [listing("refund_order", {
    "order_id": text(64), "reference": {"type": "string", "maxLength": 32},
    "amount": {"type": "number", "minimum": 0.01, "maximum": 10000, "description": "In euros."},
    "count": {"type": "integer", "minimum": 1, "title": "Count", "default": 1}, "reason": {"type": "string", "minLength": 0, "maxLength": 500},
}, required=["order_id", "reference", "amount"])]


def test_strings_integers_and_numbers_keep_their_bounds_and_what_is_optional_and_the_extras_say_which_strings_are_identifiers():
    document, _ = catalog_from_tools(PAYMENTS_TOOLS, PAYMENTS_EXTRAS)
    assert document["tools"][0]["arguments"] == [
        {"name": "order_id", "type": "identifier", "max_length": 64},
        {"name": "reference", "type": "identifier", "max_length": 32},
        {"name": "amount", "type": "number", "minimum": 0.01, "maximum": 10000, "description": "In euros."},
        {"name": "count", "type": "integer", "required": False, "minimum": 1},
        {"name": "reason", "type": "string", "required": False, "max_length": 500},
    ]
    assert document["rate_limit"] == {"calls": 30, "window": 60} and document["id"] == "payments"
    read_catalog(document)


def test_a_least_length_other_than_the_types_own_is_kept():
    tools = copy.deepcopy(PAYMENTS_TOOLS)
    tools[0]["inputSchema"]["properties"]["order_id"]["minLength"] = 8
    tools[0]["inputSchema"]["properties"]["reason"]["minLength"] = 1
    arguments = catalog_from_tools(tools, PAYMENTS_EXTRAS)[0]["tools"][0]["arguments"]
    assert arguments[0]["min_length"] == 8 and arguments[4]["min_length"] == 1


def test_a_schema_that_admits_unlisted_properties_is_noted_not_refused():
    tools = lab_tools()
    del tools[1]["inputSchema"]["additionalProperties"]
    document, notes = catalog_from_tools(tools, LAB_EXTRAS)
    assert without_descriptions(document) == LAB
    assert notes == ["tool 'read_case': its inputSchema admits properties it does not list; the catalog refuses any argument it does not declare (G001.3)"]


def edited_property(tool: int, name: str, **fields):
    def edit(tools, extras):
        tools[tool]["inputSchema"]["properties"][name] = fields
    return edit


def edited_schema(tool: int, **fields):
    def edit(tools, extras):
        tools[tool]["inputSchema"].update(fields)
    return edit


def unlisted(tools, extras):
    tools.append(listing("delete_case", {"case_id": text()}))


def undescribed(tools, extras):
    del tools[0]


def listed_twice(tools, extras):
    tools.append(copy.deepcopy(tools[1]))


REFUSED = {
    "a server tool the extras do not describe": (unlisted, "tool 'delete_case': the server lists it and the extras do not describe it"),
    "an extras tool the server does not list": (undescribed, "tool 'export_case': the extras describe it and the server does not list it"),
    "a tool listed twice": (listed_twice, "tool 'read_case': tools/list lists it twice"),
    "a nameless tool": (lambda tools, extras: tools.append({"inputSchema": {}}), "tools/list: the tool at position 2 has no name"),
    "an object property": (edited_property(1, "case_id", type="object"),
                           "tool 'read_case', property 'case_id': type 'object' cannot be said in a catalog: an argument is a string, an integer or a number"),
    "an array property": (edited_property(0, "destination_id", type="array", items={"type": "string"}),
                          "tool 'export_case', property 'destination_id': type 'array' cannot be said in a catalog"),
    "a property of several types": (edited_property(1, "case_id", type=["string", "null"], maxLength=9),
                                    "tool 'read_case', property 'case_id': type ['string', 'null'] cannot be said"),
    "a property without a type": (edited_property(1, "case_id", maxLength=9), "tool 'read_case', property 'case_id': type None cannot be said"),
    "a property schema that is no object": (lambda tools, extras: tools[1]["inputSchema"]["properties"].update(case_id=True),
                                            "tool 'read_case', property 'case_id': its schema is not an object"),
    "a pattern": (edited_property(1, "case_id", **text(pattern="^c-")), "tool 'read_case', property 'case_id': 'pattern' cannot be said in a catalog"),
    "an enum": (edited_property(1, "case_id", **text(enum=["a"])), "tool 'read_case', property 'case_id': 'enum' cannot be said in a catalog"),
    "a format": (edited_property(1, "case_id", **text(format="uuid")), "tool 'read_case', property 'case_id': 'format' cannot be said in a catalog"),
    "an exclusive bound": (edited_property(1, "case_id", type="integer", exclusiveMinimum=0), "tool 'read_case', property 'case_id': 'exclusiveMinimum' cannot be said"),
    "a string without maxLength": (edited_property(1, "case_id", type="string", minLength=1),
                                   "tool 'read_case', property 'case_id': a string without maxLength: a catalog bounds every text argument"),
    "an identifier of a number type": (edited_property(1, "case_id", type="integer", maximum=9),
                                       "tool 'read_case', property 'case_id': the extras make it an identifier, but its type is integer"),
    "a required name with no property": (edited_schema(1, required=["case_id", "tenant"]),
                                         "tool 'read_case', property 'tenant': no such property in the inputSchema, which requires it"),
    "an identifier with no property": (lambda tools, extras: extras["tools"][1].update(identifiers=["note"]),
                                       "tool 'read_case', property 'note': no such property in the inputSchema, which the extras name"),
    "a required that is no list": (edited_schema(1, required="case_id"), "tool 'read_case': its inputSchema's required is not a list of names"),
    "an inputSchema of another type": (edited_schema(1, type="array"), "tool 'read_case': its inputSchema is not of type object"),
    "an inputSchema with no properties": (edited_schema(1, properties={}), "tool 'read_case': its inputSchema declares no properties"),
    "an inputSchema combining schemas": (edited_schema(1, anyOf=[{}]), "tool 'read_case': its inputSchema's 'anyOf' cannot be said in a catalog"),
    "a missing inputSchema": (lambda tools, extras: tools[1].pop("inputSchema"), "tool 'read_case': its inputSchema is not of type object"),
    "a record argument that is optional": (edited_schema(1, required=[]),
                                           "tool 'read_case': $.tools[1].record.argument: the argument 'case_id' is not a required identifier"),
    "a property name a catalog cannot hold": (lambda tools, extras: tools[0]["inputSchema"]["properties"].update({"note-text": text()}),
                                              "tool 'export_case', property 'note-text': $.tools[0].arguments[2].name: does not match"),
    "an effect the catalog does not know": (lambda tools, extras: extras["tools"][0].update(effect="delete"), "tool 'export_case': $.tools[0].effect: "),
    "an unknown record kind": (lambda tools, extras: extras["tools"][1]["record"].update(kind="ticket"),
                               "tool 'read_case': $.tools[1].record.kind: unknown record kind 'ticket'"),
    "a bad catalog id": (lambda tools, extras: extras.update(id="lab 001"), "$.id: "),
    "arguments in the extras": (lambda tools, extras: extras["tools"][0].update(arguments=[]), "$.tools[0]: "),
    "another extras version": (lambda tools, extras: extras.update(catalog_extras=2), "$.catalog_extras: expected the extras format version 1, got 2"),
    "a catalog version in place of the extras'": (lambda tools, extras: extras.update(catalog=1), "$: "),
}


@pytest.mark.parametrize("kind", REFUSED)
def test_what_a_catalog_cannot_be_made_from_is_refused_in_one_line_naming_the_tool_and_the_property(kind):
    edit, message = REFUSED[kind]
    tools, extras = lab_tools(), copy.deepcopy(LAB_EXTRAS)
    edit(tools, extras)
    with pytest.raises(ListingError) as refused:
        catalog_from_tools(tools, extras)
    said = str(refused.value)
    assert "\n" not in said
    assert said.startswith(message), said
