"""What the rule texts now say outright an implementer must know, each held against the model by the rule id that states it."""

from __future__ import annotations

import pytest

from gateproof.model.scenario import ScenarioError, read_scenario
from support import readout, results, scenario, send, skill, snippet, world


@pytest.mark.rule("S001.7")
def test_a_record_that_leaves_every_field_out_is_read_with_the_stated_defaults():
    bare = {"configurations": [{"identifier": "c", "snippet_tags": "t"}], "snippets": [{"uid": 1}], "skills": [{"uid": 1}]}
    # Active by default, so the snippet's tags ('') hold no "t": the tag selection is empty; an undeclared skill is not attached.
    assert results(bare, {"op": "classify", "configuration": "c"})[0] == {"op": "classify", "sources": [], "effective": None, "effective_source": ""}
    # Forced, the default snippet is active and undeleted, so the enabled-only lookup finds it; its name is its empty identifier's stand-in ''.
    readout = results(bare, {"op": "readout", "configuration": "c", "forced_snippets": [1], "forced_skills": [1]})[0]
    assert readout["sources"] == [{"source": 'snippet ""', "data_class": None}, {"source": 'skill ""', "data_class": None}]


@pytest.mark.rule("S001.7")
def test_a_step_that_leaves_its_fields_out_takes_the_stated_defaults():
    stored = world(snippets=[snippet(1, "secretAdjacent")])
    steps = [{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1]}, {"op": "dequeue", "run": "r"},
             {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"}]
    queued, dequeued, suspended, resumed = results(stored, *steps)
    # No uid and no user on the queue: the refusal's audit names run 0 and user 0; no reason: approval; no with_input: false.
    assert (dequeued["audit"][0]["agentrun_uid"], dequeued["audit"][0]["be_user"]) == (0, 0)
    assert suspended == {"op": "suspend", "run": "r", "ended": "refused"} and resumed["with_input"] is False
    fresh = results(world(), {"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"}, {"op": "suspend", "run": "r"})
    assert fresh[2]["reason"] == "approval" and fresh[2]["state"] == {"forced_snippet_uids": [], "forced_skill_uids": []}


@pytest.mark.rule("S001.8", "C179.1")
def test_a_result_carries_the_optional_keys_exactly_where_the_text_says():
    stored = world(configuration={"identifier": "c"}, snippets=[snippet(1, "publicContent")])
    steps = [
        {"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1, 2]},
        {"op": "dequeue", "run": "r"},
        {"op": "suspend", "run": "r"},
        {"op": "resume", "run": "r", "with_input": True},
        {"op": "send", "configuration": "c", "forced_snippets": [1]},
        {"op": "update", "kind": "snippet", "uid": 1, "set": {"name": "n"}},
        {"op": "set_enforcement", "unset": True},
    ]
    queue, dequeue, suspend, resume, sent, update, switch = results(stored, *steps)
    decision_keys = {"decision", "declared_class", "source", "zone", "ceiling", "enforcing", "sent", "message", "exception", "audit"}
    assert set(queue) == {"op", "run"}
    # Uid 2 names nothing, so the dequeue records it as gone; the send drops nothing, so it carries no dropped key.
    assert set(dequeue) == decision_keys | {"op", "run", "forced_snippets", "forced_skills", "dropped"}
    assert set(suspend) == {"op", "run", "reason", "state"}
    assert set(resume) == decision_keys | {"op", "run", "forced_snippets", "forced_skills", "with_input"}
    assert set(sent) == decision_keys | {"op"}
    assert set(update) == {"op", "kind"} and set(switch) == {"op"}


@pytest.mark.rule("C164.5", "C179.2")
def test_a_dry_run_writes_no_audit_but_records_what_was_dropped():
    stored = world(snippets=[snippet(1, "secretAdjacent", active=False)])
    result = send(stored, forced_snippets=[1], dry_run=True)
    assert (result["decision"], result["audit"]) == ("dry_run", [])
    assert result["dropped"] == [{"kind": "snippet", "uid": 1, "reason": "deactivated"}]


@pytest.mark.rule("S001.3")
def test_the_order_of_a_runs_steps_is_checked_as_written_whatever_the_run_ends_as():
    dry = [{"op": "queue", "run": "r", "configuration": "c", "dry_run": True}, {"op": "dequeue", "run": "r"}]
    with pytest.raises(ScenarioError, match="run"):
        read_scenario(scenario(world(), *dry, {"op": "resume", "run": "r"}))
    suspend, resume = results(world(), *dry, {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"})[2:]
    assert suspend["ended"] == resume["ended"] == "dry run"


@pytest.mark.rule("S001.3", "C165.3")
def test_a_resume_whose_configuration_was_deleted_while_the_run_waited_ends_gone():
    steps = [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"}, {"op": "suspend", "run": "r"},
             {"op": "delete", "kind": "configuration", "identifier": "c"}, {"op": "resume", "run": "r"}]
    assert results(world(), *steps)[4] == {"op": "resume", "run": "r", "ended": "gone", "with_input": False}


@pytest.mark.rule("S001.1")
@pytest.mark.parametrize("op", ["send", "readout", "classify", "queue"])
def test_a_step_naming_a_deleted_configuration_is_invalid_input(op):
    step = {"op": op, "configuration": "c", **({"run": "r"} if op == "queue" else {})}
    with pytest.raises(ScenarioError, match="configuration"):
        read_scenario(scenario(world(configuration={"deleted": True}), step))
    deletion = {"op": "delete", "kind": "configuration", "identifier": "c"}
    if op == "queue":
        assert results(world(), deletion, step, {"op": "dequeue", "run": "r"})[2] == {"op": "dequeue", "run": "r", "ended": "gone"}
    else:
        with pytest.raises(ScenarioError, match="deleted by an earlier step"):
            results(world(), deletion, step)


@pytest.mark.rule("C144.13", "C144.8")
def test_the_stand_in_for_an_empty_source_name_is_never_reached_by_a_listed_source():
    stored = world(snippets=[snippet(1, "secretAdjacent", identifier="", name="")], skills=[skill(1, "secretAdjacent", name="")])
    for forced in ({"forced_snippets": [1]}, {"forced_skills": [1]}):
        refused = send(stored, **forced)
        assert refused["source"] in ('snippet ""', 'skill ""') and "the injected context" not in refused["exception"]


@pytest.mark.rule("C094.10", "C094.9")
def test_a_normalised_fallback_entry_is_compared_exactly_with_the_stored_identifier():
    # The entry " Other " becomes "other"; stored as "Other" or " other" it is not found, so the chain adds externalGlobal.
    for stored_identifier, zone in (("other", "local"), ("Other", "externalGlobal"), (" other", "externalGlobal")):
        other = {"identifier": stored_identifier, "model": "m"}
        stored = world(zone="local", configuration={"fallbacks": [" Other "]}, extra_configurations=[other], snippets=[snippet(1, "secretAdjacent")])
        assert send(stored, forced_snippets=[1])["zone"] == zone


@pytest.mark.rule("C144.4")
def test_snippets_of_equal_sorting_and_name_keep_the_worlds_order():
    # Both editorContent: the later in the list names the tie (C144.9), so the world's order decides.
    records = [snippet(7, "editorContent", identifier="seven", name="n", tags="t"), snippet(3, "editorContent", identifier="three", name="n", tags="t")]
    stored = world(zone="local", configuration={"snippet_tags": "t"}, snippets=records)
    assert send(stored)["source"] == 'snippet "three"'
    assert send({**stored, "snippets": records[::-1]})["source"] == 'snippet "seven"'


@pytest.mark.rule("C165.6")
def test_before_adr_175_a_resume_orders_skills_by_name_then_uid():
    # Skills 2 and 1 share the name "k" and the class: by uid, skill 2 comes last, so it names the tie whatever the stored order.
    stored = world(zone="local", skills=[skill(2, "editorContent", name="k", text="two"), skill(1, "editorContent", name="k", text="one")])
    steps = [{"op": "queue", "run": "r", "configuration": "c", "forced_skills": [2, 1]}, {"op": "dequeue", "run": "r"},
             {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"}]
    assert results(stored, *steps, rules="adr-166")[3]["forced_skills"] == [1, 2]


@pytest.mark.rule("C144.14", "C149.2")
def test_in_criteria_mode_the_audit_names_the_serving_models_provider_and_model():
    served = {"identifier": "far", "zone": "externalGlobal"}
    stored = world(zone="local", configuration={"selection_mode": "criteria"}, extra_providers=[served], snippets=[snippet(1, "secretAdjacent")])
    audit = send(stored, forced_snippets=[1], serving_model="m-far")["audit"][0]
    assert (audit["provider"], audit["model"]) == ("far", "m-far")
    # Routing named none: the configuration's own relation is the primary model, local, which permits the send.
    assert send(stored, forced_snippets=[1])["decision"] == "permitted"


@pytest.mark.rule("C144.16", "C164.1")
def test_before_adr_164_the_readout_shows_the_forced_set_that_the_send_does_not_gate():
    stored = world(snippets=[snippet(1, "secretAdjacent")])
    readout = results(stored, {"op": "readout", "configuration": "c", "forced_snippets": [1]}, rules="pre-164")[0]
    assert readout["effective"] == "secretAdjacent"
    assert send(stored, rules="pre-164", forced_snippets=[1])["decision"] == "undeclared"


GATEWAY_CALL_KEYS = {"op", "session", "decision", "reason", "caller_reason", "rule", "stage", "replayed", "exports", "reads", "audit"}


def gateway_results(world_fields: dict, *steps: dict, **document) -> list[dict]:
    from gateproof.model.scenario import run_scenario

    return run_scenario(read_scenario({"gateproof": 1, "id": "s", "kind": "gateway", "world": world_fields, "steps": list(steps), **document}))["results"]


@pytest.mark.rule("S001.9")
def test_a_gateway_world_that_leaves_its_fields_out_takes_the_stated_defaults():
    bare = {"sessions": [{"id": "s", "user": "u", "tenant": "t"}], "cases": [{"id": "CASE-1", "tenant": "t"}]}
    # No roles: a read needs an assignment or the supervisor role, and the case has no assignees; the session is valid.
    [read] = gateway_results(bare, {"op": "call", "session": "s", "tool": "read_case", "arguments": {"case_id": "CASE-1"}})
    assert (read["reason"], read["rule"]) == ("not_assigned", "G001.12")
    assigned = {**bare, "cases": [{"id": "CASE-1", "tenant": "t", "assignees": ["u"]}]}
    [allowed] = gateway_results(assigned, {"op": "call", "session": "s", "tool": "read_case", "arguments": {"case_id": "CASE-1"}})
    assert allowed["reason"] == "allowed" and allowed["reads"] == [{"case_id": "CASE-1"}]
    supervisor = {**bare, "sessions": [{"id": "s", "user": "u", "tenant": "t", "roles": ["support"]}],
                  "cases": [{"id": "CASE-1", "tenant": "t", "assignees": ["u"]}], "destinations": [{"id": "q", "internal": True}]}
    export = {"op": "call", "session": "s", "tool": "export_case", "arguments": {"case_id": "CASE-1", "destination_id": "q"}}
    # No content: the payload is the empty string; no rules: lab-001, so no idempotency, rate limit or approval applies.
    [exported] = gateway_results(supervisor, export)
    assert exported["exports"] == [{"case_id": "CASE-1", "destination_id": "q", "tenant": "t", "payload": ""}]
    assert run_rules(supervisor, export) == "lab-001"


def run_rules(world_fields: dict, *steps: dict) -> str:
    from gateproof.model.scenario import run_scenario

    return run_scenario(read_scenario({"gateproof": 1, "id": "s", "kind": "gateway", "world": world_fields, "steps": list(steps)}))["rules"]


@pytest.mark.rule("S001.10", "G001.15")
def test_a_gateway_result_carries_every_key_whatever_its_reason_and_a_change_its_op_alone():
    world_fields = {"sessions": [{"id": "s", "user": "u", "tenant": "t"}], "cases": [{"id": "CASE-1", "tenant": "t"}]}
    refused, change, unknown = gateway_results(
        world_fields,
        {"op": "call", "session": "s", "tool": "read_case", "arguments": {"case_id": "CASE-1"}},
        {"op": "revoke_session", "session": "s"},
        {"op": "call", "session": "s", "tool": "drop_tables", "arguments": []},
    )
    for result in (refused, unknown):
        assert set(result) == GATEWAY_CALL_KEYS and result["exports"] == [] and result["reads"] == [] and result["audit"]["decision"] == "deny"
    assert change == {"op": "revoke_session"}
    assert unknown["reason"] == "unknown_tool" and unknown["audit"]["tool"] is None


@pytest.mark.rule("C144.4")
def test_snippets_of_equal_sorting_are_ordered_by_the_name_field_not_the_identifier():
    # Identifiers order a, z; names order alpha (uid 2), zeta (uid 1): the later in name order names the tie (C144.9).
    records = [snippet(1, "editorContent", identifier="a", name="zeta", tags="t"), snippet(2, "editorContent", identifier="z", name="alpha", tags="t")]
    stored = world(zone="local", configuration={"snippet_tags": "t"}, snippets=records)
    assert [s["source"] for s in readout(stored)["sources"]] == ['snippet "z"', 'snippet "a"']
    assert send({**stored, "snippets": records[::-1]})["source"] == 'snippet "a"'
    # Sorting comes before the name: a lower sorting leads whatever its name.
    records[0]["sorting"] = -1
    assert [s["source"] for s in readout(stored)["sources"]] == ['snippet "a"', 'snippet "z"']


@pytest.mark.rule("S001.8", "C179.2")
@pytest.mark.parametrize("rules", ["adr-175", "adr-179", "nr-llm"])
def test_a_readout_lists_what_arrived_and_never_carries_dropped(rules):
    stored = world(snippets=[snippet(1, "secretAdjacent", active=False)], skills=[skill(1, "secretAdjacent", enabled=False)])
    forced = {"forced_snippets": [1, 2], "forced_skills": [1]}
    readout_result, queued_run = (results(stored, {"op": "readout", "configuration": "c", **forced}, {"op": "queue", "run": "r", "configuration": "c", **forced},
                                          {"op": "dequeue", "run": "r"}, rules=rules)[i] for i in (0, 2))
    assert readout_result == {"op": "readout", "sources": [], "effective": None, "effective_source": ""}
    # The same forced set on a dequeue is recorded from adr-179 on, the code included: the readout's silence is the rule, not an empty list.
    assert ("dropped" in queued_run) is (rules != "adr-175")


NOT_GATED = ("declared_class", "zone", "ceiling", "enforcing", "message", "exception")


@pytest.mark.rule("S001.8", "C144.10", "C164.5")
@pytest.mark.parametrize("case", ["undeclared", "permitted", "refused", "observed", "dry_run"])
def test_each_decision_key_holds_what_the_text_says_or_null_where_it_does_not_apply(case):
    declared = case != "undeclared"
    stored = world(zone="local" if case == "permitted" else "externalGlobal", snippets=[snippet(1, "secretAdjacent" if declared else None)],
                   enforcement="observe" if case == "observed" else None)
    result = send(stored, forced_snippets=[1], dry_run=case == "dry_run")
    assert result["decision"] == case
    if case == "dry_run":
        assert {key: result[key] for key in NOT_GATED} == dict.fromkeys(NOT_GATED) and (result["source"], result["sent"], result["audit"]) == ("", False, [])
        return
    assert (result["declared_class"], result["source"]) == (("secretAdjacent", 'snippet "s1"') if declared else (None, ""))
    assert (result["zone"] is None, result["ceiling"] is None) == (not declared, not declared)
    assert result["enforcing"] == {"refused": True, "observed": False}.get(case)
    assert isinstance(result["message"], str) and (result["exception"] is not None) is (case == "refused")
    assert len(result["audit"]) == (1 if case in ("refused", "observed") else 0)


@pytest.mark.rule("C144.14", "C144.15")
def test_the_audit_record_holds_each_value_under_the_key_the_text_names():
    stored = world(configuration={"identifier": "conf"}, snippets=[snippet(1, "secretAdjacent", identifier="legal")], enforcement="observe")
    record, = results(stored, {"op": "send", "configuration": "conf", "forced_snippets": [1], "be_user": 7, "run_uid": 3})[0]["audit"]
    assert record == {"decision": "context_blocked", "reason": "secretAdjacent", "detail": 'snippet "legal" (observe)', "provider": "p", "model": "m",
                      "configuration": "conf", "be_user": 7, "agentrun_uid": 3, "correlation_id": "", "tool_name": "", "guardrail": ""}


@pytest.mark.rule("C165.1", "C179.1", "C144.16")
def test_a_suspended_state_a_dropped_record_and_a_readout_entry_use_the_keys_the_text_names():
    stored = world(snippets=[snippet(1, "publicContent"), snippet(2, "publicContent", active=False)], skills=[skill(3)])
    forced = {"forced_snippets": [1, 2, 9, 1], "forced_skills": [3, 8]}
    steps = [{"op": "readout", "configuration": "c", **forced}, {"op": "queue", "run": "r", "configuration": "c", **forced},
             {"op": "dequeue", "run": "r"}, {"op": "suspend", "run": "r"}]
    listed, _, started, suspended = results(stored, *steps, rules="adr-179")  # ADR-180's dequeue keeps the switched-off snippet 2
    assert listed["sources"] == [{"source": 'snippet "s1"', "data_class": "publicContent"}, {"source": 'skill "k3"', "data_class": None}]
    assert started["dropped"] == [{"kind": "skill", "uid": 8, "reason": "gone"}, {"kind": "snippet", "uid": 2, "reason": "deactivated"},
                                  {"kind": "snippet", "uid": 9, "reason": "gone"}]
    assert suspended["state"] == {"forced_snippet_uids": [1, 1], "forced_skill_uids": [3]}
    assert results(stored, *steps[1:], rules="adr-164")[2]["state"] == {}
