"""Progress on stderr: bars on a terminal (NO_COLOR honoured), plain lines elsewhere or with --verbose, nothing when quiet."""

from __future__ import annotations

import io
import re

import pytest

from gateproof.conformance.cli.progress import BARS, LINES, SILENT, Progress, progress_mode


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("quiet, verbose, terminal, mode", [
    (False, False, True, BARS), (False, False, False, LINES), (False, True, True, LINES),
    (True, False, True, SILENT), (True, True, False, SILENT),
])
def test_the_mode_follows_the_options_and_the_stream(quiet, verbose, terminal, mode):
    assert progress_mode(quiet, verbose, terminal) == mode


def work(stream, **options) -> str:
    with Progress("diff", stream=stream, **options) as progress:
        progress.stage("searching", total=3)
        for _ in range(3):
            progress.advance()
        progress.line("difference 1 found")
    return stream.getvalue()


def test_plain_lines_off_a_terminal():
    assert work(io.StringIO()) == "diff: searching ...\ndiff: difference 1 found\n"


def test_quiet_prints_nothing_even_on_a_terminal():
    assert work(Terminal(), quiet=True) == ""


COLOUR = re.compile(r"\x1b\[[0-9;]*(3[0-7]|9[0-7]|38;[0-9;]+)m")


@pytest.mark.parametrize("no_color", [False, True])
def test_bars_on_a_terminal_are_coloured_unless_no_color(monkeypatch, no_color):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    drawn = work(Terminal())
    assert "searching" in drawn and "3/3" in drawn and "difference 1 found" not in drawn  # a bar, not lines
    assert bool(COLOUR.search(drawn)) is not no_color, repr(drawn)
