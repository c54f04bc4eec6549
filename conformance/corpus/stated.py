"""Cases for readings ``adr/`` states in words where an implementer had to settle them by running ``decide``.

Each pins a sentence of a rule's text that no other case decides on its
own: which number forms a queued payload and a suspended state keep (C175.4,
C165.2, beside S001.1's integral floats, which are the schema's integer
fields), what counts as an integer user uid (C144.15), and that a forced
source is left out by a name an earlier forced source already listed
(C164.3).
"""

from __future__ import annotations

from .cases import case, send, snippet, world

NUMBER_FORMS = [7.0, " 8", "+9", "009"]


def ceiling_cases() -> list[dict]:
    return [
        case("ceiling.stated.user-uid-forms", "Only a JSON integer is a user uid, of any size or sign, recorded as written: 7.0 "
             "(a float, though S001.1 reads an integer field written so as an integer), true and \"7\" record 0, -5 and a "
             "26-digit integer are recorded.", ["C144.15"],
             world(snippets=[snippet(1, "secretAdjacent")]),
             [send(forced_snippets=[1], be_user=user) for user in (7.0, True, "7", -5, 12345678901234567890123456)]),
        case("ceiling.stated.forced-name-listed-by-a-forced-source", "Two forced snippets named x: the second's name is already "
             "listed, by the first, so it is left out though it is stricter, and the send is permitted.", ["C164.3"],
             world(snippets=[snippet(1, "publicContent", identifier="x"), snippet(2, "secretAdjacent", identifier="x")]),
             [send(forced_snippets=[1, 2])]),
    ]


def lifecycle_cases() -> list[dict]:
    snippets = [snippet(7, "secretAdjacent"), snippet(8, "secretAdjacent"), snippet(9, "sourceCode")]
    state = {"forced_snippet_uids": NUMBER_FORMS, "forced_skill_uids": []}
    return [
        case("lifecycle.stated.number-forms-queued-and-suspended", "A queued payload keeps JSON integers only: 7.0, \" 8\", \"+9\" "
             "and \"009\" are all dropped, unrecorded, and the dequeue forces nothing. A suspended state keeps integers and "
             "strings of ASCII digits: of the same four only \"009\" is kept, as 9, so the resume forces the sourceCode snippet "
             "9 and not the secretAdjacent 7 or 8.", ["C175.4", "C165.2"], world(enforcement="observe", snippets=snippets),
             [{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": NUMBER_FORMS}, {"op": "dequeue", "run": "r"},
              {"op": "suspend", "run": "r", "state": state}, {"op": "resume", "run": "r"}]),
    ]
