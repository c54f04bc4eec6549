"""Example tests for the ladder, the zones, the switch and zone resolution (ADR-094/113/115/149)."""

import pytest

from gateproof.model.enforcement import MISSING, is_enforcing, mode_label
from gateproof.model.ladder import DataClass, parse_data_class
from gateproof.model.lattice import is_at_most, least_trusted, permits
from gateproof.model.resolution import normalise_fallback_chain
from gateproof.model.zones import CEILINGS, TrustZone, parse_zone
from support import send, world

LADDER = ["publicContent", "editorContent", "sourceCode", "internalConfiguration", "systemDiagnostics", "secretAdjacent"]


@pytest.mark.rule("C094.1")
def test_six_classes_ranked_in_ladder_order_and_at_most_is_reflexive():
    assert [c.value for c in DataClass] == LADDER
    assert [c.rank for c in DataClass] == list(range(6))
    for a in DataClass:
        for b in DataClass:
            assert is_at_most(a.rank, b.rank) == (LADDER.index(a.value) <= LADDER.index(b.value))


@pytest.mark.rule("C094.2", "C144.2")
@pytest.mark.parametrize("raw", ["", "publiccontent", "PublicContent", " sourceCode", "secret", 0, None, ["sourceCode"]])
def test_anything_but_an_exact_class_string_is_undeclared(raw):
    assert parse_data_class(raw) is None


@pytest.mark.rule("C094.2")
def test_exact_class_strings_declare_their_class():
    assert [parse_data_class(v) for v in LADDER] == list(DataClass)


@pytest.mark.rule("C094.3")
def test_four_zones_ranked_by_trust():
    assert [(z.value, z.rank) for z in TrustZone] == [("local", 0), ("privateHosted", 1), ("externalEu", 2), ("externalGlobal", 3)]


@pytest.mark.rule("C094.4")
def test_each_zone_has_its_fixed_ceiling():
    assert {z.value: c.value for z, c in CEILINGS.items()} == {
        "local": "secretAdjacent",
        "privateHosted": "systemDiagnostics",
        "externalEu": "internalConfiguration",
        "externalGlobal": "editorContent",
    }


@pytest.mark.rule("C094.5")
@pytest.mark.parametrize("zone", list(TrustZone))
@pytest.mark.parametrize("cls", list(DataClass))
def test_a_zone_permits_exactly_up_to_its_ceiling(zone, cls):
    assert permits(zone, cls) == (LADDER.index(cls.value) <= LADDER.index(CEILINGS[zone].value))


@pytest.mark.rule("C094.5")
def test_external_global_accepts_only_public_and_editor_content():
    assert [c.value for c in DataClass if permits(TrustZone.EXTERNAL_GLOBAL, c)] == ["publicContent", "editorContent"]


@pytest.mark.rule("C094.6")
def test_least_trusted_picks_the_worse_zone_and_keeps_the_first_on_a_tie():
    assert least_trusted(TrustZone.LOCAL, TrustZone.EXTERNAL_EU) is TrustZone.EXTERNAL_EU
    assert least_trusted(TrustZone.EXTERNAL_EU, TrustZone.LOCAL) is TrustZone.EXTERNAL_EU
    assert least_trusted(TrustZone.PRIVATE_HOSTED, TrustZone.PRIVATE_HOSTED) is TrustZone.PRIVATE_HOSTED


@pytest.mark.rule("C094.7")
@pytest.mark.parametrize("raw", ["", "Local", "onPrem", None, 3])
def test_an_unknown_or_empty_stored_zone_is_external_global(raw):
    assert parse_zone(raw) is TrustZone.EXTERNAL_GLOBAL


@pytest.mark.rule("C094.7")
def test_a_model_whose_provider_is_missing_reads_as_external_global():
    w = world(zone="local", configuration={"system_prompt": "x", "system_prompt_class": "sourceCode"})
    w["models"][0]["provider"] = "nobody"
    assert send(w)["zone"] == "externalGlobal"


@pytest.mark.rule("C094.8")
def test_a_configuration_without_a_model_relation_starts_at_external_global():
    w = world(zone="local", configuration={"model": None, "system_prompt": "x", "system_prompt_class": "sourceCode"})
    result = send(w)
    assert (result["zone"], result["decision"]) == ("externalGlobal", "refused")


@pytest.mark.rule("C094.8")
def test_the_primary_zone_comes_from_the_configurations_model_relation():
    w = world(zone="local", configuration={"system_prompt": "x", "system_prompt_class": "secretAdjacent"})
    assert (send(w)["zone"], send(w)["decision"]) == ("local", "permitted")


