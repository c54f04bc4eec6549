"""Boundary pairs of a forced set over a run's life (ADR-164 to ADR-179): queued, dequeued, suspended, changed, resumed.

A rule that one ADR introduced is paired across versions: the same story
under the version that has the rule and under the one just before (or after)
it. The others move one stored value or one operator's change across the
rule's edge. Where a resume must refuse, the switch observes, so the dequeue
before it goes out and the run lives to be suspended.
"""

from __future__ import annotations

from .pairs import pair, side
from ..cases import case, send, skill, snippet, world

DEQUEUE = {"op": "dequeue", "run": "r"}
RESUME = {"op": "resume", "run": "r"}
KEY_OF = {"snippet": "uid", "skill": "uid", "provider": "identifier", "configuration": "identifier"}


def queue(**fields) -> dict:
    return {"op": "queue", "run": "r", "configuration": "c", **fields}


def suspend(**fields) -> dict:
    return {"op": "suspend", "run": "r", **fields}


def update(kind: str, key, **changes) -> dict:
    return {"op": "update", "kind": kind, KEY_OF[kind]: key, "set": changes}


def delete(kind: str, key) -> dict:
    return {"op": "delete", "kind": kind, KEY_OF[kind]: key}


def waiting(queued: dict, *changes: dict, state: dict | None = None) -> list[dict]:
    """A run queued with ``queued``, started, suspended (with a raw ``state`` when given), changed by ``changes``, then resumed."""
    return [queue(**queued), DEQUEUE, suspend() if state is None else suspend(state=state), *changes, RESUME]


def observed(*snippets: dict, skills: tuple = ()) -> dict:
    """A world behind externalGlobal in observe mode: a declared source is observed, never ends the run."""
    return world(snippets=list(snippets), skills=list(skills), enforcement="observe")


def tie() -> dict:
    """A local world of two sourceCode skills, uid 1 named zeta and uid 2 named alpha: the caller's order and name order disagree."""
    return world(zone="local", skills=[skill(1, "sourceCode", name="zeta"), skill(2, "sourceCode", name="alpha")])


def two_runs_in_turn(first: list, second: list) -> list[dict]:
    """Runs r1 and r2 of one configuration forcing ``first`` and ``second``: both queued, dequeued, suspended, then resumed."""
    runs = (("r1", first), ("r2", second))
    return [*({"op": "queue", "run": run, "configuration": "c", "forced_snippets": forced} for run, forced in runs),
            *({"op": step, "run": run} for step in ("dequeue", "suspend", "resume") for run, _ in runs)]


