"""``gateproof verify``: drive implementations through the protocol and report where they depart from the model."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

import click
from attrs import evolve
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.text import Text

from gateproof.model.scenario import ScenarioError, read_scenario

from ..harness.campaign import KINDS, RULES_OF_KIND, Campaign, CampaignSettings, is_selected
from ..harness.compare import LEVELS
from ..corpus.catalog_pairs import catalog_corpus
from ..corpus.load import load_corpus
from .catalog import read_catalog_file
from ..harness.environment import VariableError, implementation_environment, new_token, survivors, survivors_note
from ..harness.expectations import CAUGHT, CONFORMANT, is_met
from ..harness.inputs import InputError, read_json
from ..harness.known import read_known
from ..harness.paths import FolderHeld, WriteFailed, as_typed_here, hold_folder
from ..harness.channel import end_every_group, end_groups_on_signals
from ..harness.process import DEFAULT_START_TIMEOUT, StartFailed
from ..harness.protocol import ProtocolError
from ..harness.results import NOT_STARTED, Tally
from ..harness.shards import parse_shard
from ..implementations import BRIDGE_MODULE, BUILTINS, GROUPS, is_mutant, python_module, unavailable, with_bridge_timeouts
from ..mcp.refusals import MapError, read_refusal_map
from ..mcp.target import TargetError, read_target
from .options import USAGE_ERROR, VERSIONS_COMMAND, Seconds, fail, hypothesis_kept_out_of_working_directory, unknown_name_message, writable_folder
from ..reports import terminal
from ..reports.render import FORMATS, render_into
from ..reports.results_log import ResultLog

DISAGREEMENT = 1


def split_values(values: tuple[str, ...]) -> tuple[str, ...]:
    """Repeated options and comma-separated lists alike: ``--kinds a,b --kinds c``."""
    return tuple(v.strip() for value in values for v in value.split(",") if v.strip())


def list_builtins(ctx: click.Context) -> None:
    for name in BUILTINS:
        expected = CAUGHT if is_mutant(name) else CONFORMANT
        why = unavailable(name)
        click.echo(f"{name:<36} {expected:<15} {'unavailable: ' + why if why else 'available'}")
    ctx.exit(0)


def mcp_bridged(transport: str, map_path: str | None, command: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The argv that drives the MCP server ``command`` starts through the bridge, and how verify names it (conformance/MCP.md)."""
    try:
        read_target(transport, command)
        if map_path is not None:
            read_refusal_map(Path(map_path))
    except (TargetError, MapError) as error:
        fail(str(error))
    mapped = () if map_path is None else ("--map", str(Path(map_path).absolute()))
    argv = python_module(BRIDGE_MODULE, "--mcp", transport, *mapped, "--", *command)
    mapped_as_given = () if map_path is None else ("--mcp-map", as_typed_here(map_path))
    return argv, ("--mcp", transport, *mapped_as_given, "--", *map(as_typed_here, command))


def chosen_implementations(builtins: tuple[str, ...], command: tuple[str, ...], bridged: tuple | None = None) -> list[tuple[str | None, tuple[str, ...], tuple[str, ...]]]:
    """(name, argv, how verify names it) for each implementation to drive; a command is named by its answer to start.

    ``bridged`` is the argv and naming of an MCP server's command, when ``--mcp`` names its transport."""
    names = list(dict.fromkeys(name for given in builtins for name in GROUPS.get(given, (given,))))
    unknown = [n for n in names if n not in BUILTINS]
    if unknown:
        fail(f"--builtin {unknown_name_message('a built-in', unknown[0], [*GROUPS, *BUILTINS], 'gateproof verify --list-builtins')}")
    missing = [(n, unavailable(n)) for n in names if unavailable(n) and not set(GROUPS) & set(builtins)]
    if missing:
        fail(f"--builtin {missing[0][0]}: cannot be run here: {missing[0][1]}")
    chosen = [(name, BUILTINS[name], ("--builtin", name)) for name in names]
    if bridged is not None:
        chosen.append((None, *bridged))
    elif command:
        chosen.append((None, command, ("--", *map(as_typed_here, command))))
    if not chosen:
        fail("name an implementation: --builtin NAME, or its command after --")
    return chosen


