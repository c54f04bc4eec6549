"""A record copied with changes by position is the record attrs' evolve makes, lookups and all."""

import pytest
from attrs import evolve

from gateproof.model.lifecycle import Run
from gateproof.model.lookups import CASE_SENSITIVE
from gateproof.model.records import Configuration, Provider, Skill, Snippet, World, replaced
from gateproof.model.tables import Table

WORLD = World(CASE_SENSITIVE, providers=(Provider("p", "local"),), configurations=(Configuration("c", "m"),), snippets=(Snippet(1, "one"), Snippet(2)),
              skills=(Skill(3, "s"),), enforcement="observe")


@pytest.mark.parametrize("record, changes", [
    (Snippet(1, "x", tags="ops"), {"deleted": True}),
    (Snippet(1, "x"), {"data_class": "sourceCode", "hidden": True, "sorting": 4}),
    (Skill(2, "k"), {"enabled": False}),
    (Provider("p"), {"zone": "externalEu"}),
    (Configuration("c", "m", fallbacks=("d",)), {"fallbacks": (), "active": False, "model": None}),
    (Run("c", (1,), (), False, uid=3, be_user=0), {"state": "running", "ended": "", "uid": 7}),
    (WORLD, {"snippets": (Snippet(5, "five"),), "enforcement": "enforce"}),
    (WORLD, {}),
])
def test_a_record_replaced_equals_the_record_evolved(record, changes):
    copy = replaced(record, **changes)
    assert copy == evolve(record, **changes) and type(copy) is type(record)
    assert all(_stored(getattr(copy, name)) == value for name, value in changes.items())


def _stored(value):
    """A world's table as the tuple of its records; any other field as it is."""
    return tuple(value) if isinstance(value, Table) else value


def test_a_world_replaced_builds_its_lookups_from_its_new_tables():
    world = replaced(WORLD, snippets=(Snippet(5, "five"),))
    assert dict(world.snippet_index.items()) == {5: Snippet(5, "five")} and dict(world.skill_index.items()) == {3: WORLD.skills.lookup[3]}
    assert world.skills is WORLD.skills and 1 not in world.snippet_index and world.snippet_index[5].identifier == "five"


def test_a_change_to_a_field_the_record_does_not_have_is_refused():
    with pytest.raises(KeyError, match="colour"):
        replaced(Snippet(1), colour="red")


def test_a_record_of_one_field_is_replaced_as_well():
    from attrs import frozen

    @frozen
    class Named:
        name: str

    assert replaced(Named("abc"), name="d") == Named("d") and replaced(Named("abc")) == Named("abc")
