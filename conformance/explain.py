"""An explained trace of every decision, for a person learning the rules.

It reads the same :class:`SendTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

from gateproof.model.scenario.read import Classify, Readout, Scenario, Send
from gateproof.model.scenario.run import resolve_forced_set, run_step, send_result, trace_send
from gateproof.model.scenario.story import Story, story_step
from gateproof.model.sources import configuration_sources, list_sources
from gateproof.model.uids import read_request_uids

from .explain_gateway import explain_gateway_scenario
from .explain_gate import dropped_lines, fold_lines, gate_lines, sources_table
from .explain_lifecycle import explain_story_step


def _forced_lines(step, trace, rules) -> list[str]:
    lines = []
    for kind, raw, found in (("snippets", step.forced_snippets, trace.forced_snippets), ("skills", step.forced_skills, trace.forced_skills)):
        if not raw:
            continue
        uids = list(read_request_uids(raw, rules.request_numbers_wrap))
        kept = [r.uid for r in found]
        lines.append(f"    forced {kind}: requested {list(raw)} -> uids {uids} -> resolved {kept}")
    return lines


def explain_send(world, rules, step: Send) -> list[str]:
    trace = trace_send(world, step, rules)
    result = send_result(trace, rules, step.be_user, step.run_uid)
    lines = [f'send through configuration "{step.configuration}" (playground path)']
    forced = _forced_lines(step, trace, rules)
    if forced:
        skills = "enabled-only" if rules.composition_skill_lookup == "enabled" else "every undeleted skill (before ADR-175)"
        lines += [f"  forced set: request uids read as numbers above 0; snippets enabled-only, skills {skills}  [C164.6, C175.2]"] + forced
    return lines + dropped_lines(trace) + gate_lines(world, trace, result, rules)


def explain_readout(world, rules, step) -> list[str]:
    result = run_step(world, step, rules)
    configuration = world.configuration_index[step.configuration]
    if isinstance(step, Classify):
        head, sources = f'classify configuration "{step.configuration}": what it carries alone  [C144.16]', configuration_sources(world, configuration, rules.attached_skills_once)
    else:
        forced = resolve_forced_set(world, step.forced_snippets, step.forced_skills, rules)
        head, sources = f'readout of configuration "{step.configuration}" with the forced set  [C144.16]', list_sources(world, configuration, forced.snippets, forced.skills, rules.attached_skills_once)
    effective = result["effective"] or "undeclared"
    by = f" by {result['effective_source']}" if result["effective_source"] else ""
    return [head] + sources_table(sources) + fold_lines(sources) + [f"  effective: {effective}{by}"]


def explain_scenario(scenario: Scenario) -> str:
    """The story step by step: each step explained against the world the steps before it left."""
    if not isinstance(scenario, Scenario):
        return explain_gateway_scenario(scenario)
    lines = [f"scenario {scenario.id} under rules {scenario.rules.name}"]
    if scenario.description:
        lines.append(f"  {scenario.description}")
    story, rules = Story(scenario.world, {}), scenario.rules
    for number, step in enumerate(scenario.steps, 1):
        if isinstance(step, Send):
            body = explain_send(story.world, rules, step)
        elif isinstance(step, (Readout, Classify)):
            body = explain_readout(story.world, rules, step)
        else:
            body = explain_story_step(story, step, rules)
        lines += ["", f"step {number}: {body[0]}"] + body[1:]
        _, story = story_step(story, step, rules, f"$.steps[{number - 1}]")
    return "\n".join(lines)
