"""One meaning of trimming and lowercasing wherever a rule trims or lowercases (C094.9): PHP's trim and strtolower, held rule by rule.

Each test puts the six characters C094.9 trims, a character it keeps (form
feed, no-break space) and a letter outside ASCII where the rule reads the
string, and checks the decision the model makes, not the prose.
"""

from __future__ import annotations

import pytest

from support import readout, send, snippet, world

KEPT = ["\f", "\u00a0", "\u2003"]  # form feed, no-break space, em space: not PHP's trim
TRIMMED = " \t\n\r\0\x0b"


@pytest.mark.rule("C094.9", "C094.10")
@pytest.mark.parametrize(("entry", "found"), [(TRIMMED + "OTHER" + TRIMMED, True), *((pad + "other", False) for pad in KEPT), ("\u00d6ther", False)])
def test_a_fallback_entry_is_trimmed_and_lowered_as_php_does(entry, found):
    # "other" is local; an entry that finds no configuration adds externalGlobal and refuses the secret snippet.
    stored = world(zone="local", configuration={"fallbacks": [entry]}, extra_configurations=[{"identifier": "other", "model": "m"}],
                   snippets=[snippet(1, "secretAdjacent")])
    assert send(stored, forced_snippets=[1])["zone"] == ("local" if found else "externalGlobal")


@pytest.mark.rule("C113.1", "C094.9")
@pytest.mark.parametrize(("raw", "observes"), [(TRIMMED + "OBSERVE" + TRIMMED, True), *((pad + "observe", False) for pad in KEPT), ("OBSERV\u0112", False)])
def test_the_switch_is_trimmed_and_lowered_as_php_does(raw, observes):
    refused = send(world(snippets=[snippet(1, "secretAdjacent")], enforcement=raw), forced_snippets=[1])
    assert refused["decision"] == ("observed" if observes else "refused")


@pytest.mark.rule("C144.4", "C094.9")
@pytest.mark.parametrize(("configuration_tags", "snippet_tags", "selected"), [
    (TRIMMED + "LEGAL" + TRIMMED, "x," + TRIMMED + "Legal" + TRIMMED, True),
    ("legal", "\u00a0legal", False),
    ("legal\f", "legal", False),
    ("\u212aey", "key", False),  # the Kelvin sign is no K to strtolower
    ("\u00c4", "\u00e4", False),
])
def test_tags_are_trimmed_and_lowered_as_php_does(configuration_tags, snippet_tags, selected):
    stored = world(configuration={"snippet_tags": configuration_tags}, snippets=[snippet(1, "editorContent", tags=snippet_tags)])
    assert readout(stored)["sources"] == ([{"source": 'snippet "s1"', "data_class": "editorContent"}] if selected else [])


@pytest.mark.rule("C144.5", "C094.9")
@pytest.mark.parametrize(("first", "second", "kept"), [("ABC" + TRIMMED, "\tabc", 1), ("abc\u00a0", "abc", 2), ("\u00c4", "\u00e4", 2), (TRIMMED, " ", 2)])
def test_a_snippet_reached_twice_is_keyed_by_its_identifier_trimmed_and_lowered_as_php_does(first, second, kept):
    # Two records, each reached through its own tag: one key keeps the first only; an identifier trimmed to nothing is keyed by uid.
    records = [snippet(1, "editorContent", identifier=first, tags="a"), snippet(2, "editorContent", identifier=second, tags="b")]
    stored = world(configuration={"snippet_tags": "a,b"}, snippets=records)
    assert len(readout(stored)["sources"]) == kept


@pytest.mark.rule("C144.8", "C094.9")
@pytest.mark.parametrize(("identifier", "name"), [(TRIMMED + "id" + TRIMMED, 'snippet "id"'), ("\u00a0id\f", 'snippet "\u00a0id\f"'),
                                                  (TRIMMED, 'snippet "display"')])
def test_a_snippets_name_trims_its_identifier_as_php_does(identifier, name):
    stored = world(snippets=[snippet(1, "editorContent", identifier=identifier, name="display")])
    assert readout(stored, forced_snippets=[1])["sources"][0]["source"] == name
