"""The refusal corpus: invalid documents, each with the field and the problem the model refuses it with.

``verify`` sends only valid documents (S001.1), so how an invalid one is
refused is held here: ``conformance/corpus/refusals.json`` lists cases, each
with a stable ``id``, the ``rules`` it breaks, a ``description``, the
document (``document``, or its exact UTF-8 ``text`` where JSON values cannot
say it: a key written twice, a number no double holds, nesting past the
limit), an optional ``pad_to`` (the text followed by spaces up to that many
bytes: S001.4's limit, without 16 MiB in the file) and what the model gives:
``{"refused": {"field", "problem"}}``, or ``{"outcome": ...}`` for the valid
document on the other side of a limit. Each is read through the text entry
point ``gateproof decide`` reads a file with. Built with the rest of the
corpus (``gateproof corpus build``); a test holds every refusal site of the
input layer to a case that reaches it.
"""

from __future__ import annotations

import copy

import orjson

from gateproof.model.scenario import ScenarioError
from gateproof.model.scenario.document import MAX_DEPTH, MAX_DOCUMENT_BYTES

from ..harness.bulk import decided
from ..harness.documents import parse_json
from .cases import send, snippet, world
from .catalog_refusals import catalog_refusals
from .lab_world import APPROVAL, EXPORT, LAB_WORLD, call

REFUSALS_FILE = "refusals.json"


def ceiling(steps=None, **changes) -> dict:
    """A valid send scenario (one snippet, one skill), with top-level fields changed."""
    base = world(snippets=[snippet(1, "sourceCode")], skills=[{"uid": 1, "name": "k1", "data_class": "editorContent"}])
    return {"gateproof": 1, "id": "refusal", "world": base, "steps": steps if steps is not None else [send()], **changes}


def with_world(**tables) -> dict:
    document = ceiling()
    document["world"].update(tables)
    return document


def story(*steps) -> dict:
    """A run story on configuration ``c``: ``steps`` after the run ``r`` is queued."""
    return ceiling([{"op": "queue", "run": "r", "configuration": "c"}, *steps])


def gateway(steps=None, **tables) -> dict:
    lab = copy.deepcopy(LAB_WORLD) | {"approvals": [APPROVAL]} | tables
    return {"gateproof": 1, "kind": "gateway", "id": "refusal", "rules": "lab-001", "world": lab, "steps": steps or [call()]}


def nested(levels: int, innermost: object = None) -> object:
    """``levels`` arrays and objects, alternating, one inside the other: the outermost is an array."""
    value = innermost
    for level in range(levels, 0, -1):
        value = [value] if level % 2 else {"x": value}
    return value


def deep_arguments(depth: int) -> dict:
    """A call whose arguments hold a value reaching level ``depth`` of the document (the document is level 1, its arguments level 4)."""
    return gateway([call(arguments={**EXPORT, "note": nested(depth - 4)})])


def compact(document: object) -> str:
    return orjson.dumps(document).decode()


