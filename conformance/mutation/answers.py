"""What a person is shown for each document of the refusal corpus and each corpus scenario: ``python -m gateproof.conformance.mutation.answers [MUTANT_ID]``.

With a mutant id it installs the mutant before anything imports the model
(as :mod:`.serve` does); without one it answers for the pristine model. It
writes one JSON line per answer, ``{"driver", "id", "answer"}``, in a fixed
order:

- ``refusals``: each document of the refusal corpus, read as ``gateproof
  decide`` reads a file (the refusal's field, problem and printed message,
  or the outcome), as the Python entry point ``read_scenario`` reads it,
  as a worker of ``decide --jsonl --jobs N`` answers it (pickled back), and
  as the reference implementation reads it from a run command;
  then each document of :mod:`..corpus.python_values`, which only Python can
  build (S001.12), through ``read_scenario`` and handed unread to ``run_scenario``;
- ``explain``: each corpus scenario and each refusal document as ``gateproof
  explain`` shows it, the ``--json`` trace and the text, or the refusal.

An answer that raises anything but a refusal is written as what it raised,
so a mutant that crashes on one document is told apart on that document.
Exit status 3 when the mutant cannot even be imported, 2 for bad usage.
"""

from __future__ import annotations

import itertools
import json
import pickle
import sys
import traceback

from .hook import install
from .mutants import UnknownMutant, mutated_code

USAGE_ERROR, STILLBORN_EXIT = 2, 3


def _guarded(compute) -> dict:
    from gateproof.model.scenario import ScenarioError

    try:
        return compute()
    except ScenarioError as error:
        return {"refused": {"field": error.path, "problem": error.problem, "message": str(error)}}
    except Exception as error:  # noqa: BLE001 - whatever a mutant raises (a RecursionError too) is its answer
        return {"raised": f"{type(error).__name__}: {error}"[:2000]}


def from_a_worker(raw: bytes) -> dict:
    """A line decided as a worker of ``decide --jsonl --jobs N`` decides it: its answer comes back pickled, a refusal too."""
    from ..harness.bulk import decide_line

    result = pickle.loads(pickle.dumps(decide_line(raw)))
    if isinstance(result, Exception):
        raise result
    return {"outcome": json.loads(result)}


def as_the_server_parses(text: bytes):
    """A document parsed as the protocol server parses the run command that holds it: repeated keys kept, no size limit."""
    from ..harness.documents import COMMAND_DEPTH, parse_json
    from ..harness.protocol import run_line

    return parse_json(run_line(1, text), repeats=None, limit=None, depth=COMMAND_DEPTH)["scenario"]


def answers():
    """(driver, id, answer) for every document, in a fixed order."""
    from gateproof.model.scenario import read_scenario, run_scenario
    from gateproof.model.scenario.read import read_parsed_scenario

    from ..corpus.build import CORPUS_ROOT
    from ..corpus.python_values import python_value_documents
    from ..corpus.refusals import REFUSALS_FILE, answer, raw_text, read_refusals
    from ..explanation.explain import explain_under
    from ..explanation.trace import text_of
    from ..corpus.load import load_corpus
    from ..harness.documents import parse_json

    def explained(document) -> dict:
        trace = explain_under(document)
        return {"trace": trace.document(), "text": text_of(trace)}

    refusals = read_refusals(CORPUS_ROOT / REFUSALS_FILE)
    corpus = load_corpus()
    for case in refusals:
        raw = raw_text(case)
        yield "refusals", case["id"], _guarded(lambda: answer(raw))
        yield "refusals", f"{case['id']} (read_scenario)", _guarded(lambda: {"outcome": run_scenario(read_scenario(parse_json(raw)))})
        yield "refusals", f"{case['id']} (decide --jobs)", _guarded(lambda: from_a_worker(raw))
        yield "refusals", f"{case['id']} (protocol server)", _guarded(lambda: {"outcome": run_scenario(read_parsed_scenario(as_the_server_parses(raw)))})
    for name, document in python_value_documents():  # S001.12: what only a document built in Python can hold
        yield "refusals", f"python.{name} (read_scenario)", _guarded(lambda: {"outcome": run_scenario(read_scenario(document))})
        yield "refusals", f"python.{name} (run_scenario unread)", _guarded(lambda: {"outcome": run_scenario(document)})
    for case in corpus:
        yield "explain", case.id, _guarded(lambda: explained(case.scenario))
    for case in refusals:
        raw = raw_text(case)
        yield "explain", case["id"], _guarded(lambda: explained(parse_json(raw)))


def main(arguments: list[str]) -> None:
    if len(arguments) > 1:
        print("usage: python -m gateproof.conformance.mutation.answers [MUTANT_ID]", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    if arguments:
        try:
            install(*mutated_code(arguments[0]))
        except UnknownMutant as error:
            print(f"gateproof mutation: error: {error}", file=sys.stderr)
            sys.exit(USAGE_ERROR)
    try:
        from ..harness.documents import dumps

        produced = answers()
        first = next(produced)  # every module the answers need is imported by now
    except Exception:  # noqa: BLE001 - a mutant that breaks the model's import answers nothing
        traceback.print_exc()
        sys.exit(STILLBORN_EXIT)
    out = sys.stdout.buffer
    for driver, case_id, answer in itertools.chain([first], produced):  # each written as it is computed
        try:
            line = dumps({"driver": driver, "id": case_id, "answer": answer})
        except (TypeError, ValueError) as error:
            line = dumps({"driver": driver, "id": case_id, "answer": {"raised": f"the answer is not JSON: {error}"}})
        out.write(line + b"\n")
        out.flush()  # each answer is read as it comes: one the model does not give ends the run there


if __name__ == "__main__":
    main(sys.argv[1:])
