"""Sections L and O: what a suspend persists and what a resume re-gates."""

import pytest

from gateproof.model.lifecycle import NO_FORCED_SET, takes_configuration_only_path
from stories import dequeue, queue, repoint, results, resume, skill, snippet, suspend, switch_off, world

RUN = [queue(snippets=[1]), dequeue(), suspend()]


@pytest.mark.rule("C165.1")
def test_a_suspend_persists_the_uids_the_run_is_running_with():
    stored = world(snippets=[snippet(1), snippet(2, active=False)], skills=[skill(3)])
    outcome = results("adr-165", stored, [queue(snippets=[2, 1, 1], skills=[3, 9]), dequeue(), suspend(reason="input")])
    assert outcome[2]["state"] == {"forced_snippet_uids": [1, 1], "forced_skill_uids": [3]}


@pytest.mark.rule("C165.1", "C164.7")
def test_before_165_the_state_holds_no_forced_set_and_resume_is_not_regated():
    stored = world(snippets=[snippet(1, "secretAdjacent")])
    outcome = results("adr-164", stored, RUN + [repoint("externalGlobal"), resume()])
    assert outcome[2]["state"] == {}
    assert outcome[-1]["decision"] == "undeclared" and outcome[-1]["forced_snippets"] == []


@pytest.mark.rule("C165.3")
def test_a_resume_regates_against_the_live_zone_and_switch():
    stored = world(snippets=[snippet(1, "secretAdjacent")], enforcement="observe")
    outcome = results("adr-165", stored, RUN + [repoint("externalGlobal"), {"op": "set_enforcement", "value": "enforce"}, resume()])
    assert outcome[1]["decision"] == "permitted"
    assert outcome[-1]["decision"] == "refused" and outcome[-1]["zone"] == "externalGlobal"


@pytest.mark.rule("C165.3")
@pytest.mark.parametrize("now, decision", [("secretAdjacent", "refused"), ("publicContent", "permitted")])
def test_a_class_raised_or_lowered_while_suspended_takes_effect(now, decision):
    stored = world(snippets=[snippet(1, "sourceCode")], zone="externalEu")
    change = {"op": "update", "kind": "snippet", "uid": 1, "set": {"data_class": now}}
    assert results("adr-179", stored, RUN + [change, resume()])[-1]["decision"] == decision


@pytest.mark.rule("C166.3")
def test_a_snippet_deactivated_while_suspended_keeps_refusing_after_166_but_not_under_165():
    stored = world(snippets=[snippet(1, "secretAdjacent")], enforcement="observe")
    steps = RUN + [switch_off("snippet", 1), {"op": "set_enforcement", "value": "enforce"}, repoint("externalGlobal"), resume()]
    assert results("adr-165", stored, steps)[-1]["decision"] == "undeclared"
    for rules in ("adr-166", "adr-175", "adr-179"):
        assert results(rules, stored, steps)[-1]["decision"] == "refused"


@pytest.mark.rule("C166.3", "C175.3")
def test_a_skill_disabled_while_suspended_keeps_its_class_on_every_resume_from_165():
    stored = world(skills=[skill(4, data_class="secretAdjacent")], zone="externalGlobal", enforcement="observe")
    steps = [queue(skills=[4]), dequeue(), suspend(), switch_off("skill", 4), resume()]
    for rules in ("adr-165", "adr-166", "adr-175"):
        assert results(rules, stored, steps)[-1]["source"] == 'skill "k4"'


@pytest.mark.rule("C165.4")
def test_a_deleted_source_contributes_nothing_and_never_blocks_the_resume():
    stored = world(snippets=[snippet(1, "secretAdjacent")], zone="externalGlobal", enforcement="observe")
    steps = RUN + [{"op": "delete", "kind": "snippet", "uid": 1}, {"op": "set_enforcement", "value": "enforce"}, resume()]
    resumed = results("adr-179", stored, steps)[-1]
    assert resumed["decision"] == "undeclared" and resumed["sent"] is True and "dropped" not in resumed


@pytest.mark.rule("C165.5")
def test_a_state_from_before_forced_sets_were_persisted_resumes_with_none():
    stored = world(snippets=[snippet(1, "secretAdjacent")], enforcement="observe")
    steps = [queue(snippets=[1]), dequeue(), suspend(state={"messages": []}), repoint("externalGlobal"), {"op": "set_enforcement", "value": "enforce"}, resume(with_input=True)]
    resumed = results("adr-179", stored, steps)[-1]
    assert resumed["decision"] == "undeclared" and resumed["with_input"] is True


@pytest.mark.rule("C165.5")
def test_both_lists_empty_take_the_configuration_only_path():
    assert takes_configuration_only_path(NO_FORCED_SET)
    stored = world(snippets=[snippet(1)], system_prompt="You help.", system_prompt_class="internalConfiguration")
    resumed = results("adr-179", stored, RUN + [{"op": "delete", "kind": "snippet", "uid": 1}, resume()])[-1]
    assert resumed["source"] == 'system prompt of "c"' and resumed["forced_snippets"] == []


@pytest.mark.rule("C175.3")
def test_a_tie_names_one_skill_before_suspension_and_the_other_after_under_166_and_the_same_under_175():
    # Two equally classified skills, forced in uid order; by name "alpha" (uid 2) sorts first.
    stored = world(skills=[skill(1, "zulu"), skill(2, "alpha")])
    steps = [queue(skills=[1, 2]), dequeue(), suspend(), resume()]
    before, after = (r["source"] for r in results("adr-166", stored, steps) if r["op"] in ("dequeue", "resume"))
    assert (before, after) == ('skill "alpha"', 'skill "zulu"')
    before, after = (r["source"] for r in results("adr-175", stored, steps) if r["op"] in ("dequeue", "resume"))
    assert before == after == 'skill "alpha"'
