"""``gateproof prove``: run the invariant catalog through z3 and report each result.

Exit status 0 only when every invariant expected to hold under the chosen
rules is proved; 1 otherwise; 2 for bad options (click's usage errors).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from gateproof.model.versions import DEFAULT_VERSION

from .documents import dumps_pretty
from .options import Seconds, writable_folder
from .proofs.catalog import BY_ID
from .proofs.engine import COUNTEREXAMPLE, DEFAULT_TIMEOUT_SECONDS, PROVED, Result, prove_catalog, rule_names, semantics_named
from .proofs.replay import decoded_counterexample
from .proofs.send import WRONG_PREFIX

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


def replay_command(rules: str, path: str) -> str:
    """The command that shows a counterexample file's violation: a wrong variant is named, a rule version is in the file."""
    if rules.startswith(WRONG_PREFIX):
        return f"gateproof decide --rules {rules} {path}"
    return f"gateproof decide {path}"


def _replay_hint(rules: str, path: str) -> str:
    return f"{path}: {replay_command(rules, path)} shows it"


def _print_table(results: list[Result], documents: list[dict], rules: str, bound: int, seconds: float) -> None:
    table = Table(title=f"Invariants under {rules}, at most {bound} sources, records or fields each")
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
        for path in (document["counterexample"] or {}).get("files", []):
            console.print(f"{document['id']} counterexample {_replay_hint(rules, path)}", soft_wrap=True)
    if any(document["counterexample"] and not document["counterexample"]["files"] for document in documents):
        console.print("--counterexamples DIR writes each counterexample as a scenario to replay", soft_wrap=True)


@click.command()
@click.option("--rules", "rules", type=click.Choice(rule_names()), default=DEFAULT_VERSION, show_default=True,
              help="A rule version of the model, or a deliberately wrong variant (wrong:...).")
@click.option("--bound", type=click.IntRange(1, MAX_BOUND), default=8, show_default=True,
              help="The most sources and fallbacks of a send, forced records of each kind in a run story, fields of a call.")
@click.option("--only", type=click.Choice(sorted(BY_ID)), default=None, help="Prove one invariant by its id.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as one JSON document.")
@click.option("--timeout", type=Seconds(), default=DEFAULT_TIMEOUT_SECONDS, show_default=True,
              help="Seconds the solver may spend on one invariant before answering unknown.")
@click.option("--counterexamples", type=click.Path(file_okay=False, path_type=Path), default=None, callback=writable_folder,
              help="Write each counterexample as scenario files (and their outcomes under RULES) into this directory.")
def prove(rules: str, bound: int, only: str | None, as_json: bool, timeout: float, counterexamples: Path | None) -> None:
    """Prove the invariant catalog for every send, run story or call up to BOUND sources, records or fields, or show a counterexample."""
    semantics = semantics_named(rules)
    started = time.perf_counter()
    results = prove_catalog(semantics, bound, only, timeout)
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
