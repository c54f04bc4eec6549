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

from gateproof.model.gateway.arguments import ARGUMENT_MAX_LENGTH, TOOLS
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


def side_world(side, world: dict, laid: list[dict]) -> None:
    """A record that differs from what a call names only by case: the first session's tenant or role, its user among the
    first case's assignees, an approval's user or tool (G001.10, G001.12, G002.5). Sometimes a destination written
    precomposed, which calls then name decomposed."""
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
    if side.random() < 0.1:
        world["destinations"].append({"id": COMPOSED_DESTINATION, "internal": side.random() < 0.8})
        for arguments in laid:
            if "destination_id" in arguments and side.random() < 0.5:
                arguments["destination_id"] = DECOMPOSED_DESTINATION


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
    if "idempotency_key" in step and side.random() < 0.1:
        step["idempotency_key"] = side.choice(INHERITED)


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
