"""A stranger's documents: integers of any size, deep nesting, keys written twice, endless files, a misspelt kind.

Each is the smallest reproducer of what once broke, with the message and the
exit status the command line must give (S001.4–S001.6, G001.17).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gateway_helpers import scenario

from gateproof.conformance.harness.documents import dumps, dumps_pretty, parse_json
from gateproof.conformance.implementations import cedar_gateway
from gateproof.model.gateway.arguments import check_shape
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.document import MAX_DEPTH, RepeatedKeys, check_depth

ROOT = Path(__file__).resolve().parent.parent
REFUSED = ROOT / "examples" / "forced-snippet-refused.json"
FAKES = ROOT / "tests" / "implementations"
ENTRY = ROOT / "conformance" / "implementations" / "node" / "gateproof-node.js"


def gateproof(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", *args], input=input, capture_output=True, timeout=300)


def refused_send_with_user(be_user: str) -> bytes:
    """The shipped refused send, its caller's uid written as ``be_user`` digits (the audit records it)."""
    text = REFUSED.read_text(encoding="utf-8")
    assert '"be_user": 3' in text
    return text.replace('"be_user": 3', f'"be_user": {be_user}').encode()


BIG_INTEGERS = {
    "19 digits below -2**63": "-9300000000000000000",
    "26 digits": "12345678901234567890123456",
    "309 digits": "9" * 309,
    "5,000 digits, past Python's limit on int text": "7" * 5000,
    "100,000 digits": "-" + "8" * 100_000,
}
#: Those past Python's own limit on the digits of an int read from text or written as it (about 4,300).
PAST_PYTHONS_LIMIT = {name: digits for name, digits in BIG_INTEGERS.items() if len(digits) > 4300}


@pytest.mark.rule("S001.4", "C144.15")
@pytest.mark.parametrize("digits", BIG_INTEGERS.values(), ids=BIG_INTEGERS.keys())
def test_an_integer_of_any_size_is_read_and_written_back_exactly(digits):
    document = refused_send_with_user(digits)
    done = gateproof("decide", "-", input=document)
    assert done.returncode == 0, done.stderr
    assert f'"be_user": {digits},'.encode() in done.stdout
    assert parse_json(done.stdout)["results"][1]["audit"][0]["be_user"] == parse_json(digits)
    lines = gateproof("decide", "--jsonl", input=dumps(parse_json(document)) + b"\n")
    assert lines.returncode == 0, lines.stderr
    assert f'"be_user":{digits},'.encode() in lines.stdout


@pytest.mark.rule("S001.4")
@pytest.mark.parametrize("digits", PAST_PYTHONS_LIMIT.values(), ids=PAST_PYTHONS_LIMIT.keys())
def test_an_integer_past_pythons_digit_limit_is_explained_and_verified_whole(digits, tmp_path):
    scenario = tmp_path / "long.json"
    scenario.write_bytes(refused_send_with_user(digits))
    explained = gateproof("explain", "--json", str(scenario))
    assert explained.returncode == 0, explained.stderr
    assert f'"be_user": {digits}'.encode() in explained.stdout
    as_text = gateproof("explain", str(scenario))  # a value too long for a line is counted, not written: harness/preview.py
    assert as_text.returncode == 0, as_text.stderr
    assert f"(an integer of about {len(digits.lstrip('-')):,} digits: explain --json shows it whole)" in " ".join(as_text.stdout.decode().split())
    verified = gateproof("verify", "--builtin", "reference", "--replay", str(scenario), "--out", str(tmp_path / "right"), "-q")
    assert verified.returncode == 0, verified.stderr
    wrong = gateproof("verify", "--replay", str(scenario), "--out", str(tmp_path / "wrong"), "--", sys.executable, str(FAKES / "always_wrong.py"))
    assert wrong.returncode == 1 and b"Traceback" not in wrong.stderr, wrong.stderr
    [saved] = (tmp_path / "wrong" / "always-wrong").glob("*.json")
    assert digits.encode() in saved.read_bytes()  # the disagreement's scenario, saved to replay, holds the integer whole


