"""S003.1–S003.6: a catalog document is read into values whole, or refused with the field and the problem."""

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.model.gateway.catalog import SHIPPED_DIR, CatalogError, catalog_document, read_catalog
from gateproof.model.scenario.document import RepeatedKeys

LAB = json.loads((SHIPPED_DIR / "lab-001.json").read_text(encoding="utf-8"))


def changed(edit) -> dict:
    """The lab's catalog document with ``edit`` applied to a copy."""
    document = copy.deepcopy(LAB)
    edit(document)
    return document


def refusal(document) -> tuple[str, str]:
    with pytest.raises(CatalogError) as raised:
        read_catalog(document)
    return raised.value.path, raised.value.problem


EXPORT_ARGUMENTS = ("tools", 0, "arguments")


def at(document: dict, *path):
    for key in path:
        document = document[key]
    return document


@pytest.mark.rule("S003.1")
def test_valid_the_lab_catalog_reads_to_its_two_tools_and_back():
    catalog = read_catalog(LAB)
    assert [(tool.name, tool.effect, tool.argument_names) for tool in catalog.tools] == [
        ("export_case", "export", ("case_id", "destination_id")), ("read_case", "retrieval", ("case_id",))]
    assert read_catalog(catalog_document(catalog)) == catalog


@pytest.mark.rule("S003.1")
@pytest.mark.parametrize(("edit", "path", "problem"), [
    (lambda d: d.update(catalog=2), "$.catalog", "expected the catalog format version 1, got 2"),
    (lambda d: d.pop("catalog"), "$.catalog", "required field is missing"),
    (lambda d: d.update(owner="lab"), "$.owner", "unknown field"),
    (lambda d: at(d, "tools", 0).update(owner="lab"), "$.tools[0].owner", "unknown field"),
    (lambda d: at(d, *EXPORT_ARGUMENTS, 0).update(pattern="^C"), "$.tools[0].arguments[0].pattern", "unknown field"),
    (lambda d: at(d, "tools", 0).update(roles=[]), "$.tools[0].roles", "fewer than 1 items"),
    (lambda d: at(d, *EXPORT_ARGUMENTS, 0).update(max_length=-1), "$.tools[0].arguments[0].max_length", "below the minimum 0"),
    (lambda d: d.update(rate_limit={"calls": -1, "window": 60}), "$.rate_limit.calls", "below the minimum 1"),
    (lambda d: at(d, "tools", 1).update(effect="delete"), "$.tools[1].effect", 'expected one of "retrieval", "export", "write", got "delete"'),
], ids=["version", "no version", "unknown top field", "unknown tool field", "unknown argument field", "empty roles", "length -1", "rate -1",
        "effect"])
def test_invalid_a_document_the_schema_refuses_is_refused_at_its_field(edit, path, problem):
    assert refusal(changed(edit)) == (path, problem)


@pytest.mark.rule("S003.1")
def test_invalid_a_key_written_twice_is_refused_where_it_is_written():
    document = changed(lambda d: at(d, "tools").__setitem__(1, RepeatedKeys([*at(d, "tools", 1).items(), ("effect", "export")])))
    assert refusal(document) == ("$.tools[1]", "the key 'effect' is written more than once")


@pytest.mark.rule("S003.2")
@pytest.mark.parametrize(("edit", "path", "problem"), [
    (lambda d: at(d, *EXPORT_ARGUMENTS).append(dict(at(d, *EXPORT_ARGUMENTS, 0))), "$.tools[0].arguments[2].name",
     "argument 'case_id' is declared twice"),
    (lambda d: at(d, "tools").append(dict(at(d, "tools", 1))), "$.tools[2].name", "tool 'read_case' is declared twice"),
    (lambda d: at(d, "record_kinds").append(dict(at(d, "record_kinds", 0))), "$.record_kinds[1].name", "record kind 'case' is declared twice"),
    (lambda d: at(d, "record_kinds", 0).update(assignees="tenant"), "$.record_kinds[0].assignees",
     "the field 'tenant' cannot hold both the tenant and the assignees"),
], ids=["argument", "tool", "record kind", "one field for two"])
def test_invalid_a_name_declared_twice(edit, path, problem):
    assert refusal(changed(edit)) == (path, problem)


@pytest.mark.rule("S003.3")
@pytest.mark.parametrize(("argument", "path", "problem"), [
    ({"name": "n", "type": "string", "min_length": 9, "max_length": 8}, "min_length", "9 is above the max_length 8"),
    ({"name": "n", "type": "integer", "minimum": 10, "maximum": 1}, "minimum", "10 is above the maximum 1"),
    ({"name": "n", "type": "integer", "maximum": 2.5}, "maximum", "not an integer, for an argument of type integer"),
    ({"name": "n", "type": "number", "max_length": 8}, "max_length", "not a bound of an argument of type number"),
    ({"name": "n", "type": "string", "maximum": 8, "max_length": 8}, "maximum", "not a bound of an argument of type string"),
    ({"name": "n", "type": "identifier"}, "max_length", "required field is missing: a text argument declares its longest value"),
    ({"name": "n", "type": "identifier", "min_length": 0, "max_length": 8}, "min_length", "below 1: an identifier is never empty"),
])
def test_invalid_bounds_that_do_not_fit_the_type(argument, path, problem):
    assert refusal(changed(lambda d: at(d, *EXPORT_ARGUMENTS).append(argument))) == (f"$.tools[0].arguments[2].{path}", problem)


