"""The rule versions: each declared once, its predecessor plus the switches its ADR changed, and every derived file as declared."""

from pathlib import Path

import attrs

import pytest

from gateproof.conformance.corpus.declared import changed_switches, derived_files
from gateproof.conformance.diff.claims import CHECKS, STORIES, UnknownClaim, declared_claims
from gateproof.conformance.diff.search import diff_order
from gateproof.conformance.harness.protocol import CEILING_DEFAULT
from gateproof.model.scenario.schema import schema
from gateproof.model.versions import ADR_SEQUENCE, DECLARATIONS, DEFAULT_VERSION, VERSIONS, adr_versions, declared, latest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
#: The switches in which the code departs from the ADR text (adr/versions.md, The nr-llm profile): no ADR version takes one.
DEPARTURES = ("attached_skills_once", "request_numbers_wrap", "suspended_object_values", "queued_numbers_decoded", "negative_user_fails_dequeue")


@pytest.mark.parametrize("version", [d.name for d in adr_versions()[1:]])
def test_each_adr_version_changes_a_switch_and_says_what_it_closes_and_shows_it(version):
    declaration = declared(version)
    assert changed_switches(declaration) and declaration.closes and declaration.consequences
    assert declaration.example is not None and (EXAMPLES / declaration.example).is_file() and declaration.example_rules


@pytest.mark.parametrize("version", ADR_SEQUENCE)
def test_no_adr_version_takes_a_departure_of_the_code(version):
    rules = VERSIONS[version]
    assert rules.audits_caller_user and not any(getattr(rules, switch) for switch in DEPARTURES)


def test_the_nr_llm_profile_departs_from_the_version_it_profiles_exactly_where_the_code_does():
    assert set(changed_switches(declared("nr-llm"))) == {"playground_records_dropped", "audits_caller_user", *DEPARTURES}


def test_the_latest_adr_is_the_default_everywhere_and_every_version_is_named_by_itself():
    assert DEFAULT_VERSION == latest().name == CEILING_DEFAULT == schema("scenario")["$defs"]["rules"]["default"]
    assert all(rules.name == name for name, rules in VERSIONS.items())
    assert list(VERSIONS) == [d.name for d in DECLARATIONS] == diff_order() == list(schema("scenario")["$defs"]["rules"]["enum"])


def test_every_declared_claim_names_a_known_check_and_its_span_is_ordered():
    spans = [span for declaration in DECLARATIONS for span in declaration.claims]
    assert spans and all(span.check in CHECKS and set(span.stories) <= set(STORIES) for span in spans)
    assert len({span.id for span in spans}) == len(spans)
    for claim in declared_claims():
        assert claim.holds_over(claim.span.holds_from) and (claim.span.holds_until is None or claim.holds_over(claim.span.holds_until))


@pytest.mark.parametrize("path", ["model/schema/scenario.schema.json", "adr/versions.md"])
def test_each_file_derived_from_the_declarations_is_as_they_give_it(path):
    """``gateproof corpus build`` writes them; a declaration changed without it fails here."""
    assert (ROOT / path).read_text(encoding="utf-8") == derived_files(lambda name: (ROOT / name).read_text(encoding="utf-8"))[path]


@pytest.mark.parametrize(("field", "value", "said"), [("check", "same everything", "check 'same everything' is none of"),
                                                      ("stories", ("unclassified", "sunny"), "stories 'sunny' are none of")])
def test_a_claim_that_names_no_known_check_or_story_is_refused_by_its_id(monkeypatch, field, value, said):
    from gateproof.model import versions
    changed = attrs.evolve(versions.DECLARATIONS[1], claims=(attrs.evolve(versions.DECLARATIONS[1].claims[0], **{field: value}),))
    monkeypatch.setattr(versions, "DECLARATIONS", (versions.DECLARATIONS[0], changed, *versions.DECLARATIONS[2:]))
    with pytest.raises(UnknownClaim, match=f"^claim.164.unclassified: {said}"):
        declared_claims()
