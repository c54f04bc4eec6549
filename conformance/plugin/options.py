"""The plugin's settings, read from the ini file and the command line, each checked before anything is collected.

A wrong setting is a :class:`pytest.UsageError` that names the setting, the
value given and what is allowed, so pytest stops with its usage message
rather than an internal error or a silently empty run.
"""

from __future__ import annotations

import importlib
import shlex
from pathlib import Path
from typing import Callable

import pytest
from attrs import frozen

from gateproof.model.gateway.gate import DEFAULT_GATEWAY_VERSION
from gateproof.model.versions import default_version

from ..harness.campaign import KINDS, RULES_OF_KIND
from ..implementations import mcp_bridged
from ..mcp.target import TargetError, read_target
from .command import CommandRun

DEFAULT_EXAMPLES = 100
#: Seconds an implementation given by its command has for each reply, as verify's default --timeout.
COMMAND_TIMEOUT = 10.0
def latest_of_kind(kind: str) -> str:
    """The rule version tested when gateproof_rules names none: the default of each kind."""
    return default_version() if kind == "ceiling" else DEFAULT_GATEWAY_VERSION


@frozen
class PluginSettings:
    """What to test and how much: the callable, the kinds and rule versions it implements, and the scenarios to generate."""

    target: str  # module:function, as given
    run: Callable[[dict], dict]
    kinds: tuple[str, ...]
    rules: tuple[str, ...]
    examples: int  # generated scenarios in all, shared among the rule versions, as verify's --examples
    inipath: Path
    from_command_line: bool  # whether the target came from the command line, so a replay command must name it again
    replays: tuple[tuple[Path, dict], ...] = ()  # saved scenarios to run alone, each with its path
    naming: tuple[str, ...] = ()  # the options that name the implementation on the command line, when it came from there
    slices: int = 1  # items each rule version's generated search is split into, so pytest -n spreads them

    def shares(self) -> list[tuple[str, str, int]]:
        """(kind, rule version, scenarios) for every rule version chosen; the examples divided as verify divides them."""
        chosen = [(kind, version) for kind in self.kinds for version in RULES_OF_KIND[kind] if version in self.rules]
        return [(kind, version, self.examples // len(chosen) + (n < self.examples % len(chosen))) for n, (kind, version) in enumerate(chosen)]


def _words(text: str) -> list[str]:
    return [word for word in str(text).replace(",", " ").split() if word]


def load_callable(setting: str, target: str) -> Callable[[dict], dict]:
    """The callable ``module:function`` names; a UsageError saying what is wrong with it."""
    module_name, _, attribute = target.partition(":")
    if not module_name or not attribute:
        raise pytest.UsageError(f"{setting}: {target!r} is not module:function (for example my_gateway.conformance:run)")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise pytest.UsageError(f"{setting}: {target!r}: cannot import module {module_name!r} ({type(error).__name__}: {error})") from None
    run = getattr(module, attribute, None)
    if not callable(run):
        raise pytest.UsageError(f"{setting}: {target!r}: module {module_name!r} has no function {attribute!r}")
    return run


def _kinds(config) -> tuple[str, ...]:
    given = _words(config.getini("gateproof_kinds"))
    for kind in given:
        if kind not in KINDS:
            raise pytest.UsageError(f"gateproof_kinds: {kind!r} is not a scenario kind; allowed: {', '.join(KINDS)}")
    return tuple(dict.fromkeys(given)) or KINDS


def _rules(config, kinds: tuple[str, ...]) -> tuple[str, ...]:
    allowed = [version for kind in kinds for version in RULES_OF_KIND[kind]]
    given = _words(config.getini("gateproof_rules"))
    for version in given:
        if version not in allowed:
            raise pytest.UsageError(
                f"gateproof_rules: {version!r} is not a rule version of {' or '.join(kinds)}; allowed: {', '.join(allowed)}")
    return tuple(dict.fromkeys(given)) or tuple(latest_of_kind(kind) for kind in kinds)


def _examples(config) -> int:
    given = config.getoption("gateproof_examples")
    setting, text = ("--gateproof-examples", given) if given is not None else ("gateproof_examples", config.getini("gateproof_examples"))
    text = str(text).strip() or str(DEFAULT_EXAMPLES)
    if not text.isascii() or not text.isdigit():
        raise pytest.UsageError(f"{setting}: {text!r} is not a whole number of generated scenarios; allowed: 0 or more")
    return int(text)


def _slices(config) -> int:
    given = config.getoption("gateproof_slices")
    setting, text = ("--gateproof-slices", given) if given is not None else ("gateproof_slices", config.getini("gateproof_slices"))
    text = str(text).strip() or "1"
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise pytest.UsageError(f"{setting}: {text!r} is not a whole number of items to split each search into; allowed: 1 or more")
    return int(text)


def _replay(path: Path) -> tuple[Path, dict]:
    """A saved scenario to replay, read and checked as verify --replay reads it: a UsageError naming the file and what is wrong with it."""
    from gateproof.model.scenario import ScenarioError, read_scenario

    from ..harness.inputs import InputError, read_json

    try:
        scenario = read_json(str(path))
        read_scenario(scenario)
    except InputError as error:
        raise pytest.UsageError(f"--gateproof-replay: {error}") from None
    except ScenarioError as error:
        raise pytest.UsageError(f"--gateproof-replay: {str(path)!r}: not a scenario: {error}") from None
    return path.resolve(), scenario


def _setting(config, option: str, ini: str) -> tuple[str, str, bool]:
    """(the setting's name as given, its value, whether it came from the command line): the command line first."""
    given = config.getoption(ini)
    return (option, given, True) if given else (ini, str(config.getini(ini)).strip(), False)


def _command_run(config) -> tuple[str, str, CommandRun, bool, tuple[str, ...]] | None:
    """(setting, target, run, from the command line, naming) for an implementation given by its command, or None."""
    setting, text, given = _setting(config, "--gateproof-command", "gateproof_command")
    mcp_setting, mcp, mcp_given = _setting(config, "--gateproof-mcp", "gateproof_mcp")
    if not text:
        if mcp:
            raise pytest.UsageError(f"{mcp_setting}: names how to reach an MCP server the command starts, and gateproof_command names none")
        return None
    try:
        argv = tuple(shlex.split(text))
    except ValueError as error:
        raise pytest.UsageError(f"{setting}: {text!r} is not a command line: {error}") from None
    if not argv:
        raise pytest.UsageError(f"{setting}: {text!r} names no program")
    if mcp:
        try:
            read_target(mcp, argv)
        except TargetError as error:
            raise pytest.UsageError(f"{mcp_setting}: {error}") from None
        argv = mcp_bridged(mcp, *argv)
    naming = ("--gateproof-command", text, *(("--gateproof-mcp", mcp) if mcp else ()))
    return setting, text, CommandRun(argv, COMMAND_TIMEOUT), given or mcp_given, naming


def read_settings(config) -> PluginSettings | None:
    """The plugin's settings, or None when no implementation is named (then the plugin adds nothing)."""
    setting, target, given = _setting(config, "--gateproof", "gateproof_implementation")
    command = _command_run(config)
    if target and command:
        raise pytest.UsageError(f"{setting} and {command[0]}: name the implementation once, as module:function or as a command")
    if command:
        setting, target, run, given, naming = command
    elif target:
        run, naming = load_callable(setting, target), ("--gateproof", target)
    else:
        return None
    if config.inipath is None:
        raise pytest.UsageError(
            f"{setting}: gateproof's tests are collected from the ini file, and this run has none; "
            "put the gateproof settings in pytest.ini, tox.ini, setup.cfg or pyproject.toml's [tool.pytest.ini_options]")
    kinds = _kinds(config)
    rules = _rules(config, kinds)
    kinds = tuple(kind for kind in kinds if any(version in rules for version in RULES_OF_KIND[kind]))
    examples = _examples(config)
    replays = tuple(_replay(Path(path)) for path in config.getoption("gateproof_replay") or ())
    return PluginSettings(target, run, kinds, rules, examples, Path(config.inipath), given, replays, naming if given else (), _slices(config))
