"""Recording the forced sources a run asked for and did not get (ADR-179).

A composition path resolves forced uids enabled-only, so a source switched
off or deleted since the request silently falls out. The record says which
ones did, and why, without changing what entered the run.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from attrs import frozen

from .lookups import lookup_existing
from .records import World

DEACTIVATED, GONE = "deactivated", "gone"


@frozen
class DroppedSource:
    kind: str  # "skill" or "snippet"
    uid: int
    reason: str  # DEACTIVATED or GONE

    def label(self) -> str:
        """C179.1: the form the run trace shows, ``<kind>#<uid> <reason>``."""
        return f"{self.kind}#{self.uid} {self.reason}"


def missing_uids(index: Mapping, kind: str, requested: Sequence[int], arrived: Sequence) -> tuple[DroppedSource, ...]:
    """C179.1: each requested uid that did not arrive, in request order, once per occurrence.

    The reason is ``deactivated`` when the record still exists and ``gone``
    when it does not, which covers a deleted uid and one that never existed.
    """
    arrived_uids = {record.uid for record in arrived}
    absent = [uid for uid in requested if uid not in arrived_uids]
    existing = {record.uid for record in lookup_existing(index, absent)}
    return tuple(DroppedSource(kind, uid, DEACTIVATED if uid in existing else GONE) for uid in absent)


def dropped_sources(world: World, snippet_uids, snippets, skill_uids, skills) -> tuple[DroppedSource, ...]:
    """C179.1: the dropped skills, then the dropped snippets; never a reason to refuse (C179.2)."""
    return missing_uids(world.skill_index, "skill", skill_uids, skills) + missing_uids(world.snippet_index, "snippet", snippet_uids, snippets)
