"""The Makefile's choice of the interpreter its environment is made with: the distribution's CPython when it can make one."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not on PATH")


def chosen(*settings: str) -> str:
    """The PYTHON the Makefile would make ``.venv`` with, given ``settings`` on its command line."""
    done = subprocess.run(["make", "-s", "-C", str(ROOT), *settings, "--eval", "chosen: ; @echo $(PYTHON)", "chosen"],
                          capture_output=True, text=True, check=True)
    return done.stdout.strip()


def fake_interpreter(path: Path, status: int) -> Path:
    """An executable that answers the Makefile's check (3.10 or newer, with ensurepip) with ``status``."""
    path.write_text(f"#!/bin/sh\nexit {status}\n")
    path.chmod(0o755)
    return path


def test_the_system_python_is_taken_when_it_can_make_an_environment(tmp_path):
    able = fake_interpreter(tmp_path / "python3", 0)
    assert chosen(f"SYSTEM_PYTHON={able}") == str(able)


def test_python3_on_path_is_taken_when_the_system_python_cannot(tmp_path):
    unable = fake_interpreter(tmp_path / "python3", 1)  # older than 3.10, or no ensurepip (Debian without python3-venv)
    assert chosen(f"SYSTEM_PYTHON={unable}") == "python3"
    assert chosen(f"SYSTEM_PYTHON={tmp_path / 'absent'}") == "python3"


def test_python_on_the_command_line_is_taken_as_given(tmp_path):
    able = fake_interpreter(tmp_path / "python3", 0)
    assert chosen(f"SYSTEM_PYTHON={able}", "PYTHON=python3.12") == "python3.12"