@pytest.mark.rule("S001.4")
def test_a_stored_state_holding_a_20_digit_integer_is_written_back_out():
    document = {"gateproof": 1, "id": "state", "world": {"configurations": [{"identifier": "c"}]}, "steps": [
        {"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"},
        {"op": "suspend", "run": "r", "state": {"forced_snippets": [12345678901234567890], "note": -12345678901234567890}},
        {"op": "resume", "run": "r"},
    ]}
    done = gateproof("decide", "-", input=json.dumps(document).encode())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][-1]["op"] == "resume"


@pytest.mark.rule("S001.4")
def test_numbers_no_double_holds_and_the_words_nan_and_infinity_are_not_json():
    for text, problem in (("1e400", "beyond the range of a double"), ("NaN", "NaN is not a JSON number"), ("-Infinity", "-Infinity is not a JSON number")):
        with pytest.raises(ScenarioError, match=problem):
            parse_json(f'{{"x": {text}, "n": 123456789012345678901}}'.encode())
    with pytest.raises(ScenarioError, match="not valid JSON"):
        parse_json(b'{"x": 1e400}')


@pytest.mark.rule("S001.4")
def test_writing_keeps_big_integers_and_repeated_keys_and_equals_orjson_otherwise():
    import orjson

    plain = {"a": [1, 2.5, "\u00e9", None, True], "b": {"c": {}}, "d": []}
    assert dumps(plain) == orjson.dumps(plain) and dumps_pretty(plain) == orjson.dumps(plain, option=orjson.OPT_INDENT_2)
    assert dumps({"x": 2**70, "y": RepeatedKeys([("k", 1), ("k", 2)])}) == b'{"x":1180591620717411303424,"y":{"k":1,"k":2}}'
    assert parse_json(dumps_pretty({"x": -(2**64)}), repeats=None) == {"x": -(2**64)}


def nested(levels: int) -> object:
    value: object = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.rule("S001.5")
@pytest.mark.parametrize("levels", [300, 2000], ids=["within orjson's reach", "beyond it"])
def test_nesting_beyond_the_limit_in_a_stored_value_is_refused_by_its_path(levels):
    text = '{"gateproof": 1, "id": "d", "world": {"enforcement": %s}, "steps": [{"op": "classify", "configuration": "c"}]}' % ("[" * levels + "]" * levels)
    done = gateproof("decide", "-", input=text.encode())
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    # $ and world and the list are three levels: the 62nd index names the first array too deep.
    assert done.stderr.decode() == f"gateproof: error: -: $.world.enforcement{'[0]' * (MAX_DEPTH - 2)}: nested more than {MAX_DEPTH} levels deep\n"
    lines = gateproof("decide", "--jsonl", input=text.encode() + b"\n")
    assert lines.returncode == 2 and lines.stderr.startswith(b"gateproof: error: -: line 1: $.world.enforcement[0]")


def approval_document(levels: int) -> str:
    """A lab-001+next story whose one approval's arguments hold a value ``levels`` deep."""
    document = scenario({"op": "call", "session": "ana", "tool": "read_case", "arguments": {"case_id": "CASE-1"}}, rules="lab-001+next")
    document["world"]["approvals"] = [{"id": "ap", "tool": "export_case", "arguments": {"deep": "HOLE"}, "user": "ana", "expires_at": 9}]
    return json.dumps(document).replace('"HOLE"', json.dumps(nested(levels)))


@pytest.mark.rule("S001.5")
def test_nesting_in_approval_arguments_is_refused_by_its_path_and_at_the_limit_is_decided():
    # $ world approvals [0] arguments: five levels before the value, whose own levels come on top.
    at_limit = gateproof("decide", "-", input=approval_document(MAX_DEPTH - 5).encode())
    assert at_limit.returncode == 0, at_limit.stderr
    over = gateproof("decide", "-", input=approval_document(MAX_DEPTH - 4).encode())
    assert over.returncode == 2
    assert over.stderr.decode().startswith("gateproof: error: -: $.world.approvals[0].arguments.deep[0]")


