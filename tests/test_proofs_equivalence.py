"""Two rule versions proved to decide alike, or a smallest story where they part that replays through the model."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateproof.conformance.harness.bulk import decided
from gateproof.conformance.cli import main
from gateproof.conformance.generation.lifecycle_strategies import lifecycle_scenarios
from gateproof.conformance.proofs.engine import COUNTEREXAMPLE, PROVED
from gateproof.conformance.proofs.equivalence import SUBJECTS, compare_versions
from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios

DECISION_KEYS = ("decision", "declared_class", "source", "sent")


def decisions(outcome: dict) -> list[tuple]:
    return [tuple(result.get(key) for key in DECISION_KEYS) for result in outcome["results"]]


def outcomes(comparison, right: str) -> list[tuple[dict, dict]]:
    """Each counterexample document decided under its own version and under ``right``."""
    return [(decided(document), decided(document, right)) for document in comparison.documents]


@pytest.mark.parametrize("left, right", [("adr-175", "adr-179"), ("adr-179", "nr-llm")])
def test_versions_that_change_only_the_dropped_record_are_proved_alike(left, right):
    comparisons = compare_versions(left, right, 6)
    assert [c.outcome for c in comparisons] == [PROVED] * len(SUBJECTS)
    assert all(c.documents == () for c in comparisons)


@pytest.mark.parametrize(
    "left, right, parting",
    [("pre-164", "adr-164", {"send", "playground send", "run story"}), ("adr-164", "adr-165", {"run story"}),
     ("adr-166", "adr-175", {"playground send", "run story"})],
)
def test_where_versions_part_the_smallest_story_replays_with_other_decisions(left, right, parting):
    comparisons = compare_versions(left, right, 6)
    assert {c.subjects.domain.name for c in comparisons if c.outcome == COUNTEREXAMPLE} == parting
    assert all(c.outcome == PROVED for c in comparisons if c.subjects.domain.name not in parting)
    for comparison in comparisons:
        for ours, theirs in outcomes(comparison, right):
            assert ours["rules"] == left and theirs["rules"] == right
            assert decisions(ours) != decisions(theirs), json.dumps(comparison.documents)
        assert comparison.bound <= 2 or comparison.outcome == PROVED  # shrunk to the smallest bound that parts them


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.sampled_from([("adr-175", "adr-179"), ("adr-179", "nr-llm")]).flatmap(
    lambda pair: st.tuples(st.just(pair), st.one_of(ceiling_scenarios(rules=pair[0]), lifecycle_scenarios(rules=pair[0])))))
def test_versions_proved_alike_decide_every_generated_story_alike(case):
    """The proof is over an abstraction; the model itself, on concrete stories, must agree with it."""
    (left, right), document = case
    assert decisions(decided(document)) == decisions(decided(document, right))


def test_the_diff_report_says_what_was_proved_and_writes_what_parts_the_versions(tmp_path):
    done = CliRunner().invoke(main, ["diff", "--from", "adr-166", "--to", "adr-175", "--examples", "50", "--no-claims", "--bound", "4", "--json", "--out", str(tmp_path)])
    assert done.exit_code == 0, done.output
    proofs = {proof["subjects"]: proof for proof in json.loads(done.stdout)["proofs"]}
    assert proofs["send"]["result"] == "alike" and proofs["send"]["scope"] == "every gate over at most 4 resolved sources and 4 fallbacks"
    assert proofs["run story"]["result"] == "differ" and proofs["run story"]["files"]
    document = json.loads(open(proofs["run story"]["files"][0], encoding="utf-8").read())
    assert decisions(decided(document)) != decisions(decided(document, "adr-175"))
    text = CliRunner().invoke(main, ["diff", "--from", "adr-175", "--to", "adr-179", "--examples", "50", "--no-claims", "--bound", "3", "--out", str(tmp_path)])
    assert "alike for every run story with at most 3 configuration sources and 3 forced records of each kind" in " ".join(text.stdout.split())
