"""Deliberately wrong trust-ceiling rules: each invariant of the proofs must fail under at least one of them.

A proof that cannot fail proves nothing. Each variant changes one rule the
way a plausible bug would, and says which. The names are what ``gateproof
prove --rules`` and ``gateproof decide --rules`` accept after ``wrong:``;
the gateway's wrong variants are in :mod:`.gateway`. Each patch takes
``ops``, so the proofs run it on z3 values as the model runs it on plain
ones.
"""

from __future__ import annotations

from attrs import evolve

from gateproof.model import context_gate, lattice, lifecycle
from gateproof.model.context_gate import Decision
from gateproof.model.ladder import DataClass
from gateproof.model.lattice import CEILING_RANKS, OBSERVED, PERMITTED, REFUSED, UNDECLARED
from gateproof.model.scenario import run
from gateproof.model.versions import ALL_BY_NAME, ENABLED, EXISTING, VERSIONS
from gateproof.model.zones import CEILINGS

from .variant import WRONG_PREFIX as PREFIX
from .variant import Variant

_right_decide = context_gate.decide
_right_decision_kind = lattice.decision_kind
_right_gated_sources = run.gated_sources
_right_fold_ranks = lattice.fold_ranks


def first_wins_ties(running_rank, new_rank, ops=lattice.CONCRETE):
    """Only a strictly stricter source takes over, so on a tie the earlier source stays named."""
    return ops.And(new_rank > UNDECLARED, ops.Or(running_rank == UNDECLARED, running_rank < new_rank))


def last_declared_wins(running_rank, new_rank, ops=lattice.CONCRETE):
    """Every declared source takes over, stricter or not: the fold forgets the maximum."""
    return new_rank > UNDECLARED


def undeclared_resets(running_rank, new_rank, ops=lattice.CONCRETE):
    """An undeclared source clears the running result, as if undeclared were a class of its own."""
    return ops.Or(new_rank == UNDECLARED, running_rank <= new_rank)


def fallback_replaces_zone(first_rank, second_rank, ops=lattice.CONCRETE):
    """The fallback's zone replaces the running zone instead of joining it."""
    return second_rank


def fallback_ignored(first_rank, second_rank, ops=lattice.CONCRETE):
    """The fallback chain is ignored: the primary model's zone alone is held to the ceiling."""
    return first_rank


#: privateHosted and externalEu with their ceilings swapped: a less trusted zone receives more.
_SWAPPED_CEILINGS = (CEILING_RANKS[0], CEILING_RANKS[2], CEILING_RANKS[1], CEILING_RANKS[3])


def swapped_ceiling_rank(zone_rank, ops=lattice.CONCRETE):
    """C094.4 with the ceilings of privateHosted and externalEu swapped."""
    return ops.select(_SWAPPED_CEILINGS, zone_rank)


def observe_withholds(kind, ops=lattice.CONCRETE):
    """An observed refusal is withheld like an enforced one."""
    return ops.And(kind != REFUSED, kind != OBSERVED)


def undeclared_permitted_kind(declared_rank, zone_rank, enforcing, ops=lattice.CONCRETE):
    """An undeclared send is judged permitted instead of left unconstrained."""
    return ops.If(declared_rank == UNDECLARED, PERMITTED, _right_decision_kind(declared_rank, zone_rank, enforcing, ops))


def undeclared_permitted_decide(classification, resolve_zone, read_enforcing):
    """The concrete side of :func:`undeclared_permitted_kind`: the zone is consulted and the send permitted."""
    if classification.data_class is None:
        zone = resolve_zone()
        return Decision("permitted", None, "", zone, CEILINGS[zone], None)
    return _right_decide(classification, resolve_zone, read_enforcing)


def undeclared_as_public_ranks(ranks, listed=None, ops=lattice.CONCRETE):
    """An undeclared source is read as publicContent, so it takes part in the fold and can be named."""
    public = DataClass.PUBLIC_CONTENT.rank
    return _right_fold_ranks(tuple(ops.If(rank == UNDECLARED, public, rank) for rank in ranks), listed, ops)


def gated_sources_only_with_forced_set(world, configuration, snippets, skills, rules):
    """The gate runs only when the run carries a forced set; otherwise nothing is folded."""
    if not snippets and not skills:
        return ()
    return _right_gated_sources(world, configuration, snippets, skills, rules)


