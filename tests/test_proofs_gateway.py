"""The proofs' abstract gateway call is tied to the model, and each wrong gateway to its runner."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.gateway_strategies import calls, gateway_worlds
from gateproof.conformance.implementations.wrong.catalogs import WRONG_CATALOG_GATEWAYS
from gateproof.conformance.implementations.wrong.decide import REFUTED
from gateproof.conformance.implementations.wrong.gateway import WRONG_GATEWAYS
from gateproof.conformance.proofs.catalog_space import LAB_SHAPES, TOOL_SHAPES
from gateproof.conformance.proofs.domains import GATEWAY_CALLS
from gateproof.conformance.proofs.gateway_call import (
    DECLARED_KEYS, FORGED_FIELD, FORGED_KEY, REASONS, UNKNOWN_TOOL, GatewayCall, lab_reason,
)
from gateproof.conformance.proofs.replay import replay, semantics_named
from gateproof.conformance.proofs.wrong import ENCODINGS
from gateproof.model.gateway.arguments import is_valid_value
from gateproof.model.gateway.lab import LAB_CATALOG, SUPERVISOR_ROLE, SUPPORT_ROLE
from gateproof.model.gateway.scenario import read_gateway_scenario, run_gateway_scenario
from gateproof.model.lattice import CONCRETE

BOUND = 4
SHAPES = range(len(TOOL_SHAPES))

#: Every argument of the lab's tools is this one kind of identifier (model/catalogs/lab-001.json).
LAB_IDENTIFIER = LAB_CATALOG.tools[0].arguments[0]


@st.composite
def abstract_calls(draw, shape=None, bound=BOUND):
    """Concrete abstract calls: a catalog of 1 to ``bound`` distinct shapes (``shape`` among them), any tool of it or none, any fields with distinct keys, any facts."""
    catalog = draw(st.sets(st.sampled_from(SHAPES), min_size=1, max_size=bound - (shape is not None)))
    catalog = sorted(catalog | ({shape} if shape is not None else set()))
    keys = draw(st.lists(st.integers(0, bound + FORGED_KEY), min_size=bound, max_size=bound, unique=True))
    flags = st.booleans()
    configured = draw(flags)
    called = range(len(catalog)) if shape is None else [catalog.index(shape)]
    return GatewayCall(
        catalog=tuple(catalog) + (0,) * (bound - len(catalog)),
        tools=len(catalog),
        tool=draw(st.sampled_from([*called, UNKNOWN_TOOL])),
        arguments_object=draw(flags),
        keys=tuple(keys),
        **{field: tuple(draw(st.lists(flags, min_size=bound, max_size=bound))) for field in ("present", "values_ok", "above")},
        session_valid=draw(flags), holds_role=draw(flags), holds_reader=draw(flags),
        destination_configured=configured, destination_internal=configured and draw(flags),
        case_exists=draw(flags), same_tenant=draw(flags), assigned=draw(flags),
    )


def _reasons_agree(call, rules):
    semantics = semantics_named(rules)
    predicted = GATEWAY_CALLS.judge(semantics, call, CONCRETE)
    _, replayed = replay(GATEWAY_CALLS, GATEWAY_CALLS.documents("differential", "the model agrees", semantics, (call,)), semantics)
    assert [REASONS[v.reason] for v in replayed] == [REASONS[v.reason] for v in predicted]


@pytest.mark.parametrize("shape", SHAPES, ids=[tool.name for tool in TOOL_SHAPES])
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_a_decoded_call_of_every_tool_shape_is_decided_as_the_proofs_decide_it(shape, data):
    """Under lab-001, the model gives a decoded call of each tool shape, in catalogs of it and others, the reason its abstract decision predicts."""
    _reasons_agree(data.draw(abstract_calls(shape)), "adr-179")


@settings(max_examples=300, deadline=None)
@given(abstract_calls(), st.sampled_from(sorted({**WRONG_GATEWAYS, **WRONG_CATALOG_GATEWAYS})))
def test_a_wrong_gateway_decides_a_decoded_call_as_the_proofs_decide_it(call, rules):
    """Each wrong gateway's runner gives a decoded call, under any generated catalog, the reason its abstract decision predicts."""
    _reasons_agree(call, rules)


