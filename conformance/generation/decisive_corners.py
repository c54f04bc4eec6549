"""Trust-ceiling corners made decisive where they are drawn, from the draw's side stream.

A corner that a scenario reaches but whose reading no outcome shows tells
no implementation apart: a number past 64 bits that names no record either
way it is read, a suspend's reason that the resume never asks about. Each
corner here is drawn with what makes its readings part in the outcome.
"""

from __future__ import annotations

#: The nearest double above 2**64, 2**64 + 4096, as a JSON text writes it: cast as PHP 8 casts a float, modulo 2**64, it
#: names :data:`WRAPPED_UID`; cast saturating, it is PHP_INT_MAX, which names no generated record.
_PAST_2_64 = "1.8446744073709556e19"
WRAPPED_UID = int(float(_PAST_2_64)) - 2**64
#: That number as a JSON float, which nr-llm wraps (C164.6), and as a numeric string, which every version saturates.
PAST_64_BITS = (float(_PAST_2_64), _PAST_2_64)
#: Tags one letter's case apart outside A-Z, which C144.4 folds over A-Z only, under either collation: the Kelvin sign and
#: k, the dotted capital I and i with a dot above, the sharp s and ss, a capital and a final sigma, the long s and s.
UNICODE_TWIN_TAGS = (("\u212ab", "kb"), ("\u0130nfo", "i\u0307nfo"), ("stra\u00dfe", "strasse"), ("\u03a3ig", "\u03c2ig"), ("\u017fop", "sop"))


def decisive_world(side, world: dict) -> None:
    """The world's decisive corners: :func:`renumbered_to_wrap`, then :func:`tagged_a_letter_apart`."""
    renumbered_to_wrap(side, world)
    tagged_a_letter_apart(side, world)


def tagged_a_letter_apart(side, world: dict) -> None:
    """Sometimes, mostly under a case-insensitive collation, every configuration selecting a tag that a live secretAdjacent
    snippet carries in another case of a letter outside A-Z: selected only where a reading folds that letter (C144.4)."""
    snippets = world["snippets"]
    if not snippets or side.random() >= 0.1:
        return
    theirs, mine = side.choice(UNICODE_TWIN_TAGS)
    if side.random() < 0.5:
        theirs, mine = mine, theirs
    side.choice(snippets).update(tags=mine, data_class="secretAdjacent", active=True, hidden=False, deleted=False)
    for configuration in world["configurations"]:
        configuration["snippet_tags"] = ",".join(filter(None, (str(configuration.get("snippet_tags", "")), theirs)))
    if side.random() < 0.7:
        world["collation"] = "case-insensitive"


def renumbered_to_wrap(side, world: dict) -> None:
    """Sometimes a live snippet renumbered :data:`WRAPPED_UID`: a forced entry of :data:`PAST_64_BITS` then names it
    exactly where a reading wraps that entry (C164.6)."""
    snippets = world["snippets"]
    if snippets and side.random() < 0.1:
        side.choice(snippets).update(uid=WRAPPED_UID, active=True, hidden=False, deleted=False)


def decisive_steps(side, document: dict) -> None:
    """A send or readout forcing a number just past 2**64 where the world holds the uid it wraps to; a suspend written
    without its reason, which is approval (S001.7), where the resume says whether input came."""
    holds_wrapped = any(snippet["uid"] == WRAPPED_UID for snippet in document["world"]["snippets"])
    for step in document["steps"]:
        if holds_wrapped and step["op"] in ("send", "readout") and side.random() < 0.5:
            step["forced_snippets"] = [*step["forced_snippets"], side.choice(PAST_64_BITS)]
        elif step["op"] == "suspend" and step.get("reason") == "approval" and side.random() < 0.3:
            del step["reason"]
