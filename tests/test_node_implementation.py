"""The Node.js implementation in conformance/implementations/node gives the model's outcome.

Ceiling and lifecycle scenarios, and gateway scenarios under lab-001 and
lab-001+next. One node process answers each batch of scenario lines, so the
whole module costs a few seconds. Skipped when node is not on PATH.
"""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from node_helpers import typed
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gateproof.conformance.generation.gateway_strategies import gateway_scenarios
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.generation.lifecycle_strategies import lifecycle_scenarios, story_worlds
from gateproof.conformance.generation.ceiling_strategies import ceiling_scenarios, worlds
from gateproof.conformance.harness.process import ImplementationProcess
from gateproof.conformance.implementations import BUILTINS
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.versions import ADR_SEQUENCE, VERSIONS

NODE = shutil.which("node")
if NODE is None:
    pytest.skip("node is not on PATH", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
ENTRY = ROOT / "conformance" / "implementations" / "node" / "gateproof-node.js"
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
GENERATED = 1200


def answer(lines: list[str]) -> list[dict]:
    """node's answer to each line, from one process."""
    completed = subprocess.run(
        [NODE, str(ENTRY), "--jsonl"], input="".join(f"{line}\n" for line in lines), capture_output=True, text=True, timeout=120, check=True
    )
    answers = [json.loads(line) for line in completed.stdout.splitlines()]
    assert len(answers) == len(lines), completed.stderr
    return answers


def model_outcome(line: str) -> dict:
    return json.loads(json.dumps(run_scenario(read_scenario(json.loads(line)))))



def disagreements(lines: list[str], answers: list[dict]) -> list[str]:
    reports = []
    for line, node_outcome in zip(lines, answers):
        expected = model_outcome(line)
        if typed(node_outcome) != typed(expected):
            reports.append(f"scenario: {line}\n  model: {json.dumps(expected)}\n  node:  {json.dumps(node_outcome)}")
    return reports


def is_ceiling(document: dict) -> bool:
    return document.get("kind", "ceiling") == "ceiling"


@functools.cache
def started():
    """What node answers to ``start``: it keeps its own list of versions, and a version it has not learned is not held against it."""
    process = ImplementationProcess(BUILTINS["node"])
    try:
        return process.start()
    finally:
        process.close()


def node_decides(document: dict) -> bool:
    return started().decides(document)


def newest_declared() -> str:
    """The newest ADR version node declares: the model's default once node has learned it."""
    return [version for version in ADR_SEQUENCE if version in started().rules][-1]


def test_every_ceiling_example_gives_the_models_outcome():
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in EXAMPLES]
    lines = [json.dumps(document) for document in documents if is_ceiling(document) and node_decides(document)]
    assert lines
    assert disagreements(lines, answer(lines)) == []


