"""Every command line verify prints for a person to run runs as printed, and does what it says."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from harness_helpers import fake

BIN = str(Path(sys.executable).parent)


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "100"}
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=600)


def printed(output: str, label: str) -> list[str]:
    """The commands printed after ``label:`` at the start of a line, each as the line holds it."""
    return [line.split(f"{label}:", 1)[1].strip() for line in output.splitlines() if line.lstrip().startswith(f"{label}:")]


@pytest.mark.parametrize("naming", [
    ["--builtin", "mutant:unsafe-gateway"],
    ["--", *fake("always_wrong")],
    ["--", sys.executable, "-m", "gateproof.conformance.implementations.mutant", "unsafe-gateway"],
], ids=["builtin", "fake-command", "module-command"])
def test_each_printed_replay_runs_as_printed_and_finds_the_same_disagreement(tmp_path, naming):
    first = run(["gateproof", "verify", "--examples", "0", "--kinds", "gateway", "--compare", "reason", *naming], tmp_path)
    assert first.returncode in (0, 1), first.stderr
    replays = printed(first.stdout, "replay")
    assert replays, first.stdout
    for command in replays:
        again = run(shlex.split(command), tmp_path)
        # A replay of a mutant's counterexample still catches it (exit 0); of an implementation given by command, still fails it.
        assert again.returncode == first.returncode, (command, again.stdout, again.stderr)
        assert "--compare reason" in command
        records = [json.loads(line) for line in (tmp_path / "gateproof-verify" / "results.jsonl").read_text().splitlines()]
        verdicts = [r for r in records if r["record"] == "verdict"]
        assert [v["phase"] for v in verdicts] == ["replay"] and verdicts[0]["status"] == "failed"


def test_each_printed_explain_runs_as_printed(tmp_path):
    first = run(["gateproof", "verify", "--examples", "0", "--kinds", "gateway", "--", *fake("always_wrong")], tmp_path)
    explains = printed(first.stdout, "explain")
    assert explains, first.stdout
    for command in explains:
        explained = run(shlex.split(command), tmp_path)
        assert explained.returncode == 0 and "call" in explained.stdout, explained.stderr


def test_each_printed_rules_command_prints_the_text_of_every_rule_the_disagreement_names(tmp_path):
    first = run(["gateproof", "verify", "--examples", "0", "--kinds", "gateway", "--", *fake("always_wrong")],
                tmp_path)
    commands = printed(first.stdout, "rule texts")
    assert commands, first.stdout
    for command in commands:
        ids = shlex.split(command)[2:]
        shown = run(shlex.split(command), tmp_path)
        assert shown.returncode == 0 and ids, (command, shown.stderr)
        assert [line.split(" — ")[0] for line in shown.stdout.splitlines() if " — " in line and not line.startswith(" ")] == ids


def test_a_gateproof_run_by_its_path_prints_commands_that_name_it_by_that_path(tmp_path):
    """Run as .venv/bin/gateproof with that folder off PATH, a printed replay or explain must not name a gateproof that is not there."""
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p != BIN)
    environment = {**os.environ, "PATH": path, "COLUMNS": "100"}
    script = str(Path(BIN) / "gateproof")
    first = subprocess.run([script, "verify", "--examples", "0", "--kinds", "gateway", "--", *fake("always_wrong")], cwd=tmp_path,
                           env=environment, capture_output=True, text=True, timeout=600)
    commands = printed(first.stdout, "replay") + printed(first.stdout, "explain") + printed(first.stdout, "rule texts")
    assert commands and all(shlex.split(command)[0] == script for command in commands), first.stdout
    for command in commands:
        done = subprocess.run(["sh", "-c", command], cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=600)
        assert done.returncode in (0, 1) and "not found" not in done.stderr, (command, done.stderr)


def test_an_errored_runs_printed_replay_runs_it_alone_and_errors_again(tmp_path):
    first = run(["gateproof", "verify", "--examples", "0", "--kinds", "gateway", "--", *fake("errors_by_id")], tmp_path)
    assert first.returncode == 1, first.stderr
    [command] = printed(first.stdout, "replay")[:1]
    again = run(shlex.split(command), tmp_path)
    assert again.returncode == 1, (command, again.stdout, again.stderr)
    records = [json.loads(line) for line in (tmp_path / "gateproof-verify" / "results.jsonl").read_text().splitlines()]
    [verdict] = [r for r in records if r["record"] == "verdict"]
    assert verdict["phase"] == "replay" and verdict["status"] == "errored" and verdict["message"].startswith("cannot decide ")
