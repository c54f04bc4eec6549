"""The pytest plugin's items behave as pytest's own: counted, named by node ids with a file part, selected and deselected.

Each test runs pytest in a fresh project (pytester) whose ini file names a
gateway of tests/gateways: the lab-001 gateway written from adr/gateway.md
alone, or one with a cross-tenant bug.
"""

from __future__ import annotations

from plugin_helpers import CROSS_TENANT, LAB_CASES, WRONG_CASES, ini

pytest_plugins = ["pytester"]
ALL = len(LAB_CASES) + 1  # every lab-001 corpus case and one item for the generated scenarios


def test_a_correct_gateway_passes_every_case_and_the_header_counts_every_item(pytester):
    pytester.makeini(ini())
    pytester.makepyfile(test_own="def test_own(): pass")
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=ALL + 1)
    result.stdout.fnmatch_lines([f"collected {ALL + 1} items"])


def test_items_have_node_ids_under_the_ini_file_and_one_is_selected_by_its_id(pytester):
    pytester.makeini(ini())
    listed = pytester.runpytest("-p", "no:cacheprovider", "--co", "-q")
    listed.stdout.fnmatch_lines([f"tox.ini::corpus::{CROSS_TENANT[0]}", "tox.ini::generated::lab-001", f"{ALL} tests collected*"])
    one = pytester.runpytest("-p", "no:cacheprovider", f"tox.ini::corpus::{CROSS_TENANT[0]}")
    one.assert_outcomes(passed=1)


def test_a_run_given_a_test_file_runs_no_gateproof_item_and_the_ini_file_runs_them_alone(pytester):
    pytester.makeini(ini())
    pytester.makepyfile(test_own="def test_own(): pass")
    pytester.runpytest("-p", "no:cacheprovider", "test_own.py").assert_outcomes(passed=1)
    pytester.runpytest("-p", "no:cacheprovider", "tox.ini").assert_outcomes(passed=ALL)


def test_the_gateproof_marker_selects_and_deselects_them(pytester):
    pytester.makeini(ini())
    pytester.makepyfile(test_own="def test_own(): pass")
    pytester.runpytest("-p", "no:cacheprovider", "-m", "gateproof").assert_outcomes(passed=ALL, deselected=1)
    pytester.runpytest("-p", "no:cacheprovider", "-m", "not gateproof").assert_outcomes(passed=1, deselected=ALL)
    pytester.runpytest("-p", "no:cacheprovider", "--markers").stdout.fnmatch_lines(["@pytest.mark.gateproof: *"])


def test_k_selects_by_name(pytester):
    pytester.makeini(ini())
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "cross-tenant or generated")
    result.assert_outcomes(passed=len(CROSS_TENANT) + 1, deselected=ALL - len(CROSS_TENANT) - 1)


def test_last_failed_runs_only_the_failures_and_failed_first_runs_them_first(pytester):
    pytester.makeini(ini("gateways.cross_tenant_gateway:run", examples=0))
    wrong = len(WRONG_CASES)
    assert {"gw.cross-tenant.export", "gw.cross-tenant.read"} <= set(WRONG_CASES) and wrong < len(LAB_CASES)
    pytester.runpytest().assert_outcomes(failed=wrong, passed=len(LAB_CASES) - wrong)
    pytester.runpytest("--lf").assert_outcomes(failed=wrong, deselected=len(LAB_CASES) - wrong)
    failed_first = pytester.runpytest("--ff", "-v")
    order = [line.split(" ")[0] for line in failed_first.outlines if line.startswith("tox.ini::corpus::")]
    assert sorted(order[:wrong]) == sorted(f"tox.ini::corpus::{case}" for case in WRONG_CASES)
    assert order[:wrong] != [f"tox.ini::corpus::{case.id}" for case in LAB_CASES[:wrong]]  # not merely the usual order


def test_exitfirst_stops_at_the_first_failure(pytester):
    pytester.makeini(ini("gateways.cross_tenant_gateway:run", examples=0))
    first_wrong = [case.id for case in LAB_CASES].index(WRONG_CASES[0])
    pytester.runpytest("-p", "no:cacheprovider", "-x").assert_outcomes(failed=1, passed=first_wrong)


def test_xdist_runs_every_item_once_on_two_workers(pytester):
    pytester.makeini(ini())
    pytester.makepyfile(test_own="def test_own(): pass")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", timeout=600)
    result.assert_outcomes(passed=ALL + 1)


def test_without_an_implementation_the_plugin_adds_nothing(pytester):
    pytester.makepyfile("def test_own(): pass")
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_examples_are_shared_among_the_rule_versions_as_verify_shares_them(pytester):
    from gateproof.conformance.plugin.options import PluginSettings

    def shares(kinds, rules, examples):
        return PluginSettings("m:f", print, kinds, rules, examples, pytester.path, False).shares()

    assert shares(("ceiling",), ("adr-166", "adr-175", "adr-179"), 10) == [
        ("ceiling", "adr-166", 4), ("ceiling", "adr-175", 3), ("ceiling", "adr-179", 3)]
    assert sum(n for _, _, n in shares(("ceiling", "gateway"), ("adr-179", "lab-001", "lab-001+next"), 100)) == 100
    pytester.makeini(ini(gateproof_rules="lab-001 lab-001+next", examples=1))
    listed = pytester.runpytest("-p", "no:cacheprovider", "--co", "-q", "-k", "generated")
    listed.stdout.fnmatch_lines(["tox.ini::generated::lab-001", "1/* tests collected*"])
