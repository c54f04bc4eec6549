"""A version declared in memory (a switch flipped on a copy of the latest declaration) is followed everywhere without another edit:
the schema, the defaults, ``rules --versions``, diff's order and consequences, the proofs' encoding, the explanation, the corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.cli.prove import prove as prove_command
from gateproof.conformance.corpus.build import lifecycle_cases
from gateproof.conformance.corpus.declared import schema_text, versions_text
from gateproof.conformance.diff.claims import check_claim, claims_to_check
from gateproof.conformance.diff.search import between, diff_order, documented_consequence
from gateproof.conformance.explanation.explain import explain_under
from gateproof.conformance.harness.bulk import decided
from gateproof.conformance.plugin.options import latest_of_kind
from gateproof.conformance.proofs.catalog import BY_ID
from gateproof.conformance.proofs.domains import RUN_STORIES
from gateproof.conformance.proofs.engine import COUNTEREXAMPLE, prove
from gateproof.conformance.proofs.equivalence import SUBJECTS, decide_alike
from gateproof.conformance.proofs.replay import semantics_named
from gateproof.model import versions
from gateproof.model.scenario import read_scenario, schema as schema_module
from gateproof.conformance.explanation.lifecycle import LOOKUP_WORDS
from gateproof.model.versions import ENABLED, EXISTING, Consequence, adr_versions, latest

ROOT = Path(__file__).resolve().parent.parent
NAME = "adr-999"
#: The latest shipped version, which the throwaway follows: named from the declarations, so a version added later moves it.
PREVIOUS = latest().name
#: The throwaway resolves a dequeue's forced snippets through the other lookup than its predecessor does.
DEQUEUE_SNIPPETS = {ENABLED: EXISTING, EXISTING: ENABLED}[latest().rules.dequeue_snippet_lookup]
CHANGE = Consequence(frozenset({"dequeue", "suspend", "resume"}), None, "ADR-999: a dequeue resolves forced snippets through the other lookup")
#: A claim of a shape diff knows: declared with the version alone, it is checked without another edit.
CLAIM = versions.ClaimSpan("claim.999.unclassified", "an installation that has classified nothing is unaffected", "same decisions",
                           PREVIOUS, NAME, stories=("unclassified",))


def throwaway() -> versions.Version:
    base = latest()
    return attrs.evolve(base, rules=attrs.evolve(base.rules, name=NAME, dequeue_snippet_lookup=DEQUEUE_SNIPPETS), adr="ADR-999",
                        title="a dequeue resolves forced snippets through the other lookup",
                        closes="a snippet switched off while the run waits is read otherwise than the ADR wants", consequences=(CHANGE,), claims=(CLAIM,))


def decisions(outcome: dict) -> list[tuple]:
    return [tuple(result.get(key) for key in ("decision", "declared_class", "source", "sent")) for result in outcome["results"]]


def _clear_caches() -> None:
    for cached in (schema_module.schema, schema_module._validator, schema_module._scenario_part):
        cached.cache_clear()


@pytest.fixture
def declared(monkeypatch):
    profiles = tuple(d for d in versions.DECLARATIONS if d.profile_of is not None)
    monkeypatch.setattr(versions, "DECLARATIONS", (*adr_versions(), throwaway(), *profiles))
    _clear_caches()
    yield
    _clear_caches()


def example() -> dict:
    """The example of the version the throwaway was copied from (a snippet switched off while its run waits, so far)."""
    return json.loads((ROOT / "examples" / versions.declared(PREVIOUS).example).read_text())


def test_the_schema_and_the_defaults_follow_it(declared):
    rules = schema_module.schema("scenario")["$defs"]["rules"]
    assert NAME in rules["enum"] and rules["default"] == NAME
    written = json.loads(schema_text((ROOT / "model/schema/scenario.schema.json").read_text()))  # what corpus build writes, read by the harness
    assert written["$defs"]["rules"]["default"] == NAME
    document = {key: value for key, value in example().items() if key != "rules"}
    assert read_scenario(document).rules.name == NAME and latest_of_kind("ceiling") == NAME
    assert next(p for p in prove_command.params if p.name == "rules").default() == NAME
    assert f"| `{NAME}` (default) |" in versions_text((ROOT / "adr/versions.md").read_text())


def test_rules_versions_lists_it_as_the_default(declared):
    listed = CliRunner().invoke(main, ["rules", "--versions"]).stdout
    assert f"{NAME}" in listed and "(default) a dequeue resolves forced snippets through the other lookup" in " ".join(listed.split())


def test_diff_orders_it_and_attributes_its_consequence(declared):
    order = diff_order()
    assert order.index(PREVIOUS) < order.index(NAME) < order.index("nr-llm")
    assert documented_consequence(PREVIOUS, NAME, "dequeue", ["forced_snippets"]) == CHANGE.text
    assert between(NAME, "nr-llm") == sorted({NAME, *between(PREVIOUS, "nr-llm")}, key=order.index)  # the profile departs from a version before it
    assert "claim.179.same-sources" not in {claim.id for claim, _, _ in claims_to_check(PREVIOUS, NAME)}  # its span ends at adr-179


def test_diff_checks_its_claim_over_the_stories_it_declares(declared):
    [(claim, left, right)] = [entry for entry in claims_to_check(PREVIOUS, NAME) if entry[0].id == CLAIM.id]
    assert (claim.adr, claim.pairwise, claim.stories.classified, left, right) == ("ADR-999", True, False, PREVIOUS, NAME)
    assert check_claim(claim, left, right, 40).held
    assert CLAIM.id not in {entry[0].id for entry in claims_to_check("pre-164", "adr-164")}  # a pair outside its span


def test_the_proofs_encode_its_dequeue_and_the_wrong_variants_stay_pinned(declared):
    [run_stories] = [subjects for subjects in SUBJECTS if subjects.domain is RUN_STORIES]
    comparison = decide_alike(semantics_named(PREVIOUS), semantics_named(NAME), run_stories, 2)
    assert comparison.outcome == COUNTEREXAMPLE
    [document] = comparison.documents  # a story the model, too, decides otherwise under the two
    assert decisions(decided(document)) != decisions(decided(document, NAME))
    stores_requested = semantics_named("wrong:suspend-stores-requested-uids")
    assert stores_requested.document_rules == "adr-179"
    assert prove(BY_ID["I011"], stores_requested, 3).outcome == COUNTEREXAMPLE


def test_the_explanation_names_its_dequeue_lookup(declared):
    steps = explain_under(example(), NAME).steps
    dequeue = next(step for step in steps if step.op == "dequeue")
    assert f"snippets {LOOKUP_WORDS[DEQUEUE_SNIPPETS]}" in dequeue.applied[0].says


def test_the_corpus_tells_its_story_under_it(declared):
    ids = {case["id"] for case in lifecycle_cases()}
    assert {f"lifecycle.{NAME}", f"lifecycle.{NAME}.under-{PREVIOUS}", f"lifecycle.{PREVIOUS}.under-latest"} <= ids


def test_diff_from_the_latest_names_exactly_its_consequence_and_z3_agrees_with_the_search(declared, tmp_path):
    arguments = ["diff", "--from", PREVIOUS, "--to", NAME, "--no-claims", "--examples", "150", "--bound", "3", "--json", "--out", str(tmp_path)]
    done = CliRunner().invoke(main, arguments)
    report = json.loads(done.stdout)
    assert done.exit_code == 0 and report["unexpected"] == 0, done.output
    assert report["differences"] and {d["consequence"] for d in report["differences"]} == {CHANGE.text}
    assert {p["subjects"]: p["result"] for p in report["proofs"]}["run story"] == "differ"


def test_no_guide_names_a_rule_version_as_the_default_by_hand():
    """A new version moves the default by itself: a guide that named it would go stale, so guides point to rules --versions."""
    root = Path(__file__).resolve().parent.parent
    guides = [root / "README.md", root / "adr" / "README.md", root / "adr" / "scenario.md", *sorted((root / "docs").glob("*.md"))]
    named = re.compile(r"`(?:pre-164|adr-\d+)`,? \(?(?:the )?default|default(?: version)? (?:is |of )?`(?:pre-164|adr-\d+)`|decided under `adr-\d+`")
    assert [(path.name, match.group(0)) for path in guides for match in named.finditer(path.read_text(encoding="utf-8"))] == []


def test_no_guide_lists_the_versions_adrs_by_hand():
    """A list of the forced-source ADRs would miss the next one: guides say "from ADR-164 on" and point to adr/versions.md."""
    numbers = {d.adr.removeprefix("ADR-") for d in adr_versions() if d.adr.startswith("ADR-")}
    listed = re.compile(r"ADR-\d{3}(?:(?:,| and| or|,? and|,? or) (?:ADR-)?\d{3})+")
    guides = [ROOT / "README.md", *sorted((ROOT / "adr").glob("*.md")), *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "conformance").glob("*.md"))]
    found = [(path.name, match.group(0)) for path in guides for match in listed.finditer(path.read_text(encoding="utf-8"))
             if len(numbers & set(re.findall(r"\d{3}", match.group(0)))) >= 2]
    assert found == []
