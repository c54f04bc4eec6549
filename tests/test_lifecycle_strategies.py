"""The story strategies produce valid stories, and the flags do what they say."""

from hypothesis import HealthCheck, given, settings

from gateproof.conformance.generation.lifecycle_strategies import lifecycle_scenarios, story_worlds
from gateproof.model.scenario import read_scenario, run_scenario

FAST = settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@FAST
@given(lifecycle_scenarios())
def test_every_generated_story_reads_and_runs(document):
    outcome = run_scenario(read_scenario(document))
    assert len(outcome["results"]) == len(document["steps"])


@FAST
@given(lifecycle_scenarios(forcing=False, classified=False, changing=False))
def test_the_flags_leave_out_forced_sources_classes_and_changes(document):
    assert all(not s.get("forced_snippets") and not s.get("forced_skills") for s in document["steps"])
    assert all(s["op"] not in ("update", "delete", "set_enforcement") for s in document["steps"])
    world = document["world"]
    assert all(r.get("data_class") is None for r in world["snippets"] + world["skills"])


@FAST
@given(story_worlds(tied_skills=True, observing=True))
def test_tied_worlds_give_every_skill_one_class_and_observe(world):
    assert len({s["data_class"] for s in world["skills"]}) <= 1
    assert world["enforcement"] == "observe"
