"""``gateproof report``: render any report of a campaign from its ``results.jsonl``, without running it again."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .reports.render import FORMATS, render
from .reports.results_log import ResultsError

USAGE_ERROR = 2


def fail(message: str) -> None:
    click.echo(f"gateproof: error: {message}", err=True)
    sys.exit(USAGE_ERROR)


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
@click.argument("results", type=click.Path(dir_okay=False))
@click.option("--format", "report_format", type=click.Choice(FORMATS), required=True, help="The report to render.")
@click.option("--output", "output", default="-", show_default=True, metavar="FILE",
              help="The file to write, or - for standard output.")
def report(results: str, report_format: str, output: str) -> None:
    """Render a report of the campaign whose results.jsonl is RESULTS (written by gateproof verify, also while it runs).

    The report goes to standard output unless --output names a file. A
    campaign cut short is rendered with what it found, marked incomplete,
    and the exit status is then 2; a file that is not a campaign's results
    is refused with its line and field, exit status 2.
    """
    target = check_output(output)
    path = Path(results)
    from .reports.campaign import read_campaign

    try:
        campaign = read_campaign(path)
    except OSError as error:
        fail(f"{results}: cannot read ({error.strerror})")
    except ResultsError as error:
        fail(f"{results}: {error}")
    text = render(campaign, report_format)
    try:
        if target is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            target.write_text(text, encoding="utf-8")
    except OSError as error:
        fail(f"--output {output}: cannot write ({error.strerror})")
    if not campaign.complete:
        click.echo(f"gateproof: error: {results}: no end record: the campaign was cut short; the report shows what it found, marked incomplete",
                   err=True)
        sys.exit(USAGE_ERROR)
