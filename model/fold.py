"""The fold: the strictest declared class of a source list, with the source that set it (ADR-144, ADR-175)."""

from __future__ import annotations

from typing import Iterable

from attrs import frozen

from .ladder import DataClass
from .lattice import NO_SOURCE, UNDECLARED, fold_ranks, rank_of
from .sources import Source


@frozen
class Classification:
    """The running or final result of the fold; the empty value is undeclared."""

    data_class: DataClass | None = None
    source: str = ""


UNDECLARED_CLASSIFICATION = Classification()


#: Each class at its rank, so the fold's final rank reads back as the class it stands for.
CLASS_OF_RANK = tuple(DataClass)


def fold(sources: Iterable[Source]) -> Classification:
    """C144.9, C164.4: the strictest declared class of the sources in list order, named by the source that set it.

    The fold itself is :func:`lattice.fold_ranks`, the very definition the
    proofs reason about: start undeclared, and let each source whose rank
    :func:`lattice.takes_over` the running one replace it, so a tie goes to
    the later source. Its final rank is the class; the position it reports
    names the source, configured or forced, that a refusal gives as the reason.
    """
    sources = tuple(sources)
    rank, winner = fold_ranks(tuple(rank_of(source.data_class) for source in sources))
    if winner == NO_SOURCE:
        return UNDECLARED_CLASSIFICATION
    return Classification(None if rank == UNDECLARED else CLASS_OF_RANK[rank], sources[winner].name)

