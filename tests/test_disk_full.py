"""A full disk is said as such, with the file it struck, exit status 2, and leaves no part of a report behind.

The disk is a fake: the file a command opens for writing takes part of what
is written, then fails as a full disk does (ENOSPC). A conformant
implementation is never reported as having disagreed because of it.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from gateproof.conformance.harness import paths
from gateproof.conformance.reports import results_log
from report_helpers import record, report, tally, verdict_of, verify, wrong_export

FULL = "cannot write: the disk is full"


class FullDisk:
    """A file opened for writing on a disk with ``room`` bytes left: it takes that much, then fails with ENOSPC."""

    def __init__(self, handle, room: int):
        self.handle, self.room = handle, room

    def write(self, data: bytes) -> int:
        taken = data[: self.room]
        self.handle.write(taken)
        self.room -= len(taken)
        if len(taken) < len(data):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return len(data)

    def __getattr__(self, name):
        return getattr(self.handle, name)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()


def fill_disk(monkeypatch, module, room: int, struck=lambda path: True) -> None:
    """Make ``module``'s files opened for writing (those ``struck`` names) land on a disk with ``room`` bytes left."""
    create = paths.create_no_follow

    def create_on_full_disk(path):
        handle = create(path)
        return FullDisk(handle, room) if struck(Path(path)) else handle

    monkeypatch.setattr(module, "create_no_follow", create_on_full_disk)


def leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".partial"))


@pytest.fixture
def results(tmp_path):
    return record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", wrong_export())])])


def test_report_output_on_a_full_disk_says_so_and_leaves_the_file_as_it_was(results, tmp_path, monkeypatch):
    target = tmp_path / "report.html"
    target.write_text("the report before")
    fill_disk(monkeypatch, paths, room=100)
    done = report(str(results), "--format", "html", "--output", str(target))
    assert done.exit_code == 2
    assert done.output == f"gateproof: error: --output {target}: {FULL}\n"
    assert target.read_text() == "the report before" and leftovers(tmp_path) == []


def test_verify_report_on_a_full_disk_says_so_and_leaves_no_report(tmp_path, monkeypatch):
    out = tmp_path / "out"
    fill_disk(monkeypatch, paths, room=1000, struck=lambda path: "report" in path.name)
    done = verify("--builtin", "reference", "--examples", "5", "--no-corpus", "--kinds", "gateway", "--out", str(out), "-q", "--report", "html")
    assert done.exit_code == 2
    assert done.output.endswith(f"gateproof: error: {out / 'report.html'}: {FULL}\n")
    assert not (out / "report.html").exists() and leftovers(out) == []
    assert report(str(out / "results.jsonl"), "--format", "markdown").exit_code == 0  # the results are whole


def test_a_full_disk_mid_campaign_stops_it_with_status_2_never_as_a_disagreement(tmp_path, monkeypatch):
    out = tmp_path / "out"
    fill_disk(monkeypatch, results_log, room=2000)  # the campaign record, then part of a verdict
    done = verify("--builtin", "reference", "--examples", "5", "--kinds", "gateway", "--out", str(out), "-q")
    assert done.exit_code == 2
    assert done.output == f"gateproof: error: {out / 'results.jsonl'}: {FULL}; the campaign stopped there\n"


def test_a_disagreement_that_cannot_be_saved_for_a_full_disk_stops_the_campaign_and_leaves_no_part_of_it(tmp_path, monkeypatch):
    out = tmp_path / "out"
    fill_disk(monkeypatch, paths, room=50)  # write_no_follow, which saves each disagreement's scenario, opens through it
    done = verify("--builtin", "mutant:unsafe-gateway", "--examples", "0", "--kinds", "gateway", "--out", str(out), "-q")
    assert done.exit_code == 2
    [said] = done.output.splitlines()
    assert said.startswith(f"gateproof: error: {out / 'mutant_unsafe-gateway'}") and said.endswith(f".json: {FULL}; the campaign stopped there")
    assert [path for path in out.rglob("*.json")] == []


def test_standard_output_on_a_full_disk_is_said_as_such(results, monkeypatch, capfd):
    import sys

    class FullStream:
        def write(self, text):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def flush(self):
            pass

    from gateproof.conformance.cli import report as report_command

    monkeypatch.setattr(report_command, "sys", type("FakeSys", (), {"stdout": FullStream(), "exit": staticmethod(sys.exit)}))
    with pytest.raises(SystemExit) as exited:
        report_command.report.main([str(results), "--format", "json"], standalone_mode=False)
    assert exited.value.code == 2
    assert capfd.readouterr().err == "gateproof: error: standard output: cannot write: the disk is full\n"
