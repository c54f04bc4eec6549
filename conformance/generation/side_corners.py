"""Corners of a trust-ceiling world drawn from the draw's side stream, added after the main stream was fixed.

Drawing them from a stream of their own leaves every draw of the main
stream as it was: a seed's scenarios keep their steps, and only the worlds
a corner lands on change.
"""

from __future__ import annotations

from .corners import CLASSES
from .decisive_corners import decisive_steps, decisive_world
from .draw import Draw

#: Identifiers of a fourth configuration: one only a case-insensitive collation equals to c1, which the world lists
#: first (C144.19); one with a space kept in the system prompt's name (C155.2); one a Unicode-aware lowercase of Ä finds (C094.9);
#: one a collation that ignores trailing spaces equals to c1 (C144.19: it does not).
TWIN_CONFIGURATIONS = ("C1", " c1", "\u00e4", "c1 ")
#: The fallback entry that finds a twin only under some readings: c1 finds C1, listed first, under a case-insensitive
#: collation (C144.19) and c1 alone under a case-sensitive one (C094.10); Ä finds ä only when lowercased beyond ASCII (C094.9).
TWIN_FALLBACKS = {"C1": "c1", "\u00e4": "\u00c4", "c1 ": "c1"}
#: Names two snippets tied on class and sorting may carry, where readings order them otherwise: UTF-16 code units put
#: U+1F600 before U+E000, code points after (C144.4); folding to upper case puts "_" after letters, to lower case before;
#: a collation that ignores trailing spaces ties "a" with "a " (C144.19).
PARTING_NAMES = (("\ue000", "\U0001f600"), ("_a", "ab"), ("a", "a "))
#: Identifiers alike once normalised (NFC), told apart as stored (C164.3, C144.5).
NORMALISED_TWINS = ("e\u0301", "\u00e9")


