"""The ``gateproof`` command line: a thin layer over the model and the harness.

Every command refuses bad input with the field and the problem on stderr and
exit status 2, never a traceback.
"""

from __future__ import annotations

import importlib
import sys

import click

from gateproof.model.scenario import ScenarioError

from ..harness.bulk import CHUNK, POOL_AFTER, decided, decisions, error_record
from .options import decidable_names, model_versions, rules_option
from ..harness.documents import dumps_pretty, parse_json, read_document, read_lines

USAGE_ERROR = 2

#: Commands whose modules load only when the command runs: they bring in the
#: prover, hypothesis and the harness, which ``decide`` never needs and whose
#: import alone would cost a bulk run more than a thousand decisions.
LAZY_COMMANDS = {
    "prove": "gateproof.conformance.cli.prove",
    "diff": "gateproof.conformance.cli.diff",
    "verify": "gateproof.conformance.cli.verify",
    "corpus": "gateproof.conformance.cli.corpus",
    "rules": "gateproof.conformance.cli.rules",
    "report": "gateproof.conformance.cli.report",
}


class CommandGroup(click.Group):
    """A group that imports each of :data:`LAZY_COMMANDS` when it is asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            return getattr(importlib.import_module(LAZY_COMMANDS[name]), name)
        return super().get_command(ctx, name)


def fail(message: str) -> None:
    click.echo(f"gateproof: error: {message}", err=True)
    sys.exit(USAGE_ERROR)


def read_input(path: str) -> bytes:
    try:
        if path == "-":
            return read_document(sys.stdin.buffer)
        with open(path, "rb") as handle:
            return read_document(handle)
    except OSError as error:
        fail(f"{path}: cannot read ({error.strerror})")


@click.group(cls=CommandGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="gateproof")
def main() -> None:
    """Reference model, proofs and conformance suite for LLM context-trust and tool-call rules."""


@main.command()
@click.argument("path", default="-")
@click.option("--jsonl", is_flag=True, help="One scenario per line in, one outcome per line out; the first invalid line stops the run (exit status 2).")
@click.option("--keep-going", is_flag=True,
              help="With --jsonl: write an error record (line, field, problem) in place of each invalid line's outcome, decide every other line, and exit 2 at the end if any was invalid.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help=f"With --jsonl: processes deciding lines in parallel, this one among them. A second pays only on a core left idle (by the last minute's load) "
                   f"and a stream longer than {CHUNK + POOL_AFTER} lines; otherwise lines are decided in this process alone, and never in more than the idle cores.")
@rules_option(decidable_names, "Decide under these rules instead of the scenario's own: a rule version, or a deliberately wrong variant (wrong:...)",
              "a rule version or wrong variant", cheap=model_versions)
def decide(path: str, jsonl: bool, keep_going: bool, jobs: int, rules: str | None) -> None:
    """Print the model's outcome for the scenario in PATH (- for stdin)."""
    if keep_going and not jsonl:
        fail("--keep-going goes with --jsonl")
    if not jsonl:
        try:
            outcome = decided(parse_json(read_input(path)), rules)
        except ScenarioError as error:
            fail(f"{path}: {error}")
        sys.stdout.buffer.write(dumps_pretty(outcome) + b"\n")
        return
    out = sys.stdout.buffer
    stream = sys.stdin.buffer if path == "-" else open_or_fail(path)
    invalid, first = 0, None
    try:
        with decisions(read_lines(stream), jobs, rules) as results:
            for number, result in results:
                if isinstance(result, ScenarioError):
                    invalid += 1
                    first = first or f"line {number}: {result}"
                    if not keep_going:
                        break
                    result = error_record(number, result)
                out.write(result + b"\n")
    except OSError as error:  # the pool is ended before the exit, whatever the lines held
        out.flush()
        fail(f"{path}: cannot read ({error.strerror})")
    out.flush()
    if invalid and not keep_going:
        fail(f"{path}: {first}")
    if invalid:
        plural = "s" if invalid > 1 else ""
        fail(f"{path}: {invalid} invalid line{plural}, written as error record{plural}; the first: {first}")


def open_or_fail(path: str):
    try:
        return open(path, "rb")
    except OSError as error:
        fail(f"{path}: cannot read ({error.strerror})")


@main.command()
@click.argument("path", default="-")
@rules_option(decidable_names, "Explain under these rules instead of the scenario's own: a rule version (e.g. each side of a difference "
              "gateproof diff found) or a deliberately wrong variant (wrong:...)", "a rule version or wrong variant")
@click.option("--json", "as_json", is_flag=True, help="Print the trace as one JSON document (conformance/schema/explain-trace.schema.json).")
def explain(path: str, rules: str | None, as_json: bool) -> None:
    """Explain, step by step (from step 0) and rule by rule, how the scenario in PATH is decided.

    Each rule is named by its id; gateproof rules ID prints its text.
    """
    from ..explanation.explain import explain_under
    from ..explanation.trace import text_of

    try:
        trace = explain_under(parse_json(read_input(path)), rules)
    except ScenarioError as error:
        fail(f"{path}: {error}")
    except ValueError as error:
        fail(str(error))
    if as_json:
        sys.stdout.buffer.write(dumps_pretty(trace.document()) + b"\n")
    else:
        click.echo(text_of(trace))


if __name__ == "__main__":  # pragma: no cover
    main()
