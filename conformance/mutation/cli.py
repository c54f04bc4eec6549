"""``python -m gateproof.conformance.mutation``: mutate the model, drive each mutant with verify, count what is caught.

Exit status: 0 when the run is complete and the list of equivalent mutants
holds, 1 when that list needs a review (an entry is stale, or names a mutant
verify caught), 2 for bad input (an unknown option value, a pattern that
matches no module), never a traceback.
"""

from __future__ import annotations

import fnmatch
import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from random import Random
from typing import Callable

import click
import orjson
from attrs import asdict
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..figure_pages import machine, write_page
from .drivers import Pristine, drive
from .equivalent import EQUIVALENT_FILE, read_equivalents, stale_entries
from .execute import SURVIVED, Finding, VerifySettings, run_mutant
from .mutants import Mutant, all_mutants
from .report import COLUMNS, MutationRun, equivalent_text, markdown, report_document, tallies, with_status, wrongly_equivalent

USAGE_ERROR, NEEDS_REVIEW = 2, 1
JOBS, TIMEOUT = 2, 180.0  # the defaults of --jobs and --timeout, and the whole run's


class BadInput(Exception):
    """Bad input, said in one line."""


def in_modules(mutants: list[Mutant], pattern: str | None) -> list[Mutant]:
    """The mutants in files matching ``pattern``, a glob over ``model/...`` paths (``model/`` may be left out)."""
    if pattern is None:
        return mutants
    found = [m for m in mutants if fnmatch.fnmatch(m.path, pattern) or fnmatch.fnmatch(m.path, f"model/{pattern}")]
    if not found:
        raise BadInput(f"--module {pattern}: matches no module of the model (e.g. 'model/gateway/*' or 'fold.py')")
    return found


def named(mutants: list[Mutant], ids: tuple[str, ...]) -> list[Mutant]:
    """The mutants with these ids, in their order; all of them when none is named."""
    if not ids:
        return mutants
    known = {m.id for m in mutants}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise BadInput(f"--mutant {unknown[0]}: no such mutant of the model as it stands (see --list)")
    return [m for m in mutants if m.id in ids]


def sampled(mutants: list[Mutant], sample: int | None, seed: int) -> list[Mutant]:
    """A seeded sample of ``sample`` mutants, in their order; all of them when there are no more."""
    if sample is None or sample >= len(mutants):
        return mutants
    picked = set(Random(seed).sample(range(len(mutants)), sample))
    return [m for position, m in enumerate(mutants) if position in picked]


def folder_name(position: int, mutant: Mutant) -> str:
    return f"{position:04d}-" + re.sub(r"[^A-Za-z0-9._-]+", "_", mutant.id)