def side_corners(d: Draw, document: dict) -> None:
    """Corners of the world drawn from the side stream, so the main stream is what it was without them.

    A fourth configuration copying c1 under another identifier, mostly listed
    before it; where c1 finds it only under one collation, or Ä only when
    lowercased beyond ASCII, c0 and c2 fall back to that entry
    (:data:`TWIN_FALLBACKS`), and a world with C1 is often case-insensitive,
    C1 sometimes deleted (the entry then finds the undeleted c1 after it).
    A snippet twinned with another under its identifier in the other case,
    hidden where the other is not (C144.5: a hidden one reached first takes
    no key) or both selected (they take one key). A snippet tied with another
    on sorting and name (or a name only a case-insensitive collation equals),
    both selected and mostly declaring a strict class, listed before it
    though its uid is later (after it, where its name sorts first as
    stored). A skill copied under a later uid, listed before the original
    (sometimes its name in the other case, under a case-insensitive collation).
    And snippets or skills listed out of uid order, so the world's order
    (C144.4) and uid order (C165.6) are told apart; then the corners of
    :mod:`.decisive_corners`.
    """
    side = d.side
    configurations, snippets = document["configurations"], document["snippets"]
    if side.random() < 0.15:
        models = [model["identifier"] for model in document["models"]]
        c1 = configurations[1]
        twin = {**c1, "identifier": side.choice(TWIN_CONFIGURATIONS), "model": side.choice(models)}
        configurations.insert(1 if side.random() < 0.8 else len(configurations), twin)
        entry = TWIN_FALLBACKS.get(twin["identifier"])
        if entry is not None:
            # c0 and c2 fall back to the entry alone, mostly through the twin's own model: which configuration the
            # entry finds, if any, then decides whether a send can reach a less trusted zone than the twin's.
            for other in (c for c in configurations if c["identifier"] in ("c0", "c2")):
                other["fallbacks"] = [entry] if side.random() < 0.8 else [*other.get("fallbacks", []), entry]
                if side.random() < 0.7:
                    other["model"] = twin["model"]
            if twin["identifier"] == "c1 " and side.random() < 0.7:
                document["collation"] = "case-insensitive"
            if twin["identifier"] == "C1":
                if side.random() < 0.3:  # C1 deleted, listed first: c1 finds the live c1 after it, never C1 and then nothing
                    twin["deleted"] = True
                elif side.random() < 0.5:  # c1 on no model, the strictest zone: finding it instead of C1 shows at once
                    c1["model"] = None
                if side.random() < 0.6:
                    document["collation"] = "case-insensitive"
    if snippets and side.random() < 0.15:
        position, original = _copied(side, snippets)
        if side.random() < 0.5:
            hidden = not original.get("hidden", False)
        else:  # both selected: one key for the two, as the identifier is lowercased (C144.5)
            original.update(hidden=False, active=True, deleted=False)
            hidden = False
        identifier = str(original.get("identifier", "")).swapcase()
        if side.random() < 0.25:
            original["identifier"], identifier = side.sample(NORMALISED_TWINS, 2)
        twin = {**original, "uid": len(snippets) + 1, "identifier": identifier, "hidden": hidden, "data_class": side.choice(CLASSES)}
        snippets.insert(position if side.random() < 0.7 else position + 1, twin)
    if snippets and side.random() < 0.2:
        position, original = _copied(side, snippets)
        name = str(original.get("name", ""))
        swapped = side.random() < 0.4
        # Both selected and mostly declaring a strict class: the order the tie is broken in names the strictest source.
        original.update(hidden=False, deleted=False, active=True)
        if side.random() < 0.7:
            original["data_class"] = side.choice(("systemDiagnostics", "secretAdjacent"))
        tie = {**original, "uid": len(snippets) + 1, "identifier": f"t{len(snippets) + 1}", "name": name.swapcase() if swapped else name}
        if side.random() < 0.3:  # two names the readings order otherwise (PARTING_NAMES), in either order
            name, tie["name"] = side.sample(side.choice(PARTING_NAMES), 2)
            original["name"], swapped = name, True
        # Listed first unless its name sorts first as stored: a sort by stored name, not the collation's, then differs.
        snippets.insert(position + 1 if tie["name"] < name else position, tie)
        if swapped and name.swapcase() != name and side.random() < 0.6:
            document["collation"] = "case-insensitive"  # where the two names tie, and the world's order decides
    if len(snippets) > 1 and side.random() < 0.1:
        _identified_by_digits(side, snippets)
    if side.random() < 0.2:
        _near_relations(side, document)
    if side.random() < 0.08:  # a fallback entry that is a model's identifier names no configuration (C094.10)
        side.choice(configurations)["fallbacks"] = [side.choice(document["models"])["identifier"]]
    skills = document["skills"]
    if skills and side.random() < 0.2:
        # The same name under a later uid, listed first: a lookup by name breaks the tie by uid (C165.6). Or the name in
        # the other case under a case-insensitive collation: a lookup by name still orders code points as stored.
        position, original = _copied(side, skills)
        # Sometimes under uid 10 or 100, which the first uids, 1 to 9, sort after as numbers and before as text.
        copy = {**original, "uid": max(len(skills) + 1, side.choice((len(skills) + 1, 10, 100))), "deleted": False}
        if side.random() < 0.3 and str(original.get("name", "")).swapcase() != original.get("name", ""):
            copy["name"] = str(original.get("name", "")).swapcase()
            document["collation"] = "case-insensitive"
        skills.insert(position, copy)
    for table in ("snippets", "skills"):
        if side.random() < 0.3:
            side.shuffle(document[table])
    decisive_world(side, document)


def _near_relations(side, document: dict) -> None:
    """A relation written one letter's case or a trailing space away from its record, mostly under a case-insensitive
    collation: a model's provider, a configuration's model, or a model copied first in the other case onto another
    provider. Each is found by its exact identifier only (C094.7, C094.8, C149.2), so it names nothing, or the original."""
    def near(identifier: str) -> str:
        return identifier.swapcase() if identifier.swapcase() != identifier and side.random() < 0.6 else f"{identifier} "

    models, providers = document["models"], document["providers"]
    roll = side.randrange(3)
    if roll == 0 and models and providers:
        side.choice(models)["provider"] = near(side.choice(providers)["identifier"])
    elif roll == 1 and models:
        configurations = document["configurations"]
        target = side.choice(configurations)
        target["model"] = near(side.choice(models)["identifier"])
        if len(configurations) > 1 and side.random() < 0.5:  # and another falls back to it alone: its model decides the zone
            side.choice([c for c in configurations if c is not target])["fallbacks"] = [target["identifier"]]
    elif models and providers:
        original = side.choice(models)
        models.insert(0, {"identifier": near(original["identifier"]), "provider": side.choice(providers)["identifier"]})
    if side.random() < 0.6:
        document["collation"] = "case-insensitive"


def _near_serving_model(side, world: dict, step: dict) -> None:
    """A send's serving model moved to a model whose identifier is another's but for case or a trailing space, when the
    world holds such a pair (``_near_relations``): the model of exactly that identifier serves (C149.2)."""
    identifiers = [m["identifier"] for m in world["models"] if isinstance(m.get("identifier"), str)]
    near = [i for i in identifiers if any(o != i and (o.swapcase() == i or o == i.rstrip()) for o in identifiers)]
    if near:
        step["serving_model"] = side.choice(near)


