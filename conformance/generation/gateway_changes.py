"""The world changes a gateway story makes between calls, and those that land between a call's check and its write.

``change`` is any change an operator might make; ``against`` takes away a
condition a given call passed on, so the re-check at the write (G002.1) and
a replay after it (G002.2) meet the state that no longer holds.
"""

from __future__ import annotations

from .draw import Draw
from .gateway_pools import CANARY, INJECTIONS, USERS


def change(d: Draw, world: dict) -> dict:
    roll = d.number(0, 6)
    if roll == 0 or not world["cases"]:
        return {"op": "revoke_session", "session": d.pick(world["sessions"])["id"]}
    if roll == 1 and world["destinations"]:
        return {"op": "remove_destination", "destination_id": d.pick(world["destinations"])["id"]}
    if roll == 2:
        return {"op": "edit_case", "case_id": d.pick(world["cases"])["id"], "content": f"{d.pick(INJECTIONS)} {CANARY}"}
    if roll == 3 and world.get("runbooks"):
        return {"op": "edit_runbook", "runbook_id": "rb-1", "content": d.pick(INJECTIONS)}
    if roll >= 4 and "clock" in world:
        window = world.get("rate_limit", {}).get("window", 1)
        return {"op": "advance_clock", "seconds": d.pick([0, 1, window - 1, window, window + 1])}
    return {"op": "reassign_case", "case_id": d.pick(world["cases"])["id"], "assignees": d.subset(USERS, 2)}


def against(d: Draw, world: dict, call: dict) -> dict:
    """A change that takes away a condition the call passed on: its session, its assignment, its destination, its approval's time."""
    arguments, session = call["arguments"], world["sessions"][0]
    roll = d.number(0, 5)
    if "clock" in world and d.chance(0.3):
        # The clock moved to one second before, or onto, the expiry of an approval naming the call: it is usable at the check, not always at the write.
        to_expiry = [a["expires_at"] - world["clock"] for a in world.get("approvals", ()) if a["arguments"] == arguments]
        return {"op": "advance_clock", "seconds": d.pick([1, *(step for left in to_expiry for step in (left - 1, left) if step >= 0)])}
    if roll <= 1:  # twice as likely: the session is the first thing the re-check at the write reads (G002.1)
        return {"op": "revoke_session", "session": call["session"]}
    if roll == 2:
        return {"op": "reassign_case", "case_id": arguments["case_id"], "assignees": d.subset([u for u in USERS if u != session["user"]], 2)}
    if roll == 3 and arguments.get("destination_id") in {x["id"] for x in world["destinations"]}:
        return {"op": "remove_destination", "destination_id": arguments["destination_id"]}
    if roll == 4 and "clock" in world:
        return {"op": "advance_clock", "seconds": d.pick([1, 5, 100])}
    return {"op": "edit_case", "case_id": arguments["case_id"], "content": f"{d.pick(INJECTIONS)} {CANARY}"}


def names_stored_records(world: dict, arguments: object) -> bool:
    """Whether a call's arguments name a stored case and, if any, a configured destination: what :func:`against` changes."""
    if not isinstance(arguments, dict):
        return False
    stored = {"case_id": {c["id"] for c in world["cases"]}, "destination_id": {x["id"] for x in world["destinations"]}}
    return "case_id" in arguments and all(isinstance(value, str) and value in stored.get(name, ()) for name, value in arguments.items())
