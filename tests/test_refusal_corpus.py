"""The refusal corpus: current with the model, stable ids, rules that exist, and every refusal site of the input layer reached.

The sites are found by the AST, as the mutation operators find theirs: every
``raise ScenarioError(...)`` (and ``return ScenarioError(...)`` of a helper
whose caller raises it) in the modules that read a document. Running every
document of the corpus under a line tracer, each site's lines must run for at
least one of them; a site added to the input layer fails here until a case
reaches it.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

import pytest

from gateproof.conformance.corpus.build import CORPUS_ROOT
from gateproof.conformance.corpus.refusals import REFUSALS_FILE, answer, expected, raw_text, read_refusals, refusal_family
from gateproof.conformance.corpus.load import corpus_files
from gateproof.model.scenario.schema import schema

ROOT = Path(__file__).resolve().parent.parent
ADR = ROOT / "adr"
#: The input layer: the readers of documents and of their steps, and the text entry point decide reads a file with.
INPUT_LAYER = sorted((ROOT / "model" / "scenario").glob("*.py")) + [ROOT / "model" / "gateway" / "scenario.py",
                                                                   ROOT / "conformance" / "harness" / "documents.py"]
#: Sites no text can reach, each with why: they judge documents built in Python (S001.12), which JSON text cannot express.
UNREACHABLE_BY_TEXT = {
    ("document.py", "_refuse_what_json_cannot_carry", 0): "a value JSON text cannot carry (a tuple, a set, NaN) exists only in Python",
    ("document.py", "_refuse_what_json_cannot_carry", 1): "a value holding itself exists only in Python; text is refused deep before this",
    ("document.py", "_refuse_what_json_cannot_carry", 2): "a key that is not a string exists only in Python",
}
CASES = read_refusals(CORPUS_ROOT / REFUSALS_FILE)


def refusal_sites(path: Path) -> list[tuple[str, str, int, range]]:
    """(file, function, ordinal in the function, lines) of every ScenarioError raised or handed back to be raised."""
    found = []

    def names_error(node) -> bool:
        return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "ScenarioError"

    for function in (n for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if isinstance(n, ast.FunctionDef)):
        ordinal = 0
        for node in ast.walk(function):
            if isinstance(node, (ast.Raise, ast.Return)) and names_error(getattr(node, "exc", None) or getattr(node, "value", None)):
                found.append((path.name, function.name, ordinal, range(node.lineno, node.end_lineno + 1)))
                ordinal += 1
    return found


def executed_lines(files: set[str]) -> set[tuple[str, int]]:
    """The lines of ``files`` run while every document of the corpus is decided as decide decides a file."""
    ran: set[tuple[str, int]] = set()

    def tracer(frame, event, arg):
        if frame.f_code.co_filename not in files:
            return None
        if event == "line":
            ran.add((frame.f_code.co_filename, frame.f_lineno))
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        for case in CASES:
            answer(raw_text(case))
    finally:
        sys.settrace(previous)
    return ran


def test_the_refusal_file_is_regenerated_from_the_model():
    shipped = json.loads((CORPUS_ROOT / REFUSALS_FILE).read_text(encoding="utf-8"))
    assert shipped == json.loads(json.dumps(refusal_family())), "run: gateproof corpus build"


def test_every_case_has_a_stable_unique_id_and_breaks_rules_that_exist():
    rules = {m for path in ADR.glob("*.md") for m in re.findall(r"^### ([A-Z]\d{3}\.\d+) — ", path.read_text(encoding="utf-8"), re.M)}
    ids = [case["id"] for case in CASES]
    assert len(ids) == len(set(ids)) and all(re.fullmatch(r"refusal\.[A-Za-z0-9._-]+", i) for i in ids)
    for case in CASES:
        assert case["rules"] and set(case["rules"]) <= rules, case["id"]
        assert ("document" in case) != ("text" in case), case["id"]


def test_most_cases_are_refused_and_each_refusal_names_its_field():
    refused = [case for case in CASES if "refused" in case["expected"]]
    assert len(refused) > 0.8 * len(CASES)
    for case in refused:
        assert case["expected"]["refused"]["field"].startswith("$") and case["expected"]["refused"]["problem"], case["id"]


def test_each_limit_is_pinned_on_both_sides():
    by_id = {case["id"]: case["expected"] for case in CASES}
    assert "outcome" in by_id["refusal.S001.4.at-the-limit"] and "refused" in by_id["refusal.S001.4.one-byte-over"]
    assert "outcome" in by_id["refusal.S001.5.arguments-64-deep"] and "refused" in by_id["refusal.S001.5.arguments-65-deep"]
    assert "outcome" in by_id["refusal.S001.6.in-arguments"] and "refused" in by_id["refusal.S001.6.in-a-step"]


def test_padding_reaches_the_size_it_names():
    case = next(c for c in CASES if c["id"] == "refusal.S001.4.one-byte-over")
    assert len(raw_text(case)) == case["pad_to"] == 16 * 1024 * 1024 + 1


def test_expected_is_what_the_model_answers_with_the_message_decide_prints():
    case = next(c for c in CASES if c["id"] == "refusal.S001.1.no-serving-model")
    found = answer(raw_text(case))["refused"]
    assert found["message"] == f"{found['field']}: {found['problem']}" == "$.steps[0].serving_model: no model 'nope' in the world"
    assert expected(raw_text(case)) == case["expected"]


def test_every_refusal_site_of_the_input_layer_is_reached_by_a_document():
    sites = [site for path in INPUT_LAYER for site in refusal_sites(path)]
    assert len(sites) > 25  # the walk finds the sites: a change to how they are written must not empty it
    ran = executed_lines({str(path) for path in INPUT_LAYER})
    by_name = {path.name: str(path) for path in INPUT_LAYER}
    missing = [f"{name}:{function}#{ordinal} (line {lines.start})" for name, function, ordinal, lines in sites
               if (name, function, ordinal) not in UNREACHABLE_BY_TEXT and not any((by_name[name], line) in ran for line in lines)]
    assert not missing, f"no refusal document reaches: {missing}"


def test_the_excused_sites_still_exist():
    sites = {(name, function, ordinal) for path in INPUT_LAYER for name, function, ordinal, _ in refusal_sites(path)}
    assert set(UNREACHABLE_BY_TEXT) <= sites


def test_verify_never_loads_the_refusal_corpus():
    assert CORPUS_ROOT / REFUSALS_FILE not in corpus_files()


@pytest.mark.parametrize("rule", ["S001.4", "S001.5", "S001.6"])
def test_the_text_level_checks_are_read_through_the_text_entry_point(rule):
    cases = [c for c in CASES if rule in c["rules"]]
    assert any("text" in c for c in cases) and any("refused" in c["expected"] for c in cases)


#: Every keyword the scenario schema refuses a value by, with a case breaking it alone and what that case must be refused with, read from the schema.
SCHEMA_KEYWORD_CASES = {
    "propertyNames": ("refusal.S001.9.world-key-not-a-name", "$.world.open tickets", "not a field name: does not match ^[A-Za-z_][A-Za-z0-9_]{0,63}$"),
    "type": ("refusal.S001.1.type-of-two", "$.world.providers[0].zone", "expected null or string, got integer"),
    "enum": ("refusal.S001.1.kind-unknown", "$.kind", 'expected one of "ceiling", "gateway", got "ceilings"'),
    "const": ("refusal.S001.1.version", "$.gateproof", "expected one of 1, got 2"),
    "required": ("refusal.S001.1.required", "$.steps[0].configuration", "required field is missing"),
    "additionalProperties": ("refusal.S001.1.unknown-fields", "$.alpha", "unknown field"),
    "maxLength": ("refusal.S001.1.too-long", "$.world.providers[0].identifier", "longer than 255 characters"),
    "minLength": ("refusal.S001.1.too-short", "$.world.providers[0].identifier", "shorter than 1 characters"),
    "maxItems": ("refusal.S001.1.too-many", "$.steps[0].before_write", "more than 100 items"),
    "minItems": ("refusal.S001.1.too-few", "$.steps", "fewer than 1 items"),
    "minProperties": ("refusal.S001.1.update-sets-nothing", "$.steps[0].set", "fewer than 1 fields"),
    "minimum": ("refusal.S001.1.below-minimum", "$.world.snippets[0].uid", "below the minimum 1"),
    "maximum": ("refusal.S001.1.above-maximum", "$.world.snippets[0].uid", "above the maximum 2147483647"),
    "pattern": ("refusal.S001.1.pattern", "$.id", "does not match ^[A-Za-z0-9][A-Za-z0-9._:/-]{0,199}$"),
    "uniqueItems": ("refusal.S001.1.unique-items", "$.world.cases[0].assignees", "holds one item twice"),
}
#: Keywords that only shape the schema: no value is refused by one of them itself.
STRUCTURE = {"$schema", "$id", "$ref", "$defs", "title", "description", "default", "properties", "items", "allOf", "if", "then", "else"}


def schema_keywords(node: object) -> set[str]:
    if isinstance(node, list):
        return set().union(*(schema_keywords(item) for item in node))
    if not isinstance(node, dict):
        return set()
    found = set(node)
    for key, value in node.items():
        children = value.values() if key in ("properties", "$defs") else [value] if key not in ("enum", "const", "required") else []
        found |= set().union(*(schema_keywords(child) for child in children))
    return found


def test_every_keyword_the_scenario_schema_refuses_by_has_its_words_pinned_by_a_case():
    assert schema_keywords(schema("scenario")) - STRUCTURE == set(SCHEMA_KEYWORD_CASES)
    by_id = {case["id"]: case["expected"] for case in CASES}
    for keyword, (case_id, field, problem) in SCHEMA_KEYWORD_CASES.items():
        assert by_id[case_id] == {"refused": {"field": field, "problem": problem}}, keyword


@pytest.mark.parametrize(("case_id", "field"), [
    ("refusal.S001.1.top-before-deeper", "$.zeta"),  # nearest the top, before the step's missing configuration
    ("refusal.S001.1.too-many-before-a-top-field", "$.steps[0].before_write"),  # a size first, before the unknown top field
    ("refusal.S001.1.too-long-before-a-top-field", "$.world.providers[0].identifier"),
])
def test_of_two_violations_the_one_s001_1_puts_first_is_named(case_id, field):
    assert next(case for case in CASES if case["id"] == case_id)["expected"]["refused"]["field"] == field
