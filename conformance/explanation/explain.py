"""An explained trace of every decision, for a person learning the rules.

It reads the same :class:`SendTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision, and each step
carries the result the outcome has for it. :func:`explain_under` explains a
document under any rules ``gateproof decide --rules`` accepts, deliberately
wrong variants included.
"""

from __future__ import annotations

from attrs import evolve

from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.lifecycle import PLAYGROUND_SEND, path_lookups
from gateproof.model.scenario import read_scenario
from gateproof.model.scenario.read import Classify, Readout, Scenario, Send
from gateproof.model.scenario.run import resolve_forced_set, run_step, send_result, trace_send
from gateproof.model.scenario.story import Story, story_step
from gateproof.model.sources import configuration_sources, list_sources
from gateproof.model.uids import read_request_uids
from gateproof.model.versions import VERSIONS

from .gate import dropped_applied, fold_applied, gate_applied, sources_applied, tags_applied
from .gateway import explain_gateway_steps
from .lifecycle import explain_story_step, lookup_words
from .trace import Applied, Explained, ExplainedStep, shown, text_of


def _forced_applied(step, trace, rules) -> list[Applied]:
    lines, inputs, result = [], {}, {}
    for kind, raw, found in (("snippets", step.forced_snippets, trace.forced_snippets), ("skills", step.forced_skills, trace.forced_skills)):
        if not raw:
            continue
        uids, kept = list(read_request_uids(raw, rules.request_numbers_wrap)), [r.uid for r in found]
        lines.append(f"forced {kind}: requested {shown(raw)} -> uids {shown(uids)} -> resolved {shown(kept)}")
        inputs[kind], result[kind] = raw, kept
    if not lines:
        return []
    lookups = path_lookups(PLAYGROUND_SEND, rules)
    return [Applied("forced-set", f"forced set: request uids read as numbers above 0; {lookup_words(lookups)}",
                    ("C164.6", *lookups.rules), lines, inputs, result)]


def explain_send(world, rules, step: Send) -> tuple[str, list[Applied]]:
    trace = trace_send(world, step, rules)
    result = send_result(trace, rules, step.be_user, step.run_uid)
    applied = _forced_applied(step, trace, rules) + dropped_applied(trace) + gate_applied(world, trace, result, rules)
    return f'send through configuration "{step.configuration}" (playground path)', applied


def explain_readout(world, rules, step) -> tuple[str, list[Applied]]:
    result = run_step(world, step, rules)
    configuration = world.configuration_index[step.configuration]
    if isinstance(step, Classify):
        head, sources = f'classify configuration "{step.configuration}": what it carries alone', configuration_sources(world, configuration, rules.attached_skills_once)
    else:
        forced = resolve_forced_set(world, step.forced_snippets, step.forced_skills, rules)
        head, sources = f'readout of configuration "{step.configuration}" with the forced set', list_sources(world, configuration, forced.snippets, forced.skills, rules.attached_skills_once)
    effective = result["effective"] or "undeclared"
    by = f" by {result['effective_source']}" if result["effective_source"] else ""
    return head, [
        *tags_applied(world, configuration),
        sources_applied(sources, "sources it injects", ("C144.16",)),
        fold_applied(sources),
        Applied("effective", f"effective: {effective}{by}", ("C144.16",), result={"effective": result["effective"], "source": result["effective_source"]}),
    ]


def explain_ceiling_steps(scenario: Scenario) -> list[ExplainedStep]:
    """The story step by step: each step explained against the world the steps before it left."""
    steps, story, rules = [], Story(scenario.world, {}), scenario.rules
    for number, step in enumerate(scenario.steps):
        if isinstance(step, Send):
            says, applied = explain_send(story.world, rules, step)
        elif isinstance(step, (Readout, Classify)):
            says, applied = explain_readout(story.world, rules, step)
        else:
            says, applied = explain_story_step(story, step, rules)
        result, story = story_step(story, step, rules, f"$.steps[{number}]")
        steps.append(ExplainedStep(number, result["op"], says, applied, result))
    return steps


def explained(scenario, rules: str | None = None, notes: tuple[str, ...] = ()) -> Explained:
    """The scenario explained under its own rules, headed with ``rules`` when they have another name."""
    ceiling = isinstance(scenario, Scenario)
    steps = explain_ceiling_steps(scenario) if ceiling else explain_gateway_steps(scenario)
    return Explained(scenario.id, rules or scenario.rules.name, "ceiling" if ceiling else "gateway", scenario.description or "", steps, notes)


def explain_scenario(scenario) -> str:
    return text_of(explained(scenario))


def _in_place(scenario, name: str):
    """The scenario under the rule version ``name``; ValueError for a version of the other kind."""
    ceiling = isinstance(scenario, Scenario)
    if (name in GATEWAY_VERSIONS) == ceiling:
        raise ValueError(f"--rules {name} does not apply to this kind of scenario")
    return evolve(scenario, rules=VERSIONS[name] if ceiling else GATEWAY_VERSIONS[name])


def _variant_parts(step: ExplainedStep, name: str, result: dict) -> ExplainedStep:
    """The model's step, then where the wrong variant's result parts from the model's."""
    keys = [key for key in dict.fromkeys([*step.result, *result]) if step.result.get(key, _ABSENT) != result.get(key, _ABSENT)]
    if not keys:
        return step
    details = [f"{key}: the model {_value(step.result, key)}; {name} {_value(result, key)}" for key in keys]
    parted = Applied("variant", f"{name} decides this step otherwise", (), details, {"model": step.result}, result)
    return evolve(step, applied=(*step.applied, parted), result=result)


_ABSENT = object()


def _value(result: dict, key: str) -> str:
    return shown(result[key]) if key in result else "(absent)"


def explain_under(document: dict, name: str | None = None) -> Explained:
    """The document explained under its own rules, or under ``name``: a version or a ``wrong:`` variant.

    ScenarioError for an invalid document; ValueError for rules of the other
    kind of scenario. A variant that swaps model functions or switches is
    explained as it decides; a wrong gateway that decides through its own
    runner is explained as the model decides, with where it parts from it.
    """
    scenario = read_scenario(document)
    if name is None:
        return explained(scenario)
    if name in VERSIONS or name in GATEWAY_VERSIONS:
        return explained(_in_place(scenario, name))
    from ..implementations.wrong.decide import DECIDABLE_VARIANTS, is_for  # the wrong variants load only when asked for

    variant = DECIDABLE_VARIANTS[name]
    if not is_for(name, document):
        raise ValueError(f"--rules {name} does not apply to this kind of scenario")
    description = " ".join((variant.description or "").split())
    if variant.runner is not None:
        note = f"{name}, a deliberately wrong gateway with its own decision: {description} Each step shows how the model decides it, then where {name} parts from it."
        model = explained(scenario, name, (note,))
        outcome = variant.runner(document)
        return evolve(model, steps=[_variant_parts(step, name, result) for step, result in zip(model.steps, outcome["results"])])
    with variant.in_force():
        scenario = read_scenario(document)
        if variant.rules.name not in VERSIONS:
            scenario = evolve(scenario, rules=variant.rules)
            note = f"{name}, deliberately wrong rules: {description}"
        else:
            note = f"{name}, a deliberately wrong variant of the rules {scenario.rules.name}: {description}"
        return explained(scenario, name, (note,))
