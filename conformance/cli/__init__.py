"""The ``gateproof`` command line: one module per command, each thin over the library.

``main`` is the entry point the package installs as ``gateproof``;
``python -m gateproof.conformance.cli`` runs the same.
"""

from .main import main

__all__ = ["main"]
