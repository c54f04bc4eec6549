"""The story format: operators' changes between steps, and the errors a story can hold."""

import pytest

from gateproof.model.enforcement import MISSING
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.schema import validate
from gateproof.model.world_changes import delete_record, set_enforcement, update_record
from stories import dequeue, document, queue, results, resume, skill, snippet, suspend, world

STORED = world(snippets=[snippet(1)], skills=[skill(2)])


def read(steps):
    return read_scenario(document("adr-179", STORED, steps))


@pytest.mark.rule("S002.1")
def test_an_update_changes_only_the_fields_it_sets():
    before = read([queue()]).world
    after = update_record(before, "snippet", 1, {"data_class": "secretAdjacent"})
    assert after.snippet_index[1].data_class == "secretAdjacent" and after.snippet_index[1].identifier == "s1"
    assert before.snippet_index[1].data_class == "sourceCode"


@pytest.mark.rule("S002.2")
def test_a_deleted_provider_leaves_its_models_fail_closed():
    after = delete_record(read([queue()]).world, "provider", "p")
    assert "p" not in after.provider_index
    send = {"op": "send", "configuration": "c", "forced_snippets": [1]}
    outcome = results("adr-179", STORED, [{"op": "delete", "kind": "provider", "identifier": "p"}, send])
    assert outcome[1]["zone"] == "externalGlobal"


@pytest.mark.rule("S002.3")
def test_the_switch_can_be_set_and_removed():
    assert set_enforcement(read([queue()]).world).enforcement is MISSING
    steps = [{"op": "set_enforcement", "value": "observe"}, {"op": "send", "configuration": "c", "forced_snippets": [1]}]
    observed = results("adr-179", world(snippets=[snippet(1, "secretAdjacent")], zone="externalGlobal"), steps)
    assert observed[1]["decision"] == "observed"
    steps[0] = {"op": "set_enforcement", "unset": True}
    assert results("adr-179", world(snippets=[snippet(1, "secretAdjacent")], zone="externalGlobal", enforcement="observe"), steps)[1]["decision"] == "refused"


@pytest.mark.parametrize("steps, path", [
    ([dequeue()], "$.steps[0].run"),
    ([queue(), queue()], "$.steps[1].run"),
    ([queue(), suspend()], "$.steps[1].run"),
    ([queue(), dequeue(), resume()], "$.steps[2].run"),
    ([{"op": "update", "kind": "skill", "uid": 9, "set": {"enabled": False}}], "$.steps[0].uid"),
    ([{"op": "update", "kind": "skill", "uid": 2, "set": {"uid": 3}}], "$.steps[0].set.uid"),
    ([{"op": "update", "kind": "skill", "uid": 2, "set": {"enabled": "no"}}], "$.steps[0].set.enabled"),
    ([{"op": "delete", "kind": "provider", "uid": 1}], "$.steps[0].identifier"),
    ([{"op": "queue", "run": "r1", "configuration": "nope"}], "$.steps[0].configuration"),
    ([{"op": "suspend", "run": "r1", "reason": "lunch"}], "$.steps[0].reason"),
])
def test_a_story_step_that_cannot_run_names_its_field(steps, path):
    with pytest.raises(ScenarioError) as raised:
        read(steps)
    assert raised.value.path == path


def test_a_send_through_a_configuration_deleted_by_an_earlier_step_names_the_step():
    scenario = read([{"op": "delete", "kind": "configuration", "identifier": "c"}, {"op": "classify", "configuration": "c"}])
    with pytest.raises(ScenarioError) as raised:
        run_scenario(scenario)
    assert raised.value.path == "$.steps[1].configuration"


def test_every_story_outcome_matches_the_outcome_schema():
    steps = [queue(snippets=[1, 7], skills=[2]), {"op": "update", "kind": "skill", "uid": 2, "set": {"enabled": False}}, dequeue(),
             suspend(reason="input"), {"op": "set_enforcement", "unset": True}, resume(with_input=True)]
    outcome = run_scenario(read(steps))
    validate("outcome", outcome)
    assert [r["op"] for r in outcome["results"]] == ["queue", "update", "dequeue", "suspend", "set_enforcement", "resume"]


def test_a_change_to_a_provider_removed_by_an_earlier_step_names_the_step():
    steps = [{"op": "delete", "kind": "provider", "identifier": "p"}, {"op": "update", "kind": "provider", "identifier": "p", "set": {"zone": "local"}}]
    with pytest.raises(ScenarioError) as raised:
        run_scenario(read(steps))
    assert raised.value.path == "$.steps[1].identifier"


@pytest.mark.rule("C144.14", "C144.15")
def test_a_refusal_on_dequeue_and_on_resume_names_the_run_row_and_its_user_in_the_audit():
    from support import results, snippet, world

    w = world(snippets=[snippet(1, "secretAdjacent")], enforcement="observe")
    steps = [
        {"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1], "uid": 42, "be_user": 7},
        {"op": "dequeue", "run": "r"},
        {"op": "suspend", "run": "r", "reason": "approval"},
        {"op": "resume", "run": "r"},
    ]
    outcome = results(w, *steps)
    for result in (outcome[1], outcome[3]):
        assert (result["audit"][0]["agentrun_uid"], result["audit"][0]["be_user"]) == (42, 7)


@pytest.mark.rule("S001.3")
@pytest.mark.parametrize(
    "steps, path, problem",
    [
        ([{"op": "dequeue", "run": "r"}], "$.steps[0].run", "no run 'r' was queued"),
        ([{"op": "queue", "run": "r", "configuration": "c"}, {"op": "queue", "run": "r", "configuration": "c"}], "$.steps[1].run", "already queued"),
        ([{"op": "queue", "run": "r", "configuration": "c"}, {"op": "resume", "run": "r"}], "$.steps[1].run", "a resume needs it"),
    ],
)
def test_a_run_is_queued_once_and_asked_only_what_its_state_allows(steps, path, problem):
    from support import scenario, world

    with pytest.raises(ScenarioError) as refused:
        read_scenario(scenario(world(), *steps))
    assert refused.value.path == path and problem in refused.value.problem


@pytest.mark.rule("S001.3")
def test_a_deleted_configuration_ends_the_run_as_gone_and_a_dry_run_ends_after_assembly():
    from support import results, world

    w = world(extra_configurations=[{"identifier": "d", "model": "m"}])
    outcome = results(
        w,
        {"op": "queue", "run": "gone", "configuration": "d"},
        {"op": "delete", "kind": "configuration", "identifier": "d"},
        {"op": "dequeue", "run": "gone"},
        {"op": "queue", "run": "dry", "configuration": "c", "dry_run": True},
        {"op": "dequeue", "run": "dry"},
        {"op": "suspend", "run": "dry", "reason": "input"},
    )
    assert outcome[2]["ended"] == "gone"
    assert outcome[4]["decision"] == "dry_run"
    assert outcome[5]["ended"] == "dry run"
