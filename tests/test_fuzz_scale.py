"""``GATEPROOF_FUZZ`` multiplies the input fuzzing's documents (``make fuzz``); a value that is not a whole number stops the run, naming it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from fuzz_scale import fuzz_examples

HERE = Path(__file__).resolve().parent


def test_the_scale_multiplies_the_examples(monkeypatch):
    monkeypatch.delenv("GATEPROOF_FUZZ", raising=False)
    assert fuzz_examples(1000) == 1000
    monkeypatch.setenv("GATEPROOF_FUZZ", "10")
    assert fuzz_examples(1000) == 10_000


@pytest.mark.parametrize("value", ["x", "0", "-2", "1.5", ""])
def test_a_bad_scale_is_a_usage_error_naming_the_variable_and_the_value(value):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--co", "-q", str(HERE / "test_fuzz_scale.py")],
                          env={**os.environ, "GATEPROOF_FUZZ": value}, capture_output=True, text=True, timeout=300, cwd=HERE.parent)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "GATEPROOF_FUZZ must be a whole number of at least 1" in done.stderr and repr(value) in done.stderr
    assert "Traceback" not in done.stderr and "INTERNALERROR" not in done.stderr + done.stdout
