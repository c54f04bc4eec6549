"""``gateproof explain``: one trace as text and as JSON, steps from 0, values in full, under any rules decide takes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema_rs
import pytest
from click.testing import CliRunner

from gateproof.conformance.explanation.adr_entries import adr_entries
from gateproof.conformance.harness.bulk import decided
from gateproof.conformance.cli import main
from gateproof.conformance.explanation.explain import explain_under
from gateproof.conformance.explanation.trace import WIDTH, text_of
from gateproof.conformance.implementations.wrong.decide import decide_names, is_for
from gateproof.model.scenario.schema import validate

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
SCHEMA = json.loads((ROOT / "conformance" / "schema" / "explain-trace.schema.json").read_text())
#: Python's spelling of values, which a reader of JSON documents never wrote: None, True, False, (), {'...'}, ['...'].
REPR = re.compile(r"\bNone\b|\bTrue\b|\bFalse\b|\(\)|\{'|\['|'\]")


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def cases():
    for path in EXAMPLES:
        document = load(path)
        for name in [None, *decide_names()]:
            if name is None or is_for(name, document):
                yield pytest.param(path, name, id=f"{path.stem}-{name or 'own'}")


@pytest.mark.rule("S001.2")
@pytest.mark.parametrize("path, rules", list(cases()))
def test_the_trace_is_valid_and_each_step_carries_the_result_decide_gives(path, rules):
    document = load(path)
    trace = explain_under(document, rules).document()
    jsonschema_rs.validate(SCHEMA, trace)
    outcome = decided(document, rules)
    validate("outcome", outcome)  # "rules": "wrong:..." included
    assert trace["rules"] == outcome["rules"] == (rules or document.get("rules", trace["rules"]))
    assert [step["step"] for step in trace["steps"]] == list(range(len(document["steps"])))
    assert [step["op"] for step in trace["steps"]] == [step["op"] for step in document["steps"]]
    assert [step["result"] for step in trace["steps"]] == outcome["results"]


@pytest.mark.parametrize("path, rules", list(cases()))
def test_the_text_shows_json_values_never_python_reprs_and_cuts_nothing(path, rules):
    text = text_of(explain_under(load(path), rules))
    assert not REPR.search(text), REPR.search(text)
    assert "..." not in text and "…" not in text
    assert all(len(line) <= WIDTH for line in text.splitlines())


def test_every_rule_id_a_trace_names_has_an_adr_entry():
    named = {rule for path in EXAMPLES for step in explain_under(load(path)).document()["steps"] for a in step["applied"] for rule in a["rules"]}
    assert len(named) > 20
    assert named <= set(adr_entries()), sorted(named - set(adr_entries()))


def test_every_check_the_gateway_makes_is_named_by_its_rule_id_in_the_explanation():
    from gateproof.conformance.explanation.names import CHECK_NAMES

    made = {rule for path in (ROOT / "model" / "gateway").glob("*.py") for rule in re.findall(r'\bCheck\("(G\d+\.\d+)"', path.read_text())}
    assert len(made) > 10
    assert made == set(CHECK_NAMES), (sorted(made - set(CHECK_NAMES)), sorted(set(CHECK_NAMES) - made))
    assert set(CHECK_NAMES) <= set(adr_entries())


def test_a_long_value_is_wrapped_in_full_not_cut():
    """The forged field of the poisoned runbook story is printed whole, though its line is longer than the width."""
    path = ROOT / "examples" / "gateway-poisoned-runbook.json"
    text = CliRunner().invoke(main, ["explain", str(path)]).output
    arguments = next(step["arguments"] for step in load(path)["steps"] if "approved_by" in step.get("arguments", {}))
    # A wrapped line goes on under a deeper indent; joined back, it is the value as JSON, every character kept.
    blocks = re.findall(r"^  arguments as proposed: (.*(?:\n      .*)*)", text, re.M)
    joined = [" ".join(block.split()) for block in blocks]
    assert json.dumps(arguments) in joined
    assert any("\n" in block for block in blocks)


def test_steps_count_from_0_as_the_outcome_results_do():
    path = ROOT / "examples" / "adr-179-dropped-sources-recorded.json"
    text = CliRunner().invoke(main, ["explain", str(path)]).output
    headings = re.findall(r"^step (\d+): (\w+)", text, re.M)
    assert [int(n) for n, _ in headings] == list(range(len(load(path)["steps"])))
    assert headings[1] == ("1", "update") and "update snippet 42: {\"active\": false}" in text


@pytest.mark.rule("C144.9")
def test_a_wrong_fold_is_explained_as_it_decides():
    """Under wrong:first-wins-ties the tie keeps the earlier skill: the fold's line and the decision both say so."""
    path = str(ROOT / "examples" / "adr-175-tie-names-one-source.json")
    right = CliRunner().invoke(main, ["explain", path]).output
    wrong = CliRunner().invoke(main, ["explain", "--rules", "wrong:first-wins-ties", path])
    assert wrong.exit_code == 0, wrong.output
    assert "equally strict: the later source takes over" in right and "equally strict: the earlier source stays" not in right
    assert "equally strict: the earlier source stays" in wrong.output
    assert "under rules wrong:first-wins-ties" in wrong.output and "deliberately wrong" in wrong.output


