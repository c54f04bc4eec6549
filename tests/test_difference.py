"""The structured difference: every differing leaf under its JSON path, both values whole, absent apart from null, its rules."""

from __future__ import annotations

from gateproof.conformance.harness.difference import ABSENT, Leaf, differences, value_text
from gateproof.conformance.harness.results import Disagreement, Verdict
from gateproof.conformance.reports.failure import failure_lines

SEND = {"op": "send", "decision": "refused", "audit": [{"reason": "secretAdjacent", "detail": 'snippet "vault-paths"'}]}


def outcome(*results: dict) -> dict:
    return {"gateproof": 1, "scenario": "s", "rules": "adr-179", "results": list(results)}


def test_a_differing_leaf_is_named_by_its_path_with_both_values_and_the_rule_that_decides_it():
    changed = dict(SEND, audit=[{"reason": "secretAdjacent", "detail": "snippet vault-paths: the whole stored text"}])
    [leaf] = differences(outcome(SEND), outcome(changed))
    assert leaf == Leaf("results[0].audit[0].detail", 'snippet "vault-paths"', "snippet vault-paths: the whole stored text", ("C144.14",))


def test_a_missing_field_is_absent_never_null():
    [missing] = differences(outcome(dict(SEND, dropped=None)), outcome(SEND))
    assert missing.path == "results[0].dropped" and missing.expected is None and missing.actual is ABSENT
    assert (value_text(missing.expected), value_text(missing.actual)) == ("null", "absent")
    assert missing.serializable() == {"path": "results[0].dropped", "expected": None, "rules": ["C179.1"]}


def test_json_types_differ_where_python_equality_does_not():
    [leaf] = differences(outcome(dict(SEND, sent=True)), outcome(dict(SEND, sent=1)))
    assert (leaf.path, leaf.expected, leaf.actual) == ("results[0].sent", True, 1)


def test_a_missing_step_is_one_leaf_under_the_result_numbering_rule():
    [leaf] = differences(outcome(SEND, SEND), outcome(SEND))
    assert (leaf.path, leaf.actual, leaf.rules) == ("results[1]", ABSENT, ("S001.2",))


def test_a_call_field_is_decided_by_the_rule_the_result_names_and_the_field_rule():
    call = {"op": "call", "decision": "deny", "reason": "not_assigned", "rule": "G001.11", "audit": {"case_id": "CASE-1"}}
    leaked = dict(call, audit={"case_id": "CASE-1: Customer reports double billing"})
    [leaf] = differences(outcome(call), outcome(leaked))
    assert leaf.path == "results[0].audit.case_id" and leaf.rules == ("G001.15", "G001.11")
    [reason] = differences(outcome(call), outcome(dict(call, reason="role_denied")))
    assert reason.rules == ("G001.11",)


def test_the_terminal_shows_long_values_whole_and_the_model_explanation_of_the_step():
    long_text = "CASE-1: " + "Customer reports double billing on invoice 77. " * 6
    scenario = {"gateproof": 1, "id": "s", "kind": "gateway", "rules": "lab-001", "world": {}, "steps": []}
    d = Disagreement(scenario, outcome({"op": "call", "audit": {"case_id": "CASE-1"}}), outcome({"op": "call", "audit": {"case_id": long_text}}), 0, ("audit",))
    lines = failure_lines(Verdict("impl", "corpus", "f", "s", "failed", "", ("G001.15",), None, d), width=80)
    shown = "".join(line.split("actual", 1)[1].strip() if "actual" in line else line.strip() for line in lines if line.startswith("      "))
    assert long_text.replace(" ", "") in shown.replace(" ", "")
    assert any(line.strip().startswith("results[0].audit.case_id") for line in lines)
    commands = ("  replay:", "  explain:", "  rule texts:")  # a command is one line to copy, however long the path gateproof runs from
    assert all(len(line) <= 80 for line in lines if not line.startswith(commands))


