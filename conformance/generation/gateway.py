"""Fast seeded gateway scenarios: every role in every tenant, calls of every shape, and every lab-001+next check at its boundary.

Worlds hold sessions of both tenants in each role (and invalid ones), cases
of both tenants, internal and external destinations, approvals whose expiry
sits one second either side of the clock, and a rate limit whose window a
story walks up to and past. Calls repeat idempotency keys (from the same
session, another, or another session of the same user), carry approvals'
arguments reordered or drifted, and bring ``before_write`` changes that land
between the check and the write; a malformed call may write a key twice,
its first value another record's id (G001.17). Half the worlds are laid for one export
(and mostly, under the next checks, its approval to an external destination,
exact or off by its tool, user, an added field or a decomposed letter), which
calls then make, replay under their key, and meet changes that undo before
the write: a revocation with another change, or the clock moved onto the
approval's expiry. Some stories end in a burst of one call at the rate
limit's window edge.
"""

from __future__ import annotations

import unicodedata

from gateproof.model.gateway.arguments import TOOLS
from gateproof.model.gateway.gate import DEFAULT_GATEWAY_VERSION
from gateproof.model.scenario.document import RepeatedKeys

from .draw import Draw
from .gateway_changes import against, change, names_stored_records
from .gateway_corners import burst, impostor_call, record_corners, replay_story, side_call, side_recheck, side_world
from .gateway_pools import (BAD_VALUES, CANARY, CASE_IDS, DESTINATION_IDS, FORGED_FIELDS, INJECTIONS, NEAR_IDS, NEAR_TOOLS, ROLES,
                            SESSION_IDS, TENANTS, TWICE_FIRST, USERS)

def session(d: Draw, sid: str) -> dict:
    record = {"id": sid, "user": d.pick(USERS), "tenant": d.pick(TENANTS)}
    roll = d.number(0, 9)
    record["roles"] = ["support"] if roll < 4 else (["supervisor"] if roll < 6 else d.subset(ROLES, 2))
    if d.chance(0.15):
        record["valid"] = d.chance(0.3)
    return record


def world(d: Draw, next_checks: bool) -> tuple[dict, list[dict]]:
    """A world, and the arguments of the exports it was laid for: those its first session passes every check with."""
    sessions = [session(d, sid) for sid in SESSION_IDS[: d.number(1, 4)]]
    cases = [{"id": cid, "tenant": d.pick(TENANTS), "assignees": d.subset(USERS, 2), "content": f"{d.pick(INJECTIONS)} {CANARY}"}
             for cid in d.subset(CASE_IDS, 3) or [CASE_IDS[0]]]
    destinations = [{"id": i, "internal": (i != DESTINATION_IDS[-1]) != d.chance(0.2)} for i in d.subset(DESTINATION_IDS, 3)]
    laid = []
    if d.chance(0.5):  # one call in reach of every lab check, so the checks after them are reached too
        first = sessions[0]
        first.update(valid=True, roles=sorted({*first["roles"], "support"}))
        cases[0].update(tenant=first["tenant"], assignees=sorted({*cases[0]["assignees"], first["user"]}))
        if not any(x["internal"] for x in destinations):
            named = {x["id"]: x for x in destinations}
            named["review-queue"] = {"id": "review-queue", "internal": True}
            destinations[:] = named.values()
        laid.append({"case_id": cases[0]["id"], "destination_id": d.pick([x["id"] for x in destinations if x["internal"]])})
    if len(sessions) > 1 and d.chance(0.3):  # a second session of the first one's user: another session id, so another action (G002.3)
        sessions[1].update({name: value for name, value in sessions[0].items() if name != "id"})
    document = {"sessions": sessions, "cases": cases, "destinations": destinations}
    if d.chance(0.5):
        document["runbooks"] = [{"id": "rb-1", "content": d.pick(INJECTIONS)}]
    if next_checks or d.chance(0.2):  # lab-001 must ignore what only lab-001+next reads
        clock = d.pick([0, 10, 100])
        if d.chance(0.8):
            document["clock"] = clock
        if d.chance(0.6):
            document["rate_limit"] = {"calls": d.number(1, 3), "window": d.pick([1, 2, 5, 10])}
        document["approvals"] = [approval(d, document, clock, number) for number in range(1, d.number(0, 2) + 1)]
        if laid and d.chance(0.7):  # the laid case approved to an external destination: the export G002.5 lets through
            if all(x["internal"] for x in destinations):
                destinations.append({"id": "offsite-drop", "internal": False})
            external = [x["id"] for x in destinations if not x["internal"]]
            approved = {"case_id": laid[0]["case_id"], "destination_id": d.pick(external)}
            expires_at = max(0, clock + d.pick([-1, 0, 1, 100]))
            exact = {"id": "ap-0", "tool": "export_case", "arguments": approved, "user": sessions[0]["user"], "expires_at": expires_at}
            document["approvals"].append(drifted(d, exact))
            laid.append(approved)
    for table, keeps in (("sessions", ("id", "user", "tenant")), ("cases", ("id", "tenant"))):
        for record in document[table]:
            d.sparse(record, keeps)
    return document, laid