@pytest.mark.rule("C094.9")
def test_the_fallback_chain_is_normalised():
    assert normalise_fallback_chain((" Backup ", "", 7, None, "backup", "other", "OTHER ")) == ("backup", "other")


@pytest.mark.rule("C094.10")
def test_a_fallback_drags_the_zone_to_its_own_provider():
    w = world(
        zone="local",
        configuration={"fallbacks": ["cloud"], "system_prompt": "x", "system_prompt_class": "sourceCode"},
        extra_providers=[{"identifier": "cloud-p", "zone": "externalGlobal"}],
        extra_configurations=[{"identifier": "cloud", "model": "m-cloud-p"}],
    )
    result = send(w)
    assert (result["zone"], result["decision"]) == ("externalGlobal", "refused")
    assert result["audit"][0]["provider"] == "p"  # the audit names the primary provider


@pytest.mark.rule("C094.10")
def test_an_unresolvable_fallback_adds_external_global_and_an_inactive_one_still_counts():
    base = {"system_prompt": "x", "system_prompt_class": "systemDiagnostics"}
    unknown = world(zone="local", configuration={**base, "fallbacks": ["nowhere"]})
    assert send(unknown)["zone"] == "externalGlobal"
    inactive = world(
        zone="local",
        configuration={**base, "fallbacks": ["eu"]},
        extra_providers=[{"identifier": "eu-p", "zone": "externalEu"}],
        extra_configurations=[{"identifier": "eu", "model": "m-eu-p", "active": False}],
    )
    assert send(inactive)["zone"] == "externalEu"
    inactive["configurations"][1]["deleted"] = True
    assert send(inactive)["zone"] == "externalGlobal"


@pytest.mark.rule("C094.10")
def test_only_one_level_of_fallbacks_is_read():
    w = world(
        zone="local",
        configuration={"fallbacks": ["hop"], "system_prompt": "x", "system_prompt_class": "secretAdjacent"},
        extra_configurations=[{"identifier": "hop", "model": "m", "fallbacks": ["nowhere"]}],
    )
    assert send(w)["zone"] == "local"


@pytest.mark.rule("C149.1", "C149.2")
def test_a_fallback_never_uses_the_serving_model():
    w = world(
        zone="externalGlobal",
        configuration={"selection_mode": "criteria", "model": None, "fallbacks": ["crit"], "system_prompt": "x", "system_prompt_class": "secretAdjacent"},
        extra_providers=[{"identifier": "home", "zone": "local"}],
        extra_configurations=[{"identifier": "crit", "selection_mode": "criteria", "model": None}],
    )
    result = send(w, serving_model="m-home")
    assert [result["zone"]] == ["externalGlobal"]  # the serving model is local, the relation-less fallback is not


@pytest.mark.rule("C149.2")
def test_only_a_criteria_configuration_is_judged_by_the_serving_model():
    w = world(
        zone="externalGlobal",
        configuration={"system_prompt": "x", "system_prompt_class": "secretAdjacent"},
        extra_providers=[{"identifier": "home", "zone": "local"}],
    )
    assert send(w, serving_model="m-home")["zone"] == "externalGlobal"
    w["configurations"][0]["selection_mode"] = "criteria"
    assert send(w, serving_model="m-home")["zone"] == "local"
    assert send(w, serving_model=None)["zone"] == "externalGlobal"


@pytest.mark.rule("C113.1")
@pytest.mark.parametrize("raw", ["observe", "OBSERVE ", " observe", "\tObserve\n"])
def test_only_a_literal_observe_observes(raw):
    assert is_enforcing(raw) is False


@pytest.mark.rule("C113.1")
@pytest.mark.parametrize("raw", ["enforce", "observ", "", False, 0, ["observe"], None, "\u00a0observe", {"observe": True}])
def test_every_other_value_enforces(raw):
    assert is_enforcing(raw) is True


@pytest.mark.rule("C115.1")
def test_a_switch_never_stored_enforces():
    assert is_enforcing(MISSING) is True
    w = world(configuration={"system_prompt": "x", "system_prompt_class": "secretAdjacent"})
    assert send(w)["decision"] == "refused"


@pytest.mark.rule("C113.2")
def test_a_typo_is_shown_as_enforce():
    assert mode_label(is_enforcing("observ")) == "enforce"
    assert mode_label(is_enforcing(" Observe ")) == "observe"
