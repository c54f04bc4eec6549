"""Every command the README and docs/*.md show in their sh blocks runs as printed, in the order shown.

A ``gateproof`` line runs in a shell-less process from a folder of its own,
where ``examples/`` and ``model/`` are the checkout's and the files a reader brings are
stood in for: ``scenarios.jsonl`` (the shipped examples, one a line),
``./my-gateway`` (the reference model behind the protocol) and
``my-gateway.js`` (the Node implementation). A ``make`` line is held to the
Makefile instead: ``make demo`` runs ``examples/demo.sh``, which
``tests/test_demo.py`` runs; ``make test`` is this suite; the others
(``bench``, ``mutation``, ``variants``, ``package-check`` and the rest) take
minutes to hours, so their targets are checked to exist. A ``python -m``
line is held to its module's ``--help``: every option it gives is one the
module takes.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import corpus as corpus_command
from gateproof.conformance.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
COMMANDS = ("decide", "explain", "rules", "diff", "prove", "verify", "report", "corpus", "catalog")
MUTANT = "gateproof.conformance.implementations.mutant"  # an implementation verify must find wrong: exit status 1
DEFAULT_OUT = {"verify": "gateproof-verify"}  # where a command writes without --out


def shown(prefix: str) -> list[tuple[str, str]]:
    """(document, line) for each line of the documents' sh blocks that starts with ``prefix``, in the order shown."""
    found = []
    for document in DOCUMENTS:
        for block in re.findall(r"```sh\n(.*?)```", document.read_text(encoding="utf-8"), re.S):
            found += [(document.relative_to(ROOT).as_posix(), line) for line in block.splitlines() if line.startswith(prefix)]
    return found


def gateproof_commands() -> list[list[str]]:
    """Each ``gateproof`` line read without its comment, ``< FILE`` kept as two words."""
    commands = [shlex.split(line, comments=True) for _, line in shown("gateproof ")]
    assert not [command for command in commands if "|" in command], "a pipe is shown; run it through a shell here"
    return commands


def written_folder(command: list[str]) -> str | None:
    """The folder ``command`` writes files into: its ``--out``, or the command's own default."""
    if "--out" in command:
        return command[command.index("--out") + 1].rstrip("/")
    return DEFAULT_OUT.get(command[1])


def chains() -> list[list[list[str]]]:
    """The commands in the order shown, grouped so that a command runs after the last earlier one that wrote each folder it
    reads (two shards before the report that merges them); a command that reads nothing another wrote starts a group."""
    commands = gateproof_commands()
    group = list(range(len(commands)))  # each command's group, named by its first command

    def first(index: int) -> int:
        while group[index] != index:
            index = group[index]
        return index

    last_writer: dict[str, int] = {}
    for index, command in enumerate(commands):
        for folder, writer in last_writer.items():
            if any(argument.startswith(folder + "/") for argument in command[2:]):
                mine, theirs = first(index), first(writer)
                group[max(mine, theirs)] = min(mine, theirs)
        if folder := written_folder(command):
            last_writer[folder] = index
    grouped: dict[int, list[list[str]]] = {}
    for index, command in enumerate(commands):
        grouped.setdefault(first(index), []).append(command)
    return list(grouped.values())


def expected_status(command: list[str]) -> int:
    """1 for a wrong rule ``prove`` refutes and for a mutant ``verify`` finds wrong; 0 for everything else."""
    refuted = command[1] == "prove" and any(argument.startswith("wrong:") for argument in command)
    caught = command[1] == "verify" and MUTANT in command
    return 1 if refuted or caught else 0


def test_the_documents_show_every_command_and_a_command_reading_an_earlier_ones_files_runs_after_it():
    grouped = chains()
    assert {command[1] for chain in grouped for command in chain} == set(COMMANDS)
    assert sum(map(len, grouped)) == len(gateproof_commands())
    assert any(len(chain) > 1 and chain[0][1] == "diff" for chain in grouped)  # diff-out/ is explained after diff wrote it
    assert any(len(chain) > 1 and chain[0][1] == "prove" for chain in grouped)  # out/ is decided after prove wrote it
    assert any(chain[-1][1] == "report" and sum(c[1] == "verify" for c in chain) == 2 for chain in grouped)  # two shards, one report


