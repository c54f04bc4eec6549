"""The fold: the strictest declared class of a source list, with the source that set it (ADR-144, ADR-175)."""

from __future__ import annotations

from typing import Iterable

from attrs import frozen

from .ladder import DataClass
from .lattice import UNDECLARED, takes_over
from .sources import Source


@frozen
class Classification:
    """The running or final result of the fold; the empty value is undeclared."""

    data_class: DataClass | None = None
    source: str = ""

    @property
    def rank(self) -> int:
        return UNDECLARED if self.data_class is None else self.data_class.rank


UNDECLARED_CLASSIFICATION = Classification()


def with_stricter(running: Classification, source: Source) -> Classification:
    """C144.9, C164.4: the source replaces the running result when :func:`takes_over` says so; ties go to the later source.

    The result carries the name of the source that set the class, so a
    refusal names whichever source, configured or forced, is the reason.
    """
    new_rank = UNDECLARED if source.data_class is None else source.data_class.rank
    if takes_over(running.rank, new_rank):
        return Classification(source.data_class, source.name)
    return running


def fold(sources: Iterable[Source]) -> Classification:
    """C144.9: start undeclared and fold every source in list order."""
    running = UNDECLARED_CLASSIFICATION
    for source in sources:
        running = with_stricter(running, source)
    return running
