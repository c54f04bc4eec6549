"""adr/gateway.md and the code name the same rules: every entry links to code that carries its id, and a test pins it;
the reason table, its order, the roles, the canonical form and the audit record are the model's."""

import ast
import importlib
import json
import re
from pathlib import Path

import pytest

from gateproof.conformance.corpus.attacks import FAMILIES
from gateproof.model.gateway.arguments import REASON_CODES, compute_canonical_arguments
from gateproof.model.gateway.scenario import trace_gateway_scenario
from gateproof.model.scenario import read_scenario
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


def _checks_the_model_makes() -> set[tuple[str, str]]:
    """Every (reason, rule) pair a ``Check(rule, reason, ...)`` in ``model/gateway`` is written with."""
    pairs = set()
    for path in (ROOT / "model" / "gateway").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Check":
                fields = dict(zip(("rule", "reason"), node.args)) | {k.arg: k.value for k in node.keywords}
                if all(isinstance(fields.get(name), ast.Constant) for name in ("rule", "reason")):
                    pairs.add((fields["reason"].value, fields["rule"].value))
    return pairs


def test_reason_table_rows_are_the_checks_of_the_model():
    model = _checks_the_model_makes()
    assert {reason for reason, _ in model} == set(REASON_CODES) - {"allowed"}
    assert set(_reason_table()) == model


def _table_rows() -> list[tuple[int, str, str, str]]:
    """The reason table's rows: order, reason, rule and the text of the row."""
    return [(int(order), reason, rule, text) for order, reason, rule, text
            in re.findall(r"^\| (\d+) \| `(\w+)` \| (G\d{3}\.\d+) \| (.+) \|$", ADR_TEXT, re.M)]


def _model_check_sequences() -> set[tuple[str, ...]]:
    """The rule ids of the checks the model made, in the order it made them, at the check and at the write, over the gateway corpus."""
    sequences = set()
    for _, cases in FAMILIES.values():
        for entry in cases:
            for _, trace, _ in trace_gateway_scenario(read_scenario(entry["scenario"])):
                if trace is not None:
                    sequences |= {tuple(c.rule for c in trace.checks), tuple(c.rule for c in trace.write_checks)}
    return sequences


def test_reason_table_order_is_the_order_the_model_checks_in():
    order = {rule: position for position, _, rule, _ in _table_rows()}
    sequences = _model_check_sequences()
    # The lab's corpus reaches every row but G001.18: the lab's catalog declares no argument_above approval.
    assert {rule for sequence in sequences for rule in sequence} | {"G001.18"} == set(order)
    for sequence in sequences:
        positions = [order[rule] for rule in sequence]
        assert positions == sorted(set(positions)), f"the model checks {sequence} in this order; the table orders them {positions}"


def test_the_lab_catalogs_roles_are_written_as_identifiers_in_the_reason_table():
    catalog = json.loads((ROOT / "model" / "catalogs" / "lab-001.json").read_text(encoding="utf-8"))
    roles = {role for tool in catalog["tools"] for role in tool["roles"] if role != "*"}
    roles |= {tool["tenant_reader_role"] for tool in catalog["tools"] if "tenant_reader_role" in tool}
    rows = " ".join(text for *_, text in _table_rows())
    assert roles and {role for role in roles if f"`{role}`" not in rows} == set()


def _entry(rule_id: str) -> str:
    return next(entry["body"] for entry in ENTRIES if entry["id"] == rule_id)


def test_the_canonical_form_example_is_the_models():
    source, text = re.search(r"For example the arguments\s+`([^`]+)` are the text\s+`([^`]+)`", _entry("G002.7")).groups()
    assert compute_canonical_arguments(json.loads(source)) == text


def test_the_audit_record_entry_names_every_key_and_stage_of_the_outcome():
    audit = schema("outcome")["$defs"]["gateway_audit"]
    written = set(re.findall(r"`(\w+)`", _entry("G001.15")))
    assert set(audit["required"]) | set(audit["properties"]["stage"]["enum"]) <= written