@pytest.fixture
def reader_folder(tmp_path, monkeypatch):
    """A folder like the checkout's top, with the files a reader brings, and gateproof and python on PATH."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    (tmp_path / "model").symlink_to(ROOT / "model")  # the catalogs a reader checks, model/catalogs/*.json
    lines = [json.dumps(json.loads(path.read_text(encoding="utf-8"))) for path in sorted((ROOT / "examples").glob("*.json"))]
    (tmp_path / "scenarios.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    gateway = tmp_path / "my-gateway"
    gateway.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m gateproof.conformance.implementations.reference\n")
    gateway.chmod(0o755)
    node = ROOT / "conformance" / "implementations" / "node" / "gateproof-node.js"
    (tmp_path / "my-gateway.js").write_text(f"require({json.dumps(str(node))});\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


@pytest.mark.parametrize("chain", chains(), ids=lambda chain: " ".join(chain[0]))
def test_every_gateproof_command_shown_runs_as_printed(chain, reader_folder, monkeypatch):
    """Each chain in a folder of its own, so that the slow campaigns and proofs run on several workers at once."""
    if any("node" in command for command in chain) and shutil.which("node") is None:  # --builtin node, or node my-gateway.js
        pytest.skip("node is not on PATH")
    for command in chain:
        if command[1:3] == ["corpus", "build"]:
            done = rebuild_into(reader_folder / "corpus", monkeypatch)
        else:
            done = run(command, reader_folder)
        assert done[0] == expected_status(command), (command, done[1][-3000:])
        assert "Traceback" not in done[1], (command, done[1][-3000:])


def run(command: list[str], folder: Path) -> tuple[int, str]:
    """``command`` run as printed from ``folder``, its ``< FILE`` as its stdin: the exit status and what it wrote."""
    stdin = None
    if "<" in command:
        at = command.index("<")
        stdin, command = folder / command[at + 1], command[:at] + command[at + 2:]
    executable = shutil.which(command[0], path=os.environ["PATH"])
    assert executable, f"{command[0]} is not on PATH"
    with open(stdin or os.devnull, "rb") as given:
        done = subprocess.run([executable, *command[1:]], stdin=given, cwd=folder, capture_output=True, timeout=1200)
    return done.returncode, (done.stdout + done.stderr).decode("utf-8", "replace")


def rebuild_into(folder: Path, monkeypatch) -> tuple[int, str]:
    """``gateproof corpus build`` as printed, but writing the corpus into ``folder``: run anywhere else, it rewrites the
    checkout's own files, which other tests read meanwhile."""
    rebuild = corpus_command.rebuild
    monkeypatch.setattr(corpus_command, "rebuild", lambda command: rebuild(command, folder))
    done = CliRunner().invoke(main, ["corpus", "build"])
    assert (folder / "refusals.json").is_file()
    return done.exit_code, done.output


@cache
def makefile_targets() -> set[str]:
    return set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))


@pytest.mark.parametrize(("document", "line"), shown("make "), ids=lambda value: " ".join(shlex.split(value, comments=True)))
def test_every_make_command_shown_is_a_target_of_the_makefile(document, line):
    words = shlex.split(line, comments=True)
    targets = [word for word in words[1:] if "=" not in word]
    assert targets and set(targets) <= makefile_targets(), (document, line)


@cache
def module_help(module: str) -> str:
    done = subprocess.run([sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize(("document", "line"), shown("python -m "), ids=lambda value: " ".join(shlex.split(value, comments=True)))
def test_every_python_module_command_shown_takes_the_options_it_is_given(document, line):
    words = shlex.split(line, comments=True)
    options = [word.split("=")[0] for word in words[3:] if word.startswith("--")]
    help_text = module_help(words[2])
    assert all(re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text) for option in options), (document, line)
