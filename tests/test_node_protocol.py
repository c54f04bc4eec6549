"""The Node.js implementation behind the protocol: it starts, decides both kinds, skips what it does not decide, and conforms.

Skipped when node is not on PATH; then verify reports it unavailable instead of failing.
"""

from __future__ import annotations

import shutil

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.process import ImplementationProcess
from gateproof.conformance.harness.protocol import Errored, Outcome, Skipped
from gateproof.conformance.implementations import BUILTINS

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")


@needs_node
def test_node_announces_both_kinds_and_every_rule_version():
    process = ImplementationProcess(BUILTINS["node"])
    info = process.start()
    process.close()
    assert info.name == "node" and info.kinds == ("ceiling", "gateway")
    assert {"pre-164", "adr-179", "nr-llm", "lab-001", "lab-001+next"} <= set(info.rules)


@needs_node
def test_node_decides_both_kinds_skips_an_unknown_version_and_errors_on_a_scenario_it_cannot_apply():
    corpus = load_corpus()
    process = ImplementationProcess(BUILTINS["node"])
    declared = process.start().rules
    # A case that names a version Node declares: one that names none is of the default, which Node may not have learned yet.
    ceiling = next(case for case in corpus if case.scenario.get("kind", "ceiling") == "ceiling" and case.scenario.get("rules") in declared)
    gateway = next(case for case in corpus if case.scenario.get("rules") == "lab-001+next")
    unknown = {**gateway.scenario, "rules": "lab-002"}
    ceiling_under_gateway_rules = {**ceiling.scenario, "rules": "lab-001"}
    broken = {"gateproof": 1, "id": "broken", "world": {}, "steps": [{"op": "send", "configuration": "missing"}]}
    broken_gateway = {**gateway.scenario, "steps": [{"op": "revoke_session", "session": "nobody"}]}
    replies = [process.run_one(scenario) for scenario in (ceiling.scenario, gateway.scenario, unknown, ceiling_under_gateway_rules, broken, broken_gateway)]
    process.close()
    assert isinstance(replies[0], Outcome) and replies[0].outcome == ceiling.expected
    assert isinstance(replies[1], Outcome) and replies[1].outcome == gateway.expected
    assert isinstance(replies[2], Skipped) and isinstance(replies[3], Skipped)
    assert isinstance(replies[4], Errored) and isinstance(replies[5], Errored)


@needs_node
def test_node_conforms_on_the_corpus_and_a_thousand_generated_scenarios():
    campaign = Campaign("node", BUILTINS["node"], CampaignSettings(level="full", examples=1000))
    campaign.start()
    campaign.run_corpus(load_corpus())
    campaign.run_generated()
    tally = campaign.finish()
    assert tally.generated == 1000 and tally.is_conformant(), [v.message for v in tally.verdicts if v.status != "passed"][:5]
    passed = {verdict.family for verdict in tally.verdicts if verdict.status == "passed"} | {family for family, status in tally.unkept if status == "passed"}
    assert {"gateway/next_checks", "gateway/malformed", "generated/lab-001", "generated/lab-001+next", "generated/adr-179"} <= passed
    assert tally.counts()["skipped"] == 0


def test_without_node_verify_reports_it_unavailable_and_never_crashes(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no node here; the Python built-ins run by absolute path
    monkeypatch.chdir(tmp_path)  # verify writes its results folder here
    alone = CliRunner().invoke(main, ["verify", "--builtin", "node", "--examples", "0"])
    together = CliRunner().invoke(main, ["verify", "--builtin", "all", "--examples", "0"])
    assert alone.exit_code == 2 and "node is not on PATH" in alone.output and "Traceback" not in alone.output
    assert together.exit_code == 0, together.output
    assert "unavailable" in together.output
