"""Hypothesis properties of the trust ceiling, each an invariant the ADRs claim or imply."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.ceiling_strategies import CANARY, ceiling_scenarios, raw_classes, send_steps, worlds
from gateproof.model.fold import fold
from gateproof.model.ladder import DataClass
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.schema import validate
from gateproof.model.sources import Source
from gateproof.model.zones import TrustZone

RANK = {c.value: c.rank for c in DataClass}
ZONE_RANK = {z.value: z.rank for z in TrustZone}


def run_send(world: dict, step: dict, rules: str = "adr-179") -> dict:
    document = {"gateproof": 1, "id": "p", "rules": rules, "world": world, "steps": [step]}
    return run_scenario(read_scenario(document))["results"][0]


def classify(world: dict, configuration: str) -> dict:
    document = {"gateproof": 1, "id": "p", "world": world, "steps": [{"op": "classify", "configuration": configuration}]}
    return run_scenario(read_scenario(document))["results"][0]


@st.composite
def worlds_and_sends(draw):
    world = draw(worlds())
    step = draw(send_steps(world))
    step.pop("dry_run", None)
    return world, step


@pytest.mark.rule("C164.2")
@given(worlds_and_sends())
def test_an_empty_forced_set_gives_exactly_the_configuration_only_answer(case):
    world, step = case
    step.update(forced_snippets=[], forced_skills=[])
    result, alone = run_send(world, step), classify(world, step["configuration"])
    assert (result["declared_class"], result["source"]) == (alone["effective"], alone["effective_source"])
    assert result == run_send(world, step, rules="pre-164")


@pytest.mark.rule("C144.9")
@given(worlds_and_sends(), st.integers(1, 7), st.booleans())
def test_adding_a_source_never_lowers_the_declared_class(case, uid, as_skill):
    world, step = case
    key = "forced_skills" if as_skill else "forced_snippets"
    before = run_send(world, step)
    after = run_send(world, {**step, key: step[key] + [uid]})
    assert RANK.get(after["declared_class"], -1) >= RANK.get(before["declared_class"], -1)
    assert not (before["decision"] == "refused" and after["decision"] == "permitted")


@pytest.mark.rule("C144.2")
@given(worlds_and_sends(), st.booleans())
def test_an_undeclared_source_appended_never_changes_the_outcome(case, as_skill):
    world, step = case
    kind = "skills" if as_skill else "snippets"
    uid = len(world[kind]) + 1
    record = {"uid": uid, "name": "undeclared", "identifier": "undeclared", "data_class": None}
    if as_skill:
        record.pop("identifier")
    extended = copy.deepcopy(world)
    extended[kind].append(record)
    key = f"forced_{kind}"
    # A uid the request named before the record existed was recorded as dropped (ADR-179); the decision is what must not move.
    def decided(result):
        return {k: v for k, v in result.items() if k != "dropped"}

    assert decided(run_send(extended, {**step, key: step[key] + [uid]})) == decided(run_send(world, step))


@pytest.mark.rule("C164.4")
@given(ceiling_scenarios(rules="adr-179"))
def test_the_named_source_declared_exactly_the_declared_class(document):
    scenario = read_scenario(document)
    outcome = run_scenario(scenario)
    for step, result in zip(document["steps"], outcome["results"]):
        if step["op"] != "send" or result["decision"] in ("undeclared", "dry_run"):
            continue
        readout = run_send(document["world"], {"op": "readout", **{k: step[k] for k in ("configuration", "forced_snippets", "forced_skills")}})
        classes = [s["data_class"] for s in readout["sources"] if s["source"] == result["source"]]
        assert result["declared_class"] in classes


@pytest.mark.rule("C144.9")
@given(st.lists(st.tuples(st.sampled_from("abcdef"), raw_classes()), max_size=10), st.randoms())
def test_permuting_sources_changes_at_most_the_named_source_never_the_class(entries, random):
    from gateproof.model.ladder import parse_data_class

    sources = [Source(name, parse_data_class(cls), "snippet") for name, cls in entries]
    shuffled = list(sources)
    random.shuffle(shuffled)
    assert fold(sources).data_class == fold(shuffled).data_class


@pytest.mark.rule("C094.5", "C144.10")
@given(worlds_and_sends(), st.sampled_from(list(ZONE_RANK)), st.sampled_from(list(ZONE_RANK)))
def test_a_less_trusted_zone_never_permits_what_a_more_trusted_one_refuses(case, first, second):
    world, step = case
    more, less = sorted((first, second), key=ZONE_RANK.get)
    step["serving_model"] = None

    def with_zone(zone):
        changed = copy.deepcopy(world)
        for provider in changed["providers"]:
            provider["zone"] = zone
        for model in changed["models"]:
            model["provider"] = "p0"
        for configuration in changed["configurations"]:
            configuration.update(model="m0", fallbacks=[])
        return run_send(changed, step)

    trusted, untrusted = with_zone(more), with_zone(less)
    if trusted["decision"] in ("refused", "observed"):
        assert untrusted["decision"] in ("refused", "observed")


@pytest.mark.rule("C113.1", "C144.11")
@given(worlds_and_sends())
def test_observe_and_enforce_reach_the_same_decision_and_differ_only_in_sent(case):
    world, step = case
    enforced = run_send({**world, "enforcement": "enforce"}, step)
    observed = run_send({**world, "enforcement": "observe"}, step)
    same = {"declared_class", "source", "zone", "ceiling"}
    assert {k: enforced[k] for k in same} == {k: observed[k] for k in same}
    if enforced["decision"] == "refused":
        assert observed["decision"] == "observed" and not enforced["sent"] and observed["sent"]
        assert len(enforced["audit"]) == len(observed["audit"]) == 1
    else:
        assert enforced == observed


@pytest.mark.rule("C144.8", "C144.14", "C144.17")
@given(ceiling_scenarios())
def test_no_source_text_ever_appears_in_an_outcome(document):
    outcome = run_scenario(read_scenario(document))
    assert CANARY not in json.dumps(outcome)


@pytest.mark.rule("S001.2")
@settings(max_examples=300)
@given(ceiling_scenarios())
def test_every_outcome_is_valid_against_its_schema_and_has_one_result_per_step(document):
    outcome = run_scenario(read_scenario(document))
    validate("outcome", outcome)
    assert [r["op"] for r in outcome["results"]] == [s["op"] for s in document["steps"]]