def abstraction_of(world: dict, step: dict) -> GatewayCall:
    """The abstract call that stands for a generated call in its world under the lab's catalog (lab-001, which reads no history)."""
    session = next(s for s in world["sessions"] if s["id"] == step["session"])
    tool, arguments = step["tool"], step["arguments"]
    fields = arguments if isinstance(arguments, dict) else {}
    other_keys = iter(range(FORGED_KEY + 1, FORGED_KEY + 1 + len(fields)))
    keys = tuple(
        DECLARED_KEYS.index(key) if key in DECLARED_KEYS else FORGED_KEY if key == FORGED_FIELD else next(other_keys)
        for key in fields
    )
    case_id, destination_id = fields.get("case_id"), fields.get("destination_id")
    case = next((c for c in world["cases"] if isinstance(case_id, str) and c["id"] == case_id), None)
    destination = next((d for d in world["destinations"] if isinstance(destination_id, str) and d["id"] == destination_id), None)
    roles = session.get("roles", ())
    names = [TOOL_SHAPES[shape].name for shape in LAB_SHAPES]
    return GatewayCall(
        catalog=LAB_SHAPES,
        tools=len(LAB_SHAPES),
        tool=names.index(tool) if isinstance(tool, str) and tool in names else UNKNOWN_TOOL,
        arguments_object=isinstance(arguments, dict),
        keys=keys,
        present=tuple(True for _ in keys),
        values_ok=tuple(is_valid_value(LAB_IDENTIFIER, value) for value in fields.values()),
        above=tuple(False for _ in keys),
        session_valid=session.get("valid", True),
        holds_role=SUPPORT_ROLE in roles,
        holds_reader=SUPERVISOR_ROLE in roles,
        destination_configured=destination is not None,
        destination_internal=destination is not None and destination["internal"],
        case_exists=case is not None,
        same_tenant=case is not None and case["tenant"] == session["tenant"],
        assigned=case is not None and session["user"] in case["assignees"],
    )


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_the_abstract_reason_is_the_models_on_generated_calls(data):
    """On calls the gateway strategies generate, the reason the proofs compute from the facts is the model's."""
    world = data.draw(gateway_worlds())
    step = data.draw(calls())
    document = {"gateproof": 1, "kind": "gateway", "id": "generated", "rules": "lab-001", "world": world, "steps": [step]}
    (result,) = run_gateway_scenario(read_gateway_scenario(document))["results"]
    assert REASONS[lab_reason(abstraction_of(world, step), CONCRETE)] == result["reason"]


@pytest.mark.parametrize("name", sorted({**WRONG_GATEWAYS, **WRONG_CATALOG_GATEWAYS}))
def test_a_wrong_gateway_leaves_the_document_it_is_given_unchanged(name):
    world = {"sessions": [{"id": "s-1", "user": "ana", "tenant": "acme"}], "cases": [{"id": "c", "tenant": "acme"}], "destinations": [{"id": "d", "internal": True}]}
    step = {"op": "call", "session": "s-1", "tool": "export_case", "arguments": {"case_id": "c", "destination_id": "d", FORGED_FIELD: "x"}}
    document = {"gateproof": 1, "kind": "gateway", "id": "x", "world": world, "steps": [step]}
    before = repr(document)
    {**WRONG_GATEWAYS, **WRONG_CATALOG_GATEWAYS}[name].runner(document)
    assert repr(document) == before


def test_every_wrong_gateway_is_encoded_and_every_encoding_names_a_refuted_variant():
    """A wrong gateway the proofs ran without its reason would be judged as the model: no invariant could refute it."""
    assert set(ENCODINGS) <= set(REFUTED)
    assert all(semantics_named(name).gateway_reason is not None for name in {**WRONG_GATEWAYS, **WRONG_CATALOG_GATEWAYS})
