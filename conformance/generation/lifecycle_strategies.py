"""Hypothesis strategies for stories: a run queued, dequeued, suspended and resumed while operators change records.

Every strategy returns JSON-ready documents valid against the scenario
schema, with the names of :mod:`gateproof.conformance.generation.ceiling_strategies`. Optional
parts of a story are lists or flags, so a failing story shrinks to the fewest
steps and forced sources that still show the failure. The inner strategies
are built once, at import: a difference search draws thousands of stories.

For example::

    from hypothesis import given
    from gateproof.conformance.generation.lifecycle_strategies import lifecycle_scenarios

    @given(lifecycle_scenarios(rules="adr-175"))
    def test_my_runner(document): ...
"""

from __future__ import annotations

from hypothesis import strategies as st

from .ceiling_strategies import CLASS_VALUES, CONFIGURATIONS, MODELS, PROVIDERS, ZONE_VALUES
from .stories import CHANGE_KINDS, FORCED, MAX_RECORDS, ODD_FORCED, SKILL_CLASSES, SWITCHES, as_change, without_classes

_classes = st.sampled_from([None] + CLASS_VALUES)
_skill_classes = st.sampled_from(SKILL_CLASSES)
_zones = st.sampled_from(ZONE_VALUES + [""])
_switches = st.sampled_from(SWITCHES)
_flags = st.booleans()
_rarely = st.sampled_from([False, False, False, True])
_counts = st.integers(0, MAX_RECORDS)
_uids = st.integers(1, MAX_RECORDS)
_models = st.sampled_from(MODELS[:2] + [None])
_configurations = st.sampled_from(CONFIGURATIONS)
_forced = st.one_of(st.sampled_from(FORCED), st.lists(st.one_of(st.integers(1, MAX_RECORDS + 1), st.sampled_from(ODD_FORCED)), max_size=3))
_no_forced = st.just([])
_change_kinds = st.sampled_from(CHANGE_KINDS)
_record_kinds = st.sampled_from(["snippet", "skill"])
_changes = st.tuples(_change_kinds, _record_kinds, _uids, _flags, _classes, _zones, _switches, _configurations)


@st.composite
def story_worlds(draw, tied_skills: bool = False, observing: bool = False) -> dict:
    """A small world for stories: two providers and models, three configurations, up to three snippets and skills.

    Skill names mostly run against uid order, so a name-ordered lookup and the
    caller's order disagree; sometimes two skills share a name. With
    ``tied_skills`` every skill and system prompt declares the same class, so
    the fold's tie rule decides which source a refusal names. With ``observing`` the switch
    observes, so a refused run goes on to suspend and resume.

    Smaller than :func:`~gateproof.conformance.generation.ceiling_strategies.worlds` on purpose:
    a story multiplies every record by its steps, and a small world shrinks
    to a readable counterexample.
    """
    skill_count = draw(_counts)
    skill_classes = st.just(draw(_skill_classes)) if tied_skills else _skill_classes
    world = {
        "providers": [{"identifier": p, "zone": draw(_zones)} for p in PROVIDERS[:2]],
        "models": [{"identifier": m, "provider": p} for m, p in zip(MODELS[:2], PROVIDERS[:2])],
        "configurations": [
            {"identifier": c, "model": draw(_models), "system_prompt": "prompt", "system_prompt_class": draw(skill_classes if tied_skills else _classes),
             "skills": [u for u in draw(st.lists(_uids, max_size=1)) if u <= skill_count]}
            for c in CONFIGURATIONS
        ],
        "snippets": [
            {"uid": uid, "identifier": draw(st.sampled_from(["", "x", "y"])), "name": f"snippet {uid}", "data_class": draw(_classes),
             "active": draw(_flags), "deleted": draw(_rarely)}
            for uid in range(1, draw(_counts) + 1)
        ],
        "skills": [
            {"uid": uid, "name": draw(st.sampled_from([f"skill {MAX_RECORDS + 1 - uid}", "a"])), "data_class": draw(skill_classes), "enabled": draw(_flags), "deleted": draw(_rarely)}
            for uid in range(1, skill_count + 1)
        ],
    }
    switch = "observe" if observing else draw(_switches)
    if switch is not None:
        world["enforcement"] = switch
    return world


@st.composite
def run_stories(draw, world: dict, run: str = "r1", forcing: bool = True, changing: bool = True, classified: bool = True) -> list[dict]:
    """One run's story: queue, changes, dequeue, changes, suspend, changes, resume (the tail optional)."""
    forced = _forced if forcing else _no_forced
    queue = {"op": "queue", "run": run, "configuration": draw(_configurations), "forced_snippets": draw(forced), "forced_skills": draw(forced)}
    targets = {"snippet": queue["forced_snippets"], "skill": queue["forced_skills"]}

    def changes() -> list[dict]:
        return [as_change(world, drawn, classified, targets) for drawn in draw(st.lists(_changes, max_size=2))] if changing else []

    if draw(st.integers(0, 9)) == 0:
        queue["dry_run"] = draw(st.sampled_from([True, "true", 1]))
    steps = [queue] + changes()
    steps.append({"op": "dequeue", "run": run, "serving_model": draw(st.sampled_from([None] + MODELS[:2]))})
    if draw(st.integers(0, 4)) == 0:
        return steps
    steps += changes()
    suspend = {"op": "suspend", "run": run, "reason": draw(st.sampled_from(["approval", "input"]))}
    if changing and draw(st.integers(0, 9)) == 0:
        suspend["state"] = {}  # a row written before forced sets were persisted: older code changed it
    steps.append(suspend)
    steps += changes()
    steps.append({"op": "resume", "run": run, "with_input": suspend["reason"] == "input"})
    return steps


@st.composite
def lifecycle_scenarios(
    draw, rules: str | None = None, forcing: bool = True, changing: bool = True, classified: bool = True, world_strategy=None
) -> dict:
    """A story: sometimes a playground send, then one run's life with operators changing records around it.

    ``world_strategy`` overrides the worlds drawn (for example the richer
    ``strategies.worlds()``); the flags leave out forced sources, operator
    changes or declared classes, for the claims that need such stories.
    """
    world = draw(world_strategy if world_strategy is not None else story_worlds())
    if not classified:
        world = without_classes(world)
    steps = []
    if draw(_flags):
        forced = _forced if forcing else _no_forced
        steps.append({"op": "send", "configuration": draw(_configurations), "forced_snippets": draw(forced), "forced_skills": draw(forced)})
    steps += draw(run_stories(world, forcing=forcing, changing=changing, classified=classified))
    document = {"gateproof": 1, "id": "generated/story", "world": world, "steps": steps}
    if rules is not None:
        document["rules"] = rules
    return document