def test_a_wrong_gateway_shows_where_it_parts_from_the_model():
    path = str(ROOT / "examples" / "gateway-cross-tenant-probe.json")
    done = CliRunner().invoke(main, ["explain", "--json", "--rules", "wrong:unsafe-gateway", path])
    assert done.exit_code == 0, done.output
    trace = json.loads(done.output)
    parted = [a for step in trace["steps"] for a in step["applied"] if a["id"] == "variant"]
    assert parted and all(a["inputs"]["model"] != a["result"] for a in parted)


def test_explain_json_through_the_command_validates():
    path = str(ROOT / "examples" / "fallback-drags-to-external.json")
    done = CliRunner().invoke(main, ["explain", "--json", path])
    assert done.exit_code == 0
    trace = json.loads(done.output)
    jsonschema_rs.validate(SCHEMA, trace)
    fold = next(a for a in trace["steps"][1]["applied"] if a["id"] == "fold")
    assert fold["rules"] == ["C144.9", "C094.1"] and fold["result"]["class"] == trace["steps"][1]["result"]["declared_class"]


@pytest.mark.parametrize("arguments, message", [
    (["--rules", "adr-200"], "'adr-200' is not a rule version or wrong variant; closest: adr-"),
    (["--rules", "wrong:first-win-ties"], "closest: wrong:first-wins-ties"),
])
def test_an_unknown_rules_name_is_refused_with_the_closest_and_where_to_list_them(arguments, message):
    done = CliRunner().invoke(main, ["explain", *arguments, str(EXAMPLES[0])])
    assert done.exit_code == 2 and message in done.output and "gateproof rules --versions" in done.output
    assert "Traceback" not in done.output and "pre-164" not in done.output.split("closest:")[0]


@pytest.mark.rule("C144.4", "C144.5", "C144.19")
def test_tag_selected_snippets_are_shown_with_the_keys_they_are_ordered_by():
    snippets = [
        {"uid": 1, "identifier": "s1", "name": "a", "tags": "ops", "data_class": "sourceCode"},
        {"uid": 2, "identifier": "s2", "name": "B", "tags": " OPS ,x", "data_class": "sourceCode"},
        {"uid": 3, "identifier": "s3", "name": "c", "tags": "ops", "hidden": True},
        {"uid": 4, "identifier": " S1 ", "name": "d", "tags": "audit", "sorting": -1},
    ]
    world = {"providers": [{"identifier": "p", "zone": "local"}], "models": [{"identifier": "m", "provider": "p"}],
             "configurations": [{"identifier": "c", "model": "m", "snippet_tags": "Ops, audit, none"}], "snippets": snippets}
    document = {"gateproof": 1, "id": "tags", "world": world, "steps": [{"op": "send", "configuration": "c"}, {"op": "classify", "configuration": "c"}]}
    explained = explain_under(document)
    for step in explained.steps:
        [tags] = [applied for applied in step.applied if applied.id == "tags"]
        assert tags.rules == ("C144.4", "C144.5", "C144.19") and tags.result == {"ops": [2, 1, 3], "audit": [4], "none": []}
        assert tags.details == (
            'tags as stored: "Ops, audit, none" -> read as ["ops", "audit", "none"]',
            'tag "ops": by sorting, then name under the case-sensitive collation',
            '  uid 2 snippet "s2": sorting 0, name "B"',
            '  uid 1 snippet "s1": sorting 0, name "a"',
            '  uid 3 snippet "s3": sorting 0, name "c"  (hidden: left out)',
            'tag "audit": by sorting, then name under the case-sensitive collation',
            '  uid 4 snippet "S1": sorting -1, name "d"  (already selected)',
            'tag "none": no active, undeleted snippet carries it',
        )
    validate_trace = jsonschema_rs.validator_for(SCHEMA)
    assert validate_trace.is_valid(explained.document())
    untagged = dict(document, world=dict(world, configurations=[{"identifier": "c", "model": "m"}]))
    assert not any(applied.id == "tags" for step in explain_under(untagged).steps for applied in step.applied)


@pytest.mark.rule("C094.1")
def test_the_fold_names_the_ladder_that_makes_a_class_stricter():
    text = " ".join(CliRunner().invoke(main, ["explain", str(ROOT / "examples" / "forced-snippet-refused.json")]).output.split())
    assert "fold: strictest declared class wins, the later source wins a tie [C144.9, C094.1]" in text
    assert "(stricter on the ladder of C094.1 (systemDiagnostics above editorContent): takes over)" in text
