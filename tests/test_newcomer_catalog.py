"""A clinic's catalog written from docs/catalogs.md alone: accepted, verified, and the mistakes made on the way refused at their field.

``tests/catalogs/clinic.json`` declares five tools of a domain no shipped
example has: two retrievals, an export to a destination, a write whose
argument is an enumeration the catalog cannot state, and a write with a
numeric dose that needs an approval above 500. Each broken variant is a
mistake a team plausibly makes writing its first catalog; each must be
refused in one line naming the field, exit status 2, by ``catalog check``
and by ``verify --catalog`` alike.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main

CLINIC_FILE = Path(__file__).resolve().parent / "catalogs" / "clinic.json"
CLINIC = json.loads(CLINIC_FILE.read_text(encoding="utf-8"))
TOOLS = {"read_patient": "retrieval", "read_lab_result": "retrieval", "export_chart": "export", "update_allergy": "write", "prescribe": "write"}


def tool(document: dict, name: str) -> dict:
    return next(declared for declared in document["tools"] if declared["name"] == name)


def argument(document: dict, tool_name: str, name: str) -> dict:
    return next(declared for declared in tool(document, tool_name)["arguments"] if declared["name"] == name)


def dose_declared_twice(document: dict) -> None:
    tool(document, "prescribe")["arguments"].append({"name": "dose_mg", "type": "integer", "minimum": 1, "maximum": 5000})


def trailing_comma(document: dict) -> str:
    """The catalog file as written, with a comma left after its last tool."""
    last_tool_closed = '    }\n  ],\n  "rate_limit"'
    return CLINIC_FILE.read_text(encoding="utf-8").replace(last_tool_closed, last_tool_closed.replace("}", "},", 1))


BROKEN = {
    "argument named twice": (dose_declared_twice, "$.tools[4].arguments[4].name: argument 'dose_mg' is declared twice"),
    "record argument that does not exist": (lambda d: tool(d, "read_lab_result")["record"].update(argument="lab_result_id"),
                                            "$.tools[1].record.argument: no argument 'lab_result_id' among the tool's arguments"),
    "empty role list": (lambda d: tool(d, "update_allergy").update(roles=[]), "$.tools[3].roles: fewer than 1 items"),
    "length limit of -1 meant as no limit": (lambda d: argument(d, "update_allergy", "allergen").update(max_length=-1),
                                             "$.tools[3].arguments[1].max_length: below the minimum 0"),
    "rate limit of -1": (lambda d: d["rate_limit"].update(calls=-1), "$.rate_limit.calls: below the minimum 1"),
    "enumeration as an unknown field": (lambda d: argument(d, "update_allergy", "severity").update(enum=["mild", "moderate", "severe"]),
                                        "$.tools[3].arguments[2].enum: unknown field"),
    "enumeration as a type": (lambda d: argument(d, "update_allergy", "severity").update(type="enum"),
                              "$.tools[3].arguments[2].type: expected one of \"identifier\", \"string\", \"integer\", \"number\", got \"enum\""),
    "idempotency key false on a retrieval": (lambda d: tool(d, "read_patient").update(idempotency_key=False),
                                             "$.tools[0].idempotency_key: not a field of a tool whose effect is retrieval"),
    "approval threshold as a string": (lambda d: tool(d, "prescribe")["approvals"][0].update(above="500"),
                                       "$.tools[4].approvals[0].above: expected number, got string"),
    "approval on an identifier": (lambda d: tool(d, "prescribe")["approvals"][0].update(argument="drug_code"),
                                  "$.tools[4].approvals[0].argument: no integer or number argument 'drug_code' among the tool's arguments"),
    "trailing comma": (trailing_comma, "$: not valid JSON (trailing comma is not allowed: line 73 column 6 (char 3097))"),
}


def broken_file(folder: Path, kind: str) -> tuple[Path, str]:
    edit, message = BROKEN[kind]
    document = copy.deepcopy(CLINIC)
    text = edit(document)
    path = folder / "clinic.json"
    path.write_text(text if isinstance(text, str) else json.dumps(document), encoding="utf-8")
    return path, message


def test_the_clinic_catalog_is_accepted_and_its_summary_names_its_five_tools():
    done = CliRunner().invoke(main, ["catalog", "check", str(CLINIC_FILE)])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == "clinic: a valid catalog of 5 tools"
    assert [line for line in lines if not line.startswith(" ")][3:] == [f"{name}: {effect}" for name, effect in TOOLS.items()]
    assert "  next checks: idempotency key, approval for dose_mg above 500, re-checked at the write" in lines


def test_the_reference_conforms_under_the_clinic_catalog(tmp_path):
    done = CliRunner().invoke(main, ["verify", "--catalog", str(CLINIC_FILE), "--examples", "200", "--out", str(tmp_path / "out"),
                                     "--builtin", "reference"])
    assert done.exit_code == 0, done.output
    assert "conformant" in done.output


@pytest.mark.parametrize("kind", BROKEN)
def test_catalog_check_refuses_each_mistake_in_one_line_naming_the_field(kind, tmp_path):
    path, message = broken_file(tmp_path, kind)
    done = CliRunner().invoke(main, ["catalog", "check", str(path)])
    assert (done.exit_code, done.output) == (2, f"gateproof: error: {path}: {message}\n")


@pytest.mark.parametrize("kind", BROKEN)
def test_verify_refuses_each_mistake_before_it_runs_anything(kind, tmp_path):
    path, message = broken_file(tmp_path, kind)
    done = CliRunner().invoke(main, ["verify", "--catalog", str(path), "--out", str(tmp_path / "out"), "--builtin", "reference"])
    assert (done.exit_code, done.output) == (2, f"gateproof: error: --catalog {path}: {message}\n")
    assert not (tmp_path / "out").exists()
