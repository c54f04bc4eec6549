"""Options the commands share and spell alike, and the checks that run on their values before any work starts.

``--rules VERSION``, ``--out DIR``, ``--quiet`` and ``--verbose`` mean one
thing in every command. ``--rules`` takes one of some thirty names; neither
the help nor an error lists them all: the help names ``gateproof rules
--versions``, which does, and an unknown name is refused with the few closest.

A bad value is a usage error naming the option, with exit status 2, never a
traceback, and never found only after a campaign has run: a folder that
cannot be created or written, a file that cannot be written, a number of
seconds that is not a finite positive number.
"""

from __future__ import annotations

import difflib
import math
import os
import re
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable

import click

from ..harness.inputs import InputError, read_bytes
from ..harness.paths import again_while_removed

USAGE_ERROR = 2
#: The longest wait any option may ask for: a day. Longer is a mistake, and overflows the system's timers.
MOST_SECONDS = 86_400.0


def fail(message: str) -> None:
    click.echo(f"gateproof: error: {message}", err=True)
    sys.exit(USAGE_ERROR)


def read_input(path: str) -> bytes:
    """The document in ``path`` (``-``: standard input), read within S001.4's bound; a usage error when it cannot be read."""
    try:
        return read_bytes(path)
    except InputError as error:
        fail(str(error))


def open_or_fail(path: str):
    try:
        return open(path, "rb")
    except OSError as error:
        fail(f"{path}: cannot read ({error.strerror})")


class Seconds(click.ParamType):
    """A finite number of seconds above ``least`` and at most :data:`MOST_SECONDS` (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def __init__(self, least: float = 0.0) -> None:
        self.least = least

    def convert(self, value, param, ctx) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds):
            self.fail(f"{value!r} is not a finite number of seconds", param, ctx)
        if not self.least < seconds <= MOST_SECONDS:
            self.fail(f"{value!r} is not above {self.least:g} and at most {MOST_SECONDS:g} seconds", param, ctx)
        return seconds


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _make(folder: Path, made: list[Path]) -> None:
    """Create ``folder`` and whichever of its parents are missing, adding each one this process created to ``made``, innermost first.

    Shards started at once may probe sibling folders under one new parent:
    a parent another process creates meanwhile is theirs (and stays theirs
    to remove), and one another process's probe removes meanwhile is looked
    for again, so neither is read as a folder no file can be written in.
    """

    def make_missing() -> None:
        missing, found = [], folder
        while not found.exists() and not found.is_symlink() and found != found.parent:
            missing.append(found)
            found = found.parent
        for created in reversed(missing):
            try:
                created.mkdir()
            except FileExistsError:
                continue  # created meanwhile by another process: a file there fails the next step or the probe
            made.insert(0, created)

    again_while_removed(make_missing)


def _unmade(folders: list[Path]) -> None:
    for folder in folders:
        try:
            folder.rmdir()
        except OSError:
            return  # something was written there meanwhile: it stays


def folder_problem(path: str | os.PathLike) -> str | None:
    """Why no file can be written in the folder ``path``, or None when one can.

    Folders created to find out are removed again: the command creates them when it writes.
    """
    folder, made = Path(path), []
    try:
        _make(folder, made)
        handle, probe = tempfile.mkstemp(prefix=".gateproof-probe-", dir=folder)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        return f"cannot write files in this folder ({_reason(error)})"
    finally:
        _unmade(made)
    return None


def writable_folder(ctx: click.Context, param: click.Parameter, value):
    """An option's callback: the folder it names must take files, checked (and created) before any work."""
    problem = value is not None and folder_problem(value)
    if problem:
        raise click.BadParameter(f"{value}: {problem}", ctx, param)
    return value


def hypothesis_home() -> Path:
    """Where hypothesis keeps what it caches for the commands that draw from it: the user's cache, never the working directory."""
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "gateproof" / "hypothesis"


@contextmanager
def hypothesis_kept_out_of_working_directory():
    """Point hypothesis's storage at :func:`hypothesis_home` for the block (unless HYPOTHESIS_STORAGE_DIRECTORY chooses), then back."""
    from hypothesis import configuration

    previous = vars(configuration).get("__hypothesis_home_directory")
    if not os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        configuration.set_hypothesis_home_dir(hypothesis_home())
    try:
        yield
    finally:
        configuration.set_hypothesis_home_dir(previous)


VERSIONS_COMMAND = "gateproof rules --versions"


def close_matches(value: str, names: Iterable[str], count: int = 3) -> list[str]:
    """The names closest to ``value``, best first, among those of its kind (``adr-``, ``wrong:``, ``C``) when there are any."""
    names = list(names)
    kind = re.match(r"[^\d:]*:?", value)[0].lower()
    alike = [name for name in names if kind and name.lower().startswith(kind)] or names
    return difflib.get_close_matches(value, alike, n=count, cutoff=0.3)


def unknown_name_message(what: str, value: str, names: Iterable[str], listing: str) -> str:
    """``'adr-200' is not a rule version; closest: adr-166, adr-164; gateproof rules --versions lists them all``."""
    matches = close_matches(value, names)
    closest = f"; closest: {', '.join(matches)}" if matches else ""
    return f"{value!r} is not {what}{closest}; {listing} lists them all"


class RuleName(click.ParamType):
    """A rule version, and where a command takes them a ``wrong:`` variant, read from ``names`` only when a value is given."""

    name = "VERSION"

    def __init__(self, names: Callable[[], Iterable[str]], what: str = "a rule version", listing: str = VERSIONS_COMMAND,
                 cheap: Callable[[], Iterable[str]] | None = None) -> None:
        self.names = names
        self.what = what
        self.listing = listing
        self.cheap = cheap  # some of the names, known without loading what ``names`` loads

    def get_metavar(self, param, ctx=None) -> str:
        return "VERSION"

    def convert(self, value, param, ctx):
        if self.cheap is not None and value in self.cheap():
            return value
        names = list(self.names())
        if value in names:
            return value
        self.fail(unknown_name_message(self.what, value, names, self.listing), param, ctx)


def model_versions() -> list[str]:
    from gateproof.model.versions import VERSIONS

    return list(VERSIONS)


def every_version() -> list[str]:
    """The trust ceiling's versions and the gateway's."""
    from gateproof.model.gateway.gate import GATEWAY_VERSIONS

    return [*model_versions(), *GATEWAY_VERSIONS]


def decidable_names() -> list[str]:
    """Every version and every wrong variant a scenario can be decided or explained under."""
    from ..implementations.wrong.decide import decide_names  # the wrong variants load only when a value is given

    return decide_names()


def rules_option(names: Callable[[], Iterable[str]], help: str, what: str = "a rule version", cheap=None, **extra):
    """``--rules VERSION``, its help ending in where the names are listed; ``cheap`` names some of them at less cost."""
    return click.option("--rules", "rules", type=RuleName(names, what, cheap=cheap), help=f"{help} ({VERSIONS_COMMAND} lists them).", **extra)


def out_option(default: str | None, help: str):
    """``--out DIR``: a folder the command writes files into, checked (and created) before any work."""
    return click.option("--out", "out", metavar="DIR", type=click.Path(file_okay=False), default=default,
                        show_default=default is not None, callback=writable_folder, help=help)


def verbosity_options(function):
    """``--quiet`` (no progress) and ``--verbose`` (a line for each thing done) for a command that shows progress on stderr."""
    function = click.option("--verbose", "-v", is_flag=True, help="Print progress on stderr as plain lines, one for each thing done, on a terminal too.")(function)
    return click.option("--quiet", "-q", is_flag=True, help="Print no progress on stderr; the results alone.")(function)