@pytest.mark.rule("S001.5")
def test_the_depth_check_of_a_python_value_needs_no_stack():
    check_depth(nested(MAX_DEPTH))
    with pytest.raises(ScenarioError, match=r"^\$(\[0\]){64}: nested more than 64 levels deep$"):
        check_depth(nested(100_000))


PARTNER_FIRST = b'{"case_id": "CASE-1", "destination_id": "partner-drop", "destination_id": "review-queue"}'


def export_with_arguments(arguments: bytes) -> bytes:
    document = scenario({"op": "call", "session": "ana", "tool": "export_case", "arguments": "HOLE"})
    return json.dumps(document).replace('"HOLE"', arguments.decode()).encode()


@pytest.mark.rule("G001.17", "S001.6")
def test_a_key_written_twice_in_a_proposal_is_malformed_input_and_names_no_record():
    done = gateproof("decide", "-", input=export_with_arguments(PARTNER_FIRST))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)["results"][0]
    assert (result["decision"], result["reason"], result["rule"], result["exports"]) == ("deny", "malformed_input", "G001.17", [])
    assert result["audit"]["case_id"] is None and result["audit"]["destination_id"] is None
    once = gateproof("decide", "-", input=export_with_arguments(b'{"case_id": "CASE-1", "destination_id": "review-queue"}'))
    assert json.loads(once.stdout)["results"][0]["reason"] == "allowed"


@pytest.mark.rule("G001.17")
def test_a_key_written_twice_in_an_object_nested_in_the_arguments_is_malformed_input():
    nested_twice = b'{"case_id": "CASE-1", "destination_id": "review-queue", "note": [{"a": 1, "a": 1}]}'
    result = json.loads(gateproof("decide", "-", input=export_with_arguments(nested_twice)).stdout)["results"][0]
    assert (result["reason"], result["rule"]) == ("malformed_input", "G001.17")
    assert [c.rule for c in check_shape("read_case", parse_json(b'{"case_id": "X", "Case_id": "Y"}'))][-1] == "G001.3"


@pytest.mark.rule("S001.6", "G002.7")
def test_an_approval_whose_arguments_write_a_key_twice_is_invalid_input():
    approval = {"id": "ap-1", "tool": "export_case", "arguments": {"case_id": "CASE-1", "destination_id": "partner-drop"}, "user": "ana", "expires_at": 100}
    document = scenario({"op": "call", "session": "ana", "tool": "export_case", "arguments": {"case_id": "CASE-1", "destination_id": "partner-drop"}},
                        rules="lab-001+next", approvals=[approval])
    text = json.dumps(document).replace('"case_id": "CASE-1", "destination_id": "partner-drop"}, "user"', '"case_id": "CASE-1", "case_id": 1, "destination_id": "partner-drop"}, "user"', 1)
    assert text != json.dumps(document)
    done = gateproof("decide", "-", input=text.encode())
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert done.stderr == b"gateproof: error: -: $.world.approvals[0].arguments: the key 'case_id' is written more than once\n"


@pytest.mark.rule("S001.6")
def test_a_key_written_twice_elsewhere_is_refused_naming_the_object_and_the_key():
    document = scenario({"op": "call", "session": "ana", "tool": "read_case", "arguments": {"case_id": "CASE-1"}})
    text = json.dumps(document).replace('"tenant": "acme"', '"tenant": "acme", "tenant": "globex"', 1)
    done = gateproof("decide", "-", input=text.encode())
    assert done.returncode == 2
    assert done.stderr == b"gateproof: error: -: $.world.sessions[0]: the key 'tenant' is written more than once\n"
    lines = gateproof("decide", "--jsonl", input=json.dumps(document).encode() + b"\n" + text.encode() + b"\n")
    assert lines.returncode == 2 and lines.stderr.startswith(b"gateproof: error: -: line 2: $.world.sessions[0]: the key 'tenant'")
    assert len(lines.stdout.splitlines()) == 1


