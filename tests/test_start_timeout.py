"""Answering start has its own allowance, --start-timeout (PROTOCOL.md, start), apart from --timeout for each reply."""

from __future__ import annotations

import subprocess
import sys

from gateproof.conformance.implementations import BRIDGE_MODULE, BUILTINS, with_bridge_timeouts

from harness_helpers import fake

VERIFY = (sys.executable, "-m", "gateproof.conformance.cli", "verify", "--examples", "0", "--kinds", "gateway")


def verify(tmp_path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([*VERIFY, "--out", str(tmp_path / "out"), *options, "--", *fake("slow_start")],
                          capture_output=True, text=True, timeout=300)


def test_a_start_slower_than_a_reply_is_waited_for_within_the_start_timeout(tmp_path):
    done = verify(tmp_path, "--timeout", "0.5")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_start_slower_than_the_start_timeout_is_refused_saying_so(tmp_path):
    done = verify(tmp_path, "--timeout", "0.5", "--start-timeout", "0.5")
    assert done.returncode == 2
    said = " ".join((done.stdout + done.stderr).split())
    assert "did not answer start: no reply within 0.5s" in said and "Traceback" not in said


def test_the_start_timeout_is_never_shorter_than_a_reply_s(tmp_path):
    done = verify(tmp_path, "--timeout", "5", "--start-timeout", "0.5")
    assert done.returncode == 0, done.stdout + done.stderr


def test_an_mcp_built_in_s_bridge_is_told_both_allowances_and_any_other_command_is_left_as_it_is():
    bridged = with_bridge_timeouts(BUILTINS["mcp-python"], 10.0, 60.0)
    at = bridged.index(BRIDGE_MODULE)
    assert bridged[at + 1:at + 5] == ("--timeout", "10.0", "--start-timeout", "60.0")
    assert with_bridge_timeouts(BUILTINS["reference"], 10.0, 60.0) == BUILTINS["reference"]