def well_formed(d: Draw, world: dict, tool: str) -> dict:
    """Arguments of the right shape, naming the world's records most of the time."""
    cases = [c["id"] for c in world["cases"]] + ["CASE-404"]
    destinations = [x["id"] for x in world["destinations"]] + ["nowhere"]
    pools = {"case_id": cases, "destination_id": destinations}
    arguments = {name: d.pick(pools[name]) if d.chance(0.9) else d.pick(NEAR_IDS) for name in TOOLS[tool].arguments}
    if d.chance(0.3):
        arguments = dict(reversed(list(arguments.items())))  # the same arguments, another key order
    return arguments


def approval(d: Draw, world: dict, clock: int, number: int) -> dict:
    """An approval of an export, mostly to an external destination by the first session's user: the call it is for is likely."""
    arguments = well_formed(d, world, "export_case")
    external = [x["id"] for x in world["destinations"] if not x["internal"]]
    if external and d.chance(0.8):
        arguments["destination_id"] = d.pick(external)
    user = world["sessions"][0]["user"] if d.chance(0.7) else d.pick(USERS)
    return {"id": f"ap-{number}", "tool": "export_case" if d.chance(0.9) else "read_case", "arguments": arguments,
            "user": user, "expires_at": max(0, clock + d.pick([-1, 0, 1, 1, 5, 100]))}


def drifted(d: Draw, approval: dict) -> dict:
    """The approval of the laid export, or one that misses it by one thing a loose comparison overlooks (G002.5, G002.7).

    The tool, the user, a field added to the arguments, a letter the
    arguments spell decomposed where the call's is precomposed, or a value of
    another JSON type that reads alike once stringified (a number for a
    string of digits, a list of the one string): each leaves the export
    without an approval.
    """
    roll = d.number(0, 8)
    if roll == 0:
        return {**approval, "tool": "read_case"}
    if roll == 1:
        return {**approval, "user": d.pick([u for u in USERS if u != approval["user"]])}
    if roll == 2:
        return {**approval, "arguments": {**approval["arguments"], d.pick(("purpose", "note")): "audit"}}
    if roll == 3:
        return {**approval, "arguments": {name: unicodedata.normalize("NFD", value) for name, value in approval["arguments"].items()}}
    if roll == 4:
        name = "case_id" if approval["arguments"]["case_id"].isdigit() or d.chance(0.5) else "destination_id"
        value = approval["arguments"][name]
        return {**approval, "arguments": {**approval["arguments"], name: int(value) if value.isdigit() else [value]}}
    return approval


def malformed(d: Draw, world: dict, tool: str) -> object:
    arguments = well_formed(d, world, tool)
    roll = d.number(0, 5)
    if roll == 5:
        return repeated_key(d, world, arguments)
    if roll == 0:
        return d.pick([None, [], "case_id=CASE-1", 1, True, [arguments]])
    if roll == 1:
        return {**arguments, d.pick(FORGED_FIELDS): d.pick(["admin", True, "globex", None])}
    if roll == 2:
        dropped = d.pick(TOOLS[tool].arguments)
        return {k: v for k, v in arguments.items() if k != dropped}
    if roll == 3:
        return {**arguments, d.pick(TOOLS[tool].arguments): d.pick(BAD_VALUES)}
    dropped = d.pick(TOOLS[tool].arguments)  # forged and missing at once: the forgery is what is reported
    return {**{k: v for k, v in arguments.items() if k != dropped}, d.pick(FORGED_FIELDS): "admin"}


def repeated_key(d: Draw, world: dict, arguments: dict) -> dict:
    """The arguments with one key written twice, first with another value: what a reader keeping the first would act on."""
    key = d.pick(sorted(arguments))
    records = [r["id"] for r in world.get("cases" if key == "case_id" else "destinations", ())] or list(NEAR_IDS)
    first = d.pick(records) if d.chance(0.6) else d.pick(TWICE_FIRST)
    twice = RepeatedKeys([(key, first), *arguments.items()])
    if d.chance(0.2):  # nested: the object repeats a key inside a field the tool does not declare, or in a list there
        return {**arguments, d.pick(FORGED_FIELDS): twice if d.chance(0.5) else [d.pick(TWICE_FIRST), twice]}
    return twice