def test_a_steps_leaves_are_listed_in_the_order_the_rules_derive_them_so_the_first_is_where_to_look():
    model = {"op": "send", "decision": "refused", "declared_class": "secretAdjacent", "zone": "externalGlobal", "ceiling": "editorContent", "sent": False}
    wrong = dict(model, decision="permitted", zone="local", ceiling="secretAdjacent", sent=True)
    leaves = differences(outcome(SEND, model), outcome(SEND, wrong))
    assert [leaf.path for leaf in leaves] == ["results[1].zone", "results[1].ceiling", "results[1].decision", "results[1].sent"]
    call = {"op": "call", "decision": "deny", "reason": "not_assigned", "rule": "G001.11"}
    leaves = differences(outcome(call), outcome(dict(call, decision="allow", reason="allowed", rule=None)))
    assert [leaf.path for leaf in leaves] == ["results[0].reason", "results[0].rule", "results[0].decision"]


def test_the_rules_of_a_disagreement_follow_the_same_order():
    from gateproof.conformance.harness.compare import Mismatch, rule_ids

    assert rule_ids(Mismatch(0, ("audit", "decision", "zone")), outcome(SEND), outcome(SEND)) == (
        "C094.8", "C094.10", "C149.1", "C144.10", "C144.14")


def test_a_differing_zone_names_every_rule_the_zone_comes_from_as_its_explanation_does():
    from gateproof.conformance.explanation.explain import explain_under

    world = {"providers": [{"identifier": "p", "zone": "local"}], "models": [{"identifier": "m", "provider": "p"}],
             "configurations": [{"identifier": "c", "model": "m", "fallbacks": ["gone"], "system_prompt": "x", "system_prompt_class": "editorContent"}]}
    document = {"gateproof": 1, "id": "s", "world": world, "steps": [{"op": "send", "configuration": "c"}]}
    [step] = explain_under(document).steps
    [zone] = [applied for applied in step.applied if applied.id == "zone"]
    model = step.result
    [leaf] = differences(outcome(model), outcome(dict(model, zone="local")))
    assert leaf.path == "results[0].zone" and model["zone"] == "externalGlobal" and leaf.rules == zone.rules


def test_two_long_texts_are_shown_whole_and_where_they_part():
    from gateproof.conformance.harness.difference import parting
    from gateproof.conformance.reports.failure import wrapped

    expected = "The injected context is classified secretAdjacent, which exceeds what a provider may receive."
    actual = "The injected context is classified secretAdjacent, which a provider may receive."
    assert parting(expected, actual) == ('they part after character 57, "d secretAdjacent, which ": '
                                         'expected "exceeds what a provider ", actual "a provider may receive."')
    assert parting("short", "shorter") is None and parting(expected, None) is None
    assert parting(expected, expected + "!") .startswith(f"they part after character {len(expected)},")
    lines = wrapped("expected", value_text(expected), 60, "      ")
    assert "".join(line[len("      expected  "):] for line in lines) == value_text(expected)
    assert all(len(line) <= 60 for line in lines) and lines[0].endswith(" ")  # broken after a space, not inside a word


def test_a_run_field_names_its_lifecycle_rule_in_the_disagreements_rules():
    from gateproof.conformance.harness.compare import Mismatch, rule_ids

    resume = {"op": "resume", "decision": "undeclared", "forced_skills": [3, 2]}
    assert rule_ids(Mismatch(0, ("forced_skills",)), outcome(resume), outcome(dict(resume, forced_skills=[2, 3]))) == ("C175.3",)


def test_the_rules_line_tells_the_rule_broken_from_the_rule_the_implementation_answered_with():
    call = {"op": "call", "decision": "deny", "reason": "unknown_tool", "rule": "G001.1"}
    wrong = dict(call, reason="missing_argument", rule="G001.4")
    scenario = {"gateproof": 1, "id": "s", "kind": "gateway", "rules": "lab-001", "world": {}, "steps": []}
    d = Disagreement(scenario, outcome(call), outcome(wrong), 0, ("reason", "rule"))
    lines = failure_lines(Verdict("impl", "generated", "f", "s", "failed", "", ("G001.1", "G001.4"), None, d), explained=False)
    assert lines[1] == "  rules: G001.1; the implementation's answer names G001.4"
    same = Disagreement(scenario, outcome(call), outcome(dict(call, decision="allow")), 0, ("decision",))
    assert failure_lines(Verdict("impl", "generated", "f", "s", "failed", "", ("G001.1",), None, same), explained=False)[1] == "  rules: G001.1"


