"""Documents only Python can build, for S001.12: a valid scenario with one value JSON text cannot carry, and a few it can.

No JSON file can hold a tuple, a set, NaN, a key that is not a string or a
value that holds itself, so these are built here rather than stored: the
refusals a person meets handing ``read_scenario`` or ``run_scenario`` such a
document. The mutation drivers answer each as the pristine model does, and
``tests/test_python_documents.py`` states what each must be refused with.
"""

from __future__ import annotations

import copy
import decimal
import math

from gateproof.model.scenario.document import MAX_DEPTH, RepeatedKeys

GATEWAY = {
    "gateproof": 1, "kind": "gateway", "id": "probe",
    "world": {"sessions": [{"id": "s", "user": "ana", "tenant": "acme", "roles": ["support"]}],
              "cases": [{"id": "CASE-9", "tenant": "acme", "assignees": ["ana"]}]},
    "steps": [{"op": "call", "session": "s", "tool": "read_case", "arguments": {"case_id": "CASE-9"}}],
}
CEILING = {
    "gateproof": 1, "id": "probe",
    "world": {"providers": [{"identifier": "p", "zone": "local"}], "models": [{"identifier": "m", "provider": "p"}],
              "configurations": [{"identifier": "c", "model": "m"}]},
    "steps": [{"op": "send", "configuration": "c", "be_user": 7}],
}


def nested(levels: int) -> list:
    """A list nested ``levels`` deep, itself the first."""
    value: list = []
    for _ in range(levels - 1):
        value = [value]
    return value


def holding_itself() -> dict:
    value: dict = {}
    value["again"] = value
    return value


def planted(document: dict, path: list, value) -> dict:
    """A copy of ``document`` with ``value`` at ``path`` (a key that is not there yet is added)."""
    document = copy.deepcopy(document)
    inner = document
    for key in path[:-1]:
        inner = inner[key]
    inner[path[-1]] = value
    return document


def python_value_documents() -> list[tuple[str, object]]:
    """(id, document) for every case, refused or read, in a fixed order."""
    arguments = ["steps", 0, "arguments", "case_id"]
    return [
        ("set", planted(GATEWAY, ["world", "sessions", 0, "roles"], {"support"})),
        ("frozenset", planted(GATEWAY, ["world", "sessions", 0, "roles"], frozenset())),
        ("tuple-steps", planted(GATEWAY, ["steps"], tuple(GATEWAY["steps"]))),
        ("tuple-value", planted(GATEWAY, arguments, ("CASE-9",))),
        ("nan", planted(GATEWAY, arguments, math.nan)),
        ("minus-infinity", planted(CEILING, ["steps", 0, "be_user"], -math.inf)),
        ("infinity", planted(CEILING, ["world", "enforcement"], math.inf)),
        ("int-key", planted(GATEWAY, ["world", 1], "x")),
        ("tuple-key", planted(GATEWAY, ["steps", 0, "arguments"], {("case_id",): "CASE-9"})),
        ("surrogate", planted(GATEWAY, arguments, "CASE-\ud800")),
        ("bytes", planted(GATEWAY, arguments, b"CASE-9")),
        ("decimal", planted(CEILING, ["steps", 0, "be_user"], decimal.Decimal("7"))),
        ("complex", planted(CEILING, ["steps", 0, "be_user"], 1j)),
        # Before the value holding itself: a walk without its depth limit is told apart here, where it ends, not there, where it never does.
        ("deep-5000", planted(CEILING, ["world", "providers", 0, "zone"], nested(5000))),
        ("holding-itself", planted(GATEWAY, arguments, holding_itself())),
        ("repeated-key", planted(GATEWAY, ["world"], RepeatedKeys([("sessions", []), *GATEWAY["world"].items()]))),
        ("integer-over-schema", planted(GATEWAY, ["world", "clock"], 10**30)),
        ("tuple-document", (GATEWAY["steps"][0],)),
        # Read, not refused: what JSON text can say, built in Python.
        ("non-ascii", planted(GATEWAY, arguments, "CASE-\u00e9")),
        ("integer-past-64-bits", planted(CEILING, ["steps", 0, "be_user"], 2**70)),
        # orjson cannot write the integer, so every value is walked: the text beside it is judged there.
        ("non-ascii-beside-an-integer-past-64-bits", planted(planted(CEILING, ["steps", 0, "be_user"], 2**70), ["world", "providers", 0, "identifier"], "p\u00e9")),
        ("integral-float", planted(CEILING, ["steps", 0, "be_user"], 7.0)),
        ("at-the-depth-limit", planted(CEILING, ["world", "enforcement"], nested(MAX_DEPTH - 2))),
        ("past-the-depth-limit", planted(CEILING, ["world", "enforcement"], nested(MAX_DEPTH - 1))),
        ("many-brackets-shallow", planted(CEILING, ["world", "enforcement"], [[]] * (MAX_DEPTH + 1))),
        ("repeated-key-in-a-proposal", planted(GATEWAY, ["steps", 0, "arguments"], RepeatedKeys([("case_id", "CASE-9"), ("case_id", "CASE-9")]))),
        ("surrogate-then-tuple", planted(planted(GATEWAY, ["world", "sessions", 0, "user"], "\udfff"), arguments, ("x",))),
    ]