def with_key(d: Draw, step: dict, keys: list[str], probability: float) -> dict:
    """Sometimes an idempotency key, most often one an earlier call carried."""
    if d.chance(probability):
        step["idempotency_key"] = d.pick(keys) if keys and d.chance(0.7) else f"k-{len(keys) + 1}"
        keys.append(step["idempotency_key"])
    return step


def laid_call(d: Draw, world: dict, laid: list[dict], keys: list[str]) -> dict:
    """The first session making an export its world was laid for, or reading that case: allowed unless a change lands before the write."""
    arguments = dict(d.pick(laid))
    tool = "export_case"
    if d.chance(0.15):
        tool, arguments = "read_case", {"case_id": arguments["case_id"]}
    step = with_key(d, {"op": "call", "session": world["sessions"][0]["id"], "tool": tool, "arguments": arguments}, keys, 0.6)
    if d.chance(0.5):  # sometimes two changes: the re-check reports the first condition of its order that fails (G002.1)
        step["before_write"] = d.some(lambda: against(d, world, step), 2, least=1)
    if d.side.random() < 0.15:
        side_recheck(d.side, world, step)
    return step


def call(d: Draw, world: dict, keys: list[str]) -> dict:
    tool = d.pick(["export_case", "export_case", "read_case"])
    roll = d.number(0, 9)
    if roll < 6:
        arguments = well_formed(d, world, tool)
    elif roll < 8:
        arguments = malformed(d, world, tool)
    elif roll < 9 and world.get("approvals"):
        approved = d.pick(world["approvals"])["arguments"]  # an approval's own arguments, reordered or drifted
        arguments = dict(reversed(list(approved.items()))) if d.chance(0.5) else {**approved, "destination_id": d.pick(DESTINATION_IDS)}
    elif d.chance(0.5):
        # An unknown tool is reported before anything its arguments get wrong (G001.13).
        tool, arguments = d.pick(NEAR_TOOLS), (well_formed if d.chance(0.6) else malformed)(d, world, "read_case")
    else:
        arguments = well_formed(d, world, tool)
    step = with_key(d, {"op": "call", "session": d.pick(world["sessions"])["id"], "tool": tool, "arguments": arguments}, keys, 0.35)
    if d.chance(0.2):
        step["before_write"] = d.some(lambda: change(d, world), 2, least=1)
    return step


def session_user(world: dict, sid: str) -> str | None:
    return next((s["user"] for s in world["sessions"] if s["id"] == sid), None)


def gateway_scenario(d: Draw, rules: str, number: int) -> dict:
    w, laid = world(d, rules != "lab-001")
    side_world(d.side, w, laid)
    keys: list[str] = []
    steps = []
    for _ in range(d.number(1, 5)):
        if steps and d.chance(0.25):
            steps.append(change(d, w))
        last = steps[-1] if steps else {}
        if last.get("op") == "call" and d.chance(0.6 if "idempotency_key" in last else 0.2):
            again = dict(last)  # the same call again: a replay (G002.2 when its key is bound), a second count against the limit
            user = session_user(w, last["session"])
            twins = [s["id"] for s in w["sessions"] if s["user"] == user and s["id"] != last["session"]]
            if twins and d.chance(0.3):  # or the same arguments from another session of the same user: another action (G002.3)
                again.update(session=d.pick(twins))
            elif d.chance(0.6):  # or the same key on another action (G002.3 when it is bound)
                again.update(session=d.pick(w["sessions"])["id"], arguments=well_formed(d, w, "export_case"), tool="export_case")
            elif d.chance(0.4):  # or the same action once a condition it passed on is gone: a replay is no way around a revocation
                steps.append(against(d, w, last) if names_stored_records(w, last["arguments"]) else {"op": "revoke_session", "session": last["session"]})
            steps.append(again)
        else:
            step = laid_call(d, w, laid, keys) if laid and d.chance(0.5) else call(d, w, keys)
            side_call(d.side, step)
            steps.append(step)
    if d.side.random() < 0.25:
        steps.extend(record_corners(d.side, w, steps, laid))
    impostor = impostor_call(w, laid)
    if impostor is not None and d.side.random() < 0.6:
        steps.append(impostor)
    if rules != "lab-001" and d.side.random() < 0.2:
        steps.extend(replay_story(d.side, w, steps))
    if "rate_limit" in w and "clock" in w and d.side.random() < 0.15:
        steps.extend(burst(d.side, w, steps))
    document = {"gateproof": 1, "kind": "gateway", "id": f"generated.{rules.replace('+', '.')}.{number}", "rules": rules, "world": w, "steps": steps}
    if rules == DEFAULT_GATEWAY_VERSION and d.chance(0.1):
        del document["rules"]  # a document that names no version is decided under the default (S001.1)
    return document