def test_the_rule_the_models_call_names_comes_before_the_rules_a_corpus_case_pins():
    from gateproof.conformance.harness.compare import Mismatch, rule_ids

    call = {"op": "call", "decision": "deny", "reason": "tenant_mismatch", "rule": "G001.10"}
    wrong = dict(call, decision="allow", reason="allowed", rule=None)
    assert rule_ids(Mismatch(0, ("reason", "decision")), outcome(call), outcome(wrong), ("G001.12",)) == ("G001.10", "G001.12")
    forged = dict(call, reason="not_assigned", rule="G001.11")
    assert rule_ids(Mismatch(0, ("reason",)), outcome(call), outcome(forged), ("G001.12",)) == ("G001.10", "G001.12", "G001.11")


def test_every_report_says_the_rules_in_one_line_alike():
    from gateproof.conformance.reports.cases import case_of
    from gateproof.conformance.reports.junit import difference_text
    from gateproof.conformance.reports.markdown import case_lines

    call = {"op": "call", "decision": "deny", "reason": "unknown_tool", "rule": "G001.1"}
    scenario = {"gateproof": 1, "id": "s", "kind": "gateway", "rules": "lab-001", "world": {}, "steps": []}
    d = Disagreement(scenario, outcome(call), outcome(dict(call, reason="missing_argument", rule="G001.4")), 0, ("reason", "rule"))
    verdict = Verdict("impl", "generated", "f", "s", "failed", "", ("G001.1", "G001.4"), None, d)
    line = "rules: G001.1; the implementation's answer names G001.4"
    assert failure_lines(verdict, explained=False)[1] == f"  {line}"
    assert case_lines(verdict)[2] == line  # the scenario describes nothing: no case line before the rules
    assert difference_text(verdict).splitlines()[1] == line
    assert (case_of(verdict).rules, case_of(verdict).answered) == (("G001.1",), ("G001.4",))


def test_a_disagreement_is_headed_with_its_rule_version_and_what_its_corpus_case_sets_out_to_show():
    call = {"op": "call", "decision": "deny", "reason": "unknown_tool", "rule": "G001.1"}
    scenario = {"gateproof": 1, "id": "gw.x", "kind": "gateway", "world": {}, "steps": [],
                "description": "G001.1 applies: the tool delete_case is not one the gateway knows, so the call is refused."}
    d = Disagreement(scenario, outcome(call), outcome(dict(call, decision="allow")), 0, ("decision",))
    lines = failure_lines(Verdict("impl", "corpus", "gateway/boundary", "gw.x", "failed", "", ("G001.1",), None, d), width=60, explained=False)
    assert lines[:4] == ["impl failed: gw.x  (gateway/boundary, under lab-001)",
                         "  case  G001.1 applies: the tool delete_case is not one the ",
                         "        gateway knows, so the call is refused.",
                         "  rules: G001.1"]
    from gateproof.conformance.reports.markdown import case_lines

    corpus = Verdict("impl", "corpus", "gateway/boundary", "gw.x", "failed", "", ("G001.1",), None, d)
    # An allowed call the model denies is a security disagreement: marked first, with what it lets out (harness/severity.py).
    assert case_lines(corpus)[:7] == ["**SECURITY** **failed** gw.x (gateway/boundary, under lab-001): ", "",
                                      "security: step 0: allows a call the model denies (unknown\\_tool) \\[G001.13, G001.1\\]", "",
                                      f"case: {scenario['description'].replace('_', chr(92) + '_')}", "", "rules: G001.1"]  # Markdown-escaped
    generated = Disagreement(dict(scenario, rules="lab-001+next", description=""), outcome(call), outcome(dict(call, decision="allow")), 0, ("decision",))
    verdict = Verdict("impl", "generated", "generated/lab-001+next", "gw.x", "failed", "", ("G001.1",), None, generated)
    assert failure_lines(verdict, explained=False)[:2] == ["impl failed: gw.x  (generated/lab-001+next)", "  rules: G001.1"]


NAMED = {"op": "send", "decision": "refused", "source": 'skill "k1"', "message": 'Refused. Declared by skill "k1".',
         "audit": [{"reason": "sourceCode", "detail": 'skill "k1"'}]}
