"""The pages of ``docs/figures/``: each measuring command writes its own at the end of a whole default run.

A figure typed into a guide by hand goes stale the day the code it measures
changes; a page the command writes says what it printed, when and on what
machine, and is written again by the next run. A partial run (one module,
one variant, a sample, a smaller count) prints its figures and leaves the
page alone, since the page is read as the whole run's. Only a checkout
holds ``docs/``: an installed copy prints and writes nothing.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
from pathlib import Path

from .corpus.checkout import REPOSITORY, is_checkout

FIGURES = REPOSITORY / "docs" / "figures"


def interpreter() -> str:
    """The interpreter the figures are measured on, with its build: a CPython compiled without optimisation runs the same code about a fifth slower."""
    branch, date = platform.python_build()
    return (f"{platform.python_implementation()} {platform.python_version()} at {os.path.realpath(sys.executable)}, "
            f"{platform.python_compiler()}, build {branch} of {date}")


def machine() -> str:
    """The machine as a run starts: its interpreter, its cores and how busy they already are (a shared machine's figures fall with its load)."""
    one, five, fifteen = os.getloadavg()
    return f"{interpreter()}; {os.cpu_count()} cores, load average {one:.2f} {five:.2f} {fifteen:.2f} (1, 5, 15 minutes) at the start"


class Printed:
    """A ``print`` that prints each line as it comes and keeps it for the page."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, *values: object, sep: str = " ") -> None:
        line = sep.join(map(str, values))
        print(line, flush=True)
        self.lines.append(line)


def write_page(name: str, title: str, command: str, started_on: str, printed: list[str]) -> Path | None:
    """``docs/figures/<name>``: the title, which command wrote it, when (UTC) and on what machine, then what it printed, verbatim.

    ``command`` is the command a person runs (``make bench (python -m …)``);
    ``started_on`` is :func:`machine` taken when the run began. Nothing is
    written outside a checkout; the page's path otherwise.
    """
    if not is_checkout():
        return None
    FIGURES.mkdir(parents=True, exist_ok=True)
    page = FIGURES / name
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    page.write_text(f"# {title}\n\nWritten by `{command}` on {today} (UTC), on {started_on}. Only a whole default run writes "
                    "this page; do not edit it by hand, run the command again.\n\n```\n" + "\n".join(printed) + "\n```\n", encoding="utf-8")
    return page