def _cases() -> list[tuple[str, list[str], str, dict]]:
    """(id, rules, description, how the document is given): the document as JSON (``document``) or as text (``text``, ``pad_to``)."""
    doc = lambda d: {"document": d}  # noqa: E731
    text = lambda t, pad_to=None: {"text": t, **({"pad_to": pad_to} if pad_to else {})}  # noqa: E731
    valid = compact(ceiling())
    big = str(2**70)
    cases = [
        ("refusal.S001.4.at-the-limit", ["S001.4"], "A document of exactly 16 MiB is read.", text(valid, MAX_DOCUMENT_BYTES)),
        ("refusal.S001.4.one-byte-over", ["S001.4"], "One byte more than 16 MiB is refused whole.", text(valid, MAX_DOCUMENT_BYTES + 1)),
        ("refusal.S001.5.arguments-64-deep", ["S001.5"], "A proposal's arguments reaching level 64 are read.", text(compact(deep_arguments(MAX_DEPTH)))),
        ("refusal.S001.5.arguments-65-deep", ["S001.5"], "Arguments reaching level 65 are refused, naming the value.", text(compact(deep_arguments(MAX_DEPTH + 1)))),
        ("refusal.S001.5.world-65-deep", ["S001.5"], "A world field nested to level 65 is refused, naming it.",
         text(compact(with_world(enforcement=nested(MAX_DEPTH - 1))))),
        ("refusal.S001.5.objects-65-deep", ["S001.5"], "Objects alone nested to level 65.", text(compact({"gateproof": 1, "x": _objects(MAX_DEPTH)}))),
        ("refusal.S001.5.brackets-3000-deep", ["S001.5"], "3,000 nested arrays: refused naming where, no reader's recursion overflowing.",
         text("[" * 3000 + "]" * 3000)),
        ("refusal.S001.6.top-level", ["S001.6"], "A key written twice at the top, after another key.",
         text(valid[:-1] + ',"id":"again"}')),
        ("refusal.S001.6.in-a-record", ["S001.6"], "A key written twice in a stored record.",
         text(valid.replace('{"identifier":"p"', '{"identifier":"p","identifier":"q"', 1))),
        ("refusal.S001.6.in-a-step", ["S001.6"], "A key written twice in a step, outside any proposal.",
         text(compact(gateway()).replace('"session":"ana"', '"session":"ana","session":"bo"', 1))),
        ("refusal.S001.6.in-arguments", ["S001.6", "G001.17"], "A key written twice in a call's arguments is read: the call is malformed_input.",
         text(compact(gateway()).replace('"case_id":"CASE-1","destination_id":"review-queue"}}]',
                                         '"case_id":"CASE-1","destination_id":"review-queue","case_id":"CASE-9"}}]'))),
        ("refusal.S001.6.in-nested-arguments", ["S001.6", "G001.17"], "A key written twice deeper in a call's arguments is read too.",
         text(compact(gateway([call(arguments={**EXPORT, "note": {"a": 1}})])).replace('"note":{"a":1}', '"note":{"b":0,"a":1,"a":2}'))),
        ("refusal.S001.6.in-tool", ["S001.6", "G001.17"], "A key written twice in a call's tool, a value as proposed, is read.",
         text(compact(gateway([call(tool={"name": "export_case"})])).replace('{"name":"export_case"}', '{"z":0,"name":"export_case","name":"x"}'))),
        ("refusal.S001.6.in-approval", ["S001.6"], "A stored approval's arguments are no proposal: a key twice there is refused.",
         text(compact(gateway()).replace('"arguments":{"case_id":"CASE-1","destination_id":"partner-drop"}',
                                         '"arguments":{"case_id":"CASE-1","destination_id":"partner-drop","case_id":"CASE-9"}'))),
        ("refusal.S001.6.with-a-long-number", ["S001.6", "S001.4"], "A key twice beside an integer beyond 64 bits, read exactly.",
         text(valid[:-1] + f',"x":{big},"x":1}}')),
        ("refusal.json.scalar-long-number", ["S001.1", "S001.4"], "A document that is one integer beyond 64 bits: no object.", text(big)),
        ("refusal.json.not-json", ["S001.1"], "Text that is no JSON.", text('{"gateproof": 1,')),
        ("refusal.json.nan", ["S001.1"], "NaN is no JSON number.", text(valid[:-1] + ',"x":NaN}')),
        ("refusal.json.huge-float", ["S001.1"], "A number beyond the range of a double.", text(valid[:-1] + ',"x":1e999}')),
        ("refusal.json.lone-surrogate", ["S001.1"], "A string escaping half of a surrogate pair is no Unicode.", text(valid[:-1] + ',"x":"\\ud800"}')),
    ]
    return cases + _schema_cases(doc) + _reader_cases(doc) + catalog_refusals(doc, ceiling())


def _objects(levels: int) -> dict:
    value: object = 0
    for _ in range(levels):
        value = {"o": value}
    return value


LONG = "é" * 255


