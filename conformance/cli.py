"""The ``gateproof`` command line: a thin layer over the model and the harness.

Every command refuses bad input with the field and the problem on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from gateproof.model.scenario import ScenarioError, read_scenario

from .bulk import decide_lines, decided
from .documents import dumps_pretty, parse_json

USAGE_ERROR = 2

#: Commands whose modules load only when the command runs: they bring in the
#: prover, hypothesis and the harness, which ``decide`` never needs and whose
#: import alone would cost a bulk run more than a thousand decisions.
LAZY_COMMANDS = {
    "prove": "gateproof.conformance.cli_prove",
    "diff": "gateproof.conformance.cli_diff",
    "verify": "gateproof.conformance.cli_verify",
    "corpus": "gateproof.conformance.cli_corpus",
    "report": "gateproof.conformance.cli_report",
}


class CommandGroup(click.Group):
    """A group that imports each of :data:`LAZY_COMMANDS` when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            return getattr(importlib.import_module(LAZY_COMMANDS[name]), name)
        return super().get_command(ctx, name)


class RulesChoice(click.Choice):
    """``--rules``: the rule versions, and for ``decide`` the wrong variants too, listed only when help or a value needs them."""

    def __init__(self, versions_only: bool = False) -> None:
        self.versions_only = versions_only
        super().__init__([])

    @property
    def choices(self):
        if self.versions_only:
            from gateproof.model.gateway.gate import GATEWAY_VERSIONS
            from gateproof.model.versions import VERSIONS

            return [*VERSIONS, *GATEWAY_VERSIONS]
        from .proofs.replay import decide_names

        return decide_names()

    @choices.setter
    def choices(self, _value) -> None:
        pass


def fail(message: str) -> None:
    click.echo(f"gateproof: error: {message}", err=True)
    sys.exit(USAGE_ERROR)


def read_input(path: str) -> bytes:
    try:
        if path == "-":
            return sys.stdin.buffer.read()
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        fail(f"{path}: cannot read ({error.strerror})")


def load_scenario(path: str):
    try:
        return read_scenario(parse_json(read_input(path)))
    except ScenarioError as error:
        fail(f"{path}: {error}")


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gateproof")
def main() -> None:
    """Reference model, proofs and conformance suite for LLM context-trust and tool-call rules."""


@main.command()
@click.argument("path", default="-")
@click.option("--jsonl", is_flag=True, help="One scenario per line in, one outcome per line out.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="With --jsonl: worker processes deciding lines in parallel.")
@click.option("--rules", "rules", type=RulesChoice(), default=None,
              help="Decide under these rules instead of the scenario's own: a rule version, or a deliberately wrong variant (wrong:...).")
def decide(path: str, jsonl: bool, jobs: int, rules: str | None) -> None:
    """Print the model's outcome for the scenario in PATH (- for stdin)."""
    if not jsonl:
        try:
            outcome = decided(parse_json(read_input(path)), rules)
        except ScenarioError as error:
            fail(f"{path}: {error}")
        sys.stdout.buffer.write(dumps_pretty(outcome) + b"\n")
        return
    out = sys.stdout.buffer
    stream = sys.stdin.buffer if path == "-" else open_or_fail(path)
    for number, result in decide_lines(stream, jobs, rules):
        if isinstance(result, ScenarioError):
            out.flush()
            fail(f"{path}: line {number}: {result}")
        out.write(result + b"\n")


def open_or_fail(path: str):
    try:
        return open(path, "rb")
    except OSError as error:
        fail(f"{path}: cannot read ({error.strerror})")


def under_rules(scenario, name: str):
    """The scenario with the rule version ``name`` in place of its own; a version of the other kind is a usage error."""
    from attrs import evolve

    from gateproof.model.gateway.gate import GATEWAY_VERSIONS
    from gateproof.model.scenario.read import Scenario
    from gateproof.model.versions import rules_named

    is_ceiling = isinstance(scenario, Scenario)
    if (name in GATEWAY_VERSIONS) == is_ceiling:
        fail(f"--rules {name} does not apply to this kind of scenario")
    return evolve(scenario, rules=rules_named(name) if is_ceiling else GATEWAY_VERSIONS[name])


@main.command()
@click.argument("path", default="-")
@click.option("--rules", "rules", type=RulesChoice(versions_only=True), default=None,
              help="Explain under this rule version instead of the scenario's own, e.g. each side of a difference gateproof diff found.")
def explain(path: str, rules: str | None) -> None:
    """Explain, step by step and rule by rule, how the model decides the scenario in PATH."""
    from .explain import explain_scenario

    scenario = load_scenario(path)
    click.echo(explain_scenario(scenario if rules is None else under_rules(scenario, rules)))


if __name__ == "__main__":  # pragma: no cover
    main()
