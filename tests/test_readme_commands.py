"""The README's command lines for decide, explain, rules, diff and prove run as printed, in the order shown."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
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


def chains() -> list[list[list[str]]]:
    """The README's commands in the order shown, cut where a command reads nothing an earlier one wrote (its ``--out`` folder)."""
    grouped: list[list[list[str]]] = []
    for command in readme_commands():
        reads = [chain for chain in grouped if any(folder_read(command, earlier) for earlier in chain)]
        if reads:
            reads[-1].append(command)
        else:
            grouped.append([command])
    return grouped


def folder_read(command: list[str], earlier: list[str]) -> bool:
    """Whether ``command`` names a file under the folder ``earlier`` wrote with ``--out``."""
    if "--out" not in earlier:
        return False
    folder = earlier[earlier.index("--out") + 1].rstrip("/") + "/"
    return any(argument.startswith(folder) for argument in command)


def test_the_readme_shows_each_command_and_a_command_reading_an_earlier_ones_files_runs_after_it():
    grouped = chains()
    assert {command[1] for chain in grouped for command in chain} == set(COMMANDS)
    assert sum(map(len, grouped)) == len(readme_commands())
    assert any(len(chain) > 1 and chain[0][1] == "diff" for chain in grouped)  # diff-out/ is explained after diff wrote it
    assert any(len(chain) > 1 and chain[0][1] == "prove" for chain in grouped)  # out/ is decided after prove wrote it


@pytest.mark.parametrize("chain", chains(), ids=lambda chain: " ".join(chain[0]))
def test_every_readme_command_runs_as_printed(chain, tmp_path, monkeypatch):
    """Each chain in a folder of its own, so that the slow proofs run on several workers at once."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    monkeypatch.chdir(tmp_path)
    for command in chain:
        done = CliRunner().invoke(main, command[1:])
        refuted = command[1] == "prove" and any(argument.startswith("wrong:") for argument in command)
        assert done.exit_code == (1 if refuted else 0), (command, done.output[-2000:])
        assert "Traceback" not in done.output
