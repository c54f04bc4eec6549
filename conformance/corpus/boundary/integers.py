"""Boundary pairs of every integer a path reads where a scenario may write one of any size: past 2**63 and 2**64, both signs.

The schema bounds every stored uid, sorting, run uid and clock to 32 bits,
so the integers that may run past 64 bits are the raw values a path reads by
its own rule: a playground request's and a readout's forced uids (C164.6),
a queued payload's (C175.4), a suspended state's (C165.2), and the user uid
of a send and of a run row (C144.15); and in the gateway, an argument's value,
which is no identifier at any size but may be read as one (G001.15). Each pair holds the largest value that
still fits (2**63 - 1) on its applies side and, on its near misses, 2**63
and 2**64 + 4096 (which wraps to 4096 modulo 2**64) and their negatives
-(2**63) - 2048 and -(2**64) + 4096: a reading that drops, wraps, saturates or
rounds what the rule keeps or casts otherwise names another record or
records another number. A snippet and a skill of uid 4096, secretAdjacent,
make a wrap decisive. Under ``nr-llm`` the code's own readings apply
(``adr/versions.md``); its cases say so in their id.
"""

from __future__ import annotations

from .pairs import pair, side
from .. import lab_world
from ..cases import case, send, skill, snippet, world

INT_MAX = 2**63 - 1
PAST_64 = (2**63, 2**64 + 4096)
BELOW_64 = (-(2**63) - 2048, -(2**64) + 4096)  # the nearest below -(2**63) a double holds, so PHP echoes it exactly
FLOATS_PAST_64 = (1.8446744073709556e19, -1.8446744073709556e19)  # 2**64 + 4096 and its negative, as doubles hold them
WRAPPED = world(snippets=[snippet(4096, "secretAdjacent")], skills=[skill(4096, "secretAdjacent")])


def requested(uids: list) -> tuple[dict, list[dict]]:
    """A readout and a send forcing ``uids`` as snippets and as skills."""
    forced = {"forced_snippets": uids, "forced_skills": uids}
    return WRAPPED, [{"op": "readout", "configuration": "c", **forced}, send(**forced)]


def queued(uids: list, be_user: object = 0) -> tuple[dict, list[dict]]:
    """A run queued forcing ``uids`` as snippets and skills, by ``be_user``, then dequeued."""
    queue = {"op": "queue", "run": "r", "configuration": "c", "forced_snippets": uids, "forced_skills": uids, "be_user": be_user}
    return WRAPPED, [queue, {"op": "dequeue", "run": "r"}]


def resumed(uids: list) -> tuple[dict, list[dict]]:
    """A run suspended with a stored state holding ``uids`` for snippets and skills, then resumed."""
    state = {"forced_snippet_uids": uids, "forced_skill_uids": uids}
    return WRAPPED, [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"},
                     {"op": "suspend", "run": "r", "state": state}, {"op": "resume", "run": "r"}]


