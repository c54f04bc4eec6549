"""Boundary pairs of the sources a send injects (ADR-144, ADR-155, ADR-164): which records are listed, where, and by which name.

Every world here sits behind one externalGlobal provider unless a pair says
otherwise, so a listed secretAdjacent source is refused and an unlisted one
leaves the send undeclared: whether a record made the list shows in the decision.
"""

from __future__ import annotations

from .pairs import pair, side
from ..cases import case, send, skill, snippet, world

PROMPT_OF = {"system_prompt": "x", "system_prompt_class": "secretAdjacent"}


def tagged(configuration_tags: str, *snippets: dict) -> tuple[dict, list[dict]]:
    """A side's world and steps: a configuration selecting by ``configuration_tags`` among ``snippets``, sent as it is."""
    return world(configuration={"snippet_tags": configuration_tags}, snippets=list(snippets)), [send()]


def forcing_snippet(**fields) -> tuple[dict, list[dict]]:
    """A side's world and steps: one secretAdjacent snippet with ``fields``, forced by the send."""
    return world(snippets=[snippet(1, "secretAdjacent", **fields)]), [send(forced_snippets=[1])]


def queued_dry_run(flag: object) -> tuple[dict, list[dict]]:
    """A side's world and steps: a run queued forcing a secretAdjacent snippet with the stored dry-run ``flag``, then dequeued."""
    steps = [{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1], "dry_run": flag}, {"op": "dequeue", "run": "r"}]
    return world(snippets=[snippet(1, "secretAdjacent")]), steps


def reading(forced: list) -> tuple[dict, list[dict]]:
    """A side's world and steps: the readout of a playground request forcing the raw entries ``forced``."""
    snippets = [snippet(uid, "sourceCode") for uid in (1, 3, 5, 6)]
    return world(snippets=snippets), [{"op": "readout", "configuration": "c", "forced_snippets": forced}]


def collated(collation: str) -> tuple[dict, list[dict]]:
    """A side's world and steps: two tag-selected sourceCode snippets of equal sorting named "a" and "B" under ``collation``."""
    snippets = [snippet(1, "sourceCode", name="a", tags="ops"), snippet(2, "sourceCode", name="B", tags="ops")]
    document = world(zone="local", configuration={"snippet_tags": "ops"}, snippets=snippets) | {"collation": collation}
    return document, [send()]


def falling_back(collation: str) -> tuple[dict, list[dict]]:
    """A side's world and steps: a local configuration whose fallback entry "Legal" is stored as "Legal", forcing a secret snippet."""
    document = world(zone="local", configuration={"fallbacks": ["Legal"]}, snippets=[snippet(1, "secretAdjacent")],
                     configurations=[{"identifier": "Legal", "model": "m"}]) | {"collation": collation}
    return document, [send(forced_snippets=[1])]


def falling_back_twice(collation: str) -> tuple[dict, list[dict]]:
    """A side's world and steps: a local configuration falling back to "fb", where the world holds "FB" (local) before "fb" (externalGlobal)."""
    document = world(zone="local", configuration={"fallbacks": ["fb"]}, snippets=[snippet(1, "secretAdjacent")],
                     providers=[{"identifier": "cloud", "zone": "externalGlobal"}], models=[{"identifier": "cm", "provider": "cloud"}],
                     configurations=[{"identifier": "FB", "model": "m"}, {"identifier": "fb", "model": "cm"}]) | {"collation": collation}
    return document, [send(forced_snippets=[1])]


def twin_listed_first(deleted: bool) -> tuple[dict, list[dict]]:
    """A side's world and steps: a local configuration falling back to "fb" under a case-insensitive collation, where the
    world holds "FB" (externalGlobal, deleted or not) before "fb" (local)."""
    document = world(zone="local", configuration={"fallbacks": ["fb"]}, snippets=[snippet(1, "secretAdjacent")],
                     providers=[{"identifier": "cloud", "zone": "externalGlobal"}], models=[{"identifier": "cm", "provider": "cloud"}],
                     configurations=[{"identifier": "FB", "model": "cm", "deleted": deleted}, {"identifier": "fb", "model": "m"}]) | {"collation": "case-insensitive"}
    return document, [send(forced_snippets=[1])]


