"""Every rule id in adr/ is implemented where it says and pinned by a test; every id a test names exists."""

from __future__ import annotations

import pathlib
import re

import pytest

from gateproof.conformance.generation.reach_rules import ENTRY, IMPLEMENTED, resolve
from test_versions_examples import example_rule_ids

ROOT = pathlib.Path(__file__).resolve().parent.parent
MARKER = re.compile(r"mark\.rule\(([^)]*)\)")
RULE_ID = re.compile(r"[A-Z]\d{3}\.\d+")


def adr_entries() -> dict[str, str]:
    """Map each rule id to the text of its entry."""
    entries = {}
    for path in sorted((ROOT / "adr").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        matches = list(ENTRY.finditer(text))
        for match, following in zip(matches, matches[1:] + [None]):
            body = text[match.end(): following.start() if following else len(text)]
            assert match["id"] not in entries, f"{match['id']} is defined twice"
            entries[match["id"]] = body
    return entries


def ids_named_by_tests() -> set[str]:
    """The ids a test marks with ``pytest.mark.rule``, and those a version's example pins (``test_versions_examples.py`` holds them)."""
    named = set(example_rule_ids())
    for path in (ROOT / "tests").glob("test_*.py"):
        for arguments in MARKER.findall(path.read_text(encoding="utf-8")):
            named.update(RULE_ID.findall(arguments))
    return named


ENTRIES = adr_entries()


def test_the_catalog_is_not_empty():
    assert len(ENTRIES) >= 40


@pytest.mark.parametrize("rule_id", sorted(ENTRIES))
def test_every_rule_names_functions_that_carry_its_id(rule_id):
    found = IMPLEMENTED.search(ENTRIES[rule_id])
    assert found, f"{rule_id} names no implementing function"
    for dotted in re.findall(r"`([^`]+)`", found["names"]):
        target = resolve(dotted)
        assert rule_id in (target.__doc__ or ""), f"{dotted} does not cite {rule_id} in its docstring"


def test_every_rule_is_pinned_by_a_test():
    missing = sorted(set(ENTRIES) - ids_named_by_tests())
    assert not missing, f"rules with no test naming them: {missing}"


def test_every_id_a_test_names_exists():
    unknown = sorted(ids_named_by_tests() - set(ENTRIES))
    assert not unknown, f"tests name rule ids adr/ does not define: {unknown}"


def test_every_id_the_code_cites_exists():
    cited = set()
    for folder in ("model", "conformance"):
        for path in (ROOT / folder).rglob("*.py"):
            cited.update(re.findall(r"\b[A-Z]\d{3}\.\d+\b", path.read_text(encoding="utf-8")))
    unknown = sorted(cited - set(ENTRIES))
    assert not unknown, f"the code cites rule ids adr/ does not define: {unknown}"
