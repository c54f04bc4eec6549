"""The shipped ADR stories decide as their descriptions say."""

import json
from pathlib import Path

import pytest

from gateproof.conformance.diff.search import outcome_under
from gateproof.model.scenario.schema import validate

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def story(name):
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def gated(outcome):
    return [(r["decision"], r["source"]) for r in outcome["results"] if r["op"] in ("dequeue", "resume") and "decision" in r]


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("adr-*.json")), ids=lambda p: p.stem)
def test_every_adr_story_validates_and_its_outcome_too(path):
    document = json.loads(path.read_text(encoding="utf-8"))
    validate("outcome", outcome_under(document, document["rules"]))


@pytest.mark.rule("C164.1", "C164.7")
def test_the_164_story_refuses_at_start_and_lets_the_resume_through():
    assert gated(outcome_under(story("adr-164-queued-run-binds"), "adr-164")) == [
        ("refused", 'snippet "vault-paths"'), ("permitted", 'snippet "vault-paths"'), ("undeclared", "")]


@pytest.mark.rule("C166.3")
def test_the_166_story_refuses_where_165_let_the_resume_through():
    document = story("adr-166-deactivation-keeps-the-class")
    assert gated(outcome_under(document, "adr-166"))[-1][0] == "refused"
    assert gated(outcome_under(document, "adr-165"))[-1][0] == "undeclared"


@pytest.mark.rule("C175.3")
def test_the_175_story_names_one_skill_where_166_named_two():
    document = story("adr-175-tie-names-one-source")
    assert {source for _, source in gated(outcome_under(document, "adr-175"))} == {'skill "API conventions"'}
    assert len({source for _, source in gated(outcome_under(document, "adr-166"))}) == 2