def read_replays(paths: tuple[str, ...]) -> list[dict]:
    scenarios = []
    for path in paths:
        try:
            document = read_json(path)
            read_scenario(document)
        except InputError as error:
            fail(str(error))
        except ScenarioError as error:
            fail(f"{path}: {error}")
        scenarios.append(document)
    return scenarios


def drive(name, argv, naming, campaign: CampaignSettings, replays, corpus, log: ResultLog, progress: Progress, console: Console) -> tuple[Tally, bool]:
    """One implementation's campaign, held to what it is expected to do; whether it started, and restarted whenever it had to.

    Every process of the implementation carries a marker of this campaign; one
    still carrying it once the campaign has ended its process group left the
    group, and is named in the notes and below the summary.
    """
    expected = CAUGHT if name is not None and is_mutant(name) else CONFORMANT
    marker = new_token()
    tally, started = run_campaign(name, argv, naming, evolve(campaign, marker=marker), replays, corpus, log, progress, console)
    tally.expected = expected
    tally.outlived = survivors(marker)
    if tally.outlived:
        tally.notes.append(survivors_note(tally.outlived))
    log.implementation(tally)
    return tally, started


def run_campaign(name, argv, naming, campaign: CampaignSettings, replays, corpus, log: ResultLog, progress: Progress, console: Console):
    if name is not None and unavailable(name):
        reason = unavailable(name)
        console.print(Text(f"gateproof: {name} is unavailable: {reason}"))
        return Tally(name, lost=f"unavailable: {reason}", unavailable=reason), True
    label = name or Path(argv[-1]).name
    task = progress.add_task(label, total=len(replays) if replays else len(corpus) + campaign.examples)

    def describe(text: str) -> None:
        progress.update(task, description=f"{label}: {text}" if text else label)

    run = Campaign(name, argv, evolve(campaign, implementation_arguments=naming), observe=log.write,
                   advance=lambda: progress.advance(task), describe=describe)
    try:
        run.start()
    except StartFailed as error:  # said once, below the campaign's disagreements
        return Tally(name or shlex.join(map(as_typed_here, argv)), lost=f"{NOT_STARTED}: {error}"), False
    if not replays:
        progress.update(task, total=run.planned(corpus))
    try:
        if replays:
            run.run_replay(replays)
        else:
            run.run_corpus(corpus)
            run.run_generated()
    except StartFailed as error:
        console.print(Text(f"gateproof: error: {run.name}: {error}"))
        return run.lose(error), False
    return run.finish(), True


def drive_all(implementations, campaign: CampaignSettings, replays, corpus, log: ResultLog, console: Console) -> tuple[list[Tally], bool]:
    """Each implementation's campaign in turn, written to ``log``: the tallies, and whether every one started.

    A file the campaign cannot write (a full disk) ends it at once with exit
    status 2, every implementation's group ended: a fault of the machine is
    never reported as the implementation's.
    """
    tallies, all_started = [], True
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True) as progress:
            for name, argv, naming in implementations:
                tally, started = drive(name, argv, naming, campaign, replays, corpus, log, progress, console)
                tallies.append(tally)
                all_started &= started
        log.close()
    except WriteFailed as error:
        end_every_group()
        fail(f"{error}; the campaign stopped there")
    return tallies, all_started


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--builtin", "builtins", multiple=True, metavar="NAME",
              help="A built-in implementation, all (those of the protocol) or mcp-all (the MCP gateways); --list-builtins lists them.")
@click.option("--list-builtins", is_flag=True, is_eager=True, expose_value=False, callback=lambda ctx, _param, value: list_builtins(ctx) if value else None,
              help="List the built-in implementations, what each is expected to do, and whether it can run here; then exit.")
