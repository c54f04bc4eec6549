"""Implementations the conformance suite drives.

Each Python module exposes ``run(scenario_document) -> outcome_document``;
the built-ins below put one behind the conformance protocol as a subprocess,
so ``gateproof verify --builtin NAME`` drives it exactly as it drives a
program in any other language. A built-in is a name and the command that
starts it. ``reference``, ``node`` and ``cedar`` must conform; every
``mutant:NAME`` carries one defect from the zoo (``zoo.py``) and must be caught.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from .zoo import ZOO


def python_module(module: str, *arguments: str) -> tuple[str, ...]:
    """The command that runs ``module`` with this interpreter."""
    return (sys.executable, "-m", module, *arguments)


NODE_ENTRY = Path(__file__).resolve().parent / "node" / "gateproof-node.js"

#: Every built-in implementation, by name: ``--builtin all`` drives each in this order.
BUILTINS: dict[str, tuple[str, ...]] = {
    "reference": python_module("gateproof.conformance.implementations.reference"),
    "node": ("node", str(NODE_ENTRY)),
    "cedar": python_module("gateproof.conformance.implementations.cedar_gateway"),
    **{f"mutant:{name}": python_module("gateproof.conformance.implementations.mutant", name) for name in ZOO},
}


def is_mutant(name: str) -> bool:
    """Whether a built-in is one of the zoo's mutants, which conformance must catch."""
    return name.startswith("mutant:")


def unavailable(name: str) -> str | None:
    """Why a built-in cannot be run on this machine (its interpreter is not on PATH), or None."""
    program = BUILTINS[name][0]
    return None if shutil.which(program) else f"{program} is not on PATH"
