"""The catalogs the gateway proofs range over: valid, named by their tools, all reachable, and each wrong gateway refuted over a generated one."""

from __future__ import annotations

import json
from math import comb

import attrs
import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.proofs.catalog import BY_ID
from gateproof.conformance.proofs.catalog_space import LAB_SHAPES, TOOL_SHAPES, catalog_of, catalogs_up_to
from gateproof.conformance.proofs.engine import COUNTEREXAMPLE, PROVED, prove, semantics_named
from gateproof.conformance.proofs.gateway_call import fresh_call, well_formed_call
from gateproof.conformance.implementations.wrong.decide import run_under
from gateproof.conformance.implementations.wrong.catalogs import WRONG_CATALOG_GATEWAYS
from gateproof.model.gateway.catalog import catalog_document, read_catalog
from gateproof.model.gateway.catalog_checks import ANY_ROLE
from gateproof.model.gateway.lab import LAB_CATALOG
from gateproof.model.scenario import read_scenario, run_scenario

BOUND = 4
SHAPES = range(len(TOOL_SHAPES))


def test_every_shape_and_every_shape_together_make_a_catalog_the_reader_accepts_as_it_is():
    for shapes in [*((shape,) for shape in SHAPES), tuple(SHAPES)]:
        catalog = catalog_of(shapes)
        assert read_catalog(json.loads(json.dumps(catalog_document(catalog)))) == catalog


def test_shapes_are_named_by_what_they_declare_and_the_lab_catalog_is_among_the_catalogs():
    assert len({tool.name for tool in TOOL_SHAPES}) == len(TOOL_SHAPES)
    assert catalog_of(LAB_SHAPES) is LAB_CATALOG
    assert catalog_of((2, 5)).id == f"generated:{TOOL_SHAPES[2].name}+{TOOL_SHAPES[5].name}"
    assert {tool.effect for tool in TOOL_SHAPES} == {"retrieval", "export", "write"}
    assert any(tool.effect == "retrieval" and ANY_ROLE not in tool.roles for tool in TOOL_SHAPES)
    assert any(not argument.required for tool in TOOL_SHAPES for argument in tool.arguments)


def test_the_count_of_catalogs_is_every_set_of_distinct_shapes_up_to_the_bound():
    assert catalogs_up_to(2) == len(TOOL_SHAPES) + comb(len(TOOL_SHAPES), 2)
    assert catalogs_up_to(8) == sum(comb(len(TOOL_SHAPES), size) for size in range(1, 9))


@settings(max_examples=100, deadline=None)
@given(st.sets(st.sampled_from(SHAPES), min_size=1, max_size=BOUND), st.data())
def test_every_catalog_up_to_the_bound_and_each_of_its_tools_is_one_the_proofs_range_over(shapes, data):
    call = fresh_call("c", BOUND)
    ordered = sorted(shapes)
    tool = data.draw(st.sampled_from([-1, *range(len(ordered))]))
    solver = z3.Solver()
    solver.add(*well_formed_call(call), call.tools == len(ordered), call.tool == tool)
    solver.add(*(slot == shape for slot, shape in zip(call.catalog, ordered)))
    assert solver.check() == z3.sat


@pytest.mark.parametrize("name", sorted(WRONG_CATALOG_GATEWAYS))
def test_a_wrong_catalog_gateway_is_refuted_over_a_generated_catalog_and_its_counterexample_carries_it(name):
    semantics = semantics_named(name)
    (entry,) = [entry for entry in BY_ID.values() if name in entry.teeth]
    result = prove(entry, semantics, BOUND)
    assert result.outcome == COUNTEREXAMPLE
    (call,) = result.counterexample.subjects
    (document, _), = entry.domain.documents(entry.id, entry.statement, semantics, (call,))
    assert document["catalog"] == catalog_document(catalog_of(call.catalog[:call.tools]))
    assert document["catalog"]["id"].startswith("generated:")
    # The model decides the document otherwise than the wrong gateway: the violation is the variant's.
    wrong, right = run_under(name, document)["results"][0], run_scenario(read_scenario(document))["results"][0]
    assert wrong["reason"] != right["reason"]


@pytest.mark.parametrize("name", sorted(WRONG_CATALOG_GATEWAYS))
def test_over_the_lab_catalog_alone_no_wrong_catalog_gateway_is_refuted(name):
    """The lab's catalog declares nothing they misread (its retrieval is open to any role, no argument_above, every argument required): only generated catalogs refute them."""
    for entry in (BY_ID["I014"], BY_ID["I015"], BY_ID["I016"]):
        story = entry.story

        def lab_only(bound, story=story):
            (call,), facts = story(bound)
            return (call,), [*facts, call.tools == len(LAB_SHAPES), *(slot == shape for slot, shape in zip(call.catalog, LAB_SHAPES))]

        assert prove(attrs.evolve(entry, story=lab_only), semantics_named(name), BOUND).outcome == PROVED
