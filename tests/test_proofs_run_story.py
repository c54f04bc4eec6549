"""The proofs' run story is tied to ``run_scenario``, and its invariants hold on the stories the strategies generate."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.lifecycle_strategies import run_stories, story_worlds, without_classes
from gateproof.conformance.proofs.domains import PLAYGROUND_SENDS, RUN_STORIES
from gateproof.conformance.proofs.replay import replay, semantics_named
from gateproof.conformance.proofs.run_story import OWN_NAME, ForcedRecords, RunStory
from gateproof.model.ladder import DataClass
from gateproof.model.lattice import CONCRETE, UNDECLARED
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

BOUND = 3
ranks = st.integers(UNDECLARED, len(DataClass) - 1)
flags = st.booleans()


def _fixed(strategy, size=BOUND):
    return st.lists(strategy, min_size=size, max_size=size).map(tuple)


@st.composite
def forced_records(draw):
    return ForcedRecords(
        draw(_fixed(ranks)), draw(_fixed(flags)), draw(_fixed(flags)), draw(_fixed(flags)), draw(_fixed(flags)),
        tuple(draw(st.permutations(range(BOUND)))),
    )


@st.composite
def concrete_stories(draw):
    aliases = draw(_fixed(st.sampled_from([OWN_NAME, 0, 1])))  # few names, so that they collide
    return RunStory(draw(_fixed(ranks)), draw(_fixed(flags)), draw(forced_records()), draw(forced_records()), aliases)


def assert_decided_as_the_proofs_decide(domain, rules: str, story: RunStory) -> None:
    semantics = semantics_named(rules)
    with semantics.in_force():
        predicted = domain.judge(semantics, story, CONCRETE)
    _, replayed = replay(domain, domain.documents("differential", "the model agrees", semantics, (story,)), semantics)
    assert [(v.declared, v.source, v.kind, v.sent) for v in replayed] == [(v.declared, v.source, v.kind, v.sent) for v in predicted]


@pytest.mark.parametrize("rules", [*VERSIONS, "wrong:suspend-stores-requested-uids", "wrong:resume-enabled-only"])
@settings(max_examples=60, deadline=None)
@given(story=concrete_stories())
def test_a_decoded_story_is_decided_as_the_proofs_decide_it_under_each_declared_version(rules, story):
    """Decoded into a scenario and run through the model, a story's dequeue and resume, and its records sent once through
    the playground, get the verdicts the proofs compute: the z3 encoding reads each path's lookups from the model."""
    for domain in (RUN_STORIES, PLAYGROUND_SENDS):
        assert_decided_as_the_proofs_decide(domain, rules, story)


def _gated(outcome: dict, op: str) -> dict | None:
    """The result of the run's ``op`` step when it was gated (not a dry run, not an ended run)."""
    result = next((r for r in outcome["results"] if r["op"] == op), None)
    return result if result is not None and "decision" in result and result["decision"] != "dry_run" else None


def _story(world: dict, steps: list[dict], rules: str) -> dict:
    return run_scenario(read_scenario({"gateproof": 1, "id": "generated", "rules": rules, "world": world, "steps": steps}))


LATER_VERSIONS = ["adr-175", "adr-179", "nr-llm"]


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(LATER_VERSIONS))
def test_I011_on_generated_stories(data, rules):
    """With no change at all, the resume names what the dequeue named: duplicates, unknown and string uids included."""
    world = data.draw(st.one_of(story_worlds(observing=True), story_worlds(tied_skills=True, observing=True)))
    steps = data.draw(run_stories(world, changing=False))
    outcome = _story(world, steps, rules)
    composed, resumed = _gated(outcome, "dequeue"), _gated(outcome, "resume")
    if composed and resumed:
        assert (resumed["declared_class"], resumed["source"]) == (composed["declared_class"], composed["source"])


def _switched_off_before_resume(steps: list[dict], kind: str, uids: list[int]) -> list[dict]:
    switch = "active" if kind == "snippet" else "enabled"
    changes = [{"op": "update", "kind": kind, "uid": uid, "set": {switch: False}} for uid in uids]
    return steps[:-1] + changes + steps[-1:]


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(["adr-166", *LATER_VERSIONS]))
def test_I012_on_generated_stories(data, rules):
    """Switching forced records off before the resume never lowers the class the resume declares."""
    world = data.draw(story_worlds(observing=True))
    steps = data.draw(run_stories(world, changing=False))
    kind = data.draw(st.sampled_from(["snippet", "skill"]))
    records = world["snippets" if kind == "snippet" else "skills"]
    if steps[-1]["op"] != "resume" or not records:
        return
    uids = data.draw(st.lists(st.sampled_from([r["uid"] for r in records]), min_size=1, unique=True))
    before = _gated(_story(world, steps, rules), "resume")
    after = _gated(_story(copy.deepcopy(world), _switched_off_before_resume(steps, kind, uids), rules), "resume")
    if before and after:
        rank = {None: UNDECLARED, **{c.value: c.rank for c in DataClass}}
        assert rank[after["declared_class"]] >= rank[before["declared_class"]]


@settings(max_examples=150, deadline=None)
@given(st.data(), st.sampled_from(sorted(VERSIONS)))
def test_I013_on_generated_stories(data, rules):
    """An installation that classified nothing: every gated step, under every version, is undeclared and goes out."""
    world = without_classes(data.draw(story_worlds()))
    steps = data.draw(run_stories(world, classified=False))
    for result in _story(world, steps, rules)["results"]:
        if result.get("decision") not in (None, "dry_run"):
            assert (result["decision"], result["source"], result["sent"]) == ("undeclared", "", True)
