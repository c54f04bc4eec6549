"""Running a scenario: each step through the rules, each result as the outcome document states it."""

from __future__ import annotations

from attrs import frozen

from ..enforcement import is_enforcing
from ..fold import Classification, fold
from ..gate import Decision, audit_record, decide, exception_text, message_of
from ..lookups import lookup_enabled
from ..records import Configuration, Skill, Snippet, World
from ..resolution import ZoneResolution, resolve_zone
from ..sources import Source, configuration_sources, list_sources
from ..uids import read_request_uids
from ..versions import Rules
from .read import Classify, Readout, Scenario, Send

FORMAT_VERSION = 1


@frozen
class SendTrace:
    """Everything the rules derived for one send: the outcome and the explanation both read it."""

    configuration: Configuration
    forced_snippets: tuple[Snippet, ...]
    forced_skills: tuple[Skill, ...]
    sources: tuple[Source, ...]
    classification: Classification
    resolution: ZoneResolution | None  # None: no zone was consulted
    decision: Decision | None  # None: a dry run, never gated


def resolve_forced_set(world: World, forced_snippets, forced_skills) -> tuple[tuple[Snippet, ...], tuple[Skill, ...]]:
    """C164.6, C175.2: the playground reads the request's uids and resolves them through the enabled-only lookups."""
    snippets = lookup_enabled(world.snippet_index, read_request_uids(forced_snippets))
    skills = lookup_enabled(world.skill_index, read_request_uids(forced_skills))
    return snippets, skills


def gated_sources(world: World, configuration: Configuration, snippets, skills, rules: Rules) -> tuple[Source, ...]:
    """C164.1: the gate folds the configuration's sources with the run's forced set (before ADR-164, without it)."""
    if rules.gates_forced_sources:
        return list_sources(world, configuration, snippets, skills)
    return configuration_sources(world, configuration)


def trace_send(world: World, step: Send, rules: Rules) -> SendTrace:
    """C144.10, C164.5, C144.17: one send through the gate; a dry run sends nothing and is not gated.

    The task input and a per-run system prompt override are never read
    here: only stored records declare a class (C144.17).
    """
    configuration = world.configuration_index[step.configuration]
    snippets, skills = resolve_forced_set(world, step.forced_snippets, step.forced_skills)
    sources = gated_sources(world, configuration, snippets, skills, rules)
    classification = fold(sources)
    if step.dry_run:
        return SendTrace(configuration, snippets, skills, sources, classification, None, None)
    resolved: list[ZoneResolution] = []

    def zone():
        resolved.append(resolve_zone(world, configuration, step.serving_model))
        return resolved[0].zone

    decision = decide(classification, zone, lambda: is_enforcing(world.enforcement))
    return SendTrace(configuration, snippets, skills, sources, classification, resolved[0] if resolved else None, decision)


def recorded_be_user(raw: object) -> int:
    """C144.15: the caller's user uid is recorded only when the call metadata holds an integer; otherwise 0."""
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


_NOT_GATED = {
    "op": "send", "decision": "dry_run", "declared_class": None, "source": "", "zone": None, "ceiling": None,
    "enforcing": None, "sent": False, "message": None, "exception": None, "audit": [],
}


def send_result(trace: SendTrace, step: Send) -> dict:
    """The outcome of one send, in the keys of the outcome schema."""
    decision = trace.decision
    if decision is None:
        return dict(_NOT_GATED, audit=[])
    identifier = trace.configuration.identifier
    resolution = trace.resolution
    record = None
    if resolution is not None:
        record = audit_record(decision, identifier, resolution.provider, resolution.model, recorded_be_user(step.be_user), int(step.run_uid))
    return {
        "op": "send",
        "decision": decision.kind,
        "declared_class": None if decision.data_class is None else decision.data_class.value,
        "source": decision.source,
        "zone": None if decision.zone is None else decision.zone.value,
        "ceiling": None if decision.ceiling is None else decision.ceiling.value,
        "enforcing": decision.enforcing,
        "sent": decision.sent,
        "message": message_of(decision),
        "exception": exception_text(decision, identifier),
        "audit": [] if record is None else [record],
    }


def readout_result(op: str, sources: tuple[Source, ...]) -> dict:
    """C144.16: every source with its class, and the fold; ``effective`` null and source empty when nothing is declared."""
    folded = fold(sources)
    return {
        "op": op,
        "sources": [{"source": s.name, "data_class": None if s.data_class is None else s.data_class.value} for s in sources],
        "effective": None if folded.data_class is None else folded.data_class.value,
        "effective_source": folded.source,
    }


def run_step(world: World, step, rules: Rules) -> dict:
    if isinstance(step, Send):
        return send_result(trace_send(world, step, rules), step)
    configuration = world.configuration_index[step.configuration]
    if isinstance(step, Readout):
        snippets, skills = resolve_forced_set(world, step.forced_snippets, step.forced_skills)
        return readout_result("readout", list_sources(world, configuration, snippets, skills))
    assert isinstance(step, Classify)
    return readout_result("classify", configuration_sources(world, configuration))


def run_scenario(scenario: Scenario) -> dict:
    """S001.2: the outcome document of a scenario, one result per step in step order."""
    if not isinstance(scenario, Scenario):
        from ..gateway.scenario import run_gateway_scenario  # the gateway runner builds on this package

        return run_gateway_scenario(scenario)
    return {
        "gateproof": FORMAT_VERSION,
        "scenario": scenario.id,
        "rules": scenario.rules.name,
        "results": [run_step(scenario.world, step, scenario.rules) for step in scenario.steps],
    }
