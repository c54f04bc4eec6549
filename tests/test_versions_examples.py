"""Each rule version's declared example pins its rules: it decides otherwise under the predecessor, only where the
version's declared consequences say, at steps whose explanation cites each rule the declaration says the example pins.

This is the test of a version's ``example_rules``: the rule-id checks of ``tests/test_adr_links.py`` count them as
pinned, so a new version's rule needs its declaration and its example, not a test file of its own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gateproof.conformance.diff.search import outcome_under
from gateproof.conformance.explanation.explain import explain_under
from gateproof.model.versions import Version, adr_versions, declarations, predecessor

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RULE_ID = re.compile(r"\b[A-Z]\d{3}\.\d+\b")


def with_example() -> list[Version]:
    return [declaration for declaration in declarations() if declaration.example is not None]


def example_rule_ids() -> set[str]:
    """The rule ids the declared examples pin, as the test below holds them."""
    return {rule for declaration in with_example() for rule in declaration.example_rules}


def differing_steps(document: dict, version: str, before: str) -> list[tuple[int, str, set]]:
    """(step, op, the result keys that differ) of each step the two versions decide otherwise."""
    now, then = outcome_under(document, version)["results"], outcome_under(document, before)["results"]
    assert len(now) == len(then)
    return [(number, ours["op"], {key for key in {*ours, *theirs} if ours.get(key) != theirs.get(key)})
            for number, (ours, theirs) in enumerate(zip(now, then)) if ours != theirs]


def test_every_adr_version_after_the_first_declares_an_example():
    assert [d.name for d in with_example()] == [d.name for d in adr_versions()[1:]]


@pytest.mark.parametrize("declaration", with_example(), ids=lambda d: d.name)
def test_the_example_shows_the_change_where_its_rules_apply(declaration):
    document = json.loads((EXAMPLES / declaration.example).read_text(encoding="utf-8"))
    assert document["rules"] == declaration.name and declaration.example_rules
    differing = differing_steps(document, declaration.name, predecessor(declaration.name).name)
    assert differing, f"{declaration.example} decides alike under {predecessor(declaration.name).name}"
    undocumented = [(op, sorted(keys)) for _, op, keys in differing if not any(c.covers(op, keys) for c in declaration.consequences)]
    assert not undocumented, f"differences no consequence of {declaration.name} names: {undocumented}"
    steps = explain_under(document, declaration.name).steps
    cited = {rule for number, _, _ in differing
             for rule in RULE_ID.findall(steps[number].says) + [r for applied in steps[number].applied for r in applied.rules]}
    assert set(declaration.example_rules) <= cited, f"not cited where the example differs: {set(declaration.example_rules) - cited}"
