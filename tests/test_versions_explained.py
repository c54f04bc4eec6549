"""Under each declared version, ``explain`` tells the model's story: each step's result as run, each path's lookups as the model names them."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateproof.conformance.explanation.explain import explain_under
from gateproof.conformance.explanation.lifecycle import lookup_words
from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios
from gateproof.conformance.generation.lifecycle_strategies import lifecycle_scenarios
from gateproof.model.lifecycle import DEQUEUE, PLAYGROUND_SEND, RESUME, path_lookups
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

PATH_OF_OP = {"send": PLAYGROUND_SEND, "dequeue": DEQUEUE, "resume": RESUME}


def assert_explained_as_decided(document: dict, version: str) -> None:
    document = {**document, "rules": version}
    explained = explain_under(document)
    results = run_scenario(read_scenario(document))["results"]
    assert [step.result for step in explained.steps] == results
    for step in explained.steps:
        for applied in step.applied:
            if applied.id == "forced-set" and step.op in PATH_OF_OP:
                lookups = path_lookups(PATH_OF_OP[step.op], VERSIONS[version])
                assert set(lookups.rules) <= set(applied.rules) and lookup_words(lookups) in applied.says


@pytest.mark.parametrize("version", list(VERSIONS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_each_declared_version_is_explained_as_the_model_decides(version, data):
    document = data.draw(st.one_of(ceiling_scenarios(rules=version), lifecycle_scenarios(rules=version)))
    assert_explained_as_decided(document, version)
