"""adr/gateway.md and the code name the same rules: every entry links to code that carries its id, and a test pins it."""

import importlib
import re
from pathlib import Path

import pytest

from gateproof.model.scenario.schema import schema

ROOT = Path(__file__).resolve().parent.parent
ADR_TEXT = (ROOT / "adr" / "gateway.md").read_text(encoding="utf-8")
ENTRY = re.compile(r"^### (?P<id>G\d{3}\.\d+) — (?P<title>.+)\n(?P<body>(?:.+\n)+)\n\*Implemented by\* (?P<paths>.+)$", re.M)
ENTRIES = [m.groupdict() for m in ENTRY.finditer(ADR_TEXT)]


def test_every_rule_heading_is_a_well_formed_entry():
    headings = re.findall(r"^### (G\S+)", ADR_TEXT, re.M)
    assert headings and [e["id"] for e in ENTRIES] == headings


def _resolve(dotted: str):
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["id"])
def test_entry_links_to_code_carrying_its_id(entry):
    paths = re.findall(r"`([\w.]+)`", entry["paths"])
    assert paths
    for dotted in paths:
        assert entry["id"] in (_resolve(dotted).__doc__ or ""), f"{dotted} does not name {entry['id']}"


def _marked_ids() -> set[str]:
    ids: set[str] = set()
    for path in (ROOT / "tests").glob("test_gateway_*.py"):
        for arguments in re.findall(r"mark\.rule\(([^)]*)\)", path.read_text(encoding="utf-8")):
            ids.update(re.findall(r"G\d{3}\.\d+", arguments))
    return ids


def test_every_rule_is_pinned_by_a_test_and_every_marker_names_a_rule(adr_rule_ids):
    marked = _marked_ids()
    assert adr_rule_ids - marked == set()
    assert marked - adr_rule_ids == set()


def _reason_table() -> list[tuple[str, str]]:
    return re.findall(r"^\| \d+ \| `(\w+)` \| (G\d{3}\.\d+)", ADR_TEXT, re.M)


def test_reason_codes_are_the_closed_set_of_the_outcome_schema():
    documented = {reason for reason, _ in _reason_table()} | {"allowed"}
    assert documented == set(schema("outcome")["$defs"]["gateway_reason"]["enum"])


def test_cedar_policies_name_only_documented_rules_and_reasons():
    policies = (ROOT / "conformance" / "implementations" / "cedar_gateway" / "policies.cedar").read_text(encoding="utf-8")
    table = dict(_reason_table())
    for reason, rule in re.findall(r'@reason\("(\w+)"\)\s*@rule\("([^"]+)"\)', policies):
        assert reason in table and rule in re.findall(r"G\d{3}\.\d+", ADR_TEXT)