def cases() -> list[dict]:
    return [
        *pair(case, "ceiling", "C144.1",
              side("the forced skill stores secretAdjacent, and its stored class is what it declares, so the send is refused.",
                   world(skills=[skill(1, "secretAdjacent")]), [send(forced_skills=[1])]),
              side("the forced skill stores no class and only its text names secretAdjacent, which is never read, so the send is undeclared.",
                   world(skills=[skill(1, None, text="secretAdjacent: the signing keys")]), [send(forced_skills=[1])])),
        *pair(case, "ceiling", "C144.3",
              side("the snippet is forced, and forced snippets come after the attached skills, so of two sourceCode sources the snippet is later and named.",
                   world(configuration={"skills": [1]}, snippets=[snippet(1, "sourceCode", tags="ops")], skills=[skill(1, "sourceCode")]),
                   [send(forced_snippets=[1])]),
              side("the same snippet is selected by the configuration's tag, and tag-selected snippets come before the attached skills, so the skill is named.",
                   world(configuration={"skills": [1], "snippet_tags": "ops"}, snippets=[snippet(1, "sourceCode", tags="ops")], skills=[skill(1, "sourceCode")]),
                   [send()])),
        *pair(case, "ceiling", "C144.4",
              side('the tag " Ops " and the snippet\'s token " OPS " are the same whole token once trimmed and lowercased, so the snippet is selected.',
                   *tagged(" Ops ", snippet(1, "secretAdjacent", tags="billing, OPS "))),
              side("the snippet's token is devops, which holds ops only as a substring, so it is not selected.",
                   *tagged("ops", snippet(1, "secretAdjacent", tags="billing,devops"))),
              non_ascii_letter=side("the tag ÖPS lowercases only its ASCII letters, to Öps, so it is not the snippet's token öps and nothing is selected.",
                                    *tagged("ÖPS", snippet(1, "secretAdjacent", tags="öps")))),
        *pair(case, "ceiling", "C144.5",
              side('the second snippet\'s identifier " LEGAL" trims and lowercases to the first one\'s, so it is the same record, kept once, and its stricter class never counts.',
                   *tagged("a,b", snippet(1, "editorContent", identifier="legal", tags="a"), snippet(2, "secretAdjacent", identifier=" LEGAL", tags="b"))),
              side("the second snippet's identifier starts with a no-break space, which trimming keeps, so it is another record and its class refuses the send.",
                   *tagged("a,b", snippet(1, "editorContent", identifier="legal", tags="a"), snippet(2, "secretAdjacent", identifier="\u00a0legal", tags="b")))),
        *pair(case, "ceiling", "C144.4",
              side('two snippets share sorting and the name "Same", listed uid 2 before uid 1: they keep the world\'s order, so uid 1, the later, is named.',
                   *tagged("a", snippet(2, "sourceCode", name="Same", tags="a"), snippet(1, "sourceCode", name="Same", tags="a"))),
              side('uid 2 is named "B" and uid 1 "A", so name order puts uid 2 later, and it is named.',
                   *tagged("a", snippet(2, "sourceCode", name="B", tags="a"), snippet(1, "sourceCode", name="A", tags="a"))),
              aspect="world-order"),
        *pair(case, "ceiling", "C144.5",
              side('the hidden snippet "X" comes first and is left out before any key is taken, so the visible "x" after it is kept and refuses the send.',
                   *tagged("a", snippet(1, "publicContent", identifier="X", tags="a", hidden=True), snippet(2, "secretAdjacent", identifier="x", tags="a", sorting=1))),
              side('the first snippet "X" is visible, so it takes the key "x" and the stricter "x" after it is the same record, dropped: permitted.',
                   *tagged("a", snippet(1, "publicContent", identifier="X", tags="a"), snippet(2, "secretAdjacent", identifier="x", tags="a", sorting=1))),
              aspect="hidden-first"),
        *pair(case, "ceiling", "C144.5",
              side("the tagged snippet is hidden, so the configuration's selection leaves it out and the send is undeclared.",
                   *tagged("ops", snippet(1, "secretAdjacent", tags="ops", hidden=True))),
              side("the tagged snippet is not hidden, so it is selected and refuses the send.", *tagged("ops", snippet(1, "secretAdjacent", tags="ops"))),
              aspect="hidden"),
        *pair(case, "ceiling", "C144.6",
              side("a selected snippet with empty text is still listed with its class, so it refuses the send.",
                   *tagged("ops", snippet(1, "secretAdjacent", tags="ops", text=""))),
              side("the empty text is the configuration's system prompt instead, which declares nothing when exactly empty, so the send is undeclared.",
                   world(configuration={"system_prompt": "", "system_prompt_class": "secretAdjacent"}), [send()])),
        *pair(case, "ceiling", "C144.7",
              side("the attached skill is disabled and hidden, which the classifier does not filter, so it is listed and refuses the send.",
                   world(configuration={"skills": [1]}, skills=[skill(1, "secretAdjacent", enabled=False, hidden=True)]), [send()]),
              side("the attached skill is deleted, so it is not listed and the send is undeclared.",
                   world(configuration={"skills": [1]}, skills=[skill(1, "secretAdjacent", deleted=True)]), [send()])),
        *pair(case, "ceiling", "C144.8",
              side("the snippet's identifier is a space and a tab, empty once trimmed, so the snippet is named by its display name.",
                   *forcing_snippet(identifier=" \t", name="Legal notes")),
              side("the snippet's identifier is a no-break space, which trimming keeps, so it names the snippet and the display name is not used.",
                   *forcing_snippet(identifier="\u00a0", name="Legal notes"))),
        *pair(case, "ceiling", "C144.8",
              side('the snippet\'s identifier holds a quote and a backslash, and it is named with them as stored, nothing escaped.',
                   *forcing_snippet(identifier='say "hi"\\now')),
              side('the quote and backslash are in its display name, which an identifier that is not blank leaves unused: it is named snippet "s1".',
                   *forcing_snippet(name='say "hi"\\now')),
              aspect="quotes"),
        *pair(case, "ceiling", "C144.19",
              side('the installation compares case-insensitively, so "a" orders before "B" and the later of the two equally classified snippets, "B", is named.',
                   *collated("case-insensitive")),
              side('the installation compares code points as stored, so "B" orders before "a" and "a" is the later snippet, named.',
                   *collated("case-sensitive"))),
        *pair(case, "ceiling", "C144.19",
              side('the installation compares case-insensitively, so the lowercased entry "legal" finds the stored identifier "Legal", whose local zone permits the send.',
                   *falling_back("case-insensitive")),
              side('the installation compares as stored, so "legal" finds no configuration and the entry adds externalGlobal, which refuses the send.',
                   *falling_back("case-sensitive")), aspect="fallback"),
        *pair(case, "ceiling", "C144.19",
              side('case-insensitively the entry "fb" finds "FB", the first of the world\'s "FB" and "fb", local: the exact match after it is not looked for, and the send is permitted.',
                   *falling_back_twice("case-insensitive")),
              side('compared as stored, "fb" finds only "fb", on the externalGlobal model, so the send is refused.', *falling_back_twice("case-sensitive")),
              aspect="first-match"),
        *pair(case, "ceiling", "C144.19",
              side('case-insensitively "fb" finds "fb", local, the first undeleted match: the deleted "FB" on the externalGlobal model '
                   'listed before it is passed over, not found and then nothing, so the send is permitted.', *twin_listed_first(deleted=True)),
              side('"FB" is not deleted, so case-insensitively "fb" finds it first, on the externalGlobal model, and the send is refused.',
                   *twin_listed_first(deleted=False)),
              aspect="deleted-first"),
        *pair(case, "ceiling", "C155.1",
              side("a system prompt of one space is text, not the empty prompt, so its class is listed and refuses the send.",
                   world(configuration={"system_prompt": " ", "system_prompt_class": "secretAdjacent"}), [send()]),
              side("a system prompt that is exactly empty declares nothing whatever its stored class, so the send is undeclared.",
                   world(configuration={"system_prompt": "", "system_prompt_class": "secretAdjacent"}), [send()])),
        *pair(case, "ceiling", "C155.2",
              side('the system prompt sets the class, and its entry names the configuration identifier " c " as stored, spaces kept.',
                   world(configuration={"identifier": " c ", **PROMPT_OF}), [send(configuration=" c ")]),
              side('the same class set by a snippet whose identifier is " c " names the snippet by its trimmed identifier instead.',
                   world(configuration={"identifier": " c "}, snippets=[snippet(1, "secretAdjacent", identifier=" c ")]),
                   [send(configuration=" c ", forced_snippets=[1])])),
        *pair(case, "ceiling", "C155.3",
              side("the run overrides the system prompt on the wire, but the configuration's stored secretAdjacent prompt is what is classified, so the send is refused.",
                   world(configuration=PROMPT_OF), [send(system_prompt_override="Summarise the public release notes.")]),
              side("the configuration's stored prompt is empty and declares nothing, and the override's text is never classified, so the send is undeclared.",
                   world(configuration={**PROMPT_OF, "system_prompt": ""}), [send(system_prompt_override="x")])),
        *pair(case, "ceiling", "C164.1",
              side("under adr-164 the forced snippet is folded with the configuration's sources, so its class refuses the send.",
                   *forcing_snippet(), version="adr-164"),
              side("under pre-164 the gate folds the configuration alone, so the same forced snippet is not gated and the send is undeclared.",
                   *forcing_snippet(), version="pre-164")),
        *pair(case, "ceiling", "C164.2",
              side("the run forces nothing, so the folded list is the configuration's own and its editorContent prompt is permitted.",
                   world(configuration={"system_prompt": "x", "system_prompt_class": "editorContent"}, snippets=[snippet(1, "secretAdjacent")]),
                   [send(forced_snippets=[])]),
              side("the run forces one secretAdjacent snippet, so the list is no longer the configuration's alone and the send is refused.",
                   world(configuration={"system_prompt": "x", "system_prompt_class": "editorContent"}, snippets=[snippet(1, "secretAdjacent")]),
                   [send(forced_snippets=[1])])),
        *pair(case, "ceiling", "C164.3",
              side('the forced skill is named "Legal" like the attached one, so it is left out although stricter, and the send is permitted.',
                   world(configuration={"skills": [1]}, skills=[skill(1, "editorContent", name="Legal"), skill(2, "secretAdjacent", name="Legal")]),
                   [send(forced_skills=[2])]),
              side('the forced skill is named "legal", which differs from "Legal" when names are compared exactly, so it is listed and refuses the send.',
                   world(configuration={"skills": [1]}, skills=[skill(1, "editorContent", name="Legal"), skill(2, "secretAdjacent", name="legal")]),
                   [send(forced_skills=[2])])),
        *pair(case, "ceiling", "C164.4",
              side("the forced snippet is stricter than the configuration's prompt, so the refusal names the forced snippet.",
                   world(configuration={"system_prompt": "x", "system_prompt_class": "sourceCode"}, snippets=[snippet(1, "secretAdjacent")]),
                   [send(forced_snippets=[1])]),
              side("the configuration's prompt is the stricter, so the refusal names the system prompt, not the forced snippet.",
                   world(configuration=PROMPT_OF, snippets=[snippet(1, "sourceCode")]), [send(forced_snippets=[1])])),
        *pair(case, "ceiling", "C164.5",
              side("the queued payload stores a strict true, so the dequeue is a dry run: not gated, nothing recorded.", *queued_dry_run(True)),
              side("the queued payload stores 1, which is not a strict true, so the dequeue is gated and refused.", *queued_dry_run(1))),
        *pair(case, "ceiling", "C164.6",
              side('" 3", "+6", "1.9" and "5e0" are numeric, cast to 3, 6, 1 and 5, all above 0, so the readout lists four forced snippets.',
                   *reading([" 3", "+6", "1.9", "5e0"])),
              side('a full-width "３", "-6" below 0, "0.9" cast to 0 and "5e" with no exponent digits are each dropped, so the readout lists nothing.',
                   *reading(["３", "-6", "0.9", "5e"]))),
    ]
