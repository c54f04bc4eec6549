"""The stored records the rules read: providers, models, configurations, snippets, skills.

Every field holds the value as stored (a raw zone or class string, a raw
fallback list), because how a raw value is read is itself a rule. A
:class:`World` is one snapshot of storage plus the enforcement switch.
"""

from __future__ import annotations

from functools import cached_property

from attrs import evolve, frozen

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


def _by_key(records, key):
    return {getattr(record, key): record for record in records}


@frozen
class World:
    """One snapshot of storage and the enforcement switch's raw value."""

    providers: tuple[Provider, ...] = ()
    models: tuple[LlmModel, ...] = ()
    configurations: tuple[Configuration, ...] = ()
    snippets: tuple[Snippet, ...] = ()
    skills: tuple[Skill, ...] = ()
    enforcement: object = MISSING  # the raw switch value, or MISSING when never stored

    @cached_property
    def provider_index(self) -> dict[str, Provider]:
        return _by_key(self.providers, "identifier")

    @cached_property
    def model_index(self) -> dict[str, LlmModel]:
        return _by_key(self.models, "identifier")

    @cached_property
    def configuration_index(self) -> dict[str, Configuration]:
        return _by_key(self.configurations, "identifier")

    @cached_property
    def snippet_index(self) -> dict[int, Snippet]:
        return _by_key(self.snippets, "uid")

    @cached_property
    def skill_index(self) -> dict[int, Skill]:
        return _by_key(self.skills, "uid")

    def with_changes(self, **changes) -> World:
        return evolve(self, **changes)
