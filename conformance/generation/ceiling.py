"""Fast seeded trust-ceiling scenarios: single sends, readouts and whole run stories, over the corners of every reading.

One world generator serves both: three providers, three models, three
configurations whose fallbacks name each other (trimmed, cased, deleted,
inactive, missing) and a few snippets and skills. A scenario is either a
handful of sends, readouts and classifies with operator changes between
them, or a run's story (queue, dequeue, suspend, resume, sometimes
suspended again) with a stored state of any shape and changes at every
gap, the run's own configuration among what a change may delete. A few
scenarios are drawn on each world, each with steps of its own.
"""

from __future__ import annotations

from gateproof.model.versions import DEFAULT_VERSION

from .corners import (CLASS_CORNERS, CLASSES, IDENTIFIERS, NAMES, QUEUED_UID_CORNERS, REQUEST_UID_CORNERS, STATE_UID_CORNERS,
                      SWITCHES, TAGS, USER_UIDS, ZONE_CORNERS, ZONES)
from .draw import Draw
from .side_corners import side_corners, side_steps

CANARY = "CANARY-7f3a"
PROVIDERS, MODELS, CONFIGURATIONS = ("p0", "p1", "p2"), ("m0", "m1", "m2"), ("c0", "c1", "c2")
FALLBACKS = ["c0", "c1", "c2", "c1", "c2", " C1 ", "C2", "\u00a0c1", "c2\x0b", "\x00c1", "\u00c4", "", "gone", 7, None, ["c1"]]
TEXTS = ["", " ", f"{CANARY} text", CANARY]
MAX_UID = 4
#: Scenarios drawn on each world. Drawing and reading a world cost about two thirds of what running a
#: scenario on it does, and a campaign reads each world once (``harness/hunt.py``).
SCENARIOS_A_WORLD = 3


def data_class(d: Draw):
    roll = d.random.random()
    return d.pick(CLASSES) if roll < 0.7 else (None if roll < 0.85 else d.pick(CLASS_CORNERS))


def zone(d: Draw):
    roll = d.random.random()
    return d.pick(ZONES) if roll < 0.75 else (None if roll < 0.85 else d.pick(ZONE_CORNERS))


def tags(d: Draw) -> str:
    return ",".join(d.some(lambda: d.pick(TAGS), 3))


def snippet(d: Draw, uid: int) -> dict:
    record = {"uid": uid, "identifier": d.pick(IDENTIFIERS), "name": d.pick(NAMES), "text": d.pick(TEXTS), "data_class": data_class(d),
              "tags": tags(d), "active": d.chance(0.75), "hidden": d.chance(0.2), "deleted": d.chance(0.15)}
    if d.chance(0.3):
        record["sorting"] = d.pick([0, 1, 2, -1, 2**31 - 1, -(2**31)])
    return record


def skill(d: Draw, uid: int) -> dict:
    return {"uid": uid, "name": d.pick(NAMES + [f"skill {MAX_UID + 1 - uid}"]), "text": d.pick(TEXTS), "data_class": data_class(d),
            "enabled": d.chance(0.75), "hidden": d.chance(0.2), "deleted": d.chance(0.15)}


def configuration(d: Draw, identifier: str, skill_uids: list[int]) -> dict:
    record = {
        "identifier": identifier,
        "model": d.pick(MODELS + (None, "missing-model")),
        "selection_mode": d.pick(["fixed", "fixed", "criteria"]),
        "fallbacks": d.some(lambda: d.pick(FALLBACKS), 3),
        "system_prompt": d.pick(["", " ", f"{CANARY} prompt", "\u00a0"]),
        "system_prompt_class": data_class(d),
        "snippet_tags": tags(d),
        "skills": d.some(lambda: d.pick(skill_uids), 3) if skill_uids else [],
        "active": d.chance(0.8),
        "deleted": d.chance(0.1) and identifier != CONFIGURATIONS[0],  # c0 stays, so a run can always be queued
    }
    return record


