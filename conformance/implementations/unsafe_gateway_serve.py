"""The unsafe baseline behind the conformance protocol: ``python -m gateproof.conformance.implementations.unsafe_gateway_serve``."""

from importlib.metadata import version

from gateproof.conformance.harness.protocol import Started
from gateproof.conformance.implementations.serve import serve
from gateproof.conformance.implementations.unsafe_gateway import run

INFO = Started(
    name="unsafe-gateway",
    version=version("gateproof"),
    language="python",
    homepage="",  # published with the gateproof package; no site of its own
    rules=("lab-001",),
    kinds=("gateway",),
)

if __name__ == "__main__":
    serve(INFO, run)
