"""Every way an implementation misbehaves is reported on the run it concerns, and the run's other results stand."""

import pytest

from gateproof.conformance.harness.compare import same_json
from gateproof.conformance.harness.documents import dumps
from gateproof.conformance.harness.process import ImplementationProcess, StartFailed
from gateproof.conformance.harness.protocol import run_line
from gateproof.model.scenario.document import RepeatedKeys

from harness_helpers import CASES, FAULT, FAULT_ID, GENEROUS, SHORT, drive, entries, fake, statuses


def others_pass(campaign) -> bool:
    found = statuses(campaign)
    return len(found) == len(CASES) and all(status == "passed" for sid, status in found.items() if sid != FAULT_ID)


@pytest.mark.parametrize("name, fault", [
    ("crash_mid_run", "exited with status 3"),
    ("garbage", "not JSON"),
    ("unknown_seq", "not in flight"),
])
def test_a_fault_no_run_can_be_blamed_for_costs_a_restart_and_lands_on_its_own_run(name, fault):
    campaign = drive(name)
    verdict = next(v for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert verdict.status == "errored" and fault in verdict.message
    assert others_pass(campaign)
    assert campaign.tally.restarts == 2  # once in the pipeline, once when the run is sent alone


def test_a_crash_keeps_what_the_implementation_said_on_stderr():
    process = ImplementationProcess(fake("crash_mid_run"), timeout=GENEROUS)
    process.start()
    reply = process.run_one(entries()[FAULT][2])
    process.close()
    assert "segmentation fault (pretend)" in reply.context["stderr"]


def test_a_hang_is_killed_after_the_timeout_and_the_run_goes_on():
    campaign = drive("hang", timeout=SHORT)
    assert statuses(campaign)[FAULT_ID] == "errored"
    assert f"no reply within {SHORT:g}s" in next(v.message for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert others_pass(campaign)


def test_a_reply_that_breaks_the_schema_is_its_runs_error_without_a_restart():
    campaign = drive("schema_break")
    verdict = next(v for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert verdict.status == "errored" and "breaks the protocol" in verdict.message and "outcome" in verdict.message
    assert others_pass(campaign) and campaign.tally.restarts == 0


def test_replies_out_of_order_are_matched_by_seq_and_counted():
    campaign = drive("out_of_order", fault=None)
    assert set(statuses(campaign).values()) == {"passed"}
    assert campaign.tally.reordered > 0


def test_two_answers_to_one_scenario_are_flagged_nondeterministic():
    campaign = drive("nondeterministic", fault=None)
    found = statuses(campaign)
    assert "nondeterministic" in found.values()
    # A wrong answer repeated by chance on the second asking cannot be told from a steady one.
    assert set(found.values()) <= {"passed", "nondeterministic", "failed"}


def test_an_implementation_that_is_always_wrong_fails_everywhere():
    campaign = drive("always_wrong", fault=None)
    assert set(statuses(campaign).values()) == {"failed"}
    assert all(v.disagreement.keys == ("results",) for v in campaign.tally.verdicts)


def test_a_disagreement_on_a_call_that_writes_an_argument_key_twice_is_shrunk_and_failed_never_a_crash():
    from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
    from gateproof.model.scenario.document import RepeatedKeys

    settings = CampaignSettings(examples=400, kinds=("gateway",), rules=("lab-001",), disagreements=1, timeout=GENEROUS)
    campaign = Campaign("repeated-keys-wrong", fake("repeated_keys_wrong"), settings)
    campaign.start()
    campaign.run_generated()
    tally = campaign.finish()
    [verdict] = [v for v in tally.verdicts if v.status != "passed"]
    assert verdict.status == "failed" and verdict.disagreement.keys == ("decision",)
    [step] = verdict.disagreement.scenario["steps"]  # shrunk to the one call, whose arguments still write a key twice
    assert isinstance(step["arguments"], RepeatedKeys) and step["arguments"].repeated()


def test_an_implementation_that_does_not_answer_start_is_refused():
    process = ImplementationProcess(fake("fail_on_start"), timeout=GENEROUS)
    with pytest.raises(StartFailed, match="did not answer start"):
        process.start()


def test_a_command_that_does_not_exist_is_refused():
    with pytest.raises(StartFailed, match="cannot run"):
        ImplementationProcess(("/nonexistent/gateway",)).start()


@pytest.mark.parametrize("attempt", range(5))
def test_a_slow_deterministic_wrong_implementation_is_failed_never_nondeterministic(attempt):
    # The failure is confirmed by running it again; that second run must wait until the pipeline is empty.
    campaign = drive("slow_wrong", timeout=30.0)
    assert statuses(campaign)[FAULT_ID] == "failed"
    assert others_pass(campaign)
    assert campaign.tally.restarts == 0 and campaign.process.notes == []


def test_a_run_alone_is_refused_while_pipelined_runs_are_in_flight():
    process = ImplementationProcess(fake("slow_wrong"), timeout=30.0)
    process.start()
    scenarios = [scenario for _, _, scenario, _ in entries()]
    replies = process.run_many(scenarios)
    next(replies)
    with pytest.raises(RuntimeError, match="in flight"):
        process.run_one(scenarios[0])
    replies.close()  # what is still owed is read and dropped
    assert process.pipelined == 0 and process.run_one(scenarios[0]).seq == len(scenarios) + 1
    process.close()


def duplicate_verdicts(campaign) -> list:
    return [v for v in campaign.tally.verdicts if "more than once" in v.message]


def test_a_second_reply_to_a_pipelined_run_is_that_runs_error_and_the_others_stand():
    campaign = drive("duplicate_reply")
    [duplicate] = duplicate_verdicts(campaign)
    assert (duplicate.scenario_id, duplicate.status, duplicate.family) == (FAULT_ID, "errored", CASES[FAULT].family)
    assert "answered run" in duplicate.message
    # Its first reply was right and is judged so; no other run is touched, and the stream was never lost.
    assert sorted(v.status for v in campaign.tally.verdicts if v is not duplicate) == ["passed"] * len(CASES)
    assert campaign.tally.restarts == 0 and not campaign.tally.is_conformant()


@pytest.mark.parametrize("window", [1, 64])
def test_a_late_second_reply_is_blamed_on_the_run_that_sent_it_never_on_the_next(window):
    campaign = drive("late_duplicate", window=window)
    [duplicate] = duplicate_verdicts(campaign)
    assert duplicate.scenario_id == FAULT_ID and duplicate.status == "errored"
    next_id = CASES[FAULT + 1].id
    assert [v.status for v in campaign.tally.verdicts if v.scenario_id == next_id] == ["passed"]
    assert campaign.tally.restarts == 0


def test_a_late_second_reply_between_runs_sent_alone_is_handed_over_with_its_own_scenario():
    found = []
    process = ImplementationProcess(fake("late_duplicate"), timeout=30, on_duplicate=lambda scenario, errored: found.append((scenario, errored.seq)))
    process.start()
    scenarios = [scenario for _, _, scenario, _ in entries()]
    first = process.run_one(scenarios[FAULT])
    second = process.run_one(scenarios[FAULT + 1])
    process.close()
    assert type(first).__name__ == type(second).__name__ == "Outcome" and second.outcome["scenario"] == scenarios[FAULT + 1]["id"]
    # Kept as its run line, the scenario is read back whole: the document sent, not only its id.
    assert found == [(scenarios[FAULT], first.seq)] and same_json(found[0][0], scenarios[FAULT]) and process.restarts == 0


def test_an_implementation_that_closes_its_stdout_costs_at_most_the_grace_not_the_timeout():
    # Were end of file waited on, this would sit for the whole timeout (and, before, for ever).
    process = ImplementationProcess(fake("closes_stdout"), timeout=600)
    process.start()
    reply = process.run_one(entries()[FAULT][2])
    process.close()
    assert reply.message.startswith("closed its stdout but kept running: killed after 1s")


def test_a_reply_line_past_the_protocol_limit_is_a_broken_stream_on_its_own_run(monkeypatch):
    from gateproof.conformance.harness import channel

    monkeypatch.setattr(channel, "MAX_REPLY_BYTES", 2 * 1024 * 1024)  # the fake writes 4 MiB and never ends the line
    campaign = drive("endless_line")
    verdict = next(v for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert verdict.status == "errored" and "longer than 2097152 bytes" in verdict.message
    assert others_pass(campaign)


def test_a_long_reply_line_is_read_in_linear_time_its_unfinished_part_appended_to_never_copied(monkeypatch):
    """Unbounded and quadratic reads: a line arriving in many chunks grows one buffer in place, and is split off once."""
    from gateproof.conformance.harness import channel

    chunks = [b"x" * (1 << 16)] * 200 + [b'y"}\n{"seq": 2}\n']
    monkeypatch.setattr(channel.os, "read", lambda fd, size: chunks.pop(0))
    reader = channel.Channel.__new__(channel.Channel)
    reader.incoming = bytearray()
    reader.process = type("Process", (), {"stdout": type("Stdout", (), {"fileno": lambda self: -1})()})()
    buffer = reader.incoming
    for _ in range(200):
        assert reader._read_stdout(timeout=GENEROUS) == [] and reader.incoming is buffer  # the same buffer: a copy would make the read quadratic
    lines = reader._read_stdout(timeout=GENEROUS)
    assert lines == [b"x" * (200 << 16) + b'y"}', b'{"seq": 2}'] and reader.incoming == b""


def test_an_answered_run_is_read_back_from_its_line_whole_integers_past_64_bits_and_keys_written_twice_kept():
    scenario = {"gateproof": 1, "id": "kept", "kind": "gateway", "world": {"clock": 2**70, "ratio": -0.0},
                "steps": [{"op": "call", "arguments": RepeatedKeys([("case_id", "a"), ("case_id", "b")])}]}
    process = ImplementationProcess(fake("named"))  # never started: only what it remembers is read
    process._remember(7, run_line(7, dumps(scenario)))
    back = process._answered_scenario(7)
    assert same_json(back, scenario) and back["world"]["clock"] == 2**70
    assert back["steps"][0]["arguments"].pairs == (("case_id", "a"), ("case_id", "b"))


def test_a_reply_nested_deeper_than_the_protocol_allows_is_reported_as_that_not_as_a_line_that_is_not_json():
    campaign = drive("deep_reply")
    verdict = next(v for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert verdict.status == "errored" and "not JSON" not in verdict.message
    assert verdict.message.startswith("printed a reply nested more than 65 levels deep (at $.outcome.results[0]")
    assert others_pass(campaign) and campaign.tally.restarts == 2


def test_a_reply_nested_65_levels_is_read_its_outcome_then_judged_by_its_schema(monkeypatch):
    monkeypatch.setenv("DEEP_REPLY_LEVELS", "65")
    campaign = drive("deep_reply")
    verdict = next(v for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert verdict.status == "errored" and "breaks the protocol" in verdict.message
    assert others_pass(campaign) and campaign.tally.restarts == 0
