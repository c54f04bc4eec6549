"""The two interpretations agree: the lattice rules on values and on z3 terms, and the proofs' send against the model."""

from __future__ import annotations

import z3
from attrs import evolve
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.proofs.decode import scenario_documents
from gateproof.conformance.proofs.domains import SENDS
from gateproof.conformance.proofs.replay import replay
from gateproof.conformance.proofs.send import Send, semantics_of
from gateproof.model import lattice, lifecycle, lookups
from gateproof.model.gateway import arguments, authorize
from gateproof.model.fold import fold
from gateproof.model.ladder import DataClass
from gateproof.model.lattice import CONCRETE, UNDECLARED
from gateproof.model.sources import Source
from gateproof.model.symbolic import Z3
from gateproof.model.versions import VERSIONS
from gateproof.model.zones import TrustZone

class_ranks = st.integers(UNDECLARED, len(DataClass) - 1)
zone_ranks = st.integers(0, len(TrustZone) - 1)
kinds = st.integers(0, len(lattice.DECISION_KINDS) - 1)


def symbolic(value):
    """A value as a z3 constant term, so the lattice functions take their z3 path."""
    return z3.BoolVal(value) if isinstance(value, bool) else z3.IntVal(value)


def evaluated(term):
    """The value of a closed z3 term; a plain value (an empty fold's result) is returned as it is."""
    if not z3.is_expr(term):
        return term
    value = z3.simplify(term)
    return value.as_long() if z3.is_int_value(value) else z3.is_true(value)


def both(function, *arguments):
    concrete = function(*arguments, ops=CONCRETE)
    return concrete, evaluated(function(*(symbolic(a) for a in arguments), ops=Z3))


@given(class_ranks, class_ranks, zone_ranks, zone_ranks, st.booleans(), kinds)
def test_lattice_rules_agree_on_values_and_terms(first, second, zone, other_zone, enforcing, kind):
    for function, values in (
        (lattice.is_at_most, (first, second)),
        (lattice.ceiling_rank, (zone,)),
        (lattice.zone_permits, (zone, first)),
        (lattice.less_trusted, (zone, other_zone)),
        (lattice.takes_over, (first, second)),
        (lattice.decision_kind, (first, zone, enforcing)),
        (lattice.is_sent, (kind,)),
    ):
        concrete, from_term = both(function, *values)
        assert concrete == from_term, function.__name__


@given(st.lists(st.tuples(class_ranks, st.booleans()), max_size=10), zone_ranks, st.lists(st.tuples(zone_ranks, st.booleans()), max_size=6))
def test_rank_folds_agree_on_values_and_terms(sources, primary, fallbacks):
    ranks = [rank for rank, _ in sources]
    listed = [flag for _, flag in sources]
    rank, winner = lattice.fold_ranks(ranks, listed)
    term_rank, term_winner = lattice.fold_ranks([symbolic(r) for r in ranks], [symbolic(f) for f in listed], Z3)
    assert (rank, winner) == (evaluated(term_rank), evaluated(term_winner))
    zones = [zone for zone, _ in fallbacks]
    chain = [flag for _, flag in fallbacks]
    zone = lattice.reachable_zone_rank(primary, zones, chain)
    term = lattice.reachable_zone_rank(symbolic(primary), [symbolic(z) for z in zones], [symbolic(f) for f in chain], Z3)
    assert zone == evaluated(term)


@given(st.lists(class_ranks, max_size=12))
def test_model_fold_is_the_rank_fold_in_both_interpretations(ranks):
    sources = [Source(f"source {i}", None if r == UNDECLARED else tuple(DataClass)[r], "snippet") for i, r in enumerate(ranks)]
    folded = fold(sources)
    term_rank, term_winner = lattice.fold_ranks([symbolic(r) for r in ranks], ops=Z3)
    for rank, winner in (lattice.fold_ranks(ranks), (evaluated(term_rank), evaluated(term_winner))):
        assert lattice.rank_of(folded.data_class) == rank
        assert folded.source == ("" if winner == lattice.NO_SOURCE else sources[winner].name)


@st.composite
def sends(draw, bound=6):
    """Concrete sends as the proofs see them, forced sources after the configuration's."""
    configuration_count = draw(st.integers(0, bound))
    return Send(
        ranks=tuple(draw(st.lists(class_ranks, min_size=bound, max_size=bound))),
        listed=tuple(draw(st.lists(st.booleans(), min_size=bound, max_size=bound))),
        forced=tuple(i >= configuration_count for i in range(bound)),
        primary_zone=draw(zone_ranks),
        fallback_zones=tuple(draw(st.lists(zone_ranks, min_size=bound, max_size=bound))),
        fallback_listed=tuple(draw(st.lists(st.booleans(), min_size=bound, max_size=bound))),
        enforcing=draw(st.booleans()),
    )


@settings(max_examples=150, deadline=None)
@given(sends(), st.sampled_from(["adr-179", "pre-164"]))
def test_the_proofs_send_decides_as_the_model_does(send, version):
    """Decoded into a scenario and run through the model, a send gets the verdict the proofs compute for it."""
    semantics = semantics_of(VERSIONS[version])
    expected = semantics.judge(send, CONCRETE)
    _, (replayed,) = replay(SENDS, scenario_documents("differential", "the model agrees", semantics, (send,)), semantics)
    assert (replayed.declared, replayed.source, replayed.kind, replayed.sent) == (
        expected.declared, expected.source, expected.kind, expected.sent,
    )
    if expected.declared != UNDECLARED:
        assert replayed.zone == expected.zone


@given(st.sampled_from(["enabled", "existing", "all by name"]), st.booleans(), st.booleans(), st.booleans(), st.booleans())
def test_lookup_filter_and_suspend_rule_agree_on_values_and_terms(lookup, deleted, switched_on, requested, resolved):
    concrete = lookups.is_kept_by(lookup, deleted, switched_on)
    assert concrete == evaluated(lookups.is_kept_by(lookup, symbolic(deleted), symbolic(switched_on), Z3))
    assert lifecycle.is_stored_on_suspend(requested, resolved) == evaluated(
        lifecycle.is_stored_on_suspend(symbolic(requested), symbolic(resolved), Z3)
    )


@given(st.lists(st.booleans(), min_size=5, max_size=5), st.booleans(), st.lists(st.booleans(), min_size=5, max_size=5), st.booleans(), st.booleans())
def test_gateway_checks_and_precedence_agree_on_values_and_terms(shape, valid, facts, configured, internal):
    """The same checks give the same reason on values and on terms, for either tool."""
    for exporting in (True, False):
        def checks(ops, value, exporting=exporting):
            authorization = authorize.authorization_checks(
                value(exporting), authorize.AuthorizationFacts(*map(value, facts)),
                authorize.lab_destination_checks(value(configured), value(internal), ops), ops,
            )
            applying = [evolve(check, passed=ops.Or(ops.Not(applies), check.passed)) for check, applies in authorization]
            return [*arguments.shape_checks(*map(value, shape)), authorize.session_check(value(valid)), *applying]

        concrete = arguments.first_failed_reason(checks(CONCRETE, lambda v: v))
        assert concrete == evaluated(arguments.first_failed_reason(checks(Z3, symbolic), Z3))
        model_order = [check for check, applies in authorize.authorization_checks(
            exporting, authorize.AuthorizationFacts(*facts), authorize.lab_destination_checks(configured, internal)) if applies]
        expected = [*arguments.shape_checks(*shape), authorize.session_check(valid), *model_order]
        assert arguments.REASON_CODES[concrete] == authorize.compute_reason(tuple(arguments.until_first_failure(expected)))
