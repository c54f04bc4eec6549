"""What an implementation's start makes gateproof write is bounded: each field of ``started`` has a documented length (PROTOCOL.md, start)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateproof.conformance.harness.protocol import ProtocolError, read_started

from harness_helpers import fake

ROOT = Path(__file__).resolve().parent.parent


def started(**fields) -> dict:
    return {"started": {"protocol": 1, "name": "n", "version": "1", "language": "python", "homepage": "", "rules": ["adr-179"],
                        "kinds": ["ceiling"], **fields}}


def verify(out: Path, name: str) -> subprocess.CompletedProcess:
    """verify driving ``tests/implementations/named.py``, which answers start with ``name``."""
    return subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "verify", "--examples", "0", "--out", str(out), "--", *fake("named")],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "FAKE_NAME": name})


def test_a_name_past_its_documented_length_is_refused_at_start_naming_the_field_exit_2(tmp_path):
    done = verify(tmp_path / "out", "n" * 100_000)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    said = " ".join((done.stdout + done.stderr).split())  # as one line, wherever the terminal's width wrapped it
    assert "$.started.name: 100000 characters, more than the 200 allowed" in said
    assert "n" * 201 not in said  # the name is counted, never printed
    results = tmp_path / "out" / "results.jsonl"
    assert not results.exists() or "n" * 201 not in results.read_text()


def test_a_name_of_the_documented_length_is_used_as_it_is(tmp_path):
    done = verify(tmp_path / "out", "n" * 200)
    assert done.returncode == 0, done.stdout + done.stderr  # named.py is wrong on .fault scenarios alone, which the corpus has none of
    assert '"implementation":"%s"' % ("n" * 200) in (tmp_path / "out" / "results.jsonl").read_text()


@pytest.mark.parametrize("field, length", [("name", 200), ("version", 200), ("language", 200), ("homepage", 2000), ("issues", 2000)])
def test_every_text_of_started_has_its_length(field, length):
    read_started(started(**{field: "x" * length}))
    with pytest.raises(ProtocolError, match=rf"^started message: \$\.started\.{field}: {length + 1} characters, more than the {length} allowed$"):
        read_started(started(**{field: "x" * (length + 1)}))


def test_a_rule_version_is_a_short_text_and_at_most_a_hundred_are_declared():
    with pytest.raises(ProtocolError, match=r"\$\.started\.rules\[0\]: 201 characters"):
        read_started(started(rules=["r" * 201]))
    with pytest.raises(ProtocolError, match=r"^started message: \$\.started\.rules: .{1,300}$"):
        read_started(started(rules=[f"r{number}" for number in range(101)]))
