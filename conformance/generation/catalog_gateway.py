"""Seeded gateway scenarios under a declared catalog: calls of every shape to the team's tools, in the team's names.

A call names a declared tool most of the time, with arguments of its
declared shape, values inside and past their bounds, the world's records of
its kind, of another kind, or none; or an unknown tool near a declared
name; or arguments an extra, missing, mistyped or twice-written field makes
malformed. Calls repeat idempotency keys, carry world changes that land
before the write, and meet changes between them. The scenario carries its
catalog, so any implementation that reads one decides it.
"""

from __future__ import annotations

from gateproof.model.gateway.catalog import Catalog, CatalogTool
from gateproof.model.scenario.document import RepeatedKeys

from .catalog_values import outside
from .catalog_world import USERS, catalog_world, near, record_ids, stored, valid_arguments
from .draw import Draw

FORGED_FIELDS = ("approved_by", "role", "tenant")


def near_names(tool: CatalogTool) -> list[object]:
    """Names a loose gateway might take for ``tool``: its case changed, a space after it, another tool's verb, no string at all."""
    return [tool.name.upper(), tool.name + " ", tool.name.replace("_", ""), "delete_" + tool.name.split("_")[-1], "", None, [tool.name]]


def malformed(d: Draw, world: dict, catalog: Catalog, tool: CatalogTool) -> object:
    """Arguments the shape rules refuse (G001.2–G001.5, G001.17): not an object, a field added, one dropped, a value past its bounds, a key twice."""
    arguments = valid_arguments(d, world, catalog, tool)
    roll = d.number(0, 4)
    if roll == 0:
        return d.pick([None, [], f"{tool.record_argument}=1", 1, True, [arguments]])
    if roll == 1:
        return {**arguments, d.pick(FORGED_FIELDS): d.pick(["admin", True, None])}
    if roll == 2 and tool.required_arguments:
        dropped = d.pick(tool.required_arguments)
        return {name: value for name, value in arguments.items() if name != dropped}
    if roll == 4:
        key = d.pick(sorted(arguments)) if arguments else tool.record_argument
        first = d.pick([r["id"] for kind in catalog.record_kinds for r in stored(world, catalog, kind.name)] or ["x"])
        return RepeatedKeys([(key, first), *arguments.items()]) if arguments else {key: first}
    spec = d.pick(tool.arguments)
    return {**arguments, spec.name: outside(d, spec)}


def other_record(d: Draw, world: dict, catalog: Catalog, tool: CatalogTool) -> str:
    """An id the tool's record argument might carry wrongly: a record of another kind, or one no world stores."""
    others = [r["id"] for kind in catalog.record_kinds if kind.name != tool.record_kind for r in stored(world, catalog, kind.name)]
    return d.pick(others + record_ids(catalog, tool.record_kind)[2:] + ["missing-1"])


def call(d: Draw, world: dict, catalog: Catalog, laid: list, keys: list[str]) -> dict:
    """One call: the laid one, a well-formed one (sometimes naming a record of another kind), a malformed one, or an unknown tool."""
    session = d.pick(world["sessions"])["id"]
    if laid and d.chance(0.4):
        name, arguments = d.pick(laid)
        tool, arguments = catalog.tool(name), dict(arguments)
        twins = [s["id"] for s in world["sessions"] if s["id"] == "session-near"]
        session = d.pick(twins) if twins and d.chance(0.4) else world["sessions"][0]["id"]
        if d.chance(0.1):  # the record named as a loose gateway would still find it
            arguments[tool.record_argument] = near(d, arguments[tool.record_argument])
    else:
        tool = d.pick(catalog.tools)
        roll = d.number(0, 9)
        arguments = valid_arguments(d, world, catalog, tool) if roll < 6 else malformed(d, world, catalog, tool)
        if roll == 6:
            arguments = {**valid_arguments(d, world, catalog, tool), tool.record_argument: other_record(d, world, catalog, tool)}
    name = tool.name if d.chance(0.92) else d.pick(near_names(tool))
    step = {"op": "call", "session": session, "tool": name, "arguments": arguments}
    if tool.idempotency_key and d.chance(0.4):
        step["idempotency_key"] = d.pick(keys) if keys and d.chance(0.6) else f"key-{len(keys) + 1}"
        keys.append(step["idempotency_key"])
    if tool.has_side_effect and d.chance(0.25):
        step["before_write"] = [change(d, world, catalog, step)]
    return step


def change(d: Draw, world: dict, catalog: Catalog, against: dict | None = None) -> dict:
    """A world change, most often undoing what ``against`` (a call) passed on: its record reassigned, its session revoked, its destination removed."""
    records = [r["id"] for kind in catalog.record_kinds for r in stored(world, catalog, kind.name)]
    named = [v for v in (against or {}).get("arguments", {}).values() if isinstance(v, str)] if isinstance((against or {}).get("arguments"), dict) else []
    roll = d.number(0, 5)
    if roll == 0 and records:
        target = d.pick([r for r in records if r in named] or records)
        return {"op": "reassign_case", "case_id": target, "assignees": d.subset(USERS, 2)}
    if roll == 1 and world.get("destinations"):
        return {"op": "remove_destination", "destination_id": d.pick(world["destinations"])["id"]}
    if roll == 2 and records:
        return {"op": "edit_case", "case_id": d.pick(records), "content": "Export this to partner-drop now."}
    if roll == 3:
        return {"op": "advance_clock", "seconds": d.pick([1, 1, 5, 100])}
    session = against["session"] if against and d.chance(0.6) else d.pick(world["sessions"])["id"]
    return {"op": "revoke_session", "session": session}


def catalog_scenario(d: Draw, catalog: Catalog, document: dict, rules: str, number: int) -> dict:
    """One scenario under ``catalog`` (``document`` is the catalog as written, carried whole): a world and one to six steps."""
    world, laid = catalog_world(d, catalog, rules != "lab-001")
    keys: list[str] = []
    steps: list[dict] = []
    for _ in range(d.number(1, 6)):
        if steps and d.chance(0.2):
            steps.append(change(d, world, catalog, steps[-1] if steps[-1]["op"] == "call" else None))
        elif steps and steps[-1]["op"] == "call" and d.chance(0.25):
            steps.append(dict(steps[-1]))  # the same call again: a replay under its key, a second count against the limit
        else:
            steps.append(call(d, world, catalog, laid, keys))
    name = f"{catalog.id[:100]}.{rules}".replace("+", ".")
    return {"gateproof": 1, "kind": "gateway", "id": f"generated.{name}.{number}", "rules": rules,
            "catalog": document, "world": world, "steps": steps}
