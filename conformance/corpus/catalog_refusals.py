"""Gateway documents under a catalog that no reader may decide: the catalog, or the world its record kinds describe, is wrong (S001.9, S003).

Each is one small catalog of the team's own names, written here so the
refusal corpus holds it whole, and a world that breaks it at one field.
"""

from __future__ import annotations

import copy

#: A ticketing gateway of one retrieval tool: tickets kept under ``tickets`` with their ``organization`` and ``agents``.
CATALOG = {
    "catalog": 1, "id": "helpdesk",
    "record_kinds": [{"name": "ticket", "tenant": "organization", "assignees": "agents"}],
    "tools": [{"name": "read_ticket", "effect": "retrieval", "roles": ["agent"],
               "arguments": [{"name": "ticket_id", "type": "identifier", "max_length": 40}],
               "record": {"argument": "ticket_id", "kind": "ticket"}}],
}
TICKET = {"id": "T-1", "organization": "acme", "agents": ["ana"], "content": "printer jam"}


def under_catalog(catalog: dict | None = None, **world) -> dict:
    """A call of ``read_ticket`` under the catalog (the helpdesk's unless given), in a world with ``world``'s tables."""
    return {"gateproof": 1, "kind": "gateway", "id": "refusal", "catalog": catalog or CATALOG,
            "world": {"sessions": [{"id": "s", "user": "ana", "tenant": "acme", "roles": ["agent"]}], "tickets": [TICKET], **world},
            "steps": [{"op": "call", "session": "s", "tool": "read_ticket", "arguments": {"ticket_id": "T-1"}}]}


def catalog_refusals(doc, ceiling_document: dict) -> list:
    """(id, rules, description, document) of each refusal of a document under a catalog, and of a trust-ceiling one that names a catalog."""
    empty_roles = copy.deepcopy(CATALOG)
    empty_roles["tools"][0]["roles"] = []
    return [
        ("refusal.S001.1.catalog-on-a-ceiling-scenario", ["S001.1"], "A trust-ceiling scenario naming a catalog, a field of gateway scenarios alone.",
         doc({**ceiling_document, "catalog": CATALOG})),
        ("refusal.S001.9.catalog-invalid", ["S001.9", "S003.1"], "A catalog whose tool lists no role: refused at its field under $.catalog.",
         doc(under_catalog(empty_roles))),
        ("refusal.S001.9.world-key-not-a-kind", ["S001.9"], "Records under a key no kind of the catalog is stored as (the lab's cases).",
         doc(under_catalog(cases=[{"id": "CASE-1", "tenant": "acme"}]))),
        ("refusal.S001.9.world-key-not-a-name", ["S001.9"], "A world key that cannot name a collection: refused as that field.",
         doc(under_catalog(**{"open tickets": []}))),
        ("refusal.S001.9.record-unknown-field", ["S001.9"], "A ticket holding the lab's tenant field, which this kind does not name.",
         doc(under_catalog(tickets=[{**TICKET, "tenant": "acme"}]))),
        ("refusal.S001.9.record-no-tenant", ["S001.9"], "A ticket without its organization.",
         doc(under_catalog(tickets=[{"id": "T-1", "agents": ["ana"]}]))),
        ("refusal.S001.9.record-assignees-not-a-list", ["S001.9"], "A ticket whose agents are one string, not a list.",
         doc(under_catalog(tickets=[{**TICKET, "agents": "ana"}]))),
        ("refusal.S001.9.record-content-not-text", ["S001.9"], "A ticket whose content is a number.",
         doc(under_catalog(tickets=[{**TICKET, "content": 7}]))),
        ("refusal.S001.9.valid-under-its-catalog", ["S001.9"], "The same world as its catalog describes it: read and decided.",
         doc(under_catalog())),
    ]
