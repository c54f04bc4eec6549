"""``corpus export --one-per-file``: every file it writes is a scenario decide, explain and verify --replay take as it is."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.corpus.load import load_corpus


def test_each_exported_scenario_is_taken_by_decide_explain_and_verify_replay(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(main, ["corpus", "export", "--one-per-file", "out"]).exit_code == 0
    files = sorted(Path("out").rglob("*.json"))
    cases = {case.id: case for case in load_corpus()}
    assert len(files) == len(cases)
    for path in files:
        scenario = json.loads(path.read_text())
        decided = runner.invoke(main, ["decide", str(path)])
        assert decided.exit_code == 0, (path, decided.output)
        assert json.loads(decided.output) == cases[scenario["id"]].expected, path
        assert runner.invoke(main, ["explain", str(path)]).exit_code == 0, path
    replays = [argument for path in files for argument in ("--replay", str(path))]
    replayed = runner.invoke(main, ["verify", "--builtin", "reference", "--report", "json", *replays])
    assert replayed.exit_code == 0, replayed.output
    [row] = json.loads(Path("gateproof-verify/report.json").read_text())["implementations"]
    assert row["passed"] == len(files)
