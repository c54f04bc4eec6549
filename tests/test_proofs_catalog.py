"""The catalog proves under the model's rules, is refuted by exactly its wrong variants, and its counterexamples replay."""

from __future__ import annotations

import pytest

from gateproof.conformance.bench.proofs import measure
from gateproof.conformance.proofs.catalog import CATALOG
from gateproof.conformance.proofs.domains import GATEWAY_CALLS, SENDS
from gateproof.conformance.proofs.engine import COUNTEREXAMPLE, PROVED, prove, semantics_named
from gateproof.conformance.proofs.replay import replay
from gateproof.conformance.proofs.wrong import WRONG_VARIANTS
from gateproof.conformance.implementations.wrong.ceiling import WRONG_RULES
from gateproof.model import context_gate, fold, lattice
from gateproof.model.lattice import CONCRETE, UNDECLARED
from gateproof.model.versions import DEFAULT_VERSION, VERSIONS

#: Small enough to keep the suite quick, large enough for every counterexample the variants have.
SMALL_BOUND = 5


def _ids(entry) -> str:
    return f"{entry.id}-{entry.name}"


@pytest.mark.parametrize("entry", CATALOG, ids=_ids)
def test_invariant_is_proved_under_the_latest_rules(entry):
    assert prove(entry, semantics_named(DEFAULT_VERSION), SMALL_BOUND).outcome == PROVED


@pytest.mark.parametrize("version", sorted(VERSIONS))
def test_a_model_version_breaks_exactly_its_known_departures(version):
    for entry in CATALOG:
        result = prove(entry, semantics_named(version), SMALL_BOUND)
        assert result.outcome == (COUNTEREXAMPLE if version in entry.departs_in else PROVED), entry.id


@pytest.mark.parametrize("variant", sorted(WRONG_VARIANTS))
def test_a_wrong_variant_refutes_exactly_the_invariants_that_name_it(variant):
    refuted = {entry.id for entry in CATALOG if prove(entry, semantics_named(variant), SMALL_BOUND).outcome == COUNTEREXAMPLE}
    assert refuted == {entry.id for entry in CATALOG if variant in entry.teeth}


def test_every_invariant_has_teeth_and_every_variant_bites():
    assert all(entry.teeth for entry in CATALOG)
    assert {name for entry in CATALOG for name in entry.teeth} == set(WRONG_VARIANTS)


REFUTATIONS = [(entry, name) for entry in CATALOG for name in (*entry.teeth, *entry.departs_in)]


@pytest.mark.parametrize("entry, rules", REFUTATIONS, ids=[f"{e.id}-{n}" for e, n in REFUTATIONS])
def test_counterexample_replays_through_the_model_and_shows_the_violation(entry, rules):
    semantics = semantics_named(rules)
    result = prove(entry, semantics, SMALL_BOUND)
    subjects, predicted = result.counterexample.subjects, result.counterexample.verdicts
    _, replayed = replay(entry.domain, entry.domain.documents(entry.id, entry.statement, semantics, subjects), semantics)
    for shown, expected in zip(replayed, predicted, strict=True):
        if entry.domain is GATEWAY_CALLS:
            assert shown == expected
            continue
        assert (shown.declared, shown.source, shown.kind, shown.sent) == (expected.declared, expected.source, expected.kind, expected.sent)
        if entry.domain is SENDS and expected.declared != UNDECLARED:
            assert shown.zone == expected.zone
    with semantics.in_force():
        assert not entry.claim(subjects, replayed, CONCRETE)


def test_a_wrong_variant_is_withdrawn_when_its_proof_ends():
    originals = (lattice.takes_over, lattice.fold_ranks, fold.fold_ranks, context_gate.decide, context_gate.is_sent)
    for variant in WRONG_RULES.values():
        with variant.in_force():
            pass
    assert (lattice.takes_over, lattice.fold_ranks, fold.fold_ranks, context_gate.decide, context_gate.is_sent) == originals


def test_the_catalog_proves_at_bound_8():
    # How long it takes is a figure of make bench: a test does not depend on the machine's speed.
    _, results = measure(8)
    assert {r.outcome for r in results} == {PROVED}
