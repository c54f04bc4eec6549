"""One mutant of the zoo behind the conformance protocol: ``python -m gateproof.conformance.implementations.mutant NAME``.

It answers start as an implementation of the latest rules of its kind and
decides every scenario with its variant, keeping the scenario's own rule
version in the outcome, so only the defect itself can give it away.
"""

from __future__ import annotations

import sys
from importlib.metadata import version

from gateproof.model.gateway.gate import DEFAULT_GATEWAY_VERSION
from gateproof.model.versions import DEFAULT_VERSION

from ..harness.protocol import Started
from .serve import serve
from .wrong.decide import run_under
from .zoo import ZOO, Mutant

LATEST_OF_KIND = {"ceiling": DEFAULT_VERSION, "gateway": DEFAULT_GATEWAY_VERSION}


def info(name: str, mutant: Mutant) -> Started:
    return Started(
        name=f"mutant:{name}",
        version=version("gateproof"),
        language="python",
        homepage="",  # published with the gateproof package; no site of its own
        rules=(LATEST_OF_KIND[mutant.kind],),
        kinds=(mutant.kind,),
    )


def runner(mutant: Mutant):
    def run(scenario: dict) -> dict:
        outcome = run_under(mutant.variant, scenario)
        return {**outcome, "rules": scenario.get("rules", LATEST_OF_KIND[mutant.kind])}

    return run


def main(arguments: list[str]) -> None:
    if len(arguments) != 1 or arguments[0] not in ZOO:
        raise SystemExit(f"usage: python -m gateproof.conformance.implementations.mutant NAME, NAME one of {', '.join(ZOO)}")
    mutant = ZOO[arguments[0]]
    serve(info(arguments[0], mutant), runner(mutant))


if __name__ == "__main__":
    main(sys.argv[1:])
