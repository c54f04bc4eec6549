"""The order rules of the ceiling, written once over ranks for two interpretations.

Every function here takes an ``ops`` argument. With :data:`CONCRETE` (the
default) it runs on Python ints and bools and is what the model executes;
with the z3 interpretation in ``gateproof.model.symbolic`` the same body
builds a z3 term, so the proofs are about these very definitions.

Ranks: a data class is its ladder rank 0..5 and *undeclared* is
:data:`UNDECLARED` (-1), below every class; a zone is its trust rank 0..3.
Decision kinds are the ints in :data:`DECISION_KINDS`.
"""

from __future__ import annotations

from .ladder import DataClass
from .text import normalise_token
from .zones import CEILINGS, TrustZone


class Concrete:
    """Evaluate the rules on plain values."""

    @staticmethod
    def If(cond, then, otherwise):  # noqa: N802 - mirrors z3's name
        return then if cond else otherwise

    @staticmethod
    def And(*terms):  # noqa: N802
        return all(terms)

    @staticmethod
    def Or(*terms):  # noqa: N802
        return any(terms)

    @staticmethod
    def Not(term):  # noqa: N802
        return not term

    @staticmethod
    def select(table, index):
        return table[index]

    @staticmethod
    def normalises_to(text, word):
        """Whether ``text``, trimmed and ASCII-lowercased the PHP way, is ``word``."""
        return normalise_token(text) == word


CONCRETE = Concrete()

UNDECLARED = -1
#: C094.4 as ranks: the ceiling rank of each zone, indexed by trust rank.
CEILING_RANKS = tuple(CEILINGS[zone].rank for zone in TrustZone)
DECISION_KINDS = ("undeclared", "permitted", "refused", "observed")
UNDECLARED_KIND, PERMITTED, REFUSED, OBSERVED = range(4)
#: The index the fold reports when no source set its result.
NO_SOURCE = -1


def rank_of(cls: DataClass | None) -> int:
    """The rank of a class, with undeclared below every class."""
    return UNDECLARED if cls is None else cls.rank


def is_at_most(cls_rank, ceiling_rank, ops=CONCRETE):
    """C094.1: a class is at most a ceiling when its rank does not exceed the ceiling's."""
    return cls_rank <= ceiling_rank


def ceiling_rank(zone_rank, ops=CONCRETE):
    """C094.4: the rank of the strictest class a zone may receive."""
    return ops.select(CEILING_RANKS, zone_rank)


def zone_permits(zone_rank, cls_rank, ops=CONCRETE):
    """C094.5: a zone permits a class exactly when the class is at most the zone's ceiling."""
    return is_at_most(cls_rank, ceiling_rank(zone_rank, ops), ops)


def less_trusted(first_rank, second_rank, ops=CONCRETE):
    """C094.6: the less trusted of two zones; on equal trust, the first."""
    return ops.If(second_rank > first_rank, second_rank, first_rank)


def takes_over(running_rank, new_rank, ops=CONCRETE):
    """C144.9: whether a source replaces the running result of the fold.

    An undeclared source never does; a declared one replaces an undeclared
    result, and replaces a declared one whose rank is at most its own, so
    on a tie the later source wins (ADR-175 relies on this).
    """
    return ops.And(new_rank > UNDECLARED, running_rank <= new_rank)


def fold_ranks(ranks, listed=None, ops=CONCRETE):
    """C144.9 over ranks: the fold's final rank and the index of the source that set it.

    ``listed`` marks, one flag per rank, which positions are in the list at
    all, so one symbolic term stands for every shorter list; ``None`` lists
    every position. The index is :data:`NO_SOURCE` when no source took over.
    """
    running, winner = UNDECLARED, NO_SOURCE
    for index, rank in enumerate(ranks):
        replaces = takes_over(running, rank, ops)
        if listed is not None:
            replaces = ops.And(listed[index], replaces)
        running = ops.If(replaces, rank, running)
        winner = ops.If(replaces, index, winner)
    return running, winner


def reachable_zone_rank(primary_rank, fallback_ranks, listed=None, ops=CONCRETE):
    """C094.10 over ranks: the least trusted of the primary zone and every listed fallback's zone."""
    zone = primary_rank
    for index, fallback_rank in enumerate(fallback_ranks):
        worse = less_trusted(zone, fallback_rank, ops)
        zone = worse if listed is None else ops.If(listed[index], worse, zone)
    return zone


def decision_kind(declared_rank, zone_rank, enforcing, ops=CONCRETE):
    """C144.10: undeclared, permitted, refused (enforcing) or observed (refused in observe mode)."""
    return ops.If(
        declared_rank == UNDECLARED,
        UNDECLARED_KIND,
        ops.If(
            zone_permits(zone_rank, declared_rank, ops),
            PERMITTED,
            ops.If(enforcing, REFUSED, OBSERVED),
        ),
    )


def is_sent(kind, ops=CONCRETE):
    """C144.11: a send goes out unless the gate refused it while enforcing."""
    return kind != REFUSED


# The same rules on domain values, for readers and callers of the model.


def permits(zone: TrustZone, cls: DataClass) -> bool:
    """C094.5 on a zone and a class."""
    return zone_permits(zone.rank, cls.rank)


def least_trusted(first: TrustZone, second: TrustZone) -> TrustZone:
    """C094.6 on two zones."""
    return second if less_trusted(first.rank, second.rank) != first.rank else first
