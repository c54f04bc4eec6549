"""The built-in MCP gateways under verify: the Python and the TypeScript one conform over stdio and streamable HTTP, and every
fault of the Python one is caught by the corpus alone (the default campaign adds generated scenarios to it)."""

from __future__ import annotations

import pytest

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.expectations import CAUGHT, CONFORMANT, is_met
from gateproof.conformance.implementations import MCP_BUILTINS, is_mutant, unavailable
from gateproof.conformance.implementations.mcp_python.variants import FAULTS

GATEWAY_CASES = [case for case in load_corpus() if case.scenario.get("kind") == "gateway"]
GATEWAYS = [name for name in MCP_BUILTINS if not is_mutant(name)]
FAULTY = [name for name in MCP_BUILTINS if is_mutant(name)]


def campaign_of(name: str, examples: int) -> Campaign:
    if unavailable(name):
        pytest.skip(f"{name} is unavailable: {unavailable(name)}")
    campaign = Campaign(name, MCP_BUILTINS[name], CampaignSettings(level="full", examples=examples, kinds=("gateway",), timeout=30.0))
    info = campaign.start()
    assert info.kinds == ("gateway",) and set(info.rules) == {"lab-001", "lab-001+next"}
    return campaign


def test_every_fault_of_the_python_gateway_is_a_builtin_that_must_be_caught():
    assert FAULTY == [f"mutant:mcp-{fault}" for fault in sorted(FAULTS)]
    assert len(FAULTY) == 9


@pytest.mark.parametrize("name", GATEWAYS)
def test_each_mcp_gateway_conforms_on_the_corpus_and_generated_scenarios(name):
    campaign = campaign_of(name, examples=200)
    campaign.run_corpus(GATEWAY_CASES)
    campaign.run_generated()
    tally = campaign.finish()
    assert is_met(tally, CONFORMANT), [(v.scenario_id, v.message) for v in tally.verdicts if v.status not in ("passed", "skipped")][:5]
    assert tally.counts()["passed"] > len(GATEWAY_CASES)


@pytest.mark.parametrize("name", FAULTY)
def test_the_corpus_alone_catches_every_fault_of_the_python_gateway(name):
    campaign = campaign_of(name, examples=0)
    campaign.run_corpus(GATEWAY_CASES)
    tally = campaign.finish()
    assert is_met(tally, CAUGHT)
    assert any(v.status == "failed" for v in tally.verdicts)
