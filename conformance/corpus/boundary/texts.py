"""Boundary pairs of every text the gateway and the ceiling compare: as written, with surrounding spaces, and in a case
that differs only in letters outside A–Z.

Each compared text gets a pair: the case where the text is exactly its
counterpart (the rule finds it), then two near misses the rule tells apart
from it: the text with a space after and before it (a reading that trims, or
trims one end, finds it) and the text in another case of a letter outside
A–Z (a reading that folds with Unicode's lower or upper case, or case-folds,
finds it). A text the rules fold (tags, fallback entries, the switch, the
de-duplication key, a case-insensitive collation) is folded over A–Z only,
so its non-ASCII near miss is a miss there too.

The letters are the ones whose case Unicode maps into ASCII or past one code
point: the Kelvin sign ``K`` (lower case ``k``), the long s ``ſ`` (upper case
``S``), the sharp s ``ß`` (upper case ``SS``, case-folded ``ss``), the dotted
capital ``İ`` (lower case ``i̇``, two code points) and the capital sigma
``Σ`` (lower case ``σ``, or ``ς`` at a word's end).
"""

from __future__ import annotations

import copy

from .pairs import pair, side
from ..lab_world import APPROVAL, ATTACK, LAB_WORLD, call, case

NEXT = "lab-001+next"
KELVIN, LONG_S, SHARP_S, DOTTED_I, SIGMA = "\u212a", "\u017f", "\u00df", "\u0130", "\u03a3"


def spaced(text: str) -> list[str]:
    """The text with a space after it, and with one before it: a reading that trims either end finds one of them."""
    return [f"{text} ", f" {text}"]


def lab(**parts) -> dict:
    """The lab's world with ``parts`` changed: each a function of a deep copy of the lab's list of that name."""
    return {name: change(copy.deepcopy(LAB_WORLD.get(name, []))) for name, change in parts.items()}


def plus(*records: dict):
    return lambda listed: [*listed, *records]


def session_of(session_id: str, **fields):
    return lambda sessions: [{**s, **fields} if s["id"] == session_id else s for s in sessions]


def first_case(**fields):
    return lambda cases: [{**cases[0], **fields}, *cases[1:]]


def texts_called(rule: str, aspect: str, what: str, steps, near_case: list[str], version: str = "lab-001", **world) -> list[dict]:
    """A text a call carries, ``steps(texts)`` the calls with each of ``texts`` where the lab writes ``what``: as written,
    spaced, as ``near_case`` writes it, and with its A-Z letters in the other case."""
    found = "compared as written, it names nothing the catalogue or the world holds, so each call is refused"
    return pair(case, "gw", rule,
                side(f"{what} is written as the world holds it, so the call is judged on it.", steps([what]), version, **world),
                side(f"{what} carries a space after it, then before it: {found}.", steps(spaced(what)), version, **world),
                aspect, non_ascii_case=side(
                    f"{what} is written {' and '.join(map(repr, near_case))}, equal to a held name under Unicode's lower, upper or "
                    f"folded case, not over A-Z: {found}.", steps(near_case), version, **world),
                other_case=side(f"{what} is written {what.swapcase()}: {found}.", steps([what.swapcase()]), version, **world))


def text_stored(rule: str, aspect: str, what: str, steps: list[dict], worlds: dict, version: str = "lab-001") -> list[dict]:
    """A text a stored record holds, which the call's session or arguments must match: ``worlds`` the world's parts for
    each side (``applies``, ``spaced``, ``leading``, ``non_ascii``), each side a case of its own."""
    sides = {"applies": "is stored as the call names it, so it matches",
             "spaced": "is stored with a space after it: compared as stored it does not match",
             "leading": "is stored with a space before it: compared as stored it does not match",
             "non_ascii": "is stored with a letter outside A-Z that Unicode's lower, upper or folded case makes its counterpart's: "
                          "compared as stored it does not match"}
    suffixes = {"applies": "applies", "spaced": "just-outside", "leading": "just-outside.leading-space", "non_ascii": "just-outside.non-ascii-case"}
    return [case(f"gw.boundary.{rule.lower()}.{aspect}.{suffixes[name]}",
                 f"{rule} {'applies' if name == 'applies' else 'just outside'}: {what} {why}.", [rule], steps, version, **worlds[name])
            for name, why in sides.items()]


def read(case_id: str, session: str = "ana") -> dict:
    return call("read_case", {"case_id": case_id}, session=session)


def export_to(destination: str) -> dict:
    return call(arguments={"case_id": "CASE-1", "destination_id": destination})


#: Records named one letter apart from what the near misses call them: found only by a Unicode-aware fold.
FOLDED_CASES = plus({**LAB_WORLD["cases"][0], "id": "CASE-k"}, {**LAB_WORLD["cases"][0], "id": "CASE-ss"})
FOLDED_DESTINATIONS = plus({"id": "review-k", "internal": True}, {"id": "review-ss", "internal": True})


