"""The stored records the rules read: providers, models, configurations, snippets, skills.

Every field holds the value as stored (a raw zone or class string, a raw
fallback list), because how a raw value is read is itself a rule. A
:class:`World` is one snapshot of storage plus the enforcement switch.
"""

from __future__ import annotations

from functools import cache
from operator import attrgetter

from attrs import fields, frozen

from .enforcement import MISSING
from .tables import Table, lookup_of, table_field


@frozen
class Provider:
    identifier: str
    zone: object = None  # the stored trust-zone value, read by parse_zone


@frozen
class LlmModel:
    identifier: str
    provider: str | None = None


@frozen
class Configuration:
    identifier: str
    model: str | None = None
    selection_mode: str = "fixed"  # "fixed" or "criteria" (ADR-149)
    fallbacks: tuple = ()  # raw chain entries, normalised by the rules
    system_prompt: str = ""
    system_prompt_class: object = None
    snippet_tags: str = ""
    skills: tuple[int, ...] = ()  # uids of attached skills, in storage order
    active: bool = True
    deleted: bool = False


@frozen
class Snippet:
    uid: int
    identifier: str = ""
    name: str = ""
    text: str = ""
    data_class: object = None
    tags: str = ""
    active: bool = True
    hidden: bool = False
    deleted: bool = False
    sorting: int = 0

    @property
    def switched_on(self) -> bool:
        return self.active


@frozen
class Skill:
    uid: int
    name: str = ""
    text: str = ""
    data_class: object = None
    enabled: bool = True
    hidden: bool = False
    deleted: bool = False

    @property
    def switched_on(self) -> bool:
        return self.enabled


@cache
def _layout(cls: type) -> tuple:
    """How to copy a record of ``cls``: a reader of its field values in order, how many there are, and each field's position.

    A model record derives no field, so each is passed. ``attrgetter`` of one
    name gives its value, not a tuple of it: a second read of the first field
    keeps the shape for a record of one field, and is cut off.
    """
    names = tuple(f.name for f in fields(cls))
    return attrgetter(*names, names[0]), len(names), {name: position for position, name in enumerate(names)}


def replaced(record, **changes):
    """``record`` with ``changes``, as ``attrs.evolve`` makes it, each field passed by position.

    Each story step gives a new world, run and record, so the copy is made
    often enough for ``evolve``'s matching of every field by name to show.
    A name that is no field of the record is a KeyError (the readers pass only fields of it).
    """
    cls = type(record)
    read, count, positions = _layout(cls)
    values = list(read(record)[:count])
    for name, value in changes.items():
        values[positions[name]] = value
    return cls(*values)


@frozen
class World:
    """One snapshot of storage and the enforcement switch's raw value.

    Each table holds its lookup by key, built once with the world a reader
    builds, because every send reads them, and shared by every world an
    update or delete changes from it (``gateproof.model.tables``).
    """

    #: C144.19: how the installation's database compares and orders strings (``CASE_SENSITIVE`` or ``CASE_INSENSITIVE``).
    collation: str
    providers: Table = table_field("identifier")
    models: Table = table_field("identifier")
    configurations: Table = table_field("identifier")
    snippets: Table = table_field("uid")
    skills: Table = table_field("uid")
    enforcement: object = MISSING  # the raw switch value, or MISSING when never stored

    provider_index = lookup_of("providers")
    model_index = lookup_of("models")
    configuration_index = lookup_of("configurations")
    snippet_index = lookup_of("snippets")
    skill_index = lookup_of("skills")

    def with_changes(self, **changes) -> World:
        return replaced(self, **changes)
