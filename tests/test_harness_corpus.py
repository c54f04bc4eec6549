"""The shipped corpus: current with the model, stable ids, rules that exist, and exportable as it is."""

import json
import re
from pathlib import Path

import pytest

from gateproof.conformance.corpus.build import CORPUS_ROOT, FAMILIES, compute_family
from gateproof.conformance.corpus.load import corpus_files, export_corpus, load_corpus
from gateproof.model.scenario.schema import validate

ADR = Path(__file__).resolve().parent.parent / "adr"
CASES = load_corpus()


@pytest.fixture(scope="module")
def every_rule_id() -> set[str]:
    return {m for path in ADR.glob("*.md") for m in re.findall(r"^### ([A-Z]\d{3}\.\d+) — ", path.read_text(encoding="utf-8"), re.M)}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_family_files_are_regenerated_from_the_model(family):
    shipped = json.loads((CORPUS_ROOT / f"{family}.json").read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(compute_family(family))), "run: gateproof corpus build"


def test_every_family_is_shipped_with_stable_unique_ids():
    families = {case.family.split("/")[0] for case in CASES}
    assert families == {"ceiling", "lifecycle", "gateway"}
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"(ceiling|lifecycle|gw)\.[a-z0-9._+-]+", i) for i in ids), ids


@pytest.mark.parametrize("case", [c for c in CASES if not c.family.startswith("gateway")], ids=lambda c: c.id)
def test_case_is_valid_and_pins_rules_that_exist(case, every_rule_id):
    validate("scenario", case.scenario)
    validate("outcome", case.expected)
    assert case.scenario["id"] == case.id == case.expected["scenario"]
    assert case.rules and set(case.rules) <= every_rule_id


def test_a_lifecycle_story_under_the_version_before_its_adr_ends_differently():
    by_id = {c.id: c for c in CASES}
    for case in by_id.values():
        # The latest-rules case pins what later ADRs kept; it may end as the story's own version does.
        if ".under-" in case.id and not case.id.endswith(".under-latest"):
            own = by_id[case.id.split(".under-")[0]]
            assert own.expected["results"] != case.expected["results"], own.id


def test_export_writes_the_same_files_under_the_same_layout(tmp_path):
    written = export_corpus(tmp_path)
    assert [p.relative_to(tmp_path) for p in written] == [p.relative_to(CORPUS_ROOT) for p in corpus_files()]
    assert all(p.read_bytes() == (CORPUS_ROOT / p.relative_to(tmp_path)).read_bytes() for p in written)
