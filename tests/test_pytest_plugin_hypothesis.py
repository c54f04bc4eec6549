"""The plugin's generated scenarios use hypothesis as its users expect: profiles, the seed, the example database, statistics.

The recording gateway of tests/gateways writes every scenario it is given to
a file, so a test reads back what hypothesis drew and in which order.
"""

from __future__ import annotations

import json

import pytest
from plugin_helpers import ini, outside_ci, recorded

from gateproof.conformance.harness.hunt import model_outcome

pytest_plugins = ["pytester"]
PROFILES = """
from hypothesis import settings

settings.register_profile("nodb", database=None)
"""


@pytest.fixture
def record(pytester, monkeypatch):
    outside_ci(monkeypatch)  # in CI, hypothesis loads its "ci" profile: derandomized, no database
    path = pytester.path / "seen.jsonl"
    monkeypatch.setenv("GATEPROOF_RECORD", str(path))
    pytester.makeini(ini("gateways.recording_gateway:run", examples=40))
    pytester.makeconftest(PROFILES)
    return path


def _disagrees(scenario: dict) -> bool:
    from gateways import cross_tenant_gateway

    return cross_tenant_gateway.run(scenario) != model_outcome(scenario)


def _generated(pytester, *arguments: str):
    """A run of the generated scenarios alone, in its own process: a profile loaded in this one would outlast the run."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "generated", *arguments, timeout=600)


def test_the_last_failure_is_replayed_first_from_the_example_database(pytester, monkeypatch, record):
    monkeypatch.setenv("GATEPROOF_WRONG", "cross-tenant")
    _generated(pytester, "--hypothesis-profile", "nodb").assert_outcomes(failed=1)
    assert not _disagrees(recorded(record)[0])  # without the database the search does not start on a failure
    assert not (pytester.path / ".hypothesis" / "examples").exists()
    _generated(pytester).assert_outcomes(failed=1)
    assert (pytester.path / ".hypothesis" / "examples").is_dir()
    record.unlink()
    _generated(pytester).assert_outcomes(failed=1)
    assert _disagrees(recorded(record)[0])  # the saved failure, tried before anything new is drawn


def test_the_same_seed_draws_the_same_scenarios_and_another_seed_others(pytester, record):
    runs = []
    for seed in ("3", "3", "4"):
        _generated(pytester, "--hypothesis-profile", "nodb", "--hypothesis-seed", seed).assert_outcomes(passed=1)
        runs.append(recorded(record))
        record.unlink()
    assert runs[0] == runs[1] and runs[0] != runs[2]
    assert len(runs[0]) == 40  # gateproof_examples scenarios, all on lab-001


def test_statistics_are_shown_for_the_generated_item(pytester, record):
    result = _generated(pytester, "--hypothesis-show-statistics")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*Hypothesis Statistics*", "*tox.ini::generated::lab-001:*", "*40 passing, 0 failing*"])


def test_in_ci_hypothesis_s_ci_profile_holds_derandomized_and_without_a_database(pytester, monkeypatch, record):
    monkeypatch.setenv("CI", "true")
    runs = []
    for _ in range(2):
        _generated(pytester).assert_outcomes(passed=1)
        runs.append(recorded(record))
        record.unlink()
    assert runs[0] == runs[1] and len(runs[0]) == 40
    assert not (pytester.path / ".hypothesis" / "examples").exists()


def test_sliced_searches_are_items_of_their_own_that_pytest_n_spreads_each_drawing_its_own_scenarios(pytester, record):
    pytester.makeini(ini("gateways.recording_gateway:run", examples=40, gateproof_slices="4"))
    collected = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-k", "generated", "--co", "-q")
    assert [line for line in collected.outlines if "::generated::" in line] == [f"tox.ini::generated::lab-001.{n}of4" for n in range(1, 5)]
    spread = _generated(pytester, "-n", "2", "--hypothesis-seed", "3", "--hypothesis-profile", "nodb")
    spread.assert_outcomes(passed=4)
    seen = [json.dumps(scenario, sort_keys=True) for scenario in recorded(record)]
    assert len(seen) >= 8 and len(set(seen)) > len(seen) // 2  # under one seed the four slices still draw scenarios of their own
