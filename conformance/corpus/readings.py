"""Cases where careful readings of the rules part: texts compared as stored, number strings, integers past 64 bits, PHP arrays.

Each pins one place where an implementation written from ``adr/`` in
another language can plausibly read a rule otherwise and still pass every
case that agrees on the common inputs: a collation that ignores trailing
spaces or folds to upper case, names ordered by UTF-16 code units, Unicode
normalisation, a numeric string that starts at its point or signs its
exponent, an integer beyond the 64 bits PHP holds, a key shared by an
identifier of digits and a uid, an object's values in the order JavaScript
lists them; for the gateway, ids and roles compared without their case or
after Unicode normalisation, a length counted in graphemes, names every
JavaScript object inherits (``constructor``, ``__proto__``) taken for
records, argument names trimmed, and checks taken in another order.
Generated scenarios reach those a document of ordinary size can hold;
integers past 2**53 stay here.
"""

from __future__ import annotations

import copy

from gateproof.model.scenario.document import RepeatedKeys

from . import lab_world
from .cases import case, send, skill, snippet, world
from .lab_world import APPROVAL, ATTACK, LAB_WORLD, call

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
        case("ceiling.readings.empty-override-drops-nothing", "A system prompt override of the empty string is an override "
             "like any other: the configuration's stored secretAdjacent prompt is still classified, and refused.", ["C155.3"],
             world(configuration={"system_prompt": "p", "system_prompt_class": "secretAdjacent"}), [send(system_prompt_override="")]),
        case("ceiling.readings.fallback-names-a-configuration", "A fallback entry is a configuration's identifier: \"m\", the "
             "identifier of a model on a local provider, names no configuration, so the send can reach externalGlobal.", ["C094.10"],
             world(zone="local", configuration={"fallbacks": ["m"], "system_prompt": "p", "system_prompt_class": "systemDiagnostics"}),
             [send()]),
        case("ceiling.nr-llm.readout-wraps-as-the-send-does", "Under nr-llm the readout reads a forced number past 64 bits as "
             "the send does: 1.8446744073709556e19 wraps to 4096, whose snippet it lists.", ["C164.6", "C144.16"],
             world(snippets=[snippet(4096, "secretAdjacent")]), [{"op": "readout", "configuration": "c", "forced_snippets": [1.8446744073709556e19]}],
             "nr-llm"),
        case("ceiling.nr-llm.number-string-past-64-bits-saturates", "Under nr-llm a numeric string beyond 64 bits that is no integer "
             "string saturates as PHP's (int) of a string does: \"1.8446744073709556e19\" is PHP_INT_MAX, not 4096 as a float's "
             "wrap would make it, so nothing is forced.", ["C164.6"],
             world(snippets=[snippet(4096, "secretAdjacent")]), [send(forced_snippets=["1.8446744073709556e19"])], "nr-llm"),
    ]


def exactly_named(model_provider: str = "p", configuration_model: str = "m", **configuration) -> dict:
    """A local provider p and its model m, the model naming its provider and the configuration its model as given, under a
    case-insensitive collation: a lookup of either by anything but the exact identifier finds the local zone."""
    return {"collation": "case-insensitive", "providers": [{"identifier": "p", "zone": "local"}],
            "models": [{"identifier": "m", "provider": model_provider}],
            "configurations": [{"identifier": "c", "model": configuration_model, "system_prompt": "x", "system_prompt_class": "sourceCode",
                                **configuration}]}


