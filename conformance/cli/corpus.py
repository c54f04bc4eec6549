"""``gateproof corpus``: regenerate the shipped corpus from the model, or write it out for other languages."""

from __future__ import annotations

from pathlib import Path

import click

from ..corpus.build import rebuild
from ..corpus.load import export_corpus, export_scenarios
from .options import writable_folder


@click.group()
def corpus() -> None:
    """The conformance corpus: one file per rule family, cases with stable ids and expected outcomes."""


@corpus.command()
def build() -> None:
    """Recompute every expected outcome from the model and rewrite the shipped files (from a checkout only)."""
    for path in rebuild("gateproof corpus build"):
        click.echo(str(path))


@corpus.command()
@click.argument("directory", type=click.Path(file_okay=False), callback=writable_folder)
@click.option("--one-per-file", is_flag=True,
              help="Write each case's scenario alone, as DIRECTORY/FAMILY/ID.json: a file decide, explain and verify --replay take as it is.")
def export(directory: str, one_per_file: bool) -> None:
    """Write the corpus under DIRECTORY, one JSON file per family (cases with their expected outcomes), for runners in any language."""
    written = (export_scenarios if one_per_file else export_corpus)(Path(directory))
    click.echo(f"wrote {len(written)} files under {directory}")
