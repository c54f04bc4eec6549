"""The seven places the nr-llm profile follows the code rather than the ADR text, each pinned against the ADR version it profiles.

Every expected value is derived in the test from the rule it pins
(adr/versions.md names each difference and where the code makes it).
"""

from __future__ import annotations

import pytest

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.uids import read_request_uids
from gateproof.model.versions import declared
from support import results, scenario, send, skill, snippet, world

CODE = "nr-llm"
#: The ADR version the profile departs from, as declared.
LATEST = declared(CODE).profile_of


def sources_of(result: dict) -> list[str]:
    return [entry["source"] for entry in result["sources"]]


@pytest.mark.rule("C179.2")
def test_the_playground_send_records_dropped_sources_under_the_adr_and_not_in_the_code():
    # Snippet 1 is switched off, so the enabled-only lookup does not deliver it: "deactivated".
    stored = world(snippets=[snippet(1, "publicContent", active=False)])
    assert send(stored, rules=LATEST, forced_snippets=[1])["dropped"] == [{"kind": "snippet", "uid": 1, "reason": "deactivated"}]
    assert "dropped" not in send(stored, rules=CODE, forced_snippets=[1])


@pytest.mark.rule("C144.7")
def test_a_skill_related_twice_is_listed_twice_by_the_adr_and_once_by_the_code():
    stored = world(configuration={"skills": [1, 2, 1]}, skills=[skill(1, "publicContent"), skill(2)])
    step = {"op": "classify", "configuration": "c"}
    assert sources_of(results(stored, step, rules=LATEST)[0]) == ['skill "k1"', 'skill "k2"', 'skill "k1"']
    # An ObjectStorage holds the one object of uid 1 once, at the place it was first attached.
    assert sources_of(results(stored, step, rules=CODE)[0]) == ['skill "k1"', 'skill "k2"']


@pytest.mark.rule("C144.7")
def test_the_copy_the_code_drops_can_change_which_source_a_tie_names():
    # k1, k2, k1 all editorContent: the later source wins a tie (C144.9), so the ADR names k1 (third entry).
    stored = world(zone="local", configuration={"skills": [1, 2, 1]}, skills=[skill(1, "editorContent"), skill(2, "editorContent")])
    assert send(stored, rules=LATEST)["source"] == 'skill "k1"'
    assert send(stored, rules=CODE)["source"] == 'skill "k2"'


@pytest.mark.rule("C164.6")
def test_a_float_uid_beyond_64_bits_saturates_under_the_adr_and_wraps_in_the_code():
    big = 1.8446744073709556e19  # 2**64 + 4096, the nearest float to it
    assert int(big) == 2**64 + 4096
    stored = world(snippets=[snippet(4096, "secretAdjacent")])
    # The ADR saturates at 2**63 - 1, which names no snippet: nothing declared, and the uid reported gone.
    adr = send(stored, rules=LATEST, forced_snippets=[big])
    assert adr["decision"] == "undeclared" and adr["dropped"] == [{"kind": "snippet", "uid": 2**63 - 1, "reason": "gone"}]
    # (int) of the float wraps modulo 2**64 to 4096, which names the secret snippet: externalGlobal refuses it.
    code = send(stored, rules=CODE, forced_snippets=[big])
    assert code["decision"] == "refused" and code["source"] == 'snippet "s4096"'


@pytest.mark.rule("C164.6")
def test_an_integer_uid_beyond_64_bits_is_a_float_to_the_code_while_a_numeric_string_saturates_in_both():
    stored = world(snippets=[snippet(4096, "secretAdjacent")])
    # json_decode makes the integer 2**64 + 4096 the float 1.8446744073709556e19, which (int) wraps to 4096.
    assert float(2**64 + 4096) == 1.8446744073709556e19
    assert send(stored, rules=CODE, forced_snippets=[2**64 + 4096])["source"] == 'snippet "s4096"'
    assert send(stored, rules=LATEST, forced_snippets=[2**64 + 4096])["decision"] == "undeclared"
    # A numeric string is cast by (int) directly and saturates at 2**63 - 1, a uid no record holds, under both.
    for version in (LATEST, CODE):
        assert send(stored, rules=version, forced_snippets=["18446744073709555712"])["decision"] == "undeclared"
    assert send(stored, rules=LATEST, forced_snippets=["1e30"])["dropped"] == [{"kind": "snippet", "uid": 2**63 - 1, "reason": "gone"}]
    # "1e400" is beyond any float: the ADR saturates it like "1e30", while PHP casts its infinite float to 0, no uid at all.
    # No record holds 2**63 - 1 and the code records no playground drops, so only the uids read show the difference.
    assert send(stored, rules=LATEST, forced_snippets=["1e400"])["dropped"] == [{"kind": "snippet", "uid": 2**63 - 1, "reason": "gone"}]
    assert read_request_uids(["1e400", "4096"], numbers_wrap=False) == (2**63 - 1, 4096)
    assert read_request_uids(["1e400", "4096"], numbers_wrap=True) == (4096,)