RENAMED = dict(NAMED, source='snippet "s1"', message='Refused. Declared by snippet "s1".', audit=[{"reason": "sourceCode", "detail": 'snippet "s1"'}])


def test_a_text_that_differs_only_by_an_earlier_fields_change_is_told_as_that_change():
    from gateproof.conformance.harness.difference import echo_text, echoes

    leaves = differences(outcome(NAMED), outcome(RENAMED))
    assert [leaf.path for leaf in leaves] == ["results[0].source", "results[0].message", "results[0].audit[0].detail"]
    source, message, detail = leaves
    assert echoes(leaves) == [None, source, source]
    assert echo_text(message, source) == 'differs only as results[0].source does: "skill \\"k1\\"" in it reads "snippet \\"s1\\""'
    assert echo_text(detail, source) == "the same two values as results[0].source"


def test_a_text_with_a_change_of_its_own_beside_the_earlier_one_is_shown_whole():
    from gateproof.conformance.harness.difference import echoes

    more = dict(RENAMED, message='Refused! Declared by snippet "s1".')  # the source renamed, and a word changed too
    assert echoes(differences(outcome(NAMED), outcome(more)))[1] is None
    partly = dict(RENAMED, message='Refused. Declared by snippet "s1", not skill "k1".')  # one "skill \"k1\"" left as it was
    assert echoes(differences(outcome(dict(NAMED, message='Refused. Declared by skill "k1", not skill "k1".')), outcome(partly)))[1] is None
    assert echoes(differences(outcome(dict(NAMED, sent=False)), outcome(dict(NAMED, sent=True)))) == [None]  # not a text


def test_the_terminal_and_markdown_say_the_change_once_and_the_html_keeps_both_values():
    from gateproof.conformance.reports.cases import case_of
    from gateproof.conformance.reports.markdown import case_lines

    scenario = {"gateproof": 1, "id": "s", "world": {}, "steps": []}
    d = Disagreement(scenario, outcome(NAMED), outcome(RENAMED), 0, ("source", "message", "audit"))
    verdict = Verdict("impl", "generated", "f", "s", "failed", "", ("C144.9",), None, d)
    lines = failure_lines(verdict, explained=False)
    start = lines.index("    results[0].message  [C144.12]")
    assert lines[start + 1] == '      differs only as results[0].source does: "skill \\"k1\\"" in it reads "snippet \\"s1\\""'
    assert lines[start + 2:start + 4] == ["    results[0].audit[0].detail  [C144.14]", "      the same two values as results[0].source"]
    assert sum("expected" in line for line in lines) == 1  # the source's values alone are written out
    markdown = "\n".join(case_lines(verdict))
    assert "  the same two values as results[0].source" in markdown and markdown.count("expected:") == 1
    assert [cause.path if cause else None for _, cause in case_of(verdict).shown] == [None, "results[0].source", "results[0].source"]


def test_the_terminal_explains_how_the_model_decides_and_leaves_what_it_writes_to_the_fields_and_explain():
    from gateproof.conformance.reports.cases import case_of
    from gateproof.model.scenario import read_scenario, run_scenario

    world = {"providers": [{"identifier": "p", "zone": "externalGlobal"}], "models": [{"identifier": "m", "provider": "p"}],
             "configurations": [{"identifier": "c", "model": "m"}],
             "snippets": [{"uid": 1, "identifier": "s1", "data_class": "secretAdjacent"}]}
    scenario = {"gateproof": 1, "id": "s", "world": world, "steps": [{"op": "send", "configuration": "c", "forced_snippets": [1]}]}
    model = run_scenario(read_scenario(scenario))
    wrong = {**model, "results": [dict(model["results"][0], decision="permitted", sent=True)]}
    verdict = Verdict("impl", "generated", "f", "s", "failed", "", ("C144.10",), None, Disagreement(scenario, model, wrong, 0, ("decision", "sent")))
    lines = failure_lines(verdict)
    assert "    |   decision: refused; sent: no  [C144.10, C144.11]" in lines
    assert lines[-2] == "    |   then it writes the message, the exception and the audit record (explain shows them)"
    assert not any("audit record  [" in line or "correlation_id" in line for line in lines)
    assert any("audit record  [C144.14, C144.15]" in line for line in case_of(verdict).explanation)  # the reports keep it whole