def world(d: Draw) -> dict:
    snippet_uids = list(range(1, d.number(0, MAX_UID) + 1))
    skill_uids = list(range(1, d.number(0, MAX_UID) + 1))
    document = {
        "providers": [{"identifier": p, "zone": zone(d)} for p in PROVIDERS],
        "models": [{"identifier": m, "provider": d.pick(PROVIDERS + (None, "gone"))} for m in MODELS],
        "configurations": [configuration(d, c, skill_uids) for c in CONFIGURATIONS],
        "snippets": [snippet(d, uid) for uid in snippet_uids],
        "skills": [skill(d, uid) for uid in skill_uids],
    }
    if d.chance(0.85):
        document["enforcement"] = d.pick(SWITCHES) if d.chance(0.6) else d.pick(["enforce", "observe"])
    for table, keeps in (("providers", ("identifier",)), ("models", ("identifier",)), ("configurations", ("identifier",)),
                         ("snippets", ("uid",)), ("skills", ("uid",))):
        for record in document[table]:
            d.sparse(record, keeps)
    return document


def uids(d: Draw, corners: list, known: int) -> list:
    """Forced uids: mostly known records (two or more is where order and ties show), sometimes any corner of the reading."""
    def entry():
        return d.number(1, max(known, 1) + 1) if d.chance(0.7) else d.pick(corners)
    return d.some(entry, 4)


def change(d: Draw, document: dict, deleted: set) -> dict:
    """An operator's change between steps, naming only records the world holds; ``deleted`` names what earlier steps deleted."""
    snippets, skills = document["world"]["snippets"], document["world"]["skills"]
    roll = d.number(0, 9)
    if roll <= 2 and (snippets or skills):
        kind, records = ("snippet", snippets) if snippets and (not skills or d.chance(0.5)) else ("skill", skills)
        uid = d.pick(records)["uid"]
        if d.chance(0.2):
            return {"op": "delete", "kind": kind, "uid": uid}
        field = d.pick(["data_class", "data_class", "hidden"] + (["active", "tags"] if kind == "snippet" else ["enabled"]))
        value = data_class(d) if field == "data_class" else (tags(d) if field == "tags" else d.chance(0.5))
        changes = {field: value}
        if kind == "snippet" and d.side.random() < 0.15:  # a sorting written with a zero fraction is that integer (S001.1)
            changes["sorting"] = d.side.choice([0.0, 1.0, -1.0, 2.0, 1, -1])
        return {"op": "update", "kind": kind, "uid": uid, "set": changes}
    providers = [p for p in PROVIDERS if p not in deleted]
    if roll <= 4 and providers:
        return {"op": "update", "kind": "provider", "identifier": d.pick(providers), "set": {"zone": zone(d)}}
    if roll == 5 and providers and d.chance(0.3):
        deleted.add(providers[0])
        return {"op": "delete", "kind": "provider", "identifier": providers[0]}
    if roll <= 5:
        return {"op": "update", "kind": "configuration", "identifier": d.pick(CONFIGURATIONS), "set": {"fallbacks": d.some(lambda: d.pick(FALLBACKS), 2)}}
    if roll == 6:
        target = d.pick(CONFIGURATIONS)
        if d.chance(0.4):
            deleted.add(target)
            return {"op": "delete", "kind": "configuration", "identifier": target}
        field = d.pick(["active", "system_prompt_class", "model", "selection_mode"])
        value = {"active": d.chance(0.5), "system_prompt_class": data_class(d), "model": d.pick(MODELS + (None,)),
                 "selection_mode": d.pick(["fixed", "criteria"])}[field]
        changes = {field: value}
        if skills and d.side.random() < 0.15:  # attached skills named by uids, some written with a zero fraction (S001.1)
            chosen = d.side.sample(skills, min(len(skills), d.side.randint(1, 2)))
            changes["skills"] = [float(skill["uid"]) if d.side.random() < 0.6 else skill["uid"] for skill in chosen]
        return {"op": "update", "kind": "configuration", "identifier": target, "set": changes}
    if d.chance(0.2):  # unset removes the switch whatever value the step also carries (S001.7)
        return {"op": "set_enforcement", "unset": True, **({"value": d.side.choice(SWITCHES)} if d.side.random() < 0.4 else {})}
    return {"op": "set_enforcement", "value": d.pick(SWITCHES)}


