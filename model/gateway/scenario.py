"""Gateway scenario documents: reading one into model values and running it to an outcome.

A document error (a duplicate id, a step naming a session or record the world
lacks) is a :class:`ScenarioError`. A call's ``tool`` and ``arguments`` are
never document errors: they are what a model proposed, and the rules judge them.
"""

from __future__ import annotations

from attrs import frozen

from ..records import replaced
from ..scenario.errors import ScenarioError, join_path
from .arguments import compute_canonical_arguments
from .catalog import Catalog, CatalogError, RateLimit, RecordKind, read_catalog_cached
from .catalog_checks import RECORD_FIELDS, WORLD_TABLES
from .changes import AdvanceClock, EditCase, EditRunbook, ReassignCase, RemoveDestination, RevokeSession, apply_change
from .gate import DEFAULT_GATEWAY_VERSION, GATEWAY_VERSIONS, Call, CallTrace, GatewayRules, GatewayState, decide_call
from .lab import LAB_CATALOG
from .world import Approval, Case, Destination, GatewayWorld, Runbook, Session

FORMAT_VERSION = 1


@frozen
class GatewayScenario:
    id: str
    rules: GatewayRules
    world: GatewayWorld
    steps: tuple
    description: str = ""


def _unique(records: list, where: str, seen: set | None = None) -> None:
    seen = set() if seen is None else seen
    for position, record in enumerate(records):
        if record["id"] in seen:
            raise ScenarioError(f"$.world.{where}[{position}].id", f"duplicate id {record['id']!r}")
        seen.add(record["id"])


def catalog_of(document: dict) -> Catalog:
    """S001.9: the catalog a gateway scenario names inline in ``catalog``; the lab's when absent. An invalid one is a document error at ``$.catalog``."""
    if "catalog" not in document:
        return LAB_CATALOG
    try:
        return read_catalog_cached(document["catalog"])
    except CatalogError as error:
        raise ScenarioError(join_path(["catalog"]) + error.path[1:], error.problem) from None


def _record(fields: dict, kind: RecordKind, where: str) -> Case:
    """S001.9: one stored record of ``kind``: its id, its tenant and assignees in the fields the kind names, its content."""
    for name in fields:
        if name not in (*RECORD_FIELDS, kind.tenant, kind.assignees):
            raise ScenarioError(f"{where}.{name}", f"unknown field: a {kind.name} holds id, {kind.tenant}, {kind.assignees} and content")
    if not isinstance(fields.get(kind.tenant), str) or not fields[kind.tenant]:
        raise ScenarioError(f"{where}.{kind.tenant}", f"required: the {kind.name}'s tenant, a non-empty string")
    assignees = fields.get(kind.assignees, [])
    if not (isinstance(assignees, list) and all(isinstance(user, str) and user for user in assignees)):
        raise ScenarioError(f"{where}.{kind.assignees}", "not a list of non-empty strings")
    if not isinstance(fields.get("content", ""), str):
        raise ScenarioError(f"{where}.content", "not a string")
    return Case(fields["id"], fields[kind.tenant], frozenset(assignees), fields.get("content", ""), kind.name)


def read_records(fields: dict, catalog: Catalog) -> tuple[Case, ...]:
    """S001.9: the stored records of every kind of the catalog, each under its kind's key (``record_kinds[].collection``), no id twice."""
    kinds = {kind.stored_as: kind for kind in catalog.record_kinds}
    for key in fields:
        if key not in WORLD_TABLES and key not in kinds:
            raise ScenarioError(f"$.world.{key}", f"unknown field: the catalog {catalog.id!r} stores no records as {key!r}")
    seen: set = set()
    records = []
    for key, kind in kinds.items():
        _unique(fields.get(key, []), key, seen)
        records += [_record(record, kind, f"$.world.{key}[{i}]") for i, record in enumerate(fields.get(key, ()))]
    return tuple(records)


def read_gateway_world(fields: dict, catalog: Catalog = LAB_CATALOG) -> GatewayWorld:
    """S001.9: the gateway's stored records under ``catalog``, each field a record leaves out at its default."""
    for where in ("sessions", "destinations", "runbooks", "approvals"):
        _unique(fields.get(where, []), where)
    limit = fields.get("rate_limit")
    return GatewayWorld(
        sessions=tuple(Session(s["id"], s["user"], s["tenant"], frozenset(s.get("roles", ())), s.get("valid", True)) for s in fields["sessions"]),
        cases=read_records(fields, catalog),
        destinations=tuple(Destination(d["id"], d["internal"]) for d in fields.get("destinations", ())),
        runbooks=tuple(Runbook(r["id"], r.get("content", "")) for r in fields.get("runbooks", ())),
        approvals=tuple(
            Approval(a["id"], a["tool"], compute_canonical_arguments(a["arguments"]), a["user"], a["expires_at"]) for a in fields.get("approvals", ())
        ),
        rate_limit=None if limit is None else RateLimit(limit["calls"], limit["window"]),
        clock=fields.get("clock", 0),
        catalog=catalog,
    )


