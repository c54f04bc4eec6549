"""The mutation server: the mutant is the module every importer sees, and it answers the protocol as the reference does."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import orjson
import pytest

from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.process import ImplementationProcess
from gateproof.conformance.harness.protocol import Outcome
from gateproof.conformance.implementations.reference import INFO
from gateproof.conformance.mutation.hook import install
from gateproof.conformance.mutation.mutants import mutated_code
from gateproof.conformance.mutation.serve import JOURNAL, journaled
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.versions import DEFAULT_VERSION

TIE = "model/lattice.py:takes_over:LtE->Lt:running_rank <= new_rank"  # ties go to the earlier source instead of the later
SERVER = (sys.executable, "-m", "gateproof.conformance.mutation.serve")


def corpus_case(case_id: str) -> dict:
    return next(c.scenario for c in load_corpus() if c.id == case_id)


def python(script: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], capture_output=True, text=True, timeout=60)


def test_every_importer_of_the_mutated_module_gets_the_mutant():
    result = python(f"""
        from gateproof.conformance.mutation.hook import install
        from gateproof.conformance.mutation.mutants import mutated_code
        install(*mutated_code({TIE!r}))
        import gateproof.conformance.harness.protocol  # imports the model's scenario reader first, as the server does
        from gateproof.model import fold, lattice
        assert fold.fold_ranks is lattice.fold_ranks  # fold's own import from the mutated module is the mutant's
        assert lattice.takes_over(1, 2) and not lattice.takes_over(2, 2)  # a tie no longer takes over
        assert lattice.__file__.endswith("model/lattice.py") and type(lattice.__loader__).__name__ == "MutantLoader"
        print("ok")
    """)
    assert result.stdout.strip() == "ok", result.stderr


def test_the_hook_refuses_a_module_that_is_already_loaded():
    # The model is imported in this process: its importers would keep the pristine module.
    with pytest.raises(RuntimeError, match="already imported"):
        install(*mutated_code(TIE))
    assert not any(type(finder).__name__ == "MutantFinder" for finder in sys.meta_path)


def test_the_mutant_answers_start_as_the_reference_and_decides_a_tie_otherwise(tmp_path, monkeypatch):
    journal = tmp_path / "journal.jsonl"
    monkeypatch.setenv(JOURNAL, str(journal))  # the server inherits the environment
    tie, unrelated = corpus_case("ceiling.tie.later-source-wins"), load_corpus()[-1].scenario
    process = ImplementationProcess((*SERVER, TIE))
    info = process.start()
    replies = [process.run_one(tie), process.run_one(unrelated)]
    process.close()
    assert (info.rules, info.kinds, info.language) == (INFO.rules, INFO.kinds, INFO.language)
    assert all(isinstance(reply, Outcome) for reply in replies)
    assert replies[0].outcome != run_scenario(read_scenario(tie))
    assert replies[1].outcome == run_scenario(read_scenario(unrelated))
    entries = [orjson.loads(line) for line in journal.read_bytes().splitlines()]
    assert [e["scenario"] for e in entries] == [tie, unrelated] and entries[0]["outcome"] == replies[0].outcome


def test_a_mutant_that_renames_a_rule_version_still_declares_the_reference_s_versions():
    # The latest version's name, mutated: declaring it would excuse the mutant from every scenario of that version.
    process = ImplementationProcess((*SERVER, f'model/versions.py:<module>:string->XXstringXX:"{DEFAULT_VERSION}"'))
    info = process.start()
    tie = corpus_case("ceiling.tie.later-source-wins")
    reply = process.run_one(tie)
    process.close()
    assert info.rules == INFO.rules and DEFAULT_VERSION in info.rules
    assert reply.outcome != run_scenario(read_scenario(tie))  # asked, it gives itself away


def test_the_journal_never_changes_an_answer(tmp_path):
    # An outcome that is not JSON goes back to the server to fail on, exactly as it would without a journal.
    not_json = {"results": [object()]}
    run = journaled(lambda scenario: not_json, str(tmp_path / "journal.jsonl"))
    assert run({"id": "s"}) is not_json
    entry = orjson.loads((tmp_path / "journal.jsonl").read_bytes())
    assert entry["scenario"] == {"id": "s"} and "not JSON" in entry["errored"]


def test_an_unknown_mutant_is_refused_on_one_line_with_status_2():
    result = subprocess.run([*SERVER, "model/fold.py:fold:No->Such#1"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "has no such mutant" in result.stderr
