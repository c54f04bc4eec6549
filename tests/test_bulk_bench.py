"""make bench's side-by-side of decide --jsonl and nr-llm's PHP classes, and its time per phase (figures printed, never asserted)."""

from __future__ import annotations

import re

import orjson
import pytest

from gateproof.conformance.harness import bulk
from gateproof.conformance.bench import nrllm as bulk_bench
from gateproof.conformance.implementations import NRLLM_SRC, unavailable

needs_nrllm = pytest.mark.skipif(unavailable("nr-llm") is not None, reason=f"nr-llm cannot run here: {unavailable('nr-llm')}")


def test_single_sends_are_valid_nrllm_scenarios_of_one_send_each_cut_from_the_generated_ones():
    documents = bulk_bench.single_sends(60)
    assert len(documents) == 60 and len({d["id"] for d in documents}) == 60
    for document in documents:
        assert document["rules"] == "nr-llm" and [step["op"] for step in document["steps"]] == ["send"]
        assert [result["op"] for result in bulk.decided(document)["results"]] == ["send"]


def test_the_phases_are_timed_through_the_functions_a_line_is_decided_by():
    lines = [orjson.dumps(document) for document in bulk_bench.single_sends(20)]
    spent = bulk_bench.phase_times(lines)
    assert list(spent) == ["parse", "validate", "read", "decide", "serialise"]
    assert all(figure > 0 for figure in spent.values()), spent
    with pytest.raises(bulk.ScenarioError):  # an invalid line is refused in its phase, as the command refuses it
        bulk_bench.phase_times([b'{"gateproof": 2}'])


def test_outcomes_agree_only_where_both_programs_decided_alike():
    document = bulk_bench.single_sends(1)[0]
    outcome = bulk.decided(document, "nr-llm")
    reply = {"seq": 0, "outcome": outcome}
    started = b'{"started":{}}\n'
    ours = orjson.dumps(outcome) + b"\n"
    assert bulk_bench.agreeing(ours * 2, started + orjson.dumps(reply) + b"\n") == 1  # a reply missing is no agreement
    assert bulk_bench.agreeing(ours * 2, started + (orjson.dumps(reply) + b"\n") * 2) == 2
    apart = {**outcome, "results": [{**outcome["results"][0], "sent": not outcome["results"][0]["sent"]}]}
    assert bulk_bench.agreeing(ours, started + orjson.dumps({"seq": 0, "outcome": apart}) + b"\n") == 0
    assert bulk_bench.agreeing(ours, started + b'{"seq":0,"skipped":{"message":"no"}}\n') == 0


@needs_nrllm
def test_side_by_side_runs_both_programs_whole_and_they_decide_alike():
    both = bulk_bench.side_by_side(bulk_bench.single_sends(25), rounds=1)
    assert both.count == both.agreed == 25
    assert both.gateproof.cpu > 0 and both.php.cpu > 0 and both.ratio == both.php.cpu / both.gateproof.cpu


@needs_nrllm
def test_the_bench_prints_the_ratio_beside_nrllm_and_each_phase():
    printed: list[str] = []
    bulk_bench.bench_nrllm(print=printed.append, count=20, rounds=1)
    assert "beside nr-llm's own PHP classes" in printed[0]
    for line in printed[1:3]:
        assert re.search(r"ratio [0-9.]+x   decided alike 20 of 20$", line), line
    assert "parse, validate, read, decide, serialise" in printed[3]
    for line in printed[4:6]:
        assert re.search(r"parse +[0-9.]+  validate +[0-9.]+  read +[0-9.]+  decide +[0-9.]+  serialise +[0-9.]+   total +[0-9.]+ µs$", line), line


@pytest.mark.parametrize("php, why", [(False, "php is not on PATH"), (True, "no nr-llm checkout named")])
def test_without_php_or_a_checkout_the_bench_says_why_and_still_prints_each_phase(monkeypatch, php, why):
    """Whichever of the two is missing on this machine, the bench names it; php is hidden or stood in for to reach each."""
    import shutil

    found = shutil.which
    monkeypatch.setattr(shutil, "which", lambda program, *a, **k: ("/usr/bin/php" if php else None) if program == "php" else found(program, *a, **k))
    monkeypatch.setenv(NRLLM_SRC, "")
    printed: list[str] = []
    bulk_bench.bench_nrllm(print=printed.append, count=20, rounds=1)
    assert f"not measured ({why}" in printed[0] and "20,000/s" in printed[0]
    assert len(printed) == 4 and all("total" in line for line in printed[2:])


def test_a_program_that_fails_is_reported_with_its_stderr(tmp_path):
    given = tmp_path / "in"
    given.write_bytes(b"")
    with pytest.raises(RuntimeError, match="exited 3: gone"):
        bulk_bench.run_measured(["sh", "-c", "echo gone >&2; exit 3"], given, core=bulk_bench.one_core())
