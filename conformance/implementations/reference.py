"""The model itself behind the conformance protocol: ``python -m gateproof.conformance.implementations.reference``.

Every other implementation is measured against the model in process; this
one measures the protocol and the harness: it must agree on every scenario.
"""

from __future__ import annotations

from importlib.metadata import version

from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.scenario import run_scenario
from gateproof.model.scenario.read import valid_parsed_document
from gateproof.model.versions import VERSIONS

from ..harness.protocol import Started
from ..harness.shared_worlds import WorldsReadOnce, json_text
from .serve import serve

INFO = Started(
    name="reference",
    version=version("gateproof"),
    language="python",
    homepage="",  # published with the gateproof package; no site of its own
    rules=sorted(VERSIONS) + sorted(GATEWAY_VERSIONS),
    kinds=("ceiling", "gateway"),
)


#: A campaign sends several scenarios on one world in a row (the trust-ceiling generator draws them so): each world is read once.
_worlds = WorldsReadOnce(key=json_text)


def run(scenario: dict) -> dict:
    """The outcome of a scenario the protocol server has just parsed from its line (S001.4 and S001.5 judged there)."""
    return run_scenario(_worlds(valid_parsed_document(scenario)))


if __name__ == "__main__":
    serve(INFO, run)
