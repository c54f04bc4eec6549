"""Worlds whose tables hold more records than one node of the model's tree: records found, walked, changed and removed far into them.

A table of the model is a tree of nodes of 32 (``gateproof.model.tables``);
in a world of a few records a table is one leaf, and a fault in finding the
leaf of a record, or in copying the path to it at a change, never shows. Each
case here holds tables of 40 to 100 records and names, changes or removes
records beyond the first leaf, then reads their neighbours again; every
record is told apart by what an outcome carries (a snippet's identifier, a
model's or provider's name in the audit, a case's content and tenant, a
session's user). An implementation that keeps its records otherwise is held
to the same outcomes.
"""

from __future__ import annotations

from .cases import case, send, snippet, world
from .lab_world import LAB_WORLD, call
from .lab_world import case as gateway_case

#: Classes the snippets cycle through: a forced or tagged one that is found in the wrong place declares another class.
CLASSES = ("sourceCode", "secretAdjacent", "editorContent", "systemDiagnostics", None, "internalConfiguration", "publicContent")
#: Zones the providers cycle through: none of them may receive secretAdjacent, so every send forcing it is refused and audited.
ZONES = ("externalEu", "externalGlobal", "privateHosted")
SNIPPETS, CONFIGURATIONS = 70, 36
SECRET = 1  # the uid of a secretAdjacent snippet: forcing it refuses the send, naming the model and provider in the audit


def _ceiling_world() -> dict:
    """Thirty-six providers, models and configurations (``c0`` on ``m0`` on ``p0``, ..) and seventy snippets, every sixth tagged ``ops``."""
    return world(
        zone="externalEu",
        configuration={"snippet_tags": "ops", "fallbacks": ["c31"]},
        providers=[{"identifier": f"p{i}", "zone": ZONES[i % len(ZONES)]} for i in range(CONFIGURATIONS)],
        models=[{"identifier": f"m{i}", "provider": f"p{i}"} for i in range(CONFIGURATIONS)],
        configurations=[{"identifier": f"c{i}", "model": f"m{i}"} for i in range(CONFIGURATIONS)],
        snippets=[snippet(uid, CLASSES[uid % len(CLASSES)], **({"tags": "ops"} if uid % 6 == 0 else {})) for uid in range(1, SNIPPETS + 1)],
    )


def _sends(*configurations: str) -> list[dict]:
    return [send(configuration=name, forced_snippets=[SECRET]) for name in configurations]


def ceiling_cases() -> list[dict]:
    readout = {"op": "readout", "configuration": "c", "forced_snippets": [69, 40, 66, 33, 1]}
    return [
        case("ceiling.large-tables.records-found-walked-changed-and-removed",
             "Seventy snippets and thirty-six providers, models and configurations: snippets forced from far into the table and "
             "selected by tag across all of it, sends through configurations far into theirs, then snippets and a configuration "
             "updated, a snippet deleted and a provider removed far into their tables, and every neighbour read again.",
             ["C166.1", "C144.4", "C094.7", "C094.10"],
             _ceiling_world(),
             [
                 readout,
                 *_sends("c32", "c33", "c34"),
                 {"op": "update", "kind": "snippet", "uid": 67, "set": {"data_class": "secretAdjacent", "tags": "ops"}},
                 {"op": "update", "kind": "snippet", "uid": 42, "set": {"tags": ""}},
                 {"op": "delete", "kind": "snippet", "uid": 60},
                 {"op": "update", "kind": "configuration", "identifier": "c34", "set": {"model": "m1"}},
                 {"op": "delete", "kind": "provider", "identifier": "p33"},
                 dict(readout, forced_snippets=[67, 60, 59, 61, 69]),
                 *_sends("c32", "c33", "c34", "c35", "c"),
             ]),
    ]


AGENTS, CASES, QUEUES = 36, 50, 36


def _agent(i: int) -> str:
    return f"agent-{i}"


def _user(i: int) -> str:
    return f"user-{i}"


def _gateway_world() -> dict:
    """The lab's records, then 36 support agents, 50 cases (case 100 + i assigned to agent i mod 36, every third in globex) and 36 queues, every fourth external."""
    return {
        "sessions": LAB_WORLD["sessions"] + [
            {"id": _agent(i), "user": _user(i), "tenant": "acme", "roles": ["support"]} for i in range(AGENTS)
        ],
        "cases": LAB_WORLD["cases"] + [
            {"id": f"CASE-{100 + i}", "tenant": "globex" if i % 3 == 2 else "acme", "assignees": [_user(i % AGENTS)], "content": f"notes of case {100 + i}"}
            for i in range(CASES)
        ],
        "destinations": LAB_WORLD["destinations"] + [{"id": f"queue-{i}", "internal": i % 4 != 3} for i in range(QUEUES)],
    }


def _export(agent: int, case_number: int, queue: int, **extra) -> dict:
    return call("export_case", {"case_id": f"CASE-{case_number}", "destination_id": f"queue-{queue}"}, session=_agent(agent), **extra)


def gateway_cases() -> list[dict]:
    return [
        gateway_case(
            "gw.large-tables.records-found-changed-and-removed",
            "Forty-one sessions, fifty-two cases and thirty-eight destinations: exports and reads of records far into each table, "
            "then a case edited and another reassigned, a session revoked and a destination removed between the check and the write, "
            "and their neighbours used again.",
            ["G001.14", "G002.1", "G001.10", "G001.11"],
            [
                _export(31, 131, 33),
                _export(32, 132, 34),  # a globex case: refused across tenants
                call("read_case", {"case_id": "CASE-140"}, session=_agent(4)),
                _export(5, 133, 33),  # another agent's case
                _export(34, 134, 32, before_write=[{"op": "edit_case", "case_id": "CASE-134", "content": "edited far in the table"}]),
                _export(1, 137, 30, before_write=[{"op": "reassign_case", "case_id": "CASE-137", "assignees": [_user(2)]}]),
                _export(2, 137, 30),
                _export(6, 142, 33, before_write=[{"op": "remove_destination", "destination_id": "queue-33"}]),
                _export(6, 142, 34),
                _export(6, 142, 32),
                _export(7, 143, 29, before_write=[{"op": "revoke_session", "session": _agent(7)}]),
                _export(9, 145, 29),
                _export(34, 134, 30),
            ],
            "lab-001+next",
            **_gateway_world(),
        ),
    ]
