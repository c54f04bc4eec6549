"""Reports and printed commands name files relative to the folder verify ran in: they hold no folder of the machine that wrote them."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from harness_helpers import FAKES

BIN = str(Path(sys.executable).parent)


def run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    environment = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}", "COLUMNS": "200"}
    return subprocess.run(command, cwd=cwd, env=environment, capture_output=True, text=True, timeout=600)


def test_reports_of_an_implementation_inside_the_working_folder_hold_no_absolute_path_of_it(tmp_path):
    for name in ("always_wrong.py", "fake.py"):
        shutil.copy(FAKES / name, tmp_path / name)
    gateway = str(tmp_path / "always_wrong.py")  # named by its absolute path, as a person may type it
    formats = [f"--report={f}" for f in ("json", "junit", "markdown", "html")]
    first = run(["gateproof", "verify", "--examples", "0", "--kinds", "gateway", *formats, "--", sys.executable, gateway], tmp_path)
    assert first.returncode == 1, first.stderr
    written = tmp_path / "gateproof-verify"
    for report in ("report.json", "report.junit.xml", "report.md", "report.html", "results.jsonl"):
        assert str(tmp_path) not in (written / report).read_text(), report
    assert str(tmp_path) not in first.stdout
    replays = [line.split("replay:", 1)[1].strip() for line in first.stdout.splitlines() if line.lstrip().startswith("replay:")]
    assert replays and all("always_wrong.py" in command for command in replays)
    again = run(shlex.split(replays[0]), tmp_path)
    assert again.returncode == 1 and "failed" in again.stdout, again.stderr
