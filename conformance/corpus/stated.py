"""Cases for readings ``adr/`` states in words where an implementer had to settle them by running ``decide``.

Each pins a sentence of a rule's text that no other case decides on its
own: which number forms a queued payload and a suspended state keep (C175.4,
C165.2, beside S001.1's integral floats, which are the schema's integer
fields), what counts as an integer user uid (C144.15), and that a forced
source is left out by a name an earlier forced source already listed
(C164.3); and, under ``nr-llm``, a queued run whose row names a negative user
failing on its dequeue (C175.5).
"""

from __future__ import annotations

from .boundary.pairs import pair, side
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


def queued_by(*users: object) -> tuple[dict, list[dict]]:
    """For each user, a run of that user queued forcing a secretAdjacent snippet, then dequeued."""
    steps = [step for n, user in enumerate(users) for step in (
        {"op": "queue", "run": f"r{n}", "configuration": "c", "forced_snippets": [1], "be_user": user}, {"op": "dequeue", "run": f"r{n}"})]
    return world(snippets=[snippet(1, "secretAdjacent")]), steps


def nr_llm_case(case_id: str, description: str, rules: list[str], document: dict, steps: list[dict]) -> dict:
    return case(case_id, description, rules, document, steps, "nr-llm")


def profile_cases() -> list[dict]:
    """C175.5 under nr-llm: the code rebuilds the payload's tool options with the row's user, which refuse one below 0."""
    return pair(nr_llm_case, "lifecycle.nr-llm", "C175.5",
                side("the rows name the users -(2**63), the least PHP holds, and -5: the payload's tool options refuse a user "
                     "below 0, so each dequeue fails its run before anything is composed.", *queued_by(-(2**63), -5)),
                side("the row names the user 0: the run is composed and its send refused.", *queued_by(0)),
                "negative-user", past_64_bits=side("the row names -(2**63) - 1, beyond PHP's integers: the row holds no user "
                                                   "there, and the run is composed.", *queued_by(-(2**63) - 1)))
