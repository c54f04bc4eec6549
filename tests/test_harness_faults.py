"""Every way an implementation misbehaves is reported on the run it concerns, and the run's other results stand."""

import pytest

from gateproof.conformance.harness.process import ImplementationProcess, StartFailed

from harness_helpers import CASES, FAULT, drive, entries, fake, statuses

FAULT_ID = CASES[FAULT].id + ".fault"


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
    process = ImplementationProcess(fake("crash_mid_run"), timeout=5)
    process.start()
    reply = process.run_one(entries()[FAULT][2])
    process.close()
    assert "segmentation fault (pretend)" in reply.context["stderr"]


def test_a_hang_is_killed_after_the_timeout_and_the_run_goes_on():
    campaign = drive("hang", timeout=0.5)
    assert statuses(campaign)[FAULT_ID] == "errored"
    assert "no reply within 0.5s" in next(v.message for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
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


def test_an_implementation_that_does_not_answer_start_is_refused():
    process = ImplementationProcess(fake("fail_on_start"), timeout=5)
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
