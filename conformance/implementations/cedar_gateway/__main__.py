"""The Cedar gateway behind the conformance protocol: ``python -m gateproof.conformance.implementations.cedar_gateway``."""

from importlib.metadata import version

from gateproof.conformance.harness.protocol import Started
from gateproof.conformance.implementations.cedar_gateway import run
from gateproof.conformance.implementations.serve import serve

INFO = Started(
    name="cedar",
    version=version("cedarpy"),
    language="cedar",
    homepage="https://www.cedarpolicy.com",
    rules=("lab-001",),
    kinds=("gateway",),
)

serve(INFO, run)
