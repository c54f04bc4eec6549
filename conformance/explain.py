"""An explained trace of every decision, for a person learning the rules.

It reads the same :class:`SendTrace` the outcome is built from, so the
explanation cannot tell a different story from the decision.
"""

from __future__ import annotations

from gateproof.model.enforcement import MISSING, is_enforcing, mode_label
from gateproof.model.fold import UNDECLARED_CLASSIFICATION, with_stricter
from gateproof.model.scenario.read import Classify, Readout, Scenario, Send
from gateproof.model.scenario.run import run_step, send_result, trace_send
from gateproof.model.sources import Source, configuration_sources
from gateproof.model.uids import read_request_uids


def _class(value) -> str:
    return "undeclared" if value is None else value.value


def _sources_table(sources: tuple[Source, ...]) -> list[str]:
    if not sources:
        return ["    (none: nothing is injected)"]
    width = max(len(s.name) for s in sources)
    return [f"    {i}. {s.name:<{width}}  {_class(s.data_class):<21}  from the {s.origin}" for i, s in enumerate(sources, 1)]


def _fold_lines(sources: tuple[Source, ...]) -> list[str]:
    lines = []
    previous = UNDECLARED_CLASSIFICATION
    for i, source in enumerate(sources, 1):
        running = with_stricter(previous, source)
        if source.data_class is None:
            why = "undeclared: changes nothing"
        elif previous.data_class is None:
            why = "first declaration: takes over"
        elif source.data_class.rank > previous.rank:
            why = "stricter: takes over"
        elif source.data_class.rank == previous.rank:
            why = "equally strict: the later source takes over"
        else:
            why = "less strict: the running result stays"
        state = "undeclared" if running.data_class is None else f"{running.data_class.value} by {running.source}"
        lines.append(f"    after {i}: {state:<60}  ({why})")
        previous = running
    return lines or ["    (nothing to fold: undeclared)"]


def _forced_lines(step, trace) -> list[str]:
    lines = []
    for kind, raw, found in (("snippets", step.forced_snippets, trace.forced_snippets), ("skills", step.forced_skills, trace.forced_skills)):
        if not raw:
            continue
        uids = list(read_request_uids(raw))
        kept = [r.uid for r in found]
        lines.append(f"    forced {kind}: requested {list(raw)} -> uids {uids} -> resolved {kept}")
    return lines


def _zone_lines(resolution) -> list[str]:
    lines = []
    for hop in resolution.hops:
        provider = f'provider "{hop.provider}"' if hop.provider else "no provider (fail closed)"
        subject = f'"{hop.subject}"' if hop.subject else "(none)"
        lines.append(f"    {hop.via} {subject}: {provider} -> {hop.zone.value}; running zone {hop.running.value}  [{hop.rule}]")
    return lines


def explain_send(scenario: Scenario, step: Send) -> list[str]:
    world = scenario.world
    trace = trace_send(world, step, scenario.rules)
    result = send_result(trace, step.be_user, step.run_uid)
    lines = [f'send through configuration "{step.configuration}" (playground path)']
    forced = _forced_lines(step, trace)
    if forced:
        lines += ["  forced set: request uids read as numbers above 0, enabled-only lookups  [C164.6, C175.2]"] + forced
    if not scenario.rules.gates_forced_sources:
        lines.append(f"  rules {scenario.rules.name}: the gate folds the configuration's sources only  [C164.1]")
    lines += ["  sources in composition order  [C144.3, C164.3]"] + _sources_table(trace.sources)
    lines += ["  fold: strictest declared class wins, the later source wins a tie  [C144.9]"] + _fold_lines(trace.sources)
    if trace.decision is None:
        lines.append("  dry run: nothing is sent, so the gate does not run  [C164.5]")
        return lines
    if trace.resolution is None:
        lines.append("  zone: not consulted, nothing is declared  [C144.10]")
    else:
        lines += ["  zone: least trusted of the primary provider and one level of fallbacks  [C094.8, C094.10, C149.1]"] + _zone_lines(trace.resolution)
        lines.append(f"  ceiling of {trace.resolution.zone.value}: {trace.decision.ceiling.value}  [C094.4]")
    if trace.decision.enforcing is not None:
        raw = "never stored" if world.enforcement is MISSING else repr(world.enforcement)
        lines.append(f"  enforcement switch {raw} reads as {mode_label(is_enforcing(world.enforcement))}  [C113.1, C115.1]")
    lines.append(f"  decision: {result['decision']}; sent: {'yes' if result['sent'] else 'no'}  [C144.10, C144.11]")
    lines.append(f"  message: {result['message']}  [C144.12]")
    if result["exception"]:
        lines.append(f"  exception: {result['exception']}  [C144.13]")
    for record in result["audit"]:
        lines.append(f"  audit: context_blocked, reason {record['reason']}, detail {record['detail']}, provider {record['provider'] or '(none)'}  [C144.14]")
    return lines


def explain_readout(scenario: Scenario, step) -> list[str]:
    result = run_step(scenario.world, step, scenario.rules)
    configuration = scenario.world.configuration_index[step.configuration]
    if isinstance(step, Classify):
        head, sources = f'classify configuration "{step.configuration}": what it carries alone  [C144.16]', configuration_sources(scenario.world, configuration)
    else:
        from gateproof.model.scenario.run import resolve_forced_set
        from gateproof.model.sources import list_sources

        forced = resolve_forced_set(scenario.world, step.forced_snippets, step.forced_skills, scenario.rules)
        head, sources = f'readout of configuration "{step.configuration}" with the forced set  [C144.16]', list_sources(scenario.world, configuration, forced.snippets, forced.skills)
    effective = result["effective"] or "undeclared"
    by = f" by {result['effective_source']}" if result["effective_source"] else ""
    return [head] + _sources_table(sources) + _fold_lines(sources) + [f"  effective: {effective}{by}"]


def explain_scenario(scenario: Scenario) -> str:
    lines = [f"scenario {scenario.id} under rules {scenario.rules.name}"]
    if scenario.description:
        lines.append(f"  {scenario.description}")
    for number, step in enumerate(scenario.steps, 1):
        body = explain_send(scenario, step) if isinstance(step, Send) else explain_readout(scenario, step)
        lines += ["", f"step {number}: {body[0]}"] + body[1:]
    return "\n".join(lines)
