"""The trust-ceiling invariants, each a claim over the verdicts of the sends its story sets up.

A claim is written once with an ``ops`` argument, like the lattice rules:
the prover evaluates it on z3 terms, and the counterexample tests on the
verdicts a replayed scenario produced. Ids are stable; ``adr/invariants.md``
states each claim in one sentence, and a test keeps the two in step.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from gateproof.model import lattice
from gateproof.model.lattice import NO_SOURCE, OBSERVED, PERMITTED, REFUSED, UNDECLARED, UNDECLARED_KIND

from . import stories
from .domains import SENDS, Domain
from .send import configuration_positions, verdict_over


@frozen
class Invariant:
    id: str
    claim: Callable  # (subjects, verdicts, ops) -> bool or z3 term
    story: Callable  # bound -> (subjects, facts)
    rests_on: tuple[str, ...]
    #: Wrong variants that must yield a counterexample: the invariant's teeth.
    teeth: tuple[str, ...]
    #: Model versions whose rules knowingly break the claim.
    departs_in: tuple[str, ...] = ()
    domain: Domain = SENDS

    @property
    def name(self) -> str:
        return self.claim.__name__

    @property
    def statement(self) -> str:
        return " ".join(self.claim.__doc__.split())


CATALOG: list[Invariant] = []


def invariant(id: str, story, rests_on, teeth, departs_in=(), domain: Domain = SENDS):
    def register(claim):
        CATALOG.append(Invariant(id, claim, story, tuple(rests_on), tuple(teeth), tuple(departs_in), domain))
        return claim

    return register


def same_decision(first, second, ops):
    return ops.And(
        first.declared == second.declared,
        first.source == second.source,
        first.kind == second.kind,
        first.sent == second.sent,
    )


def is_refusal(verdict, ops):
    return ops.Or(verdict.kind == REFUSED, verdict.kind == OBSERVED)


def implies(premise, conclusion, ops):
    return ops.Or(ops.Not(premise), conclusion)


@invariant("I001", stories.without_forced_set, ("C164.1", "C144.3"), ("wrong:gate-only-with-forced-set",))
def empty_forced_set_is_configuration_only(sends, verdicts, ops):
    """A send whose run forces nothing is decided exactly as the configuration's own sources decide it."""
    (send,) = sends
    return same_decision(verdicts[0], verdict_over(send, configuration_positions(send, ops), ops), ops)


@invariant(
    "I002",
    stories.one_send,
    ("C144.9", "C164.1"),
    ("wrong:last-declared-wins", "wrong:undeclared-resets", "wrong:gate-only-with-forced-set", "wrong:undeclared-as-public"),
    departs_in=("pre-164",),
)
def declared_class_is_the_strictest_declaration(sends, verdicts, ops):
    """The declared class is the strictest class any listed source declares, and undeclared when none declares one."""
    (send,) = sends
    strictest = UNDECLARED
    for rank, listed in zip(send.ranks, send.listed):
        strictest = ops.If(ops.And(listed, rank > strictest), rank, strictest)
    return verdicts[0].declared == strictest


@invariant(
    "I003",
    stories.with_more_undeclared_sources,
    ("C144.2", "C144.9"),
    ("wrong:undeclared-resets", "wrong:gate-only-with-forced-set", "wrong:undeclared-as-public"),
)
def undeclared_sources_never_affect_the_decision(sends, verdicts, ops):
    """Listing further undeclared sources changes neither the decision, nor the declared class, nor the named source."""
    return same_decision(verdicts[0], verdicts[1], ops)


@invariant("I004", stories.one_send, ("C144.2", "C144.10", "C144.11"), ("wrong:undeclared-permitted", "wrong:undeclared-as-public"))
def nothing_declared_consults_no_zone_and_refuses_nothing(sends, verdicts, ops):
    """When no listed source declares a class, the decision is undeclared, which consults no zone, and the send goes out."""
    (send,) = sends
    declares = ops.Or(False, *(ops.And(listed, rank != UNDECLARED) for rank, listed in zip(send.ranks, send.listed)))
    return implies(ops.Not(declares), ops.And(verdicts[0].kind == UNDECLARED_KIND, verdicts[0].sent), ops)


