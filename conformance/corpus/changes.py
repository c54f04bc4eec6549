"""Cases of an operator's changes meeting a run: a deletion undone, a queue after a deletion, records renamed or rewritten while a run waits.

What a change does is S002's; what a run then finds is C165.3's (a resume
reads the live records) and C175.5's (a dequeue reloads its configuration).
An implementation that ends a run at the deletion, freezes a source's name
at the dequeue or keeps one run row per configuration agrees with these
rules on every story without such a change, so each is pinned here.
"""

from __future__ import annotations

from .cases import case, send, skill, snippet, world

SECRET_PROMPT = {"system_prompt": "p", "system_prompt_class": "secretAdjacent"}
WAITING = [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"}, {"op": "suspend", "run": "r"}]


def lifecycle_cases() -> list[dict]:
    return [
        case("lifecycle.changes.deleted-and-restored-while-queued", "A configuration deleted and restored while its run is queued "
             "is there at the dequeue: the run is gated, and refused, not ended gone.", ["C175.5", "S002.2"], world(configuration=SECRET_PROMPT),
             [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "delete", "kind": "configuration", "identifier": "c"},
              {"op": "update", "kind": "configuration", "identifier": "c", "set": {"deleted": False}}, {"op": "dequeue", "run": "r"}]),
        case("lifecycle.changes.queued-after-a-deletion", "A run queued for a configuration an earlier step deleted is queued; "
             "its dequeue ends it gone.", ["C175.5", "S001.1"], world(),
             [{"op": "delete", "kind": "configuration", "identifier": "c"}, {"op": "queue", "run": "r", "configuration": "c"},
              {"op": "dequeue", "run": "r"}]),
        case("lifecycle.changes.prompt-rewritten-while-suspended", "A system prompt emptied while its run is suspended is what "
             "the resume classifies: nothing is declared then, though the dequeue observed the secretAdjacent prompt.", ["C165.3", "C155.1"],
             world(configuration=SECRET_PROMPT, enforcement="observe"),
             [*WAITING, {"op": "update", "kind": "configuration", "identifier": "c", "set": {"system_prompt": ""}}, {"op": "resume", "run": "r"}]),
        case("lifecycle.changes.skill-renamed-while-suspended", "A forced skill renamed while its run is suspended is named by its "
             "new name on the resume.", ["C165.3", "S002.1"], world(enforcement="observe", skills=[skill(1, "secretAdjacent", name="old")]),
             [{"op": "queue", "run": "r", "configuration": "c", "forced_skills": [1]}, *WAITING[1:],
              {"op": "update", "kind": "skill", "uid": 1, "set": {"name": "new"}}, {"op": "resume", "run": "r"}]),
        case("lifecycle.changes.each-run-its-own-row", "Two runs of one configuration each record their own row: the first "
             "dequeued names uid 11 and user 5, though the second was queued after it.", ["C144.14", "C144.15"],
             world(configuration=SECRET_PROMPT, enforcement="observe"),
             [{"op": "queue", "run": "r1", "configuration": "c", "uid": 11, "be_user": 5},
              {"op": "queue", "run": "r2", "configuration": "c", "uid": 22, "be_user": 6},
              {"op": "dequeue", "run": "r1"}, {"op": "dequeue", "run": "r2"}]),
    ]


def ceiling_cases() -> list[dict]:
    return [
        case("ceiling.changes.deleted-and-restored", "A snippet deleted and restored by an update is there again: forced, it is "
             "refused.", ["S002.2", "S002.1"], world(snippets=[snippet(1, "secretAdjacent")]),
             [{"op": "delete", "kind": "snippet", "uid": 1}, {"op": "update", "kind": "snippet", "uid": 1, "set": {"deleted": False}},
              send(forced_snippets=[1])]),
        case("ceiling.changes.fallback-re-pointed", "A fallback configuration updated onto a model with no provider is read as it "
             "stands: the send can reach externalGlobal, though the fallback was written on the local model.", ["C094.10", "S002.1"],
             world(zone="local", configuration={"fallbacks": ["f"], "system_prompt": "p", "system_prompt_class": "systemDiagnostics"},
                   configurations=[{"identifier": "f", "model": "m"}], models=[{"identifier": "nowhere", "provider": "gone"}]),
             [{"op": "update", "kind": "configuration", "identifier": "f", "set": {"model": "nowhere"}}, send()]),
        case("ceiling.changes.an-update-keeps-the-order", "An update changes a record where it stands: of two snippets tied on "
             "sorting and name, the first updated stays first, so the second is still named.", ["S002.1", "C144.4", "C144.9"],
             world(zone="local", configuration={"snippet_tags": "t"},
                   snippets=[snippet(1, "sourceCode", tags="t", name="a"), snippet(2, "sourceCode", tags="t", name="a")]),
             [{"op": "update", "kind": "snippet", "uid": 1, "set": {"text": "changed"}}, send()]),
        case("ceiling.changes.snippet-identifier-updated", "A snippet, named by its uid, may take another identifier: forced "
             "after the update, it is named by the new one.", ["S002.1", "C144.9"], world(snippets=[snippet(1, "secretAdjacent")]),
             [{"op": "update", "kind": "snippet", "uid": 1, "set": {"identifier": "new"}}, send(forced_snippets=[1])]),
    ]
