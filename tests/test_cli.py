"""The command line: decide, decide --jsonl and explain, and how each refuses bad input."""

from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys

import orjson
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from gateproof.conformance.cli import main
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.schema import validate

EXAMPLES = sorted((pathlib.Path(__file__).resolve().parent.parent / "examples").glob("*.json"))


def invoke(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.rule("S001.2")
@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_decide_prints_the_models_outcome_for_every_shipped_example(path):
    done = invoke("decide", str(path))
    assert done.exit_code == 0, done.output
    outcome = json.loads(done.output)
    validate("outcome", outcome)
    assert outcome == run_scenario(read_scenario(json.loads(path.read_text())))


@pytest.mark.rule("C164.4", "C144.10")
def test_the_shipped_examples_show_what_they_say():
    decisions = {}
    for path in EXAMPLES:
        outcome = json.loads(invoke("decide", str(path)).output)
        decisions[path.stem] = [(r.get("decision"), r.get("source")) for r in outcome["results"] if r["op"] == "send"]
    assert decisions["forced-snippet-refused"] == [("refused", 'snippet "incident-report"')]
    assert decisions["undeclared-installation"] == [("undeclared", "")]
    assert decisions["observe-mode"] == [("observed", 'snippet "Runbook secrets"')]
    assert decisions["fallback-drags-to-external"] == [("permitted", 'system prompt of "local-only"'), ("refused", 'system prompt of "code-review"')]


@pytest.mark.rule("S001.2")
def test_decide_jsonl_writes_one_outcome_per_line_and_stops_at_a_bad_line_naming_it():
    lines = [orjson.dumps(json.loads(p.read_text())) for p in EXAMPLES]
    done = invoke("decide", "--jsonl", input=b"\n".join(lines) + b"\n")
    assert done.exit_code == 0
    assert [json.loads(line)["scenario"] for line in done.output.splitlines()] == [json.loads(p.read_text())["id"] for p in EXAMPLES]
    wrong_version = orjson.dumps({**json.loads(lines[1]), "gateproof": 2})
    bad = invoke("decide", "--jsonl", input=lines[0] + b"\n" + wrong_version + b"\n" + lines[1] + b"\n")
    assert bad.exit_code == 2
    assert len(bad.stdout.splitlines()) == 1
    assert "line 2: $.gateproof: expected one of 1, got 2" in bad.stderr


@pytest.mark.rule("S001.1")
@pytest.mark.parametrize(
    "text, message",
    [
        ("not json", "-: $: not valid JSON"),
        ("[]", "-: $: expected object, got array"),
        ('{"gateproof": 1, "id": "x", "world": {}, "steps": [{"op": "send", "configuration": "nope"}]}', "$.steps[0].configuration: no configuration 'nope' in the world"),
        ('{"gateproof": 1, "id": "x", "world": {"snippets": [{"uid": "7"}]}, "steps": [{"op": "classify", "configuration": "c"}]}', "$.world.snippets[0].uid: expected integer, got string"),
        ('{"gateproof": 1, "id": "x", "rules": "adr-200", "world": {}, "steps": [{"op": "classify", "configuration": "c"}]}', '$.rules: expected one of "pre-164"'),
    ],
)
def test_invalid_input_exits_2_with_the_field_and_the_problem(text, message):
    done = invoke("decide", "-", input=text)
    assert done.exit_code == 2
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_missing_file_exits_2():
    done = invoke("explain", "/no/such/file.json")
    assert done.exit_code == 2 and "cannot read" in done.stderr


@pytest.mark.rule("C144.9", "C094.8")
def test_explain_shows_sources_fold_zone_decision_and_rule_ids():
    path = next(p for p in EXAMPLES if p.stem == "fallback-drags-to-external")
    done = invoke("explain", str(path))
    assert done.exit_code == 0
    text = done.output
    for expected in ["sources in composition order", "[C144.3", "fold:", "[C144.9, C094.1]", "fallback \"cloud-backup\"", "running zone externalGlobal", "decision: refused", "[C144.10"]:
        assert expected in text


@pytest.mark.rule("S001.2")
def test_decide_jsonl_with_worker_processes_keeps_input_order_and_stops_at_the_first_bad_line():
    lines = [orjson.dumps({**json.loads(p.read_text()), "id": f"copy/{n}/{p.stem}"}) for n in range(300) for p in EXAMPLES]
    alone = invoke("decide", "--jsonl", input=b"\n".join(lines) + b"\n")
    shared = invoke("decide", "--jsonl", "--jobs", "2", input=b"\n".join(lines) + b"\n")
    assert alone.exit_code == shared.exit_code == 0
    assert shared.output == alone.output and len(shared.output.splitlines()) == len(lines)
    broken = lines[:700] + [b'{"gateproof": 1}'] + lines[700:]
    bad = invoke("decide", "--jsonl", "--jobs", "2", input=b"\n".join(broken) + b"\n")
    assert bad.exit_code == 2 and "line 701: $.id: required field is missing" in bad.stderr
    assert len(bad.stdout.splitlines()) == 700


@pytest.mark.rule("C144.15")
def test_the_command_line_reads_integers_beyond_64_bits_exactly_as_in_process():
    from gateproof.conformance.harness.documents import parse_json

    assert parse_json(b'{"be_user": 18446744073709551617, "x": [1.5]}') == {"be_user": 18446744073709551617, "x": [1.5]}
    assert parse_json(b'{"text": "12345678901234567890123"}') == {"text": "12345678901234567890123"}


@pytest.mark.rule("C144.15")
@given(st.binary(max_size=80) | st.lists(st.sampled_from([b"1234567890", b"7", b"x", b"\xd9\xa3", b" "]), max_size=60).map(b"".join))
def test_the_long_number_check_finds_exactly_the_runs_of_nineteen_ascii_digits(raw):
    from gateproof.conformance.harness.documents import has_long_number

    assert has_long_number(raw) == (re.search(rb"[0-9]{19}", raw) is not None)


def test_deciding_loads_neither_the_prover_nor_the_harness():
    """Bulk runs pay the start-up once per process: decide imports only the model and its reader."""
    example = sorted((pathlib.Path(__file__).parent.parent / "examples").glob("*.json"))[0]
    code = (
        "import sys\n"
        "from gateproof.conformance.cli import main\n"
        f"try:\n    main(['decide', {str(example)!r}])\nexcept SystemExit as done:\n    assert done.code in (0, None), done.code\n"
        "print(sorted(m for m in ('z3', 'hypothesis', 'rich') if m in sys.modules), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["gateproof"] == 1
    assert done.stderr.strip() == "[]"


@pytest.mark.rule("S001.1")
@pytest.mark.parametrize("be_user", ["0", "18446744073709551617"], ids=["fast parser", "exact parser"])
def test_a_key_written_twice_outside_a_proposal_is_refused_naming_the_object_and_the_key(be_user):
    from gateproof.conformance.harness.documents import parse_json

    text = '{"gateproof": 1, "id": "d", "world": {"enforcement": "observe", "enforcement": "enforce"}, "steps": [{"op": "classify", "configuration": "c"}], "x": %s}' % be_user
    with pytest.raises(ScenarioError, match=r"^\$\.world: the key 'enforcement' is written more than once$"):
        parse_json(text.encode())
    top = '{"gateproof": 1, "id": "first", "id": "last", "world": {}, "steps": [], "x": %s}' % be_user
    with pytest.raises(ScenarioError, match=r"^\$: the key 'id' is written more than once$"):
        parse_json(top.encode())


@pytest.mark.rule("S001.6")
def test_shipped_documents_write_a_key_twice_only_within_a_proposal():
    from gateproof.conformance.harness.documents import parse_json
    from gateproof.model.scenario.document import check_repeated_keys

    root = pathlib.Path(__file__).parent.parent
    examples = sorted((root / "examples").glob("*.json"))
    corpus = sorted((root / "conformance" / "corpus").rglob("*.json"))
    assert len(examples) > 5 and len(corpus) > 5
    for path in examples:
        parse_json(path.read_bytes())
    for path in corpus:
        for case in parse_json(path.read_bytes(), repeats=None)["cases"]:
            if path.name == "refusals.json":  # invalid documents: those that write a key twice are given as text
                check_repeated_keys(case.get("document"))
                continue
            check_repeated_keys(case["scenario"])
            check_repeated_keys(case["expected"])


def test_explain_under_another_version_shows_where_the_versions_part():
    """A maintainer explains one story under each version: the header and the lookup that differs both show it."""
    path = str(pathlib.Path(__file__).parent.parent / "examples" / "adr-166-deactivation-keeps-the-class.json")
    own, earlier = invoke("explain", path), invoke("explain", "--rules", "adr-165", path)
    assert own.exit_code == earlier.exit_code == 0
    assert "under rules adr-166" in own.stdout and "under rules adr-165" in earlier.stdout
    assert own.stdout.splitlines()[1:] != earlier.stdout.splitlines()[1:]
    assert earlier.stdout == invoke("explain", "--rules", "adr-165", "-", input=pathlib.Path(path).read_bytes()).stdout


@pytest.mark.parametrize("rules, path", [("lab-001", "observe-mode.json"), ("adr-179", "gateway-next-checks.json")])
def test_explain_refuses_a_version_of_the_other_kind(rules, path):
    done = invoke("explain", "--rules", rules, str(pathlib.Path(__file__).parent.parent / "examples" / path))
    assert done.exit_code == 2 and f"--rules {rules} does not apply to this kind of scenario" in done.stderr