@pytest.mark.rule("S003.3")
def test_valid_an_integer_bound_written_with_a_zero_fraction_is_that_integer():
    month = {"name": "month", "type": "integer", "required": False, "minimum": 1.0, "maximum": 12.0}
    tool = read_catalog(changed(lambda d: at(d, *EXPORT_ARGUMENTS).append(month))).tools[0]
    assert [(a.minimum, a.maximum) for a in tool.arguments if a.name == "month"] == [(1, 12)]


@pytest.mark.rule("S003.4")
@pytest.mark.parametrize(("edit", "path", "problem"), [
    (lambda d: at(d, "tools", 1, "record").update(argument="ticket_id"), "$.tools[1].record.argument",
     "no argument 'ticket_id' among the tool's arguments"),
    (lambda d: at(d, "tools", 0).update(destination="queue"), "$.tools[0].destination", "no argument 'queue' among the tool's arguments"),
    (lambda d: at(d, *EXPORT_ARGUMENTS, 1).update(required=False), "$.tools[0].destination",
     "the argument 'destination_id' is not a required identifier"),
    (lambda d: at(d, "tools", 1, "record").update(kind="ticket"), "$.tools[1].record.kind", "unknown record kind 'ticket'"),
], ids=["record argument", "destination argument", "optional destination", "record kind"])
def test_invalid_a_named_argument_or_kind_that_is_not_declared(edit, path, problem):
    assert refusal(changed(edit)) == (path, problem)


@pytest.mark.rule("S003.5")
@pytest.mark.parametrize(("edit", "path", "problem"), [
    (lambda d: at(d, "tools", 0).pop("destination"), "$.tools[0].destination", "required field is missing: an export names its destination"),
    (lambda d: at(d, "tools", 1).update(idempotency_key=True), "$.tools[1].idempotency_key", "not a field of a tool whose effect is retrieval"),
    (lambda d: at(d, "tools", 0).update(tenant_reader_role="supervisor"), "$.tools[0].tenant_reader_role",
     "not a field of a tool whose effect is export"),
    (lambda d: at(d, "tools", 0).update(effect="write"), "$.tools[0].destination", "not a field of a tool whose effect is write"),
    (lambda d: at(d, "tools", 1).update(roles=["*", "supervisor"]), "$.tools[1].roles", "'*' is any role: it stands alone"),
], ids=["export without destination", "key on a retrieval", "reader role on an export", "destination on a write", "any and more"])
def test_invalid_a_field_that_does_not_fit_the_tools_effect(edit, path, problem):
    assert refusal(changed(edit)) == (path, problem)


@pytest.mark.rule("S003.6")
@pytest.mark.parametrize(("approval", "path", "problem"), [
    ({"when": "argument_above", "argument": "case_id", "above": 5}, "argument", "no integer or number argument 'case_id' among the tool's arguments"),
    ({"when": "argument_above", "above": 5}, "argument", "required field is missing"),
    ({"when": "external_destination", "above": 5}, "above", "not a field of an external_destination approval"),
])
def test_invalid_an_approval_that_does_not_name_what_it_needs(approval, path, problem):
    assert refusal(changed(lambda d: at(d, "tools", 0).update(approvals=[approval]))) == (f"$.tools[0].approvals[0].{path}", problem)


def paths_of(value, path=()):
    """Every path into ``value``, the document itself first."""
    yield path
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield from paths_of(inner, (*path, key))


json_leaves = st.none() | st.booleans() | st.integers(-3, 200) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8) | st.sampled_from(
    ["case", "case_id", "destination_id", "export", "retrieval", "write", "identifier", "integer", "external_destination", "argument_above", "*"])
json_values = st.recursive(json_leaves, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)
field_names = st.sampled_from(["name", "type", "required", "max_length", "min_length", "minimum", "maximum", "roles", "destination", "record",
                               "effect", "approvals", "idempotency_key", "recheck_at_write", "tenant_reader_role", "argument", "above", "extra"])


@st.composite
def mutated(draw) -> dict:
    """The lab's catalog document with one to three of its values replaced, removed, added to or repeated."""
    document = copy.deepcopy(LAB)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths_of(document))))
        if not path:
            continue
        parent, key = at(document, *path[:-1]), path[-1]
        action = draw(st.sampled_from(["replace", "remove", "add", "repeat"]))
        if action == "replace":
            parent[key] = draw(json_values)
        elif action == "remove":
            del parent[key]
        elif action == "add" and isinstance(parent, dict):
            parent[draw(field_names)] = draw(json_values)
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
    return document


@pytest.mark.rule("S003.1")
@settings(max_examples=400, deadline=None)
@given(mutated())
def test_any_mutation_is_read_back_to_an_equal_value_or_refused_at_a_path(document):
    try:
        catalog = read_catalog(document)
    except CatalogError as error:
        assert error.path.startswith("$") and error.problem
        return
    assert read_catalog(json.loads(json.dumps(catalog_document(catalog)))) == catalog
