"""While a campaign's pipeline runs the collector runs less often; afterwards it runs as it did."""

from __future__ import annotations

import gc

import pytest

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.generation import scenarios
from gateproof.conformance.harness.collection import PIPELINE_THRESHOLD, fewer_collections

from harness_helpers import fake


@pytest.fixture
def default_thresholds():
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def test_the_young_generation_threshold_is_raised_within_and_put_back_after_an_error(default_thresholds):
    with pytest.raises(KeyError):
        with fewer_collections():
            assert gc.get_threshold() == (PIPELINE_THRESHOLD, 10, 10)
            raise KeyError("x")
    assert gc.get_threshold() == (700, 10, 10)


def test_a_threshold_already_higher_is_never_lowered(default_thresholds):
    gc.set_threshold(PIPELINE_THRESHOLD * 2, 10, 10)
    with fewer_collections():
        assert gc.get_threshold()[0] == PIPELINE_THRESHOLD * 2
    assert gc.get_threshold()[0] == PIPELINE_THRESHOLD * 2


def test_overlapping_pipelines_put_the_thresholds_back_when_the_last_ends_whichever_ends_first(default_thresholds):
    first, second = fewer_collections(), fewer_collections()
    first.__enter__()
    second.__enter__()
    first.__exit__(None, None, None)
    assert gc.get_threshold() == (PIPELINE_THRESHOLD, 10, 10)
    second.__exit__(None, None, None)
    assert gc.get_threshold() == (700, 10, 10)


def test_a_campaign_runs_its_corpus_and_generated_scenarios_with_fewer_collections_and_leaves_them_as_found(default_thresholds):
    seen = []
    campaign = Campaign(None, fake("errors_by_id"), CampaignSettings(examples=20, kinds=("gateway",), rules=("lab-001",), timeout=30.0),
                        observe=lambda verdict: seen.append((verdict.phase, gc.get_threshold()[0])))
    campaign.start()
    campaign.run_replay([dict(next(scenarios("gateway", "lab-001")), id="replayed")])
    campaign.run_generated()
    campaign.finish()
    assert {phase for phase, _ in seen} == {"replay", "generated"}
    assert all(threshold == PIPELINE_THRESHOLD for _, threshold in seen)
    assert gc.get_threshold() == (700, 10, 10)
