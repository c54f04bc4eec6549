"""The plugin's usage errors, its failure text and replay command, and hypothesis used as its users expect.

Each test runs pytest in a fresh project (pytester) whose ini file names a
gateway of tests/gateways: the lab-001 gateway written from adr/gateway.md
alone, one with a cross-tenant bug, one that raises, one that records what it is given.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from plugin_helpers import ini, outside_ci, recorded

from gateproof.conformance.harness.hunt import model_outcome

pytest_plugins = ["pytester"]
BIN = Path(sys.executable).parent


@pytest.mark.parametrize(("settings", "arguments", "said"), [
    ({"gateproof_rules": "lab-002"}, (), ["gateproof_rules: 'lab-002' is not a rule version of gateway; allowed: lab-001, lab-001+next"]),
    ({"gateproof_rules": "adr-999"}, (), ["gateproof_rules: 'adr-999' is not a rule version*allowed: lab-001*"]),
    ({"gateproof_kinds": "gatway"}, (), ["gateproof_kinds: 'gatway' is not a scenario kind; allowed: ceiling, gateway"]),
    ({"gateproof_examples": "abc"}, (), ["gateproof_examples: 'abc' is not a whole number*allowed: 0 or more"]),
    ({}, ("--gateproof-examples", "-3"), ["--gateproof-examples: '-3' is not a whole number*"]),
    ({}, ("--gateproof", "no_such_module:run"), ["--gateproof: 'no_such_module:run': cannot import module 'no_such_module'*"]),
    ({"gateproof_implementation": "gateways.lab_gateway:nothing"}, (),
     ["gateproof_implementation: 'gateways.lab_gateway:nothing': module 'gateways.lab_gateway' has no function 'nothing'"]),
    ({"gateproof_implementation": "gateways.lab_gateway"}, (), ["gateproof_implementation: 'gateways.lab_gateway' is not module:function*"]),
    ({}, ("--gateproof-replay", "missing.json"), ["--gateproof-replay: missing.json: cannot read (*"]),
    ({}, ("--gateproof-replay=/dev/zero",), ["--gateproof-replay: /dev/zero: $: larger than 16777216 bytes"]),
])
def test_a_wrong_setting_is_a_usage_error_naming_the_setting_the_value_and_what_is_allowed(pytester, settings, arguments, said):
    pytester.makeini(ini(**settings))
    result = pytester.runpytest("-p", "no:cacheprovider", *arguments)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"ERROR: {line}" for line in said])
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()


def test_a_wrong_gateway_shows_each_differing_field_its_rules_the_scenario_and_a_replay_that_runs_as_printed(pytester, monkeypatch):
    outside_ci(monkeypatch)
    pytester.makeini(ini("gateways.cross_tenant_gateway:run", examples=60))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "generated or cross-tenant.read")
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines([
        "*_ corpus gw.cross-tenant.read _*", "*gw.cross-tenant.read*", "  rules: G001.10*", "  step 0 differs in * fields:",
        "    results[[]0[]].reason  [[]G001.10[]]", '      expected  "tenant_mismatch"', "      actual    *",
        "  how the model decides step 0 (gateproof explain):", "  scenario:", "    {", '      "kind": "gateway",',
        "  replay:  pytest tox.ini --gateproof-replay gateproof-pytest/corpus.gw.cross-tenant.read.json",
    ])
    result.stdout.fnmatch_lines(["*_ generated lab-001 _*", "*generated*lab-001*", "  scenario (reduced in * candidates):"])
    replays = [line.split("replay:  ", 1)[1] for line in result.outlines if line.startswith("  replay:  ")]
    assert len(replays) == 2
    saved = pytester.path / "gateproof-pytest" / "generated.lab-001.json"
    assert saved.is_file() and model_outcome(json.loads(saved.read_text()))["results"]
    environment = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    for command in replays:
        again = subprocess.run(shlex.split(command), cwd=pytester.path, env=environment, capture_output=True, text=True, timeout=300)
        assert again.returncode == 1 and "1 failed" in again.stdout, again.stdout + again.stderr
        assert "results[0]" in again.stdout
    explain = next(line.split("explain: ", 1)[1] for line in result.outlines if line.startswith("  explain: "))
    shown = subprocess.run(shlex.split(explain), cwd=pytester.path, env=environment, capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0 and "step 0: call" in shown.stdout  # steps are counted from 0, as in the failure above


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one process", "xdist"])
def test_in_ci_a_failure_is_printed_once_and_its_summary_line_is_the_first_line_only(pytester, monkeypatch, workers):
    monkeypatch.setenv("CI", "true")  # pytest prints the crash message of each failure whole in CI
    pytester.makeini(ini("gateways.cross_tenant_gateway:run"))
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "cross-tenant.read", *workers, timeout=600)
    result.assert_outcomes(failed=1)
    assert sum(line.startswith("  replay:  ") for line in result.outlines) == 1
    summary = [line for line in result.outlines if line.startswith("FAILED ")]
    assert summary == ["FAILED tox.ini::corpus::gw.cross-tenant.read - "
                       "gateways.cross_tenant_gateway:run failed: gw.cross-tenant.read  (gateway/cross_tenant, under lab-001)"]


def test_the_reduced_generated_scenario_is_smaller_and_still_differs(pytester, monkeypatch):
    from gateways import cross_tenant_gateway

    record = pytester.path / "seen.jsonl"
    pytester.makeini(ini("gateways.recording_gateway:run", examples=60))
    monkeypatch.setenv("GATEPROOF_RECORD", str(record))
    monkeypatch.setenv("GATEPROOF_WRONG", "cross-tenant")
    pytester.runpytest("-p", "no:cacheprovider", "-k", "generated").assert_outcomes(failed=1)
    saved = json.loads((pytester.path / "gateproof-pytest" / "generated.lab-001.json").read_text())
    assert cross_tenant_gateway.run(saved) != model_outcome(saved)
    first_failing = next(s for s in recorded(record) if cross_tenant_gateway.run(s) != model_outcome(s))
    assert len(json.dumps(saved)) < len(json.dumps(first_failing))


def test_a_raising_gateway_shows_its_own_frame_first_and_no_plugin_frames(pytester):
    pytester.makeini(ini("gateways.raising_gateway:run", examples=0))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "g001.9.applies")
    result.assert_outcomes(failed=1)
    text = result.stdout.str()
    body = text[text.index("____"):]
    first_frame = next(line for line in body.splitlines() if line.endswith(("Error", "KeyError")) or ".py:" in line)
    assert first_frame.startswith("gateways/raising_gateway.py:") or "raising_gateway.py" in first_frame, first_frame
    assert "pluggy" not in body and "conformance/plugin" not in body and "_pytest" not in body
    result.stdout.fnmatch_lines(["*- gateproof -*", "gateways.raising_gateway:run raised KeyError: *", "  scenario:",
                                 "  replay:  pytest tox.ini --gateproof-replay gateproof-pytest/corpus.*.json"])


def test_the_reduction_is_bounded_in_candidates_and_in_time(monkeypatch):
    from gateways import cross_tenant_gateway

    from gateproof.conformance.corpus.load import load_corpus
    from gateproof.conformance.plugin import search
    from gateproof.conformance.plugin.search import Search, check

    case = next(c for c in load_corpus() if c.id == "gw.cross-tenant.read")
    found = check("wrong", "corpus", cross_tenant_gateway.run, case.scenario, case.expected)
    hunt = Search("wrong", cross_tenant_gateway.run, "gateway", "lab-001", 1, b"key")
    unbounded, tried = hunt.reduced(found)
    assert tried > 5 and len(json.dumps(unbounded.scenario)) < len(json.dumps(case.scenario))
    monkeypatch.setattr(search, "REDUCTION_BUDGET", 5)
    assert hunt.reduced(found)[1] <= 5
    monkeypatch.setattr(search, "REDUCTION_BUDGET", 1500)
    monkeypatch.setattr(search, "REDUCTION_SECONDS", 0.0)
    reduced, tried = hunt.reduced(found)
    assert tried == 0 and reduced.scenario == case.scenario


def test_a_gateway_raising_on_a_generated_scenario_is_reduced_and_shown_with_its_own_frame(pytester):
    pytester.makeini(ini("gateways.raising_gateway:run", examples=40))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "generated")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*_ generated lab-001 _*", "*def lookup(world*", "E       KeyError: *",
                                 "gateways.raising_gateway:run raised KeyError: *", "  scenario (reduced in * candidates):"])
    failures = result.stdout.str().split("= FAILURES =", 1)[1]
    assert "pluggy" not in failures and "_pytest" not in failures and "conformance/plugin" not in failures


def test_a_gateway_that_answers_one_scenario_two_ways_is_reported_nondeterministic(pytester):
    pytester.makeini(ini("gateways.alternating_gateway:run", examples=60))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "generated")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["  scenario (answered differently when run again: the gateway is nondeterministic):"])


def test_without_an_ini_file_to_collect_from_the_plugin_says_where_its_settings_go(pytester):
    pytester.makepyfile("def test_own(): pass")
    result = pytester.runpytest("-p", "no:cacheprovider", "--gateproof", "gateways.lab_gateway:run")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["ERROR: --gateproof: gateproof's tests are collected from the ini file, and this run has none; *pyproject.toml*"])


def test_control_and_bidirectional_characters_a_gateway_writes_are_shown_as_escapes(pytester, monkeypatch):
    outside_ci(monkeypatch)
    pytester.makeini(ini("gateways.bidi_gateway:run", examples=0))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "cross-tenant.read")
    result.assert_outcomes(failed=1)
    printed = result.stdout.str()
    assert "\u202e" not in printed and "\x1b" not in printed
    assert '"\\u202etxt.exe\\u001b[31m"' in printed
