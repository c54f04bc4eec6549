"""The mutation runner: verify's findings classified and counted, errors recorded rather than raised, the equivalent list kept honest."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.mutation import execute
from gateproof.conformance.mutation.cli import BadInput, named, sampled
from gateproof.conformance.mutation.equivalent import Equivalence, read_equivalents, stale_entries
from gateproof.conformance.mutation.execute import CAUGHT, ERROR, STILLBORN, SURVIVED, Finding, VerifySettings, classify, run_mutant, scenarios_to_catch
from gateproof.conformance.mutation.mutants import all_mutants
from gateproof.conformance.mutation.report import MutationRun, equivalent_kinds, tallies
from gateproof.model.scenario import read_scenario, run_scenario

TIE = "model/lattice.py:takes_over:LtE->Lt:running_rank <= new_rank"  # decided differently by the corpus's tie case
STILLBORN_ID = "model/lattice.py:<module>:number+1:4"  # four names unpacked from range(5): fails on import
ERROR_TEXT = 'model/scenario/schema.py:_describe:string->XXstringXX:"required field is missing"'  # words a refusal of invalid input only: verify misses it, the refusals do not
RUNNER = (sys.executable, "-m", "gateproof.conformance.mutation")


def mutant(mutant_id: str):
    return next(m for m in all_mutants() if m.id == mutant_id)


def write_equivalents(path: Path, entries: list[dict]) -> Path:
    path.write_bytes(orjson.dumps({"equivalent": entries}))
    return path


def test_a_small_fixed_set_is_counted_as_verify_and_the_drivers_found_it(tmp_path):
    equivalents = write_equivalents(tmp_path / "equivalent.json", [
        {"id": ERROR_TEXT, "line": mutant(ERROR_TEXT).before, "kind": "refused-document", "reason": "only an invalid document is described"},
        {"id": "model/fold.py:gone:And->Or#1", "line": "x and y", "kind": "no-difference", "reason": "a function since removed"},
        {"id": "model/fold.py:fold:return->None#1", "line": "return something else", "kind": "no-difference", "reason": "judged on a line since edited"},
    ])
    out = tmp_path / "report"
    result = subprocess.run([*RUNNER, "--mutant", TIE, "--mutant", STILLBORN_ID, "--mutant", ERROR_TEXT,
                             "--equivalent", str(equivalents), "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr  # the list of equivalents needs a review: stale entries, and one the refusals caught
    report = orjson.loads((out / "mutation-report.json").read_bytes())
    assert sorted(orjson.loads(line)["mutant"] for line in (out / "findings.jsonl").read_bytes().splitlines()) == sorted([TIE, STILLBORN_ID, ERROR_TEXT])
    total = report["modules"][-1]
    assert {k: total[k] for k in ("mutants", "caught", "stillborn", "survived", "equivalent", "errors", "score")} == {
        "mutants": 3, "caught": 2, "stillborn": 1, "survived": 0, "equivalent": 0, "errors": 0, "score": 1.0}
    assert report["equivalent_kinds"] == {"no-difference": 0, "refused-document": 0, "outside-outcome": 0}
    assert total["by refusals"] == 1 and total["by corpus"] + total["by generated"] == 1 and total["by explain"] == 0
    statuses = {m["id"]: m for m in report["mutants"]}
    assert statuses[STILLBORN_ID]["status"] == STILLBORN and "did not start" in statuses[STILLBORN_ID]["detail"]
    caught = statuses[TIE]
    assert caught["status"] == CAUGHT and caught["to_catch"] >= 1 and caught["phase"] in ("corpus", "generated") and caught["counterexample"]
    worded = statuses[ERROR_TEXT]
    assert worded["status"] == CAUGHT and worded["phase"] == "refusals" and worded["counterexample"] == "refusal.S001.1.required"
    assert report["wrongly_equivalent"] == [ERROR_TEXT] and f"listed as equivalent but caught: {ERROR_TEXT}" in result.stdout
    assert {s["id"] for s in report["stale_equivalents"]} == {"model/fold.py:gone:And->Or#1", "model/fold.py:fold:return->None#1"}
    assert "stale equivalence entry model/fold.py:gone:And->Or#1" in result.stdout
    assert "| total | 3 | 2 | 1 | 0 | 0 | 0 | 100.0% |" in (out / "mutation-report.md").read_text(encoding="utf-8")


def test_an_errored_verify_is_recorded_with_its_stderr_and_never_raised(tmp_path, monkeypatch):
    monkeypatch.setattr(execute, "verify_command", lambda *_: [sys.executable, "-c", "import sys; sys.stderr.write('boom\\n'); sys.exit(3)"])
    finding = run_mutant(TIE, tmp_path / "errored", VerifySettings(timeout=60))
    assert finding.status == ERROR and "status 3" in finding.detail and "boom" in finding.detail
    monkeypatch.setattr(execute, "verify_command", lambda *_: [sys.executable, "-c", "import time; time.sleep(60)"])
    assert "timed out" in run_mutant(TIE, tmp_path / "hung", VerifySettings(timeout=0.5)).detail
    monkeypatch.setattr(execute, "verify_command", lambda *_: [str(tmp_path / "no-such-program")])
    assert run_mutant(TIE, tmp_path / "missing", VerifySettings(timeout=60)).status == ERROR


def test_exit_status_2_is_stillborn_only_when_the_mutant_did_not_start(tmp_path):
    (tmp_path / "report.json").write_bytes(orjson.dumps({"implementations": [{"lost": "did not start: exited with status 1"}]}))
    assert classify(TIE, 2, "", 1.0, tmp_path).status == STILLBORN
    assert classify(TIE, 2, "", 1.0, tmp_path / "nothing-written").status == ERROR
    assert classify(TIE, 0, "", 1.0, tmp_path).status == SURVIVED


def test_exit_status_1_without_a_failing_verdict_or_a_report_is_an_error_never_a_catch(tmp_path):
    (tmp_path / "stderr.txt").write_text("Traceback (most recent call last):\nImportError: boom\n", encoding="utf-8")
    crashed = classify(TIE, 1, "", 1.0, tmp_path)
    assert crashed.status == ERROR and "status 1" in crashed.detail and "ImportError: boom" in crashed.detail
    (tmp_path / "report.json").write_bytes(orjson.dumps({"implementations": [{"verdict": "NOT CONFORMANT"}]}))
    assert classify(TIE, 1, "", 1.0, tmp_path).status == CAUGHT  # verify finished and found it wrong, nothing decided say


def test_scenarios_to_catch_counts_up_to_the_first_answer_the_model_would_not_give():
    scenario = load_corpus()[0].scenario
    right = {"scenario": scenario, "outcome": run_scenario(read_scenario(scenario))}
    wrong = {"scenario": scenario, "outcome": {**right["outcome"], "results": []}}
    assert scenarios_to_catch([right, right, wrong, right]) == 3
    assert scenarios_to_catch([right, {"scenario": scenario, "errored": "KeyError: 'x'"}]) == 2
    assert scenarios_to_catch([right, {"scenario": scenario, "outcome": {**right["outcome"], "results": None}}]) == 2  # breaks the schema
    assert scenarios_to_catch([right]) is None


def test_tallies_score_what_is_caught_among_what_is_not_equivalent():
    ids = [m.id for m in all_mutants()[:6]]
    statuses = [CAUGHT, CAUGHT, STILLBORN, SURVIVED, SURVIVED, ERROR]
    findings = {i: Finding(i, s, 1.0, to_catch=(3 if n == 0 else 9) if s == CAUGHT else None) for n, (i, s) in enumerate(zip(ids, statuses))}
    listed = (Equivalence(ids[4], "", "no-difference", "why"),)
    run = MutationRun(tuple(m for m in all_mutants()[:6]), findings, listed, (), 6, 6, 12.0, {"jobs": 2})
    total = tallies(run)[-1]
    assert (total.caught, total.stillborn, total.survived, total.equivalent, total.errors) == (2, 1, 1, 1, 1)
    assert total.score == pytest.approx(3 / 5) and (total.median_to_catch, total.max_to_catch) == (6, 9)
    assert equivalent_kinds(run) == {"no-difference": 1, "refused-document": 0, "outside-outcome": 0}


def test_stale_entries_name_gone_mutants_and_edited_lines():
    tie = mutant(TIE)
    entries = tuple(Equivalence(i, line, "no-difference", why) for i, line, why in
                    ((TIE, tie.before, "fine"), (TIE + " #9", tie.before, "gone"), (STILLBORN_ID, "edited", "moved")))
    stale = stale_entries(entries, all_mutants())
    assert [(s.entry.reason, s.why.split()[0]) for s in stale] == [("gone", "no"), ("moved", "its")]


def test_the_shipped_equivalent_list_reads_and_holds():
    entries = read_equivalents()
    assert not stale_entries(entries, all_mutants())
    assert all(entry.reason.strip() and "\n" not in entry.reason for entry in entries)


def test_a_sample_is_seeded_and_keeps_enumeration_order():
    mutants = all_mutants()
    first, again, other = sampled(mutants, 20, 0), sampled(mutants, 20, 0), sampled(mutants, 20, 1)
    assert first == again != other and len(first) == 20
    assert [mutants.index(m) for m in first] == sorted(mutants.index(m) for m in first)
    with pytest.raises(BadInput):
        named(mutants, ("model/fold.py:fold:No->Such#1",))


@pytest.mark.parametrize("arguments, message", [
    (("--mutant", "nope"), "--mutant nope: no such mutant"),
    (("--sample", "0"), "--sample"),
    (("--module", "model/nothing/*"), "matches no module"),
    (("--equivalent", "/no/such/file.json", "--mutant", TIE), "cannot read"),
])
def test_bad_input_is_one_line_and_status_2(arguments, message):
    result = subprocess.run([*RUNNER, *arguments], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_list_names_every_mutant_without_running_any():
    result = subprocess.run([*RUNNER, "--list", "--module", "fold.py"], capture_output=True, text=True, timeout=60)
    lines = result.stdout.splitlines()
    assert result.returncode == 0 and lines and all(line.startswith("model/fold.py:") for line in lines)
    assert f"{len(lines)} mutants in 1 modules" in result.stderr


def test_an_equivalence_entry_of_an_unknown_kind_is_refused(tmp_path):
    path = tmp_path / "equivalent.json"
    path.write_text('{"equivalent": [{"id": "x", "line": "", "kind": "looks-fine", "reason": "?"}]}')
    with pytest.raises(ValueError, match="looks-fine"):
        read_equivalents(path)


def test_a_recount_counts_earlier_findings_against_the_list_as_it_stands_and_runs_nothing(tmp_path):
    survivor = ERROR_TEXT
    findings = tmp_path / "run" / "findings.jsonl"
    findings.parent.mkdir()
    findings.write_bytes(b"".join(orjson.dumps(f) + b"\n" for f in (
        {"mutant": TIE, "status": CAUGHT, "seconds": 2.0, "to_catch": 7, "counterexample": "c", "phase": "corpus", "detail": ""},
        {"mutant": survivor, "status": SURVIVED, "seconds": 30.0},
    )))
    (findings.parent / "mutation-report.json").write_bytes(orjson.dumps({"seconds": 99.5, "settings": {"jobs": 2}}))
    unlisted = write_equivalents(tmp_path / "none.json", [])
    listed = write_equivalents(tmp_path / "listed.json", [{"id": survivor, "line": mutant(survivor).before, "kind": "refused-document", "reason": "words a refusal"}])
    totals = []
    for equivalents, status in ((unlisted, 0), (listed, 0)):
        out = tmp_path / f"recount-{equivalents.stem}"
        result = subprocess.run([*RUNNER, "--recount", str(findings), "--equivalent", str(equivalents), "--out", str(out)],
                                capture_output=True, text=True, timeout=120)
        assert result.returncode == status, result.stderr
        report = orjson.loads((out / "mutation-report.json").read_bytes())
        assert report["seconds"] == 99.5 and report["run"] == 2 and not (out / "findings.jsonl").exists()
        totals.append({k: report["modules"][-1][k] for k in ("mutants", "caught", "survived", "equivalent")})
    assert totals == [{"mutants": 2, "caught": 1, "survived": 1, "equivalent": 0}, {"mutants": 2, "caught": 1, "survived": 0, "equivalent": 1}]


def test_a_recount_drops_what_is_gone_from_a_module_run_again_after_it_and_only_then(tmp_path):
    """A changed module run again and appended replaces the findings about its code that is gone; elsewhere they are refused."""
    def line(mutant_id, status=SURVIVED):
        return orjson.dumps({"mutant": mutant_id, "status": status, "seconds": 1.0}) + b"\n"
    gone = "model/lattice.py:gone:And->Or#1"
    findings = tmp_path / "findings.jsonl"
    findings.write_bytes(line(gone) + line(TIE, SURVIVED) + line(TIE, CAUGHT))
    out = tmp_path / "out"
    result = subprocess.run([*RUNNER, "--recount", str(findings), "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    module = next(m for m in orjson.loads((out / "mutation-report.json").read_bytes())["modules"] if m["module"] == "model/lattice.py")
    assert (module["mutants"], module["caught"], module["survived"]) == (1, 1, 0), module
    findings.write_bytes(line(TIE, CAUGHT) + line(gone))  # the module was not run again after the finding about its gone code
    result = subprocess.run([*RUNNER, "--recount", str(findings), "--out", str(out)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2 and gone in result.stderr and "run them again" in result.stderr, result.stderr


def test_a_recount_of_findings_about_code_that_is_gone_is_refused(tmp_path):
    findings = tmp_path / "findings.jsonl"
    findings.write_bytes(orjson.dumps({"mutant": "model/fold.py:gone:And->Or#1", "status": SURVIVED, "seconds": 1.0}) + b"\n")
    result = subprocess.run([*RUNNER, "--recount", str(findings), "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "run them again" in result.stderr, result.stderr
    findings.write_text("not json\n")
    result = subprocess.run([*RUNNER, "--recount", str(findings), "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "not the findings.jsonl" in result.stderr, result.stderr
