"""The ``gateproof`` command line: a thin layer over the model and the harness.

Every command refuses bad input with the field and the problem on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import sys

import click

from gateproof.model.scenario import ScenarioError, read_scenario

from .bulk import decide_lines, decided
from .cli_corpus import corpus
from .cli_diff import diff
from .cli_prove import prove
from .cli_verify import verify
from .documents import dumps_pretty, parse_json
from .explain import explain_scenario
from .proofs.replay import decide_names

USAGE_ERROR = 2


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


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gateproof")
def main() -> None:
    """Reference model, proofs and conformance suite for LLM context-trust and tool-call rules."""


@main.command()
@click.argument("path", default="-")
@click.option("--jsonl", is_flag=True, help="One scenario per line in, one outcome per line out.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True, help="With --jsonl: worker processes deciding lines in parallel.")
@click.option("--rules", "rules", type=click.Choice(decide_names()), default=None,
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


@main.command()
@click.argument("path", default="-")
def explain(path: str) -> None:
    """Explain, step by step and rule by rule, how the model decides the scenario in PATH."""
    click.echo(explain_scenario(load_scenario(path)))


main.add_command(prove)
main.add_command(diff)
main.add_command(verify)
main.add_command(corpus)


if __name__ == "__main__":  # pragma: no cover
    main()
