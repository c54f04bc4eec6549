"""Every implementation runs in a process group of its own, and no process of the group outlives its use: stop, restart, timeout, a signal to verify."""

import os
import signal
import subprocess
import sys
import time

import pytest

from gateproof.conformance.harness import channel as channel_module
from gateproof.conformance.harness import process as process_module
from gateproof.conformance.harness.process import ImplementationProcess

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings

from harness_helpers import CASES, FAKES, FAULT_ID, GENEROUS, SHORT, children, drive, entries, fake, group_members, left_running, statuses

LAUNCHER = ("sh", str(FAKES / "launcher.sh"))


@pytest.fixture
def groups(monkeypatch):
    """The process group of every implementation started while the test runs."""
    started = []

    class Recorded(channel_module.Channel):
        def __init__(self, argv, environment=None):
            super().__init__(argv, environment)
            started.append(self.group)

    monkeypatch.setattr(process_module, "Channel", Recorded)
    return started


def wait_for(predicate, within: float = 60.0):
    deadline = time.monotonic() + within
    while not predicate():
        assert time.monotonic() < deadline, "the implementation never got there"
        time.sleep(0.05)


def test_an_implementation_starts_a_session_of_its_own():
    process = ImplementationProcess(fake("forks_child"), timeout=30)
    process.start()
    group = process.channel.group
    try:
        assert os.getpgid(process.channel.process.pid) == group != os.getpgrp()
        wait_for(lambda: len(group_members(group)) == 2)  # the implementation and the worker it forked
    finally:
        process.close()
    assert left_running(group) == []


def test_a_worker_the_implementation_forked_is_ended_with_it_when_the_campaign_ends(groups):
    campaign = drive("forks_child", fault=None, timeout=30.0)
    assert set(statuses(campaign).values()) == {"passed"} and len(groups) == 1
    assert left_running(groups[0]) == []


def test_a_launcher_that_does_not_exec_is_ended_with_its_child_when_a_hang_restarts_it(groups):
    campaign = through_launcher("hang")
    assert statuses(campaign)[FAULT_ID] == "errored" and campaign.tally.restarts == 2
    assert len(groups) == 3  # the first start and two restarts, each a group of its own
    assert [left_running(group) for group in groups] == [[], [], []]


def through_launcher(name: str) -> Campaign:
    """The fake named ``name`` started by a shell script that does not exec it, through the chosen cases."""
    campaign = Campaign(name, (*LAUNCHER, *fake(name)), CampaignSettings(timeout=SHORT))
    campaign.start()
    campaign.run_known("corpus", entries())
    campaign.finish()
    return campaign


def test_an_implementation_that_closes_its_stdout_and_stays_alive_is_ended_and_its_run_errored(groups):
    # A generous timeout: the end of the stream is noticed at once, and the process killed after a short grace.
    campaign = drive("closes_stdout", timeout=60.0)
    verdict = next(v for v in campaign.tally.verdicts if v.scenario_id == FAULT_ID)
    assert verdict.status == "errored" and "closed its stdout but kept running" in verdict.message
    assert [v.status for v in campaign.tally.verdicts if v.scenario_id != FAULT_ID] == ["passed"] * (len(CASES) - 1)
    assert campaign.tally.restarts == 2
    assert all(left_running(group) == [] for group in groups)


def test_an_exception_in_the_harness_still_ends_every_group():
    # A driver that dies of an exception while an implementation runs: the group ends as the interpreter exits.
    script = f"""
import sys
sys.path.insert(0, {str(FAKES.parent)!r})
from gateproof.conformance.harness.process import ImplementationProcess
from harness_helpers import fake
process = ImplementationProcess(fake("forks_child"), timeout=60)
process.start()
print(process.channel.group, flush=True)
raise RuntimeError("a fault of the harness")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert "a fault of the harness" in done.stderr and done.returncode == 1
    assert left_running(int(done.stdout)) == []


def signalled_verify(tmp_path, signals) -> tuple[subprocess.Popen, int, bytes]:
    """verify driving the sleeper through the launcher, ``signals(verify)`` sent once all three are up: verify, the group, stderr."""
    command = [sys.executable, "-m", "gateproof.conformance.cli", "verify", "--examples", "0", "--timeout", "600",
               "--", *LAUNCHER, *fake("sleeper")]
    verify = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # The launcher is verify's child and leads the group; it, the sleeper and the sleeper's worker are all there.
        wait_for(lambda: any(len(group_members(child)) == 3 for child in children(verify.pid)))
        [group] = [child for child in children(verify.pid) if len(group_members(child)) == 3]
        signals(verify)
        _, stderr = verify.communicate(timeout=60)
    finally:
        if verify.poll() is None:
            verify.kill()
            verify.wait()
    return verify, group, stderr


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_verify_ends_the_implementation_and_everything_it_started(tmp_path, number):
    verify, group, stderr = signalled_verify(tmp_path, lambda verify: verify.send_signal(number))
    assert verify.returncode == 128 + number and b"Traceback" not in stderr
    assert left_running(group) == []



HANGS = {"hang", "sleeper"}


#: The fakes of the protocol: not the shared loop, the two that never start or stay up, the MCP server (its bridge has tests of
#: its own, test_mcp_bridge.py) or the tests kept beside them.
PROTOCOL_FAKES = sorted(p.stem for p in FAKES.glob("*.py")
                        if p.stem not in ("fake", "fail_on_start", "dies_for_good", "fake_mcp") and not p.stem.startswith("test_"))


@pytest.mark.parametrize("name", PROTOCOL_FAKES)
def test_every_fake_is_driven_to_the_end_with_no_process_left(name, groups):
    campaign = drive(name, timeout=SHORT if name in HANGS else GENEROUS)
    assert len(campaign.tally.verdicts) >= len(CASES) and campaign.tally.lost is None
    assert {group: left_running(group) for group in groups} == {group: [] for group in groups}


@pytest.mark.parametrize("gap", [0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.08])
def test_a_second_ctrl_c_soon_after_the_first_still_ends_verify_with_130_and_its_implementation_stopped(tmp_path, gap):
    def twice(verify: subprocess.Popen) -> None:
        verify.send_signal(signal.SIGINT)
        time.sleep(gap)
        if verify.poll() is None:
            verify.send_signal(signal.SIGINT)

    verify, group, stderr = signalled_verify(tmp_path, twice)
    assert verify.returncode == 130 and b"Traceback" not in stderr, stderr.decode()
    assert left_running(group) == []