def live_configurations(document: dict, deleted: set) -> list[str]:
    """The configurations a step may name: those neither stored deleted nor deleted by an earlier step."""
    return [c["identifier"] for c in document["world"]["configurations"] if not c.get("deleted") and c["identifier"] not in deleted]


def send(d: Draw, document: dict, deleted: set) -> dict:
    w = document["world"]
    step = {"op": "send", "configuration": d.pick(live_configurations(document, deleted)), "forced_snippets": uids(d, REQUEST_UID_CORNERS, len(w["snippets"])),
            "forced_skills": uids(d, REQUEST_UID_CORNERS, len(w["skills"])), "input": f"{CANARY} task input"}
    if d.chance(0.5):
        step["serving_model"] = d.pick(MODELS + (None,))
    if d.chance(0.5):
        step["be_user"] = d.pick(USER_UIDS)
    if d.chance(0.1):
        step["dry_run"] = d.chance(0.8)
    if d.chance(0.1):
        step["system_prompt_override"] = f"{CANARY} override"
    if d.side.random() < 0.2:  # a playground send that names a run: its audit record carries the run's uid (C144.14)
        step["run_uid"] = d.side.choice([1, 42, 2**31 - 1])
    return step


def sends(d: Draw, document: dict) -> list[dict]:
    """Sends, readouts and classifies, with operator changes between them."""
    steps, deleted = [], set()
    for _ in range(d.number(1, 4)):
        roll = d.number(0, 9)
        if not live_configurations(document, deleted):
            break
        if roll <= 5:
            steps.append(send(d, document, deleted))
        elif roll <= 7:
            w = document["world"]
            steps.append({"op": "readout", "configuration": d.pick(live_configurations(document, deleted)),
                          "forced_snippets": uids(d, REQUEST_UID_CORNERS, len(w["snippets"])), "forced_skills": uids(d, REQUEST_UID_CORNERS, len(w["skills"]))})
        else:
            steps.append({"op": "classify", "configuration": d.pick(live_configurations(document, deleted))})
        if d.chance(0.35):
            steps.append(change(d, document, deleted))
    return steps


def stored_state(d: Draw, known: int) -> dict:
    """A suspend state written as a row may hold it: legacy (no keys), one key, lists of any entries, or an object."""
    state = {}
    for key in ("forced_snippet_uids", "forced_skill_uids"):
        if d.chance(0.7):
            state[key] = d.some(lambda: d.number(1, known + 1) if d.chance(0.5) else d.pick(STATE_UID_CORNERS), 3) if d.chance(0.75) else d.pick(["1", 1, None, {}, {"a": 1}, {"b": "2", "c": 0}, {"a": "3"}])
    return state


def waiting(d: Draw, document: dict, deleted: set, configuration: str, most: int) -> list[dict]:
    """Changes while a run waits; now and then its own configuration deleted, so the dequeue or resume finds it gone."""
    steps = d.some(lambda: change(d, document, deleted), most)
    if d.chance(0.05):
        deleted.add(configuration)
        steps.append({"op": "delete", "kind": "configuration", "identifier": configuration})
    return steps


def suspension(d: Draw, document: dict, deleted: set, run: str, configuration: str) -> list[dict]:
    """A running run suspended and resumed, with changes before and between."""
    w = document["world"]
    steps = d.some(lambda: change(d, document, deleted), 2)
    suspend = {"op": "suspend", "run": run, "reason": d.pick(["approval", "input"])}
    if d.chance(0.4):
        suspend["state"] = drawn_state(d, w)
    steps.append(suspend)
    steps += waiting(d, document, deleted, configuration, 3)
    resume = {"op": "resume", "run": run, "with_input": suspend["reason"] == "input" if d.chance(0.9) else d.chance(0.5)}
    if d.side.random() < 0.15:  # left out, which is false whatever the suspend waited for (S001.7)
        del resume["with_input"]
    if d.chance(0.3):
        resume["serving_model"] = d.pick(MODELS + (None,))
    steps.append(resume)
    return steps