def _schema_cases(doc) -> list:
    """S001.1 as the schema states it: one case per kind of violation, and per JSON type a wrong value can have."""
    cases = [
        ("refusal.S001.1.kind-unknown", ["S001.1"], "A kind the schema does not list is blamed at $.kind, before the fields it lacks.",
         doc({"gateproof": 1, "kind": "ceilings", "id": "x", "steps": []})),
        ("refusal.S001.1.required", ["S001.1"], "A step without the configuration it needs.", doc(ceiling([{"op": "send"}]))),
        ("refusal.S001.1.unknown-fields", ["S001.1"], "Two unknown fields: the first in order is named.", doc(ceiling(zeta=1, alpha=2))),
        ("refusal.S001.1.version", ["S001.1"], "A format version other than 1.", doc(ceiling(gateproof=2))),
        ("refusal.S001.1.rules-long", ["S001.1"], "An unknown rule version, shown whole at 60 characters.", doc(ceiling(rules="r" * 58))),
        ("refusal.S001.1.rules-longer", ["S001.1"], "An unknown rule version of 61 characters shown cut.", doc(ceiling(rules="r" * 59))),
        ("refusal.S001.1.rules-object", ["S001.1"], "A rule version that is an object is named by its type.", doc(ceiling(rules={"v": 1}))),
        ("refusal.S001.1.too-long", ["S001.1"], "An identifier over its 255 characters.",
         doc(ceiling(world={**ceiling()["world"], "providers": [{"identifier": LONG + "x", "zone": "local"}]}))),
        ("refusal.S001.1.too-many", ["S001.1"], "More changes before a write than the schema allows.",
         doc(gateway([call(before_write=[{"op": "advance_clock", "seconds": 1}] * 101)]))),
        ("refusal.S001.1.above-maximum", ["S001.1"], "A uid above the largest stored integer.", doc(with_world(snippets=[snippet(2**31, "sourceCode")]))),
        ("refusal.S001.1.below-minimum", ["S001.1"], "A uid 0, below the first a record can have.", doc(with_world(snippets=[snippet(0, "sourceCode")]))),
        ("refusal.S001.1.too-short", ["S001.1"], "An empty identifier, shorter than its one character.",
         doc(with_world(providers=[{"identifier": "", "zone": "local"}]))),
        ("refusal.S001.1.too-few", ["S001.1"], "A scenario without steps, fewer than its one.", doc(ceiling([]))),
        ("refusal.S001.1.update-sets-nothing", ["S001.1"], "An update whose set holds no field, fewer than its one.",
         doc(ceiling([{"op": "update", "kind": "snippet", "uid": 1, "set": {}}]))),
        ("refusal.S001.1.pattern", ["S001.1"], "An id that does not begin with a letter or digit.", doc(ceiling(id="-refusal"))),
        ("refusal.S001.1.unique-items", ["S001.1"], "A case listing one assignee twice.",
         doc(gateway(cases=[{**LAB_WORLD["cases"][0], "assignees": ["ana", "ana"]}]))),
        ("refusal.S001.1.type-of-two", ["S001.1"], "A zone that is a number, where a string or null is expected: both are named.",
         doc(with_world(providers=[{"identifier": "p", "zone": 5}]))),
        # Two violations each, where which is reported is the point.
        ("refusal.S001.1.top-before-deeper", ["S001.1"], "An unknown field at the top and a step missing its field: the top one is named.",
         doc(ceiling([{"op": "send"}], zeta=1))),
        ("refusal.S001.1.too-many-before-a-top-field", ["S001.1"], "Too many changes before a write and an unknown field at the top: the size is named.",
         doc({**gateway([call(before_write=[{"op": "advance_clock", "seconds": 1}] * 101)]), "zeta": 1})),
        ("refusal.S001.1.too-long-before-a-top-field", ["S001.1"], "An identifier over its length and an unknown field at the top: the size is named.",
         doc(ceiling(world={**ceiling()["world"], "providers": [{"identifier": LONG + "x", "zone": "local"}]}, zeta=1))),
    ]
    for kind, value in (("object", {}), ("array", []), ("boolean", True), ("integer", 1), ("number", 1.5), ("null", None)):
        cases.append((f"refusal.S001.1.type-{kind}", ["S001.1"], f"An id that is a JSON {kind}.", doc(ceiling(id=value))))
    cases.append(("refusal.S001.1.type-string", ["S001.1"], "A format version written as a string.", doc(ceiling(gateproof="1"))))
    return cases