def draw(documents: st.SearchStrategy[dict], count: int) -> list[str]:
    """count scenario lines drawn from documents, the same on every run."""
    drawn: list[str] = []

    @settings(max_examples=count, derandomize=True, database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(documents)
    def collect(document):
        drawn.append(json.dumps(document))

    collect()
    return drawn


def drawn_scenarios() -> list[str]:
    """GENERATED scenario lines from the shipped strategies, the same on every run."""
    versions = st.sampled_from(sorted(version for version in VERSIONS if version in started().rules))
    stories = versions.flatmap(
        lambda rules: st.one_of(
            lifecycle_scenarios(rules=rules),
            lifecycle_scenarios(rules=rules, world_strategy=story_worlds(tied_skills=True, observing=True)),
            lifecycle_scenarios(rules=rules, world_strategy=worlds()),
        )
    )
    return draw(st.one_of(ceiling_scenarios(), stories), GENERATED)


def test_generated_ceiling_and_lifecycle_scenarios_give_the_models_outcome():
    drawn = drawn_scenarios()
    assert len(drawn) >= 1000, "hypothesis drew fewer scenarios than asked for"
    lines = [line for line in drawn if node_decides(json.loads(line))]  # a scenario without rules is under the model's default
    assert len(lines) >= len(drawn) // 2
    reports = disagreements(lines, answer(lines))
    assert not reports, f"{len(reports)} of {len(lines)} disagree:\n" + "\n".join(reports[:5])


def edge_story(steps: list[dict], rules: str = "adr-179", **world) -> str:
    """A story in a world of one global and one local provider, with a configuration ``c`` on the global one."""
    document = {
        "providers": [{"identifier": "p", "zone": "externalGlobal"}, {"identifier": "q", "zone": "local"}],
        "models": [{"identifier": "m", "provider": "p"}, {"identifier": "ml", "provider": "q"}],
        "configurations": [{"identifier": "c", "model": "m", "system_prompt": "x", "system_prompt_class": "editorContent"}],
        "snippets": [{"uid": 1, "identifier": "s1", "data_class": "sourceCode"}],
        **world,
    }
    return json.dumps({"gateproof": 1, "id": "edge", "rules": rules, "world": document, "steps": steps})


NUMERIC_STRINGS = [" 7", "7 ", "\f7", "7\u0000", "7.", ".7e1", "1e1", "-0", "07", "0x1A", "1_0", "+.5e1", "10e-1", "1e400", "9223372036854775808", "inf", ""]
BIG = 2**63

#: Stories on the edges of the string, number and input rules, which the strategies rarely or never draw.
EDGE_STORIES = [
    edge_story([{"op": "send", "configuration": "c", "forced_snippets": [text]}]) for text in NUMERIC_STRINGS
] + [
    edge_story([{"op": "send", "configuration": "c", "forced_snippets": [1.5, 8.0, 9.99e20, BIG, 2**53 + 1, True, None, [1]]}]),
    edge_story([{"op": "queue", "run": "r", "configuration": "c", "forced_snippets": [1.0, 2, "3", BIG, 2**53 + 1]}, {"op": "dequeue", "run": "r"}]),
    edge_story(
        [
            {"op": "queue", "run": "r", "configuration": "c"},
            {"op": "dequeue", "run": "r"},
            {"op": "suspend", "run": "r", "state": {"forced_snippet_uids": [1.0, "01", " 1", "+1", True], "other": [0.5]}},
            {"op": "resume", "run": "r"},
        ]
    ),
    edge_story(
        [{"op": "send", "configuration": "c"}],
        configurations=[{"identifier": "c", "model": "ml", "fallbacks": [" ", "\f", "K", " d ", 7], "system_prompt": "x", "system_prompt_class": "sourceCode"}, {"identifier": "k", "model": "ml"}, {"identifier": "d", "model": "ml"}],
    ),
    edge_story(
        [{"op": "classify", "configuration": "c"}],
        configurations=[{"identifier": "c", "model": "m", "snippet_tags": "key\f, KEY ,\u00a0key"}],
        snippets=[{"uid": n, "identifier": ident, "name": name, "tags": "key", "data_class": "publicContent"} for n, ident, name in [(1, "  ", "N"), (2, "\u212a", "\U0001F600"), (3, "k", "\uff5e")]],
    ),
    edge_story([{"op": "send", "configuration": "c", "be_user": value} for value in (True, 5.0, "7", -3, BIG)]),
    edge_story([{"op": "update", "kind": "snippet", "uid": 1, "set": {"sorting": 2.0}}, {"op": "classify", "configuration": "c"}]),
    edge_story([{"op": "update", "kind": "snippet", "uid": 1, "set": {"uid": 2}}]),
    edge_story([{"op": "delete", "kind": "snippet", "uid": 1, "identifier": "s1"}]),
    edge_story([{"op": "update", "kind": "configuration", "identifier": "c", "uid": 1, "set": {"active": False}}]),
    edge_story([{"op": "update", "kind": "configuration", "identifier": "c", "set": {"skills": [0]}}]),
    edge_story([{"op": "queue", "run": "r", "configuration": "c"}, {"op": "queue", "run": "r", "configuration": "c"}]),
    edge_story([{"op": "delete", "kind": "configuration", "identifier": "c"}, {"op": "queue", "run": "r", "configuration": "c"}, {"op": "dequeue", "run": "r"}]),
    edge_story([{"op": "queue", "run": "r", "configuration": "c"}, {"op": "suspend", "run": "r"}]),
    edge_story([{"op": "send", "configuration": "c", "serving_model": "nowhere"}]),
]


def test_edge_stories_give_the_models_outcome_or_are_errored_where_it_refuses_them():
    answers = answer(EDGE_STORIES)
    for line, reply in zip(EDGE_STORIES, answers):
        try:
            expected = model_outcome(line)
        except ScenarioError:
            assert "errored" in reply, line
            continue
        assert typed(reply) == typed(expected), f"scenario: {line}\n  model: {json.dumps(expected)}\n  node:  {json.dumps(reply)}"


GATEWAY_VERSIONS = ("lab-001", "lab-001+next")
GATEWAY_GENERATED = 600  # per rule version


def test_every_gateway_corpus_case_gives_its_expected_outcome():
    cases = [case for case in load_corpus() if case.scenario.get("kind") == "gateway"]
    assert {case.scenario.get("rules", "lab-001") for case in cases} == set(GATEWAY_VERSIONS)
    answers = answer([json.dumps(case.scenario) for case in cases])
    wrong = [case.id for case, reply in zip(cases, answers) if typed(reply) != typed(case.expected)]
    assert wrong == []


def test_every_gateway_example_gives_the_models_outcome():
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in EXAMPLES]
    lines = [json.dumps(document) for document in documents if not is_ceiling(document)]
    assert len(lines) >= 3
    assert disagreements(lines, answer(lines)) == []


