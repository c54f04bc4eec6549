"""What operators do between a run's steps: update or delete a record, flip the switch.

Every change gives a new :class:`World`; a run reads whichever world is live
when it next resolves its forced set or its zone.
"""

from __future__ import annotations

from .enforcement import MISSING
from .records import World, replaced

#: Record kind -> (the World field holding it, the key naming one record).
KINDS = {
    "snippet": ("snippets", "uid"),
    "skill": ("skills", "uid"),
    "provider": ("providers", "identifier"),
    "configuration": ("configurations", "identifier"),
}


def find_record(world: World, kind: str, key):
    """The record of ``kind`` whose key is ``key``, or None."""
    return getattr(world, KINDS[kind][0]).lookup.get(key)


def update_record(world: World, kind: str, key, changes: dict) -> World:
    """S002.1: one record with some stored fields changed; everything else stays as it was.

    The table copies the one path to the record (``gateproof.model.tables``),
    so an update costs the same in a world of ten records or ten thousand.
    """
    field = KINDS[kind][0]
    return world.with_changes(**{field: getattr(world, field).replaced(replaced(find_record(world, kind, key), **changes))})


def delete_record(world: World, kind: str, key) -> World:
    """S002.2: a deleted snippet, skill or configuration is flagged; a deleted provider is removed.

    Every lookup already skips a deleted row; a provider has no flag, and a
    model pointing at a removed one reads as having none (externalGlobal).
    """
    if kind == "provider":
        return world.with_changes(providers=world.providers.without(key))
    return update_record(world, kind, key, {"deleted": True})


def set_enforcement(world: World, value=MISSING) -> World:
    """S002.3: the switch takes a new raw value; MISSING removes it, which enforces (C115.1)."""
    return world.with_changes(enforcement=value)
