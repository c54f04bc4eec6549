"""``gateproof decide``: the model's outcome for one scenario, or for one scenario per line of a stream."""

from __future__ import annotations

import sys

import click

from gateproof.model.scenario import ScenarioError

from ..harness.bulk import CHUNK, POOL_AFTER, decided, decisions, error_record
from ..harness.documents import dumps_pretty, parse_json, read_lines
from .options import decidable_names, fail, model_versions, open_or_fail, read_input, rules_option


@click.command()
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
