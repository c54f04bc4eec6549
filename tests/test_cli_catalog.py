"""``gateproof catalog check``: a valid catalog summed up, exit 0; a bad one refused in one line naming the file, the field and the problem, exit 2."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.model.gateway.catalog import SHIPPED_DIR
from gateproof.model.scenario.document import MAX_DOCUMENT_BYTES

LAB = json.loads((SHIPPED_DIR / "lab-001.json").read_text(encoding="utf-8"))


def check(path: Path):
    return CliRunner().invoke(main, ["catalog", "check", str(path)])


def written(folder: Path, document: dict | str) -> Path:
    path = folder / "my-gateway.json"
    path.write_text(document if isinstance(document, str) else json.dumps(document), encoding="utf-8")
    return path


def test_the_lab_catalog_is_summed_up_tool_by_tool():
    done = check(SHIPPED_DIR / "lab-001.json")
    assert done.exit_code == 0
    lines = done.output.splitlines()
    assert lines[0] == "lab-001: a valid catalog of 2 tools"
    assert "export_case: export" in lines and "read_case: retrieval" in lines
    assert "  arguments: case_id identifier 1..128, destination_id identifier 1..128" in lines
    assert "  roles: support" in lines and "  roles: any; reads any record of its tenant: supervisor" in lines


def argument_named_twice(document):
    arguments = document["tools"][0]["arguments"]
    arguments.append(dict(arguments[0]))


BAD = {
    "argument named twice": (argument_named_twice, "$.tools[0].arguments[2].name: argument 'case_id' is declared twice"),
    "record argument that does not exist": (lambda d: d["tools"][1]["record"].update(argument="case"),
                                            "$.tools[1].record.argument: no argument 'case' among the tool's arguments"),
    "empty role list": (lambda d: d["tools"][0].update(roles=[]), "$.tools[0].roles: fewer than 1 items"),
    "limit of -1": (lambda d: d["tools"][0]["arguments"][1].update(max_length=-1), "$.tools[0].arguments[1].max_length: below the minimum 0"),
    "rate limit of -1": (lambda d: d.update(rate_limit={"calls": 10, "window": -1}), "$.rate_limit.window: below the minimum 1"),
    "unknown field": (lambda d: d["tools"][1].update(audit_content=True), "$.tools[1].audit_content: unknown field"),
    "wrong version": (lambda d: d.update(catalog=0), "$.catalog: expected the catalog format version 1, got 0"),
}


@pytest.mark.parametrize("kind", BAD)
def test_a_bad_catalog_is_refused_in_one_line_naming_the_file_the_field_and_the_problem(kind, tmp_path):
    edit, message = BAD[kind]
    document = copy.deepcopy(LAB)
    edit(document)
    path = written(tmp_path, document)
    done = check(path)
    assert (done.exit_code, done.output) == (2, f"gateproof: error: {path}: {message}\n")


@pytest.mark.parametrize(("text", "message"), [
    ("{", "$: not valid JSON"),
    ('{"catalog": 1, "catalog": 1}', "$: the key 'catalog' is written more than once"),
    ("[]", "$: expected object, got array"),
])
def test_a_file_that_is_no_catalog_object_is_refused_alike(text, message, tmp_path):
    path = written(tmp_path, text)
    done = check(path)
    assert done.exit_code == 2 and done.output.startswith(f"gateproof: error: {path}: {message}") and len(done.output.splitlines()) == 1


def test_a_file_over_16_mib_is_refused_for_its_size_without_being_read_whole(tmp_path):
    path = written(tmp_path, " " * (MAX_DOCUMENT_BYTES + 1) + json.dumps(LAB))
    done = check(path)
    assert (done.exit_code, done.output) == (2, f"gateproof: error: {path}: $: larger than {MAX_DOCUMENT_BYTES} bytes\n")


def test_a_missing_file_is_refused(tmp_path):
    done = check(tmp_path / "absent.json")
    assert done.exit_code == 2 and "cannot read" in done.output and "Traceback" not in done.output


EXAMPLES = sorted(path for path in SHIPPED_DIR.glob("*.json") if path.stem != "lab-001")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.stem)
def test_every_example_catalog_is_accepted(path):
    done = check(path)
    assert done.exit_code == 0 and done.output.startswith(f"{path.stem}: a valid catalog of "), done.output


def test_the_examples_are_a_ticketing_gateway_a_payments_gateway_with_approvals_and_a_retrieval_only_hr_gateway():
    output = {path.stem: check(path).output for path in EXAMPLES}
    assert set(output) == {"ticketing", "payments", "hr-records"}
    assert "export_ticket: export" in output["ticketing"] and "  record: ticket_id (ticket); destination: queue" in output["ticketing"]
    assert "refund_order: write" in output["payments"] and "approval for amount above 500" in output["payments"]
    assert "amount number 0.01..10000" in output["payments"]
    effects = [line.split(": ")[1] for line in output["hr-records"].splitlines() if line.startswith("read_")]
    assert effects == ["retrieval", "retrieval"] and ": export" not in output["hr-records"] and ": write" not in output["hr-records"]
