"""Printing a long value costs the same whatever its length: it is cut before anything reads it character by character.

Not timed: what is printed for a value of n characters and of 4n is the
same text, and every text handed to a per-character step (writing JSON,
wrapping) while printing it is at most a little over MOST_SHOWN characters.
``python -m gateproof.conformance.bench.printing`` prints the times and their ratio.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gateproof.conformance.explanation.explain import explained
from gateproof.conformance.explanation.trace import text_of
from gateproof.conformance.harness import preview as preview_module
from gateproof.conformance.harness.preview import MOST_SHOWN, preview, shortened
from gateproof.conformance.harness.results import Disagreement, Verdict
from gateproof.conformance.reports.failure import failure_lines
from gateproof.model.scenario import read_scenario, run_scenario

from harness_helpers import FAKES

ROOT = Path(__file__).resolve().parent.parent
REFUSED = ROOT / "examples" / "forced-snippet-refused.json"
#: The longest text a per-character step may be handed while a long value is printed: a cut value and the words around it.
MOST_HANDED = 3 * MOST_SHOWN


def words(text: str) -> str:
    """``text`` with its wrapping undone: every run of white space one space."""
    return " ".join(text.split())


def refused(enforcement: object = "enforce") -> dict:
    scenario = json.loads(REFUSED.read_text())
    scenario["world"]["enforcement"] = enforcement
    return scenario


def disagreeing(length: int) -> Verdict:
    """A verdict whose actual outcome writes a message of ``length`` characters where the model writes its own."""
    scenario = refused()
    expected = run_scenario(read_scenario(scenario))
    actual = json.loads(json.dumps(expected))
    actual["results"][1]["message"] = "x" * length
    return Verdict("long", "replay", "replay", scenario["id"], "failed", disagreement=Disagreement(scenario, expected, actual, 1, ("message",)))


@pytest.fixture
def handed(monkeypatch) -> list[int]:
    """The length of every text handed to textwrap or to the JSON writer of previews while the test runs."""
    lengths: list[int] = []
    wrap, json_text = textwrap.wrap, preview_module.json_text

    def recorded_wrap(text, *args, **kwargs):
        lengths.append(len(text))
        return wrap(text, *args, **kwargs)

    def recorded_json_text(value, **options):
        lengths.append(len(value) if isinstance(value, (str, list, dict)) else 0)
        return json_text(value, **options)

    monkeypatch.setattr(textwrap, "wrap", recorded_wrap)
    monkeypatch.setattr(preview_module, "json_text", recorded_json_text)
    return lengths


@pytest.mark.parametrize("value", ["x" * (MOST_SHOWN * 8), list(range(MOST_SHOWN * 8)), {"k": ["v" * MOST_SHOWN] * 8}, 10 ** (MOST_SHOWN * 4)],
                         ids=["string", "array", "object", "integer"])
def test_a_long_value_is_previewed_from_its_start_alone(value, handed):
    shown = preview(value, "kept whole elsewhere")
    assert len(shown) <= MOST_SHOWN + 60 and shown.endswith("kept whole elsewhere)")
    assert max(handed, default=0) <= MOST_SHOWN + 1


def test_a_short_value_is_previewed_whole_as_json():
    for value in ("é", [1, {"a": None, "b": [True, 2.5]}], 10 ** 1900, "x" * (MOST_SHOWN - 2)):
        assert preview(value, "-") == json.dumps(value, ensure_ascii=False)
    assert shortened("short", "-") == "short"


def test_a_disagreement_of_n_and_of_4n_characters_prints_the_same_lines_every_step_handed_a_bounded_text(handed):
    lines = {length: failure_lines(disagreeing(length), 100, explained=False) for length in (250_000, 1_000_000)}
    assert lines[250_000] == lines[1_000_000]
    assert "cut at 2,000 characters: results.jsonl and the reports hold it whole" in words(" ".join(lines[250_000]))
    assert max(handed) <= MOST_HANDED


def test_an_explanation_of_a_value_of_n_and_of_4n_characters_is_the_same_text_every_step_handed_a_bounded_text(handed):
    texts = {length: text_of(explained(read_scenario(refused("e" * length)))) for length in (250_000, 1_000_000)}
    assert texts[250_000] == texts[1_000_000] and "explain --json shows it whole" in words(texts[250_000])
    assert max(handed) <= MOST_HANDED


def gateproof(*args: str, **options) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", *args], capture_output=True, timeout=300, **options)


def test_explaining_a_valid_16_mib_document_finishes_and_cuts_its_long_value(tmp_path):
    scenario = refused("")
    padding = 16 * 1024 * 1024 - len(json.dumps(scenario).encode())
    scenario["world"]["enforcement"] = "e" * padding
    path = tmp_path / "long.json"
    path.write_text(json.dumps(scenario))
    assert path.stat().st_size == 16 * 1024 * 1024
    done = gateproof("explain", str(path))
    assert done.returncode == 0, done.stderr
    assert "explain --json shows it whole" in words(done.stdout.decode()) and len(done.stdout) < 100_000


def test_verifying_a_30_mb_disagreeing_reply_finishes_and_cuts_it(tmp_path):
    done = gateproof("verify", "--replay", str(REFUSED), "--out", str(tmp_path / "out"), "--", sys.executable, str(FAKES / "long_reply.py"),
                     env={**os.environ, "LONG_REPLY_CHARACTERS": str(30_000_000)})
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr
    assert "cut at 2,000 characters" in words(done.stdout.decode()) and len(done.stdout) < 100_000
    assert b"x" * 30_000_000 in (tmp_path / "out" / "results.jsonl").read_bytes()  # kept whole where the line says
