"""The mutant zoo: every mutant answers start as the latest rules, and verify catches each one."""

from __future__ import annotations

import pytest

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.expectations import CAUGHT, is_met, scenario_size, smallest_counterexample
from gateproof.conformance.implementations import BUILTINS, MCP_BUILTINS, is_mutant
from gateproof.conformance.implementations.zoo import ZOO
from gateproof.conformance.implementations.wrong.decide import decide_names
from gateproof.model.versions import DEFAULT_VERSION

MUTANTS = [name for name in BUILTINS if is_mutant(name) and name not in MCP_BUILTINS]


def test_every_mutant_of_the_zoo_is_a_builtin_with_a_variant_decide_knows():
    assert MUTANTS == [f"mutant:{name}" for name in ZOO]
    assert all(mutant.variant in decide_names() and mutant.description for mutant in ZOO.values())


def campaign_of(name: str, examples: int) -> Campaign:
    campaign = Campaign(name, BUILTINS[name], CampaignSettings(level="full", examples=examples, disagreements=1))
    info = campaign.start()
    assert info.rules in ((DEFAULT_VERSION,), ("lab-001",))  # it claims the latest rules: only its defect can give it away
    return campaign


@pytest.mark.parametrize("name", MUTANTS)
def test_the_corpus_alone_catches_every_mutant(name):
    campaign = campaign_of(name, examples=0)
    campaign.run_corpus(load_corpus())
    assert is_met(campaign.finish(), CAUGHT)


@pytest.mark.parametrize("name", MUTANTS)
def test_generated_scenarios_alone_catch_every_mutant_with_a_small_counterexample(name):
    # At most two forced sources, or one call: what a person can read at a glance.
    campaign = campaign_of(name, examples=3000)
    campaign.run_generated()
    smallest = smallest_counterexample(campaign.finish())
    assert smallest is not None and smallest.phase == "generated", f"{name} was not caught by 3,000 generated scenarios"
    forced, calls, _ = scenario_size(smallest.disagreement.scenario)
    assert (calls == 1) if ZOO[name.removeprefix("mutant:")].kind == "gateway" else forced <= 2, smallest.disagreement.scenario
