"""Fast seeded stories for the consequence claims: the draws of :mod:`.lifecycle_strategies`, without hypothesis.

A claim check tries a thousand stories and most claims hold, so every story
is drawn and never shrunk; drawing them through hypothesis cost more than
deciding them. These are the same small worlds and run stories, drawn from
one seeded stream, and :func:`fits` says whether a document still belongs to
a claim's kind of story, so a counterexample reduced as a document
(:mod:`.reducer`) never leaves the stories the claim speaks of.
"""

from __future__ import annotations

from attrs import frozen

from .ceiling_strategies import CLASS_VALUES, CONFIGURATIONS, MODELS, PROVIDERS, ZONE_VALUES
from .draw import Draw

MAX_RECORDS = 3  # snippets and skills each; uid MAX_RECORDS + 1 is never stored
# Fewer classes for skills, so that two forced skills often tie: the tie is where order shows.
SKILL_CLASSES = [CLASS_VALUES[2], None, CLASS_VALUES[1], CLASS_VALUES[5]]
SWITCHES = ["enforce", "observe", None, " OBSERVE ", "observ"]  # None: never stored
# Common forced sets first (two or more uids are where order and ties show), then anything a payload may hold.
FORCED = [[], [1], [1, 2], [2, 3], [1, 2, 3], [2, 1], [1, 1]]
ODD_FORCED = ["1", 0, -1, 1.5]
FORCED_ENTRIES = list(range(1, MAX_RECORDS + 2)) + ODD_FORCED
# Switching a forced record off is the change most ADRs of the series turn on, so it is drawn most.
CHANGE_KINDS = ["switch", "switch", "switch", "class", "class", "delete", "zone", "zone", "enforcement", "delete configuration"]
CHANGES = {"update", "delete", "set_enforcement"}


def without_classes(world: dict) -> dict:
    """The same world with every declared class removed: an installation that classified nothing."""
    return {
        **world,
        "configurations": [{**c, "system_prompt_class": None} for c in world["configurations"]],
        "snippets": [{**s, "data_class": None} for s in world["snippets"]],
        "skills": [{**s, "data_class": None} for s in world["skills"]],
    }


def as_change(world: dict, drawn: tuple, classified: bool = True, targets: dict | None = None) -> dict:
    """One drawn change made concrete for ``world``; a change naming a record the world lacks moves the switch instead.

    ``targets`` maps a record kind to the uids a run forces: a change to that
    kind then picks one of them, since a change to an unforced record rarely
    matters to a run.
    """
    kind, record_kind, uid, flag, data_class, zone, switch, configuration = drawn
    records = world["snippets" if record_kind == "snippet" else "skills"]
    if kind == "zone":
        return {"op": "update", "kind": "provider", "identifier": PROVIDERS[uid % 2], "set": {"zone": zone}}
    if kind == "delete configuration":
        return {"op": "delete", "kind": "configuration", "identifier": configuration}
    if kind == "enforcement" or not records or (kind == "class" and not classified):
        return {"op": "set_enforcement", "unset": True} if switch is None else {"op": "set_enforcement", "value": switch}
    forced = [u for u in (targets or {}).get(record_kind, ()) if isinstance(u, int) and 1 <= u <= len(records)]
    uid = forced[(uid - 1) % len(forced)] if forced else (uid - 1) % len(records) + 1
    if kind == "delete":
        return {"op": "delete", "kind": record_kind, "uid": uid}
    field = "data_class" if kind == "class" else ("active" if record_kind == "snippet" else "enabled")
    return {"op": "update", "kind": record_kind, "uid": uid, "set": {field: data_class if kind == "class" else flag}}


@frozen
class StoryKind:
    """Which stories a claim is about: the flags of :func:`~.lifecycle_strategies.lifecycle_scenarios`."""

    forcing: bool = True
    changing: bool = True
    classified: bool = True
    tied_skills: bool = False
    observing: bool = False