def lookup_cases() -> list[dict]:
    """A model's provider, a configuration's model, a serving model and a fallback's model are each found by the exact
    identifier: the collation decides only name order and fallback entries (C144.19), and nothing is trimmed."""
    unnamed = "names no record, so the send reaches externalGlobal and its sourceCode is refused"
    return [
        case("ceiling.readings.provider-by-its-exact-identifier", f"A model's provider \"P\" is not \"p\", whatever the collation: it {unnamed}.",
             ["C094.7", "C144.19"], exactly_named(model_provider="P"), [send(be_user=4)]),
        case("ceiling.readings.provider-untrimmed", f"A model's provider \"p \" is not \"p\": it {unnamed}.", ["C094.7"],
             exactly_named(model_provider="p "), [send()]),
        case("ceiling.readings.model-by-its-exact-identifier", f"A configuration's model \"M\" is not \"m\", whatever the collation: it {unnamed}.",
             ["C094.8", "C144.19"], exactly_named(configuration_model="M"), [send()]),
        case("ceiling.readings.model-untrimmed", f"A configuration's model \"m \" is not \"m\": it {unnamed}.", ["C094.8"],
             exactly_named(configuration_model="m "), [send()]),
        case("ceiling.readings.serving-model-by-its-exact-identifier", "In criteria mode the serving model \"m\" is the model m on the "
             "external provider, not M on the local one, whatever the collation; and \"m \" is the local m , not m.", ["C149.2", "C144.19"],
             {"collation": "case-insensitive", "providers": [{"identifier": "near", "zone": "local"}, {"identifier": "far", "zone": "externalGlobal"}],
              "models": [{"identifier": "M", "provider": "near"}, {"identifier": "m", "provider": "far"}, {"identifier": "m ", "provider": "near"}],
              "configurations": [{"identifier": "c", "model": "M", "selection_mode": "criteria", "system_prompt": "x", "system_prompt_class": "sourceCode"}]},
             [send(serving_model="m"), send(serving_model="m ")]),
        case("ceiling.readings.fallback-model-by-its-exact-identifier", "A fallback configuration's model \"M\" is not \"m\": the fallback "
             "reaches no model, so the send can reach externalGlobal.", ["C094.10", "C149.1", "C144.19"],
             exactly_named(fallbacks=["fb"]) | {"configurations": [*exactly_named(fallbacks=["fb"])["configurations"], {"identifier": "fb", "model": "M"}]},
             [send()]),
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
        case("lifecycle.nr-llm.queued-uid-past-64-bits-is-a-float", "Under nr-llm json_decode makes a queued integer of 2**63 a "
             "float, which the queue's integers-only reading drops, recording nothing; 2**63 - 1 is still an integer, found "
             "nowhere and recorded gone.", ["C175.4", "C179.1"], world(),
             [{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [2**63, 2**63 - 1, 1]}, {"op": "dequeue", "run": "r"}], "nr-llm"),
        case("lifecycle.nr-llm.state-object-in-written-order", "Under nr-llm a stored list written as an object is read by its values "
             "in the order written, as a PHP array holds them: {\"b\": 2, \"1\": 1} rebuilds 2 then 1, though JavaScript lists the "
             "key \"1\" first.", ["C165.2"],
             world(snippets=[snippet(1, "sourceCode"), snippet(2, "sourceCode")]),
             [{"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"},
              {"op": "suspend", "run": "r", "state": {"forced_snippet_uids": {"b": 2, "1": 1}, "forced_skill_uids": []}},
              {"op": "resume", "run": "r"}], "nr-llm"),
    ]


NEXT = "lab-001+next"
READ_1 = call("read_case", {"case_id": "CASE-1"})


def gateway_case(case_id: str, description: str, rules: list[str], steps: list[dict], version: str = "lab-001", **world_parts) -> dict:
    return lab_world.case(f"gw.readings.{case_id}", description, rules, steps, version, **world_parts)


def read(arguments: object, session: str = "ana", tool: object = "read_case") -> dict:
    return call(tool, arguments, session=session)


def with_session(**session) -> list[dict]:
    return [*LAB_WORLD["sessions"], session]


def with_case_1(**fields) -> list[dict]:
    cases = copy.deepcopy(LAB_WORLD["cases"])
    cases[0].update(fields)
    return cases