def _reader_cases(doc) -> list:
    """What the schema cannot say: records two share a key, steps naming what the world lacks, runs out of order."""
    cases = []
    for table, key, row in (("providers", "identifier", {"identifier": "p", "zone": "local"}), ("models", "identifier", {"identifier": "m"}),
                            ("configurations", "identifier", {"identifier": "c"}), ("snippets", "uid", snippet(1, None)),
                            ("skills", "uid", {"uid": 1})):
        cases.append((f"refusal.S001.1.duplicate-{table}", ["S001.1"], f"Two {table} under one {key}: the second is named.",
                      doc(with_world(**{table: [*ceiling()["world"][table], row]}))))
    for table, row in (("sessions", LAB_WORLD["sessions"][1]), ("cases", LAB_WORLD["cases"][0]), ("destinations", LAB_WORLD["destinations"][0]),
                       ("runbooks", LAB_WORLD["runbooks"][0]), ("approvals", APPROVAL)):
        rows = gateway()["world"][table]
        cases.append((f"refusal.S001.1.gateway-duplicate-{table}", ["S001.1"], f"Two gateway {table} under one id.",
                      doc(gateway(**{table: [*rows, row]}))))
    deleted = with_world(configurations=[{"identifier": "c", "model": "m"}, {"identifier": "gone", "model": "m", "deleted": True}])
    cases += [
        ("refusal.S001.1.no-configuration", ["S001.1"], "A send naming a configuration the world lacks.", doc(ceiling([send(), send(configuration="nope")]))),
        ("refusal.S001.1.deleted-configuration", ["S001.1"], "A send naming a deleted configuration.", doc({**deleted, "steps": [send(configuration="gone")]})),
        ("refusal.S001.1.no-serving-model", ["S001.1"], "A send naming a serving model the world lacks.", doc(ceiling([send(serving_model="nope")]))),
        ("refusal.S001.1.update-unknown-field", ["S001.1"], "An update setting a field a snippet has not.",
         doc(ceiling([{"op": "update", "kind": "snippet", "uid": 1, "set": {"colour": "red"}}]))),
        ("refusal.S001.1.update-key", ["S001.1"], "An update setting the key it names the record by.",
         doc(ceiling([{"op": "update", "kind": "snippet", "uid": 1, "set": {"uid": 2}}]))),
        ("refusal.S001.1.update-provider-key", ["S001.1"], "An update setting a provider's identifier.",
         doc(ceiling([{"op": "update", "kind": "provider", "identifier": "p", "set": {"identifier": "q"}}]))),
        ("refusal.S001.1.update-bad-value", ["S001.1"], "An update setting a value its field cannot hold.",
         doc(ceiling([{"op": "update", "kind": "snippet", "uid": 1, "set": {"active": "yes"}}]))),
        ("refusal.S001.1.update-no-key", ["S001.1"], "An update naming no key.", doc(ceiling([{"op": "update", "kind": "skill", "set": {"name": "n"}}]))),
        ("refusal.S001.1.delete-both-keys", ["S001.1"], "A delete naming a snippet by uid and identifier.",
         doc(ceiling([{"op": "delete", "kind": "snippet", "uid": 1, "identifier": "s1"}]))),
        ("refusal.S001.1.update-provider-both-keys", ["S001.1"], "An update naming a provider by identifier and uid: a provider has no uid.",
         doc(ceiling([{"op": "update", "kind": "provider", "identifier": "p", "uid": 1, "set": {"zone": "local"}}]))),
        ("refusal.S001.1.delete-unknown", ["S001.1"], "A delete of a configuration the world lacks.",
         doc(ceiling([{"op": "delete", "kind": "configuration", "identifier": "nope"}]))),
        ("refusal.S001.1.update-after-delete", ["S001.1"], "An update of a record an earlier step deleted.",
         doc(ceiling([{"op": "delete", "kind": "provider", "identifier": "p"}, {"op": "update", "kind": "provider", "identifier": "p", "set": {"zone": "local"}}]))),
        ("refusal.S001.1.delete-after-delete", ["S001.1"], "A delete of a provider an earlier step removed: a provider is removed, not flagged, so a second delete names none.",
         doc(ceiling([{"op": "delete", "kind": "provider", "identifier": "p"}, {"op": "delete", "kind": "provider", "identifier": "p"}]))),
        ("refusal.S001.1.send-after-delete", ["S001.1"], "A send on a configuration an earlier step deleted.",
         doc(ceiling([{"op": "delete", "kind": "configuration", "identifier": "c"}, send()]))),
        ("refusal.S001.3.queued-twice", ["S001.3"], "A run queued twice.", doc(story({"op": "queue", "run": "r", "configuration": "c"}))),
        ("refusal.S001.3.queue-no-configuration", ["S001.3"], "A queue naming a configuration the world lacks.",
         doc(ceiling([{"op": "queue", "run": "r", "configuration": "nope"}]))),
        ("refusal.S001.3.queue-deleted", ["S001.3"], "A queue naming a configuration the world holds deleted.",
         doc({**deleted, "steps": [{"op": "queue", "run": "r", "configuration": "gone"}]})),
        ("refusal.S001.3.dequeue-unknown", ["S001.3"], "A dequeue of a run never queued.", doc(story({"op": "dequeue", "run": "other"}))),
        ("refusal.S001.3.dequeue-running", ["S001.3"], "A dequeue of a running run.", doc(story({"op": "dequeue", "run": "r"}, {"op": "dequeue", "run": "r"}))),
        ("refusal.S001.3.suspend-queued", ["S001.3"], "A suspend of a queued run.", doc(story({"op": "suspend", "run": "r"}))),
        ("refusal.S001.3.resume-running", ["S001.3"], "A resume of a running run.", doc(story({"op": "dequeue", "run": "r"}, {"op": "resume", "run": "r"}))),
        ("refusal.S001.3.dequeue-suspended", ["S001.3"], "A dequeue of a suspended run.",
         doc(story({"op": "dequeue", "run": "r"}, {"op": "suspend", "run": "r"}, {"op": "dequeue", "run": "r"}))),
        ("refusal.S001.3.resume-no-serving-model", ["S001.3"], "A resume naming a serving model the world lacks.",
         doc(story({"op": "dequeue", "run": "r"}, {"op": "suspend", "run": "r"}, {"op": "resume", "run": "r", "serving_model": "nope"}))),
        ("refusal.S001.1.call-no-session", ["S001.1"], "A call by a session the world lacks.", doc(gateway([call(session="nobody")]))),
    ]
    for op, field, what in (("reassign_case", "case_id", "case"), ("revoke_session", "session", "session"),
                            ("remove_destination", "destination_id", "destination"), ("edit_case", "case_id", "case"),
                            ("edit_runbook", "runbook_id", "runbook")):
        change = {"op": op, field: "nope", **({"assignees": []} if op == "reassign_case" else {}), **({"content": ""} if op.startswith("edit") else {})}
        cases.append((f"refusal.S001.1.{op}-unknown", ["S001.1"], f"A {op} naming a {what} the world lacks.", doc(gateway([call(), change]))))
        cases.append((f"refusal.S001.1.before-write-{op}-unknown", ["S001.1"], f"A call whose before_write {op} names a {what} the world lacks.",
                      doc(gateway([call(before_write=[{"op": "advance_clock", "seconds": 1}, change])]))))
    return cases