def refused_by(be_user: object) -> tuple[dict, list[dict]]:
    """A send by ``be_user`` forcing the secretAdjacent snippet, and a run of that user doing the same: both refused."""
    queue = {"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [4096], "be_user": be_user}
    return WRAPPED, [send(forced_snippets=[4096], be_user=be_user), queue, {"op": "dequeue", "run": "r"}]


def with_rules(version: str | None):
    def build(case_id: str, description: str, rules: list[str], document: dict, steps: list[dict]) -> dict:
        return case(case_id, description, rules, document, steps, version)
    return build


def ceiling_cases(version: str | None = None) -> list[dict]:
    """The pairs of a send under ``version`` (the latest ADR's when None; under nr-llm their ids say so): the request's
    uids, and the user uid where the version records one."""
    build, family = with_rules(version), "ceiling" if version is None else f"ceiling.{version}"
    users = [] if version == "nr-llm" else pair(
        build, family, "C144.15",
        side(f"the user {INT_MAX} is an integer: the refusals of the send and the run record it as written.", *refused_by(INT_MAX)),
        side("the user 2**64 + 4096 is an integer past 64 bits: recorded as written, never wrapped or saturated.", *refused_by(PAST_64[1])),
        "past-64-bits", negative=side("the user -(2**64) + 4096 is an integer below 64 bits: recorded as written.", *refused_by(BELOW_64[1])))
    # Under nr-llm a string saturates onto no record, as 2**63 - 1 does: the pair's strings stand on the applies side there.
    strings = {} if version == "nr-llm" else {"strings": side(
        "the same four written as integer strings: each is cast as C164.6 casts a numeric string, saturated at PHP's bounds.",
        *requested([str(n) for n in (*PAST_64, *BELOW_64)]))}
    return [
        *pair(build, family, "C164.6",
              side(f"a request's uid {INT_MAX} is the largest integer PHP holds: kept as it is, it names no record.", *requested([INT_MAX])),
              side("the uids 2**63 and 2**64 + 4096 are past PHP's range, written as JSON integers: each is cast as C164.6 casts "
                   "it (saturated at 2**63 - 1, or under nr-llm wrapped as json_decode's float), never dropped for its size.",
                   *requested(list(PAST_64))),
              "past-64-bits", negative=side("the uids -(2**63) - 2048 and -(2**64) + 4096 are below PHP's range: each is cast as "
                                           "C164.6 casts it, and kept only when that is above 0.", *requested(list(BELOW_64))),
              **strings,
              floats=side("2**63, 2**64 + 4096 and its negative written as JSON floats: saturated (under nr-llm wrapped modulo "
                          "2**64, onto 4096), never dropped for their size.", *requested([float(2**63), *FLOATS_PAST_64]))),
        *users,
    ]


def lifecycle_cases(version: str | None = None) -> list[dict]:
    """The pairs of a queued payload and a suspended state under ``version``, as :func:`ceiling_cases`."""
    build, family = with_rules(version), "lifecycle" if version is None else f"lifecycle.{version}"
    return [
        *pair(build, family, "C175.4",
              side(f"a queued uid {INT_MAX} is an integer that names no record: recorded gone where a version records drops.",
                   *queued([INT_MAX])),
              side("the queued uids 2**63 and 2**64 + 4096 are JSON integers past 64 bits: kept at their size (under nr-llm "
                   "the floats json_decode makes, dropped), never wrapped onto the record 4096.", *queued(list(PAST_64))),
              "past-64-bits", negative=side("the queued uids -(2**63) - 2048 and -(2**64) + 4096 are below 0: dropped, never wrapped.",
                                           *queued(list(BELOW_64)))),
        *pair(build, family, "C165.2",
              side(f"a suspended state's uids {INT_MAX} and 4096 are kept: the first names no record, the second the secret "
                   "snippet and skill.", *resumed([INT_MAX, 4096])),
              side("the stored uids 2**63 and 2**64 + 4096, as integers and as digit strings, are kept at their size and name no "
                   "record, never wrapped onto the record 4096.", *resumed([*PAST_64, *map(str, PAST_64)])),
              "past-64-bits", negative=side("the stored uids -(2**63) - 2048 and -(2**64) + 4096 are below 0: dropped, never wrapped.",
                                           *resumed([*BELOW_64, *map(str, BELOW_64)]))),
    ]


def read_of(case_id: object, stored: str) -> tuple[list[dict], dict]:
    """A read of ``case_id`` by ana, in the lab with a case of her tenant stored under ``stored``."""
    cases = [*lab_world.LAB_WORLD["cases"], {"id": stored, "tenant": "acme", "assignees": ["ana"]}]
    return [lab_world.call("read_case", {"case_id": case_id})], {"cases": cases}


def gateway_cases() -> list[dict]:
    """G001.15: an integer argument past 64 bits is no identifier, and names no record, not even one stored under its digits."""
    def build(case_id: str, description: str, rules: list[str], steps: list[dict], parts: dict) -> dict:
        return lab_world.case(case_id, description, rules, steps, **parts)

    digits, below = str(PAST_64[1]), str(BELOW_64[0])
    return pair(build, "gw", "G001.15",
                side(f"the case id is the string {digits}, a stored case's id: the read is allowed and its audit names it.",
                     *read_of(digits, digits)),
                side("the case id is the integer 2**64 + 4096: no identifier, so the read is malformed_input, and its audit names "
                     "no case, though one is stored under its digits.", *read_of(PAST_64[1], digits)),
                "integer-past-64-bits", negative=side("the case id is the integer -(2**63) - 2048: malformed_input, and the "
                                                      "audit names no case, though one is stored under its digits.",
                                                      *read_of(BELOW_64[0], below)))
