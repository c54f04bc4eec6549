"""The protocol's messages: wire names from class names, checked against the schemas on both sides."""

import json

import orjson
import pytest

from gateproof.conformance.harness.process import ImplementationProcess
from gateproof.conformance.harness.protocol import (
    SCHEMA_DIR, Errored, Outcome, ProtocolError, Run, Skipped, Start, Started, Stop, read_command, read_run_reply, read_started, wire_name,
)
from gateproof.conformance.implementations import BUILTINS, unavailable
from gateproof.conformance.corpus.load import load_corpus

GATEWAY_CASES = [c for c in load_corpus() if c.family == "gateway/next_checks"]


def test_every_message_has_a_schema_named_by_its_wire_name():
    names = {wire_name(cls) for cls in (Start, Run, Stop, Started, Outcome, Skipped, Errored)}
    assert names == {"start", "run", "stop", "started", "outcome", "skipped", "errored"}
    assert names <= {path.stem for path in SCHEMA_DIR.glob("*.json")}
    for path in SCHEMA_DIR.glob("*.json"):
        assert json.loads(path.read_text())["$id"].endswith(path.stem)


def test_commands_round_trip_through_the_wire():
    for command in (Start(), Run(7, {"id": "x"}), Stop()):
        assert read_command(orjson.loads(orjson.dumps(command.serializable()))) == command


def test_a_command_that_breaks_its_schema_names_the_field():
    with pytest.raises(ProtocolError, match=r"run message: \$: .*seq"):
        read_command({"cmd": "run", "scenario": {}})
    with pytest.raises(ProtocolError, match="not a command"):
        read_command({"cmd": "launch"})


def test_run_replies_are_read_by_their_one_key():
    outcome = GATEWAY_CASES[0].expected
    assert read_run_reply({"seq": 1, "outcome": outcome}) == Outcome(1, outcome)
    assert read_run_reply({"seq": 2, "skipped": {"message": "not here", "issue_url": "https://example.org/1"}}) == Skipped(2, "not here", "https://example.org/1")
    assert read_run_reply({"seq": 3, "errored": {"message": "boom"}}) == Errored(3, "boom")


@pytest.mark.parametrize("reply, problem", [
    ([], "must be an object"),
    ({"seq": 1}, "exactly one of"),
    ({"seq": 1, "outcome": {}, "skipped": {"message": "x"}}, "exactly one of"),
    ({"seq": -1, "errored": {"message": "x"}}, "errored message: \\$.seq"),
    ({"seq": 1, "outcome": {"results": []}}, "outcome.schema.json"),
])
def test_a_reply_that_breaks_the_protocol_is_refused(reply, problem):
    with pytest.raises(ProtocolError, match=problem):
        read_run_reply(reply)


def test_started_declares_what_the_implementation_decides():
    info = read_started(Started("x", "1", "rust", "", ["lab-001"], ["gateway"]).serializable())
    assert info.decides({"kind": "gateway"}) and not info.decides({"kind": "gateway", "rules": "lab-001+next"})
    assert not info.decides({"steps": []})  # a ceiling scenario
    with pytest.raises(ProtocolError, match="kinds"):
        read_started({"started": {**info.serializable()["started"], "kinds": []}})


def test_every_builtin_answers_start_with_its_identity():
    for name, argv in BUILTINS.items():
        if unavailable(name):  # node not on PATH, or no nr-llm checkout named: verify reports it unavailable
            continue
        process = ImplementationProcess(argv, timeout=30)
        info = process.start()
        process.close()
        # An MCP gateway is named by what its server describes itself as, its variants by their fault.
        mutant = name.removeprefix("mutant:mcp-")
        expected = f"mcp-python-{mutant}" if mutant != name else name
        assert info.name == expected and info.protocol == 1 and info.rules and info.kinds


def test_the_reference_agrees_with_every_case_it_is_sent_pipelined():
    process = ImplementationProcess(BUILTINS["reference"], window=4)
    process.start()
    replies = list(process.run_many(c.scenario for c in load_corpus()))
    process.close()
    expected = {c.id: c.expected for c in load_corpus()}
    assert len(replies) == len(expected)
    assert all(reply.outcome == expected[scenario["id"]] for scenario, reply in replies)


def test_cedar_skips_what_it_does_not_decide():
    process = ImplementationProcess(BUILTINS["cedar"])
    process.start()
    replies = dict((s["id"], r) for s, r in process.run_many(c.scenario for c in GATEWAY_CASES))
    process.close()
    assert {type(r) for i, r in replies.items() if "lab-001-next" in i or i.startswith("gw.next.idem")} == {Skipped}
    assert "lab-001 only" in replies["gw.next.rate-limit"].message


def test_a_chunk_of_many_runs_is_answered_a_few_replies_at_a_time_in_order(monkeypatch):
    """A pipelining harness checks the first replies and sends more while the rest of a chunk are decided."""
    import os
    import sys
    from types import SimpleNamespace

    from gateproof.conformance.harness.documents import dumps
    from gateproof.conformance.harness.protocol import run_line
    from gateproof.conformance.implementations import reference
    from gateproof.conformance.implementations.serve import REPLIES_AT_ONCE, serve

    scenario = load_corpus()[0].scenario
    count = 3 * REPLIES_AT_ONCE + 1
    lines = b"".join(run_line(seq, dumps(scenario)) for seq in range(1, count + 1)) + b'{"cmd":"stop"}\n'
    read_end, write_end = os.pipe()
    os.write(write_end, lines)  # one chunk: every run and the stop arrive in a single read
    os.close(write_end)
    writes = []
    stdout = SimpleNamespace(buffer=SimpleNamespace(write=writes.append, flush=lambda: None))
    monkeypatch.setattr(sys, "stdin", SimpleNamespace(fileno=lambda: read_end))
    monkeypatch.setattr(sys, "stdout", stdout)
    try:
        serve(reference.INFO, reference.run)
    finally:
        os.close(read_end)
    written = [write.count(b"\n") for write in writes]
    replies = [orjson.loads(line) for line in b"".join(writes).splitlines()]
    assert [reply["seq"] for reply in replies] == list(range(1, count + 1))
    assert all(reply["outcome"] == load_corpus()[0].expected for reply in replies)
    assert max(written) == REPLIES_AT_ONCE and sum(written) == count


def test_the_server_writes_each_outcome_line_as_the_checked_reply_writes_it():
    """The outcome line is written without checking its envelope again: byte for byte what the checked message gives, for every corpus case."""
    from gateproof.conformance.harness.documents import dumps
    from gateproof.conformance.harness.protocol import run_line
    from gateproof.conformance.implementations import reference
    from gateproof.conformance.implementations.serve import reply_to

    for seq, case in enumerate(load_corpus(), start=1):
        line = reply_to(run_line(seq, dumps(case.scenario)).rstrip(b"\n"), reference.INFO, reference.run, lambda scenario: None)
        assert line == dumps(Outcome(seq, reference.run(case.scenario)).serializable()) + b"\n", case.id


def test_a_run_function_that_returns_no_object_is_still_refused_by_the_reply_check():
    from gateproof.conformance.harness.documents import dumps
    from gateproof.conformance.harness.protocol import run_line
    from gateproof.conformance.implementations import reference
    from gateproof.conformance.implementations.serve import reply_to

    line = run_line(1, dumps(load_corpus()[0].scenario)).rstrip(b"\n")
    with pytest.raises(ProtocolError, match="outcome"):
        reply_to(line, reference.INFO, lambda scenario: ["not", "an", "object"], lambda scenario: None)
