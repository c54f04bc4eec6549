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
