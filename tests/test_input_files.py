"""Every file a person names is read within its bound: endless devices and pipes are refused at once, naming the file (and line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from gateproof.conformance.harness.inputs import MOST_RECORD_BYTES, InputError, numbered_lines
from gateproof.conformance.harness.known import read_known

LARGER = b"$: larger than 16777216 bytes\n"
LONGER = f"line 1: longer than {MOST_RECORD_BYTES} bytes, the most a line may hold\n".encode()


def gateproof(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", *args], capture_output=True, timeout=120, cwd=cwd)


@contextmanager
def endless_pipe(tmp_path: Path, chunk: bytes):
    """A FIFO a thread writes ``chunk`` into for as long as anyone reads it."""
    fifo = tmp_path / "endless"
    os.mkfifo(fifo)

    def write_forever() -> None:
        try:
            with open(fifo, "wb") as handle:
                while True:
                    handle.write(chunk)
        except OSError:  # the reader went away
            return

    writer = threading.Thread(target=write_forever, daemon=True)
    writer.start()
    try:
        yield str(fifo)
    finally:
        # A reader that never opened the pipe leaves the writer waiting in open: open it once, so the writer ends.
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        writer.join(timeout=10)


@pytest.mark.rule("S001.4")
@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_known_divergences_file_that_never_ends_is_refused_for_its_size(device, tmp_path):
    done = gateproof("verify", "--builtin", "reference", "--examples", "0", "--known", device, "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and b"Traceback" not in done.stderr
    assert done.stderr == b"gateproof: error: " + device.encode() + b": " + LARGER
    assert not (tmp_path / "out" / "results.jsonl").exists()


def test_a_results_file_that_never_ends_a_line_is_refused_by_its_line_after_reading_no_more_than_the_limit():
    done = gateproof("report", "/dev/zero", "--format", "json")
    assert done.returncode == 2 and done.stderr == b"gateproof: error: /dev/zero: " + LONGER


def test_a_results_file_of_random_bytes_is_refused_by_its_first_line():
    done = gateproof("report", "/dev/urandom", "--format", "json")
    assert done.returncode == 2 and done.stderr.startswith(b"gateproof: error: /dev/urandom: line 1: not a JSON record")


@pytest.mark.rule("S001.4")
def test_endless_pipes_are_refused_quickly_for_report_and_known(tmp_path):
    started = time.monotonic()
    with endless_pipe(tmp_path, b"0" * 65536) as fifo:
        done = gateproof("report", fifo, "--format", "markdown")
    assert done.returncode == 2 and done.stderr == b"gateproof: error: " + fifo.encode() + b": " + LONGER
    (tmp_path / "endless").unlink()
    with endless_pipe(tmp_path, b"[" * 65536) as fifo:
        done = gateproof("verify", "--builtin", "reference", "--examples", "0", "--known", fifo, "--out", str(tmp_path / "out"))
    assert done.returncode == 2 and done.stderr == b"gateproof: error: " + fifo.encode() + b": " + LARGER
    assert time.monotonic() - started < 60


def test_a_line_is_read_up_to_its_limit_and_refused_one_byte_past_it(tmp_path):
    path = tmp_path / "lines"
    path.write_bytes(b"abc\n" + b"x" * 10 + b"\n" + b"y" * 11 + b"\nnever read\n")
    lines = numbered_lines(str(path), limit=10)
    assert next(lines) == (1, b"abc", True) and next(lines) == (2, b"x" * 10, True)
    with pytest.raises(InputError, match=r"lines: line 3: longer than 10 bytes"):
        next(lines)


@pytest.mark.rule("S001.6")
def test_a_known_divergences_file_that_writes_a_key_twice_is_refused_naming_the_key(tmp_path):
    path = tmp_path / "known.json"
    path.write_text('{"divergences": [{"scenario": "gw.forged.role", "issue": "https://example.org/1", "issue": "https://example.org/2"}]}')
    with pytest.raises(InputError, match=r"known.json: \$\.divergences\[0\]: the key 'issue' is written more than once"):
        read_known(str(path))
    done = gateproof("verify", "--builtin", "reference", "--examples", "0", "--known", str(path), "--out", str(tmp_path / "out"))
    assert done.returncode == 2
    assert done.stderr.decode().endswith("known.json: $.divergences[0]: the key 'issue' is written more than once\n")


def test_a_known_divergences_file_written_once_per_key_is_read(tmp_path):
    path = tmp_path / "known.json"
    path.write_text(json.dumps({"divergences": [{"scenario": "gw.forged.role", "issue": "https://example.org/1"}]}))
    [entry] = read_known(str(path))
    assert (entry.scenario, entry.issue) == ("gw.forged.role", "https://example.org/1")
