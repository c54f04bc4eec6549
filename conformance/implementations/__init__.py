"""Implementations the conformance suite drives.

Each module exposes ``run(scenario_document) -> outcome_document``; the
built-ins below put one behind the conformance protocol as a subprocess, so
``gateproof verify --builtin NAME`` drives it exactly as it drives a program
in any other language. A built-in is a name and the command that starts it.
"""

from __future__ import annotations

import sys


def python_module(module: str) -> tuple[str, ...]:
    """The command that runs ``module`` with this interpreter."""
    return (sys.executable, "-m", module)


#: Every built-in implementation, by name: ``--builtin all`` drives each in this order.
BUILTINS: dict[str, tuple[str, ...]] = {
    "reference": python_module("gateproof.conformance.implementations.reference"),
    "cedar": python_module("gateproof.conformance.implementations.cedar_gateway"),
    "unsafe-gateway": python_module("gateproof.conformance.implementations.unsafe_gateway_serve"),
}
