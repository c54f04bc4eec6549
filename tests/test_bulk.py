"""decide --jsonl in bulk: --keep-going's error records, worker processes that always end, and a bounded read-ahead."""

from __future__ import annotations

import json
import multiprocessing
import pathlib
import subprocess
import sys
from itertools import islice

import jsonschema_rs
import orjson
import pytest
from click.testing import CliRunner

from gateproof.conformance.harness import bulk
from gateproof.conformance.cli import main
from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario

ROOT = pathlib.Path(__file__).resolve().parent.parent
ERROR_SCHEMA = json.loads((ROOT / "conformance" / "schema" / "decide-error.schema.json").read_text())
EXAMPLE = json.loads((ROOT / "examples" / "observe-mode.json").read_text())
#: Enough lines that --jobs 2 starts a worker pool (its threshold is CHUNK + POOL_AFTER).
MANY = bulk.CHUNK + bulk.POOL_AFTER + 3 * bulk.CHUNK


def line(number: int) -> bytes:
    return orjson.dumps(dict(EXAMPLE, id=f"bulk/{number}"))


def outcome(number: int) -> dict:
    return run_scenario(read_scenario(dict(EXAMPLE, id=f"bulk/{number}")))


@pytest.fixture
def two_cores(monkeypatch):
    """As if two idle cores were there, so --jobs 2 starts a worker even on a busy or one-core machine."""
    monkeypatch.setattr(bulk, "idle_cores", lambda: 2)


def decide(*args, input: bytes):
    return CliRunner().invoke(main, ["decide", "--jsonl", *args], input=input)


def mixed(count: int, bad: dict[int, bytes]) -> list[bytes]:
    """``count`` lines, line ``n`` (from 1) replaced by ``bad[n]``."""
    return [bad.get(n, line(n)) for n in range(1, count + 1)]


BAD = {2: b"{not json", 5: b"", 7: orjson.dumps({**EXAMPLE, "gateproof": 2}), 11: orjson.dumps({"gateproof": 1, "world": {}, "steps": []})}


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_keep_going_writes_an_error_record_for_each_bad_line_and_decides_every_other(jobs, two_cores):
    count = MANY if jobs == "2" else 40
    lines = mixed(count, BAD)
    done = decide("--keep-going", "--jobs", jobs, input=b"\n".join(lines) + b"\n")
    assert done.exit_code == 2
    records = [json.loads(text) for text in done.stdout.splitlines()]
    assert len(records) == count - 1  # the blank line 5 has no record, and keeps its number
    errors = [r for r in records if "error" in r]
    for record in errors:
        jsonschema_rs.validate(ERROR_SCHEMA, record)
    assert [(e["line"], e["error"]["field"]) for e in errors] == [(2, "$"), (7, "$.gateproof"), (11, "$.id")]
    assert errors[1]["error"]["problem"] == "expected one of 1, got 2"
    decided = [r for r in records if "error" not in r]
    assert decided == [outcome(n) for n in range(1, count + 1) if n not in BAD]
    assert "3 invalid lines, written as error records; the first: line 2: $: not valid JSON" in done.stderr


def test_keep_going_on_good_lines_alone_exits_0_and_is_only_for_jsonl():
    done = decide("--keep-going", input=line(1) + b"\n" + line(2) + b"\n")
    assert done.exit_code == 0 and [json.loads(t) for t in done.stdout.splitlines()] == [outcome(1), outcome(2)]
    alone = CliRunner().invoke(main, ["decide", "--keep-going", str(ROOT / "examples" / "observe-mode.json")])
    assert alone.exit_code == 2 and "--keep-going goes with --jsonl" in alone.stderr


def test_without_keep_going_the_first_bad_line_stops_a_pooled_run_after_every_line_before_it(two_cores):
    lines = mixed(MANY, {600: b"[]", 700: b"{"})
    done = decide("--jobs", "2", input=b"\n".join(lines) + b"\n")
    assert done.exit_code == 2
    assert [json.loads(t) for t in done.stdout.splitlines()] == [outcome(n) for n in range(1, 600)]
    assert "line 600: $: expected object, got array" in done.stderr


def test_a_reader_that_stops_early_leaves_no_worker_process_behind(two_cores):
    lines = mixed(MANY, {300: b"{"})
    for _ in range(25):  # the pool used to be left to the interpreter's exit, which hung about one run in fifty
        with bulk.decisions(iter(lines), jobs=2) as results:
            for number, result in results:
                if not isinstance(result, bytes):
                    break
        assert number == 300
        assert multiprocessing.active_children() == []


def test_the_command_exits_after_a_bad_line_every_time():
    path = ROOT / "examples" / "observe-mode.json"
    text = orjson.dumps(json.loads(path.read_text()))
    data = b"\n".join([text] * 900 + [b"{"] + [text] * 900) + b"\n"
    for _ in range(8):
        done = subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "decide", "--jsonl", "--jobs", "2"],
                              input=data, capture_output=True, timeout=120)
        assert done.returncode == 2 and b"line 901: $: not valid JSON" in done.stderr
        assert done.stdout.count(b"\n") == 900


