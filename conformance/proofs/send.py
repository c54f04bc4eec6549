"""One send as the proofs see it: its sources and zones as ranks, and what the gate makes of them.

A :class:`Send` holds either z3 values (inside a proof) or plain values (a
decoded counterexample); :meth:`Semantics.judge` runs the model's lattice
rules on either. The two steps that are not lattice rules, which listed
sources the gate folds (C164.1) and that an undeclared decision names no
source (C144.10), are written here and tied to the model by the differential
test in ``tests/test_proofs_differential.py``.
"""

from __future__ import annotations

from typing import Callable

import z3
from attrs import frozen

from gateproof.model import lattice
from gateproof.model.ladder import DataClass
from gateproof.model.lattice import NO_SOURCE, UNDECLARED
from gateproof.model.versions import Rules
from gateproof.model.zones import TrustZone

from ..implementations.wrong.variant import Variant

HIGHEST_CLASS_RANK = len(DataClass) - 1
LEAST_TRUSTED_RANK = len(TrustZone) - 1


@frozen
class Send:
    """The sources (rank, listed, forced) by position, the zones, and the enforcement switch of one send.

    Positions are the list order; forced sources follow the configuration's
    (C164.1). A position that is not listed is not in the list at all, so
    ``bound`` positions stand for every list of at most ``bound`` sources,
    and likewise for the fallback chain.
    """

    ranks: tuple
    listed: tuple
    forced: tuple
    primary_zone: object
    fallback_zones: tuple
    fallback_listed: tuple
    enforcing: object
    #: The switch's raw text when a story reads it (C113.1); None: a plain enforce or observe.
    switch: object = None

    @property
    def bound(self) -> int:
        return len(self.ranks)


@frozen
class Verdict:
    """What the gate made of a send: the declared rank, the named source's index, the zone, the kind, whether sent."""

    declared: object
    source: object
    zone: object
    kind: object
    sent: object


def fresh_send(name: str, bound: int) -> Send:
    """A send whose every field is a fresh z3 constant prefixed by ``name``."""
    return Send(
        ranks=tuple(z3.Int(f"{name}.rank{i}") for i in range(bound)),
        listed=tuple(z3.Bool(f"{name}.listed{i}") for i in range(bound)),
        forced=tuple(z3.Bool(f"{name}.forced{i}") for i in range(bound)),
        primary_zone=z3.Int(f"{name}.zone"),
        fallback_zones=tuple(z3.Int(f"{name}.fallback{i}") for i in range(bound)),
        fallback_listed=tuple(z3.Bool(f"{name}.fallback_listed{i}") for i in range(bound)),
        enforcing=z3.Bool(f"{name}.enforcing"),
    )


def well_formed(send: Send) -> list:
    """The ranges of ranks and zones, and forced sources after the configuration's."""
    facts = [z3.And(UNDECLARED <= rank, rank <= HIGHEST_CLASS_RANK) for rank in send.ranks]
    facts += [z3.And(0 <= zone, zone <= LEAST_TRUSTED_RANK) for zone in (send.primary_zone, *send.fallback_zones)]
    facts += [z3.Implies(before, after) for before, after in zip(send.forced, send.forced[1:])]
    return facts


def gated_positions(send: Send, rules: Rules, ops) -> tuple:
    """C164.1: the gate folds every listed source; before ADR-164 only the configuration's own."""
    if rules.gates_forced_sources:
        return send.listed
    return tuple(ops.And(listed, ops.Not(forced)) for listed, forced in zip(send.listed, send.forced))


def configuration_positions(send: Send, ops) -> tuple:
    """The listed sources the configuration carries itself (C144.3)."""
    return tuple(ops.And(listed, ops.Not(forced)) for listed, forced in zip(send.listed, send.forced))


def verdict_over(send: Send, folded: tuple, ops) -> Verdict:
    """C144.10, C144.11 on the sources ``folded`` marks: an undeclared decision names no source."""
    declared, winner = lattice.fold_ranks(send.ranks, folded, ops)
    zone = lattice.reachable_zone_rank(send.primary_zone, send.fallback_zones, send.fallback_listed, ops)
    kind = lattice.decision_kind(declared, zone, send.enforcing, ops)
    source = ops.If(declared == UNDECLARED, NO_SOURCE, winner)
    return Verdict(declared, source, zone, kind, lattice.is_sent(kind, ops))


@frozen
class Semantics(Variant):
    """A rule version the proofs run: the model's rules, or a deliberately wrong variant with its encoding.

    What a variant changes (:class:`Variant`) applies to the symbolic and
    the concrete interpretation alike; what the proofs add is which listed
    sources the gate folds (``gated``) and, for a wrong gateway, its reason
    for an abstract call (``gateway_reason``).
    """

    gated: Callable = gated_positions
    #: The gateway's reason for an abstract call: (call, ops) -> reason index.
    gateway_reason: Callable | None = None

    def judge(self, send: Send, ops) -> Verdict:
        """The verdict these rules give ``send``; call inside :meth:`in_force`."""
        return verdict_over(send, self.gated(send, self.rules, ops), ops)


def semantics_of(rules: Rules) -> Semantics:
    """The model's own rules under a version of :mod:`gateproof.model.versions`."""
    return Semantics(rules.name, rules)

