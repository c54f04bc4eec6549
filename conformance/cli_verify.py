"""``gateproof verify``: drive implementations through the protocol and report where they depart from the model."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click
from attrs import evolve
import orjson
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from gateproof.model.scenario import ScenarioError, read_scenario

from .documents import parse_json
from .harness.campaign import KINDS, RULES_OF_KIND, Campaign, CampaignSettings, is_selected
from .harness.compare import LEVELS
from .harness.corpus import load_corpus
from .harness.expectations import CAUGHT, CONFORMANT, is_met, smallest_counterexample
from .harness.known import read_known
from .harness.channel import end_groups_on_signals
from .harness.process import StartFailed
from .harness.protocol import ProtocolError
from .harness.reports import FORMATS, brief_text, render, summary_rows
from .harness.results import STATUSES, Tally
from .implementations import BUILTINS, is_mutant, unavailable

USAGE_ERROR, DISAGREEMENT = 2, 1
SHOWN = 10  # disagreements printed on the terminal; the report lists them all


def fail(message: str) -> None:
    click.echo(f"gateproof: error: {message}", err=True)
    sys.exit(USAGE_ERROR)


def split_values(values: tuple[str, ...]) -> tuple[str, ...]:
    """Repeated options and comma-separated lists alike: ``--kinds a,b --kinds c``."""
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


def chosen_implementations(builtins: tuple[str, ...], command: tuple[str, ...]) -> list[tuple[str | None, tuple[str, ...], str]]:
    """(name, argv, replay prefix) for each implementation to drive; a command is named by its answer to start."""
    names = list(BUILTINS) if "all" in builtins else list(dict.fromkeys(builtins))
    unknown = [n for n in names if n not in BUILTINS]
    if unknown:
        fail(f"--builtin {unknown[0]}: no such built-in; choose from all, {', '.join(BUILTINS)}")
    missing = [(n, unavailable(n)) for n in names if unavailable(n) and "all" not in builtins]
    if missing:
        fail(f"--builtin {missing[0][0]}: cannot be run here: {missing[0][1]}")
    chosen = [(name, BUILTINS[name], f"gateproof verify --builtin {name}") for name in names]
    if command:
        chosen.append((None, command, f"gateproof verify -- {shlex.join(command)}"))
    if not chosen:
        fail("name an implementation: --builtin NAME, or its command after --")
    return chosen


def read_replays(paths: tuple[str, ...]) -> list[dict]:
    scenarios = []
    for path in paths:
        try:
            document = parse_json(Path(path).read_bytes())
            read_scenario(document)
        except OSError as error:
            fail(f"{path}: cannot read ({error.strerror})")
        except ScenarioError as error:
            fail(f"{path}: {error}")
        scenarios.append(document)
    return scenarios


class ResultLog:
    """Every verdict appended to a JSON Lines file the moment it is reached."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.handle = path.open("wb")

    def write(self, verdict) -> None:
        self.handle.write(orjson.dumps(verdict.serializable()) + b"\n")
        self.handle.flush()


def summary_table(tallies: list[Tally]) -> Table:
    table = Table(title="gateproof verify")
    # The terminal keeps what decides the verdict; the reports carry every column.
    columns = ["implementation", "expected", "verdict", *STATUSES, "generated", "counterexample"]
    for column in columns:
        table.add_column(column, justify="left" if column in ("implementation", "expected", "verdict", "counterexample") else "right")
    for row in summary_rows(tallies):
        table.add_row(*(str(row[c]) for c in columns))
    return table


def drive(name, argv, prefix, campaign: CampaignSettings, replays, corpus, log: ResultLog, progress: Progress, console: Console) -> tuple[Tally, bool]:
    """One implementation's campaign, held to what it is expected to do; whether it started, and restarted whenever it had to."""
    expected = CAUGHT if name is not None and is_mutant(name) else CONFORMANT
    tally, started = run_campaign(name, argv, prefix, campaign, replays, corpus, log, progress, console)
    tally.expected = expected
    return tally, started