@pytest.mark.parametrize("rules", GATEWAY_VERSIONS)
def test_generated_gateway_scenarios_give_the_models_outcome(rules):
    lines = draw(gateway_scenarios(rules=rules), GATEWAY_GENERATED)
    assert len(lines) >= GATEWAY_GENERATED * 0.9, "hypothesis drew fewer scenarios than asked for"
    assert all(json.loads(line).get("rules", "lab-001") == rules for line in lines)
    reports = disagreements(lines, answer(lines))
    assert not reports, f"{len(reports)} of {len(lines)} disagree:\n" + "\n".join(reports[:5])


def gateway_story(steps: list[dict], rules: str = "lab-001+next", **world) -> str:
    """A gateway story: ana (support) and dee (supervisor) of acme, bo of globex, a case of each tenant, one internal and one external destination."""
    document = {
        "sessions": [
            {"id": "s-ana", "user": "ana", "tenant": "acme", "roles": ["support"]},
            {"id": "s-dee", "user": "dee", "tenant": "acme", "roles": ["supervisor"]},
            {"id": "s-bo", "user": "bo", "tenant": "globex", "roles": ["support"]},
        ],
        "cases": [{"id": "C-1", "tenant": "acme", "assignees": ["ana"], "content": "stored"}, {"id": "C-9", "tenant": "globex", "assignees": ["ana", "bo"]}],
        "destinations": [{"id": "review", "internal": True}, {"id": "partner", "internal": False}],
        **world,
    }
    return json.dumps({"gateproof": 1, "kind": "gateway", "id": "gateway-edge", "rules": rules, "world": document, "steps": steps})


def export(case: str = "C-1", destination: str = "review", session: str = "s-ana", **extra) -> dict:
    return {"op": "call", "session": session, "tool": "export_case", "arguments": {"case_id": case, "destination_id": destination}, **extra}


