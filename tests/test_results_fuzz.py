"""A results file with any JSON value at any field of a valid record: every report renders it, or refuses it naming the line.

Never a traceback: ``gateproof report`` either renders the campaign (exit 0)
or says which line is wrong and why (exit 2).
"""

from __future__ import annotations

import json
import re

import pytest
from fuzz_scale import fuzz_examples
from hypothesis import given, settings
from hypothesis import strategies as st

from gateproof.conformance.harness.protocol import Errored, Skipped, Started
from gateproof.conformance.harness.results import judge
from report_helpers import CASE, record, report, tally, verdict_of, wrong_export

FORMATS = ("json", "junit", "markdown", "html")

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def campaign_lines(tmp_path) -> list[dict]:
    """A campaign of every kind of verdict: a disagreement, an errored run with its context, a skip and a known divergence."""
    info = Started("my-gateway", "1.0", "python", "https://example.org", ["lab-001"], ["gateway"], "https://example.org/issues")
    errored = judge("my-gateway", "corpus", CASE.family, CASE.scenario, CASE.expected,
                    Errored(1, "no reply", {"fault": "timeout", "stderr": ["a", "b"], "reply": "{oops"}), "full", ())
    skipped = judge("my-gateway", "corpus", CASE.family, CASE.scenario, CASE.expected, Skipped(1, "not here", "https://example.org/2"), "full", ())
    verdicts = [verdict_of("my-gateway", wrong_export()), errored, skipped]
    results = record(tmp_path, [tally("my-gateway", verdicts, info=info, notes=["restarted"])])
    return [json.loads(line) for line in results.read_text().splitlines()]


def paths_in(value, path=(), depth: int = 4):
    """Every path to a field or item ``value`` holds, ``depth`` levels down at most: the fields a report reads."""
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, inner in items:
        yield (*path, key)
        if depth > 1:
            yield from paths_in(inner, (*path, key), depth - 1)


def replaced(document, path, value):
    if not path:
        return value
    document[path[0]] = replaced(document[path[0]], path[1:], value)
    return document


def written(tmp_path_factory, lines: list[dict]):
    results = tmp_path_factory.mktemp("results") / "results.jsonl"
    results.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return results


@pytest.fixture(scope="module")
def lines(tmp_path_factory):
    return campaign_lines(tmp_path_factory.mktemp("campaign"))


def test_the_campaign_fuzzed_renders_in_every_format(lines, tmp_path_factory):
    results = written(tmp_path_factory, lines)
    assert all(report(str(results), "--format", f).exit_code == 0 for f in FORMATS)


@settings(max_examples=fuzz_examples(300))
@given(data=st.data())
def test_any_value_at_any_field_renders_or_is_refused_naming_its_line(lines, tmp_path_factory, data):
    number, path = data.draw(st.sampled_from([(n, p) for n, line in enumerate(lines) for p in paths_in(line)]), label="field")
    value = data.draw(json_values, label="value")
    changed = [json.loads(json.dumps(line)) for line in lines]
    changed[number] = replaced(changed[number], path, value)
    results = written(tmp_path_factory, changed)
    for report_format in FORMATS:
        done = report(str(results), "--format", report_format)
        assert done.exit_code in (0, 2), done.output
        if done.exit_code == 2:
            assert re.search(r"results\.jsonl: (line \d+: |no end record|.*cut short)", done.output), done.output
            return  # refused: each format reads the file alike


@pytest.mark.parametrize("steps, named", [(None, "null"), (True, "boolean"), (3, "integer")])
def test_a_disagreement_whose_scenario_steps_are_not_a_list_is_refused_by_its_line_and_field(lines, tmp_path_factory, steps, named):
    changed = json.loads(json.dumps(lines))
    changed[1]["disagreement"]["scenario"]["steps"] = steps
    results = written(tmp_path_factory, changed)
    for report_format in FORMATS:
        done = report(str(results), "--format", report_format)
        assert done.exit_code == 2
        assert done.output == f"gateproof: error: {results}: line 2: $.disagreement.scenario.steps: expected array, got {named}\n"


@pytest.mark.parametrize("context", [{"reply": {"said": 1}, "stderr": None}, {"reply": None, "stderr": [None, 3, "last words"]}])
def test_an_errored_runs_context_of_any_shape_is_shown_as_it_is(lines, tmp_path_factory, context):
    changed = json.loads(json.dumps(lines))
    changed[2]["context"] = context
    results = written(tmp_path_factory, changed)
    done = report(str(results), "--format", "markdown")
    assert done.exit_code == 0
    assert ("last words" in done.output) == isinstance(context["stderr"], list)