def _identified_by_digits(side, snippets: list[dict]) -> None:
    """One snippet identified by the digits of another's uid, that other without an identifier, both live under one tag:
    two keys, never one (C144.5), as a PHP array keyed by identifier or uid would make them."""
    named, bare = side.sample(snippets, 2)
    bare.pop("identifier", None)
    named["identifier"] = str(bare["uid"])
    for record in (named, bare):
        record.update(active=True, hidden=False, deleted=False, tags=named.get("tags") or "t")
    bare["data_class"] = side.choice(("systemDiagnostics", "secretAdjacent"))


def _copied(side, records: list[dict]) -> tuple[int, dict]:
    """A record the side stream chooses to copy, and its position."""
    position = side.randrange(len(records))
    return position, records[position]


#: Numeric strings of 1 and 2 that start at their point or sign their exponent (C164.6).
LATE_NUMBER_STRINGS = (".1e1", ".2e1", "1e+0", "2E+0", "+.1e+1")
#: A stored list written as an object, an integer-like key after another: read in the order written under nr-llm (C165.2),
#: where JavaScript lists such keys first.
WRITTEN_ORDER_OBJECTS = ({"b": 2, "1": 1}, {"x": "2", "0": "1"}, {"2": 1, "1": 2})

#: How an update names a record of each kind it may restore (a provider's deletion removes it: nothing to restore).
KEYS = {"snippet": "uid", "skill": "uid", "configuration": "identifier"}


def _run_changes(side, document: dict) -> None:
    """Changes that meet a run: a queue row carrying its uid and user (so two runs of one configuration are told apart,
    C144.15); a deletion undone by an update (S002.2); before a resume, a forced skill renamed, a snippet given another
    identifier or the configuration's prompt rewritten, which the resume reads live (C165.3, S002.1); after a
    configuration's deletion, a run queued for it, which its dequeue ends gone (C175.5)."""
    steps, world, runs, gone = [], document["world"], {}, []
    for step in document["steps"]:
        if step["op"] == "queue":
            runs[step["run"]] = step
            if "uid" not in step and side.random() < 0.3:
                step.update(uid=side.choice((11, 22, 33)), be_user=side.choice((5, 6, 7)))
        if step["op"] == "resume" and step["run"] in runs and side.random() < 0.3:
            steps.append(_rewritten(side, world, runs[step["run"]]))
        steps.append(step)
        if step["op"] == "delete" and step["kind"] in KEYS:
            if side.random() < 0.3:
                key = KEYS[step["kind"]]
                steps.append({"op": "update", "kind": step["kind"], key: step[key], "set": {"deleted": False}})
            elif step["kind"] == "configuration" and any(c["identifier"] == step["identifier"] and not c.get("deleted")
                                                         for c in world["configurations"]):
                gone.append(step["identifier"])  # deleted by this step, not in the world as written (S001.1 refuses that queue)
    if gone and "r-late" not in runs and side.random() < 0.5:
        steps += [{"op": "queue", "run": "r-late", "configuration": gone[0], "forced_snippets": [], "forced_skills": []},
                  {"op": "dequeue", "run": "r-late"}]
    document["steps"] = steps


def _rewritten(side, world: dict, queue: dict) -> dict:
    """An update of what a waiting run will read on its resume: a forced skill's name, a forced snippet's identifier, or
    its configuration's system prompt."""
    skills = [uid for uid in queue.get("forced_skills", ()) if type(uid) is int and any(s["uid"] == uid for s in world["skills"])]
    snippets = [uid for uid in queue.get("forced_snippets", ()) if type(uid) is int and any(s["uid"] == uid for s in world["snippets"])]
    roll = side.randrange(3)
    if roll == 0 and skills:
        return {"op": "update", "kind": "skill", "uid": side.choice(skills), "set": {"name": side.choice(("renamed", "Renamed", ""))}}
    if roll == 1 and snippets:
        return {"op": "update", "kind": "snippet", "uid": side.choice(snippets), "set": {"identifier": side.choice(("renamed", "x", ""))}}
    return {"op": "update", "kind": "configuration", "identifier": queue["configuration"],
            "set": {"system_prompt": side.choice(("", " ", "rewritten"))}}


#: The field that switches a record of each kind off.
SWITCH_FIELDS = {"snippet": "active", "skill": "enabled"}