@invariant("I005", stories.one_send, ("C144.9", "C144.10"), ("wrong:first-wins-ties", "wrong:undeclared-as-public"), departs_in=("pre-164",))
def named_source_is_the_last_strictest(sends, verdicts, ops):
    """The named source declares exactly the declared class, and no listed source after it declares that class."""
    (send,) = sends
    verdict = verdicts[0]
    declares = [ops.And(listed, rank == verdict.declared) for rank, listed in zip(send.ranks, send.listed)]
    named_last = ops.Or(
        False,
        *(
            ops.And(verdict.source == index, declares[index], *(ops.Not(later) for later in declares[index + 1 :]))
            for index in range(send.bound)
        ),
    )
    return ops.If(verdict.declared == UNDECLARED, verdict.source == NO_SOURCE, named_last)


@invariant("I006", stories.with_more_sources, ("C144.9", "C094.5", "C144.10"), ("wrong:last-declared-wins", "wrong:undeclared-resets"))
def adding_a_source_never_relaxes_the_decision(sends, verdicts, ops):
    """Listing further sources never lowers the declared class and never turns a refusal into a permit."""
    before, after = verdicts
    return ops.And(after.declared >= before.declared, implies(is_refusal(before, ops), is_refusal(after, ops), ops))


@invariant("I007", stories.in_two_zones, ("C094.4", "C094.5", "C144.10"), ("wrong:swapped-ceilings",))
def less_trusted_zone_never_permits_more(sends, verdicts, ops):
    """A zone less trusted than another never permits a send that the more trusted zone refuses."""
    trusted, other = verdicts
    less_trusted = ops.And(trusted.declared != UNDECLARED, other.zone >= trusted.zone)
    return implies(ops.And(less_trusted, other.kind == PERMITTED), trusted.kind == PERMITTED, ops)


@invariant("I008", stories.with_more_fallbacks, ("C094.6", "C094.10"), ("wrong:fallback-replaces-zone",))
def fallback_never_raises_trust(sends, verdicts, ops):
    """Adding fallbacks to the chain never makes the zone a send can reach more trusted."""
    before, after = verdicts
    # The zone is read only for a declared send, so only there can a replay
    # show it; the zone fold does not look at the sources, so this loses no case.
    return implies(before.declared != UNDECLARED, after.zone >= before.zone, ops)


@invariant("I009", stories.in_both_modes, ("C113.1", "C144.10", "C144.11"), ("wrong:observe-withholds",))
def observe_and_enforce_differ_only_in_sending(sends, verdicts, ops):
    """Enforce and observe give the same decision, a refusal being observed instead of refused, and only enforce withholds the send."""
    enforced, observed = verdicts
    same_kind = ops.Or(
        ops.And(enforced.kind == observed.kind, enforced.kind != REFUSED),
        ops.And(enforced.kind == REFUSED, observed.kind == OBSERVED),
    )
    return ops.And(
        enforced.declared == observed.declared,
        enforced.source == observed.source,
        same_kind,
        observed.sent,
        enforced.sent == (enforced.kind != REFUSED),
    )


@invariant(
    "I010",
    stories.in_another_order,
    ("C144.9", "C144.10", "C144.11"),
    ("wrong:last-declared-wins", "wrong:undeclared-resets"),
)
def source_order_changes_only_the_named_source(sends, verdicts, ops):
    """Reordering the sources can change which source is named, never the declared class, the decision or whether it is sent."""
    first, second = verdicts
    return ops.And(first.declared == second.declared, first.kind == second.kind, first.sent == second.sent)


# The invariants of run stories and of the gateway register themselves after these.
from . import catalog_runs  # noqa: E402,F401  (I011 to I013)
from . import catalog_gateway  # noqa: E402,F401  (I014 onward)


# Ids are stable, so a claim about sends written after the gateway's takes the next id and stands last.
@invariant(
    "I017",
    stories.one_send,
    ("C094.4", "C094.5", "C094.6", "C094.10", "C144.10"),
    ("wrong:fallback-ignored", "wrong:fallback-replaces-zone", "wrong:swapped-ceilings"),
)
def every_reachable_zone_permits_a_permitted_send(sends, verdicts, ops):
    """A send is permitted only when its primary zone and every listed fallback's zone permit its declared class."""
    (send,), (verdict,) = sends, verdicts
    permitting = [lattice.zone_permits(send.primary_zone, verdict.declared, ops)]
    permitting += [
        implies(listed, lattice.zone_permits(zone, verdict.declared, ops), ops) for zone, listed in zip(send.fallback_zones, send.fallback_listed)
    ]
    return implies(verdict.kind == PERMITTED, ops.And(*permitting), ops)


BY_ID = {entry.id: entry for entry in CATALOG}
