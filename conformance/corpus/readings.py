"""Cases where careful readings of the rules part: texts compared as stored, number strings, integers past 64 bits, PHP arrays.

Each pins one place where an implementation written from ``adr/`` in
another language can plausibly read a rule otherwise and still pass every
case that agrees on the common inputs: a collation that ignores trailing
spaces or folds to upper case, names ordered by UTF-16 code units, Unicode
normalisation, a numeric string that starts at its point or signs its
exponent, an integer beyond the 64 bits PHP holds, a key shared by an
identifier of digits and a uid, an object's values in the order JavaScript
lists them. Generated scenarios reach those a document of ordinary size can
hold; integers past 2**53 stay here.
"""

from __future__ import annotations

from .cases import case, send, skill, snippet, world

REFUSED_AT_5 = [snippet(5, "secretAdjacent")]
TAGGED = {"snippet_tags": "t"}
LATER_NAMED = ["C144.4", "C144.9", "C144.3"]  # of two snippets of one class and sorting, the later is named


def readout_and_send() -> list[dict]:
    return [{"op": "readout", "configuration": "c"}, send()]


def named_pair(first: str, second: str, collation: str | None = None) -> dict:
    """Two snippets of one class and sorting selected by one tag, named ``first`` and ``second``, listed in that order."""
    document = world(zone="local", configuration=TAGGED,
                     snippets=[snippet(1, "sourceCode", name=first, tags="t"), snippet(2, "sourceCode", name=second, tags="t")])
    return document | ({"collation": collation} if collation else {})


def ceiling_cases() -> list[dict]:
    return [
        case("ceiling.readings.collation-keeps-trailing-spaces", "Under a case-insensitive collation the fallback \"eu\" does not find "
             "the configuration \"eu \": trailing spaces count, so the entry names nothing and the send can reach externalGlobal.",
             ["C144.19", "C094.10"],
             world(zone="local", configuration={**TAGGED, "fallbacks": ["eu"]}, snippets=[snippet(1, "sourceCode", tags="t")],
                   configurations=[{"identifier": "eu ", "model": "m"}]) | {"collation": "case-insensitive"}, [send()]),
        case("ceiling.readings.collation-folds-to-lower-case", "A case-insensitive collation folds letters to lower case: \"_a\" (an "
             "underscore before a lower-case a) orders before \"ab\", so the later of the two, \"ab\", is named.", ["C144.19", *LATER_NAMED],
             named_pair("_a", "ab", "case-insensitive"), readout_and_send()),
        case("ceiling.readings.names-by-code-point", "Names are ordered by code point: U+E000 comes before U+1F600, which UTF-16 "
             "code units put first, so the snippet named with the emoji is the later and is named.", LATER_NAMED,
             named_pair("\ue000", "\U0001f600"), readout_and_send()),
        case("ceiling.readings.names-as-stored", "A forced snippet's name is compared with the selected ones as stored: \"\u00e9\" "
             "composed is not \"e\u0301\" decomposed, so both are sources and the forced one's secretAdjacent is refused.",
             ["C164.3", "C144.5"],
             world(configuration=TAGGED, snippets=[{"uid": 1, "identifier": "e\u0301", "tags": "t", "data_class": "publicContent"},
                                                  {"uid": 2, "identifier": "\u00e9", "data_class": "secretAdjacent"}]),
             [send(forced_snippets=[2])]),
        case("ceiling.readings.identifier-of-digits-beside-a-uid", "A snippet identified \"3\" and the snippet of uid 3 without an "
             "identifier take two keys, so both are sources and the second's secretAdjacent is refused.", ["C144.5"],
             world(configuration=TAGGED, snippets=[{"uid": 1, "identifier": "3", "tags": "t", "data_class": "publicContent"},
                                                  {"uid": 3, "name": "bee", "tags": "t", "data_class": "secretAdjacent"}]),
             readout_and_send()),
        case("ceiling.readings.number-string-from-its-point", "\".5e1\" is a numeric string, 5: it forces snippet 5.", ["C164.6"],
             world(snippets=REFUSED_AT_5), [send(forced_snippets=[".5e1"])]),
        case("ceiling.readings.number-string-signed-exponent", "\"5e+0\" is a numeric string, 5: it forces snippet 5.", ["C164.6"],
             world(snippets=REFUSED_AT_5), [send(forced_snippets=["5e+0"])]),
        case("ceiling.readings.user-past-64-bits", "A user uid of 2**63, past 64 bits, is an integer and is recorded as written.",
             ["C144.15"], world(configuration=TAGGED, snippets=[snippet(1, "sourceCode", tags="t")]), [send(be_user=2**63)]),
        case("ceiling.nr-llm.number-string-past-64-bits-saturates", "Under nr-llm a numeric string beyond 64 bits that is no integer "
             "string saturates as PHP's (int) of a string does: \"1.8446744073709556e19\" is PHP_INT_MAX, not 4096 as a float's "
             "wrap would make it, so nothing is forced.", ["C164.6"],
             world(snippets=[snippet(4096, "secretAdjacent")]), [send(forced_snippets=["1.8446744073709556e19"])], "nr-llm"),
    ]


def lifecycle_cases() -> list[dict]:
    return [
        case("lifecycle.readings.name-ties-by-uid-as-a-number", "Before ADR-175 a resume orders skills of one name by uid as a "
             "number, 9 before 10, not as text, where \"10\" comes first.", ["C165.6"],
             world(enforcement="observe", skills=[skill(9, "secretAdjacent", name="s"), skill(10, "publicContent", name="s")]),
             [{"op": "queue", "run": "r", "configuration": "c", "forced_skills": [9, 10]}, {"op": "dequeue", "run": "r"},
              {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r"}], "adr-166"),
        case("lifecycle.readings.queued-uid-past-64-bits", "A queued uid of 2**63, past 64 bits, is still an integer: the dequeue "
             "finds no snippet of it and records it dropped as gone.", ["C175.4", "C179.1"], world(),
             [{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [2**63]}, {"op": "dequeue", "run": "r"}]),
        case("lifecycle.nr-llm.state-object-in-written-order", "Under nr-llm a stored list written as an object is read by its values "
             "in the order written, as a PHP array holds them: {\"b\": 2, \"1\": 1} rebuilds 2 then 1, though JavaScript lists the "
             "key \"1\" first.", ["C165.2"],
             world(snippets=[snippet(1, "sourceCode"), snippet(2, "sourceCode")]),
             [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"},
              {"op": "suspend", "run": "r", "state": {"forced_snippet_uids": {"b": 2, "1": 1}, "forced_skill_uids": []}},
              {"op": "resume", "run": "r"}], "nr-llm"),
    ]
