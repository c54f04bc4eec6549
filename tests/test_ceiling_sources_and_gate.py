"""Example tests for the source list, the fold, the decision and what it records (ADR-144/155/164)."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from support import readout, results, send, skill, snippet, world

SECRET = "the text itself: rotate the root key"


def tagged(uid, tags, data_class=None, **fields):
    return snippet(uid, data_class, tags=tags, **fields)


@pytest.mark.rule("C144.1")
def test_a_snippet_and_a_skill_declare_the_class_they_store():
    w = world(configuration={"snippet_tags": "ops", "skills": [1]}, snippets=[tagged(1, "ops", "sourceCode")], skills=[skill(1, "internalConfiguration")])
    assert [s["data_class"] for s in readout(w)["sources"]] == ["sourceCode", "internalConfiguration"]


@pytest.mark.rule("C144.2")
def test_an_undeclared_source_places_no_constraint():
    w = world(configuration={"snippet_tags": "ops"}, snippets=[tagged(1, "ops", "")])
    assert send(w)["decision"] == "undeclared"


@pytest.mark.rule("C144.3")
def test_sources_are_listed_in_composition_order():
    w = world(
        configuration={"system_prompt": "p", "system_prompt_class": "publicContent", "snippet_tags": "ops", "skills": [1]},
        snippets=[tagged(1, "ops", "publicContent"), snippet(2, "publicContent")],
        skills=[skill(1, "publicContent"), skill(2, "publicContent")],
    )
    names = [s["source"] for s in readout(w, forced_snippets=[2], forced_skills=[2])["sources"]]
    assert names == ['system prompt of "c"', 'snippet "s1"', 'skill "k1"', 'snippet "s2"', 'skill "k2"']


@pytest.mark.rule("C144.4")
def test_snippets_are_selected_by_whole_token_tag_ordered_by_sorting_then_name():
    w = world(
        configuration={"snippet_tags": " OPS ,faq,ops"},
        snippets=[
            tagged(1, "ops", "publicContent", name="b", sorting=2),
            tagged(2, "devops", "publicContent"),
            tagged(3, "x, Ops ", "publicContent", name="a", sorting=2),
            tagged(4, "ops", "publicContent", sorting=1, active=False),
            tagged(5, "faq", "publicContent", sorting=0),
            tagged(6, "ops", "publicContent", sorting=0, deleted=True),
        ],
    )
    assert [s["source"] for s in readout(w)["sources"]] == ['snippet "s3"', 'snippet "s1"', 'snippet "s5"']


@pytest.mark.rule("C144.4")
def test_an_empty_tag_selects_nothing():
    w = world(configuration={"snippet_tags": " , "}, snippets=[tagged(1, "", "publicContent")])
    assert readout(w)["sources"] == []


@pytest.mark.rule("C144.5")
def test_hidden_snippets_are_left_out_and_a_record_reached_twice_is_kept_once():
    w = world(
        configuration={"snippet_tags": "ops,faq"},
        snippets=[
            tagged(1, "ops,faq", "publicContent", identifier="Same"),
            tagged(2, "faq", "secretAdjacent", identifier=" same "),
            tagged(3, "ops", "secretAdjacent", hidden=True),
            tagged(4, "ops,faq", "publicContent", identifier=""),
        ],
    )
    assert [s["source"] for s in readout(w)["sources"]] == ['snippet "Same"', 'snippet ""']


@pytest.mark.rule("C144.6")
def test_a_selected_snippet_with_empty_text_still_constrains():
    w = world(configuration={"snippet_tags": "ops"}, snippets=[tagged(1, "ops", "secretAdjacent", text="")])
    assert send(w)["decision"] == "refused"


@pytest.mark.rule("C144.7")
def test_attached_skills_have_no_enabled_or_hidden_filter_but_deleted_ones_are_gone():
    w = world(
        configuration={"skills": [3, 1, 2, 9]},
        skills=[skill(1, "publicContent", enabled=False), skill(2, "publicContent", hidden=True), skill(3, "publicContent", deleted=True)],
    )
    assert [s["source"] for s in readout(w)["sources"]] == ['skill "k1"', 'skill "k2"']


@pytest.mark.rule("C144.8")
def test_sources_are_named_by_identifier_or_name_never_by_text():
    w = world(
        snippets=[snippet(1, "publicContent", identifier="  incident ", text=SECRET), snippet(2, "publicContent", identifier=" ", name=" Display ")],
        skills=[skill(1, "publicContent", name="Summarise", text=SECRET)],
    )
    names = [s["source"] for s in readout(w, forced_snippets=[1, 2], forced_skills=[1])["sources"]]
    assert names == ['snippet "incident"', 'snippet " Display "', 'skill "Summarise"']


@pytest.mark.rule("C155.1")
def test_an_exactly_empty_system_prompt_declares_nothing_but_whitespace_is_text():
    empty = world(configuration={"system_prompt": "", "system_prompt_class": "secretAdjacent"})
    assert readout(empty)["sources"] == [] and send(empty)["decision"] == "undeclared"
    blank = world(configuration={"system_prompt": " ", "system_prompt_class": "secretAdjacent"})
    assert send(blank)["decision"] == "refused"


@pytest.mark.rule("C155.1")
def test_an_undeclared_system_prompt_adds_no_entry_while_an_undeclared_snippet_is_listed():
    w = world(configuration={"system_prompt": "hello", "system_prompt_class": "bogus", "snippet_tags": "ops"}, snippets=[tagged(1, "ops", None)])
    assert readout(w)["sources"] == [{"source": 'snippet "s1"', "data_class": None}]


@pytest.mark.rule("C155.2")
def test_the_system_prompt_is_named_after_the_configuration_identifier_as_stored():
    w = world(configuration={"identifier": "c", "system_prompt": SECRET, "system_prompt_class": "secretAdjacent"})
    result = send(w)
    assert result["source"] == 'system prompt of "c"'


@pytest.mark.rule("C155.3", "C144.17")
def test_the_stored_prompt_is_classified_and_an_override_or_task_input_never_is():
    w = world(configuration={"system_prompt": "stored", "system_prompt_class": "secretAdjacent"})
    plain = send(w)
    overridden = send(w, system_prompt_override="a different prompt", input="publicContent please")
    assert overridden == plain and plain["decision"] == "refused"


@pytest.mark.rule("C144.9")
def test_the_strictest_declaration_wins_and_undeclared_never_does():
    w = world(
        zone="local",
        configuration={"system_prompt": "p", "system_prompt_class": "editorContent", "snippet_tags": "ops"},
        snippets=[tagged(1, "ops", "secretAdjacent"), tagged(2, "ops", None), tagged(3, "ops", "sourceCode")],
    )
    assert (readout(w)["effective"], readout(w)["effective_source"]) == ("secretAdjacent", 'snippet "s1"')


@pytest.mark.rule("C144.9")
def test_on_a_tie_the_later_source_wins():
    w = world(skills=[skill(1, "sourceCode"), skill(2, "sourceCode")])
    assert send(w, forced_skills=[1, 2])["source"] == 'skill "k2"'
    assert send(w, forced_skills=[2, 1])["source"] == 'skill "k1"'


@pytest.mark.rule("C144.10", "C144.18")
def test_nothing_declared_consults_no_zone_and_reads_no_switch():
    w = world(configuration={"model": None}, snippets=[snippet(1)], enforcement="observe")
    result = send(w, forced_snippets=[1])
    assert result == {
        "op": "send", "decision": "undeclared", "declared_class": None, "source": "", "zone": None, "ceiling": None,
        "enforcing": None, "sent": True,
        "message": "No snippet or skill this configuration injects carries a data class, so the input-context gate constrains nothing.",
        "exception": None, "audit": [],
    }


@pytest.mark.rule("C144.10", "C144.11")
def test_a_permitted_send_goes_out_without_reading_the_switch():
    w = world(zone="externalEu", snippets=[snippet(1, "internalConfiguration")], enforcement="observe")
    result = send(w, forced_snippets=[1])
    assert (result["decision"], result["enforcing"], result["sent"], result["ceiling"]) == ("permitted", None, True, "internalConfiguration")


@pytest.mark.rule("C144.10", "C144.11")
def test_a_refusal_blocks_when_enforcing_and_is_observed_otherwise():
    w = world(zone="externalEu", snippets=[snippet(1, "systemDiagnostics")])
    enforced = send(w, forced_snippets=[1])
    assert (enforced["decision"], enforced["enforcing"], enforced["sent"]) == ("refused", True, False)
    w["enforcement"] = " observe"
    observed = send(w, forced_snippets=[1])
    assert (observed["decision"], observed["enforcing"], observed["sent"]) == ("observed", False, True)


@pytest.mark.rule("C144.12")
def test_the_messages_word_for_word():
    w = world(zone="externalEu", snippets=[snippet(1, "internalConfiguration"), snippet(2, "secretAdjacent")])
    assert send(w, forced_snippets=[1])["message"] == (
        'The injected context is classified internalConfiguration, which a provider in the "externalEu" trust zone may receive '
        '(ceiling: internalConfiguration). Declared by snippet "s1".'
    )
    refused = (
        'The injected context is classified secretAdjacent, which exceeds what a provider in the "externalEu" trust zone may receive '
        '(ceiling: internalConfiguration). Declared by snippet "s2".'
    )
    assert send(w, forced_snippets=[2])["message"] == refused
    w["enforcement"] = "OBSERVE"
    assert send(w, forced_snippets=[2])["message"] == refused + " Enforcement is in observe mode, so the send would proceed and be recorded as blocked."


@pytest.mark.rule("C144.13")
def test_the_exception_text_of_an_enforcing_refusal():
    w = world(zone="privateHosted", configuration={"identifier": "c"}, snippets=[snippet(1, "secretAdjacent")])
    assert send(w, forced_snippets=[1])["exception"] == (
        'Configuration "c" resolves to trust zone privateHosted, which permits at most systemDiagnostics, but snippet "s1" is classified '
        "secretAdjacent. Raise the provider's trust zone, remove the source from this configuration, or correct the declared class."
    )
    w["enforcement"] = "observe"
    assert send(w, forced_snippets=[1])["exception"] is None


@pytest.mark.rule("C144.14")
def test_the_audit_record_of_a_refusal_in_either_mode():
    w = world(zone="externalGlobal", snippets=[snippet(1, "sourceCode", text=SECRET)])
    record = {
        "correlation_id": "", "decision": "context_blocked", "reason": "sourceCode", "provider": "p", "model": "m",
        "configuration": "c", "be_user": 7, "tool_name": "", "agentrun_uid": 12, "guardrail": "", "detail": 'snippet "s1"',
    }
    assert send(w, forced_snippets=[1], be_user=7, run_uid=12)["audit"] == [record]
    w["enforcement"] = "observe"
    assert send(w, forced_snippets=[1], be_user=7, run_uid=12)["audit"] == [{**record, "detail": 'snippet "s1" (observe)'}]


@pytest.mark.rule("C144.14")
def test_undeclared_and_permitted_sends_record_nothing():
    w = world(zone="local", snippets=[snippet(1, "secretAdjacent"), snippet(2)])
    assert send(w, forced_snippets=[1])["audit"] == [] and send(w, forced_snippets=[2])["audit"] == []


@pytest.mark.rule("C144.15")
@pytest.mark.parametrize("be_user, recorded", [(7, 7), ("7", 0), (None, 0), (True, 0), (7.0, 0)])
def test_only_an_integer_user_uid_is_recorded(be_user, recorded):
    w = world(snippets=[snippet(1, "secretAdjacent")])
    assert send(w, forced_snippets=[1], be_user=be_user)["audit"][0]["be_user"] == recorded


@pytest.mark.rule("C144.16")
def test_classify_ignores_the_forced_set_and_an_empty_readout_reads_null():
    w = world(configuration={"system_prompt": "p", "system_prompt_class": "editorContent"}, snippets=[snippet(1, "secretAdjacent")])
    classified, read = results(w, {"op": "classify", "configuration": "c"}, {"op": "readout", "configuration": "c", "forced_snippets": [1]})
    assert (classified["effective"], read["effective"]) == ("editorContent", "secretAdjacent")
    empty = readout(world())
    assert (empty["sources"], empty["effective"], empty["effective_source"]) == ([], None, "")


@pytest.mark.rule("C164.1", "C164.4")
def test_a_forced_snippet_binds_against_the_same_ceiling_and_is_named():
    w = world(configuration={"system_prompt": "p", "system_prompt_class": "editorContent"}, snippets=[snippet(1, "systemDiagnostics", identifier="incident-report")])
    result = send(w, forced_snippets=[1])
    assert (result["decision"], result["source"]) == ("refused", 'snippet "incident-report"')
    w["snippets"][0]["data_class"] = "publicContent"
    assert (send(w, forced_snippets=[1])["decision"], send(w, forced_snippets=[1])["source"]) == ("permitted", 'system prompt of "c"')


@pytest.mark.rule("C164.1")
def test_before_adr_164_the_forced_set_was_not_gated():
    w = world(snippets=[snippet(1, "secretAdjacent")])
    assert send(w, rules="pre-164", forced_snippets=[1])["decision"] == "undeclared"
    assert send(w, rules="adr-164", forced_snippets=[1])["decision"] == "refused"


@pytest.mark.rule("C164.2")
def test_a_run_that_forces_nothing_gets_the_configuration_only_answer():
    w = world(configuration={"system_prompt": "p", "system_prompt_class": "sourceCode"})
    assert send(w) == send(w, rules="pre-164") == send(w, forced_snippets=[], forced_skills=[])


@pytest.mark.rule("C164.3")
def test_a_forced_source_the_configuration_carries_is_listed_once_with_the_configuration_copy():
    w = world(configuration={"skills": [1, 1]}, skills=[skill(1, "publicContent"), skill(2, "secretAdjacent", name="k1")])
    listed = readout(w, forced_skills=[2, 1])["sources"]
    assert listed == [{"source": 'skill "k1"', "data_class": "publicContent"}] * 2  # configuration entries are not de-duplicated
    assert send(w, forced_skills=[2])["decision"] == "permitted"  # the stricter namesake is left out


@pytest.mark.rule("C164.3")
def test_names_are_compared_exactly():
    w = world(snippets=[snippet(1, "publicContent", identifier="Legal"), snippet(2, "secretAdjacent", identifier="legal")])
    assert len(readout(w, forced_snippets=[1, 2])["sources"]) == 2


@pytest.mark.rule("C164.5")
def test_a_dry_run_is_not_gated():
    w = world(snippets=[snippet(1, "secretAdjacent")])
    result = send(w, forced_snippets=[1], dry_run=True)
    assert (result["decision"], result["sent"], result["audit"], result["message"]) == ("dry_run", False, [], None)


@pytest.mark.rule("C164.6")
def test_the_playground_reads_numeric_uids_above_zero():
    w = world(snippets=[snippet(1, "publicContent"), snippet(2, "publicContent"), snippet(3, "publicContent")])
    listed = readout(w, forced_snippets=["2", 0, -1, "x", None, True, 1.9, " 3", 2])["sources"]
    assert [s["source"] for s in listed] == ['snippet "s2"', 'snippet "s1"', 'snippet "s3"']
    assert readout(w, forced_snippets=[])["sources"] == []


@pytest.mark.rule("C144.8", "C144.14")
def test_no_source_text_reaches_a_name_message_exception_or_audit_record():
    w = world(
        configuration={"system_prompt": SECRET, "system_prompt_class": "sourceCode", "snippet_tags": "ops", "skills": [1]},
        snippets=[tagged(1, "ops", "secretAdjacent", text=SECRET)],
        skills=[skill(1, "systemDiagnostics", text=SECRET)],
    )
    assert SECRET not in json.dumps(send(w)) and SECRET not in json.dumps(readout(w))


@pytest.mark.rule("C164.6")
def test_only_ascii_digits_make_a_numeric_uid_and_numbers_saturate_at_64_bits():
    from gateproof.model.uids import read_request_uids

    assert read_request_uids(["٣", "１２", "3"], False) == (3,)
    assert read_request_uids(["\v4\f", "5e0", "+6", "1e30", 2**70, -(2**70), "-99999999999999999999"], False) == (4, 5, 6, 2**63 - 1, 2**63 - 1)


@pytest.mark.rule("C144.4")
@given(st.text(alphabet=st.characters(codec="utf-8")) | st.text(alphabet="aZzA@[`{İKẞı \t"))
def test_tags_and_identifiers_are_lowercased_in_ascii_letters_only(text):
    from gateproof.model.text import ascii_lower

    assert ascii_lower(text) == "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in text)