@pytest.mark.rule("G001.17")
def test_cedar_reads_a_repeated_key_as_the_model_does():
    document = parse_json(export_with_arguments(PARTNER_FIRST))
    assert cedar_gateway.run(document) == run_scenario(read_scenario(document))


@pytest.mark.rule("G001.17")
@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_node_reads_the_repeated_key_sent_over_the_protocol_and_refuses_the_call():
    from gateproof.conformance.harness.process import ImplementationProcess

    document = parse_json(export_with_arguments(PARTNER_FIRST))
    process = ImplementationProcess(["node", str(ENTRY)], timeout=120)
    process.start()
    try:
        [(_, reply)] = list(process.run_many([document]))
    finally:
        process.close()
    result = reply.outcome["results"][0]
    assert (result["reason"], result["rule"], result["audit"]["destination_id"]) == ("malformed_input", "G001.17", None)


def _served_by(name: str) -> list[str]:
    from gateproof.conformance.implementations import BUILTINS

    if name == "node" and shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    return ["node", str(ENTRY)] if name == "node" else BUILTINS[name]


@pytest.mark.rule("S001.5")
@pytest.mark.parametrize("name", ["reference", "node"])
def test_a_scenario_nested_to_the_limit_is_decided_inside_the_protocol_message_that_holds_it_one_level_deeper(name):
    from gateproof.conformance.harness.process import ImplementationProcess

    document = parse_json(approval_document(MAX_DEPTH - 5))
    with pytest.raises(ScenarioError):
        check_depth(document, MAX_DEPTH - 1)  # exactly at the limit: the run message nests one level more
    process = ImplementationProcess(_served_by(name), timeout=120)
    process.start()
    try:
        [(_, reply)] = list(process.run_many([document]))
    finally:
        process.close()
    assert reply.outcome == run_scenario(read_scenario(document))


DEVICES = [("decide", "/dev/zero"), ("explain", "/dev/zero"), ("decide", "--jsonl", "/dev/zero"),
           ("decide", "/dev/urandom"), ("explain", "/dev/urandom"), ("verify", "--builtin", "reference", "--replay", "/dev/zero")]


@pytest.mark.rule("S001.4")
@pytest.mark.parametrize("args", DEVICES, ids=" ".join)
def test_an_endless_file_is_refused_for_its_size_after_reading_no_more_than_the_limit(args):
    done = gateproof(*args)
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert done.stderr.endswith(b"$: larger than 16777216 bytes\n")


@pytest.mark.rule("S001.4")
def test_an_endless_line_of_random_bytes_is_refused_and_nothing_after_it_is_read():
    done = gateproof("decide", "--jsonl", "/dev/urandom")
    assert done.returncode == 2 and done.stderr.startswith(b"gateproof: error: /dev/urandom: line 1: $: ")


@pytest.mark.parametrize("args", [("decide", "--jsonl", "/proc/self/mem"), ("decide", "--jsonl", "--jobs", "2", "/proc/self/mem"),
                                  ("decide", "/proc/self/mem"), ("explain", "/proc/self/mem")], ids=" ".join)
def test_a_file_that_opens_but_cannot_be_read_is_refused_without_a_traceback(args):
    done = gateproof(*args)
    assert done.returncode == 2
    assert done.stderr == b"gateproof: error: /proc/self/mem: cannot read (Input/output error)\n"


@pytest.mark.rule("S001.1")
def test_a_misspelt_kind_is_blamed_on_the_kind():
    text = b'{"gateproof": 1, "kind": "gatway", "id": "g", "world": {"sessions": [], "cases": []}, "steps": [{"op": "call", "session": "s", "tool": "read_case", "arguments": {}}]}'
    done = gateproof("decide", "-", input=text)
    assert done.returncode == 2
    assert done.stderr == b'gateproof: error: -: $.kind: expected one of "ceiling", "gateway", got "gatway"\n'


@pytest.mark.rule("S001.1")
def test_a_size_over_its_limit_is_found_before_any_item_is_judged():
    """30,000 steps, each also wrong: of all the violations, the count is the one reported."""
    document = {"gateproof": 1, "id": "many", "world": {}, "steps": [{"op": "classify", "configuration": 7}] * 30_000}
    with pytest.raises(ScenarioError, match=r"^\$\.steps: more than 1000 items$"):
        read_scenario(document)


