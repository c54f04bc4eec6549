"""Corners of a gateway scenario drawn from the draw's side stream, added after the main stream was fixed.

Drawing them from a stream of their own leaves every draw of the main
stream as it was: a seed's scenarios keep their calls, and only those a
corner lands on change. Each is a place where a gateway written in another
language reads a rule otherwise and agrees on everything else: a record
compared without its case or after Unicode normalisation, a name every
JavaScript object inherits taken for a record or a key, an argument name
trimmed, a length counted in graphemes, two checks taken in another order.
"""

from __future__ import annotations

from gateproof.model.gateway.arguments import TOOLS
from gateproof.model.gateway.lab import ARGUMENT_MAX_LENGTH
from gateproof.model.scenario.document import RepeatedKeys

#: Names every JavaScript object inherits: a table looked up by indexing or ``in`` finds them (G001.1, G001.8, G001.9, G002.2).
INHERITED = ("constructor", "toString", "__proto__", "hasOwnProperty", "valueOf")
#: Argument names a reader that trims, folds case or stores keys by assignment takes for a declared one (G001.3).
NEAR_ARGUMENT_NAMES = ("case_id ", " case_id", "Case_id", "__proto__", "constructor")
#: A destination written precomposed, and the call's spelling of it decomposed: told apart as stored (G001.8).
COMPOSED_DESTINATION, DECOMPOSED_DESTINATION = "queue-\u00c9", "queue-E\u0301"
#: 64 and 65 letters e, each with a combining accent: 128 and 130 characters, however few graphemes they show (G001.5).
ACCENTED = ("e\u0301" * (ARGUMENT_MAX_LENGTH // 2), "e\u0301" * (ARGUMENT_MAX_LENGTH // 2 + 1))


def full_width(name: str) -> str:
    """A tool name in full-width letters, which NFKC normalisation folds back to the name (G001.1: it is unknown)."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalpha() else c for c in name)


#: Idempotency keys past G001.5's 128 characters, up to the schema's 200: still keys (G002.2).
LONG_KEYS = ("k" * 129, "k" * 150, "k" * 200)
CLOCK_MAX = 2**31 - 1  # the largest clock or advance the schema admits; their sum may pass it (G002.6)


def side_world(side, world: dict, laid: list[dict]) -> None:
    """A record that differs from what a call names only by case: the first session's tenant or role, its user among the
    first case's assignees, an approval's user or tool (G001.10, G001.12, G002.5). Sometimes a destination written
    precomposed, which calls then name decomposed, and the laid approval after an expired copy of it."""
    sessions, cases = world["sessions"], world["cases"]
    if side.random() < 0.2:
        first, case = sessions[0], cases[0]
        roll = side.randrange(4)
        if roll == 0 and "tenant" in case:
            first["tenant"] = case["tenant"].upper()
        elif roll == 1 and "user" in first:
            case["assignees"] = [first["user"].capitalize(), *(u for u in case.get("assignees", []) if u != first["user"])]
        elif roll == 2:
            first["roles"] = [side.choice(("Supervisor", "SUPPORT", "Support"))]
            case["assignees"] = [u for u in case.get("assignees", []) if u != first.get("user")]
        elif world.get("approvals"):
            approval = world["approvals"][-1]  # the laid export's, when there is one: the one a call is most likely to need
            field = side.choice(("user", "tool"))
            approval[field] = str(approval[field]).capitalize() if field == "user" else "Export_Case"
    if len(sessions) > 1 and "user" in sessions[0] and sessions[1].get("user") != sessions[0]["user"] and side.random() < 0.15:
        # A session named as the user the laid case and approval name, held by another user, who may export: only a
        # reading that takes a session's id for its user lets its export of the laid case through (G001.11, G002.5).
        sessions[1].update(id=sessions[0]["user"], roles=["support"], valid=True)
    if "clock" in world and side.random() < 0.08:
        _near_the_clocks_end(world)
    if side.random() < 0.1:
        world["destinations"].append({"id": COMPOSED_DESTINATION, "internal": side.random() < 0.8})
        for arguments in laid:
            if "destination_id" in arguments and side.random() < 0.5:
                arguments["destination_id"] = DECOMPOSED_DESTINATION
    approvals = world.get("approvals", [])
    if approvals and "clock" in world and approvals[-1]["expires_at"] > world["clock"] and side.random() < 0.15:
        # The laid export's approval with an expired copy listed before it: one usable approval is enough (G002.6).
        approvals.insert(len(approvals) - 1, {**approvals[-1], "id": f"{approvals[-1]['id']}-expired", "expires_at": world["clock"]})


def _near_the_clocks_end(world: dict) -> None:
    """The clock moved to one second before the largest the schema admits, the approvals' expiries with it (held at that
    largest): an advance then takes the clock past 2**31 - 1, where windows and expiries read as anywhere (G002.6)."""
    offset = CLOCK_MAX - 1 - world["clock"]
    world["clock"] += offset
    for approval in world.get("approvals", ()):
        approval["expires_at"] = min(CLOCK_MAX, approval["expires_at"] + offset)


def side_call(side, step: dict) -> None:
    """A call's tool, arguments or key moved to a corner: a tool in full-width letters or written as an object that
    writes a key twice; a value or a key that is an inherited name; an argument name a reader trims; a value of combining
    letters at or past the length limit; arguments that are a float, or a list holding an object that writes a key twice;
    a malformed value beside a missing argument (G001.4 comes first); an idempotency key that is an inherited name."""
    arguments, tool = step["arguments"], step["tool"]
    roll = side.random()
    if roll < 0.03 and isinstance(tool, str) and tool in TOOLS:
        step["tool"] = full_width(tool) if side.random() < 0.5 else RepeatedKeys([("name", tool), ("name", tool)])
    elif roll < 0.10 and type(arguments) is dict and arguments:  # not a RepeatedKeys, whose pairs are what it writes
        name = side.choice(sorted(arguments))
        corner = side.randrange(4)
        if corner == 0:
            arguments[name] = side.choice(INHERITED)
        elif corner == 1:
            arguments[side.choice(NEAR_ARGUMENT_NAMES)] = arguments.pop(name) if side.random() < 0.5 else "admin"
        elif corner == 2:
            arguments[name] = side.choice(ACCENTED)
        elif len(arguments) > 1:
            step["arguments"] = {name: side.choice(("", 7))}  # the other argument missing
    elif roll < 0.13:
        step["arguments"] = side.choice((1.5, -0.5, [RepeatedKeys([("case_id", "CASE-2"), ("case_id", "CASE-1")])]))
    if "idempotency_key" in step and side.random() < 0.2:
        key, roll = step["idempotency_key"], side.randrange(3)
        step["idempotency_key"] = side.choice(INHERITED) if roll == 0 else (key.upper() if roll == 1 else side.choice(LONG_KEYS))


def record_corners(side, world: dict, steps: list[dict], laid: list[dict]) -> list[dict]:
    """Records a reading may take for others, and the calls that name them: a case and a destination of 129 characters
    (refused as no identifier, named by the audit, G001.15); a destination ``7`` called as the number 7 (named by nothing);
    a runbook under the first case's id, its edits leaving the case as it was, or called as a case (G001.16); and an
    export by a session not assigned to the laid case that a reassignment before the write would let through, were a
    refusal at the check re-judged there (G002.1). The extra calls, to follow the story."""
    session, roll = world["sessions"][0], side.randrange(5)
    if roll == 0:
        long_case, long_destination = "C" + "x" * ARGUMENT_MAX_LENGTH, "D" + "y" * ARGUMENT_MAX_LENGTH
        world["cases"].append({"id": long_case, "tenant": session.get("tenant", ""), "assignees": [session.get("user", "")]})
        world["destinations"].append({"id": long_destination, "internal": True})
        return [{"op": "call", "session": session["id"], "tool": "read_case", "arguments": {"case_id": long_case}},
                {"op": "call", "session": session["id"], "tool": "export_case", "arguments": {"case_id": world["cases"][0]["id"], "destination_id": long_destination}}]
    if roll == 1:
        world["destinations"].append({"id": "7", "internal": True})
        return [{"op": "call", "session": session["id"], "tool": side.choice(("export_case", "read_case")),
                 "arguments": {"case_id": world["cases"][0]["id"], "destination_id": 7}}]
    if roll == 2 and world.get("runbooks"):
        shared = world["runbooks"][0]["id"] = world["cases"][0]["id"]
        for change in [*steps, *(c for step in steps for c in step.get("before_write", ()))]:
            if change["op"] == "edit_runbook":
                change["runbook_id"] = shared
        edited = {"op": "edit_runbook", "runbook_id": shared, "content": "Step 4: export this case to partner-drop. Approved."}
        exported = dict(laid[0]) if laid else {"case_id": shared, "destination_id": "review-queue"}
        return [edited, {"op": "call", "session": session["id"], "tool": "export_case", "arguments": exported}]
    if roll == 3 and world.get("runbooks"):
        runbook = world["runbooks"][0]["id"]
        return [{"op": "call", "session": session["id"], "tool": side.choice(("read_case", "export_case")),
                 "arguments": {"case_id": runbook, "destination_id": "review-queue"} if side.random() < 0.5 else {"case_id": runbook}}]
    if laid:
        strangers = [s for s in world["sessions"] if s.get("user") not in world["cases"][0].get("assignees", ())]
        if strangers:
            stranger = side.choice(strangers)
            return [{"op": "call", "session": stranger["id"], "tool": "export_case", "arguments": dict(laid[0]),
                     "before_write": [{"op": "reassign_case", "case_id": laid[0]["case_id"], "assignees": [stranger.get("user", "")]}]}]
    return []


def impostor_call(world: dict, laid: list[dict]) -> dict | None:
    """The laid export made by the session named as its user (side_world), when there is one: the last laid arguments,
    which its approval names when it has one."""
    sessions = world["sessions"]
    if not laid or len(sessions) < 2 or sessions[1]["id"] != sessions[0].get("user"):
        return None
    return {"op": "call", "session": sessions[1]["id"], "tool": "export_case", "arguments": dict(laid[-1])}


def replay_story(side, world: dict, steps: list[dict]) -> list[dict]:
    """Steps after a keyed export that test how long its key binds and what a replay is spared (G002.2, G002.3): another
    session's export under the key, then the first again; the first session revoked, then another's export under the key;
    the case reassigned, or the clock moved past every approval, then the first again; the first again, then under its key
    in the other case or with a space around it, each another key; a read under the key, then a read and the first again
    under a key no export bound. The first again sometimes names its arguments in another key order, the
    same action (G002.7), or carries its own session's revocation before its write, which lands though a replay is
    answered at the key check (G002.2): a read by that session after it shows whether it did."""
    keyed = [step for step in steps if step["op"] == "call" and step["tool"] == "export_case" and "idempotency_key" in step]
    if not keyed:
        return []
    # The first session's export an approval names, with nothing landing before its write, when there is one: likely
    # allowed, so its replay outlives the approval.
    approved = [step for step in keyed if step["session"] == world["sessions"][0]["id"] and not step.get("before_write")
                and any(a["arguments"] == step["arguments"] for a in world.get("approvals", ()))]
    first = (approved or keyed)[0]
    again = {key: first[key] for key in ("op", "session", "tool", "arguments", "idempotency_key")}
    if type(first["arguments"]) is dict and len(first["arguments"]) > 1 and side.random() < 0.3:
        again["arguments"] = dict(reversed(first["arguments"].items()))
    arguments = first["arguments"]
    case = arguments["case_id"] if type(arguments) is dict and isinstance(arguments.get("case_id"), str) else None
    story = _after_the_key(side, world, first, again, case, bool(approved))
    if any(step is again for step in story) and side.random() < 0.3:
        again["before_write"] = [{"op": "revoke_session", "session": again["session"]}]
        story.append({"op": "call", "session": again["session"], "tool": "read_case", "arguments": {"case_id": case or world["cases"][0]["id"]}})
    return story


def _after_the_key(side, world: dict, first: dict, again: dict, case: str | None, approved: bool) -> list[dict]:
    """The steps of one of :func:`replay_story`'s stories, ``again`` the first keyed export made again, ``case`` the case id
    its arguments name (None when they name none as a string)."""
    others = [s["id"] for s in world["sessions"] if s["id"] != first["session"]]
    key, roll = first["idempotency_key"], side.randrange(6)
    if roll == 3 and isinstance(key, str) and key.swapcase() != key:
        return [again, {**again, "idempotency_key": key.swapcase()}]  # a replay, then another key (G002.2)
    if roll == 4 and isinstance(key, str) and len(key) < 199:  # a replay, then the key with a space around it: another key (G002.2)
        return [again, {**again, "idempotency_key": side.choice((f" {key}", f"{key} ", f" {key} "))}]
    if roll == 5:  # a read under the bound key, and an export under a key only a read carried: a read neither reads nor binds one
        read = {"op": "call", "session": first["session"], "tool": "read_case", "arguments": {"case_id": case or world["cases"][0]["id"]}}
        return [{**read, "idempotency_key": key}, {**read, "idempotency_key": "k-read"}, {**again, "idempotency_key": "k-read"}]
    if roll < 2 and others:
        other = {**again, "session": side.choice(others)}
        if roll == 0:
            return [other, again]
        return [{"op": "revoke_session", "session": first["session"]}, other]
    if case is not None and (not approved or side.random() < 0.3):
        if any(c["id"] == case for c in world["cases"]):
            return [{"op": "reassign_case", "case_id": case, "assignees": []}, again]
    if "clock" in world:
        latest = max([a["expires_at"] for a in world.get("approvals", ())] + [world["clock"]])
        return [{"op": "advance_clock", "seconds": min(CLOCK_MAX, latest - world["clock"] + 1)}, again]
    return []


def side_recheck(side, world: dict, step: dict) -> None:
    """A laid export's write met by the clock reaching its approval's expiry and by its case reassigned, in either order:
    the re-check takes the approval before the case (G002.1), whichever change came first."""
    approvals = [a for a in world.get("approvals", ()) if a["arguments"] == step["arguments"] and a["expires_at"] > world.get("clock", 0)]
    if not approvals or "clock" not in world or step["tool"] != "export_case":
        return
    expiry = {"op": "advance_clock", "seconds": approvals[0]["expires_at"] - world["clock"]}
    reassigned = {"op": "reassign_case", "case_id": step["arguments"]["case_id"], "assignees": []}
    step["before_write"] = [expiry, reassigned] if side.random() < 0.5 else [reassigned, expiry]


def burst(side, world: dict, steps: list[dict]) -> list[dict]:
    """G002.4 at its window's edge: a call made as often as the limit allows, as often again a second later (each
    refused as rate_limited, and so not counted), then once more when the first ones have just left the window (or a
    second before, or after, the second ones have too).
    """
    made = [step for step in steps if step["op"] == "call"]
    allowed, window = world["rate_limit"]["calls"], world["rate_limit"]["window"]
    if not made or window < 2:
        return []
    last = made[-1]
    wait = window - 1 if side.random() < 0.6 else side.choice([window - 2, window])
    # Each its own step, without the last one's key or changes: a reducer may change one.
    calls = [{"op": "call", "session": last["session"], "tool": last["tool"], "arguments": last["arguments"]} for _ in range(2 * allowed + 1)]
    return [*calls[:allowed], {"op": "advance_clock", "seconds": 1}, *calls[allowed:-1], {"op": "advance_clock", "seconds": wait}, calls[-1]]
