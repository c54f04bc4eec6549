"""Progress on stderr for a command that works for a while: bars on a terminal, plain lines elsewhere, nothing when quiet.

On a terminal (stderr a tty) progress is drawn by rich, which honours
NO_COLOR; piped or redirected, or with ``--verbose``, each thing done is
one plain line; with ``--quiet`` nothing is printed. Standard output is left
to the command's results.
"""

from __future__ import annotations

import sys

BARS, LINES, SILENT = "bars", "lines", "silent"


def progress_mode(quiet: bool, verbose: bool, terminal: bool) -> str:
    """How progress is shown: nothing when quiet, plain lines when asked for or off a terminal, else bars."""
    if quiet:
        return SILENT
    return BARS if terminal and not verbose else LINES


class Progress:
    """Stages of work, each with an optional total, shown as :func:`progress_mode` says."""

    def __init__(self, command: str, quiet: bool = False, verbose: bool = False, stream=None) -> None:
        self.command = command
        self.stream = stream or sys.stderr
        self.mode = progress_mode(quiet, verbose, self.stream.isatty())
        self._bars = None
        self._task = None

    def __enter__(self) -> "Progress":
        if self.mode == BARS:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bars, SpinnerColumn, TextColumn, TimeElapsedColumn

            console = Console(file=self.stream)
            self._bars = Bars(SpinnerColumn(), TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                              console=console, transient=True, redirect_stdout=sys.stdout.isatty(), redirect_stderr=False)
            self._bars.start()
        return self

    def __exit__(self, *_) -> None:
        if self._bars is not None:
            self._bars.stop()

    def stage(self, description: str, total: int | None = None) -> None:
        """Start a stage of work; the stage before it ends."""
        if self._bars is not None:
            if self._task is not None:
                self._bars.remove_task(self._task)
            self._task = self._bars.add_task(description, total=total)
        else:
            self.line(description + " ...")

    def advance(self, count: int = 1) -> None:
        if self._bars is not None and self._task is not None:
            self._bars.advance(self._task, count)

    def line(self, text: str) -> None:
        """One thing done, as a plain line (never drawn as a bar)."""
        if self.mode == LINES:
            print(f"{self.command}: {text}", file=self.stream, flush=True)
