"""The explained story names the lookup, the uids read, what was dropped and the re-gate."""

import pytest

from gateproof.conformance.explanation.explain import explain_scenario
from gateproof.model.scenario import read_scenario
from stories import dequeue, document, queue, resume, skill, snippet, suspend, switch_off, world


def explained(rules, steps):
    return explain_scenario(read_scenario(document(rules, world(snippets=[snippet(1), snippet(2)], skills=[skill(3)]), steps)))


def unwrapped(text: str) -> str:
    """The text with every run of white space one space: a long line reads as one, wherever it was wrapped."""
    return " ".join(text.split())


@pytest.mark.rule("C179.1", "C165.3")
def test_the_story_is_explained_step_by_step_with_rule_ids():
    text = explained("adr-179", [queue(snippets=[1, 2], skills=[3]), switch_off("snippet", 2), dequeue(), suspend(), switch_off("skill", 3), resume()])
    assert "stored [1, 2] -> enabled-only lookup in the order asked -> resolved [1]" in text
    assert "snippet#2 deactivated" in text
    assert "stored [3] -> existing (switched off or not) lookup in the order asked -> resolved [3]" in unwrapped(text)
    assert "re-gated against the live records, zone and switch  [C165.3]" in text


@pytest.mark.rule("C164.7")
def test_a_resume_before_165_is_explained_as_configuration_only():
    text = explained("adr-164", [queue(snippets=[1]), dequeue(), suspend(), resume()])
    assert "the configuration alone is gated  [C164.7]" in text


@pytest.mark.rule("C165.2")
def test_a_resume_shows_the_stored_state_each_uid_was_read_from_dropped_ones_too():
    text = explained("adr-179", [queue(snippets=[1]), dequeue(), suspend(state={"forced_snippet_uids": ["+1", " 1", "2"]}), resume()])
    assert """the run's stored state, as written: {"forced_snippet_uids": ["+1", " 1", "2"]}""" in unwrapped(text)
    assert "forced snippets: stored [2] -> existing (switched off or not) lookup in the order asked -> resolved [2]" in unwrapped(text)


@pytest.mark.rule("C094.9", "C094.10")
def test_a_fallback_is_shown_as_stored_as_read_and_with_the_configuration_it_finds():
    from stories import document

    doc = document("adr-179", world(snippets=[snippet(1)], fallbacks=[" Hop ", 7, "gone"]), [{"op": "send", "configuration": "c", "forced_snippets": [1]}])
    doc["world"]["configurations"] += [{"identifier": "hop", "model": "far-model", "active": False}, {"identifier": "gone", "deleted": True}]
    text = unwrapped(explain_scenario(read_scenario(doc)))
    assert 'fallback entries as stored: [" Hop ", 7, "gone"] -> read as ["hop", "gone"] [C094.9]' in text
    assert 'fallback "hop" -> configuration "hop", inactive (counted all the same): provider "far" -> externalGlobal' in text
    assert 'fallback "gone" -> no undeleted configuration: no provider (fail closed) -> externalGlobal' in text


@pytest.mark.rule("C175.5")
def test_a_dequeue_that_fails_its_run_under_nr_llm_says_why_in_the_trace_the_schema_holds():
    import json
    from pathlib import Path

    import jsonschema_rs

    from gateproof.conformance.explanation.explain import explained as explained_trace

    scenario = read_scenario(document("nr-llm", world(snippets=[snippet(1)]), [queue(snippets=[1], be_user=-5), dequeue(), suspend()]))
    trace = explained_trace(scenario).document()
    schema = json.loads((Path(__file__).resolve().parent.parent / "conformance" / "schema" / "explain-trace.schema.json").read_text())
    jsonschema_rs.validate(schema, trace)
    assert [step["result"].get("ended") for step in trace["steps"]] == [None, "failed", "failed"]
    assert "the run row's user -5 is below 0" in unwrapped(explain_scenario(scenario))
