"""Stories of many world changes over a large world: what shows whether a change costs more as the world grows.

``make bench`` times them on 1,000 and 10,000 stored records; the suite
measures what each change keeps in memory on the same stories.
"""

from __future__ import annotations

#: Changes a gateway call may carry between its check and its write (the schema's ``before_write`` maxItems).
CHANGES_PER_CALL = 100


def gateway_changes(records: int, changes: int) -> dict:
    """A gateway story over ``records`` cases: ``changes`` world changes, a hundred before each call's write.

    The changes go round every kind that names a record: a case edited and
    reassigned, a runbook edited, a session revoked and a destination
    removed; sessions, destinations and runbooks number ``records`` too, up
    to the schema's 1,000.
    """
    others = min(records, 1000)  # the schema's limit for the other tables
    kinds = (
        lambda i: {"op": "edit_case", "case_id": f"CASE-{i % records}", "content": f"edit {i}"},
        lambda i: {"op": "reassign_case", "case_id": f"CASE-{i % records}", "assignees": ["ana", f"user-{i}"]},
        lambda i: {"op": "edit_runbook", "runbook_id": f"RB-{i % others}", "content": f"edit {i}"},
        lambda i: {"op": "revoke_session", "session": f"s-{1 + i % (others - 1)}"},
        lambda i: {"op": "remove_destination", "destination_id": f"D-{i % others}"},
    )
    edits = [kinds[i % len(kinds)](i) for i in range(changes)]
    steps = [
        {"op": "call", "session": "s-0", "tool": "read_case", "arguments": {"case_id": "CASE-0"}, "before_write": edits[start:start + CHANGES_PER_CALL]}
        for start in range(0, changes, CHANGES_PER_CALL)
    ]
    world = {
        "sessions": [{"id": f"s-{i}", "user": "ana" if i == 0 else f"user-{i}", "tenant": "acme", "roles": ["support"]} for i in range(others)],
        "cases": [{"id": f"CASE-{i}", "tenant": "acme", "assignees": ["ana"], "content": "stored"} for i in range(records)],
        "destinations": [{"id": f"D-{i}", "internal": True} for i in range(others)],
        "runbooks": [{"id": f"RB-{i}", "content": "stored"} for i in range(others)],
    }
    return {"gateproof": 1, "kind": "gateway", "id": f"changes/{records}", "world": world, "steps": steps}


def ceiling_changes(records: int, changes: int) -> dict:
    """A ceiling story over ``records`` snippets and as many skills: ``changes`` updates and deletes, one a step."""
    kinds = (
        lambda i: {"op": "update", "kind": "snippet", "uid": 1 + i % records, "set": {"text": f"edit {i}", "data_class": "sourceCode"}},
        lambda i: {"op": "update", "kind": "skill", "uid": 1 + i % records, "set": {"enabled": False}},
        lambda i: {"op": "delete", "kind": "snippet", "uid": 1 + (i * 7) % records},
        lambda i: {"op": "update", "kind": "configuration", "identifier": "c", "set": {"system_prompt": f"edit {i}"}},
    )
    world = {
        "providers": [{"identifier": "p", "zone": "local"}],
        "models": [{"identifier": "m", "provider": "p"}],
        "configurations": [{"identifier": "c", "model": "m"}],
        "snippets": [{"uid": uid, "identifier": f"s{uid}", "text": "stored", "tags": "ops"} for uid in range(1, records + 1)],
        "skills": [{"uid": uid, "name": f"k{uid}", "text": "stored"} for uid in range(1, records + 1)],
    }
    steps = [kinds[i % len(kinds)](i) for i in range(changes)]
    return {"gateproof": 1, "id": f"changes/{records}", "world": world, "steps": steps}