def raw_text(entry: dict) -> bytes:
    """The exact bytes of a case's document."""
    raw = entry["text"].encode("utf-8") if "text" in entry else orjson.dumps(entry["document"])
    return raw + b" " * (entry.get("pad_to", 0) - len(raw))


def answer(raw: bytes) -> dict:
    """What ``gateproof decide`` makes of these bytes: the refusal, with the message it prints, or the outcome."""
    try:
        return {"outcome": decided(parse_json(raw))}
    except ScenarioError as error:
        return {"refused": {"field": error.path, "problem": error.problem, "message": str(error)}}


def expected(raw: bytes) -> dict:
    """The answer as the corpus keeps it: a refusal's field and problem (its message is the two joined by ': ')."""
    found = answer(raw)
    if "refused" in found:
        return {"refused": {"field": found["refused"]["field"], "problem": found["refused"]["problem"]}}
    return found


def cases() -> list[dict]:
    built = []
    for case_id, rules, description, given in _cases():
        entry = {"id": case_id, "rules": rules, "description": description, **given}
        built.append({**entry, "expected": expected(raw_text(entry))})
    return built


def refusal_family() -> dict:
    return {"family": "refusals", "description": "Invalid documents and how the model refuses each: the field and the problem.", "cases": cases()}


def read_refusals(path) -> list[dict]:
    """The cases of a refusal file (read as JSON values: its deep and repeated-key documents are text)."""
    return orjson.loads(path.read_bytes())["cases"]