def run_campaign(name, argv, prefix, campaign: CampaignSettings, replays, corpus, log: ResultLog, progress: Progress, console: Console):
    if name is not None and unavailable(name):
        reason = unavailable(name)
        console.print(f"gateproof: {name} is unavailable: {reason}")
        return Tally(name, lost=f"unavailable: {reason}", unavailable=reason), True
    task = progress.add_task(name or Path(argv[-1]).name, total=len(replays) if replays else len(corpus) + campaign.examples)
    run = Campaign(name, argv, evolve(campaign, replay_prefix=prefix), observe=log.write, advance=lambda: progress.advance(task))
    try:
        run.start()
    except StartFailed as error:
        label = name or shlex.join(argv)
        console.print(f"gateproof: error: {label}: {error}")
        return Tally(label, lost=f"did not start: {error}"), False
    try:
        if replays:
            run.run_replay(replays)
        else:
            run.run_corpus(corpus)
            run.run_generated()
    except StartFailed as error:
        console.print(f"gateproof: error: {run.name}: {error}")
        return run.lose(error), False
    return run.finish(), True


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--builtin", "builtins", multiple=True, metavar="NAME", help=f"A built-in implementation ({', '.join(BUILTINS)}), or all.")
@click.option("--examples", type=click.IntRange(min=0), default=10_000, show_default=True, help="Generated scenarios for each implementation, shared among its rule versions.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the generated scenarios.")
@click.option("--rules", "rules", multiple=True, metavar="VERSION", help="Only these rule versions (repeat, or separate by commas).")
@click.option("--kinds", "kinds", multiple=True, metavar="KIND", help=f"Only these scenario kinds: {', '.join(KINDS)}.")
@click.option("--compare", "level", type=click.Choice(LEVELS), default="full", show_default=True, help="How strictly outcomes are compared.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True, help="Seconds allowed for each reply.")
@click.option("--window", type=click.IntRange(min=1), default=64, show_default=True, help="Runs in flight at once.")
@click.option("--disagreements", type=click.IntRange(min=1), default=3, show_default=True,
              help="Distinct shrunk disagreements to search for per rule version.")
@click.option("--exitfirst", "-x", is_flag=True, help="Stop each implementation's campaign at its first disagreement (after the corpus, or the batch it came in).")
@click.option("--known", "known_path", type=click.Path(dir_okay=False), help="A file of known divergences, each with its issue link.")
@click.option("--replay", "replays", multiple=True, type=click.Path(dir_okay=False), help="Run only these scenario files (a saved disagreement).")
@click.option("--out", "out", type=click.Path(file_okay=False), default="gateproof-verify", show_default=True,
              help="Where results.jsonl is written as results come, and disagreements are saved as replayable files.")
@click.option("--report", "report_format", type=click.Choice(FORMATS), help="Also write a report in this format ...")
@click.option("--output", "output", type=click.Path(dir_okay=False), help="... to this file.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def verify(builtins, examples, seed, rules, kinds, level, timeout, window, disagreements, exitfirst, known_path, replays, out, report_format, output, command) -> None:
    """Drive implementations through the protocol: the corpus, then generated scenarios, held to the model.

    Name each implementation with --builtin NAME or give its command after --
    (run without a shell). A built-in mutant (mutant:NAME) is expected to be
    caught, every other implementation to conform. Exit status: 0 when every
    implementation did what it is expected to, 1 otherwise (disagreements,
    nothing decided, or a mutant missed), 2 usage or protocol error. Under --builtin all a
    built-in that cannot run here (node not on PATH) is reported unavailable.
    """
    # SIGTERM, SIGINT or SIGHUP: every implementation's process group ends with verify.
    click.get_current_context().call_on_close(end_groups_on_signals())
    if bool(report_format) != bool(output):
        fail("--report and --output go together")
    rules, kinds = split_values(rules) or None, split_values(kinds) or KINDS
    every_version = {v for versions in RULES_OF_KIND.values() for v in versions}
    for name, given, allowed in (("--rules", rules or (), every_version), ("--kinds", kinds, set(KINDS))):
        wrong = [v for v in given if v not in allowed]
        if wrong:
            fail(f"{name} {wrong[0]}: choose from {', '.join(sorted(allowed))}")
    known = ()
    if known_path:
        try:
            known = read_known(Path(known_path))
        except (OSError, ValueError, ProtocolError) as error:
            fail(f"{known_path}: {error}")
    implementations = chosen_implementations(builtins, command)
    campaign = CampaignSettings(level, examples, seed, rules, kinds, timeout, window, known, Path(out), disagreements=disagreements, exitfirst=exitfirst)
    replayed, corpus = read_replays(replays), [c for c in load_corpus() if is_selected(c.scenario, campaign)]
    console = Console(stderr=True)
    log = ResultLog(Path(out) / "results.jsonl")
    tallies, all_started = [], True
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True) as progress:
        for name, argv, prefix in implementations:
            tally, started = drive(name, argv, prefix, campaign, replayed, corpus, log, progress, console)
            tallies.append(tally)
            all_started &= started
    # A mutant is shown by its smallest counterexample; an implementation expected to conform by every disagreement.
    mutants = [smallest_counterexample(t) for t in tallies if t.expected == CAUGHT]
    for verdict in filter(None, mutants):
        click.echo(brief_text(verdict))
    shown = [v for t in tallies if t.expected == CONFORMANT for v in t.verdicts if v.disagreement is not None and v.status != "known"]
    for verdict in shown[:SHOWN]:
        click.echo(brief_text(verdict))
    if len(shown) > SHOWN:
        click.echo(f"... and {len(shown) - SHOWN} more disagreements: see {Path(out) / 'results.jsonl'} or --report")
    # The matrix comes last, so it is what a reader of a long run sees first.
    Console(width=None if sys.stdout.isatty() else 180).print(summary_table(tallies))
    if report_format:
        settings = {"compare": level, "examples": examples, "seed": seed, "rules": rules, "kinds": list(kinds), "timeout": timeout}
        Path(output).write_text(render(report_format, tallies, settings), encoding="utf-8")
    if not all_started:
        sys.exit(USAGE_ERROR)
    sys.exit(0 if all(is_met(t, t.expected) for t in tallies if not t.unavailable) else DISAGREEMENT)