@click.option("--examples", type=click.IntRange(min=0), default=10_000, show_default=True, help="Generated scenarios for each implementation, shared among its rule versions.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of the generated scenarios.")
@click.option("--rules", "rules", multiple=True, metavar="VERSION", help=f"Only these rule versions (repeat, or separate by commas; {VERSIONS_COMMAND} lists them).")
@click.option("--kinds", "kinds", multiple=True, metavar="KIND", help=f"Only these scenario kinds: {', '.join(KINDS)}.")
@click.option("--compare", "level", type=click.Choice(LEVELS), default="full", show_default=True, help="How strictly outcomes are compared.")
@click.option("--timeout", type=Seconds(), default=10.0, show_default=True, help="Seconds allowed for each reply.")
@click.option("--start-timeout", "start_timeout", type=Seconds(), default=DEFAULT_START_TIMEOUT, show_default=True,
              help="Seconds allowed for an implementation to answer start, after a restart too (an MCP server: to serve and be connected to).")
@click.option("--window", type=click.IntRange(min=1), default=64, show_default=True, help="Runs in flight at once.")
@click.option("--disagreements", type=click.IntRange(min=1), default=3, show_default=True,
              help="Distinct shrunk disagreements to search for per rule version.")
@click.option("--exitfirst", "-x", is_flag=True, help="Stop each implementation's campaign at its first disagreement (after the corpus, or the batch it came in).")
@click.option("--catalog", "catalog_path", metavar="FILE", type=click.Path(dir_okay=False),
              help="Gateway scenarios under this tool catalog (docs/catalogs.md): its boundary pairs, then generated scenarios in its names.")
@click.option("--corpus/--no-corpus", "with_corpus", default=True, show_default=True,
              help="Run the corpus before the generated scenarios; --no-corpus: generated scenarios only.")
@click.option("--shard", "shard", default="1/1", metavar="I/N", show_default=True,
              help="Run only part I of N of the campaign (corpus and generated scenarios); the N parts together are the whole. Merge their results with gateproof report.")
@click.option("--known", "known_path", type=click.Path(dir_okay=False), help="A file of known divergences, each with its issue link.")
@click.option("--replay", "replays", multiple=True, type=click.Path(dir_okay=False), help="Run only these scenario files (a saved disagreement).")
@click.option("--out", "out", metavar="DIR", type=click.Path(file_okay=False), default="gateproof-verify", show_default=True, callback=writable_folder,
              help="Where results.jsonl is written as results come, and disagreements are saved as replayable files.")
@click.option("--report", "report_formats", multiple=True, type=click.Choice(FORMATS),
              help="Also render a report in this format into --out (repeat for more); gateproof report renders one later from results.jsonl.")
@click.option("--mcp", "mcp", metavar="stdio|URL", help="The command after -- starts an MCP server, spoken to over stdio or its streamable HTTP URL "
              "(a loopback address): conformance/MCP.md.")
@click.option("--mcp-map", "mcp_map", type=click.Path(dir_okay=False), help="How the MCP server's own refusals map onto reason codes (conformance/MCP.md).")
@click.option("--clean-env", is_flag=True, help="Start each implementation with only PATH, HOME, USER, LOGNAME, LANG, LANGUAGE, LC_ALL, LC_CTYPE, "
              "TZ and TMPDIR of verify's environment, not the whole of it (tokens, cloud keys).")
@click.option("--env", "passed_env", multiple=True, metavar="NAME[=VALUE]",
              help="Pass one more variable to each implementation: NAME with verify's value, or NAME=VALUE (repeat for more).")
