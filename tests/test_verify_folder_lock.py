"""One campaign a folder: a second ``verify`` on a folder a running campaign holds is refused before it writes anything.

The hold is the system's lock on a file in the folder: a campaign killed by
any signal leaves nothing that blocks the next one.
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

from gateproof.conformance.harness.paths import LOCK_NAME

PYTHON = sys.executable
#: The reference implementation, started after a pause: the first campaign is still running when the second one begins.
SLOW_REFERENCE = ["sh", "-c", f"sleep 4; exec {shlex.quote(PYTHON)} -m gateproof.conformance.implementations.reference"]
HOLDER = """
import sys, time
from pathlib import Path
from gateproof.conformance.harness.paths import hold_folder
hold_folder(Path(sys.argv[1]))
print("held", flush=True)
time.sleep(600)
"""


def gateproof(*args: str) -> list[str]:
    return [PYTHON, "-m", "gateproof.conformance.cli", *args]


def verify_quietly(out: Path, *implementation: str) -> subprocess.CompletedProcess:
    return subprocess.run(gateproof("verify", "--examples", "20", "--kinds", "gateway", "--no-corpus", "--out", str(out), "-q", *implementation),
                          capture_output=True, timeout=300)


def wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.05)


def test_a_second_campaign_on_a_held_folder_is_refused_and_the_first_keeps_its_results(tmp_path):
    out = tmp_path / "out"
    first = subprocess.Popen(gateproof("verify", "--examples", "20", "--kinds", "gateway", "--no-corpus", "--timeout", "60", "--out", str(out),
                                       "-q", "--", *SLOW_REFERENCE), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(lambda: (out / "results.jsonl").exists())
        second = verify_quietly(out, "--builtin", "reference", "--report", "html")
        still_running = first.poll() is None
    finally:
        first.communicate(timeout=300)
    assert still_running, "the first campaign ended before the second began: the test proves nothing"
    assert second.returncode == 2 and second.stdout == b""
    assert second.stderr.decode() == (f"gateproof: error: --out {out}: another verify campaign (pid {first.pid}) is writing in this folder; "
                                      "wait for it to end, or choose another --out\n")
    assert first.returncode == 0, first.stderr
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["record"] for r in records] == ["campaign", "implementation", "end"]
    assert records[0]["settings"]["implementations"] == [["--", *SLOW_REFERENCE]]
    assert not (out / "report.html").exists()
    rendered = subprocess.run(gateproof("report", str(out / "results.jsonl"), "--format", "markdown"), capture_output=True, timeout=120)
    assert rendered.returncode == 0 and b"conformant" in rendered.stdout


def test_a_folder_held_by_a_campaign_that_was_killed_is_free_again(tmp_path):
    out = tmp_path / "out"
    holder = subprocess.Popen([PYTHON, "-c", HOLDER, str(out)], stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == b"held\n"
        refused = verify_quietly(out, "--builtin", "reference")
        assert refused.returncode == 2 and f"(pid {holder.pid})".encode() in refused.stderr
        assert sorted(os.listdir(out)) == [LOCK_NAME]  # nothing written
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=60)
    assert (out / LOCK_NAME).read_text() == f"{holder.pid}\n"  # the lock file stays, its lock gone with the process
    done = verify_quietly(out, "--builtin", "reference")
    assert done.returncode == 0, done.stderr
    assert (out / LOCK_NAME).read_text() != f"{holder.pid}\n"


def test_a_campaign_lets_go_of_its_folder_when_it_ends_in_a_process_that_goes_on(tmp_path):
    from report_helpers import verify

    out = str(tmp_path / "out")
    for _ in range(2):
        result = verify("--builtin", "reference", "--examples", "5", "--no-corpus", "--kinds", "gateway", "--out", out, "-q")
        assert result.exit_code == 0, result.output
