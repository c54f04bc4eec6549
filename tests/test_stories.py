"""The seeded stories the diff search and the consequence claims draw: valid, of the kind asked for, and what a reduction must keep."""

import pytest

from gateproof.conformance.diff.claims import declared_claims
from gateproof.conformance.generation.stories import StoryKind, fits, story_document
from gateproof.model.scenario import read_scenario

KINDS = [StoryKind(), *(claim.stories for claim in declared_claims())]


@pytest.mark.parametrize("kind", KINDS, ids=repr)
def test_every_story_is_a_valid_scenario_of_its_kind(kind):
    for seed in range(400):
        story = story_document(seed, kind)
        read_scenario(story)
        assert fits(story, kind), (seed, story)


def test_the_same_seed_draws_the_same_story_and_seeds_differ():
    assert story_document(7) == story_document(7)
    assert len({repr(story_document(seed)) for seed in range(50)}) > 45


def test_stories_reach_what_the_claims_are_about():
    """Forced sources, changes between steps, declared classes, suspensions and resumes all occur, and ties between skills."""
    stories = [story_document(seed) for seed in range(400)]
    steps = [step for story in stories for step in story["steps"]]
    assert any(step.get("forced_skills") and len(step["forced_skills"]) >= 2 for step in steps)
    assert {"update", "delete", "set_enforcement", "send", "queue", "dequeue", "suspend", "resume"} <= {step["op"] for step in steps}
    assert any(s.get("data_class") for story in stories for s in story["world"]["skills"])
    tied = [story_document(seed, StoryKind(tied_skills=True)) for seed in range(100)]
    assert any(len(story["world"]["skills"]) >= 2 and story["world"]["skills"][0]["data_class"] is not None for story in tied)


def _story(**world) -> dict:
    return {"gateproof": 1, "id": "s", "world": {"configurations": [{"identifier": "c0"}], **world},
            "steps": [{"op": "queue", "run": "r1", "configuration": "c0"}, {"op": "dequeue", "run": "r1"}]}


def test_fits_refuses_a_story_outside_each_flag():
    plain = _story()
    assert all(fits(plain, kind) for kind in (StoryKind(forcing=False), StoryKind(changing=False), StoryKind(classified=False)))
    forcing = {**plain, "steps": [{**plain["steps"][0], "forced_skills": [1]}, plain["steps"][1]]}
    assert fits(forcing, StoryKind()) and not fits(forcing, StoryKind(forcing=False))
    changing = {**plain, "steps": [plain["steps"][0], {"op": "set_enforcement", "unset": True}, plain["steps"][1]]}
    assert fits(changing, StoryKind()) and not fits(changing, StoryKind(changing=False))
    classified = _story(skills=[{"uid": 1, "data_class": "public"}])
    assert fits(classified, StoryKind()) and not fits(classified, StoryKind(classified=False))
    assert not fits(plain, StoryKind(observing=True)) and fits(_story(enforcement="observe"), StoryKind(observing=True))
    untied = _story(skills=[{"uid": 1, "data_class": "public"}, {"uid": 2, "data_class": "internal"}])
    assert fits(untied, StoryKind()) and not fits(untied, StoryKind(tied_skills=True))
