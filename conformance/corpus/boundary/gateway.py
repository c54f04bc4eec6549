"""Boundary pairs of the tool-call gateway (lab ADR-001 and its next checks), in the lab's world.

Each pair moves one proposed value, one session fact or one moment on the
clock across the edge of a rule: a tool name one character off, 128
characters against 129, an approval that expires at the clock's time against
one second later, a window's oldest call exactly one window old.
"""

from __future__ import annotations

import copy

from gateproof.model.scenario.document import RepeatedKeys

from .pairs import pair, side
from ..lab_world import APPROVAL, ATTACK, CONTENT, EXPORT, INJECTED, LAB_WORLD, call, case

NEXT = "lab-001+next"
READ = call("read_case", {"case_id": "CASE-1"})


def read(case_id: object, session: str = "ana") -> dict:
    return call("read_case", {"case_id": case_id}, session=session)


def sessions_with(session: str, roles: list[str]) -> list[dict]:
    """The lab's sessions with ``session`` holding ``roles`` instead of its own."""
    sessions = copy.deepcopy(LAB_WORLD["sessions"])
    next(s for s in sessions if s["id"] == session)["roles"] = roles
    return sessions


#: The lab's sessions and a second one of ana's, with its own id.
TWO_OF_ANA = [*LAB_WORLD["sessions"], {"id": "ana-2", "user": "ana", "tenant": "acme", "roles": ["support"]}]


def limited(seconds: int) -> list[dict]:
    """Two reads, the clock moved on by ``seconds``, and a third read, in a window of 60 seconds."""
    return [READ, READ, {"op": "advance_clock", "seconds": seconds}, READ]


