"""Section M: the two uid lookups, and the name-ordered one resume used before ADR-175."""

import pytest

from gateproof.model.lookups import lookup_all_by_name, lookup_enabled, lookup_existing
from gateproof.model.records import Skill, Snippet

SNIPPETS = {s.uid: s for s in (Snippet(1), Snippet(2, active=False), Snippet(3, deleted=True), Snippet(4, hidden=True))}
SKILLS = {s.uid: s for s in (Skill(1, "zulu"), Skill(2, "alpha", enabled=False), Skill(3, "mike", deleted=True))}


def uids(records):
    return [r.uid for r in records]


@pytest.mark.rule("C166.1", "C175.1")
def test_the_enabled_lookup_keeps_order_and_duplicates_and_skips_unknown_deleted_and_switched_off():
    assert uids(lookup_enabled(SNIPPETS, [4, 9, 1, 2, 3, 4])) == [4, 1, 4]
    assert uids(lookup_enabled(SKILLS, [2, 1, 1])) == [1, 1]
    assert lookup_enabled(SNIPPETS, []) == ()


@pytest.mark.rule("C166.2", "C175.1")
def test_the_existing_lookup_drops_only_the_switch():
    assert uids(lookup_existing(SNIPPETS, [4, 2, 9, 3, 1, 2])) == [4, 2, 1, 2]
    assert uids(lookup_existing(SKILLS, [2, 1])) == [2, 1]


@pytest.mark.rule("C165.4")
def test_a_deleted_record_resolves_through_neither_lookup():
    assert lookup_enabled(SNIPPETS, [3]) == lookup_existing(SNIPPETS, [3]) == lookup_all_by_name(SKILLS, [3]) == ()


@pytest.mark.rule("C165.6")
def test_the_old_skill_resume_lookup_ignores_the_switch_and_returns_name_order_once_each():
    assert uids(lookup_all_by_name(SKILLS, [1, 2, 1, 3, 9])) == [2, 1]