def read(case: str = "C-1", session: str = "s-ana", **extra) -> dict:
    return {"op": "call", "session": session, "tool": "read_case", "arguments": {"case_id": case}, **extra}


APPROVAL = {"id": "ap", "tool": "export_case", "arguments": {"destination_id": "partner", "case_id": "C-1"}, "user": "ana", "expires_at": 10}
LIMIT = {"rate_limit": {"calls": 2, "window": 60}}
EMOJI = "\U0001F600"

#: Gateway stories on the edges the rule text leaves to be read closely and the strategies rarely draw: what a
#: rate limit counts and where its window ends, what a replay still checks, changes that land around a refusal,
#: what the audit names, identifier lengths in characters, and documents the rules cannot be applied to.
GATEWAY_EDGE_STORIES = [
    gateway_story([{"op": "call", "session": "s-ana", "tool": "delete_case", "arguments": {}}, read(), read()], **LIMIT),
    gateway_story([read("C-9"), read(), read()], **LIMIT),
    gateway_story([read(), {"op": "advance_clock", "seconds": 60}, read(), read()], rate_limit={"calls": 1, "window": 60}),
    gateway_story([read(), {"op": "advance_clock", "seconds": 59}, read()], rate_limit={"calls": 1, "window": 60}),
    gateway_story([read(), read(), {"op": "advance_clock", "seconds": 30}, read()], rate_limit={"calls": 1, "window": 31}),
    gateway_story([export(before_write=[{"op": "advance_clock", "seconds": 100}]), read()], rate_limit={"calls": 1, "window": 60}),
    gateway_story([export(idempotency_key="k"), export(idempotency_key="k")], rate_limit={"calls": 1, "window": 60}),
    gateway_story([export(idempotency_key="k"), {"op": "reassign_case", "case_id": "C-1", "assignees": []}, export(idempotency_key="k")]),
    gateway_story([export(idempotency_key="k"), {"op": "revoke_session", "session": "s-ana"}, export(idempotency_key="k")]),
    gateway_story([export(idempotency_key="k"), {"op": "remove_destination", "destination_id": "review"}, export(idempotency_key="k")]),
    gateway_story([export(idempotency_key="k", before_write=[{"op": "reassign_case", "case_id": "C-1", "assignees": []}]), export(idempotency_key="k")]),
    gateway_story([export(idempotency_key="k"), {"op": "call", "session": "s-ana", "tool": "export_case", "arguments": {"destination_id": "review", "case_id": "C-1"}, "idempotency_key": "k"}]),
    gateway_story([export(idempotency_key="k"), read(idempotency_key="k"), read("C-9", idempotency_key="k")]),
    gateway_story([read(idempotency_key="k"), export(idempotency_key="k")]),
    gateway_story([export(idempotency_key="k"), export(idempotency_key="k", session="s-dee")]),
    gateway_story([export(session="s-dee", before_write=[{"op": "revoke_session", "session": "s-ana"}]), read()], rules="lab-001"),
    gateway_story([{"op": "call", "session": "s-ana", "tool": ["read_case"], "arguments": [], "before_write": [{"op": "edit_case", "case_id": "C-1", "content": "new"}]}, export()]),
    gateway_story([export(before_write=[{"op": "edit_case", "case_id": "C-1", "content": "edited"}])], rules="lab-001"),
    gateway_story([export(before_write=[{"op": "remove_destination", "destination_id": "review"}])]),
    gateway_story([{"op": "remove_destination", "destination_id": "review"}, export(before_write=[{"op": "remove_destination", "destination_id": "review"}])]),
    gateway_story([export("C-1", "partner", before_write=[{"op": "advance_clock", "seconds": 10}])], approvals=[APPROVAL]),
    gateway_story([export("C-1", "partner"), export("C-1", "partner")], approvals=[APPROVAL]),
    gateway_story([export("C-1", "partner")], approvals=[{**APPROVAL, "expires_at": 0}, {**APPROVAL, "id": "other-user", "user": "dee"}]),
    gateway_story([export("C-1", "partner")], approvals=[{**APPROVAL, "expires_at": 0}, {**APPROVAL, "id": "live", "expires_at": 1}]),
    gateway_story([export("C-1", "partner")], approvals=[{**APPROVAL, "arguments": {**APPROVAL["arguments"], "note": 1}}]),
    gateway_story([export("C-404", "partner"), export("C-9", "partner")], approvals=[APPROVAL]),
    gateway_story([{"op": "call", "session": "s-ana", "tool": "read_case", "arguments": {"case_id": "C-1", "destination_id": "review"}}]),
    gateway_story([{"op": "call", "session": "s-ana", "tool": "read_case", "arguments": {"case_id": "C" * 129}}], cases=[{"id": "C" * 129, "tenant": "acme"}]),
    gateway_story([read(EMOJI * 128), read(EMOJI * 129)], cases=[{"id": EMOJI * 128, "tenant": "acme", "assignees": ["ana"]}, {"id": EMOJI * 129, "tenant": "acme"}]),
    gateway_story([{"op": "call", "session": "s-ana", "tool": tool, "arguments": arguments} for tool, arguments in [
        ("__proto__", {"case_id": "C-1"}), ("toString", {"case_id": "C-1"}), ("read_case", 1.5), ("read_case", {"__proto__": "C-1", "case_id": "C-1"}),
        ("read_case", {"constructor": "C-1"}), ("read_case", {"case_id": None}), ("export_case", {}), ("read_case", {"case_id": 7, "extra": 1}),
    ]]),
    gateway_story([read(session="s-dee"), export(session="s-dee")], cases=[{"id": "C-1", "tenant": "acme"}], sessions=[{"id": "s-dee", "user": "dee", "tenant": "acme", "roles": ["supervisor"], "valid": True}]),
    gateway_story([export()], cases=[{"id": "C-1", "tenant": "acme", "assignees": ["ana"]}], clock=5.0, rate_limit={"calls": 1.0, "window": 2}),
    # Documents the rules cannot be applied to.
    gateway_story([read(session="s-nobody")]),
    gateway_story([{"op": "revoke_session", "session": "s-nobody"}]),
    gateway_story([{"op": "remove_destination", "destination_id": "nowhere"}]),
    gateway_story([read(before_write=[{"op": "edit_runbook", "runbook_id": "rb", "content": "x"}])]),
    gateway_story([read(before_write=[read()])]),
    gateway_story([{**read(), "approved": True}]),
    gateway_story([read(idempotency_key="")]),
    gateway_story([read()], sessions=[{"id": "s-ana", "user": "ana", "tenant": "acme"}, {"id": "s-ana", "user": "bo", "tenant": "acme"}]),
    gateway_story([read()], sessions=[]),
    gateway_story([read()], clock=True),
    gateway_story([read()], destinations=[{"id": "review"}]),
    gateway_story([{"op": "reassign_case", "case_id": "C-1", "assignees": ["ana", "ana"]}]),
    gateway_story([{"op": "advance_clock", "seconds": -1}]),
]


