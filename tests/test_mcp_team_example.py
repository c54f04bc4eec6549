"""The team's MCP gateway of examples/, written from conformance/MCP.md and adr/ alone, conforms over stdio and HTTP, verified
with the commands its README shows, run as printed from the folder above examples/."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "examples" / "mcp-team-gateway" / "README.md"
COMMANDS = [line for block in re.findall(r"```sh\n(.*?)```", README.read_text(encoding="utf-8"), re.S) for line in block.splitlines() if line.strip()]


def test_the_readme_shows_a_verify_over_each_transport():
    assert [command.split()[:3] for command in COMMANDS] == [["gateproof", "verify", "--mcp"]] * 2
    assert "--mcp stdio" in COMMANDS[0] and "--mcp http://127.0.0.1:0/mcp" in COMMANDS[1]


@pytest.mark.parametrize("command", COMMANDS, ids=["stdio", "http"])
def test_each_readme_command_runs_as_printed_and_finds_the_team_gateway_conformant(command, tmp_path):
    command = command.replace("/tmp/", f"{tmp_path}/")  # each run its own folder: a test never shares /tmp with another
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "120"}
    done = subprocess.run(command, shell=True, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "conformant" in done.stdout and "team-mcp-gateway" in done.stdout
