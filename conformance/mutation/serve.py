"""One mutant of the model behind the conformance protocol: ``python -m gateproof.conformance.mutation.serve MUTANT_ID``.

It installs the mutant before anything imports the model, then serves
exactly as the reference implementation does: every rule version and kind
the reference declares, every scenario decided by the (mutated) model. What
it declares is read from the pristine model, loaded and unloaded again first:
a mutant that renames a rule version must still be asked about that version,
not be excused from it as an implementation that never claimed it. When
``GATEPROOF_MUTATION_JOURNAL`` names a file, each scenario decided is
appended to it with the answer, in the order asked, so the runner can tell
how many scenarios verify ran before the first one the mutant decided wrong.
"""

from __future__ import annotations

import os
import sys

from ..harness.documents import dumps
from .hook import install
from .mutants import UnknownMutant, mutated_code

JOURNAL = "GATEPROOF_MUTATION_JOURNAL"
USAGE_ERROR = 2


def journaled(run, path: str):
    """``run``, each scenario and its answer (the outcome, or the error it raised) appended to ``path`` as one line.

    Journaling never changes an answer: an outcome that is not JSON is still
    returned for the server to fail on as it would without a journal, and is
    journaled as the error it will be.
    """
    handle = open(path, "ab")

    def record(scenario: dict, answer: dict) -> None:
        try:
            line = dumps({"scenario": scenario, **answer})  # integers and repeated keys as the scenario holds them
        except TypeError as error:
            line = dumps({"scenario": scenario, "errored": f"the outcome is not JSON: {error}"})
        handle.write(line + b"\n")
        handle.flush()

    def run_and_record(scenario: dict) -> dict:
        try:
            outcome = run(scenario)
        except Exception as error:
            record(scenario, {"errored": f"{type(error).__name__}: {error}"})
            raise
        record(scenario, {"outcome": outcome})
        return outcome

    return run_and_record


def pristine_declaration() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The rule versions and kinds the unmutated reference declares; every module of gateproof loaded for it is unloaded after."""
    from ..implementations.reference import INFO

    declared = (INFO.rules, INFO.kinds)
    # This package imports nothing of the model, so it stays; everything that did goes, to be imported again with the mutant.
    for name in [n for n in sys.modules if n.startswith(("gateproof.model", "gateproof.conformance.")) and not n.startswith(__package__)]:
        del sys.modules[name]
    return declared


def main(arguments: list[str]) -> None:
    if len(arguments) != 1:
        print("usage: python -m gateproof.conformance.mutation.serve MUTANT_ID", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    try:
        mutant = mutated_code(arguments[0])
    except UnknownMutant as error:
        print(f"gateproof mutation: error: {error}", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    rules, kinds = pristine_declaration()
    install(*mutant)
    # Imported only now, so that every module of the model they load sees the mutant.
    from attrs import evolve

    from ..implementations.reference import INFO, run
    from ..implementations.serve import serve

    journal = os.environ.get(JOURNAL)
    info = evolve(INFO, name=f"mutant {arguments[0]}", rules=rules, kinds=kinds)
    serve(info, journaled(run, journal) if journal else run)


if __name__ == "__main__":
    main(sys.argv[1:])
