"""adr/scenario.md names what the schemas hold: the document's fields and the keys of a gateway call's result."""

import re

from gateproof.conformance.explanation.adr_entries import adr_entries
from gateproof.model.scenario.schema import schema


def _written(rule_id: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", adr_entries()[rule_id].text))


def test_the_document_fields_are_the_schemas():
    text = adr_entries()["S001.1"].text
    fields = re.search(r"`\{\"gateproof\": 1, ([^`]+)\}`", text).group(1)
    assert set(re.findall(r'"(\w+)"', fields)) == set(schema("scenario")["properties"]) - {"gateproof"}
    assert set(schema("scenario")["properties"]["kind"]["enum"]) <= _written("S001.1")


def test_a_gateway_results_keys_and_values_are_the_outcomes():
    call = schema("outcome")["$defs"]["gateway_call"]
    values = set(call["properties"]["decision"]["enum"]) | set(call["properties"]["stage"]["enum"])
    assert set(call["required"]) | values <= _written("S001.10")


def _integer_fields(value, name=None) -> set[str]:
    """The names of every property a schema value types as an integer, at any depth."""
    if isinstance(value, list):
        return set().union(*(_integer_fields(item) for item in value))
    if not isinstance(value, dict):
        return set()
    found = {name} if name and value.get("type") == "integer" else set()
    properties = value.get("properties", {})
    others = [item for key, item in value.items() if key != "properties"]
    return found.union(*(_integer_fields(item, key) for key, item in properties.items()), *(_integer_fields(item) for item in others))


def test_every_integer_field_of_a_gateway_document_is_named_where_s001_1_reads_integers():
    gateway = {key: value for key, value in schema("scenario")["$defs"].items() if key.startswith("gateway_")}
    fields = _integer_fields(gateway)
    assert fields and fields <= _written("S001.1")
