"""The rule versions: each its predecessor plus the switches its ADR changed."""

import attrs
import pytest

from gateproof.model.versions import ADR_SEQUENCE, DEFAULT_VERSION, VERSIONS, Rules

#: The switches each version changed, relative to its predecessor.
CHANGED = {
    "adr-164": {"gates_forced_sources"},
    "adr-165": {"regates_on_resume"},
    "adr-166": {"resume_snippet_lookup"},
    "adr-175": {"composition_skill_lookup", "resume_skill_lookup"},
    "adr-179": {"records_dropped", "playground_records_dropped"},
}


def switches(rules: Rules) -> dict:
    return {k: v for k, v in attrs.asdict(rules).items() if k != "name"}


def changed(older: str, newer: str) -> set:
    a, b = switches(VERSIONS[older]), switches(VERSIONS[newer])
    return {k for k in a if a[k] != b[k]}


@pytest.mark.parametrize("older, newer", list(zip(ADR_SEQUENCE, ADR_SEQUENCE[1:])))
def test_each_version_changes_only_the_switches_its_adr_changed(older, newer):
    assert changed(older, newer) == CHANGED[newer]


def test_the_nr_llm_profile_departs_from_179_exactly_where_the_code_does():
    assert changed("adr-179", "nr-llm") == {
        "playground_records_dropped", "attached_skills_once", "request_numbers_wrap", "audits_caller_user", "suspended_object_values",
        "queued_numbers_decoded", "negative_user_fails_dequeue",
    }


@pytest.mark.parametrize("version", ADR_SEQUENCE)
def test_no_adr_version_takes_a_departure_of_the_code(version):
    rules = VERSIONS[version]
    assert rules.audits_caller_user and not (rules.attached_skills_once or rules.request_numbers_wrap or rules.suspended_object_values
                                             or rules.queued_numbers_decoded or rules.negative_user_fails_dequeue)


def test_the_latest_adr_is_the_default_and_every_version_is_named_by_itself():
    assert DEFAULT_VERSION == "adr-179"
    assert all(rules.name == name for name, rules in VERSIONS.items())
    assert list(VERSIONS) == list(ADR_SEQUENCE) + ["nr-llm"]
