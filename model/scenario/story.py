"""Running a scenario as a story: one world and one table of runs threaded through the steps.

Each step reads the world as the steps before it left it; nothing is
mutated, each step yields a new world and run table.
"""

from __future__ import annotations

from attrs import frozen

from ..lifecycle import (ENDED, NO_FORCED_SET, RUNNING, SUSPENDED, Run, fails_on_dequeue, is_dry_run, resolve_on_dequeue, resolve_on_resume,
                         suspended_state)
from ..records import World
from ..versions import Rules
from ..world_changes import KINDS, delete_record, find_record, set_enforcement, update_record
from .errors import ScenarioError
from .read import Scenario, read_scenario
from .read_story import Delete, Dequeue, Queue, Resume, SetEnforcement, Suspend, Update
from .run import FORMAT_VERSION, SendTrace, recorded_drops, run_step, send_result, trace_gate


@frozen
class Story:
    """Where a story stands between two steps."""

    world: World
    runs: dict  # run name -> Run; replaced, never changed in place

    def with_run(self, name: str, run: Run) -> Story:
        return Story(self.world, {**self.runs, name: run})


def live_configuration(world: World, identifier: str):
    """C175.5: a run reloads its configuration when it starts or resumes; a deleted one is gone."""
    configuration = world.configuration_index.get(identifier)
    return None if configuration is None or configuration.deleted else configuration


def _ended(op: str, name: str, why: str) -> dict:
    return {"op": op, "run": name, "ended": why}


def _forced_keys(trace: SendTrace) -> dict:
    return {"forced_snippets": [s.uid for s in trace.forced_snippets], "forced_skills": [s.uid for s in trace.forced_skills]}


def _after_gate(trace: SendTrace, dry_run: bool) -> tuple[str, str]:
    if trace.decision is not None and not trace.decision.sent:
        return ENDED, "refused"
    return (ENDED, "dry run") if dry_run else (RUNNING, "")


def trace_dequeue(world: World, run: Run, step: Dequeue, rules: Rules) -> SendTrace | None:
    """C175.5, C179.1: the run's first send, composed now; None when its configuration is gone."""
    configuration = live_configuration(world, run.configuration)
    if configuration is None:
        return None
    forced = resolve_on_dequeue(world, run, rules)
    dropped = recorded_drops(world, forced) if rules.records_dropped else ()
    return trace_gate(world, configuration, forced, rules, step.serving_model, is_dry_run(run.payload_dry_run), dropped)


def trace_resume(world: World, run: Run, step: Resume, rules: Rules) -> SendTrace | None:
    """C165.3, C179.2: the resumed send re-gated against the live records, zone and switch; nothing is recorded as dropped."""
    configuration = live_configuration(world, run.configuration)
    if configuration is None:
        return None
    return trace_gate(world, configuration, resolve_on_resume(world, run.suspended_state, rules), rules, step.serving_model)


def _gated_step(story: Story, step, op: str, trace_of, rules: Rules) -> tuple[dict, Story]:
    run = story.runs[step.run]
    if run.state == ENDED:
        return _ended(op, step.run, run.ended), story
    trace = trace_of(story.world, run, step, rules)
    if trace is None:
        return _ended(op, step.run, "gone"), story.with_run(step.run, run.moved(ENDED, ended="gone"))
    dry_run = op == "dequeue" and is_dry_run(run.payload_dry_run)
    state, why = _after_gate(trace, dry_run)
    result = {**send_result(trace, rules, run.be_user, run.uid), "op": op, "run": step.run, **_forced_keys(trace)}
    return result, story.with_run(step.run, run.moved(state, ended=why, forced=trace.forced))


def _suspend(story: Story, step: Suspend, rules: Rules, where: str) -> tuple[dict, Story]:
    run = story.runs[step.run]
    if run.state == ENDED:
        return _ended("suspend", step.run, run.ended), story
    state = suspended_state(run.forced, rules) if step.state is None else step.state
    result = {"op": "suspend", "run": step.run, "reason": step.reason, "state": state}
    return result, story.with_run(step.run, run.moved(SUSPENDED, suspended_state=state, forced=NO_FORCED_SET))


