"""A pytest plugin: the conformance corpus and generated scenarios, run against a gateway's own ``run`` or its command.

Installed with gateproof and registered through ``pytest11``, it does nothing
until told which callable to test, as ``module:function`` taking a scenario
document and returning an outcome document, in the ini file or on the
command line::

    [tool.pytest.ini_options]
    gateproof_implementation = "my_gateway.conformance:run"
    gateproof_kinds = "gateway"          # what it implements: ceiling, gateway or both (the default)
    gateproof_rules = "lab-001"          # the rule versions it implements; default the latest of each kind
    gateproof_examples = "200"           # generated scenarios in all, shared among the rule versions; default 100
    gateproof_slices = "4"               # each rule version's search as 4 items, for pytest -n; default 1

    pytest                               # the project's own tests and gateproof's
    pytest pyproject.toml                # gateproof's alone: they are collected from the ini file
    pytest -m "not gateproof"            # the project's alone
    pytest --gateproof my_gateway.conformance:run --gateproof-examples 500

A gateway in another language is named by the command that starts it,
speaking the protocol (``PROTOCOL.md``), and an MCP server by its command and
how it is reached (``MCP.md``)::

    gateproof_command = "node my-gateway.js"
    gateproof_mcp = "stdio"              # only for an MCP server: stdio, or its loopback streamable HTTP URL

A failure shows each differing field with the rules that decide it, the
model's explanation of the step, the scenario, and a ``pytest ...
--gateproof-replay FILE`` command that runs the saved scenario alone.
"""

from __future__ import annotations

import pytest

from .items import GateproofFile
from .options import DEFAULT_EXAMPLES, read_settings

_SETTINGS = pytest.StashKey()


def pytest_addoption(parser) -> None:
    group = parser.getgroup("gateproof", "gateproof conformance")
    group.addoption("--gateproof", dest="gateproof_implementation", metavar="MODULE:FUNCTION",
                    help="Run the gateproof corpus and generated scenarios against this run(scenario) -> outcome.")
    group.addoption("--gateproof-command", dest="gateproof_command", metavar="COMMAND",
                    help="Run them against the implementation this command starts, speaking the protocol (PROTOCOL.md), in any language.")
    group.addoption("--gateproof-mcp", dest="gateproof_mcp", metavar="stdio|URL",
                    help="The command starts an MCP server, reached over stdio or its streamable HTTP URL (MCP.md).")
    group.addoption("--gateproof-examples", dest="gateproof_examples", metavar="N",
                    help="Generated scenarios in all, shared among the rule versions (as verify's --examples).")
    group.addoption("--gateproof-slices", dest="gateproof_slices", metavar="N",
                    help="Split each rule version's generated search into N items, each a share of its scenarios, so pytest -n spreads them.")
    group.addoption("--gateproof-replay", dest="gateproof_replay", action="append", metavar="FILE",
                    help="Run this saved scenario alone (repeatable), instead of the corpus and generated scenarios.")
    parser.addini("gateproof_implementation", "module:function deciding a scenario document, to run the gateproof corpus against", default="")
    parser.addini("gateproof_command", "the command starting an implementation that speaks the protocol, in any language", default="")
    parser.addini("gateproof_mcp", "stdio or a URL: gateproof_command starts an MCP server, reached so (conformance/MCP.md)", default="")
    parser.addini("gateproof_kinds", "scenario kinds it implements: ceiling, gateway (default both)", default="")
    parser.addini("gateproof_rules", "rule versions it implements (default the latest of each kind)", default="")
    parser.addini("gateproof_slices", "items each rule version's generated search is split into, for pytest -n (default 1)", default="1")
    parser.addini("gateproof_examples", f"generated scenarios in all, shared among the rule versions (default {DEFAULT_EXAMPLES})",
                  default=str(DEFAULT_EXAMPLES))


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "gateproof: a gateproof conformance test: a corpus case, a rule version's generated scenarios or a replay")
    settings = read_settings(config)
    if settings is None:
        return
    config.stash[_SETTINGS] = settings
    if hasattr(settings.run, "close"):
        config.add_cleanup(settings.run.close)  # an implementation process ends with the session
    # A run given no paths (testpaths, or the current directory) collects the ini file too; one given paths runs what it names.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        inipath = settings.inipath
        if not any(inipath == (config.invocation_params.dir / arg).resolve() or (config.invocation_params.dir / arg).resolve() in inipath.parents
                   for arg in config.args):
            config.args.append(str(inipath))


def pytest_collect_file(file_path, parent):
    settings = parent.config.stash.get(_SETTINGS, None)
    if settings is not None and file_path == settings.inipath:
        return GateproofFile.from_parent(parent, path=file_path, settings=settings)
    return None