def side_steps(side, document: dict) -> None:
    """Corners of a scenario's steps drawn from the side stream: two snippets of one class reordered by a sorting written
    with a zero fraction; for a queued run, its world's copied skills forced and sources switched off while it waits;
    then the corners of :mod:`.decisive_corners`."""
    if side.random() < 0.1:
        _resorted_pair(side, document)
    _run_changes(side, document)
    for step in document["steps"]:
        if step["op"] == "send" and step.get("serving_model") is not None and side.random() < 0.3:
            _near_serving_model(side, document["world"], step)
        if step["op"] == "send" and "system_prompt_override" in step and side.random() < 0.3:
            step["system_prompt_override"] = ""  # an override like any other: the stored prompt is still classified (C155.3)
        if step["op"] in ("send", "readout") and side.random() < 0.08:
            step["forced_snippets"] = [*step["forced_snippets"], side.choice(LATE_NUMBER_STRINGS)]
        elif step["op"] == "suspend" and "state" in step and side.random() < 0.3:
            step["state"]["forced_snippet_uids"] = side.choice(WRITTEN_ORDER_OBJECTS)
    if any(step["op"] == "queue" for step in document["steps"]):
        _forced_copies(side, document)
        _switched_off_while_waiting(side, document)
    decisive_steps(side, document)


def _resorted_pair(side, document: dict) -> None:
    """Before everything, the first send's or readout's configuration made to select the tag of two live snippets of one
    class, and the first listed of the two given a sorting past the other's written with a zero fraction (``3.0``): it is
    that integer (S001.1), so the second now comes first (C144.4) and the first, later, is named in the tie (C144.9)."""
    target = next((step["configuration"] for step in document["steps"] if step["op"] in ("send", "readout")), None)
    live = [s for s in document["world"]["snippets"] if s.get("tags") and s.get("data_class") in CLASSES and s.get("active", True)
            and not s.get("hidden") and not s.get("deleted")]
    pairs = [(a, b) for i, a in enumerate(live) for b in live[i + 1:] if (a["tags"], a["data_class"]) == (b["tags"], b["data_class"])
             and type(b.get("sorting", 0)) is int and b.get("sorting", 0) < 2**31 - 1]
    if target is None or not pairs:
        return
    first, second = side.choice(pairs)
    document["steps"][:0] = [
        {"op": "update", "kind": "configuration", "identifier": target, "set": {"snippet_tags": first["tags"]}},
        {"op": "update", "kind": "snippet", "uid": first["uid"], "set": {"sorting": float(second.get("sorting", 0) + 1)}},
    ]


def _forced_copies(side, document: dict) -> None:
    """A queued run often forces a skill and its copy of the same name (or the name in the other case), in either order:
    the pair a resume's lookup by name must put in code point and then uid order (C165.6), and the dequeue's lookup in
    the order asked (C166.1)."""
    by_name: dict = {}
    for skill in document["world"]["skills"]:  # names alike but for case count as a pair: a collation may tie them
        by_name.setdefault(str(skill.get("name", "")).casefold(), []).append(skill["uid"])
    tied = [uids for uids in by_name.values() if len(uids) > 1]
    if not tied:
        return
    for step in document["steps"]:
        if step["op"] == "queue" and side.random() < 0.5:
            pair = side.choice(tied)[:2]
            step["forced_skills"] = [*step["forced_skills"], *(pair if side.random() < 0.5 else reversed(pair))]


def _switched_off_while_waiting(side, document: dict) -> None:
    """Before a resume, often, a source its run forced switched off (not deleted): the enabled lookup drops it and the
    existing one keeps it, each where its version says (C165.3, C166.3, C175.3)."""
    world = document["world"]
    held = {("snippet", s["uid"]) for s in world["snippets"]} | {("skill", s["uid"]) for s in world["skills"]}
    queued, removed, steps = {}, set(), []
    for step in document["steps"]:
        if step["op"] == "queue":
            queued[step["run"]] = step
        elif step["op"] == "delete" and "uid" in step:
            removed.add((step["kind"], step["uid"]))
        elif step["op"] == "resume" and step["run"] in queued and side.random() < 0.4:
            queue = queued[step["run"]]
            forced = [("snippet", uid) for uid in queue["forced_snippets"]] + [("skill", uid) for uid in queue["forced_skills"]]
            choices = [(kind, uid) for kind, uid in forced if type(uid) is int and (kind, uid) in held and (kind, uid) not in removed]
            if choices:
                kind, uid = side.choice(choices)
                steps.append({"op": "update", "kind": kind, "uid": uid, "set": {SWITCH_FIELDS[kind]: False}})
        steps.append(step)
    document["steps"] = steps
