"""``gateproof prove``: run the invariant catalog through z3 and report each result.

Exit status 0 only when every invariant expected to hold under the chosen
rules is proved; 1 otherwise; 2 for bad options (click's usage errors).
Progress goes to stderr, as for ``gateproof diff``.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from gateproof.model.versions import default_version

from ..program import command
from .options import VERSIONS_COMMAND, RuleName, Seconds, out_option, verbosity_options
from ..harness.documents import dumps_pretty
from ..implementations.wrong.variant import WRONG_PREFIX
from .progress import Progress
from ..proofs.catalog import BY_ID, CATALOG
from ..proofs.engine import COUNTEREXAMPLE, DEFAULT_TIMEOUT_SECONDS, PROVED, Result, rule_names, semantics_named
from ..proofs.engine import prove as prove_invariant
from ..proofs.replay import decoded_counterexample

FORMAT_VERSION = 1
MAX_BOUND = 64


def _counterexample_files(result: Result, decoded: list[tuple[dict, dict]], directory: Path) -> list[str]:
    """Write each scenario, and its outcome under the rules that broke the claim, into ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for document, outcome in decoded:
        # The id ends in what tells a counterexample's documents apart: a switch, a story, a call.
        stem = f"{result.invariant.id}-{document['id'].rsplit('/', 1)[1]}"
        (directory / f"{stem}.json").write_bytes(dumps_pretty(document) + b"\n")
        (directory / f"{stem}.outcome.json").write_bytes(dumps_pretty(outcome) + b"\n")
        written.append(str(directory / f"{stem}.json"))
    return written


def _result_document(result: Result, decoded, files) -> dict:
    entry = result.invariant
    return {
        "id": entry.id,
        "name": entry.name,
        "statement": entry.statement,
        "rests_on": list(entry.rests_on),
        "result": result.outcome,
        "seconds": round(result.seconds, 4),
        "expected_to_hold": result.expected_to_hold,
        "reason": result.reason,
        "counterexample": None if decoded is None else {
            "scenarios": [document for document, _ in decoded],
            "outcomes": [outcome for _, outcome in decoded],
            "files": files,
            "replay": [replay_command(result.rules, path) for path in files],
            "explain": [replay_command(result.rules, path, "explain") for path in files],
        },
    }


def _verdict_text(result: Result) -> str:
    if result.outcome == PROVED:
        return "[green]proved[/green]"
    if result.outcome == COUNTEREXAMPLE:
        if result.expected_to_hold:
            return "[red]counterexample[/red]"
        return f"[yellow]counterexample[/yellow], as known of {result.rules}"
    return f"[red]unknown[/red] ({result.reason})"


def replay_command(rules: str, path: str, subcommand: str = "decide") -> str:
    """The command that shows a counterexample file's violation (or, with ``explain``, why): a wrong variant is named, a rule version is in the file."""
    if rules.startswith(WRONG_PREFIX):
        return command(subcommand, "--rules", rules, path)
    return command(subcommand, path)


def _print_table(results: list[Result], documents: list[dict], rules: str, bound: int, seconds: float) -> None:
    table = Table(title=f"Invariants under {rules}, at most {bound} sources, records, fields or catalog tools each")
    table.add_column("id")
    table.add_column("invariant", no_wrap=True)
    table.add_column("result")
    table.add_column("seconds", justify="right")
    for result in results:
        table.add_row(result.invariant.id, result.invariant.name, _verdict_text(result), f"{result.seconds:.3f}")
    console = Console(highlight=False, width=max(110, Console().width))
    console.print(table)
    console.print(f"total {seconds:.2f} s")
    for document in documents:
        counterexample = document["counterexample"] or {}
        for path, decide, explain in zip(counterexample.get("files", []), counterexample.get("replay", []), counterexample.get("explain", [])):
            console.print(f"{document['id']} counterexample {path}: decided, then explained, by", soft_wrap=True, markup=False)
            console.print(f"      $ {decide}\n      $ {explain}", soft_wrap=True, markup=False)
    if any(document["counterexample"] and not document["counterexample"]["files"] for document in documents):
        console.print("--out DIR writes each counterexample as a scenario to replay", soft_wrap=True)


@click.command()
@click.option("--rules", "rules", type=RuleName(rule_names, "a rule version or wrong variant the proofs know"), default=default_version, show_default="the latest ADR version",
              help=f"A rule version of the model, or a deliberately wrong variant (wrong:...) ({VERSIONS_COMMAND} lists them; prove takes those marked *).")
@click.option("--bound", type=click.IntRange(1, MAX_BOUND), default=8, show_default=True,
              help="The most sources and fallbacks of a send, forced records of each kind in a run story, fields of a call and tools of its catalog.")
@click.option("--only", metavar="ID", type=RuleName(lambda: sorted(BY_ID), "an invariant id", "gateproof rules"), default=None,
              help="Prove one invariant by its id (gateproof rules lists the I ids with their titles).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON document.")
@click.option("--timeout", type=Seconds(), default=DEFAULT_TIMEOUT_SECONDS, show_default=True,
              help="Seconds the solver may spend on one invariant before answering unknown.")
@out_option(None, "Write each counterexample as scenario files (and their outcomes under RULES) into this folder.")
@verbosity_options
def prove(rules: str, bound: int, only: str | None, as_json: bool, timeout: float, out: str | None, quiet: bool, verbose: bool) -> None:
    """Prove the invariant catalog for every send, run story or call up to BOUND sources, records, fields or catalog tools, or show a counterexample."""
    semantics = semantics_named(rules)
    counterexamples = None if out is None else Path(out)
    entries = [entry for entry in CATALOG if only is None or entry.id == only]
    started = time.perf_counter()
    results = []
    with Progress("prove", quiet, verbose) as progress:
        progress.stage(f"proving {len(entries)} invariant(s) under {rules}, bound {bound}", total=len(entries))
        for entry in entries:
            results.append(prove_invariant(entry, semantics, bound, timeout))
            progress.advance()
            progress.line(f"{entry.id} {results[-1].outcome} ({results[-1].seconds:.3f}s)")
    seconds = time.perf_counter() - started
    documents = []
    for result in results:
        decoded, files = None, []
        if result.counterexample is not None:
            entry = result.invariant
            decoded = decoded_counterexample(entry.domain, entry.id, entry.statement, semantics, result.counterexample.subjects)
            if counterexamples is not None:
                files = _counterexample_files(result, decoded, counterexamples)
        documents.append(_result_document(result, decoded, files))
    all_expected = all(r.outcome == PROVED for r in results if r.expected_to_hold)
    if as_json:
        report = {"gateproof": FORMAT_VERSION, "rules": rules, "bound": bound, "seconds": round(seconds, 4),
                  "proved_all_expected": all_expected, "results": documents}
        sys.stdout.buffer.write(dumps_pretty(report) + b"\n")
    else:
        _print_table(results, documents, rules, bound, seconds)
    sys.exit(0 if all_expected else 1)
