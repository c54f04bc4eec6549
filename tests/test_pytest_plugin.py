"""The pytest plugin runs the corpus and generated scenarios against a Python gateway's run, and fails where it is wrong."""

from __future__ import annotations

from gateproof.conformance.harness.corpus import load_corpus

pytest_plugins = ["pytester"]
LAB_CASES = [case for case in load_corpus() if case.scenario.get("kind") == "gateway" and case.scenario["rules"] == "lab-001"]

SETTINGS = """
[pytest]
gateproof_kinds = gateway
gateproof_rules = lab-001
gateproof_examples = 30
"""


def test_a_correct_gateway_passes_every_case_and_the_generated_scenarios(pytester):
    pytester.makeini(SETTINGS + "gateproof_implementation = gateways.correct_gateway:run\n")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=len(LAB_CASES) + 1)  # every lab-001 corpus case and one generated item


def test_a_wrong_gateway_fails_where_it_is_wrong_with_the_scenario_and_both_outcomes(pytester):
    pytester.makeini(SETTINGS)
    result = pytester.runpytest("-p", "no:cacheprovider", "--gateproof", "gateways.cross_tenant_gateway:run", "-k", "cross-tenant or generated")
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] >= 2 and outcomes.get("passed", 0) >= 1
    result.stdout.fnmatch_lines(["*gateproof[[]gw.cross-tenant.read[]]*", "*differs in*", "scenario: {*", "expected: {*", "actual: *"])
    result.stdout.fnmatch_lines(["*gateproof[[]generated/lab-001[]]*"])


def test_without_an_implementation_the_plugin_adds_nothing(pytester):
    pytester.makepyfile("def test_own(): pass")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
