"""The mutant zoo: every mutant answers start as the latest rules, and verify catches each one."""

from __future__ import annotations

import pytest

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.harness.corpus import load_corpus
from gateproof.conformance.harness.expectations import CAUGHT, is_met, scenario_size, smallest_counterexample
from gateproof.conformance.implementations import BUILTINS, is_mutant
from gateproof.conformance.implementations.zoo import ZOO
from gateproof.conformance.proofs.replay import decide_names

MUTANTS = [name for name in BUILTINS if is_mutant(name)]


def test_every_mutant_of_the_zoo_is_a_builtin_with_a_variant_decide_knows():
    assert MUTANTS == [f"mutant:{name}" for name in ZOO]
    assert all(mutant.variant in decide_names() and mutant.description for mutant in ZOO.values())


def campaign_of(name: str, examples: int) -> Campaign:
    campaign = Campaign(name, BUILTINS[name], CampaignSettings(level="full", examples=examples, disagreements=1))
    info = campaign.start()
    assert info.rules in (("adr-179",), ("lab-001",))  # it claims the latest rules: only its defect can give it away
    return campaign


@pytest.mark.parametrize("name", MUTANTS)
def test_the_corpus_alone_catches_every_mutant(name):
    campaign = campaign_of(name, examples=0)
    campaign.run_corpus(load_corpus())
    assert is_met(campaign.finish(), CAUGHT)


# make bench measures every mutant's shrunk counterexample; one here keeps the suite quick.
def test_a_generated_disagreement_is_shrunk_to_one_call():
    campaign = campaign_of("mutant:forged-authority", examples=200)
    campaign.run_generated()
    smallest = smallest_counterexample(campaign.finish())
    assert smallest.phase == "generated"
    assert scenario_size(smallest.disagreement.scenario)[1] == 1