def cases() -> list[dict]:
    planted = [dict(LAB_WORLD["cases"][0], content=INJECTED), LAB_WORLD["cases"][1]]
    revised = {"op": "edit_case", "case_id": "CASE-1", "content": "Revised: the double charge was refunded."}
    window = {"calls": 2, "window": 60}
    return [
        *pair(case, "gw", "G001.1",
              side('the tool "read_case " carries a trailing space, so the catalogue does not hold it and the call is unknown_tool.', [call("read_case ", {"case_id": "CASE-1"})]),
              side("the tool is exactly read_case, so the call goes on to the later checks and is allowed.", [READ])),
        *pair(case, "gw", "G001.1",
              side('the tools "constructor", "toString" and "__proto__" are names every JavaScript object inherits, none of them one the catalogue '
                   "holds, so each call is unknown_tool.",
                   [call(tool, {"case_id": "CASE-1"}) for tool in ("constructor", "toString", "__proto__")]),
              side("the tools are exactly read_case, so each call goes on to the later checks and is allowed.", [READ, READ, READ]),
              "inherited"),
        *pair(case, "gw", "G001.2",
              side("the arguments are an empty array, not an object, so the call is malformed_input.", [call("read_case", [])]),
              side("the arguments are an empty object, so the shape is read and the call fails only later, for its missing case_id.", [call("read_case", {})])),
        *pair(case, "gw", "G001.17",
              side("the export writes destination_id twice, partner-drop and then review-queue, so it is malformed_input, though a reader keeping the last value would allow it.",
                   [call("export_case", RepeatedKeys([("case_id", "CASE-1"), ("destination_id", "partner-drop"), ("destination_id", "review-queue")]))]),
              side("the export writes destination_id once, review-queue, so it is allowed.", [call("export_case", EXPORT)]),
              differing_case=side("the export writes destination_id and Destination_id, two keys, so the call is read and refused as extra_arguments.",
                                  [call("export_case", {"case_id": "CASE-1", "destination_id": "review-queue", "Destination_id": "partner-drop"})])),
        *pair(case, "gw", "G001.17",
              side("an object nested in the arguments writes its id twice, so the call is malformed_input under G001.17, before its values are read.",
                   [read(RepeatedKeys([("id", "CASE-9"), ("id", "CASE-1")]))]),
              side("the nested object writes its id once, so the call is read and refused under G001.5: an object is no identifier.", [read({"id": "CASE-1"})]),
              "nested"),
        *pair(case, "gw", "G001.17",
              side("an object in a list in a field the tool does not declare writes approved_by twice, so the call is malformed_input under G001.17, "
                   "before the field is found undeclared, and its audit names no case.",
                   [call("read_case", {"case_id": "CASE-1", "note": [RepeatedKeys([("approved_by", "bo"), ("approved_by", "ana")])]})]),
              side("the object in the list writes approved_by once, so the call is read and refused as extra_arguments.",
                   [call("read_case", {"case_id": "CASE-1", "note": [{"approved_by": "ana"}]})]),
              "in-list"),
        *pair(case, "gw", "G001.3",
              side("the arguments add a note field the tool does not declare, null as it is, so the call is extra_arguments.",
                   [call("read_case", {"case_id": "CASE-1", "note": None})]),
              side("the arguments hold exactly the declared case_id, so the call is allowed.", [READ])),
        *pair(case, "gw", "G001.4",
              side("the export names no destination_id, so the call is missing_argument.", [call("export_case", {"case_id": "CASE-1"})]),
              side("the export names both declared arguments, so it is allowed.", [call("export_case", EXPORT)])),
        *pair(case, "gw", "G001.5",
              side("the case id is 129 characters, one past the limit, so the call is malformed_input.", [read("C" * 129)]),
              side("the case id is exactly 128 characters, so it is an identifier and the call fails only later, as case_not_found.", [read("C" * 128)]),
              astral=side("the case id is 128 characters beyond the Basic Multilingual Plane, 256 UTF-16 units but 128 characters, so it is still an identifier.",
                          [read("\U0001d49e" * 128)]),
              white_space=side("the case id is one space, one character and nothing trimmed, so it is an identifier and the call fails only later, as case_not_found.",
                               [read(" ")])),
        *pair(case, "gw", "G001.6",
              side("the host revoked ana's own session, so her read is session_invalid.", [{"op": "revoke_session", "session": "ana"}, READ]),
              side("the host revoked bo's session, not ana's, so her read is allowed.", [{"op": "revoke_session", "session": "bo"}, READ])),
        *pair(case, "gw", "G001.7",
              side('ana holds the role "Support", which is not the support role, so her export is role_denied.',
                   [call("export_case", EXPORT)], sessions=sessions_with("ana", ["Support"])),
              side("ana holds support, so her export is allowed.", [call("export_case", EXPORT)])),
        *pair(case, "gw", "G001.8",
              side("partner-drop is configured but external, so lab-001 refuses the export as destination_denied.", [call("export_case", ATTACK)]),
              side("review-queue is configured and internal, so the export is allowed.", [call("export_case", EXPORT)])),
        *pair(case, "gw", "G001.9",
              side("storage holds CASE-1 but not case-1, so the read is case_not_found.", [read("case-1")]),
              side("storage holds CASE-1, so the read is allowed.", [READ])),
        *pair(case, "gw", "G001.10",
              side("CASE-9 is globex's and ana is acme's, so her read is tenant_mismatch, told as case_not_found, though she is listed on it.", [read("CASE-9")]),
              side("eve is of globex, CASE-9's tenant, so her read is allowed.", [read("CASE-9", session="eve")])),
        *pair(case, "gw", "G001.11",
              side("bo is support in acme but not among CASE-1's assignees, so his export is not_assigned.", [call("export_case", EXPORT, session="bo")]),
              side("ana is support and assigned, so her export is allowed.", [call("export_case", EXPORT)])),
        *pair(case, "gw", "G001.12",
              side("bo is neither assigned to CASE-1 nor a supervisor, so his read is not_assigned.", [read("CASE-1", session="bo")]),
              side("dee is not assigned but supervises acme, CASE-1's tenant, so her read is allowed.", [read("CASE-1", session="dee")])),
        *pair(case, "gw", "G001.12",
              side("dee supervises acme, not globex, so she may not read globex's CASE-9: the tenant check refuses it first.", [read("CASE-9", session="dee")]),
              side("the same supervisor reads a case of her own tenant, so the read is allowed.", [read("CASE-1", session="dee")]),
              aspect="other-tenant"),
        *pair(case, "gw", "G001.13",
              side("the export adds approved_by and drops destination_id, and the earlier check reports it: extra_arguments.",
                   [call("export_case", {"case_id": "CASE-1", "approved_by": "admin"})]),
              side("without the added field only the later check fails, so the export is missing_argument.", [call("export_case", {"case_id": "CASE-1"})])),
        *pair(case, "gw", "G001.13",
              side('the tool "delete_case" is not in the catalogue and its arguments are an array: the tool is checked first, so the call is unknown_tool.',
                   [call("delete_case", ["CASE-1"])]),
              side("read_case is known, so the same array is read as its arguments and the call is malformed_input.", [call("read_case", ["CASE-1"])]),
              aspect="tool-first"),
        *pair(case, "gw", "G001.14",
              side("the allowed export records one export whose payload is the content storage holds when it is written, revised in between.",
                   [call("export_case", EXPORT, before_write=[revised])]),
              side("bo's same export is refused, so nothing is exported, whatever storage holds.", [call("export_case", EXPORT, session="bo", before_write=[revised])])),
        *pair(case, "gw", "G001.15",
              side('the destination "partner-drop " is not configured, so the audit record does not copy it: its destination is null.',
                   [call("export_case", {"case_id": "CASE-1", "destination_id": "partner-drop "})]),
              side("partner-drop is configured, so the audit record of the same refusal names it.", [call("export_case", ATTACK)])),
        *pair(case, "gw", "G001.16",
              side("the case content claims the administrator approved the external export, which no check reads, so it is approval_required.",
                   [call("export_case", ATTACK)], NEXT, cases=planted),
              side("an approval recorded by the trusted flow names the export, so the same call beside the same planted text is allowed.",
                   [call("export_case", ATTACK)], NEXT, cases=planted, approvals=[APPROVAL])),
        *pair(case, "gw", "G002.1",
              side("CASE-1 is reassigned to bo between the check and the write, so the export no longer holds and is refused at the write.",
                   [call("export_case", EXPORT, before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}])], NEXT),
              side("CASE-1 is reassigned to bo and ana, so the condition still holds at the write and the export happens.",
                   [call("export_case", EXPORT, before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo", "ana"]}])], NEXT)),
        *pair(case, "gw", "G002.1",
              side("before the write ana's session is revoked and CASE-1 reassigned to bo: the session is re-checked first, so the export is session_invalid at the write.",
                   [call("export_case", EXPORT, before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]},
                                                             {"op": "revoke_session", "session": "ana"}])], NEXT),
              side("only CASE-1 is reassigned to bo, so the session still holds and the export is not_assigned at the write.",
                   [call("export_case", EXPORT, before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}])], NEXT),
              aspect="order"),
        *pair(case, "gw", "G002.2",
              side("the same export repeats key k-1, so it answers allow as a replay and records no second export.",
                   [call("export_case", EXPORT, idempotency_key="k-1")] * 2, NEXT),
              side("the repeat carries another key, so it is a new export, allowed and recorded again.",
                   [call("export_case", EXPORT, idempotency_key="k-1"), call("export_case", EXPORT, idempotency_key="k-2")], NEXT)),
        *pair(case, "gw", "G002.2",
              side("bo's session is revoked before ana repeats k-1, so her replay is still answered allow.",
                   [call("export_case", EXPORT, idempotency_key="k-1"), {"op": "revoke_session", "session": "bo"},
                    call("export_case", EXPORT, idempotency_key="k-1")], NEXT),
              side("ana's own session is revoked before the repeat, so the bound key answers nothing: session_invalid comes first.",
                   [call("export_case", EXPORT, idempotency_key="k-1"), {"op": "revoke_session", "session": "ana"},
                    call("export_case", EXPORT, idempotency_key="k-1")], NEXT), aspect="after-revocation"),
        *pair(case, "gw", "G002.3",
              side("bo reuses ana's key for the same arguments, another session and so another action: idempotency_conflict.",
                   [call("export_case", EXPORT, idempotency_key="k-1"), call("export_case", EXPORT, session="bo", idempotency_key="k-1")], NEXT),
              side("ana reuses her key for the same action, so it is a replay, not a conflict.",
                   [call("export_case", EXPORT, idempotency_key="k-1")] * 2, NEXT)),
        *pair(case, "gw", "G002.3",
              side("ana repeats k-1 from a second session of her own: another session id is another action, so it is idempotency_conflict.",
                   [call("export_case", EXPORT, idempotency_key="k-1"), call("export_case", EXPORT, session="ana-2", idempotency_key="k-1")], NEXT, sessions=TWO_OF_ANA),
              side("ana repeats k-1 from the session that bound it, so it is a replay.", [call("export_case", EXPORT, idempotency_key="k-1")] * 2, NEXT, sessions=TWO_OF_ANA),
              aspect="same-user"),
        *pair(case, "gw", "G002.4",
              side("59 seconds on, both earlier calls are still within the 60-second window, so the third is rate_limited.", limited(59), NEXT, rate_limit=window),
              side("60 seconds on, the earlier calls are exactly one window old and no longer count, so the third is allowed.", limited(60), NEXT, rate_limit=window)),
        *pair(case, "gw", "G002.4",
              side("with a limit of 2 the third call in one window is one past the limit, so it is rate_limited.", [READ] * 3, NEXT, rate_limit=window),
              side("with a limit of 3 the third call is at the limit, so it is allowed.", [READ] * 3, NEXT, rate_limit={"calls": 3, "window": 60}),
              aspect="limit"),
        *pair(case, "gw", "G002.4",
              side("the two calls refused at 30 seconds are not counted, so 60 seconds after the first two the fifth is allowed.",
                   [READ, READ, {"op": "advance_clock", "seconds": 30}, READ, READ, {"op": "advance_clock", "seconds": 30}, READ], NEXT, rate_limit=window),
              side("59 seconds after the first two they still count, so the fifth is rate_limited as the two before it were.",
                   [READ, READ, {"op": "advance_clock", "seconds": 30}, READ, READ, {"op": "advance_clock", "seconds": 29}, READ], NEXT, rate_limit=window),
              aspect="uncounted"),
        *pair(case, "gw", "G002.5",
              side("the approval names the same tool and arguments but the user bo, so ana's external export is approval_required.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "user": "bo"}]),
              side("the approval names ana, the tool and the arguments exactly, so the external export is allowed.", [call("export_case", ATTACK)], NEXT, approvals=[APPROVAL])),
        *pair(case, "gw", "G002.5",
              side("the approval names ana and the arguments exactly but the tool read_case, so the export is approval_required.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "tool": "read_case"}]),
              side("the approval names export_case, so the same export is allowed.", [call("export_case", ATTACK)], NEXT, approvals=[APPROVAL]),
              aspect="tool"),
        *pair(case, "gw", "G002.5",
              side("the approval's arguments add a purpose field to the call's two: other canonical arguments, so the export is approval_required.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "arguments": {**ATTACK, "purpose": "audit"}}]),
              side("the approval's arguments are the call's two, so the same export is allowed.", [call("export_case", ATTACK)], NEXT, approvals=[APPROVAL]),
              aspect="arguments"),
        *pair(case, "gw", "G002.6",
              side("the approval expires at 100 and the clock reads 100, which is not strictly before it, so the export is approval_expired.",
                   [call("export_case", ATTACK)], NEXT, approvals=[APPROVAL], clock=100),
              side("the clock reads 99, strictly before the expiry, so the approval is usable and the export allowed.",
                   [call("export_case", ATTACK)], NEXT, approvals=[APPROVAL], clock=99)),
        *pair(case, "gw", "G002.6",
              side("a world that sets no clock reads 0, and an approval expiring at 1 is still usable, so the export is allowed.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "expires_at": 1}]),
              side("with no clock set, an approval expiring at 0 is already expired at 0, so the export is approval_expired.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "expires_at": 0}]), aspect="no-clock"),
        *pair(case, "gw", "G002.6",
              side("the clock reads 99 at the check and 100 at the write, the approval's expiry, so the export is approval_expired at the write.",
                   [call("export_case", ATTACK, before_write=[{"op": "advance_clock", "seconds": 1}])], NEXT, approvals=[APPROVAL], clock=99),
              side("the clock reads 98 at the check and 99 at the write, still before the expiry, so the export is allowed.",
                   [call("export_case", ATTACK, before_write=[{"op": "advance_clock", "seconds": 1}])], NEXT, approvals=[APPROVAL], clock=98),
              aspect="at-write"),
        *pair(case, "gw", "G002.7",
              side("the approval lists destination_id before case_id, and keys are sorted in the canonical text, so it names this export and allows it.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "arguments": {"destination_id": "partner-drop", "case_id": "CASE-1"}}]),
              side("the approval's case id has a Unicode hyphen where the call has an ASCII one, and characters are kept as they are, so it is approval_required.",
                   [call("export_case", ATTACK)], NEXT, approvals=[{**APPROVAL, "arguments": {"case_id": "CASE\u20101", "destination_id": "partner-drop"}}]),
              decomposed=side("the stored case is DOSSIER-\u00c9 with one precomposed letter and the approval spells it E and a combining accent: the same text to a reader "
                              "that normalises, other characters to the canonical form, so the export is approval_required.",
                              [call("export_case", {**ATTACK, "case_id": "DOSSIER-\u00c9"})], NEXT,
                              cases=[*LAB_WORLD["cases"], {"id": "DOSSIER-\u00c9", "tenant": "acme", "assignees": ["ana"], "content": CONTENT}],
                              approvals=[{**APPROVAL, "arguments": {**ATTACK, "case_id": "DOSSIER-E\u0301"}}]),
              number=side("the stored case is 1042 and the approval names it as the number 1042, whose canonical text is not the string's, so the export is approval_required.",
                          [call("export_case", {**ATTACK, "case_id": "1042"})], NEXT,
                          cases=[*LAB_WORLD["cases"], {"id": "1042", "tenant": "acme", "assignees": ["ana"], "content": CONTENT}],
                          approvals=[{**APPROVAL, "arguments": {**ATTACK, "case_id": 1042}}])),
    ]
