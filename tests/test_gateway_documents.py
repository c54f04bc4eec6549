"""Gateway scenario documents: invalid input is a ScenarioError naming the field; the commands work on gateway scenarios."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from gateway_helpers import EXPORT, call, outcome, scenario

from gateproof.model.scenario import ScenarioError, read_scenario

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("gateway-*.json"))


def _with(document: dict, path: list, value) -> dict:
    target = document
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    return document


@pytest.mark.parametrize(
    "path,value,field",
    [
        (["rules"], "lab-002", "$.rules"),
        (["world", "sessions"], [], "$.world.sessions"),
        (["world", "sessions", 0, "roles"], "support", "$.world.sessions[0].roles"),
        (["world", "sessions", 0, "valid"], "yes", "$.world.sessions[0].valid"),
        (["world", "cases", 0, "tenant"], 7, "$.world.cases[0].tenant"),
        (["world", "cases", 0, "owner"], "ana", "$.world.cases[0].owner"),
        (["world", "destinations", 0, "internal"], None, "$.world.destinations[0].internal"),
        (["world", "rate_limit"], {"calls": 0, "window": 5}, "$.world.rate_limit.calls"),
        (["world", "approvals"], [{"id": "a", "tool": "export_case", "arguments": [], "user": "ana", "expires_at": 1}], "$.world.approvals[0].arguments"),
        (["steps", 0, "op"], "delete", "$.steps[0].op"),
        (["steps", 0, "session"], 3, "$.steps[0].session"),
        (["steps", 0, "idempotency_key"], "", "$.steps[0].idempotency_key"),
        (["steps", 0, "extra"], 1, "$.steps[0].extra"),
    ],
)
def test_invalid_document_names_the_field(path, value, field):
    with pytest.raises(ScenarioError) as error:
        read_scenario(_with(scenario(call()), path, value))
    assert error.value.path == field


@pytest.mark.parametrize(
    "step,field",
    [
        (call(session="nobody"), "$.steps[0].session"),
        ({"op": "reassign_case", "case_id": "CASE-404", "assignees": []}, "$.steps[0].case_id"),
        ({"op": "revoke_session", "session": "nobody"}, "$.steps[0].session"),
        ({"op": "remove_destination", "destination_id": "nowhere"}, "$.steps[0].destination_id"),
        ({"op": "edit_runbook", "runbook_id": "rb-x", "content": ""}, "$.steps[0].runbook_id"),
        (call(before_write=[{"op": "edit_case", "case_id": "CASE-404", "content": ""}]), "$.steps[0].before_write[0].case_id"),
        ({"op": "advance_clock", "seconds": -1}, "$.steps[0].seconds"),
    ],
)
def test_invalid_step_naming_what_the_world_lacks(step, field):
    with pytest.raises(ScenarioError) as error:
        read_scenario(scenario(step))
    assert error.value.path == field


def test_names_are_checked_against_the_world_as_declared_so_a_second_removal_is_valid():
    removal = {"op": "remove_destination", "destination_id": "review-queue"}
    removed, again, export = outcome(scenario(removal, removal, call("export_case", EXPORT)))["results"]
    assert removed == again == {"op": "remove_destination"}
    assert (export["reason"], export["audit"]["destination_id"]) == ("destination_denied", None)


def test_invalid_duplicate_ids():
    document = scenario(call())
    document["world"]["cases"].append(dict(document["world"]["cases"][0]))
    with pytest.raises(ScenarioError) as error:
        read_scenario(document)
    assert error.value.path == "$.world.cases[2].id"


@pytest.mark.parametrize("arguments", [None, [], "x", {"case_id": {"deep": [1, {"x": None}]}}, {"": ""}])
def test_call_arguments_are_never_a_document_error(arguments):
    read_scenario(scenario(call("export_case", arguments)))


def _gateproof(*args, stdin: bytes = b"") -> subprocess.CompletedProcess:
    command = [sys.executable, "-c", "from gateproof.conformance.cli import main; main()", *args]
    return subprocess.run(command, input=stdin, capture_output=True, cwd=ROOT)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_decide_and_explain_work_on_gateway_examples(path):
    decided = _gateproof("decide", str(path))
    assert decided.returncode == 0, decided.stderr
    outcome = json.loads(decided.stdout)
    assert outcome["scenario"] == json.loads(path.read_text())["id"]
    explained = _gateproof("explain", str(path))
    assert explained.returncode == 0 and b"checks in precedence order" in explained.stdout


def test_invalid_gateway_input_exits_2_naming_the_field():
    document = scenario(call(session="nobody"))
    result = _gateproof("decide", "-", stdin=json.dumps(document).encode())
    assert result.returncode == 2
    assert b"$.steps[0].session" in result.stderr and b"Traceback" not in result.stderr


def test_jsonl_mixes_gateway_and_ceiling_documents():
    lines = json.dumps(scenario(call())) + "\n" + json.dumps(json.loads((ROOT / "examples" / "observe-mode.json").read_text())) + "\n"
    result = _gateproof("decide", "--jsonl", stdin=lines.encode())
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert first["results"][0]["op"] == "call" and second["results"][0]["op"] == "send"