@pytest.mark.rule("C144.15")
def test_a_refusal_audits_the_callers_user_under_the_adr_and_user_0_in_the_code():
    stored = world(snippets=[snippet(1, "secretAdjacent")])
    assert send(stored, rules=LATEST, forced_snippets=[1], be_user=3)["audit"][0]["be_user"] == 3
    assert send(stored, rules=CODE, forced_snippets=[1], be_user=3)["audit"][0]["be_user"] == 0


@pytest.mark.rule("C144.15")
def test_a_runs_refusal_audits_the_run_rows_user_under_the_adr_and_user_0_in_the_code():
    stored = world(snippets=[snippet(1, "secretAdjacent")])
    steps = ({"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1], "uid": 9, "be_user": 5}, {"op": "dequeue", "run": "r"})
    adr, code = (results(stored, *steps, rules=version)[1]["audit"][0] for version in (LATEST, CODE))
    assert (adr["be_user"], adr["agentrun_uid"]) == (5, 9)
    assert (code["be_user"], code["agentrun_uid"]) == (0, 9)


@pytest.mark.rule("C165.2")
def test_a_stored_uid_list_written_as_an_object_yields_nothing_under_the_adr_and_its_values_in_the_code():
    stored = world(snippets=[snippet(1, "secretAdjacent")])
    steps = (
        {"op": "queue", "run": "r", "configuration": "c"},
        {"op": "dequeue", "run": "r"},
        {"op": "suspend", "run": "r", "state": {"forced_snippet_uids": {"a": 1}}},
        {"op": "resume", "run": "r"},
    )
    adr = results(stored, *steps, rules=LATEST)[3]
    assert adr["decision"] == "undeclared" and adr["forced_snippets"] == []
    code = results(stored, *steps, rules=CODE)[3]
    assert code["decision"] == "refused" and code["forced_snippets"] == [1] and code["source"] == 'snippet "s1"'


def tie_world(collation=None) -> dict:
    # Two snippets of one tag, equal sorting and class, names differing in case: "B" < "a" by code point, "a" < "B" folded.
    stored = world(zone="local", configuration={"snippet_tags": "t"}, snippets=[
        snippet(1, "editorContent", identifier="first", name="a", tags="t"),
        snippet(2, "editorContent", identifier="second", name="B", tags="t"),
    ])
    if collation is not None:
        stored["collation"] = collation
    return stored


@pytest.mark.rule("C144.19", "C144.4")
@pytest.mark.parametrize("version", [LATEST, CODE])
def test_the_collation_orders_names_that_differ_in_case_and_so_decides_the_tie(version):
    # The later source wins the tie (C144.9): the one ordered last is named.
    assert sources_of(results(tie_world(), {"op": "classify", "configuration": "c"}, rules=version)[0]) == ['snippet "second"', 'snippet "first"']
    assert send(tie_world(), rules=version)["source"] == 'snippet "first"'
    assert send(tie_world("case-sensitive"), rules=version)["source"] == 'snippet "first"'
    assert send(tie_world("case-insensitive"), rules=version)["source"] == 'snippet "second"'


def fallback_world(collation=None) -> dict:
    # c is on a local provider with a fallback entry "Legal", lowercased to "legal"; the stored identifier keeps its capital.
    legal = {"identifier": "Legal", "model": "m"}
    stored = world(zone="local", configuration={"fallbacks": ["Legal"]}, extra_configurations=[legal], snippets=[snippet(1, "secretAdjacent")])
    if collation is not None:
        stored["collation"] = collation
    return stored


@pytest.mark.rule("C144.19", "C094.10")
@pytest.mark.parametrize("version", [LATEST, CODE])
def test_the_collation_decides_whether_a_lowercased_fallback_entry_finds_a_capitalised_identifier(version):
    # Not found, the entry adds externalGlobal, which refuses secretAdjacent; found, it adds its own local zone.
    assert send(fallback_world(), rules=version, forced_snippets=[1])["zone"] == "externalGlobal"
    assert send(fallback_world("case-sensitive"), rules=version, forced_snippets=[1])["zone"] == "externalGlobal"
    found = send(fallback_world("case-insensitive"), rules=version, forced_snippets=[1])
    assert (found["zone"], found["decision"]) == ("local", "permitted")


@pytest.mark.rule("C144.19", "S001.1")
def test_a_collation_the_schema_does_not_know_is_refused_naming_the_field():
    document = scenario({**world(), "collation": "utf8mb4_general_ci"}, {"op": "classify", "configuration": "c"})
    with pytest.raises(ScenarioError) as refused:
        read_scenario(document)
    assert "$.world.collation" in str(refused.value)


def departure_scenarios() -> dict[str, dict]:
    """One nr-llm scenario per departure, for holding nr-llm's own code to the profile (tests/test_nrllm_implementation.py)."""
    secret = world(snippets=[snippet(1, "secretAdjacent"), snippet(4096, "secretAdjacent")])
    story = (
        {"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1], "uid": 9, "be_user": 5},
        {"op": "dequeue", "run": "r"},
        {"op": "suspend", "run": "r", "state": {"forced_snippet_uids": {"a": 1}, "forced_skill_uids": {}}},
        {"op": "update", "kind": "provider", "identifier": "p", "set": {"zone": "local"}},
        {"op": "resume", "run": "r", "with_input": False},
    )
    return {
        "C179.2": scenario(world(snippets=[snippet(1, "publicContent", active=False)]), {"op": "send", "configuration": "c", "forced_snippets": [1]}, rules=CODE),
        "C144.7": scenario(world(zone="local", configuration={"skills": [1, 2, 1]}, skills=[skill(1, "editorContent"), skill(2, "editorContent")]),
                           {"op": "classify", "configuration": "c"}, {"op": "send", "configuration": "c"}, rules=CODE),
        "C164.6": scenario(secret, *({"op": "send", "configuration": "c", "forced_snippets": [uid]} for uid in (1.8446744073709556e19, "1e30", "1e400", 2**63, 2**64 - 1)), rules=CODE),
        "C144.15": scenario(secret, {"op": "send", "configuration": "c", "forced_snippets": [1], "be_user": 3}, rules=CODE),
        "C165.2": scenario(secret, *story, rules=CODE),
        "C144.19 tie": scenario(tie_world("case-insensitive"), {"op": "classify", "configuration": "c"}, {"op": "send", "configuration": "c"}, rules=CODE),
        "C144.19 fallback": scenario(fallback_world("case-insensitive"), {"op": "send", "configuration": "c", "forced_snippets": [1]}, rules=CODE),
        "C175.5": scenario(secret, *queued_runs_of(-5, 0, -(2**63), -(2**63) - 2048), rules=CODE),
    }


def queued_runs_of(*users: int) -> list[dict]:
    """For each user, a run of that user queued forcing the secret snippet 1, then dequeued."""
    return [step for n, user in enumerate(users) for step in (
        {"op": "queue", "run": f"r{n}", "configuration": "c", "forced_snippets": [1], "be_user": user}, {"op": "dequeue", "run": f"r{n}"})]


@pytest.mark.rule("C175.5")
def test_a_queued_run_of_a_negative_user_fails_in_the_code_and_is_gated_under_the_adr():
    # The code rebuilds the payload's ToolOptions with the row's user, and they refuse one below 0: the run is failed.
    # Past -(2**63) the row's user is a float to json_decode, no user at all, and the run is gated like any other.
    document = scenario(world(snippets=[snippet(1, "secretAdjacent")]), *queued_runs_of(-5, 0, -(2**63), -(2**63) - 2048), rules=CODE)
    dequeues = run_scenario(read_scenario(document))["results"][1::2]
    assert [result.get("ended", result.get("decision")) for result in dequeues] == ["failed", "refused", "failed", "refused"]
    assert dequeues[0] == {"op": "dequeue", "run": "r0", "ended": "failed"}
    latest = run_scenario(read_scenario({**document, "rules": LATEST}))["results"][1::2]
    assert [result.get("ended", result.get("decision")) for result in latest] == ["refused"] * 4


@pytest.mark.parametrize("rule", list(departure_scenarios()))
def test_each_departure_scenario_reads_and_shows_its_departure_under_the_profile(rule):
    # Held against the latest ADR version, the same story is decided otherwise (the collation is no version: it shows in the world).
    document = departure_scenarios()[rule]
    code = run_scenario(read_scenario(document))["results"]
    latest = run_scenario(read_scenario({**document, "rules": LATEST}))["results"]
    if rule.startswith("C144.19"):
        case_sensitive = {**document, "world": {**document["world"], "collation": "case-sensitive"}}
        latest = run_scenario(read_scenario(case_sensitive))["results"]
    assert code != latest