def cases() -> list[dict]:
    raised_while_waiting = waiting({"forced_snippets": [1]}, update("snippet", 1, data_class="secretAdjacent"))
    resumed_twice_forced = [queue(forced_skills=[1, 1]), DEQUEUE, suspend(), RESUME]
    tie_story = [queue(forced_skills=[1, 2]), DEQUEUE, suspend(), RESUME]
    suspended_again = [queue(forced_skills=[1, 2, 1]), DEQUEUE, suspend(), RESUME, suspend()]
    return [
        *pair(case, "lifecycle", "C164.7",
              side("under adr-164 the suspended state holds no forced uids, so the resume is judged on the configuration alone although the snippet was raised to secretAdjacent.",
                   world(snippets=[snippet(1, "editorContent")]), raised_while_waiting, version="adr-164"),
              side("under adr-165 the state holds the uid, so the resume re-gates the raised snippet and is refused.",
                   world(snippets=[snippet(1, "editorContent")]), raised_while_waiting, version="adr-165")),
        *pair(case, "lifecycle", "C165.1",
              side("under adr-165 the suspend stores the uids the run runs with: those that resolved, in order, duplicates kept, the unknown 9 left out.",
                   world(snippets=[snippet(1, "editorContent"), snippet(2, "editorContent")]),
                   [queue(forced_snippets=[2, 1, 2, 9]), DEQUEUE, suspend()], version="adr-165"),
              side("under adr-164 the same suspend stores no forced uids at all.",
                   world(snippets=[snippet(1, "editorContent"), snippet(2, "editorContent")]),
                   [queue(forced_snippets=[2, 1, 2, 9]), DEQUEUE, suspend()], version="adr-164")),
        *pair(case, "lifecycle", "C165.1",
              side("under adr-166 the resume rebuilt the skills through the by-name lookup, so the run runs with each once, in name order, and a second suspend stores alpha's uid 2 before zeta's 1.",
                   tie(), suspended_again, version="adr-166"),
              side("under adr-175 the resume keeps the caller's list, so the second suspend stores 1, 2, 1 as the run was queued.",
                   tie(), suspended_again, version="adr-175"),
              aspect="suspended-again"),
        *pair(case, "lifecycle", "C165.2",
              side('the stored state holds the digit string "1", which is kept, so the resume rebuilds the secretAdjacent snippet and is refused.',
                   world(snippets=[snippet(1, "secretAdjacent")]), waiting({}, state={"forced_snippet_uids": ["1"]})),
              side("each stored entry is a near miss of a kept one (a sign, a space, a fraction, an Arabic-Indic digit, a float, zero, a negative, a list, null), so none is kept and the resume is undeclared.",
                   world(snippets=[snippet(1, "secretAdjacent")]),
                   waiting({}, state={"forced_snippet_uids": ["+1", " 1", "1.0", "\u0661", 1.0, 0, -1, [1], None]}))),
        *pair(case, "lifecycle", "C165.3",
              side("the provider was re-pointed to externalEu while the run waited, and the resume is judged by the live zone, so systemDiagnostics is refused.",
                   world(zone="local", snippets=[snippet(1, "systemDiagnostics")]),
                   waiting({"forced_snippets": [1]}, update("provider", "p", zone="externalEu"))),
              side("the provider was re-pointed to privateHosted, whose ceiling still holds systemDiagnostics, so the live zone permits the resume.",
                   world(zone="local", snippets=[snippet(1, "systemDiagnostics")]),
                   waiting({"forced_snippets": [1]}, update("provider", "p", zone="privateHosted")))),
        *pair(case, "lifecycle", "C165.4",
              side("the forced skill was deleted while the run waited, so no lookup returns it and the resume is undeclared.",
                   observed(skills=(skill(1, "secretAdjacent"),)), waiting({"forced_skills": [1]}, delete("skill", 1))),
              side("the forced skill was only hidden, which no lookup filters, so it is rebuilt and the resume is observed.",
                   observed(skills=(skill(1, "secretAdjacent"),)), waiting({"forced_skills": [1]}, update("skill", 1, hidden=True)))),
        *pair(case, "lifecycle", "C165.5",
              side("the stored state is a legacy row with neither key, so nothing is rebuilt and the resume takes the configuration-only path: undeclared, never refused.",
                   observed(snippet(1, "sourceCode")), waiting({"forced_snippets": [1]}, state={})),
              side("the state the suspend writes holds the snippet's uid, so the resume rebuilds it and is observed.",
                   observed(snippet(1, "sourceCode")), waiting({"forced_snippets": [1]}))),
        *pair(case, "lifecycle", "C165.6",
              side("under adr-166 the resume finds forced skills by filtering every skill, so the skill asked for twice comes back once.",
                   world(zone="local", skills=[skill(1, "sourceCode")]), resumed_twice_forced, version="adr-166"),
              side("under adr-175 the resume keeps the caller's list, so the skill comes back twice as asked.",
                   world(zone="local", skills=[skill(1, "sourceCode")]), resumed_twice_forced, version="adr-175")),
        *pair(case, "lifecycle", "C165.6",
              side('two forced skills share the name "A", listed uid 32 before uid 31: by uid between equal names, the resume rebuilds 31 then 32.',
                   world(zone="local", skills=[skill(32, "sourceCode", name="A"), skill(31, "sourceCode", name="A")]),
                   waiting({"forced_skills": [31, 32]}), version="adr-165"),
              side('uid 32 is named "A" and uid 31 "B", so name order rebuilds 32 then 31.',
                   world(zone="local", skills=[skill(32, "sourceCode", name="A"), skill(31, "sourceCode", name="B")]),
                   waiting({"forced_skills": [31, 32]}), version="adr-165"),
              aspect="equal-names"),
        *pair(case, "lifecycle", "C165.6",
              side('uid 1 is named "a" and uid 2 "B": by name as stored, code point by code point, "B" comes first whatever the collation, '
                   'so the resume rebuilds 2 then 1 and the later, "a", is named.',
                   world(zone="local", skills=[skill(1, "sourceCode", name="a"), skill(2, "sourceCode", name="B")], collation="case-insensitive"),
                   waiting({"forced_skills": [1, 2]}), version="adr-166"),
              side('uid 1 is named "a" and uid 2 "b": name order and uid order agree, so the resume rebuilds 1 then 2 and "b" is named.',
                   world(zone="local", skills=[skill(1, "sourceCode", name="a"), skill(2, "sourceCode", name="b")], collation="case-insensitive"),
                   waiting({"forced_skills": [1, 2]}), version="adr-166"),
              aspect="collation"),
        *pair(case, "lifecycle", "C165.1",
              side("two runs of one configuration are suspended in turn, the second last: each run's resume rebuilds its own stored forced set, "
                   "so the first, which forced the secretAdjacent snippet, is observed as a refusal and the second is permitted.",
                   observed(snippet(1, "secretAdjacent"), snippet(2, "publicContent")), two_runs_in_turn([1], [2])),
              side("both runs force the publicContent snippet, so both resumes are permitted alike: which state belongs to which run changes nothing.",
                   observed(snippet(1, "secretAdjacent"), snippet(2, "publicContent")), two_runs_in_turn([2], [2])),
              aspect="two-runs"),
        *pair(case, "lifecycle", "C166.1",
              side("the forced snippet is switched on, so the enabled lookup returns it and the send is refused.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [send(forced_snippets=[1])]),
              side("the forced snippet is switched off, so the enabled lookup leaves it out and the send is undeclared.",
                   world(snippets=[snippet(1, "secretAdjacent", active=False)]), [send(forced_snippets=[1])])),
        *pair(case, "lifecycle", "C166.2",
              side("the forced snippet was switched off while the run waited, and the existing lookup returns it all the same, so the resume is observed.",
                   observed(snippet(1, "secretAdjacent")), waiting({"forced_snippets": [1]}, update("snippet", 1, active=False))),
              side("the forced snippet was deleted instead, which even the existing lookup never returns, so the resume is undeclared.",
                   observed(snippet(1, "secretAdjacent")), waiting({"forced_snippets": [1]}, delete("snippet", 1)))),
        *pair(case, "lifecycle", "C166.3",
              side("under adr-166 a snippet switched off while the run waited keeps its class on resume, so the resume is observed.",
                   observed(snippet(1, "secretAdjacent")), waiting({"forced_snippets": [1]}, update("snippet", 1, active=False)), version="adr-166"),
              side("under adr-165 the resume rebuilds snippets enabled-only, so the switched-off snippet vanishes and the ceiling drops to undeclared.",
                   observed(snippet(1, "secretAdjacent")), waiting({"forced_snippets": [1]}, update("snippet", 1, active=False)), version="adr-165")),
        *pair(case, "lifecycle", "C175.1",
              side("under adr-179 the dequeue's lookup keeps the caller's order and duplicates, skips the unknown 9 and ignores that skill 1 is hidden.",
                   world(zone="local", skills=[skill(1, None, hidden=True), skill(2, None)]), [queue(forced_skills=[2, 9, 1, 2]), DEQUEUE], version="adr-179"),
              side("skill 1 is switched off instead, the one filter the enabled lookup adds, so only it drops out of the same list.",
                   world(zone="local", skills=[skill(1, None, enabled=False), skill(2, None)]), [queue(forced_skills=[2, 9, 1, 2]), DEQUEUE],
                   version="adr-179")),
        *pair(case, "lifecycle", "C175.2",
              side("under adr-175 a disabled forced skill goes through the enabled lookup like a snippet, so it is dropped and the send is undeclared.",
                   world(skills=[skill(1, "secretAdjacent", enabled=False)]), [send(forced_skills=[1])], version="adr-175"),
              side("under adr-166 forced skills skip their switch on composition, so the disabled skill enters and refuses the send.",
                   world(skills=[skill(1, "secretAdjacent", enabled=False)]), [send(forced_skills=[1])], version="adr-166")),
        *pair(case, "lifecycle", "C175.3",
              side("under adr-175 the resume rebuilds skills in the caller's order, so the tie names alpha after the suspension as before it.",
                   tie(), tie_story, version="adr-175"),
              side("under adr-166 the resume rebuilds skills in name order, so the same tie names zeta after the suspension.",
                   tie(), tie_story, version="adr-166")),
        *pair(case, "lifecycle", "C175.4",
              side('the queued payload stores the digit string "1", which this path drops, so the dequeue forces nothing and is undeclared.',
                   world(snippets=[snippet(1, "secretAdjacent")]), [queue(forced_snippets=["1"]), DEQUEUE]),
              side("the payload stores the integer 1, which is kept, so the dequeue forces the snippet and is refused.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [queue(forced_snippets=[1]), DEQUEUE])),
        *pair(case, "lifecycle", "C175.4",
              side("the payload stores 2147483648 and 9007199254740993, integers past 32 bits and past what a double holds, both kept and read "
                   "exactly: neither names a snippet, so each is recorded as dropped, gone.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [queue(forced_snippets=[2147483648, 9007199254740993]), DEQUEUE]),
              side("the payload stores 9007199254740993.0, a number with a fraction part, which this path drops unrecorded.",
                   world(snippets=[snippet(1, "secretAdjacent")]), [queue(forced_snippets=[9007199254740993.0]), DEQUEUE]),
              aspect="large"),
        *pair(case, "lifecycle", "C175.5",
              side("the configuration was deleted after the run was queued, so the dequeue's reload finds it gone and the run ends.",
                   world(configuration={"system_prompt": "x", "system_prompt_class": "editorContent"}), [queue(), delete("configuration", "c"), DEQUEUE]),
              side("the configuration was only deactivated, so the reload finds it and the first send is gated and permitted.",
                   world(configuration={"system_prompt": "x", "system_prompt_class": "editorContent"}),
                   [queue(), update("configuration", "c", active=False), DEQUEUE])),
        *pair(case, "lifecycle", "C179.1",
              side("under adr-179 the forced snippet is switched off, so it does not arrive and the dequeue records it as deactivated.",
                   world(snippets=[snippet(1, None, active=False)]), [queue(forced_snippets=[1]), DEQUEUE], version="adr-179"),
              side("the forced snippet is hidden but switched on, so it arrives and nothing is recorded.",
                   world(snippets=[snippet(1, None, hidden=True)]), [queue(forced_snippets=[1]), DEQUEUE], version="adr-179")),
        *pair(case, "lifecycle", "C179.2",
              side("under adr-179 the playground send records the missing snippet 9 as gone, and the record changes no decision.",
                   world(), [send(forced_snippets=[9])], version="adr-179"),
              side("under nr-llm the playground send records nothing, as the code does, with the same decision.",
                   world(), [send(forced_snippets=[9])], version="nr-llm")),
    ]
