"""One mutant of the model behind the conformance protocol: ``python -m gateproof.conformance.mutation.serve MUTANT_ID``.

It installs the mutant before anything imports the model, then serves
exactly as the reference implementation does: every rule version and kind
the reference declares, every scenario decided by the (mutated) model. When
``GATEPROOF_MUTATION_JOURNAL`` names a file, each scenario decided is
appended to it with the answer, in the order asked, so the runner can tell
how many scenarios verify ran before the first one the mutant decided wrong.
"""

from __future__ import annotations

import os
import sys

import orjson

from .hook import install
from .mutants import UnknownMutant, mutated_code

JOURNAL = "GATEPROOF_MUTATION_JOURNAL"
USAGE_ERROR = 2


def journaled(run, path: str):
    """``run``, each scenario and its answer (the outcome, or the error it raised) appended to ``path`` as one line."""
    handle = open(path, "ab")

    def run_and_record(scenario: dict) -> dict:
        try:
            outcome = run(scenario)
        except Exception as error:
            handle.write(orjson.dumps({"scenario": scenario, "errored": f"{type(error).__name__}: {error}"}) + b"\n")
            handle.flush()
            raise
        handle.write(orjson.dumps({"scenario": scenario, "outcome": outcome}) + b"\n")
        handle.flush()
        return outcome

    return run_and_record


def main(arguments: list[str]) -> None:
    if len(arguments) != 1:
        print("usage: python -m gateproof.conformance.mutation.serve MUTANT_ID", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    try:
        install(*mutated_code(arguments[0]))
    except UnknownMutant as error:
        print(f"gateproof mutation: error: {error}", file=sys.stderr)
        sys.exit(USAGE_ERROR)
    # Imported only now, so that every module of the model they load sees the mutant.
    from attrs import evolve

    from ..implementations.reference import INFO, run
    from ..implementations.serve import serve

    journal = os.environ.get(JOURNAL)
    serve(evolve(INFO, name=f"mutant {arguments[0]}"), journaled(run, journal) if journal else run)


if __name__ == "__main__":
    main(sys.argv[1:])
