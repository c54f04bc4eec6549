"""Every rule adr/ states is pinned by the corpus on both sides of its boundary, and the corpus cites no other rule.

A corpus case is a vector other implementations are held to. A rule whose
cases all stand on one side of its condition lets an implementation that
moves the boundary (``<`` for ``<=``, a Unicode trim for PHP's) pass. The
rules are read from the entries of adr/ and the cases from the corpus files
of the repository, so a rule added to adr/ fails here until the corpus holds
both of its sides.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from gateproof.conformance.generation.reach_rules import ENTRY
from gateproof.conformance.corpus.catalog_pairs import catalog_corpus
from gateproof.conformance.corpus.load import CorpusCase, load_corpus
from gateproof.model.gateway.catalog import SHIPPED_DIR

ROOT = Path(__file__).resolve().parent.parent
#: The rules whose decisions an expected outcome carries: the ceiling's and the lifecycle's (C), the gateway's (G).
#: The S rules are the scenario format's own (how a document is read, how its steps follow a run and change the
#: world): every case exercises them, and a document that breaks them is invalid input, with no outcome to pin.
DECIDING = re.compile(r"[CG]\d{3}\.\d+")
#: A boundary case's id: its pair's stem (the family, the rule, an optional aspect) and its side.
BOUNDARY = re.compile(r"(?P<stem>.+\.boundary\.(?P<rule>[cg]\d{3}\.\d+)(\.[a-z0-9-]+)?)\.(?P<side>applies|just-outside(\.[a-z0-9-]+)?)")

STATED = {entry["id"] for path in sorted((ROOT / "adr").glob("*.md")) for entry in ENTRY.finditer(path.read_text(encoding="utf-8"))}
DECIDING_RULES = sorted(rule for rule in STATED if DECIDING.fullmatch(rule))
#: The shipped corpus, and the boundary pairs of every shipped catalog but the lab's (whose rules the corpus holds):
#: a rule only a catalog can reach (G001.18, an argument_above approval under lab-001) is pinned by those.
CASES = load_corpus(ROOT / "conformance" / "corpus") + [
    case for path in sorted(SHIPPED_DIR.glob("*.json")) if path.stem != "lab-001"
    for case in catalog_corpus(json.loads(path.read_text(encoding="utf-8")))
]


def citing(rule: str) -> list[CorpusCase]:
    return [case for case in CASES if rule in case.rules]


def parts_at_a_step(first: CorpusCase, second: CorpusCase) -> bool:
    """Whether the two expected outcomes differ at a step both take with the same op: one decided there otherwise than the other."""
    return any(mine["op"] == theirs["op"] and mine != theirs for mine, theirs in zip(first.expected["results"], second.expected["results"]))


def boundary_pairs() -> dict[str, dict[str, CorpusCase]]:
    """Each boundary pair's stem, with its cases by side (``applies``, ``just-outside``, ``just-outside.<near miss>``)."""
    pairs: dict[str, dict[str, CorpusCase]] = defaultdict(dict)
    for case in CASES:
        named = BOUNDARY.fullmatch(case.id)
        if named:
            pairs[named["stem"]][named["side"]] = case
    return pairs


PAIRS = boundary_pairs()


def test_the_corpus_and_the_rules_are_read():
    assert len(DECIDING_RULES) >= 80 and len(CASES) >= 2 * len(DECIDING_RULES)


def test_every_case_cites_only_rules_adr_states():
    unknown = sorted((case.id, rule) for case in CASES for rule in case.rules if rule not in STATED)
    assert not unknown, f"cases cite rules adr/ does not state: {unknown}"


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_every_rule_is_cited_by_a_case(rule):
    assert citing(rule), f"no corpus case cites {rule}"


@pytest.mark.parametrize("rule", DECIDING_RULES)
def test_every_rule_has_cases_on_both_sides_of_its_boundary(rule):
    cases = citing(rule)
    assert any(parts_at_a_step(first, second) for first, second in itertools.combinations(cases, 2)), (
        f"no two cases citing {rule} part at a step: {[case.id for case in cases]}"
    )


def test_every_case_named_as_a_boundary_names_its_side():
    misnamed = [case.id for case in CASES if ".boundary." in case.id and not BOUNDARY.fullmatch(case.id)]
    assert not misnamed


@pytest.mark.parametrize("stem", sorted(PAIRS))
def test_a_boundary_pair_cites_its_rule_and_parts_where_it_decides(stem):
    sides = PAIRS[stem]
    rule = BOUNDARY.fullmatch(next(iter(sides.values())).id)["rule"].upper()
    outside = [case for side, case in sides.items() if side != "applies"]
    assert "applies" in sides and outside, f"{stem} lacks a side: {sorted(sides)}"
    assert all(rule in case.rules for case in sides.values()), f"a case of {stem} does not cite {rule}"
    assert all(parts_at_a_step(sides["applies"], near) for near in outside), f"a near miss of {stem} ends as the case it misses"
