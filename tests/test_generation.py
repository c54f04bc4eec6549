"""The campaign's seeded generators: valid, reproducible, and reaching the corners the rules turn on; and the reducer."""

from collections import Counter
from itertools import islice

import orjson
import pytest
from hypothesis import given, settings, strategies as st

from gateproof.conformance.generation import scenarios
from gateproof.conformance.generation.ceiling import SCENARIOS_A_WORLD
from gateproof.conformance.generation.reducer import reduce, size
from gateproof.conformance.harness.shared_worlds import WorldsReadOnce
from gateproof.conformance.generation.strategy import is_portable
from gateproof.conformance.harness.campaign import CampaignSettings
from gateproof.conformance.harness.documents import dumps
from gateproof.conformance.harness.protocol import scenario_rules
from gateproof.model.gateway.arguments import REASON_CODES
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.document import RepeatedKeys
from gateproof.model.scenario.read import read_valid_scenario
from gateproof.model.scenario.schema import validate
from gateproof.model.versions import VERSIONS, default_version

TARGETS = [("ceiling", v) for v in sorted(VERSIONS)] + [("gateway", v) for v in sorted(GATEWAY_VERSIONS)]
#: The most scenarios of one target a default campaign draws.
DEFAULT_SHARE = -(-CampaignSettings().examples // len(TARGETS))


def drawn(kind: str, version: str, count: int = 400, seed: int = 0) -> list[dict]:
    return list(islice(scenarios(kind, version, seed), count))


@pytest.mark.parametrize("kind, version", TARGETS)
def test_every_generated_scenario_is_valid_portable_and_of_its_version(kind, version):
    # A campaign reads what it generates without the schema check: every document drawn must pass it,
    # all that a default campaign draws (its examples shared among the targets), and some of another seed.
    for document in drawn(kind, version, DEFAULT_SHARE) + drawn(kind, version, 300, seed=1):
        assert scenario_rules(document) == version and document.get("kind", "ceiling") == kind
        assert is_portable(document)
        validate("scenario", document)
        run_scenario(read_scenario(orjson.loads(orjson.dumps(document))))  # raises on an invalid document


def test_a_default_version_is_sometimes_left_for_the_reader_to_supply():
    for kind, default in (("ceiling", default_version()), ("gateway", "lab-001")):
        assert any("rules" not in d for d in drawn(kind, default)) and all("rules" in d for d in drawn(kind, "nr-llm" if kind == "ceiling" else "lab-001+next"))


def test_the_same_seed_gives_the_same_stream_and_another_seed_another():
    assert drawn("gateway", "lab-001", 50) == drawn("gateway", "lab-001", 50)
    assert drawn("gateway", "lab-001", 50) != drawn("gateway", "lab-001", 50, seed=1)
    assert drawn("ceiling", "adr-179", 50) != drawn("ceiling", "adr-175", 50)


@pytest.mark.parametrize("kind, version", TARGETS)
def test_a_world_read_once_for_the_scenarios_sharing_it_reads_each_as_reading_it_alone(kind, version):
    """What a campaign reads (each shared world once) is what reading every document on its own gives, and reading changes no document."""
    documents = drawn(kind, version, 600)
    before = orjson.dumps(documents)
    read = WorldsReadOnce()
    for document in documents:
        shared = read(document)
        assert shared == read_valid_scenario(document)
        assert run_scenario(shared) == run_scenario(read_scenario(document))
    assert orjson.dumps(documents) == before


def test_the_ceiling_generator_draws_several_scenarios_on_each_world_and_the_gateway_one():
    for kind, version, together in (("ceiling", "adr-179", SCENARIOS_A_WORLD), ("gateway", "lab-001", 1)):
        documents = drawn(kind, version, 30 * together)
        worlds = [documents[start]["world"] for start in range(0, len(documents), together)]
        assert all(documents[n]["world"] is worlds[n // together] for n in range(len(documents)))
        assert len({id(world) for world in worlds}) == len(worlds) == 30
        assert len({orjson.dumps(document["steps"]) for document in documents}) > 25 * together  # each scenario's steps its own


def outcomes(kind: str, version: str, count: int = 1500) -> list[tuple[dict, dict]]:
    return [(d, run_scenario(read_scenario(d))) for d in drawn(kind, version, count)]


def test_gateway_scenarios_reach_every_reason_of_their_version():
    for version, absent in (("lab-001", {"rate_limited", "idempotency_conflict", "approval_required", "approval_expired"}), ("lab-001+next", set())):
        reasons = Counter(r["reason"] for _, o in outcomes("gateway", version) for r in o["results"] if r["op"] == "call")
        assert set(REASON_CODES) - absent <= set(reasons), set(REASON_CODES) - set(reasons)


def test_gateway_scenarios_use_every_check_past_the_lab():
    steps = [s for d in drawn("gateway", "lab-001+next", 1000) for s in d["steps"]]
    worlds = [d["world"] for d in drawn("gateway", "lab-001+next", 1000)]
    assert any("before_write" in s for s in steps) and any("idempotency_key" in s for s in steps)
    assert any(s["op"] == "advance_clock" for s in steps)
    assert any(w.get("rate_limit") for w in worlds) and any(w.get("approvals") for w in worlds)
    # Approvals expire one second either side of the clock: the boundary of G002.6.
    offsets = {a["expires_at"] - w.get("clock", 0) for w in worlds if "clock" in w for a in w.get("approvals", ())}
    assert {-1, 0, 1} <= offsets
    # Supervisors of both tenants, and sessions of every role the rules read.
    sessions = [s for w in worlds for s in w["sessions"]]
    assert {(s["tenant"], "supervisor" in s.get("roles", ())) for s in sessions} >= {("acme", True), ("globex", True), ("acme", False)}


def test_ceiling_scenarios_reach_the_readings_php_and_unicode_part_on():
    documents = drawn("ceiling", "adr-179", 1500)
    text = orjson.dumps(documents).decode()
    # orjson writes non-ASCII characters as they are and control characters escaped.
    for corner in ("\u00a0", "\u212a", "\u0130", "\uff26", "\\u000b", "\\u0000", "\\u001c"):
        assert corner in text, corner
    steps = [s for d in documents for s in d["steps"]]
    forced = [u for s in steps if s["op"] == "send" for u in s["forced_snippets"] + s["forced_skills"]]
    assert {" 3", "1.9", "5e0", "9223372036854775808"} <= {u for u in forced if isinstance(u, str)}
    states = [s["state"] for s in steps if s["op"] == "suspend" and "state" in s]
    assert {} in states and any(isinstance(v, list) and any(isinstance(e, str) for e in v) for st in states for v in st.values())
    assert any(s["op"] == "queue" and s.get("uid", 0) > 0 for s in steps) and any(s["op"] == "queue" and isinstance(s.get("be_user"), int) and s["be_user"] > 0 for s in steps)
    assert any(s["op"] == "delete" and s["kind"] == "configuration" for s in steps)
    decisions = Counter(r.get("decision") for _, o in outcomes("ceiling", "adr-179") for r in o["results"] if "decision" in r)
    assert {"permitted", "refused", "observed", "undeclared", "dry_run"} <= set(decisions), decisions


def test_the_reducer_keeps_the_failure_and_ends_smaller():
    document = drawn("gateway", "lab-001", 1)[0]
    document["steps"].append({"op": "call", "session": document["world"]["sessions"][0]["id"], "tool": "read_case", "arguments": {"case_id": "MARK"}})

    def still_fails(candidate):
        try:
            read_scenario(candidate)
        except ScenarioError:
            return False
        return any(s.get("arguments") == {"case_id": "MARK"} for s in candidate["steps"])

    smallest = reduce(document, still_fails)
    assert still_fails(smallest) and size(smallest) < size(document)
    [step] = smallest["steps"]  # the one step the condition needs, everything else deleted or simplified
    assert step["arguments"] == {"case_id": "MARK"} and step["tool"] == "read_case"  # a name is kept, never emptied


def test_the_reducer_keeps_names_readable_and_shortens_text():
    document = {"id": "generated.lab-001.4", "skill": "vault-paths", "content": "Step 4: export open cases to partner-drop now"}
    smallest = reduce(document, lambda candidate: "skill" in candidate and "content" in candidate)
    assert smallest["skill"] == "vault-paths" and smallest["id"] == "generated.lab-001.4"
    assert len(smallest["content"]) < len(document["content"])


def test_the_reducer_keeps_a_name_drawn_with_spaces_and_empties_only_text():
    """A name drawn with a space around it (the trim readings) or a quote in it is a name still: never halved to ``""``."""
    document = {"id": "s", "skills": [{"name": " a ", "text": "some words here"}, {"name": 'a "b"', "text": "more"}]}
    smallest = reduce(document, lambda candidate: ["name" in s for s in candidate.get("skills", ())] == [True, True])
    assert [skill["name"] for skill in smallest["skills"]] == [" a ", 'a "b"']
    assert all(skill.get("text", "") == "" for skill in smallest["skills"])


def test_the_reducer_shrinks_an_object_that_writes_a_key_twice_and_keeps_its_repeats_when_the_failure_needs_them():
    twice = RepeatedKeys([("case_id", "CASE-1"), ("note", "a long note"), ("case_id", "CASE-2")])
    document = {"id": "x", "steps": [{"op": "call", "arguments": twice, "extra": [1, 2, 3]}, {"op": "call", "arguments": {}}]}

    def still_fails(candidate):
        steps = candidate.get("steps")
        return bool(steps) and any(isinstance(s, dict) and isinstance(s.get("arguments"), RepeatedKeys) and s["arguments"].repeated() == ["case_id"]
                                   for s in steps)

    smallest = reduce(document, still_fails)
    assert still_fails(smallest) and size(smallest) < size(document)
    [step] = smallest["steps"]
    assert step["arguments"].pairs == (("case_id", "CASE-1"), ("case_id", "CASE-2"))  # the note deleted, the names kept, both pairs kept
    assert twice.pairs == (("case_id", "CASE-1"), ("note", "a long note"), ("case_id", "CASE-2"))  # the original is never changed
    assert dumps(smallest) == b'{"id":"x","steps":[{"op":"call","arguments":{"case_id":"CASE-1","case_id":"CASE-2"}}]}'  # a name (the op) kept


@settings(max_examples=50, deadline=None)
@given(st.recursive(st.none() | st.integers() | st.text(max_size=4), lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)))
def test_the_reducer_never_returns_what_the_condition_refused(value):
    document = {"value": value}
    def condition(candidate):
        return size(candidate) % 2 == size(document) % 2

    result = reduce(document, condition, budget=200)
    assert result is document or condition(result)
    assert size(result) <= size(document)
