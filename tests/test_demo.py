"""``make demo`` is a short guided tour: it exits 0 and fits two screens, its long outputs written to the files it names."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

DEMO = Path(__file__).resolve().parent.parent / "examples" / "demo.sh"


def test_the_demo_exits_0_in_at_most_150_lines_and_names_the_files_it_wrote(tmp_path):
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "TMPDIR": str(tmp_path),
                   "GATEPROOF_DEMO_EXAMPLES": "300", "COLUMNS": "100"}
    done = subprocess.run(["sh", str(DEMO)], env=environment, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    lines = (done.stdout + done.stderr).splitlines()
    assert len(lines) <= 150, len(lines)
    folder = tmp_path / "gateproof-demo"
    for named in ("forced-snippet-refused.outcome.json", "verify/report.html", "verify/report.md", "verify/results.jsonl"):
        assert (folder / named).is_file() and str(folder / named).split("/")[-1] in done.stdout
    assert "NOT CONFORMANT" in done.stdout and "11 caught" in done.stdout and "decision: refused" in done.stdout
