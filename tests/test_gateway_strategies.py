"""The gateway strategies yield valid scenario documents, reach every reason, and compose."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.gateway_strategies import (
    CANARY,
    authorized_calls,
    calls,
    gateway_scenarios,
    gateway_worlds,
    malformed_arguments,
    sessions,
)
from gateproof.model.gateway.arguments import check_shape
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.schema import validate


@settings(max_examples=100)
@given(gateway_scenarios(rules="lab-001+next"))
def test_generated_scenarios_are_valid_documents(document):
    read_scenario(document)
    json.dumps(document, allow_nan=False)  # raises on NaN or infinity, which no JSON document can carry


@settings(max_examples=50)
@given(gateway_worlds())
def test_every_generated_case_carries_the_canary(world):
    assert world["cases"] and all(CANARY in case["content"] for case in world["cases"])


@settings(max_examples=100)
@given(st.sampled_from(["export_case", "read_case"]).flatmap(lambda tool: st.tuples(st.just(tool), malformed_arguments(tool))))
def test_malformed_arguments_always_break_a_shape_rule(pair):
    assert not check_shape(*pair)[-1].passed


@settings(max_examples=50)
@given(sessions(ids=st.just("custom")))
def test_strategies_take_overridable_arguments(session):
    assert session["id"] == "custom"


def test_generation_reaches_every_lab_reason():
    seen: set[str] = set()

    @settings(max_examples=300, database=None)
    @given(gateway_scenarios())
    def collect(document):
        seen.update(r["reason"] for r in run_scenario(read_scenario(document))["results"] if r["op"] == "call")

    collect()
    assert seen >= {"allowed", "unknown_tool", "malformed_input", "extra_arguments", "missing_argument", "session_invalid",
                    "role_denied", "destination_denied", "case_not_found", "tenant_mismatch", "not_assigned"}


@settings(max_examples=50)
@given(authorized_calls(), calls())
def test_constructed_and_free_calls_compose_into_one_scenario(pair, other):
    world, step = pair
    document = {"gateproof": 1, "kind": "gateway", "id": "composed", "world": world, "steps": [step, other]}
    validate("outcome", run_scenario(read_scenario(document)))


def test_the_campaign_sends_only_numbers_json_carries_and_every_language_reads_exactly():
    from gateproof.conformance.generation.strategy import is_portable

    assert is_portable({"tool": [1.5, -(2**53 - 1), None, "x"], "ok": True})
    for unwritable in (float("inf"), float("-inf"), float("nan"), 2**53, -(2**53)):
        assert not is_portable({"arguments": [{"case_id": unwritable}]}), unwritable