@pytest.mark.parametrize("jobs", [1, 2])
def test_lines_are_read_only_a_bounded_distance_ahead_of_what_is_handed_on(jobs, two_cores):
    read = 0

    def endless():
        nonlocal read
        number = 0
        while True:
            number += 1
            read += 1
            yield line(number)

    ahead = bulk.CHUNK + bulk.POOL_AFTER + bulk.CHUNK * (jobs + 1) * bulk.AHEAD
    with bulk.decisions(endless(), jobs=jobs) as results:
        for handed, (number, result) in enumerate(islice(results, 4000), 1):
            assert number == handed and orjson.loads(result) == outcome(number)
            assert read - handed <= ahead
    assert read >= 4000


def test_one_idle_core_or_a_short_stream_is_decided_without_a_pool(monkeypatch):
    def no_pool(*args):
        raise AssertionError("a worker pool was started")

    monkeypatch.setattr(bulk, "_shared", no_pool)
    monkeypatch.setattr(bulk, "idle_cores", lambda: 1)
    assert len(list(bulk.decide_lines([line(n) for n in range(MANY)], jobs=2))) == MANY
    monkeypatch.setattr(bulk, "idle_cores", lambda: 2)
    short = [line(n) for n in range(bulk.CHUNK + bulk.POOL_AFTER - 1)]
    assert [orjson.loads(r) for _, r in bulk.decide_lines(short, jobs=2)] == [orjson.loads(r) for _, r in bulk.decide_lines(short)]


def test_worker_processes_decide_as_one_process_does_in_input_order(two_cores):
    lines = mixed(MANY + 17, {})
    alone = decide(input=b"\n".join(lines) + b"\n")
    shared = decide("--jobs", "2", input=b"\n".join(lines) + b"\n")
    assert alone.exit_code == shared.exit_code == 0
    assert shared.stdout == alone.stdout and alone.stdout.count("\n") == MANY + 17


@pytest.mark.parametrize("cores, load, idle", [(2, 0.0, 2), (2, 0.9, 2), (2, 1.0, 1), (2, 9.5, 1), (8, 2.5, 6), (1, 0.0, 1)])
def test_the_cores_left_idle_are_the_usable_ones_less_the_load_rounded_up(monkeypatch, cores, load, idle):
    monkeypatch.setattr(bulk, "usable_cores", lambda: cores)
    monkeypatch.setattr(bulk.os, "getloadavg", lambda: (load, load, load))
    assert bulk.idle_cores() == idle
    assert bulk.worker_count(64) == idle and bulk.worker_count(1) == 1


def _under_replay(name: str, document: dict):
    from gateproof.conformance.implementations.wrong.decide import decided_under, is_for

    if not is_for(name, document):
        return "does not apply"
    try:
        return decided_under(name, document)
    except ScenarioError as error:
        return error.path, error.problem


def _decided(name: str, document: dict):
    try:
        return bulk.decided(document, name)
    except ScenarioError as error:
        return "does not apply" if "does not apply" in error.problem else (error.path, error.problem)


def test_a_rule_version_read_once_decides_as_the_replay_that_reads_the_document_under_it():
    from gateproof.conformance.generation import scenarios
    from gateproof.conformance.corpus.load import load_corpus
    from gateproof.model.gateway.gate import GATEWAY_VERSIONS
    from gateproof.model.versions import VERSIONS

    documents = [case.scenario for case in load_corpus()]
    documents += [document for version in ("adr-179", "nr-llm") for document in islice(scenarios("ceiling", version, 3), 40)]
    documents += list(islice(scenarios("gateway", "lab-001", 3), 20))
    differing = []
    for name in [*VERSIONS, *GATEWAY_VERSIONS, "wrong:first-wins-ties"]:
        for document in documents:
            if _decided(name, document) != _under_replay(name, document):
                differing.append((name, document["id"]))
    assert differing == []
    assert bulk.decided(documents[0], "nr-llm")["rules"] == "nr-llm"


def test_a_rule_version_is_decided_without_loading_the_prover():
    # The prover loads z3, which costs the command's start-up more than a thousand decisions.
    code = ("import sys; from gateproof.conformance.cli import main; sys.argv = ['gateproof', 'decide', '--jsonl', '--rules', 'nr-llm']\n"
            "try: main()\nexcept SystemExit as exit: assert exit.code in (0, None), exit.code\n"
            "loaded = sorted(m for m in sys.modules if m.startswith(('z3', 'gateproof.conformance.proofs')))\n"
            "print('loaded', loaded, file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], input=line(1) + b"\n", capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert orjson.loads(done.stdout)["rules"] == "nr-llm"
    assert b"loaded []" in done.stderr