def stores_requested_uids(requested, resolved, ops=lattice.CONCRETE):
    """A suspend stores every uid the run asked for, not those it runs with, so a source dropped at the start returns at the resume."""
    return requested


#: The version these variants were written against: each breaks or undoes something of it, and is applied on top of
#: it, so a later version leaves every variant as written (what it refutes included). Move it only with the variants.
WRITTEN_AGAINST = VERSIONS["adr-179"]

#: C166.3 and C175.3 undone: the resume rebuilds both kinds through the enabled lookup.
RESUME_ENABLED_ONLY = evolve(WRITTEN_AGAINST, name=PREFIX + "resume-enabled-only", resume_snippet_lookup=ENABLED, resume_skill_lookup=ENABLED)


def _variant(name: str, description: str, patches: dict) -> Variant:
    return Variant(PREFIX + name, WRITTEN_AGAINST, patches=patches, description=description, against=WRITTEN_AGAINST.name)


WRONG_RULES: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        _variant("first-wins-ties", first_wins_ties.__doc__, {lattice.takes_over: first_wins_ties}),
        _variant("last-declared-wins", last_declared_wins.__doc__, {lattice.takes_over: last_declared_wins}),
        _variant("undeclared-resets", undeclared_resets.__doc__, {lattice.takes_over: undeclared_resets}),
        _variant("fallback-replaces-zone", fallback_replaces_zone.__doc__, {lattice.less_trusted: fallback_replaces_zone}),
        _variant("fallback-ignored", fallback_ignored.__doc__, {lattice.less_trusted: fallback_ignored}),
        _variant("swapped-ceilings", swapped_ceiling_rank.__doc__, {lattice.ceiling_rank: swapped_ceiling_rank}),
        _variant("observe-withholds", observe_withholds.__doc__, {lattice.is_sent: observe_withholds}),
        _variant(
            "undeclared-permitted",
            undeclared_permitted_kind.__doc__,
            {lattice.decision_kind: undeclared_permitted_kind, context_gate.decide: undeclared_permitted_decide},
        ),
        _variant(
            "undeclared-as-public",
            undeclared_as_public_ranks.__doc__,
            {lattice.fold_ranks: undeclared_as_public_ranks},
        ),
        _variant(
            "gate-only-with-forced-set",
            gated_sources_only_with_forced_set.__doc__,
            {run.gated_sources: gated_sources_only_with_forced_set},
        ),
        _variant("suspend-stores-requested-uids", stores_requested_uids.__doc__, {lifecycle.is_stored_on_suspend: stores_requested_uids}),
        Variant(
            RESUME_ENABLED_ONLY.name,
            RESUME_ENABLED_ONLY,
            against=WRITTEN_AGAINST.name,
            description="A resume rebuilds forced snippets and skills enabled-only, so a source switched off while the run waited drops out of the re-gate.",
        ),
    )
}


def _undone(name: str, description: str, **switches) -> Variant:
    rules = evolve(WRITTEN_AGAINST, name=PREFIX + name, **switches)
    return Variant(rules.name, rules, description=description, against=WRITTEN_AGAINST.name)


#: The rules written against with exactly one ADR's change undone: each documented defect on its own,
#: so a counterexample shows that defect and not the later ADRs' other changes.
UNDONE_ADRS: dict[str, Variant] = {
    variant.name: variant
    for variant in (
        _undone("forced-ungated", "ADR-164 undone: the gate folds the configuration's sources alone; a run's forced set is never gated.",
                gates_forced_sources=False),
        _undone("resume-ungated", "ADR-165 undone: a suspend persists no forced uids, so a resume is judged on the configuration alone.",
                regates_on_resume=False),
        _undone("resume-snippets-enabled-only", "ADR-166 undone: a resume rebuilds forced snippets enabled-only, so one switched off while suspended escapes the re-gate.",
                resume_snippet_lookup=ENABLED),
        _undone("skills-unfiltered", "ADR-175 undone: forced skills ignore their switch when a prompt is composed, and a resume finds them by name order.",
                composition_skill_lookup=EXISTING, resume_skill_lookup=ALL_BY_NAME),
    )
}
