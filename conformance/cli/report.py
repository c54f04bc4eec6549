"""``gateproof report``: render any report of a campaign from its ``results.jsonl``, without running it again."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from ..harness.paths import WriteFailed, is_disk_full, write_whole
from ..reports.render import FORMATS, render_chunks
from ..reports.results_log import ResultsError
from .options import USAGE_ERROR, fail



def check_output(output: str) -> Path | None:
    """The file to write, checked before any work: its folder exists, and it is not a folder or a link itself."""
    if output == "-":
        return None
    path = Path(output)
    if path.is_symlink():
        fail(f"--output {output}: is a symbolic link; name the file itself")
    if path.is_dir():
        fail(f"--output {output}: is a directory; name a file")
    if not path.parent.is_dir():
        fail(f"--output {output}: the folder {path.parent} does not exist")
    return path


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("results", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--format", "report_format", type=click.Choice(FORMATS), required=True, help="The report to render.")
@click.option("--output", "output", default="-", show_default=True, metavar="FILE",
              help="The one file to write, or - for standard output.")
def report(results: tuple[str, ...], report_format: str, output: str) -> None:
    """Render a report of the campaign whose results.jsonl is RESULTS (written by gateproof verify, also while it runs).

    Several RESULTS are the results of one campaign's shards (verify --shard
    I/N), merged into one report of the whole. The report goes to standard
    output unless --output names a file. A campaign cut short, or a shard
    missing, is rendered with what was found, marked incomplete, and the exit
    status is then 2; a file that is not a campaign's results is refused with
    its line and field, exit status 2.
    """
    target = check_output(output)
    from ..reports.campaign import read_campaign

    try:
        campaign = read_campaign(*map(Path, results))
    except OSError as error:
        fail(f"{error.filename}: cannot read ({error.strerror})")
    except ResultsError as error:
        fail(str(error))
    chunks = render_chunks(campaign, report_format)  # a JSON report is written a verdict at a time
    try:
        if target is None:
            for chunk in chunks:
                sys.stdout.write(chunk)
            sys.stdout.flush()
        else:
            write_whole(target, (chunk.encode("utf-8") for chunk in chunks))  # whole or not at all: a full disk leaves no part of a report
    except OSError as error:
        fail(f"standard output: cannot write: {'the disk is full' if is_disk_full(error) else error.strerror}")
    except WriteFailed as error:
        fail(f"--output {error}")
    if not campaign.complete:
        said = "no end record: the campaign was cut short" if campaign.end is None else campaign.incomplete_text.split(";")[0]
        click.echo(f"gateproof: error: {', '.join(results)}: {said}; the report shows what was found, marked incomplete", err=True)
        sys.exit(USAGE_ERROR)
