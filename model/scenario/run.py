"""Running a scenario: each step through the rules, each result as the outcome document states it."""

from __future__ import annotations

from attrs import frozen

from ..context_gate import Decision, audit_record, decide, exception_text, message_of
from ..enforcement import is_enforcing
from ..fold import Classification, fold
from ..dropped import DroppedSource, dropped_sources
from ..lifecycle import ForcedSet, resolve_for_composition
from ..records import Configuration, Skill, Snippet, World
from ..resolution import ZoneResolution, resolve_zone
from ..sources import Source, configuration_sources, list_sources
from ..uids import read_request_uids
from ..versions import Rules
from .read import Classify, Readout, Send

FORMAT_VERSION = 1


@frozen
class SendTrace:
    """Everything the rules derived for one send: the outcome and the explanation both read it."""

    configuration: Configuration
    forced: ForcedSet
    sources: tuple[Source, ...]
    classification: Classification
    resolution: ZoneResolution | None  # None: no zone was consulted
    decision: Decision | None  # None: a dry run, never gated
    dropped: tuple[DroppedSource, ...] = ()

    @property
    def forced_snippets(self) -> tuple[Snippet, ...]:
        return self.forced.snippets

    @property
    def forced_skills(self) -> tuple[Skill, ...]:
        return self.forced.skills


def resolve_forced_set(world: World, forced_snippets, forced_skills, rules: Rules) -> ForcedSet:
    """C164.6, C175.2: the playground reads the request's uids and resolves them through the composition lookups."""
    wrap = rules.request_numbers_wrap
    return resolve_for_composition(world, read_request_uids(forced_snippets, wrap), read_request_uids(forced_skills, wrap), rules)


def recorded_drops(world: World, forced: ForcedSet) -> tuple[DroppedSource, ...]:
    """C179.1: what a composition path says about the requested sources that did not arrive."""
    return dropped_sources(world, forced.snippet_uids, forced.snippets, forced.skill_uids, forced.skills)


def gated_sources(world: World, configuration: Configuration, snippets, skills, rules: Rules) -> tuple[Source, ...]:
    """C164.1: the gate folds the configuration's sources with the run's forced set (before ADR-164, without it)."""
    if rules.gates_forced_sources:
        return list_sources(world, configuration, snippets, skills, rules.attached_skills_once)
    return configuration_sources(world, configuration, rules.attached_skills_once)


def trace_gate(
    world: World,
    configuration: Configuration,
    forced: ForcedSet,
    rules: Rules,
    serving_model: str | None = None,
    dry_run: bool = False,
    dropped: tuple[DroppedSource, ...] = (),
) -> SendTrace:
    """C144.10, C164.5: one send through the gate, on any path; a dry run sends nothing and is not gated."""
    sources = gated_sources(world, configuration, forced.snippets, forced.skills, rules)
    classification = fold(sources)
    if dry_run:
        return SendTrace(configuration, forced, sources, classification, None, None, dropped)
    resolved: list[ZoneResolution] = []

    def zone():
        resolved.append(resolve_zone(world, configuration, serving_model))
        return resolved[0].zone

    decision = decide(classification, zone, lambda: is_enforcing(world.enforcement))
    return SendTrace(configuration, forced, sources, classification, resolved[0] if resolved else None, decision, dropped)


def trace_send(world: World, step: Send, rules: Rules) -> SendTrace:
    """C164.6, C179.2, C144.17: a playground send; it records dropped sources only where the version says the playground does.

    The task input and a per-run system prompt override are never read
    here: only stored records declare a class (C144.17).
    """
    configuration = world.configuration_index[step.configuration]
    forced = resolve_forced_set(world, step.forced_snippets, step.forced_skills, rules)
    dropped = recorded_drops(world, forced) if rules.playground_records_dropped else ()
    return trace_gate(world, configuration, forced, rules, step.serving_model, step.dry_run, dropped)


def recorded_be_user(raw: object, rules: Rules) -> int:
    """C144.15: the caller's user uid is recorded only when the call metadata holds an integer; otherwise 0.

    Under ``nr-llm`` it is always 0: the gate reads the metadata key ``beUser``,
    and the user travels under ``beUserUid``.
    """
    if not rules.audits_caller_user:
        return 0
    return raw if isinstance(raw, int) and not isinstance(raw, bool) else 0


_NOT_GATED = {
    "op": "send", "decision": "dry_run", "declared_class": None, "source": "", "zone": None, "ceiling": None,
    "enforcing": None, "sent": False, "message": None, "exception": None, "audit": [],
}


def dropped_result(dropped: tuple[DroppedSource, ...]) -> dict:
    """C179.1, S001.8: the ``dropped`` key, present only when something was recorded."""
    return {"dropped": [{"kind": d.kind, "uid": d.uid, "reason": d.reason} for d in dropped]} if dropped else {}


def send_result(trace: SendTrace, rules: Rules, be_user: object, run_uid: int) -> dict:
    """S001.8: the outcome of one send, in the keys of the outcome schema, null where a key does not apply."""
    decision = trace.decision
    if decision is None:
        return dict(_NOT_GATED, audit=[], **dropped_result(trace.dropped))
    identifier = trace.configuration.identifier
    resolution = trace.resolution
    record = None
    if resolution is not None:
        record = audit_record(decision, identifier, resolution.provider, resolution.model, recorded_be_user(be_user, rules), int(run_uid))
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
        **dropped_result(trace.dropped),
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
        return send_result(trace_send(world, step, rules), rules, step.be_user, step.run_uid)
    configuration = world.configuration_index[step.configuration]
    if isinstance(step, Readout):
        forced = resolve_forced_set(world, step.forced_snippets, step.forced_skills, rules)
        return readout_result("readout", list_sources(world, configuration, forced.snippets, forced.skills, rules.attached_skills_once))
    assert isinstance(step, Classify)
    return readout_result("classify", configuration_sources(world, configuration, rules.attached_skills_once))
