"""The attack corpus is current, pins real rules, and tells the implementations apart."""

import pytest

from gateproof.conformance.harness.documents import dumps, parse_json
from gateproof.conformance.corpus.attacks import CORPUS_DIR, compute_corpus
from gateproof.conformance.implementations import cedar_gateway, unsafe_gateway
from gateproof.model.scenario.schema import validate

# Read as the harness reads it: a proposal that writes a key twice keeps both (G001.17).
CORPUS = {path.stem: parse_json(path.read_bytes(), repeats=None, limit=None) for path in sorted(CORPUS_DIR.glob("*.json"))}
CASES = [case for family in CORPUS.values() for case in family["cases"]]
ATTACK_FAMILIES = ("poisoned_runbook", "injection", "forged_authority", "cross_tenant", "assignment_and_role", "retrieval")


def test_corpus_files_are_regenerated_from_the_model():
    assert CORPUS == parse_json(dumps(compute_corpus()), repeats=None, limit=None), "run: gateproof corpus build"


def test_case_ids_are_unique_and_stable_in_form():
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)) and all(i.startswith("gw.") for i in ids)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_case_is_valid_and_names_adr_rules(case, adr_rule_ids):
    validate("scenario", case["scenario"])
    validate("outcome", case["expected"])
    assert case["rules"] and set(case["rules"]) <= adr_rule_ids


@pytest.mark.rule("G001.8", "G001.14")
def test_unsafe_baseline_reproduces_the_lab_attack():
    attack = next(c for c in CASES if c["id"] == "gw.poisoned-runbook.attack-proposal")
    assert len(unsafe_gateway.run(attack["scenario"])["results"][0]["exports"]) == 1
    assert attack["expected"]["results"][0]["exports"] == []


@pytest.mark.parametrize("family", ATTACK_FAMILIES)
def test_unsafe_baseline_is_caught_on_every_attack_family(family):
    caught = [c["id"] for c in CORPUS[family]["cases"] if unsafe_gateway.run(c["scenario"]) != c["expected"]]
    assert caught, f"the unsafe baseline passes every case of {family}"


def test_unsafe_baseline_allows_what_the_model_refuses():
    """Caught for the right reason: somewhere it records an export the model refuses."""
    leaks = [
        c["id"] for c in CASES
        for mine, theirs in zip(c["expected"]["results"], unsafe_gateway.run(c["scenario"])["results"])
        if mine.get("decision") == "deny" and theirs.get("exports")
    ]
    assert "gw.poisoned-runbook.attack-proposal" in leaks and "gw.cross-tenant.export" in leaks


@pytest.mark.parametrize("case", [c for c in CASES if c["scenario"]["rules"] == "lab-001"], ids=lambda c: c["id"])
def test_cedar_implementation_passes_the_lab_corpus(case):
    assert cedar_gateway.run(case["scenario"]) == case["expected"]


def test_cedar_implementation_declines_the_next_rules():
    nxt = next(c for c in CASES if c["scenario"]["rules"] == "lab-001+next")
    with pytest.raises(ValueError, match="lab-001 only"):
        cedar_gateway.run(nxt["scenario"])
