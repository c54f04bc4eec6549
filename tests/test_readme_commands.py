"""The README's command lines for decide, explain, rules, diff and prove run as printed, in the order shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from click.testing import CliRunner

from gateproof.conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = ("decide", "explain", "rules", "diff", "prove")


def readme_commands() -> list[list[str]]:
    """Each ``gateproof`` line of the README's sh blocks for these commands, read without its comment; stdin and pipes left out."""
    blocks = re.findall(r"```sh\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    lines = [line for block in blocks for line in block.splitlines() if line.startswith("gateproof ")]
    commands = [shlex.split(line, comments=True) for line in lines if "<" not in line and "|" not in line]
    return [command for command in commands if command[1] in COMMANDS]


def test_every_readme_command_runs_as_printed(tmp_path, monkeypatch):
    commands = readme_commands()
    assert {command[1] for command in commands} == set(COMMANDS)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    for command in commands:
        done = CliRunner().invoke(main, command[1:])
        refuted = command[1] == "prove" and any(argument.startswith("wrong:") for argument in command)
        assert done.exit_code == (1 if refuted else 0), (command, done.output[-2000:])
        assert "Traceback" not in done.output
