"""``make demo`` is a short guided tour: it exits 0 and fits two screens (170 lines), its long outputs written to the files it names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent  # where make demo runs, and so where a reader copies its commands to
DEMO = ROOT / "examples" / "demo.sh"
MORE = "More stories, one per ADR: "


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("demo")
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(tmp_path),
                   "GATEPROOF_DEMO_EXAMPLES": "300", "COLUMNS": "100"}
    done = subprocess.run(["sh", str(DEMO)], env=environment, cwd=ROOT, capture_output=True, text=True, timeout=1200)
    return tmp_path, environment, done


def test_the_demo_exits_0_in_at_most_170_lines_and_names_the_files_it_wrote(demo):
    tmp_path, _, done = demo
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) <= 170, len(lines)
    folder = tmp_path / "gateproof-demo"
    for named in ("gateway-cross-tenant-probe.explained.txt", "verify/report.html", "verify/report.md", "verify/results.jsonl"):
        assert (folder / named).is_file() and str(folder / named).split("/")[-1] in done.stdout
    assert "11 caught" in done.stdout and "mcp-python" in done.stdout.split("5/5")[1] and "conformant" in done.stdout.split("5/5")[1]


def test_the_demo_tells_a_gateway_teams_story_a_security_fault_found_explained_and_fixed(demo):
    _, _, done = demo
    found, fixed = done.stdout.split("=== 2/5")[1].split("=== 3/5")
    assert "tenant_mismatch" in done.stdout.split("=== 2/5")[0]  # the gateway's rules first: a cross-tenant probe refused
    told = [line for line in found.splitlines()[1:] if line.strip() and not line.startswith("$ ")]
    assert told[0].startswith("SECURITY: step 0: allows a call the model denies"), told[:3]  # the security difference first
    assert "NOT CONFORMANT" in found and "generated.lab-001.disagreement-" in found
    assert not re.search(r'(?:session|user|tenant|case|destination|tool|_id)"?:? ""', found)  # a plausible case: no name emptied
    assert "FAILED -> " in fixed and "conformant" in fixed.split("=== 4/5")[0]


def test_each_command_the_demo_shows_runs_as_shown_where_make_demo_runs(demo):
    """Each ``$ command`` a stop shows, copied into a shell where ``make demo`` ran, exits as the tour says (stop 2's verify finds
    the wrong gateway: 1); the first prints what the tour printed under it, and the closing suggestion runs too."""
    _, environment, done = demo
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    printed = done.stdout.splitlines()
    shown = [line[2:] for line in printed if line.startswith("$ ")]
    assert len(shown) == 6 and shown[0].startswith("gateproof explain ")
    statuses = {1: 1}
    for number, command in enumerate(shown):
        again = subprocess.run(command, shell=True, env=environment, cwd=ROOT, capture_output=True, text=True, timeout=1200)
        assert again.returncode == statuses.get(number, 0), (command, again.stdout[-2000:], again.stderr[-2000:])
        if number == 0:
            assert again.stdout.strip() and again.stdout.strip() in done.stdout
    more = next(line[len(MORE):] for line in printed if line.startswith(MORE))
    every = subprocess.run(["sh", "-ec", more], env=environment, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert every.returncode == 0 and every.stdout.count("\nstep 0: ") == len(list((ROOT / "examples").glob("*.json"))), every.stderr
