"""nr-llm's own PHP classes behind the protocol: they decide as the nr-llm profile says, and verify says when they cannot run.

The tests that run the code skip unless php is on PATH and NRLLM_SRC names a
checkout of nr-llm; without them verify reports the built-in unavailable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.process import ImplementationProcess
from gateproof.conformance.harness.protocol import Errored, Outcome, Skipped
from gateproof.conformance.implementations import BUILTINS, NRLLM_ENTRY, NRLLM_SRC, unavailable
from gateproof.model.scenario import read_scenario, run_scenario
from test_nrllm_profile import departure_scenarios

needs_nrllm = pytest.mark.skipif(unavailable("nr-llm") is not None, reason=f"nr-llm cannot run here: {unavailable('nr-llm')}")


@needs_nrllm
def test_nrllm_announces_its_profile_and_the_ceiling_kind_only():
    process = ImplementationProcess(BUILTINS["nr-llm"])
    info = process.start()
    process.close()
    assert (info.name, info.language, info.rules, info.kinds) == ("nr-llm", "php", ("nr-llm",), ("ceiling",))


@needs_nrllm
@pytest.mark.parametrize("rule", list(departure_scenarios()))
def test_nrllm_code_decides_each_departure_as_the_profile_does(rule):
    document = departure_scenarios()[rule]
    process = ImplementationProcess(BUILTINS["nr-llm"], timeout=60)
    process.start()
    reply = process.run_one(document)
    process.close()
    assert isinstance(reply, Outcome), reply
    assert reply.outcome == run_scenario(read_scenario(document))


@needs_nrllm
def test_nrllm_skips_other_versions_and_the_gateway_and_errs_on_a_scenario_it_cannot_apply():
    corpus = load_corpus()
    ceiling = next(case.scenario for case in corpus if case.scenario.get("kind", "ceiling") == "ceiling")
    gateway = next(case.scenario for case in corpus if case.scenario.get("kind") == "gateway")
    broken = {"gateproof": 1, "id": "broken", "rules": "nr-llm", "world": {}, "steps": [{"op": "send", "configuration": "missing"}]}
    process = ImplementationProcess(BUILTINS["nr-llm"], timeout=60)
    process.start()
    replies = [process.run_one(scenario) for scenario in ({**ceiling, "rules": "adr-179"}, gateway, broken)]
    process.close()
    assert isinstance(replies[0], Skipped) and "adr-179" in replies[0].message
    assert isinstance(replies[1], Skipped) and "gateway" in replies[1].message
    assert isinstance(replies[2], Errored) and "missing" in replies[2].message


@needs_nrllm
def test_nrllm_code_conforms_on_generated_nr_llm_scenarios():
    campaign = Campaign("nr-llm", BUILTINS["nr-llm"], CampaignSettings(level="full", examples=400))
    campaign.start()
    campaign.run_corpus(load_corpus())
    campaign.run_generated()
    tally = campaign.finish()
    assert tally.generated == 400 and tally.is_conformant(), [v.message for v in tally.verdicts if v.status != "passed"][:5]
    skipped = [v for v in tally.verdicts if v.status == "skipped"]
    assert all(v.phase == "corpus" and ("nr-llm profile only" in v.message or "not nr-llm's" in v.message) for v in skipped)


@pytest.mark.skipif(shutil.which("php") is None, reason="php is not on PATH")
def test_a_directory_that_is_no_checkout_is_refused_with_a_reason_and_status_2(tmp_path):
    started = subprocess.run(["php", str(NRLLM_ENTRY), "--src", str(tmp_path)], input=b"", capture_output=True, timeout=60)
    assert started.returncode == 2 and b"not a checkout of netresearch/nr-llm" in started.stderr
    assert b"Fatal" not in started.stderr and b"Stack trace" not in started.stderr


def test_without_a_checkout_verify_reports_nrllm_unavailable_and_never_crashes(monkeypatch, tmp_path):
    monkeypatch.delenv(NRLLM_SRC, raising=False)
    monkeypatch.chdir(tmp_path)
    alone = CliRunner().invoke(main, ["verify", "--builtin", "nr-llm", "--examples", "0"])
    assert alone.exit_code == 2 and "Traceback" not in alone.output
    assert ("no nr-llm checkout named" in alone.output) or ("php is not on PATH" in alone.output)


def test_a_checkout_path_that_is_not_nrllm_is_reported_unavailable(monkeypatch, tmp_path):
    monkeypatch.setenv(NRLLM_SRC, str(tmp_path))
    reason = unavailable("nr-llm")
    assert reason is not None and (str(tmp_path) in reason or "php is not on PATH" in reason)


def test_without_php_verify_all_reports_nrllm_unavailable_and_passes(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no php (nor node) here; the Python built-ins run by absolute path
    monkeypatch.setenv(NRLLM_SRC, os.environ.get(NRLLM_SRC, str(tmp_path)))
    monkeypatch.chdir(tmp_path)
    together = CliRunner().invoke(main, ["verify", "--builtin", "all", "--examples", "0"])
    assert together.exit_code == 0, together.output
    assert "nr-llm is unavailable: php is not on PATH" in together.output


def test_a_checkout_is_available_only_with_what_the_php_program_loads_it_by(tmp_path):
    from gateproof.conformance.implementations import _nrllm_checkout_problem

    gate = tmp_path / "Classes" / "Service" / "Context" / "InputContextTrustGate.php"
    gate.parent.mkdir(parents=True)
    gate.write_text("<?php\n")
    # nr-llm's classes without its composer.json: the program would refuse it at start, so it is unavailable, not started.
    assert "no composer.json naming netresearch/nr-llm" in _nrllm_checkout_problem(str(tmp_path))
    (tmp_path / "composer.json").write_text(json.dumps({"name": "netresearch/nr-llm", "autoload": {"psr-4": {"Netresearch\\NrLlm\\": "Source/"}}}))
    assert "maps Netresearch\\NrLlm\\Service\\Context\\InputContextTrustGate to no file" in _nrllm_checkout_problem(str(tmp_path))
    (tmp_path / "composer.json").write_text(json.dumps({"name": "netresearch/nr-llm", "autoload": {"psr-4": {"Netresearch\\NrLlm\\": "Classes/"}}}))
    assert _nrllm_checkout_problem(str(tmp_path)) is None