def story_world(d: Draw, kind: StoryKind) -> dict:
    """Two providers and models, three configurations, up to three snippets and skills, as :func:`~.lifecycle_strategies.story_worlds` draws them."""
    skill_count = d.number(0, MAX_RECORDS)
    tied = d.pick(SKILL_CLASSES)
    skill_class = (lambda: tied) if kind.tied_skills else (lambda: d.pick(SKILL_CLASSES))
    any_class = (lambda: tied) if kind.tied_skills else (lambda: d.pick([None] + CLASS_VALUES))
    world = {
        "providers": [{"identifier": p, "zone": d.pick(ZONE_VALUES + [""])} for p in PROVIDERS[:2]],
        "models": [{"identifier": m, "provider": p} for m, p in zip(MODELS[:2], PROVIDERS[:2])],
        "configurations": [
            {"identifier": c, "model": d.pick(MODELS[:2] + [None]), "system_prompt": "prompt", "system_prompt_class": any_class(),
             "skills": [u for u in d.some(lambda: d.number(1, MAX_RECORDS), 1) if u <= skill_count]}
            for c in CONFIGURATIONS
        ],
        "snippets": [
            {"uid": uid, "identifier": d.pick(["", "x", "y"]), "name": f"snippet {uid}", "data_class": d.pick([None] + CLASS_VALUES),
             "active": d.chance(0.5), "deleted": d.chance(0.25)}
            for uid in range(1, d.number(0, MAX_RECORDS) + 1)
        ],
        "skills": [
            {"uid": uid, "name": d.pick([f"skill {MAX_RECORDS + 1 - uid}", "a"]), "data_class": skill_class(), "enabled": d.chance(0.5),
             "deleted": d.chance(0.25)}
            for uid in range(1, skill_count + 1)
        ],
    }
    switch = "observe" if kind.observing else d.pick(SWITCHES)
    if switch is not None:
        world["enforcement"] = switch
    return without_classes(world) if not kind.classified else world


def _forced(d: Draw, kind: StoryKind) -> list:
    if not kind.forcing:
        return []
    return d.pick(FORCED) if d.chance(0.5) else d.some(lambda: d.pick(FORCED_ENTRIES), 3)


def _drawn_change(d: Draw) -> tuple:
    """One change as :func:`as_change` reads it."""
    return (d.pick(CHANGE_KINDS), d.pick(["snippet", "skill"]), d.number(1, MAX_RECORDS), d.chance(0.5), d.pick([None] + CLASS_VALUES),
            d.pick(ZONE_VALUES + [""]), d.pick(SWITCHES), d.pick(CONFIGURATIONS))


def run_story(d: Draw, world: dict, kind: StoryKind, run: str = "r1") -> list[dict]:
    """Queue, changes, dequeue, changes, suspend, changes, resume (the tail optional), as :func:`~.lifecycle_strategies.run_stories` draws it."""
    queue = {"op": "queue", "run": run, "configuration": d.pick(CONFIGURATIONS), "forced_snippets": _forced(d, kind), "forced_skills": _forced(d, kind)}
    targets = {"snippet": queue["forced_snippets"], "skill": queue["forced_skills"]}

    def changes() -> list[dict]:
        return [as_change(world, _drawn_change(d), kind.classified, targets) for _ in range(d.number(0, 2))] if kind.changing else []

    if d.number(0, 9) == 0:
        queue["dry_run"] = d.pick([True, "true", 1])
    steps = [queue] + changes()
    steps.append({"op": "dequeue", "run": run, "serving_model": d.pick([None] + MODELS[:2])})
    if d.number(0, 4) == 0:
        return steps
    steps += changes()
    suspend = {"op": "suspend", "run": run, "reason": d.pick(["approval", "input"])}
    if kind.changing and d.number(0, 9) == 0:
        suspend["state"] = {}  # a row written before forced sets were persisted: older code changed it
    steps.append(suspend)
    steps += changes()
    steps.append({"op": "resume", "run": run, "with_input": suspend["reason"] == "input"})
    return steps


def story_document(seed: int, kind: StoryKind = StoryKind()) -> dict:
    """One story of ``kind``, the same for the same seed: sometimes a playground send, then one run's life."""
    d = Draw(seed)
    world = story_world(d, kind)
    steps = []
    if d.chance(0.5):
        steps.append({"op": "send", "configuration": d.pick(CONFIGURATIONS), "forced_snippets": _forced(d, kind), "forced_skills": _forced(d, kind)})
    steps += run_story(d, world, kind)
    return {"gateproof": 1, "id": "generated/story", "world": world, "steps": steps}


def _classes(document: dict) -> list:
    world = document.get("world", {})
    return ([c.get("system_prompt_class") for c in world.get("configurations", [])]
            + [r.get("data_class") for table in ("snippets", "skills") for r in world.get(table, [])])


def fits(document: dict, kind: StoryKind) -> bool:
    """Whether ``document`` is a story of ``kind``: what a reduction must keep for the claim to still be about it."""
    steps = document.get("steps", [])
    world = document.get("world", {})
    if not kind.forcing and any(s.get("forced_snippets") or s.get("forced_skills") for s in steps):
        return False
    if not kind.changing and any(s.get("op") in CHANGES or "state" in s for s in steps):
        return False
    if not kind.classified and any(value is not None for value in _classes(document)):
        return False
    if kind.observing and world.get("enforcement") != "observe":
        return False
    if kind.tied_skills:
        tied = [c.get("system_prompt_class") for c in world.get("configurations", [])] + [s.get("data_class") for s in world.get("skills", [])]
        if len(set(map(repr, tied))) > 1:
            return False
    return True
