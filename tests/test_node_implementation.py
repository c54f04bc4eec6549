"""The Node.js implementation in conformance/implementations/node gives the model's outcome.

One node process answers each batch of scenario lines, so the whole module
costs a few seconds. Skipped when node is not on PATH.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gateproof.conformance.lifecycle_strategies import lifecycle_scenarios, story_worlds
from gateproof.conformance.strategies import ceiling_scenarios, worlds
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.versions import VERSIONS

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


def typed(value):
    """value with every scalar tagged by its JSON type, so that 1, 1.0 and true never compare equal."""
    if isinstance(value, dict):
        return {key: typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [typed(item) for item in value]
    return (type(value).__name__, value)


def disagreements(lines: list[str], answers: list[dict]) -> list[str]:
    reports = []
    for line, node_outcome in zip(lines, answers):
        expected = model_outcome(line)
        if typed(node_outcome) != typed(expected):
            reports.append(f"scenario: {line}\n  model: {json.dumps(expected)}\n  node:  {json.dumps(node_outcome)}")
    return reports


def is_ceiling(document: dict) -> bool:
    return document.get("kind", "ceiling") == "ceiling"


def test_every_ceiling_example_gives_the_models_outcome():
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in EXAMPLES]
    lines = [json.dumps(document) for document in documents if is_ceiling(document)]
    assert lines
    assert disagreements(lines, answer(lines)) == []


def drawn_scenarios() -> list[str]:
    """GENERATED scenario lines from the shipped strategies, the same on every run."""
    versions = st.sampled_from(sorted(VERSIONS))
    stories = versions.flatmap(
        lambda rules: st.one_of(
            lifecycle_scenarios(rules=rules),
            lifecycle_scenarios(rules=rules, world_strategy=story_worlds(tied_skills=True, observing=True)),
            lifecycle_scenarios(rules=rules, world_strategy=worlds()),
        )
    )
    documents = st.one_of(ceiling_scenarios(), stories)
    drawn: list[str] = []

    @settings(
        max_examples=GENERATED, derandomize=True, database=None, deadline=None, phases=[Phase.generate], suppress_health_check=list(HealthCheck)
    )
    @given(documents)
    def collect(document):
        drawn.append(json.dumps(document))

    collect()
    return drawn


def test_generated_ceiling_and_lifecycle_scenarios_give_the_models_outcome():
    lines = drawn_scenarios()
    assert len(lines) >= 1000, "hypothesis drew fewer scenarios than asked for"
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


def test_a_gateway_scenario_under_an_unknown_rule_version_is_skipped():
    document = {**json.loads((ROOT / "examples" / "gateway-cross-tenant-probe.json").read_text(encoding="utf-8")), "rules": "lab-002"}
    [reply] = answer([json.dumps(document)])
    assert reply["gateproof"] == 1
    assert reply["scenario"] == document["id"]
    assert "lab-002" in reply["skipped"]
    assert "results" not in reply


def test_a_malformed_line_is_errored_and_later_lines_are_answered():
    example = (ROOT / "examples" / "observe-mode.json").read_text(encoding="utf-8")
    good = json.dumps(json.loads(example))
    missing = json.dumps({**json.loads(example), "steps": [{"op": "send", "configuration": "nowhere"}]})
    replies = answer(['{"gateproof": 1, "id": ', good, "[1, 2]", missing, good])
    assert [sorted(reply) for reply in replies[:1] + replies[2:4]] == [["errored", "gateproof", "scenario"]] * 3
    assert replies[3]["scenario"] == "example/observe-mode"
    assert replies[1] == replies[4] == model_outcome(good)


@pytest.mark.rule("C164.6")
def test_a_unicode_digit_is_not_a_numeric_string():
    world = {"providers": [], "models": [], "configurations": [{"identifier": "c"}]}
    line = json.dumps({"gateproof": 1, "id": "unicode-digits", "world": world, "steps": [{"op": "send", "configuration": "c", "forced_snippets": ["٣", "１２"]}]})
    assert disagreements([line], answer([line])) == []