def called_cases() -> list[dict]:
    return [
        *texts_called("G001.1", "tool-as-written", "read_case", lambda texts: [call(t, {"case_id": "CASE-1"}) for t in texts],
                      [f"read_ca{LONG_S}e"]),
        *texts_called("G001.3", "argument-name-as-written", "case_id", lambda texts: [call("read_case", {t: "CASE-1"}) for t in texts],
                      [f"ca{LONG_S}e_id"]),
        *texts_called("G001.9", "case-as-written", "CASE-1", lambda texts: [read(t) for t in texts], [f"CASE-{KELVIN}", f"CASE-{SHARP_S}"],
                      **lab(cases=FOLDED_CASES)),
        *texts_called("G001.8", "destination-as-written", "review-queue", lambda texts: [export_to(t) for t in texts],
                      [f"review-{KELVIN}", f"review-{SHARP_S}"], **lab(destinations=FOLDED_DESTINATIONS)),
        *pair(case, "gw", "G002.2",
              side("the export under k-1 again is a replay, and the export under ss-1 after one under ss-1 too.",
                   [call(idempotency_key="k-1"), call(idempotency_key="k-1"), call(idempotency_key="ss-1"), call(idempotency_key="ss-1")], NEXT),
              side("after an export under k-1, the keys \"k-1 \" and \" k-1\" are others, compared as written: each exports again.",
                   [call(idempotency_key=key) for key in ("k-1", "k-1 ", " k-1")], NEXT),
              "key-as-written", non_ascii_case=side(
                  f"after an export under k-1 and one under ss-1, the keys {KELVIN}-1 and {SHARP_S}-1 are others, compared as "
                  "written: each exports again.",
                  [call(idempotency_key=key) for key in ("k-1", f"{KELVIN}-1", "ss-1", f"{SHARP_S}-1")], NEXT),
              other_case=side("after an export under k-1, the key K-1 is another: it exports again.",
                              [call(idempotency_key=key) for key in ("k-1", "K-1")], NEXT)),
        *pair(case, "gw", "G002.2",
              side("an export under k-1 after an export of another destination under it is a conflict: an export reads its key.",
                   [call(idempotency_key="k-1"), call(arguments=ATTACK, idempotency_key="k-1")], NEXT),
              side("a read under k-1 after an export under it is allowed, and an export under k-2 after a read under it exports: "
                   "a read neither reads nor binds a key.",
                   [call(idempotency_key="k-1"), read("CASE-1") | {"idempotency_key": "k-1"},
                    read("CASE-1") | {"idempotency_key": "k-2"}, call(idempotency_key="k-2")], NEXT),
              "key-on-a-read"),
    ]


def stored_cases() -> list[dict]:
    as_kim = session_of("ana", user="kim")
    kim_assigned = first_case(assignees=["kim", "cy"])
    return [
        *text_stored("G001.10", "tenant-as-stored", "ana's tenant", [read("CASE-1")], {
            "applies": {}, "spaced": lab(sessions=session_of("ana", tenant="acme ")),
            "leading": lab(sessions=session_of("ana", tenant=" acme")),
            "non_ascii": lab(sessions=session_of("ana", tenant=f"acme-{KELVIN}"), cases=first_case(tenant="acme-k"))}),
        *text_stored("G001.11", "assignee-as-stored", "CASE-1's assignee", [call(), call(session="bo")], {
            "applies": lab(cases=first_case(assignees=["ana", "bo"])), "spaced": lab(cases=first_case(assignees=["ana ", "bo "])),
            "leading": lab(cases=first_case(assignees=[" ana", " bo"])),
            "non_ascii": lab(sessions=lambda s: session_of("bo", user="sam")(as_kim(s)),
                             cases=first_case(assignees=[f"{KELVIN}im", f"{LONG_S}am"]))}),
        *text_stored("G001.7", "role-as-stored", "ana's role support", [call()], {
            "applies": {}, "spaced": lab(sessions=session_of("ana", roles=["support "])),
            "leading": lab(sessions=session_of("ana", roles=[" support"])),
            "non_ascii": lab(sessions=session_of("ana", roles=[f"{LONG_S}upport"]))}),
        *text_stored("G002.5", "approval-user-as-stored", "the approval's user", [call(arguments=ATTACK)], {
            "applies": {"approvals": [APPROVAL]}, "spaced": {"approvals": [{**APPROVAL, "user": "ana "}]},
            "leading": {"approvals": [{**APPROVAL, "user": " ana"}]},
            "non_ascii": {**lab(sessions=as_kim, cases=kim_assigned), "approvals": [{**APPROVAL, "user": f"{KELVIN}im"}]}}, NEXT),
        *text_stored("G002.5", "approval-tool-as-stored", "the approval's tool", [call(arguments=ATTACK)], {
            "applies": {"approvals": [APPROVAL]}, "spaced": {"approvals": [{**APPROVAL, "tool": "export_case "}]},
            "leading": {"approvals": [{**APPROVAL, "tool": " export_case"}]},
            "non_ascii": {"approvals": [{**APPROVAL, "tool": f"export_ca{LONG_S}e"}]}}, NEXT),
        *text_stored("G002.7", "approval-value-as-stored", "the approval's argument value", [call(arguments=ATTACK)], {
            "applies": {"approvals": [APPROVAL]},
            "spaced": {"approvals": [{**APPROVAL, "arguments": {**ATTACK, "destination_id": "partner-drop "}}]},
            "leading": {"approvals": [{**APPROVAL, "arguments": {**ATTACK, "destination_id": " partner-drop"}}]},
            "non_ascii": {"approvals": [{**APPROVAL, "arguments": {**ATTACK, "case_id": f"CA{LONG_S}E-1"}}]}}, NEXT),
    ]


def gateway_cases() -> list[dict]:
    return [*called_cases(), *stored_cases()]
