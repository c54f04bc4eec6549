"""The explained gate, shared by every path that gates: sources, fold, zone, decision, dropped record.

The fold is read through ``gateproof.model.fold`` at call time, so a wrong
variant that swaps the model's fold is explained as it decides.
"""

from __future__ import annotations

from gateproof.model import fold, lattice, lookups
from gateproof.model import sources as model_sources
from gateproof.model.enforcement import MISSING, is_enforcing, mode_label
from gateproof.model.resolution import lookup_fallback, normalise_fallback_chain
from gateproof.model.scenario.run import dropped_result
from gateproof.model.sources import Source

from .trace import Applied, shown


def class_label(value) -> str:
    return "undeclared" if value is None else value.value


def class_value(value) -> str | None:
    return None if value is None else value.value


def source_document(source: Source) -> dict:
    return {"name": source.name, "class": class_value(source.data_class), "origin": source.origin}


def sources_applied(sources: tuple[Source, ...], says: str, rules: tuple[str, ...]) -> Applied:
    if not sources:
        table = ["(none: nothing is injected)"]
    else:
        width = max(len(s.name) for s in sources)
        table = [f"{i}. {s.name:<{width}}  {class_label(s.data_class):<21}  from the {s.origin}" for i, s in enumerate(sources)]
    return Applied("sources", says, rules, table, result=[source_document(s) for s in sources])


def tags_applied(world, configuration) -> list[Applied]:
    """C144.4, C144.5, C144.19: the configuration's tags as read, and per tag the snippets it finds with the keys they are ordered by."""
    if not configuration.snippet_tags:
        return []
    tags = model_sources.snippet_tag_list(configuration)
    selected = iter(model_sources.selected_snippets(world, configuration))
    taking = next(selected, None)
    lines, found = [f"tags as stored: {shown(configuration.snippet_tags)} -> read as {shown(list(tags))}"], {}
    for tag in tags:
        snippets = lookups.lookup_active_by_tag(world.snippets, tag, world.collation)
        lines.append(f"tag {shown(tag)}: " + ("no active, undeleted snippet carries it" if not snippets else
                                               f"by sorting, then name under the {world.collation} collation"))
        for snippet in snippets:
            if snippet is taking:
                taking, why = next(selected, None), ""
            else:
                why = "  (hidden: left out)" if snippet.hidden else "  (already selected)"
            lines.append(f"  uid {snippet.uid} {model_sources.snippet_name(snippet)}: sorting {snippet.sorting}, name {shown(snippet.name)}{why}")
        found[tag] = [snippet.uid for snippet in snippets]
    return [Applied("tags", "tag-selected snippets", ("C144.4", "C144.5", "C144.19"), lines,
                    {"snippet_tags": configuration.snippet_tags, "collation": world.collation}, found)]


LADDER = "C094.1"  # six data classes, strictly ranked: what "stricter" in the fold means


def _why(previous, source: Source, took: bool) -> str:
    """Why the running result changed or stayed, read from what the fold did, right rules or wrong."""
    if source.data_class is None:
        return "undeclared: takes over" if took else "undeclared: changes nothing"
    if previous.data_class is None:
        return "first declaration: takes over" if took else "first declaration, yet the result stays undeclared"
    rank = source.data_class.rank
    running = lattice.rank_of(previous.data_class)
    above = "above" if rank > running else "below"  # the ladder of C094.1 ranks the classes: say where each stands on it
    ranked = f"on the ladder of {LADDER} ({source.data_class.value} {above} {previous.data_class.value})"
    if rank > running:
        return f"stricter {ranked}: takes over" if took else f"stricter {ranked}, yet the running result stays"
    if rank == running:
        return "equally strict: the later source takes over" if took else "equally strict: the earlier source stays"
    return f"less strict {ranked}, yet it takes over" if took else f"less strict {ranked}: the running result stays"


def running_folds(sources: tuple[Source, ...]) -> list[tuple[fold.Classification, bool]]:
    """The fold after each source, and whether that source took over: the model's own fold of each prefix."""
    ranks = tuple(lattice.rank_of(source.data_class) for source in sources)
    return [(fold.fold(sources[:end]), lattice.fold_ranks(ranks[:end])[1] == end - 1) for end in range(1, len(sources) + 1)]


def fold_applied(sources: tuple[Source, ...]) -> Applied:
    states, running_results = [], []
    previous = fold.UNDECLARED_CLASSIFICATION
    for source, (running, took) in zip(sources, running_folds(sources)):
        state = "undeclared" if running.data_class is None else f"{running.data_class.value} by {running.source}"
        states.append((state, _why(previous, source, took)))
        running_results.append({"class": class_value(running.data_class), "source": running.source})
        previous = running
    width = max((len(state) for state, _ in states), default=0)
    lines = [f"after {i}: {state:<{width}}  ({why})" for i, (state, why) in enumerate(states)]
    result = {"class": class_value(previous.data_class), "source": previous.source, "running": running_results}
    return Applied("fold", "fold: strictest declared class wins, the later source wins a tie", ("C144.9", LADDER),
                   lines or ["(nothing to fold: undeclared)"], {"classes": [class_value(s.data_class) for s in sources]}, result)


