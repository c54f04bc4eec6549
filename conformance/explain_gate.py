"""The explained gate, shared by every path that gates: sources, fold, zone, decision, dropped record."""

from __future__ import annotations

from gateproof.model.enforcement import MISSING, is_enforcing, mode_label
from gateproof.model.fold import UNDECLARED_CLASSIFICATION, with_stricter
from gateproof.model.sources import Source


def class_label(value) -> str:
    return "undeclared" if value is None else value.value


def sources_table(sources: tuple[Source, ...]) -> list[str]:
    if not sources:
        return ["    (none: nothing is injected)"]
    width = max(len(s.name) for s in sources)
    return [f"    {i}. {s.name:<{width}}  {class_label(s.data_class):<21}  from the {s.origin}" for i, s in enumerate(sources, 1)]


def fold_lines(sources: tuple[Source, ...]) -> list[str]:
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


def zone_lines(resolution) -> list[str]:
    lines = []
    for hop in resolution.hops:
        provider = f'provider "{hop.provider}"' if hop.provider else "no provider (fail closed)"
        subject = f'"{hop.subject}"' if hop.subject else "(none)"
        lines.append(f"    {hop.via} {subject}: {provider} -> {hop.zone.value}; running zone {hop.running.value}  [{hop.rule}]")
    return lines


def gate_lines(world, trace, result: dict, rules) -> list[str]:
    """The sources, the fold, the zone and the decision of one gated send, on any path."""
    lines = []
    if not rules.gates_forced_sources:
        lines.append(f"  rules {rules.name}: the gate folds the configuration's sources only  [C164.1]")
    lines += ["  sources in composition order  [C144.3, C164.3]"] + sources_table(trace.sources)
    lines += ["  fold: strictest declared class wins, the later source wins a tie  [C144.9]"] + fold_lines(trace.sources)
    if trace.decision is None:
        lines.append("  dry run: nothing is sent, so the gate does not run  [C164.5]")
        return lines
    if trace.resolution is None:
        lines.append("  zone: not consulted, nothing is declared  [C144.10]")
    else:
        lines += ["  zone: least trusted of the primary provider and one level of fallbacks  [C094.8, C094.10, C149.1]"] + zone_lines(trace.resolution)
        lines.append(f"  ceiling of {trace.resolution.zone.value}: {trace.decision.ceiling.value}  [C094.4]")
    if trace.decision.enforcing is not None:
        raw = "never stored" if world.enforcement is MISSING else repr(world.enforcement)
        lines.append(f"  enforcement switch {raw} reads as {mode_label(is_enforcing(world.enforcement))}  [C113.1, C115.1]")
    lines.append(f"  decision: {result['decision']}; sent: {'yes' if result['sent'] else 'no'}  [C144.10, C144.11]")
    lines.append(f"  message: {result['message']}  [C144.12]")
    if result["exception"]:
        lines.append(f"  exception: {result['exception']}  [C144.13]")
    for record in result["audit"]:
        lines.append(f"  audit: context_blocked, reason {record['reason']}, detail {record['detail']}, provider {record['provider'] or '(none)'}, user {record['be_user']}, run {record['agentrun_uid']}  [C144.14, C144.15]")
    return lines


def dropped_lines(trace) -> list[str]:
    if not trace.dropped:
        return []
    lines = ["  dropped sources, recorded on the run; never a refusal  [C179.1, C179.2]"]
    return lines + [f"    {d.label()}" for d in trace.dropped]