@pytest.mark.rule("S001.6")
@pytest.mark.parametrize("text", [
    b'{"a": "x", "a": "\\u003a"}',  # an escaped colon in a string cannot hide the key written twice
    b'{"a":1,"a":1}',  # as compact as orjson writes
    b'{"a": {"b": [1, {"c": 1, "c": 2}]}}',
    b' {"a":0,"a":0}\n',
    b'{ "k\\u003a": 1 , "k:": 2 }',  # the same key, once escaped
], ids=["escaped colon", "compact", "deep inside", "white space around", "escaped key"])
def test_a_key_written_twice_is_found_however_the_text_is_written(text):
    with pytest.raises(ScenarioError, match="is written more than once"):
        parse_json(text)


@pytest.mark.rule("S001.6")
def test_a_text_with_no_key_twice_is_read_as_orjson_reads_it_however_it_is_written():
    for text in (b'{"a": "\\u003a", "b": ":"}', b'{"a":{"b":":"}}\n', b'{ "k\\u003a": 1 , "k": 2 }'):
        assert parse_json(text) == json.loads(text)


@pytest.mark.rule("S001.4", "G001.17")
@pytest.mark.parametrize("builtin", ["reference", "node"])
def test_verify_replays_big_integers_and_repeated_keys_through_the_protocol_digit_for_digit(builtin, tmp_path):
    if builtin == "node" and shutil.which("node") is None:
        pytest.skip("node is not on PATH")
    (tmp_path / "big.json").write_bytes(refused_send_with_user(BIG_INTEGERS["26 digits"]))
    (tmp_path / "twice.json").write_bytes(export_with_arguments(PARTNER_FIRST))
    done = gateproof("verify", "--builtin", builtin, "--replay", str(tmp_path / "big.json"), "--replay", str(tmp_path / "twice.json"),
                     "--out", str(tmp_path / "out"), "--report", "json")
    assert done.returncode == 0, done.stdout.decode() + done.stderr.decode()
    [row] = json.loads((tmp_path / "out" / "report.json").read_text())["implementations"]
    assert (row["verdict"], row["passed"], row["failed"], row["errored"]) == ("conformant", 2, 0, 0)


def _padded_to(size: int) -> bytes:
    """The shipped refused send, white space after it up to ``size`` bytes."""
    text = dumps(parse_json(REFUSED.read_bytes()))
    return text + b" " * (size - len(text))


@pytest.mark.rule("S001.4")
def test_a_jsonl_line_of_exactly_the_limit_is_decided_its_newline_no_part_of_the_document():
    from gateproof.model.scenario.document import MAX_DOCUMENT_BYTES

    done = gateproof("decide", "--jsonl", "-", input=_padded_to(MAX_DOCUMENT_BYTES) + b"\n" + _padded_to(0) + b"\n")
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 2


@pytest.mark.rule("S001.4")
def test_a_jsonl_line_one_byte_past_the_limit_is_refused_for_its_size_newline_or_not():
    from gateproof.model.scenario.document import MAX_DOCUMENT_BYTES

    for ending in (b"\n", b""):
        done = gateproof("decide", "--jsonl", "-", input=_padded_to(MAX_DOCUMENT_BYTES + 1) + ending)
        assert done.returncode == 2
        assert done.stderr == b"gateproof: error: -: line 1: $: larger than 16777216 bytes\n"


@pytest.mark.rule("S001.4")
@pytest.mark.parametrize("digits", [1, 4000, 4001, 8001, 12345])
def test_an_integer_read_in_halves_is_the_integer_the_text_writes(digits):
    from gateproof.conformance.harness.documents import exact_integer, long_integers_written

    for text in ("9" * digits, "-1" + "0" * (digits - 1), "31415926535" * (digits // 11) + "7"):
        with long_integers_written():
            assert str(exact_integer(text)) == text