def _queue(story: Story, step: Queue, rules: Rules, where: str) -> tuple[dict, Story]:
    run = Run(step.configuration, step.forced_snippets, step.forced_skills, step.dry_run, uid=step.uid, be_user=step.be_user)
    return {"op": "queue", "run": step.run}, story.with_run(step.run, run)


def _dequeue(story: Story, step: Dequeue, rules: Rules, where: str) -> tuple[dict, Story]:
    """C175.5: the run's composition; a run whose configuration is live but whose row fails to be read ends ``failed``."""
    run = story.runs[step.run]
    if run.state != ENDED and live_configuration(story.world, run.configuration) is not None and fails_on_dequeue(run, rules):
        return _ended("dequeue", step.run, "failed"), story.with_run(step.run, run.moved(ENDED, ended="failed"))
    return _gated_step(story, step, "dequeue", trace_dequeue, rules)


def _resume(story: Story, step: Resume, rules: Rules, where: str) -> tuple[dict, Story]:
    result, after = _gated_step(story, step, "resume", trace_resume, rules)
    return {**result, "with_input": step.with_input}, after


def _stored(story: Story, step: Update | Delete, where: str):
    """The record an update or delete changes; one an earlier step removed is refused."""
    if find_record(story.world, step.kind, step.key) is None:
        raise ScenarioError(f"{where}.{KINDS[step.kind][1]}", f"{step.kind} {step.key!r} was removed by an earlier step")


def _update(story: Story, step: Update, rules: Rules, where: str) -> tuple[dict, Story]:
    _stored(story, step, where)
    return {"op": "update", "kind": step.kind}, Story(update_record(story.world, step.kind, step.key, step.changes), story.runs)


def _delete(story: Story, step: Delete, rules: Rules, where: str) -> tuple[dict, Story]:
    _stored(story, step, where)
    return {"op": "delete", "kind": step.kind}, Story(delete_record(story.world, step.kind, step.key), story.runs)


def _set_enforcement(story: Story, step: SetEnforcement, rules: Rules, where: str) -> tuple[dict, Story]:
    return {"op": "set_enforcement"}, Story(set_enforcement(story.world, step.value), story.runs)


def _single_send(story: Story, step, rules: Rules, where: str) -> tuple[dict, Story]:
    if live_configuration(story.world, step.configuration) is None:
        raise ScenarioError(f"{where}.configuration", f"configuration {step.configuration!r} was deleted by an earlier step")
    return run_step(story.world, step, rules), story


#: Each story step's kind and how it is taken; a send, readout or classify is a single-send step.
_STORY_STEPS = {
    Queue: _queue, Dequeue: _dequeue, Suspend: _suspend, Resume: _resume,
    Update: _update, Delete: _delete, SetEnforcement: _set_enforcement,
}


def story_step(story: Story, step, rules: Rules, where: str) -> tuple[dict, Story]:
    """S001.8: one step of the story: its result, with the keys its kind carries, and the story after it."""
    return _STORY_STEPS.get(type(step), _single_send)(story, step, rules, where)


def run_scenario(scenario: Scenario) -> dict:
    """S001.2: the outcome document of a scenario, one result per step in step order.

    Anything but what ``read_scenario`` returns is read by it first, so a
    document handed over unread is refused as it would refuse it (S001.1).
    """
    if not isinstance(scenario, Scenario):
        return _run_gateway_or_unread(scenario)
    story = Story(scenario.world, {})
    results = []
    for position, step in enumerate(scenario.steps):
        result, story = story_step(story, step, scenario.rules, f"$.steps[{position}]")
        results.append(result)
    return {"gateproof": FORMAT_VERSION, "scenario": scenario.id, "rules": scenario.rules.name, "results": results}


def _run_gateway_or_unread(scenario) -> dict:
    """A gateway scenario through its runner; anything else is read first (a trust-ceiling one is then run as such)."""
    from ..gateway.scenario import GatewayScenario, run_gateway_scenario  # the gateway runner builds on this package

    if isinstance(scenario, GatewayScenario):
        return run_gateway_scenario(scenario)
    return run_scenario(read_scenario(scenario))