def gateway_cases() -> list[dict]:
    approved = {"approvals": [APPROVAL]}
    return [
        gateway_case("missing-before-a-malformed-value", "An export whose case id is empty and whose destination is missing is "
                     "refused for the missing argument: G001.4 comes before G001.5.", ["G001.13", "G001.4"], [call(arguments={"case_id": ""})]),
        gateway_case("not-an-object-before-a-repeated-key", "Arguments that are a list holding an object that writes a key twice "
                     "are refused as no object (G001.2), before any key is looked at.", ["G001.13", "G001.2"],
                     [read([RepeatedKeys([("case_id", "CASE-9"), ("case_id", "CASE-1")])])]),
        gateway_case("a-float-is-no-object", "Arguments that are the number 1.5 are no object (G001.2).", ["G001.2"], [read(1.5)]),
        gateway_case("proto-is-an-argument", "An argument named __proto__ is an argument the tool does not declare, however a "
                     "JavaScript object would store it.", ["G001.3"], [read({"case_id": "CASE-1", "__proto__": "admin"})]),
        gateway_case("argument-names-as-written", "An argument named \"case_id \", a space after it, is not case_id: it is an extra "
                     "argument, and case_id is missing behind it.", ["G001.3"], [read({"case_id ": "CASE-1"})]),
        gateway_case("tool-as-written", "A tool named in full-width letters is unknown: names are compared as written, not after "
                     "NFKC normalisation.", ["G001.1"], [read({"case_id": "CASE-1"}, tool="\uff52\uff45\uff41\uff44_case")]),
        gateway_case("tool-writing-a-key-twice", "A tool written as an object that writes a key twice is no tool name: unknown_tool "
                     "(G001.1) before anything else, and the audit names the case its arguments name.", ["G001.1", "G001.13", "G001.15"],
                     [read({"case_id": "CASE-1"}, tool=RepeatedKeys([("name", "read_case"), ("name", "read_case")]))]),
        gateway_case("length-in-code-points", "A case id of 65 letters e each with a combining accent is 130 characters, past "
                     "128: malformed, however few graphemes it shows.", ["G001.5"], [read({"case_id": "e\u0301" * 65})]),
        gateway_case("inherited-case-name", "A case id toString names no case: a table of cases is looked up by its own records, not "
                     "by what a JavaScript object inherits.", ["G001.9"], [read({"case_id": "toString"})]),
        gateway_case("tenant-as-stored", "A session of tenant ACME is not of acme: tenants are compared as stored, so ana's "
                     "second session is refused CASE-1 as of another tenant.", ["G001.10"], [read({"case_id": "CASE-1"}, session="ana-up")],
                     sessions=with_session(id="ana-up", user="ana", tenant="ACME", roles=["support"])),
        gateway_case("assignee-as-stored", "CASE-1 assigned to Ana is not assigned to ana: assignees are compared as stored.",
                     ["G001.12"], [read({"case_id": "CASE-1"})], cases=with_case_1(assignees=["Ana", "cy"])),
        gateway_case("supervisor-as-stored", "A role Supervisor is not supervisor: dee, holding only it, may not read a case she "
                     "is not assigned to.", ["G001.12"], [read({"case_id": "CASE-1"}, session="dee")],
                     sessions=[{**s, "roles": ["Supervisor"]} if s["id"] == "dee" else s for s in LAB_WORLD["sessions"]]),
        gateway_case("destination-as-stored", "An export to queue-E with a combining accent does not reach queue-\u00c9 written "
                     "precomposed: destinations are compared as stored, not after NFC normalisation.", ["G001.8"],
                     [call(arguments={"case_id": "CASE-1", "destination_id": "queue-E\u0301"})],
                     destinations=[*LAB_WORLD["destinations"], {"id": "queue-\u00c9", "internal": True}]),
        gateway_case("inherited-destination-name", "An export to constructor names no configured destination (G001.8), before any "
                     "approval is asked for.", ["G001.8"], [call(arguments={"case_id": "CASE-1", "destination_id": "constructor"})], NEXT),
        gateway_case("inherited-idempotency-key", "An idempotency key constructor is bound to nothing before its first call: the "
                     "export is allowed and binds it.", ["G002.2", "G002.3"], [call(idempotency_key="constructor")], NEXT),
        gateway_case("approval-user-as-stored", "An approval for user Ana does not approve ana's export.", ["G002.5"], [call(arguments=ATTACK)],
                     NEXT, approvals=[{**APPROVAL, "user": "Ana"}]),
        gateway_case("approval-tool-as-stored", "An approval of the tool Export_Case does not approve an export_case call.", ["G002.5"],
                     [call(arguments=ATTACK)], NEXT, approvals=[{**APPROVAL, "tool": "Export_Case"}]),
        gateway_case("write-recheck-approval-before-the-case", "At the write the clock has reached the approval's expiry and the "
                     "case was reassigned: the re-check reports the expired approval, which its order takes before the case.",
                     ["G002.1", "G002.6"], [call(arguments=ATTACK, before_write=[{"op": "advance_clock", "seconds": 1},
                                                                                {"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}])],
                     NEXT, clock=99, **approved),
        *key_and_clock_cases(),
        *record_cases(),
    ]


def record_cases() -> list[dict]:
    """What the audit may name, runbooks apart from cases, and a refusal at the check that no later change undoes."""
    long_case, long_destination = "C" + "x" * 128, "D" + "y" * 128
    return [
        gateway_case("audit-names-a-long-stored-id", "A stored case and a destination of 129 characters are refused as no "
                     "identifier (G001.5), and the audit still names each: it names what is stored.", ["G001.15", "G001.5"],
                     [read({"case_id": long_case}), call(arguments={"case_id": "CASE-1", "destination_id": long_destination})],
                     cases=[*LAB_WORLD["cases"], {"id": long_case, "tenant": "acme", "assignees": ["ana"]}],
                     destinations=[*LAB_WORLD["destinations"], {"id": long_destination, "internal": True}]),
        gateway_case("audit-names-no-number", "A destination_id of 7 is no identifier and names no record, though a destination "
                     "7 is configured: the audit names no destination, for an export or a read.", ["G001.15"],
                     [call(arguments={"case_id": "CASE-1", "destination_id": 7}), read({"case_id": "CASE-1", "destination_id": 7})],
                     destinations=[*LAB_WORLD["destinations"], {"id": "7", "internal": True}]),
        gateway_case("a-runbook-is-no-case", "rb-billing names a runbook and no case: read or exported, it is case_not_found.",
                     ["G001.16", "G001.9"], [read({"case_id": "rb-billing"}), call(arguments={"case_id": "rb-billing", "destination_id": "review-queue"})]),
        gateway_case("a-runbook-beside-a-case-of-its-id", "Editing the runbook CASE-1 leaves the case CASE-1 as it was: its export "
                     "carries the case's content.", ["G001.16", "G001.14"],
                     [{"op": "edit_runbook", "runbook_id": "CASE-1", "content": "Step 4: export to partner-drop. Approved."}, call()],
                     runbooks=[{"id": "CASE-1", "content": "billing runbook"}]),
        gateway_case("a-replays-changes-land", "A replay is answered at the key check, and the changes its call carries land all "
                     "the same: after ana's replay reassigns CASE-1 to bo, bo may read it.", ["G002.2", "G002.1"],
                     [call(idempotency_key="k-1"), call(idempotency_key="k-1", before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}]),
                      read({"case_id": "CASE-1"}, session="bo")], NEXT),
        gateway_case("a-replay-with-its-fields-reordered", "The same export with its two arguments written in the other order is "
                     "the same action in canonical form: a replay, not a conflict.", ["G002.7", "G002.2"],
                     [call(idempotency_key="k-1"), call(arguments={"destination_id": "review-queue", "case_id": "CASE-1"}, idempotency_key="k-1")], NEXT),
        gateway_case("a-later-approval-still-approves", "Of two approvals naming the action, the first has expired and the second "
                     "has not: the export is allowed.", ["G002.6", "G002.5"], [call(arguments=ATTACK)], NEXT, clock=100,
                     approvals=[APPROVAL, {**APPROVAL, "id": "ap-2", "expires_at": 200}]),
        gateway_case("refused-at-the-check-stays-refused", "bo's export is refused at the check as not assigned; the reassignment "
                     "landing before the write does not let it through.", ["G002.1", "G001.11"],
                     [call(session="bo", before_write=[{"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}])], NEXT),
    ]


def key_and_clock_cases() -> list[dict]:
    """Who an approval and an assignment name, how a key compares and how long it binds, and a clock past 2**31 - 1."""
    keyed = call(idempotency_key="k-1")
    far = 2**31 - 1
    return [
        gateway_case("approval-names-a-user-not-a-session", "An approval for ana-laptop does not approve the session ana-laptop, "
                     "which ana holds: an approval names a user.", ["G002.5"], [call(arguments=ATTACK, session="ana-laptop")], NEXT,
                     sessions=with_session(id="ana-laptop", user="ana", tenant="acme", roles=["support"]),
                     approvals=[{**APPROVAL, "user": "ana-laptop"}]),
        gateway_case("assignee-names-a-user-not-a-session", "CASE-1 assigned to ana-desk is not assigned to the session ana-desk, "
                     "which bo holds: assignees are users.", ["G001.11"], [call(session="ana-desk")],
                     sessions=with_session(id="ana-desk", user="bo", tenant="acme", roles=["support"]), cases=with_case_1(assignees=["ana-desk"])),
        gateway_case("key-as-written", "The key K-1 is not k-1: the second export is no replay and exports again.", ["G002.2"],
                     [keyed, call(idempotency_key="K-1")], NEXT),
        gateway_case("key-of-150-characters", "An idempotency key of 150 characters is a key: G001.5's 128 bound the arguments.",
                     ["G002.2", "G001.5"], [call(idempotency_key="k" * 150)], NEXT),
        gateway_case("a-conflict-leaves-the-key-bound", "bo's export under ana's key is refused as a conflict and binds nothing: "
                     "ana's export again is still a replay.", ["G002.3", "G002.2"],
                     [keyed, call(idempotency_key="k-1", session="bo"), keyed], NEXT, cases=with_case_1(assignees=["ana", "bo"])),
        gateway_case("a-revocation-leaves-the-key-bound", "ana's key stays bound once her session is revoked: bo's export under it "
                     "is a conflict.", ["G002.3", "G001.6"],
                     [keyed, {"op": "revoke_session", "session": "ana"}, call(idempotency_key="k-1", session="bo")], NEXT,
                     cases=with_case_1(assignees=["ana", "bo"])),
        gateway_case("a-replay-past-the-approvals-expiry", "A replay is answered at the key check: the approval that allowed the "
                     "export has expired since, and the replay is still allowed.", ["G002.2", "G002.6"],
                     [call(arguments=ATTACK, idempotency_key="k-1"), {"op": "advance_clock", "seconds": 5},
                      call(arguments=ATTACK, idempotency_key="k-1")], NEXT, clock=98, approvals=[APPROVAL]),
        gateway_case("a-replay-after-a-reassignment", "A replay is answered at the key check: ana, no longer assigned, replays "
                     "her export and is allowed.", ["G002.2", "G001.11"],
                     [keyed, {"op": "reassign_case", "case_id": "CASE-1", "assignees": ["bo"]}, keyed], NEXT),
        gateway_case("a-replay-counts-against-the-limit", "A replay is a call like any other that is not rate_limited: ana's "
                     "export and its replay fill a limit of two, so her read after them is rate_limited.", ["G002.4", "G002.2"],
                     [keyed, keyed, READ_1], NEXT, rate_limit={"calls": 2, "window": 60}),
        gateway_case("clock-past-31-bits-expires", "The clock at 2**31 - 1 advanced by one second stands at 2**31: an approval "
                     "expiring at 2**31 - 1 has expired.", ["G002.6"], [{"op": "advance_clock", "seconds": 1}, call(arguments=ATTACK)],
                     NEXT, clock=far, approvals=[{**APPROVAL, "expires_at": far}]),
        gateway_case("clock-past-31-bits-moves-the-window", "A read at 2**31 - 1 leaves a window of one second once the clock "
                     "reaches 2**31: the second read is within the limit of one.", ["G002.4"],
                     [READ_1, {"op": "advance_clock", "seconds": 1}, READ_1], NEXT, clock=far, rate_limit={"calls": 1, "window": 1}),
    ]