def run_all(mutants: list[Mutant], settings: VerifySettings, jobs: int, console: Console, observe: Callable[[Finding], None],
            drivers: str = "after-verify") -> dict:
    """Every mutant through verify, ``jobs`` at a time, in a scratch folder removed afterwards; each finding observed as it comes.

    ``drivers`` says what follows: ``after-verify`` drives each survivor of
    verify with the refusal corpus and explain (:mod:`.drivers`), ``none``
    nothing; ``only`` skips verify and drives every mutant with them alone.
    """
    findings = {}
    pristine = Pristine(settings.timeout)
    with tempfile.TemporaryDirectory(prefix="gateproof-mutation-") as scratch, \
            Progress(TextColumn("mutants"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task("mutants", total=len(mutants))

        def one(item):
            position, mutant = item
            if drivers == "only":
                finding = Finding(mutant.id, SURVIVED, 0.0)
            else:
                finding = run_mutant(mutant.id, Path(scratch) / folder_name(position, mutant), settings)
            if drivers != "none":
                finding = drive(finding, pristine, settings.timeout)
            progress.advance(task)
            observe(finding)
            return finding

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for finding in pool.map(one, enumerate(mutants)):
                findings[finding.mutant] = finding
    return findings


def recounted(path: Path, everything: list[Mutant]) -> tuple[list[Mutant], dict, float, dict]:
    """The mutants, findings, run time and settings of an earlier run, from its findings.jsonl and the report beside it.

    The findings are counted again as the model and the list of equivalent
    mutants stand now; of several runs' findings concatenated, the later
    finding of a mutant counts. A finding about a mutant the model no longer
    has is about code that is gone: it is dropped when a later line holds a
    finding of the same module (the module, changed, was run again after
    it) and refused otherwise.
    """
    try:
        lines = [Finding(**orjson.loads(line)) for line in path.read_bytes().splitlines() if line.strip()]
    except OSError as error:
        raise BadInput(f"--recount {path}: cannot read ({error.strerror})") from None
    except (orjson.JSONDecodeError, TypeError) as error:
        raise BadInput(f"--recount {path}: not the findings.jsonl of a mutation run: {error}") from None
    known = {m.id for m in everything}
    last_run_of = {module_of(f.mutant): position for position, f in enumerate(lines) if f.mutant in known}
    gone = [f.mutant for position, f in enumerate(lines) if f.mutant not in known and last_run_of.get(module_of(f.mutant), -1) < position]
    if gone:
        raise BadInput(f"--recount {path}: {gone[0]} (and {len(gone) - 1} more) is no mutant of the model as it stands: run them again")
    findings = {f.mutant: f for f in lines if f.mutant in known}
    try:
        report = orjson.loads((path.parent / "mutation-report.json").read_bytes())
        seconds, settings = float(report["seconds"]), {**report["settings"], "recount": str(path)}
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError, ValueError):
        seconds, settings = sum(f.seconds for f in findings.values()), {"recount": str(path)}
    return [m for m in everything if m.id in findings], findings, seconds, settings


def module_of(mutant_id: str) -> str:
    """``model/lattice.py`` of ``model/lattice.py:takes_over:LtE->Lt#1``."""
    return mutant_id.split(":", 1)[0]


def summary_table(run: MutationRun) -> Table:
    table = Table(title=f"gateproof mutation: {len(run.mutants)} of {run.enumerated} mutants, {run.seconds:.0f} s")
    for column in COLUMNS:
        table.add_column(column, justify="left" if column == "module" else "right")
    for row in (t.row() for t in tallies(run)):
        table.add_row(*(str(row[c]) for c in COLUMNS))
    return table


def print_findings(run: MutationRun, console: Console) -> None:
    """Each survivor with its line before and after, so a scenario can be written to catch it; then what needs a look."""
    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)  # ids and code, printed as they are

    say(equivalent_text(run))
    for mutant in with_status(run, "survived"):
        say(f"survived {mutant.id}  ({mutant.path}:{mutant.line}:{mutant.column})\n  - {mutant.before}\n  + {mutant.after}")
    for mutant in with_status(run, "error"):
        say(f"error {mutant.id}: {run.findings[mutant.id].detail}")
    for stale in run.stale:
        say(f"stale equivalence entry {stale.entry.id}: {stale.why}")
    for mutant in wrongly_equivalent(run):
        say(f"listed as equivalent but caught: {mutant.id}")


def list_mutants(mutants: list[Mutant]) -> None:
    for mutant in mutants:
        click.echo(f"{mutant.id}\t{mutant.line}:{mutant.column}\t{mutant.after}")
    modules = sorted({m.path for m in mutants})
    click.echo(f"{len(mutants)} mutants in {len(modules)} modules", err=True)


def write_reports(run: MutationRun, out: Path) -> None:
    (out / "mutation-report.json").write_bytes(orjson.dumps(report_document(run), option=orjson.OPT_INDENT_2) + b"\n")
    (out / "mutation-report.md").write_text(markdown(run), encoding="utf-8")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--list", "listing", is_flag=True, help="List the mutants (id, line:column, the mutated line) without running them.")
@click.option("--mutant", "ids", multiple=True, metavar="ID", help="Only this mutant (repeat for more), e.g. a survivor a new scenario should catch.")
@click.option("--module", "pattern", metavar="PATTERN", help="Only modules whose path matches this glob, e.g. 'model/gateway/*'.")
@click.option("--sample", type=click.IntRange(min=1), help="Only a seeded sample of this many mutants.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of --sample.")
@click.option("--jobs", type=click.IntRange(min=1, max=64), default=JOBS, show_default=True, help="Mutants driven at once.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=TIMEOUT, show_default=True,
              help="Seconds allowed for one mutant's verify run.")
@click.option("--examples", type=click.IntRange(min=0), help="verify's --examples (default: verify's own).")
@click.option("--full-campaign", is_flag=True,
              help="Let verify finish after the first disagreement (shrinking more), instead of stopping it there.")
