"""Reading a scenario document into model values, refusing anything the rules cannot run."""

from __future__ import annotations

from typing import Any

from attrs import NOTHING, Factory, frozen
from attrs import fields as attrs_fields
import orjson

from ..enforcement import MISSING
from ..lookups import CASE_SENSITIVE
from ..records import Configuration, LlmModel, Provider, Skill, Snippet, World
from ..versions import Rules, default_version, rules_named
from .document import check_json_value, check_repeated_keys
from .errors import ScenarioError
from .read_story import read_story_step
from .schema import check_kind, validate


@frozen
class Send:
    """A playground send (C164.6): forced uids as the request body carries them."""

    configuration: str
    forced_snippets: tuple = ()
    forced_skills: tuple = ()
    dry_run: bool = False
    serving_model: str | None = None
    input: str = ""
    system_prompt_override: str = ""
    be_user: object = 0
    run_uid: int = 0


@frozen
class Readout:
    """The classification readout of a configuration with a forced set."""

    configuration: str
    forced_snippets: tuple = ()
    forced_skills: tuple = ()


@frozen
class Classify:
    """What a configuration alone carries."""

    configuration: str


@frozen
class Scenario:
    id: str
    rules: Rules
    world: World
    steps: tuple
    description: str = ""


def _ints(values) -> tuple[int, ...]:
    return tuple(int(v) for v in values)


def record_reader(cls, **conversions):
    """A reader of ``cls`` records from schema-checked objects, each field converted as ``conversions`` say.

    The values are handed over by position, in the order of the record's
    fields: the schema has already refused unknown and missing required
    keys, and positions spare the constructor matching each key by name.
    A key that is no field of the record (a step's ``op``) is not read; a
    field the object leaves out gets the record's default. The reader is
    one expression compiled from the record's fields, as attrs compiles
    the constructor itself, so no loop runs per record read.
    """
    fields = attrs_fields(cls)
    namespace: dict = {"cls": cls}
    arguments = []
    for position, field in enumerate(fields):
        # A derived or factory-made field has no value to hand over.
        if not field.init or isinstance(field.default, Factory):
            raise TypeError(f"{cls.__name__}.{field.name} cannot be read by position")
        namespace[f"default{position}"] = None if field.default is NOTHING else field.default
        value = f"get({field.name!r}, default{position})"
        if field.name in conversions:
            namespace[f"convert{position}"] = conversions[field.name]
            value = f"convert{position}({value})"
        arguments.append(value)
    exec(f"def read(raw):\n    get = raw.get\n    return cls({', '.join(arguments)})\n", namespace)
    return namespace["read"]


# The schema admits 7.0 as an integer; the model keys and sorts records by int.
_read_provider = record_reader(Provider)
_read_model = record_reader(LlmModel)
_read_configuration = record_reader(Configuration, fallbacks=tuple, skills=_ints)
_read_snippet = record_reader(Snippet, uid=int, sorting=int)
_read_skill = record_reader(Skill, uid=int)


def _duplicate(records: list, key: str, where: str) -> ScenarioError:
    seen: set = set()
    for position, record in enumerate(records):
        value = record[key]
        if value in seen:
            return ScenarioError(f"$.world.{where}[{position}].{key}", f"duplicate {key} {value!r}")
        seen.add(value)
    raise AssertionError(f"no duplicate {key} in {where}")


#: The tables a trust-ceiling world reads, each found by the key its field declares.
_TABLES = ("providers", "models", "configurations", "snippets", "skills")


def read_world(fields: dict) -> World:
    """S001.7: the stored records, each field it leaves out at its default; two records under one key are refused (S001.1)."""
    world = World(
        providers=tuple(map(_read_provider, fields.get("providers", ()))),
        models=tuple(map(_read_model, fields.get("models", ()))),
        configurations=tuple(map(_read_configuration, fields.get("configurations", ()))),
        snippets=tuple(map(_read_snippet, fields.get("snippets", ()))),
        skills=tuple(map(_read_skill, fields.get("skills", ()))),
        enforcement=fields.get("enforcement", MISSING),
        collation=fields.get("collation", CASE_SENSITIVE),
    )
    # A lookup holds fewer keys than the document's table holds records exactly when two share a key.
    for where in _TABLES:
        lookup = getattr(world, where).lookup
        if len(lookup.positions) != len(fields.get(where, ())):
            raise _duplicate(fields[where], lookup.key, where)
    return world


#: The single-send steps; the story steps are read by ``read_story_step``.
_STEP_READERS = {
    "send": record_reader(Send, forced_snippets=tuple, forced_skills=tuple),
    "readout": record_reader(Readout, forced_snippets=tuple, forced_skills=tuple),
    "classify": record_reader(Classify),
}


def _step(fields: dict, position: int, world: World, runs: dict):
    where = f"$.steps[{position}]"
    read = _STEP_READERS.get(fields["op"])
    if read is None:
        return read_story_step(fields, where, world, runs)
    name = fields["configuration"]
    configuration = world.configuration_index.get(name)
    if configuration is None:
        raise ScenarioError(f"{where}.configuration", f"no configuration {name!r} in the world")
    if configuration.deleted:
        raise ScenarioError(f"{where}.configuration", f"configuration {name!r} is deleted")
    serving = fields.get("serving_model")
    if serving is not None and serving not in world.model_index:
        raise ScenarioError(f"{where}.serving_model", f"no model {serving!r} in the world")
    return read(fields)


def read_scenario(document: Any) -> Scenario:
    """S001.1, S001.7, S001.12: a scenario document as model values, ``kind`` and ``rules`` at their defaults; a :class:`ScenarioError` names the first wrong field."""
    check_json_value(document)
    return read_valid_scenario(validated(document))


def read_parsed_scenario(document: Any) -> Scenario:
    """S001.1 and S001.7 for a document a JSON reader has just made from text that S001.4 and S001.5 passed."""
    return read_valid_scenario(valid_parsed_document(document))


def valid_parsed_document(document: Any) -> dict:
    """S001.1 and S001.6 for a document a JSON reader has just made from text that S001.4 and S001.5 passed: the document, unread.

    Such a document holds only JSON values, so of S001.12 only S001.6 is
    left to judge, and only when the reader kept a key written twice (a
    ``RepeatedKeys``) or an integer beyond 64 bits: orjson writes every other
    document, and that is checked at C speed before any walk.
    """
    try:
        orjson.dumps(document, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        check_repeated_keys(document)
    return validated(document)


def validated(document: Any) -> dict:
    """S001.1: the document, once its ``kind`` is known and the schema has passed it; a :class:`ScenarioError` naming the first wrong field otherwise."""
    check_kind(document)
    validate("scenario", document)
    return document


def read_valid_scenario(document: dict) -> Scenario:
    """S001.1 for a document the schema has passed (:func:`read_scenario` checks it first): what the schema cannot judge."""
    if document.get("kind", "ceiling") == "gateway":
        from ..gateway.scenario import read_gateway_scenario  # the gateway reader builds on this package

        return read_gateway_scenario(document)
    return read_on_world(document, read_world(document["world"]))


def read_on_world(document: dict, world: World) -> Scenario:
    """A schema-checked trust-ceiling document read with ``world``, what :func:`read_world` reads from its world.

    Its steps are read against that world; a reader of many documents on one world reads the world once.
    """
    runs: dict = {}
    steps = tuple(_step(step, i, world, runs) for i, step in enumerate(document["steps"]))
    return Scenario(
        id=document["id"],
        rules=rules_named(document["rules"] if "rules" in document else default_version()),
        world=world,
        steps=steps,
        description=document.get("description", ""),
    )