@click.option("--quiet", "-q", is_flag=True, help="No progress, no details: the summary alone.")
@click.option("--verbose", "-v", is_flag=True, help="Every disagreement in full, and a row for every mutant.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
@hypothesis_kept_out_of_working_directory()
def verify(builtins, examples, seed, rules, kinds, level, timeout, start_timeout, window, disagreements, exitfirst, catalog_path, with_corpus, shard, known_path, replays,
           out, report_formats, mcp, mcp_map, clean_env, passed_env, quiet, verbose, command) -> None:
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
    rules, kinds = split_values(rules) or None, split_values(kinds) or KINDS
    every_version = {v for versions in RULES_OF_KIND.values() for v in versions}
    wrong = [v for v in rules or () if v not in every_version]
    if wrong:
        fail(f"--rules {unknown_name_message('a rule version', wrong[0], sorted(every_version), VERSIONS_COMMAND)}")
    wrong = [v for v in kinds if v not in KINDS]
    if wrong:
        fail(f"--kinds {wrong[0]}: choose from {', '.join(KINDS)}")
    catalog = None if catalog_path is None else read_catalog_file(catalog_path, "--catalog ")
    if catalog is not None:
        if "gateway" not in kinds:
            fail("--catalog declares a gateway: it needs --kinds gateway")
        kinds = ("gateway",)
    try:
        part = parse_shard(shard)
    except ValueError as error:
        fail(f"--shard {error}")
    known = ()
    if known_path:
        try:
            known = read_known(known_path)
        except InputError as error:
            fail(str(error))
        except ProtocolError as error:
            fail(f"{known_path}: {error}")
    if mcp_map is not None and mcp is None:
        fail("--mcp-map needs --mcp: it maps an MCP server's refusals")
    try:
        environment = implementation_environment(clean_env, passed_env)
    except VariableError as error:
        fail(f"--env {error}")
    implementations = [(name, with_bridge_timeouts(argv, timeout, start_timeout), naming)
                       for name, argv, naming in chosen_implementations(builtins, command, None if mcp is None else mcp_bridged(mcp, mcp_map, command))]
    campaign = CampaignSettings(level, examples, seed, rules, kinds, timeout, window, known, Path(out), disagreements=disagreements, exitfirst=exitfirst, shard=part,
                                start_timeout=start_timeout, catalog=catalog,
                                environment=None if environment is None else tuple(environment.items()))
    replayed = read_replays(replays)
    cases = load_corpus() if catalog is None else catalog_corpus(catalog)
    corpus = [c for c in cases if is_selected(c.scenario, campaign)] if with_corpus else []
    console = Console(stderr=True, highlight=False, quiet=quiet)
    settings = {"compare": level, "examples": examples, "seed": seed, "rules": list(rules) if rules else None, "kinds": list(kinds),
                "timeout": timeout, "shard": [part.index, part.count], "corpus": with_corpus, "catalog": None if catalog is None else catalog["id"], "implementations": [list(naming) for _, _, naming in implementations]}
    results = Path(out) / "results.jsonl"
    try:
        held = hold_folder(Path(out))  # until verify ends: a second campaign on this folder is refused before it writes
    except FolderHeld as error:
        fail(f"--out {error}")
    except OSError as error:
        fail(f"--out {out}: cannot hold the folder for this campaign ({error.strerror})")
    click.get_current_context().call_on_close(lambda: os.close(held))  # let go when run in a process that goes on (tests)
    try:
        log = ResultLog(results, settings)
    except OSError as error:
        fail(f"--out {out}: cannot write results.jsonl ({error.strerror})")
    except WriteFailed as error:
        fail(str(error))
    tallies, all_started = drive_all(implementations, campaign, replayed, corpus, log, console)
    out_console = terminal.console()
    if quiet:
        terminal.print_table(tallies, out_console)
    else:
        terminal.print_summary(tallies, out_console, everything=verbose)
    for report_format in report_formats:
        try:
            written = render_into(results, report_format)
        except WriteFailed as error:
            fail(str(error))
        if not quiet:
            out_console.print(Text(f"{report_format} report: {written}"))
    if not all_started:
        sys.exit(USAGE_ERROR)
    sys.exit(0 if all(is_met(t, t.expected) for t in tallies if not t.unavailable) else DISAGREEMENT)
