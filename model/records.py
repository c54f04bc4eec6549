"""The stored records the rules read: providers, models, configurations, snippets, skills.

Every field holds the value as stored (a raw zone or class string, a raw
fallback list), because how a raw value is read is itself a rule. A
:class:`World` is one snapshot of storage plus the enforcement switch.
"""

from __future__ import annotations

from functools import cache

from attrs import Factory, field, fields, frozen

from .enforcement import MISSING


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
    """How to copy a record of ``cls``: its init fields, in order, and each one's position."""
    names = tuple(f.name for f in fields(cls) if f.init)
    return names, {name: position for position, name in enumerate(names)}


def replaced(record, **changes):
    """``record`` with ``changes``, as ``attrs.evolve`` makes it, each field passed by position.

    Each story step gives a new world, run and record, so the copy is made
    often enough for ``evolve``'s matching of every field by name to show.
    A name that is no field of the record is a KeyError (the readers pass only fields of it).
    """
    cls = type(record)
    names, positions = _layout(cls)
    values = [getattr(record, name) for name in names]
    for name, value in changes.items():
        values[positions[name]] = value
    return cls(*values)


def lookup_by(table: str, key: str):
    """A derived field of a world: its ``table``'s records by ``key``, built with the world, no part of its equality."""
    build = Factory(lambda world: {getattr(record, key): record for record in getattr(world, table)}, takes_self=True)
    return field(init=False, eq=False, repr=False, default=build)


@frozen
class World:
    """One snapshot of storage and the enforcement switch's raw value.

    The lookups by key are built once, with the world, because every send
    reads them; they are derived, so they take no part in equality.
    """

    providers: tuple[Provider, ...] = ()
    models: tuple[LlmModel, ...] = ()
    configurations: tuple[Configuration, ...] = ()
    snippets: tuple[Snippet, ...] = ()
    skills: tuple[Skill, ...] = ()
    enforcement: object = MISSING  # the raw switch value, or MISSING when never stored
    #: C144.19: how the installation's database compares and orders strings (``CASE_SENSITIVE`` or ``CASE_INSENSITIVE``).
    collation: str = "case-sensitive"
    provider_index: dict[str, Provider] = lookup_by("providers", "identifier")
    model_index: dict[str, LlmModel] = lookup_by("models", "identifier")
    configuration_index: dict[str, Configuration] = lookup_by("configurations", "identifier")
    snippet_index: dict[int, Snippet] = lookup_by("snippets", "uid")
    skill_index: dict[int, Skill] = lookup_by("skills", "uid")

    def with_changes(self, **changes) -> World:
        return replaced(self, **changes)
