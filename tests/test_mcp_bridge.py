"""An MCP server under verify: the bridge plays scenarios through the test hooks and tools/call, and every fault is a verdict.

The server here is ``implementations/fake_mcp.py``, raw JSON-RPC deciding with
the model, over stdio and over HTTP on a loopback port the bridge chooses; each
fault it can make lands on the scenario whose id ends in ``.fault``.
"""

from __future__ import annotations

import sys

import pytest

from harness_helpers import FAKES, GENEROUS, SHORT, left_running
from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.process import StartFailed
from gateproof.conformance.implementations import python_module
from gateproof.conformance.mcp.play import REFUSAL_REASONS, unsendable

#: Gateway cases a tools/call can carry, of both rule versions; the fourth is the one the fake faults on.
CASES = [c for c in load_corpus() if c.scenario.get("kind") == "gateway" and not unsendable(c.scenario)][::40][:8]
#: The case the faults strike: one whose calls include a refusal, so a fault in how a refusal is told has one to act on.
FAULT = next(number for number, case in enumerate(CASES) if any(r.get("decision") == "deny" for r in case.expected["results"]))
FAULT_ID = CASES[FAULT].id + ".fault"

TRANSPORTS = {"stdio": "stdio", "http": "http://127.0.0.1:0/mcp"}


def bridged(transport: str, fault: str = "", timeout: float = GENEROUS, refusal_map: str | None = None) -> tuple[str, ...]:
    server = (sys.executable, str(FAKES / "fake_mcp.py"), *(("--http",) if transport == "http" else ()), *((fault,) if fault else ()))
    mapped = () if refusal_map is None else ("--map", refusal_map)
    return python_module("gateproof.conformance.mcp.bridge", "--mcp", TRANSPORTS[transport], "--timeout", str(timeout), *mapped, "--", *server)


def campaign_of(transport: str, fault: str = "", timeout: float = GENEROUS, refusal_map: str | None = None, **settings) -> Campaign:
    """The fake through the cases; ``timeout`` is the bridge's, the harness waiting longer, as a start on a loaded machine may take."""
    campaign = Campaign(None, bridged(transport, fault, timeout, refusal_map), CampaignSettings(timeout=GENEROUS, **settings))
    campaign.start()
    campaign.run_known("corpus", entries())
    campaign.finish()
    return campaign


def entries(fault: int | None = FAULT) -> list[tuple]:
    """(family, pinned rules, scenario, expected) for each case; the ``fault``-th scenario's id ends in .fault."""
    chosen = []
    for number, case in enumerate(CASES):
        scenario = dict(case.scenario, id=case.id + ".fault") if number == fault else case.scenario
        chosen.append((case.family, case.rules, scenario, dict(case.expected, scenario=scenario["id"])))
    return chosen


def verdict_of(campaign: Campaign, scenario_id: str = FAULT_ID):
    return next(v for v in campaign.tally.verdicts if v.scenario_id == scenario_id)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_server_that_decides_as_the_model_conforms_over_each_transport(transport):
    campaign = campaign_of(transport)
    assert {v.status for v in campaign.tally.verdicts} == {"passed"}
    assert len(campaign.tally.verdicts) == len(CASES)
    assert campaign.tally.info.kinds == ("gateway",) and campaign.tally.info.name == {"stdio": "fake-mcp", "http": "fake-mcp-http"}[transport]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_call_with_two_audit_records_is_errored_naming_g001_15(transport):
    verdict = verdict_of(campaign_of(transport, "two-audits"))
    assert verdict.status == "errored"
    assert "wrote 2 audit records" in verdict.message and "G001.15" in verdict.message


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_refusal_no_reason_names_is_reported_unmapped_never_guessed(transport):
    verdict = verdict_of(campaign_of(transport, "unmapped"))
    assert verdict.status == "errored"
    assert "a refusal that names no reason" in verdict.message and "--mcp-map" in verdict.message


def test_a_server_whose_audit_records_name_no_rule_is_compared_without_rule_and_told_so():
    campaign = campaign_of("stdio", "hides-rule")
    assert campaign.tally.info.unobservable == ("rule",)
    assert {v.status for v in campaign.tally.verdicts} == {"passed"}
    assert any("compared without rule" in note for note in campaign.tally.notes)


def test_a_refusal_map_reads_a_gateways_own_codes(tmp_path):
    """Every refusal is JSON-RPC -32003 with the reason in the message: without a map nothing is decided, with one all conforms."""
    without = campaign_of("stdio", "coded")
    refused = [v for v in without.tally.verdicts if v.status == "errored"]
    assert refused and all("JSON-RPC error -32003" in v.message for v in refused)
    entries_ = ",".join(f'{{"jsonrpc_code": -32003, "message_pattern": "^refused: {r}$", "reason": "{r}"}}' for r in sorted(REFUSAL_REASONS))
    path = tmp_path / "map.json"
    path.write_text(f'{{"gateproof_mcp_map": 1, "refusals": [{entries_}]}}')
    mapped = campaign_of("stdio", "coded", refusal_map=str(path))
    assert {v.status for v in mapped.tally.verdicts} == {"passed"}


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_a_server_that_lets_a_bad_token_through_is_errored_naming_the_token(transport):
    verdict = verdict_of(campaign_of(transport, "fails-open-token"))
    assert verdict.status == "errored"
    assert "made with a token" in verdict.message and "authorizes nothing" in verdict.message


@pytest.mark.parametrize("transport, fault, said", [
    ("stdio", "hang", "not answered within"), ("stdio", "garbage", "not a JSON-RPC message"), ("stdio", "exit", "exited with status 3"),
    ("http", "hang", "not answered within"), ("http", "http-500", "HTTP 500"), ("http", "drop", "tools/call"),
])
def test_a_faulty_server_is_an_errored_run_and_the_next_scenario_is_decided(transport, fault, said):
    campaign = campaign_of(transport, fault, timeout=SHORT)
    verdict = verdict_of(campaign)
    assert verdict.status in ("errored", "failed") if fault == "garbage" else verdict.status == "errored"
    assert said in verdict.message or said in str(verdict.context), verdict
    others = [v.status for v in campaign.tally.verdicts if v.scenario_id != FAULT_ID]
    assert others == ["passed"] * (len(CASES) - 1)


@pytest.mark.parametrize("fault, said", [("exit-at-start", "cannot open its database"), ("no-hooks", "io.gateproof/fixture")])
def test_a_server_that_cannot_be_verified_is_refused_at_start_saying_why(fault, said):
    campaign = Campaign(None, bridged("stdio", fault), CampaignSettings(timeout=GENEROUS))
    with pytest.raises(StartFailed) as refused:
        campaign.start()
    campaign.finish()
    assert said in str(refused.value)


def test_a_server_that_leaves_a_child_running_leaves_nothing_behind():
    campaign = Campaign(None, bridged("stdio", "child"), CampaignSettings(timeout=GENEROUS))
    campaign.start()
    group = campaign.process.channel.group
    campaign.run_known("corpus", entries(None))
    campaign.finish()
    assert left_running(group) == []