def test_gateway_edge_stories_give_the_models_outcome_or_are_errored_where_it_refuses_them():
    answers = answer(GATEWAY_EDGE_STORIES)
    refused = 0
    for line, reply in zip(GATEWAY_EDGE_STORIES, answers):
        try:
            expected = model_outcome(line)
        except ScenarioError:
            refused += 1
            assert "errored" in reply, line
            continue
        assert typed(reply) == typed(expected), f"scenario: {line}\n  model: {json.dumps(expected)}\n  node:  {json.dumps(reply)}"
    assert 0 < refused < len(GATEWAY_EDGE_STORIES)


@pytest.mark.rule("G002.3")
def test_a_read_carrying_a_key_bound_to_an_export_is_neither_refused_nor_binding():
    line = gateway_story([export(idempotency_key="k"), read(idempotency_key="k"), export(idempotency_key="k")])
    [reply] = answer([line])
    assert [(r["decision"], r["reason"], r["replayed"]) for r in reply["results"]] == [("allow", "allowed", False), ("allow", "allowed", False), ("allow", "allowed", True)]
    assert reply == model_outcome(line)


@pytest.mark.rule("G002.4")
def test_calls_refused_before_the_rate_limit_still_count_against_it():
    line = gateway_story([{"op": "call", "session": "s-ana", "tool": "read_case", "arguments": []}, read(), read()], **LIMIT)
    [reply] = answer([line])
    assert [r["reason"] for r in reply["results"]] == ["malformed_input", "allowed", "rate_limited"]
    assert reply == model_outcome(line)


