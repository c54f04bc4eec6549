"""Validation order and linear work: a world change costs the same whatever the number of records stored.

Work is measured, not time: every world a story passes through is kept, and
tracemalloc counts the bytes they hold beyond the first. A change that copied
its table would keep at least a pointer per stored record (8 bytes each), so
at 1,000 records at least 8,000 bytes a change, ten times that at 10,000;
one that copies a path of the table keeps the same few hundred bytes at
either size. Bytes do not depend on the machine's load.
"""

from __future__ import annotations

import gc
import tracemalloc

import pytest
from attrs import evolve, frozen

from gateproof.conformance.generation.large_worlds import ceiling_changes, gateway_changes
from gateproof.model.gateway.changes import apply_change
from gateproof.model.gateway.scenario import run_gateway_scenario, trace_gateway_scenario
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.story import Story, story_step
from gateproof.model.records import Snippet, World
from gateproof.model.tables import Table


@frozen
class _Record:
    uid: int
    text: str

#: At most this many bytes kept a change: what a copy of a table of 1,000 records alone would keep.
COPY_OF_A_THOUSAND = 8 * 1000


def _kept_bytes(walk) -> int:
    """The bytes held by every value ``walk`` yields, all of them kept alive at once."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        kept = list(walk())
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept
    return after - before


def _gateway_bytes_per_change(records: int, changes: int = 1000) -> float:
    scenario = read_scenario(gateway_changes(records, changes))

    def worlds():  # each change as a call's write applies it, every world after one kept
        world = scenario.world
        for call in scenario.steps:
            for change in call.before_write:
                world = apply_change(world, change)
                yield world

    return _kept_bytes(worlds) / changes


def _ceiling_bytes_per_change(records: int, changes: int = 1000) -> float:
    scenario = read_scenario(ceiling_changes(records, changes))

    def stories():
        story = Story(scenario.world, {})
        for position, step in enumerate(scenario.steps):
            _, story = story_step(story, step, scenario.rules, f"$.steps[{position}]")
            yield story

    return _kept_bytes(stories) / changes


@pytest.mark.rule("S001.1")
@pytest.mark.parametrize("per_change", [_gateway_bytes_per_change, _ceiling_bytes_per_change], ids=["gateway", "ceiling"])
def test_a_world_change_keeps_the_same_few_bytes_in_a_world_ten_times_larger(per_change):
    small, large = per_change(1000), per_change(10_000)
    assert large < COPY_OF_A_THOUSAND and small < COPY_OF_A_THOUSAND, (small, large)
    assert large < 2 * small, (small, large)  # a table copied at each change keeps ten times more


def test_a_table_changed_by_one_record_shares_every_other_record_and_its_positions():
    table = Table.of("uid", tuple(_Record(uid, "stored") for uid in range(10_000)))
    changed = table.replaced(_Record(4321, "changed"))
    assert changed.lookup.positions is table.lookup.positions
    assert changed.lookup[4321].text == "changed" and table.lookup[4321].text == "stored"
    assert [record.text for record in changed].count("changed") == 1 and len(list(changed)) == 10_000 == len(changed.lookup.positions)
    assert all(a is b for a, b in zip(table, changed) if a.uid != 4321)
    assert tuple(changed) == tuple(_Record(uid, "changed" if uid == 4321 else "stored") for uid in range(10_000))
    assert all(changed.lookup[uid] is record for uid, record in zip(range(10_000), changed))


def test_a_table_without_a_record_keeps_the_others_in_their_order():
    table = Table.of("uid", tuple(_Record(uid, "stored") for uid in range(2000)))
    smaller = table.without(7).without(7).without(1999).without(1500)
    kept = [uid for uid in range(2000) if uid not in (7, 1999, 1500)]
    assert [r.uid for r in smaller] == kept and [uid for uid, _ in smaller.lookup.items()] == kept
    assert len(list(smaller)) == 1997 and 7 not in smaller.lookup and smaller.lookup.get(7) is None
    assert [r.uid for r in table] == list(range(2000)) and 7 in table.lookup
    with pytest.raises(KeyError):
        smaller.lookup[1999]
    with pytest.raises(KeyError):
        table.without(2000)  # a key the table was never built with


def test_a_table_is_found_by_position_at_every_level_of_its_tree():
    """One leaf, then many leaves, then many middle nodes: every record found under its key, and walked in storage order."""
    for size in (0, 1, 31, 32, 33, 64, 65, 1023, 1024, 1025, 10_000):
        records = tuple(_Record(uid, f"r{uid}") for uid in range(size))
        table = Table.of("uid", records)
        assert tuple(table) == records and len(table.lookup.positions) == size
        assert all(table.lookup[record.uid] is record for record in records) and size not in table.lookup


def test_a_table_is_built_from_a_list_as_from_a_tuple_and_changed_alike():
    records = [_Record(uid, "stored") for uid in range(100)]
    table = Table.of("uid", records).replaced(_Record(50, "changed"))
    assert [r.text for r in table] == ["changed" if uid == 50 else "stored" for uid in range(100)]


def test_a_table_given_to_a_world_is_taken_as_it_is_and_is_never_rebuilt():
    table = Table.of("uid", (Snippet(1),))
    world = World(collation="CASE_SENSITIVE", snippets=table)
    assert world.snippets is table and world.with_changes(enforcement="observe").snippets is table
    with pytest.raises(TypeError):
        Table.of("uid", table)  # no sequence: never copied whole


def test_a_table_holding_a_key_twice_finds_the_last_record_as_a_dict_would():
    records = (_Record(1, "first"), _Record(2, "other"), _Record(1, "last"))
    table = Table.of("uid", records)
    assert len(list(table)) == 3 and len(table.lookup.positions) == 2
    assert table.lookup[1] is records[2] and table.replaced(_Record(1, "changed")).lookup[1].text == "changed"


def test_a_story_of_changes_ends_in_the_world_a_plain_replay_of_its_changes_gives():
    """What the tables share takes nothing from what they hold: the last world holds the records of tables rebuilt whole at each change."""
    document = gateway_changes(50, 400)
    scenario = read_scenario(document)
    *_, (_, _, last) = trace_gateway_scenario(scenario)
    world = scenario.world
    tables = {name: {record.id: record for record in getattr(world, name)} for name in ("cases", "sessions", "runbooks", "destinations")}
    for step in document["steps"]:
        for change in step["before_write"]:
            op = change["op"]
            if op == "edit_case":
                tables["cases"][change["case_id"]] = evolve(tables["cases"][change["case_id"]], content=change["content"])
            elif op == "reassign_case":
                tables["cases"][change["case_id"]] = evolve(tables["cases"][change["case_id"]], assignees=frozenset(change["assignees"]))
            elif op == "edit_runbook":
                tables["runbooks"][change["runbook_id"]] = evolve(tables["runbooks"][change["runbook_id"]], content=change["content"])
            elif op == "revoke_session":
                tables["sessions"][change["session"]] = evolve(tables["sessions"][change["session"]], valid=False)
            else:
                tables["destinations"].pop(change["destination_id"], None)
    assert {name: tuple(getattr(last.world, name)) for name in tables} == {name: tuple(records.values()) for name, records in tables.items()}
    assert {name: dict(getattr(last.world, name).lookup.items()) for name in tables} == tables
    assert all(getattr(last.world, name).lookup.get(key) == record for name, records in tables.items() for key, record in records.items())
    assert run_scenario(scenario) == run_gateway_scenario(read_scenario(document))
