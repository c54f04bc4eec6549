"""``adr/invariants.md`` and the catalog say the same thing: ids, names, claims, rules and the proving function."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from gateproof.conformance.proofs.catalog import CATALOG

ROOT = Path(__file__).resolve().parent.parent
ENTRY = re.compile(
    r"^### (?P<id>I\d{3}) — (?P<name>\w+)\n(?P<statement>[^\n]+)\n\n"
    r"\*Rests on\* (?P<rests_on>[^·\n]+) · \*Proved by\* `(?P<proved_by>[\w.]+)`$",
    re.MULTILINE,
)


def _entries() -> list[dict]:
    return [match.groupdict() for match in ENTRY.finditer((ROOT / "adr" / "invariants.md").read_text())]


def _resolve(dotted: str):
    module, _, attribute = dotted.rpartition(".")
    return getattr(importlib.import_module(module), attribute)


def test_every_invariant_has_one_entry_in_catalog_order():
    assert [(e["id"], e["name"]) for e in _entries()] == [(i.id, i.name) for i in CATALOG]


def test_each_entry_states_the_claim_its_proof_proves():
    for written, entry in zip(_entries(), CATALOG):
        assert written["statement"] == entry.statement
        assert tuple(written["rests_on"].strip().split(", ")) == entry.rests_on
        assert _resolve(written["proved_by"]) is entry.claim


def test_every_cited_rule_is_a_rule_of_the_model():
    model_text = "".join(path.read_text() for path in (ROOT / "model").rglob("*.py"))
    cited = {rule for entry in CATALOG for rule in entry.rests_on}
    assert {rule for rule in cited if not re.search(rf"\b{re.escape(rule)}\b", model_text)} == set()


def test_the_proofs_guide_lists_every_proved_property():
    guide = (ROOT / "docs" / "proofs.md").read_text(encoding="utf-8")
    for entry in CATALOG:
        assert f"| {entry.id} | `{entry.name}` | {entry.statement} |" in guide
