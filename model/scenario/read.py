"""Reading a scenario document into model values, refusing anything the rules cannot run."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from ..enforcement import MISSING
from ..records import Configuration, LlmModel, Provider, Skill, Snippet, World
from ..versions import DEFAULT_VERSION, Rules, rules_named
from .errors import ScenarioError
from .read_story import read_story_step
from .schema import validate


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


def _record(cls, fields: dict):
    # The schema admits 7.0 as an integer; the model keys records by int.
    if type(fields["uid"]) is not int or type(fields.get("sorting", 0)) is not int:
        fields = {k: (int(v) if k in ("uid", "sorting") else v) for k, v in fields.items()}
    return cls(**fields)


def _configuration(fields: dict) -> Configuration:
    values = dict(fields)
    values["fallbacks"] = tuple(values.get("fallbacks", ()))
    values["skills"] = _ints(values.get("skills", ()))
    return Configuration(**values)


def _duplicate(records: list, key: str, where: str) -> ScenarioError:
    seen: set = set()
    for position, record in enumerate(records):
        value = record[key]
        if value in seen:
            return ScenarioError(f"$.world.{where}[{position}].{key}", f"duplicate {key} {value!r}")
        seen.add(value)
    raise AssertionError(f"no duplicate {key} in {where}")


#: Each table, the key its records are found by, and the world's lookup by that key.
_KEYS = (
    ("providers", "identifier", "provider_index"),
    ("models", "identifier", "model_index"),
    ("configurations", "identifier", "configuration_index"),
    ("snippets", "uid", "snippet_index"),
    ("skills", "uid", "skill_index"),
)


def read_world(fields: dict) -> World:
    world = World(
        providers=tuple(Provider(**p) for p in fields.get("providers", ())),
        models=tuple(LlmModel(**m) for m in fields.get("models", ())),
        configurations=tuple(_configuration(c) for c in fields.get("configurations", ())),
        snippets=tuple(_record(Snippet, s) for s in fields.get("snippets", ())),
        skills=tuple(_record(Skill, s) for s in fields.get("skills", ())),
        enforcement=fields.get("enforcement", MISSING),
    )
    # A lookup holds fewer records than its table exactly when two share a key.
    for where, key, index in _KEYS:
        if len(getattr(world, index)) != len(getattr(world, where)):
            raise _duplicate(fields[where], key, where)
    return world


def _step(fields: dict, position: int, world: World, runs: dict):
    where = f"$.steps[{position}]"
    if fields["op"] not in ("send", "readout", "classify"):
        return read_story_step(fields, where, world, runs)
    values = {k: v for k, v in fields.items() if k != "op"}
    configuration = world.configuration_index.get(values["configuration"])
    if configuration is None:
        raise ScenarioError(f"{where}.configuration", f"no configuration {values['configuration']!r} in the world")
    if configuration.deleted:
        raise ScenarioError(f"{where}.configuration", f"configuration {values['configuration']!r} is deleted")
    for key in ("forced_snippets", "forced_skills"):
        if key in values:
            values[key] = tuple(values[key])
    op = fields["op"]
    if op == "send":
        serving = values.get("serving_model")
        if serving is not None and serving not in world.model_index:
            raise ScenarioError(f"{where}.serving_model", f"no model {serving!r} in the world")
        return Send(**values)
    return Readout(**values) if op == "readout" else Classify(**values)


def read_scenario(document: Any) -> Scenario:
    """S001.1: a scenario document as model values; a :class:`ScenarioError` names the first wrong field."""
    validate("scenario", document)
    if document.get("kind", "ceiling") == "gateway":
        from ..gateway.scenario import read_gateway_scenario  # the gateway reader builds on this package

        return read_gateway_scenario(document)
    world = read_world(document["world"])
    runs: dict = {}
    steps = tuple(_step(step, i, world, runs) for i, step in enumerate(document["steps"]))
    return Scenario(
        id=document["id"],
        rules=rules_named(document.get("rules", DEFAULT_VERSION)),
        world=world,
        steps=steps,
        description=document.get("description", ""),
    )