def test_removing_a_destination_already_removed_is_valid_and_changes_nothing():
    line = gateway_story([{"op": "remove_destination", "destination_id": "review"}, {"op": "remove_destination", "destination_id": "review"}, export()])
    [reply] = answer([line])
    assert reply["results"][:2] == [{"op": "remove_destination"}] * 2
    assert (reply["results"][2]["reason"], reply["results"][2]["audit"]["destination_id"]) == ("destination_denied", None)
    assert reply == model_outcome(line)


def test_a_gateway_scenario_under_an_unknown_rule_version_is_skipped():
    document = {**json.loads((ROOT / "examples" / "gateway-cross-tenant-probe.json").read_text(encoding="utf-8")), "rules": "lab-002"}
    [reply] = answer([json.dumps(document)])
    assert reply["gateproof"] == 1
    assert reply["scenario"] == document["id"]
    assert "lab-002" in reply["skipped"]
    assert "results" not in reply


def test_a_malformed_line_is_errored_and_later_lines_are_answered():
    example = (ROOT / "examples" / "observe-mode.json").read_text(encoding="utf-8")
    good = json.dumps({**json.loads(example), "rules": newest_declared()})
    missing = json.dumps({**json.loads(example), "steps": [{"op": "send", "configuration": "nowhere"}]})
    replies = answer(['{"gateproof": 1, "id": ', good, "[1, 2]", missing, good])
    assert [sorted(reply) for reply in replies[:1] + replies[2:4]] == [["errored", "gateproof", "scenario"]] * 3
    assert replies[3]["scenario"] == "example/observe-mode"
    assert replies[1] == replies[4] == model_outcome(good)


@pytest.mark.rule("C164.6")
def test_a_unicode_digit_is_not_a_numeric_string():
    world = {"providers": [], "models": [], "configurations": [{"identifier": "c"}]}
    line = json.dumps({"gateproof": 1, "id": "unicode-digits", "rules": newest_declared(), "world": world, "steps": [{"op": "send", "configuration": "c", "forced_snippets": ["٣", "１２"]}]})
    assert disagreements([line], answer([line])) == []


@pytest.mark.parametrize("rules", GATEWAY_VERSIONS)
def test_a_tool_named_by_a_value_holding_an_integer_beyond_64_bits_is_refused_as_unknown(rules):
    # G001.1: any JSON value may stand where a tool's name goes; the action text of G002.3 must still be written.
    scenario = {"gateproof": 1, "kind": "gateway", "id": "big-tool", "rules": rules,
                "world": {"sessions": [{"id": "s-1", "user": "ana", "tenant": "acme", "roles": ["support"]}],
                          "cases": [{"id": "CASE-1", "tenant": "acme", "assignees": ["ana"], "content": ""}]},
                "steps": [{"op": "call", "session": "s-1", "tool": [None, -28471038288380215296], "arguments": {"V": 6374}}]}
    lines = [json.dumps(scenario)]
    expected = model_outcome(lines[0])
    assert expected["results"][0]["reason"] == "unknown_tool"
    assert disagreements(lines, answer(lines)) == []
