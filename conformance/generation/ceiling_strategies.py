"""Hypothesis strategies for trust-ceiling scenarios, importable by anyone testing against the rules.

Every strategy returns JSON-ready documents valid against the scenario
schema. Values are drawn from small alphabets on purpose: colliding names,
tags and identifiers are where the rules are subtle.

For example::

    from hypothesis import given
    from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios

    @given(ceiling_scenarios())
    def test_my_gateway(document): ...
"""

from __future__ import annotations

from hypothesis import strategies as st

from gateproof.model.ladder import DataClass
from gateproof.model.versions import VERSIONS
from gateproof.model.zones import TrustZone

#: Planted in every source text: it must never surface in a name, message or audit record.
CANARY = "CANARY-7f3a"

CLASS_VALUES = [c.value for c in DataClass]
ZONE_VALUES = [z.value for z in TrustZone]


def raw_classes() -> st.SearchStrategy:
    """Stored class values: mostly real, sometimes undeclared or a near miss that must read as undeclared."""
    near_misses = st.sampled_from(["", "publiccontent", " sourceCode", "secret", "SECRETADJACENT"])
    return st.one_of(st.sampled_from(CLASS_VALUES), st.sampled_from(CLASS_VALUES), st.none(), near_misses)


def raw_zones() -> st.SearchStrategy:
    """Stored zone values, with the unknown and empty values that read as externalGlobal."""
    return st.one_of(st.sampled_from(ZONE_VALUES), st.sampled_from(ZONE_VALUES), st.sampled_from(["", "Local", "onPrem"]), st.none())


def raw_switches() -> st.SearchStrategy:
    """Raw enforcement switch values; None here stands for a value never stored."""
    return st.sampled_from(["observe", " OBSERVE ", "Observe\n", "enforce", "observ", "", False, 0, ["observe"], None, "never"])


short_names = st.sampled_from(["a", "b", "c", "A", " a "])
tag_lists = st.lists(st.sampled_from(["faq", "FAQ", "ops", " ops ", "legal", ""]), max_size=3).map(",".join)
texts = st.sampled_from(["", " ", f"{CANARY} secret text", f"{CANARY}"])


@st.composite
def snippets(draw, uid: int) -> dict:
    return {
        "uid": uid,
        "identifier": draw(st.sampled_from(["", "x", "y", "X", " x "])),
        "name": draw(short_names),
        "text": draw(texts),
        "data_class": draw(raw_classes()),
        "tags": draw(tag_lists),
        "active": draw(st.booleans()),
        "hidden": draw(st.booleans()),
        "deleted": draw(st.sampled_from([False, False, False, True])),
        "sorting": draw(st.integers(0, 3)),
    }


@st.composite
def skills(draw, uid: int) -> dict:
    return {
        "uid": uid,
        "name": draw(short_names),
        "text": draw(texts),
        "data_class": draw(raw_classes()),
        "enabled": draw(st.booleans()),
        "hidden": draw(st.booleans()),
        "deleted": draw(st.sampled_from([False, False, False, True])),
    }


PROVIDERS = ["p0", "p1", "p2"]
MODELS = ["m0", "m1", "m2"]
CONFIGURATIONS = ["c0", "c1", "c2"]


@st.composite
def configurations(draw, identifier: str, skill_uids: list[int]) -> dict:
    return {
        "identifier": identifier,
        "model": draw(st.sampled_from(MODELS + [None, "missing-model"])),
        "selection_mode": draw(st.sampled_from(["fixed", "criteria"])),
        "fallbacks": draw(st.lists(st.sampled_from(CONFIGURATIONS + [" C1 ", "", "gone", 7]), max_size=2)),
        "system_prompt": draw(st.sampled_from(["", " ", f"{CANARY} prompt"])),
        "system_prompt_class": draw(raw_classes()),
        "snippet_tags": draw(tag_lists),
        "skills": draw(st.lists(st.sampled_from(skill_uids), max_size=3)) if skill_uids else [],
        "active": draw(st.booleans()),
        "deleted": False,
    }


@st.composite
def worlds(draw, max_snippets: int = 6, max_skills: int = 4) -> dict:
    """A world of up to three providers, models and configurations and a few snippets and skills."""
    snippet_uids = list(range(1, draw(st.integers(0, max_snippets)) + 1))
    skill_uids = list(range(1, draw(st.integers(0, max_skills)) + 1))
    world = {
        "providers": [{"identifier": p, "zone": draw(raw_zones())} for p in PROVIDERS],
        "models": [{"identifier": m, "provider": draw(st.sampled_from(PROVIDERS + [None, "gone"]))} for m in MODELS],
        "configurations": [draw(configurations(c, skill_uids)) for c in CONFIGURATIONS],
        "snippets": [draw(snippets(uid)) for uid in snippet_uids],
        "skills": [draw(skills(uid)) for uid in skill_uids],
    }
    switch = draw(raw_switches())
    if switch is not None:
        world["enforcement"] = switch
    return world


def forced_uids(known: int) -> st.SearchStrategy:
    """Forced uid lists as a request carries them: known uids, unknown ones, and junk the path must drop."""
    entry = st.one_of(st.integers(1, max(known, 1) + 1), st.sampled_from(["1", "2", " 3", "0", "-1", "x", 1.0, None, True]))
    return st.lists(entry, max_size=4)


@st.composite
def send_steps(draw, world: dict) -> dict:
    step = {
        "op": "send",
        "configuration": draw(st.sampled_from(CONFIGURATIONS)),
        "forced_snippets": draw(forced_uids(len(world["snippets"]))),
        "forced_skills": draw(forced_uids(len(world["skills"]))),
        "serving_model": draw(st.sampled_from(MODELS + [None])),
        "input": f"{CANARY} task input",
        "be_user": draw(st.sampled_from([0, 5, "5", None])),
    }
    if draw(st.integers(0, 9)) == 0:
        step["dry_run"] = True
    return step


@st.composite
def steps(draw, world: dict) -> dict:
    kind = draw(st.sampled_from(["send", "send", "send", "readout", "classify"]))
    if kind == "send":
        return draw(send_steps(world))
    configuration = draw(st.sampled_from(CONFIGURATIONS))
    if kind == "classify":
        return {"op": "classify", "configuration": configuration}
    return {
        "op": "readout",
        "configuration": configuration,
        "forced_snippets": draw(forced_uids(len(world["snippets"]))),
        "forced_skills": draw(forced_uids(len(world["skills"]))),
    }


@st.composite
def ceiling_scenarios(draw, rules: str | None = None, max_steps: int = 3, max_snippets: int = 6, max_skills: int = 4) -> dict:
    """A complete scenario document for the trust-ceiling rules."""
    world = draw(worlds(max_snippets, max_skills))
    return {
        "gateproof": 1,
        "id": f"generated/{draw(st.integers(0, 10**9))}",
        "rules": rules or draw(st.sampled_from(sorted(VERSIONS))),
        "world": world,
        "steps": draw(st.lists(steps(world), min_size=1, max_size=max_steps)),
    }
