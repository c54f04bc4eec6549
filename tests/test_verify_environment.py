"""What an implementation inherits from verify's environment (PROTOCOL.md, Processes), and a daemon that outlives verify, named."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from gateproof.conformance.harness.environment import KEPT, MARKER, implementation_environment

from harness_helpers import CASES, fake


@pytest.fixture
def replay(tmp_path) -> Path:
    path = tmp_path / "case.json"
    path.write_text(json.dumps(CASES[0].scenario))
    return path


def verify(tmp_path: Path, replay: Path, *options: str, **environment: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "verify", "--replay", str(replay), "--out", str(tmp_path / "out"),
                           *options, "--", *fake("tells_environment")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "200", **environment})


def test_by_default_an_implementation_inherits_verifys_whole_environment_and_the_campaigns_marker(tmp_path, replay):
    done = verify(tmp_path, replay, ENV_FILE=str(tmp_path / "env.json"), SECRET_TOKEN="s3cret")
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads((tmp_path / "env.json").read_text())
    assert seen["SECRET_TOKEN"] == "s3cret" and re.fullmatch("[0-9a-f]{16}", seen[MARKER])


def test_clean_env_passes_only_what_a_program_needs_and_what_env_names(tmp_path, replay):
    env_file = tmp_path / "env.json"
    done = verify(tmp_path, replay, "--clean-env", "--env", f"ENV_FILE={env_file}", "--env", "EXTRA", "--env", "UNSET_HERE",
                  SECRET_TOKEN="s3cret", AWS_SECRET_ACCESS_KEY="k", EXTRA="passed")
    assert done.returncode == 0, done.stdout + done.stderr
    seen = json.loads(env_file.read_text())
    assert "SECRET_TOKEN" not in seen and "AWS_SECRET_ACCESS_KEY" not in seen and "UNSET_HERE" not in seen
    assert seen["EXTRA"] == "passed" and seen["ENV_FILE"] == str(env_file) and seen["PATH"] == os.environ["PATH"]
    assert set(seen) <= {*KEPT, "ENV_FILE", "EXTRA", MARKER}


def test_an_env_that_names_no_variable_is_refused_with_exit_2(tmp_path, replay):
    done = verify(tmp_path, replay, "--env", "1BAD=x")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("gateproof: error: --env '1BAD=x': not NAME or NAME=VALUE")


def test_the_environment_is_verifys_own_unless_asked_otherwise():
    source = {"PATH": "/bin", "TOKEN": "t", "HOME": "/h"}
    assert implementation_environment(False, (), source) is None
    assert implementation_environment(True, (), source) == {"PATH": "/bin", "HOME": "/h"}
    assert implementation_environment(False, ("A=1",), source) == {**source, "A": "1"}


def test_a_daemon_that_left_the_process_group_is_named_in_the_summary(tmp_path, replay):
    done = verify(tmp_path, replay, DAEMON_SECONDS="120")
    found = re.search(r"tells-environment: 1 process it started outlived verify \(pid (\d+)\)", done.stdout)
    try:
        assert done.returncode == 0, done.stdout + done.stderr
        assert found, done.stdout
        daemon = int(found.group(1))
        os.kill(daemon, 0)  # alive, though verify has ended
        assert f"{MARKER}=".encode() in Path(f"/proc/{daemon}/environ").read_bytes()
        [record] = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines() if '"record":"implementation"' in line]
        assert any(f"(pid {daemon})" in note for note in record["notes"])
    finally:
        if found:
            os.kill(int(found.group(1)), signal.SIGKILL)


def test_no_survivor_is_named_when_none_is_left(tmp_path, replay):
    done = verify(tmp_path, replay)
    assert done.returncode == 0 and "outlived verify" not in done.stdout
