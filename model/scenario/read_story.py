"""Reading the story steps: a run's queue, dequeue, suspend and resume, and the operators' changes.

What can be checked before running is checked here, with the field named: a
run must be queued before it is named and must be in the state the step
needs; an update must name a record the world holds. A run that ends on a
rule outcome (refused, gone) is the runner's business, not an input error.
"""

from __future__ import annotations

from attrs import fields as attrs_fields
from attrs import frozen

from ..enforcement import MISSING
from ..lifecycle import QUEUED, RUNNING, SUSPENDED
from ..records import Configuration, Provider, Skill, Snippet, World
from ..world_changes import KINDS, find_record
from .errors import ScenarioError
from .schema import field_problem


@frozen
class Queue:
    run: str
    configuration: str
    forced_snippets: object = ()  # raw, as the stored payload holds them
    forced_skills: object = ()
    dry_run: object = False
    uid: int = 0  # the run row's uid, which a refusal's audit record names
    be_user: object = 0  # the run row's user, as stored


@frozen
class Dequeue:
    run: str
    serving_model: str | None = None


@frozen
class Suspend:
    run: str
    reason: str = "approval"
    state: object = None  # a raw stored state replacing what the suspend would write


@frozen
class Resume:
    run: str
    with_input: bool = False
    serving_model: str | None = None


@frozen
class Update:
    kind: str
    key: object
    changes: dict


@frozen
class Delete:
    kind: str
    key: object


@frozen
class SetEnforcement:
    value: object = MISSING


RECORD_CLASSES = {"snippet": Snippet, "skill": Skill, "provider": Provider, "configuration": Configuration}
#: The state a run must be in for each step that names it, and the state the step leaves it in.
RUN_MOVES = {"dequeue": (QUEUED, RUNNING), "suspend": (RUNNING, SUSPENDED), "resume": (SUSPENDED, RUNNING)}


def _changes(kind: str, raw: dict, where: str) -> dict:
    key = KINDS[kind][1]
    allowed = {f.name for f in attrs_fields(RECORD_CLASSES[kind])} - {key}
    changes = {}
    for name, value in raw.items():
        if name not in allowed:
            raise ScenarioError(f"{where}.set.{name}", f"not a field of a {kind} that can change")
        problem = field_problem(kind, name, value)
        if problem is not None:
            raise ScenarioError(f"{where}.set.{name}", problem)
        changes[name] = tuple(value) if isinstance(value, list) else value
    return changes


def _record_key(fields: dict, where: str, world: World):
    kind = fields["kind"]
    key_name = KINDS[kind][1]
    other = "identifier" if key_name == "uid" else "uid"
    if key_name not in fields or other in fields:
        raise ScenarioError(f"{where}.{key_name if key_name not in fields else other}", f"a {kind} is named by its {key_name} alone")
    key = fields[key_name]
    if find_record(world, kind, key) is None:
        raise ScenarioError(f"{where}.{key_name}", f"no {kind} {key!r} in the world")
    return key


def read_story_step(fields: dict, where: str, world: World, runs: dict):
    """S001.1, S001.3, S001.7: one story step as a model value, absent fields at their defaults, a changed record named by its one key; ``runs`` maps each run named so far to its expected state."""
    op = fields["op"]
    if op == "set_enforcement":
        return SetEnforcement(MISSING if fields.get("unset") else fields.get("value"))
    if op in ("update", "delete"):
        key = _record_key(fields, where, world)
        if op == "delete":
            return Delete(fields["kind"], key)
        return Update(fields["kind"], key, _changes(fields["kind"], fields["set"], where))
    run = fields["run"]
    if op == "queue":
        if run in runs:
            raise ScenarioError(f"{where}.run", f"run {run!r} is already queued")
        configuration = world.configuration_index.get(fields["configuration"])
        if configuration is None or configuration.deleted:
            raise ScenarioError(f"{where}.configuration", f"no configuration {fields['configuration']!r} in the world")
        runs[run] = QUEUED
        values = {k: v for k, v in fields.items() if k != "op"}
        return Queue(**values)
    if run not in runs:
        raise ScenarioError(f"{where}.run", f"no run {run!r} was queued before this step")
    needed, after = RUN_MOVES[op]
    if runs[run] != needed:
        raise ScenarioError(f"{where}.run", f"run {run!r} is {runs[run]}, a {op} needs it {needed}")
    runs[run] = after
    serving = fields.get("serving_model")
    if serving is not None and serving not in world.model_index:
        raise ScenarioError(f"{where}.serving_model", f"no model {serving!r} in the world")
    values = {k: v for k, v in fields.items() if k != "op"}
    return {"dequeue": Dequeue, "suspend": Suspend, "resume": Resume}[op](**values)
