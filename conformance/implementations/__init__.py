"""Implementations the conformance suite drives.

Each Python module exposes ``run(scenario_document) -> outcome_document``;
the built-ins below put one behind the conformance protocol as a subprocess,
so ``gateproof verify --builtin NAME`` drives it exactly as it drives a
program in any other language. A built-in is a name and the command that
starts it. ``reference``, ``node`` and ``cedar`` must conform, and so must
``nr-llm``, nr-llm's own code loaded from the checkout ``NRLLM_SRC`` names; every
``mutant:NAME`` carries one defect from the zoo (``zoo.py``) and must be caught.

The MCP gateways (``MCP_BUILTINS``) are MCP servers driven through the bridge
of ``conformance/mcp`` (``conformance/MCP.md``): ``mcp-python`` and ``mcp-node``
over stdio, ``…-http`` over streamable HTTP on a free loopback port, and each
``mutant:mcp-FAULT`` the Python gateway with one fault of ``mcp_python/variants.py``.
They are named one by one or as ``mcp-all``; ``all`` is every other built-in.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

from .mcp_python.variants import FAULTS
from .zoo import ZOO


def python_module(module: str, *arguments: str) -> tuple[str, ...]:
    """The command that runs ``module`` with this interpreter."""
    return (sys.executable, "-m", module, *arguments)


NODE_ENTRY = Path(__file__).resolve().parent / "node" / "gateproof-node.js"
MCP_NODE_ENTRY = Path(__file__).resolve().parent / "mcp_node" / "dist" / "server.js"
MCP_PYTHON = python_module("gateproof.conformance.implementations.mcp_python")
#: A loopback URL whose port 0 the bridge replaces with a free one (conformance/MCP.md).
ANY_LOOPBACK_PORT = "http://127.0.0.1:0/mcp"


BRIDGE_MODULE = "gateproof.conformance.mcp.bridge"


def mcp_bridged(transport: str, *server: str) -> tuple[str, ...]:
    """The command that drives the MCP server ``server`` starts, over ``transport``, through the bridge."""
    return python_module(BRIDGE_MODULE, "--mcp", transport, "--", *server)


def with_bridge_timeouts(argv: tuple[str, ...], timeout: float, start_timeout: float) -> tuple[str, ...]:
    """``argv`` with the bridge, if it drives one, told the seconds verify allows a reply and a start: it shares them
    among the server's own requests, so a slow server is reported by the bridge before verify gives up on it."""
    if BRIDGE_MODULE not in argv:
        return argv
    at = argv.index(BRIDGE_MODULE) + 1
    return (*argv[:at], "--timeout", repr(timeout), "--start-timeout", repr(start_timeout), *argv[at:])
NRLLM_ENTRY = Path(__file__).resolve().parent / "nrllm" / "gateproof-nrllm.php"
#: The environment variable naming the nr-llm checkout the ``nr-llm`` built-in loads its classes from.
NRLLM_SRC = "NRLLM_SRC"

#: Every built-in implementation, by name: ``--builtin all`` drives each in this order.
BUILTINS: dict[str, tuple[str, ...]] = {
    "reference": python_module("gateproof.conformance.implementations.reference"),
    "node": ("node", str(NODE_ENTRY)),
    "cedar": python_module("gateproof.conformance.implementations.cedar_gateway"),
    **{f"mutant:{name}": python_module("gateproof.conformance.implementations.mutant", name) for name in ZOO},
    # Last, as it alone needs something besides an interpreter: the checkout, which travels in the environment.
    "nr-llm": ("php", str(NRLLM_ENTRY)),
}
#: The MCP gateways, driven through the bridge; each fault of the Python gateway is a mutant that must be caught.
MCP_BUILTINS: dict[str, tuple[str, ...]] = {
    "mcp-python": mcp_bridged("stdio", *MCP_PYTHON),
    "mcp-python-http": mcp_bridged(ANY_LOOPBACK_PORT, *MCP_PYTHON, "--http"),
    "mcp-node": mcp_bridged("stdio", "node", str(MCP_NODE_ENTRY)),
    "mcp-node-http": mcp_bridged(ANY_LOOPBACK_PORT, "node", str(MCP_NODE_ENTRY), "--http"),
    **{f"mutant:mcp-{fault}": mcp_bridged("stdio", *MCP_PYTHON, "--variant", fault) for fault in sorted(FAULTS)},
}
#: Names that stand for several built-ins: ``all`` for the protocol's, ``mcp-all`` for the MCP gateways.
GROUPS = {"all": tuple(BUILTINS), "mcp-all": tuple(MCP_BUILTINS)}
BUILTINS.update(MCP_BUILTINS)


def is_mutant(name: str) -> bool:
    """Whether a built-in is one of the zoo's mutants, which conformance must catch."""
    return name.startswith("mutant:")


def unavailable(name: str) -> str | None:
    """Why a built-in cannot be run on this machine (its interpreter is not on PATH, no checkout named, not built), or None."""
    program = BUILTINS[name][0] if name not in MCP_BUILTINS else BUILTINS[name][BUILTINS[name].index("--") + 1]
    if not shutil.which(program):
        return f"{program} is not on PATH"
    if name.startswith("mcp-node") and not MCP_NODE_ENTRY.is_file():
        return f"{MCP_NODE_ENTRY} is not built: make test builds it (npm ci and npm run build in {MCP_NODE_ENTRY.parent.parent})"
    if name == "nr-llm":
        return _nrllm_checkout_problem(os.environ.get(NRLLM_SRC, ""))
    return None


#: The class the nr-llm built-in needs first, and the package whose composer.json maps it to a file.
NRLLM_GATE_CLASS = "Netresearch\\NrLlm\\Service\\Context\\InputContextTrustGate"
NRLLM_PACKAGE = "netresearch/nr-llm"


def _nrllm_checkout_problem(src: str) -> str | None:
    """Why ``src`` is not an nr-llm checkout the PHP program can load, or None.

    It checks what ``nrllm/gateproof-nrllm.php`` needs before it loads a class: a
    ``composer.json`` naming ``netresearch/nr-llm`` with a PSR-4 autoload map, and the
    trust gate's class at the file that map gives it.
    """
    if not src:
        return f"no nr-llm checkout named: set {NRLLM_SRC} to one"
    try:
        composer = json.loads((Path(src) / "composer.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        composer = None
    autoload = composer.get("autoload", {}).get("psr-4") if isinstance(composer, dict) and isinstance(composer.get("autoload"), dict) else None
    if not isinstance(composer, dict) or composer.get("name") != NRLLM_PACKAGE or not isinstance(autoload, dict):
        return f"{NRLLM_SRC}={src} is not a checkout of nr-llm (no composer.json naming {NRLLM_PACKAGE} with a PSR-4 autoload map)"
    files = [Path(src) / str(directory).rstrip("/") / (NRLLM_GATE_CLASS[len(prefix):].replace("\\", "/") + ".php")
             for prefix, directory in autoload.items() if NRLLM_GATE_CLASS.startswith(prefix)]
    if not any(file.is_file() for file in files):
        return f"{NRLLM_SRC}={src} is not a checkout of nr-llm (its composer.json maps {NRLLM_GATE_CLASS} to no file)"
    return None