def _known(where: str, value: str, index: dict, what: str) -> str:
    if value not in index:
        raise ScenarioError(where, f"no {what} {value!r} in the world")
    return value


def read_change(fields: dict, where: str, world: GatewayWorld):
    """One world change; the record it names must be in the world (a document error otherwise)."""
    op = fields["op"]
    if op == "reassign_case":
        return ReassignCase(_known(f"{where}.case_id", fields["case_id"], world.case_index, "case"), frozenset(fields["assignees"]))
    if op == "revoke_session":
        return RevokeSession(_known(f"{where}.session", fields["session"], world.session_index, "session"))
    if op == "remove_destination":
        return RemoveDestination(_known(f"{where}.destination_id", fields["destination_id"], world.destination_index, "destination"))
    if op == "edit_case":
        return EditCase(_known(f"{where}.case_id", fields["case_id"], world.case_index, "case"), fields["content"])
    if op == "edit_runbook":
        return EditRunbook(_known(f"{where}.runbook_id", fields["runbook_id"], world.runbook_index, "runbook"), fields["content"])
    return AdvanceClock(fields["seconds"])


def read_gateway_step(fields: dict, position: int, world: GatewayWorld):
    """S001.9: one step, a call's absent idempotency key and ``before_write`` at their defaults."""
    where = f"$.steps[{position}]"
    if fields["op"] != "call":
        return read_change(fields, where, world)
    session = _known(f"{where}.session", fields["session"], world.session_index, "session")
    before = tuple(read_change(c, f"{where}.before_write[{i}]", world) for i, c in enumerate(fields.get("before_write", ())))
    return Call(session, fields["tool"], fields["arguments"], fields.get("idempotency_key"), before)


def read_gateway_scenario(document: dict) -> GatewayScenario:
    """S001.1 for gateway documents (already schema-valid): model values, or the first wrong field."""
    world = read_gateway_world(document["world"], catalog_of(document))
    return GatewayScenario(
        id=document["id"],
        rules=GATEWAY_VERSIONS[document.get("rules", DEFAULT_GATEWAY_VERSION)],
        world=world,
        steps=tuple(read_gateway_step(step, i, world) for i, step in enumerate(document["steps"])),
        description=document.get("description", ""),
    )


def call_result(call: Call, trace: CallTrace, writes: bool = False) -> dict:
    """S001.10: the outcome of one call, every key of the outcome schema whatever the reason; ``writes`` too where the catalog has a write tool."""
    result = {
        "op": "call",
        "session": call.session,
        "decision": trace.decision,
        "reason": trace.reason,
        "caller_reason": trace.caller_reason,
        "rule": trace.rule,
        "stage": trace.stage,
        "replayed": trace.replayed,
        "exports": list(trace.exports),
        "reads": list(trace.reads),
        "audit": trace.audit,
    }
    if writes:
        result["writes"] = list(trace.writes)
    return result


CHANGE_OPS = {
    ReassignCase: "reassign_case", RevokeSession: "revoke_session", RemoveDestination: "remove_destination",
    EditCase: "edit_case", EditRunbook: "edit_runbook", AdvanceClock: "advance_clock",
}


def trace_gateway_scenario(scenario: GatewayScenario):
    """Each step with its trace (None for a world change) and the state it leaves, in step order."""
    state = GatewayState(scenario.world)
    for step in scenario.steps:
        if isinstance(step, Call):
            trace, state = decide_call(state, step, scenario.rules)
            yield step, trace, state
        else:
            state = replaced(state, world=apply_change(state.world, step))
            yield step, None, state


def run_gateway_scenario(scenario: GatewayScenario) -> dict:
    """S001.2, S001.10 for gateway scenarios: one result per step in step order, a world change answering its op alone."""
    writes = scenario.world.catalog.writes
    results = [call_result(step, trace, writes) if trace else {"op": CHANGE_OPS[type(step)]} for step, trace, _ in trace_gateway_scenario(scenario)]
    return {"gateproof": FORMAT_VERSION, "scenario": scenario.id, "rules": scenario.rules.name, "results": results}
