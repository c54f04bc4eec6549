"""The sources a send injects, in composition order, each with its name and declared class (ADR-144/155/164)."""

from __future__ import annotations

from typing import Sequence

from attrs import frozen

from .ladder import DataClass, parse_data_class
from .lookups import lookup_active_by_tag
from .records import Configuration, Skill, Snippet, World
from .text import normalise_token, trim


@frozen
class Source:
    """One injected source: its name, its declared class (None: undeclared) and where it came from."""

    name: str
    data_class: DataClass | None
    origin: str  # "system prompt", "snippet", "skill", "forced snippet", "forced skill"


def declared_class_of(record: Snippet | Skill) -> DataClass | None:
    """C144.1: a snippet's or skill's declared class is its stored class read by exact match, with no default."""
    return parse_data_class(record.data_class)


def snippet_name(snippet: Snippet) -> str:
    """C144.8: ``snippet "<identifier>"`` with the identifier trimmed, or the name as stored when that is empty."""
    identifier = trim(snippet.identifier)
    return f'snippet "{identifier if identifier else snippet.name}"'


def skill_name(skill: Skill) -> str:
    """C144.8: ``skill "<display name>"``, the name as stored, never an identifier."""
    return f'skill "{skill.name}"'


def system_prompt_source(configuration: Configuration) -> Source | None:
    """C155.1, C155.2: the system prompt is listed only when declared, and an exactly empty prompt declares nothing.

    Only ``""`` counts as empty: a prompt of whitespace is text. The
    configuration's own prompt is what is classified, even when a run
    overrides it on the wire (C155.3).
    """
    if configuration.system_prompt == "":
        return None
    declared = parse_data_class(configuration.system_prompt_class)
    if declared is None:
        return None
    return Source(f'system prompt of "{configuration.identifier}"', declared, "system prompt")


def snippet_tag_list(configuration: Configuration) -> tuple[str, ...]:
    """C144.4: the configuration's tags, split on commas, trimmed, lowercased, de-duplicated in written order."""
    tags: dict[str, None] = {}
    for token in configuration.snippet_tags.split(","):
        tag = normalise_token(token)
        if tag:
            tags.setdefault(tag, None)
    return tuple(tags)


def selected_snippets(world: World, configuration: Configuration) -> tuple[Snippet, ...]:
    """C144.5: per tag in order, the active tagged snippets, hidden ones left out, each record kept once.

    A snippet is keyed by its trimmed, lowercased identifier, or by its uid
    when it has none. A selected snippet with empty text still counts (C144.6).
    """
    seen: set = set()
    selected = []
    for tag in snippet_tag_list(configuration):
        for snippet in lookup_active_by_tag(world.snippets, tag, world.collation):
            if snippet.hidden:
                continue
            key = normalise_token(snippet.identifier) or snippet.uid
            if key not in seen:
                seen.add(key)
                selected.append(snippet)
    return tuple(selected)


def attached_skills(world: World, configuration: Configuration, once: bool) -> tuple[Skill, ...]:
    """C144.7: every undeleted skill the configuration's relation holds, in storage order, with no enabled or hidden filter.

    ``once`` (the ``nr-llm`` profile): a skill related twice is listed at its
    first position only, as the code's ObjectStorage holds an object once.
    """
    index = world.skill_index
    uids = dict.fromkeys(configuration.skills) if once else configuration.skills
    return tuple(index[uid] for uid in uids if uid in index and not index[uid].deleted)


def configuration_sources(world: World, configuration: Configuration, skills_once: bool) -> tuple[Source, ...]:
    """C144.3: system prompt, tag-selected snippets, attached skills: what the configuration alone carries."""
    prompt = system_prompt_source(configuration)
    listed = [] if prompt is None else [prompt]
    listed += [Source(snippet_name(s), declared_class_of(s), "snippet") for s in selected_snippets(world, configuration)]
    listed += [Source(skill_name(s), declared_class_of(s), "skill") for s in attached_skills(world, configuration, skills_once)]
    return tuple(listed)


def list_sources(
    world: World, configuration: Configuration, forced_snippets: Sequence[Snippet], forced_skills: Sequence[Skill], skills_once: bool,
) -> tuple[Source, ...]:
    """C144.3, C164.1, C164.3: the configuration's sources, then the forced snippets, then the forced skills.

    With an empty forced set this is exactly :func:`configuration_sources`,
    so a run that forces nothing gets the configuration-only answer (C164.2).
    A forced source is listed only when no source before it has the same
    name (exact string), so a forced record the configuration already
    carries appears once, with the configuration copy's position and class.
    Configuration entries are never de-duplicated among themselves.
    """
    listed = list(configuration_sources(world, configuration, skills_once))
    names = {source.name for source in listed}
    forced = [Source(snippet_name(s), declared_class_of(s), "forced snippet") for s in forced_snippets]
    forced += [Source(skill_name(s), declared_class_of(s), "forced skill") for s in forced_skills]
    for source in forced:
        if source.name not in names:
            names.add(source.name)
            listed.append(source)
    return tuple(listed)