def queued(d: Draw, w: dict, run: str, configuration: str) -> dict:
    """A queue step of ``run`` through ``configuration``, its forced lists drawn as a queued payload stores them."""
    return {"op": "queue", "run": run, "configuration": configuration, "forced_snippets": uids(d, QUEUED_UID_CORNERS, len(w["snippets"])),
            "forced_skills": uids(d, QUEUED_UID_CORNERS, len(w["skills"]))}


def drawn_state(d: Draw, w: dict) -> dict:
    """A suspend's stored state, its uids drawn about as many as the world's largest table of sources."""
    return stored_state(d, max(len(w["snippets"]), len(w["skills"]), 1))


def interleaved(d: Draw, document: dict, deleted: set) -> list[dict]:
    """Two runs of one configuration queued, dequeued, suspended and resumed in turn: each run keeps its own forced set
    and stored state (C165.1), whichever of the two was suspended last."""
    w, runs = document["world"], ("r1", "r2")
    configuration = d.pick(live_configurations(document, deleted))
    steps = [queued(d, w, run, configuration) for run in runs]
    steps += [{"op": "dequeue", "run": run} for run in runs]
    suspends = [{"op": "suspend", "run": run, "reason": d.pick(["approval", "input"])} for run in runs]
    for suspend in suspends:
        if d.chance(0.4):
            suspend["state"] = drawn_state(d, w)
    return steps + suspends + [{"op": "resume", "run": s["run"], "with_input": s["reason"] == "input"} for s in suspends]


def story(d: Draw, document: dict) -> list[dict]:
    """One run's life, or two, with changes at every gap, or two runs of one configuration in turn; sometimes a playground send first."""
    w, deleted, steps = document["world"], set(), []
    if d.chance(0.3):
        steps.append(send(d, document, deleted))
    if d.side.random() < 0.08 and live_configurations(document, deleted):
        return steps + interleaved(d, document, deleted)
    for run in ["r1", "r2"][: 1 + d.chance(0.25)]:
        choices = live_configurations(document, deleted)
        if not choices:
            break
        queue = queued(d, w, run, d.pick(choices))
        if d.chance(0.4):
            queue["uid"] = d.pick([0, 1, 42, 2**31 - 1])
        if d.chance(0.4):
            queue["be_user"] = d.pick(USER_UIDS)
        if d.chance(0.1):
            queue["dry_run"] = d.pick([True, "true", 1, False, None])
        steps.append(queue)
        steps += waiting(d, document, deleted, queue["configuration"], 2)
        steps.append({"op": "dequeue", "run": run, **({"serving_model": d.pick(MODELS + (None,))} if d.chance(0.4) else {})})
        if d.chance(0.2):
            continue
        # A second suspension stores what the resume rebuilt, by whichever lookup the resume used.
        for _ in range(1 + d.chance(0.3)):
            steps += suspension(d, document, deleted, run, queue["configuration"])
    return steps


def collation(d: Draw) -> str | None:
    """C144.19: now and then a collation, under which names "a" and "A" tie apart.

    Drawn from the side stream, so the main stream, and every scenario drawn
    from it, is what it was without it.
    """
    roll = d.side.random()
    return None if roll >= 0.2 else ("case-insensitive" if roll < 0.1 else "case-sensitive")


def scenarios_on_a_world(d: Draw, rules: str, first: int) -> list[dict]:
    """:data:`SCENARIOS_A_WORLD` scenarios on one drawn world, numbered from ``first``: one dict is every document's world."""
    shared = world(d)
    side_corners(d, shared)
    chosen = collation(d)
    if chosen is not None and "collation" not in shared:
        shared["collation"] = chosen
    return [ceiling_scenario(d, rules, number, shared) for number in range(first, first + SCENARIOS_A_WORLD)]


def ceiling_scenario(d: Draw, rules: str, number: int, drawn_world: dict) -> dict:
    """One scenario on ``drawn_world``: sends, readouts and classifies, or a run's story, each as likely."""
    document = {"gateproof": 1, "id": f"generated.{rules}.{number}", "rules": rules, "world": drawn_world}
    document["steps"] = story(d, document) if d.chance(0.5) else sends(d, document)
    side_steps(d.side, document)
    if rules == DEFAULT_VERSION and d.chance(0.1):
        del document["rules"]  # a document that names no version is decided under the default (S001.1)
    return document
