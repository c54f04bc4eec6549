"""Sections L and N: which uids each path reads, and which lookup it resolves them with."""

import pytest

from gateproof.model.scenario import ScenarioError
from gateproof.model.uids import read_queued_uids, read_request_uids, read_suspended_uids
from stories import dequeue, queue, results, resume, skill, snippet, suspend, switch_off, world

# A local zone permits everything, so the decision names the strictest forced source.
DIAGNOSTICS = world(snippets=[snippet(12, "systemDiagnostics")])


@pytest.mark.rule("C164.6")
def test_the_playground_keeps_numeric_entries_above_zero():
    assert read_request_uids([12, "12", " 3 ", "1.9e0", 0, -4, "x", None, True, 2.7], False) == (12, 12, 3, 1, 2)
    with pytest.raises(ScenarioError, match=r"^\$\.steps\[0\]\.forced_snippets: expected array, got string$"):
        results("adr-179", DIAGNOSTICS, [{"op": "send", "configuration": "c", "forced_snippets": "12"}])  # never a list to read


@pytest.mark.rule("C164.6")
def test_a_playground_send_resolves_a_digit_string():
    [sent] = results("adr-179", DIAGNOSTICS, [{"op": "send", "configuration": "c", "forced_snippets": ["12"]}])
    assert sent["source"] == 'snippet "s12"'


@pytest.mark.rule("C175.4")
def test_a_queued_payload_keeps_positive_integers_only():
    assert read_queued_uids([12, "12", 0, -1, 1.0, True, None], numbers_decoded=False) == (12,)


@pytest.mark.rule("C175.4")
def test_under_nr_llm_a_queued_integer_past_64_bits_is_the_float_json_decode_makes_and_is_dropped():
    assert read_queued_uids([2**63, 2**63 - 1, 12], numbers_decoded=True) == (2**63 - 1, 12)
    assert read_queued_uids([2**63, 2**63 - 1, 12], numbers_decoded=False) == (2**63, 2**63 - 1, 12)
    _, started = results("adr-179", DIAGNOSTICS, [queue(snippets=["12"]), dequeue()])
    assert started["decision"] == "undeclared" and started["forced_snippets"] == []


@pytest.mark.rule("C165.2")
def test_a_suspended_state_keeps_integers_and_digit_strings():
    assert read_suspended_uids([3, "12", "0", "-3", "nine", "+5", "1.0", None, 2.0, [4], 3], False) == (3, 12, 3)
    assert read_suspended_uids(None, False) == ()
    state = {"forced_snippet_uids": ["12", "+12"], "forced_skill_uids": []}
    *_, resumed = results("adr-179", DIAGNOSTICS, [queue(), dequeue(), suspend(state=state), resume()])
    assert resumed["forced_snippets"] == [12] and resumed["source"] == 'snippet "s12"'


@pytest.mark.rule("C175.2")
def test_a_dequeue_resolves_enabled_only_so_a_source_switched_off_while_queued_is_gone():
    stored = world(snippets=[snippet(1)], skills=[skill(2)])
    steps = [queue(snippets=[1], skills=[2]), switch_off("snippet", 1), switch_off("skill", 2), dequeue()]
    under_166 = results("adr-166", stored, steps)[-1]
    under_175 = results("adr-175", stored, steps)[-1]
    # ADR-175's own story: the snippet is gone, the identical skill survives under 166.
    assert (under_166["forced_snippets"], under_166["forced_skills"]) == ([], [2])
    assert under_166["source"] == 'skill "k2"'
    assert (under_175["forced_snippets"], under_175["forced_skills"]) == ([], [])
    assert under_175["decision"] == "undeclared"


@pytest.mark.rule("C175.2")
def test_the_playground_resolves_skills_enabled_only_from_175():
    stored = world(skills=[skill(2, enabled=False)])
    send = {"op": "send", "configuration": "c", "forced_skills": [2]}
    assert results("adr-166", stored, [send])[0]["source"] == 'skill "k2"'
    assert results("adr-175", stored, [send])[0]["decision"] == "undeclared"


@pytest.mark.rule("C175.5")
def test_a_dry_run_is_asked_for_only_by_a_strict_true():
    for raw, gated in ((True, False), ("true", True), (1, True), (False, True)):
        _, started = results("adr-179", DIAGNOSTICS, [queue(snippets=[12], dry_run=raw), dequeue()])
        assert (started["decision"] != "dry_run") is gated


@pytest.mark.rule("C164.5")
def test_a_dry_run_dequeue_is_not_gated_and_ends_the_run():
    outcome = results("adr-179", DIAGNOSTICS, [queue(snippets=[12], dry_run=True), dequeue(), suspend()])
    assert outcome[1]["decision"] == "dry_run" and outcome[1]["sent"] is False
    assert outcome[2] == {"op": "suspend", "run": "r1", "ended": "dry run"}


@pytest.mark.rule("C175.5")
def test_a_configuration_deleted_while_queued_is_reported_gone():
    steps = [queue(snippets=[12]), {"op": "delete", "kind": "configuration", "identifier": "c"}, dequeue(), suspend()]
    outcome = results("adr-179", DIAGNOSTICS, steps)
    assert outcome[2] == {"op": "dequeue", "run": "r1", "ended": "gone"}
    assert outcome[3] == {"op": "suspend", "run": "r1", "ended": "gone"}


@pytest.mark.rule("C164.1")
def test_before_164_a_forced_source_is_not_gated_on_any_path():
    steps = [queue(snippets=[12]), dequeue(), suspend(), resume()]
    outcome = results("pre-164", world(snippets=[snippet(12, "secretAdjacent")], zone="externalGlobal"), steps)
    assert [r["decision"] for r in outcome if "decision" in r] == ["undeclared", "undeclared"]
    assert outcome[1]["forced_snippets"] == [12]


@pytest.mark.rule("C164.1")
def test_from_164_the_dequeued_forced_source_binds():
    _, started = results("adr-164", world(snippets=[snippet(12, "secretAdjacent")], zone="externalGlobal"), [queue(snippets=[12]), dequeue()])
    assert started["decision"] == "refused" and started["source"] == 'snippet "s12"'