def fallback_found(world, identifier: str) -> str:
    """The configuration a fallback entry finds (C094.10's own lookup), said with what would make a reader doubt it counts."""
    found = lookup_fallback(world, identifier)
    if found is None:
        return "no undeleted configuration"
    return f"configuration {shown(found.identifier)}" + ("" if found.active else ", inactive (counted all the same)")


def zone_applied(resolution, world, configuration) -> Applied:
    lines, hops = [], []
    if configuration.fallbacks:
        read = list(normalise_fallback_chain(configuration.fallbacks))
        lines.append(f"fallback entries as stored: {shown(list(configuration.fallbacks))} -> read as {shown(read)}  [C094.9]")
    for hop in resolution.hops:
        provider = f"provider {shown(hop.provider)}" if hop.provider else "no provider (fail closed)"
        subject = shown(hop.subject) if hop.subject else "(none)"
        if hop.via == "fallback":
            subject += f" -> {fallback_found(world, hop.subject)}"
        lines.append(f"{hop.via} {subject}: {provider} -> {hop.zone.value}; running zone {hop.running.value}  [{hop.rule}]")
        hops.append({"via": hop.via, "subject": hop.subject, "provider": hop.provider, "zone": hop.zone.value, "running": hop.running.value, "rule": hop.rule})
    return Applied("zone", "zone: least trusted of the primary provider and one level of fallbacks", ("C094.8", "C094.10", "C149.1"),
                   lines, {"hops": hops}, resolution.zone.value)


def switch_words(raw) -> str:
    """The stored enforcement switch in words: never stored, or its stored JSON value."""
    return "never stored" if raw is MISSING else shown(raw)


def switch_value(raw) -> dict:
    return {"stored": False} if raw is MISSING else {"stored": True, "value": raw}


def gate_applied(world, trace, result: dict, rules) -> list[Applied]:
    """The sources, the fold, the zone and the decision of one gated send, on any path."""
    applied, listed = [], ("C144.3", "C164.1", "C164.3")  # C164.1: the run's forced sources are listed with the configuration's
    if not rules.gates_forced_sources:
        applied.append(Applied("configuration-only", f"rules {rules.name}: the gate folds the configuration's sources only", ("C164.1",)))
        listed = ("C144.3", "C164.3")
    applied += tags_applied(world, trace.configuration)
    applied += [sources_applied(trace.sources, "sources in composition order", listed), fold_applied(trace.sources)]
    if trace.decision is None:
        return applied + [Applied("dry-run", "dry run: nothing is sent, so the gate does not run", ("C164.5",))]
    if trace.resolution is None:
        applied.append(Applied("zone", "zone: not consulted, nothing is declared", ("C144.10",)))
    else:
        zone = trace.resolution.zone.value
        applied.append(zone_applied(trace.resolution, world, trace.configuration))
        applied.append(Applied("ceiling", f"ceiling of {zone}: {trace.decision.ceiling.value}", ("C094.4",), inputs={"zone": zone},
                               result=trace.decision.ceiling.value))
    if trace.decision.enforcing is not None:
        mode = mode_label(is_enforcing(world.enforcement))
        applied.append(Applied("enforcement", f"enforcement switch {switch_words(world.enforcement)} reads as {mode}", ("C113.1", "C115.1"),
                               inputs={"switch": switch_value(world.enforcement)}, result=mode))
    decision = {"decision": result["decision"], "sent": result["sent"]}
    applied.append(Applied("decision", f"decision: {result['decision']}; sent: {'yes' if result['sent'] else 'no'}", ("C144.10", "C144.11"),
                           inputs={"class": class_value(trace.classification.data_class), "zone": class_value(trace.decision.zone)}, result=decision))
    applied.append(Applied("message", "message", ("C144.12",), [result["message"]], result=result["message"]))
    if result["exception"]:
        applied.append(Applied("exception", "exception thrown", ("C144.13",), [result["exception"]], result=result["exception"]))
    for record in result["audit"]:
        details = [f"{key}: {shown(value)}" for key, value in record.items()]
        applied.append(Applied("audit", "audit record", ("C144.14", "C144.15"), details, result=record))
    return applied


def dropped_applied(trace) -> list[Applied]:
    if not trace.dropped:
        return []
    return [Applied("dropped", "dropped sources, recorded on the run; never a refusal", ("C179.1", "C179.2"),
                    [d.label() for d in trace.dropped], result=dropped_result(trace.dropped)["dropped"])]
