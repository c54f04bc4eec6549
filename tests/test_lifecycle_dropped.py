"""Section P: the record of forced sources that did not arrive (ADR-179)."""

import pytest

from gateproof.model.dropped import DroppedSource, dropped_sources
from gateproof.model.scenario import read_scenario
from stories import dequeue, document, queue, results, resume, skill, snippet, suspend, switch_off, world

STORED = world(
    snippets=[snippet(1), snippet(2, active=False), snippet(3, deleted=True), snippet(4, hidden=True)],
    skills=[skill(5, enabled=False), skill(6)],
)


@pytest.mark.rule("C179.1")
def test_each_missing_uid_is_reported_with_its_reason_skills_first_once_per_occurrence():
    _, started = results("adr-179", STORED, [queue(snippets=[1, 2, 3, 9, 2, 4], skills=[6, 5]), dequeue()])
    assert started["dropped"] == [
        {"kind": "skill", "uid": 5, "reason": "deactivated"},
        {"kind": "snippet", "uid": 2, "reason": "deactivated"},
        {"kind": "snippet", "uid": 3, "reason": "gone"},
        {"kind": "snippet", "uid": 9, "reason": "gone"},
        {"kind": "snippet", "uid": 2, "reason": "deactivated"},
    ]


@pytest.mark.rule("C179.1")
def test_the_record_reads_as_the_run_trace_shows_it():
    world_now = read_scenario(document("adr-179", STORED, [queue(), dequeue()])).world
    [entry] = dropped_sources(world_now, (), (), (5,), ())
    assert entry == DroppedSource("skill", 5, "deactivated") and entry.label() == "skill#5 deactivated"


@pytest.mark.rule("C179.1")
def test_nothing_arrived_missing_means_no_record():
    _, started = results("adr-179", STORED, [queue(snippets=[1, 4], skills=[6]), dequeue()])
    assert "dropped" not in started


@pytest.mark.rule("C179.2")
def test_a_dropped_source_is_never_a_refusal():
    stored = world(snippets=[snippet(1, "secretAdjacent", active=False)], zone="externalGlobal")
    _, started = results("adr-179", stored, [queue(snippets=[1]), dequeue()])
    assert started["decision"] == "undeclared" and started["sent"] and started["dropped"][0]["reason"] == "deactivated"


@pytest.mark.rule("C179.2")
def test_a_resume_never_records_dropped_sources():
    steps = [queue(snippets=[1]), dequeue(), suspend(), {"op": "delete", "kind": "snippet", "uid": 1}, resume()]
    assert "dropped" not in results("adr-179", STORED, steps)[-1]


@pytest.mark.rule("C179.2")
def test_the_playground_records_them_by_the_adr_and_not_in_the_code():
    send = {"op": "send", "configuration": "c", "forced_snippets": [2]}
    assert results("adr-179", STORED, [send])[0]["dropped"] == [{"kind": "snippet", "uid": 2, "reason": "deactivated"}]
    assert "dropped" not in results("nr-llm", STORED, [send])[0]
    assert "dropped" in results("nr-llm", STORED, [queue(snippets=[2]), dequeue()])[1]


@pytest.mark.rule("C179.2")
def test_before_179_nothing_is_recorded_and_the_same_sources_enter():
    steps = [queue(snippets=[1, 2], skills=[5]), switch_off("snippet", 1), dequeue()]
    before, after = (results(rules, STORED, steps)[-1] for rules in ("adr-175", "adr-179"))
    assert "dropped" not in before
    assert {k: v for k, v in after.items() if k != "dropped"} == before