@click.option("--drivers", type=click.Choice(["after-verify", "none", "only"]), default="after-verify", show_default=True,
              help="Whether each mutant verify does not catch is driven by the refusal corpus and explain's traces (after-verify), "
                   "not (none), or every mutant by them alone, without verify (only: to judge mutants verify is known to miss).")
@click.option("--equivalent", "equivalent_path", type=click.Path(dir_okay=False, path_type=Path), default=EQUIVALENT_FILE,
              help="The reviewed list of equivalent mutants.")
@click.option("--recount", type=click.Path(dir_okay=False, path_type=Path), metavar="FINDINGS",
              help="Run nothing: count an earlier run's findings.jsonl again against the list of equivalent mutants as it stands.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("gateproof-mutation"), show_default=True,
              help="Where findings.jsonl (as they come), mutation-report.json and mutation-report.md are written.")
def mutation(listing, ids, pattern, sample, seed, jobs, timeout, examples, full_campaign, drivers, equivalent_path, recount, out) -> None:
    """Mutate the model one change at a time; drive each mutant with the default verify campaign against the pristine model."""
    everything = all_mutants()
    population = named(in_modules(everything, pattern), ids)
    mutants = sampled(population, sample, seed)
    if listing:
        list_mutants(mutants)
        return
    try:
        equivalents = read_equivalents(equivalent_path)
    except ValueError as error:
        raise BadInput(str(error)) from None
    started_on = machine()
    if recount is not None:
        mutants, findings, seconds, options = recounted(recount, everything)
        population = mutants
    else:
        mutants, findings, seconds, options = _run(mutants, ids, pattern, sample, seed, jobs, timeout, examples, full_campaign, drivers, out)
    out.mkdir(parents=True, exist_ok=True)
    run = MutationRun(tuple(mutants), findings, equivalents, tuple(stale_entries(equivalents, everything)), len(everything),
                      len(population), seconds, options)
    terminal = Console(width=None if sys.stdout.isatty() else 160, record=True)  # a log keeps the table whole
    print_findings(run, terminal)
    terminal.print(summary_table(run))
    if not (ids or pattern or sample or recount) and (jobs, timeout, examples, full_campaign, drivers, equivalent_path) == (
            JOBS, TIMEOUT, None, False, "after-verify", EQUIVALENT_FILE):  # every mutant, as make mutation drives them: the run the page holds
        write_page("mutation.md", "make mutation: the model's mutants, caught or not", "make mutation (python -m gateproof.conformance.mutation)",
                   started_on, terminal.export_text().splitlines())
    write_reports(run, out)
    click.echo(f"reports: {out / 'mutation-report.json'}, {out / 'mutation-report.md'}", err=True)
    if run.stale or wrongly_equivalent(run):
        sys.exit(NEEDS_REVIEW)


def _run(mutants, ids, pattern, sample, seed, jobs, timeout, examples, full_campaign, drivers, out: Path) -> tuple[list[Mutant], dict, float, dict]:
    """Every mutant driven by verify, each finding kept in ``out``/findings.jsonl as it comes."""
    console = Console(stderr=True)
    settings = VerifySettings(timeout, examples, stop_at_first=not full_campaign)
    started = time.perf_counter()
    out.mkdir(parents=True, exist_ok=True)
    with (out / "findings.jsonl").open("wb") as log:  # kept as they come, so a run cut short loses nothing found
        def observe(finding: Finding) -> None:
            log.write(orjson.dumps(asdict(finding)) + b"\n")
            log.flush()

        findings = run_all(mutants, settings, jobs, console, observe, drivers)
    options = {"mutants": list(ids), "module": pattern, "sample": sample, "seed": seed, "jobs": jobs, "timeout": timeout, "examples": examples,
               "full_campaign": full_campaign, "drivers": drivers}
    return mutants, findings, time.perf_counter() - started, options


def main(arguments: list[str] | None = None) -> None:
    """The command, with every usage error on one line and exit status 2."""
    try:
        mutation.main(arguments, prog_name="gateproof-mutation", standalone_mode=False)
    except (click.UsageError, click.BadParameter) as error:
        click.echo(f"gateproof mutation: error: {error.format_message()}", err=True)
        sys.exit(USAGE_ERROR)
    except BadInput as error:
        click.echo(f"gateproof mutation: error: {error}", err=True)
        sys.exit(USAGE_ERROR)
    except click.exceptions.Abort:
        sys.exit(130)
