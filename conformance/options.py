"""Option values the commands share, and the checks that run on them before any work starts.

A bad value is a usage error naming the option, with exit status 2, never a
traceback, and never found only after a campaign has run: a folder that
cannot be created or written, a file that cannot be written, a number of
seconds that is not a finite positive number.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path

import click

USAGE_ERROR = 2
#: The longest wait any option may ask for: a day. Longer is a mistake, and overflows the system's timers.
MOST_SECONDS = 86_400.0


def fail(message: str) -> None:
    click.echo(f"gateproof: error: {message}", err=True)
    sys.exit(USAGE_ERROR)


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
    """Create ``folder`` and whichever of its parents are missing, adding each one created to ``made``, innermost first."""
    missing = []
    while not folder.exists() and not folder.is_symlink() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    for created in reversed(missing):
        created.mkdir()
        made.insert(0, created)


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


def file_problem(path: str | os.PathLike) -> str | None:
    """Why the file ``path`` cannot be written at the end of the work, or None when it can.

    A file, or folders, created to find out are removed again.
    """
    target, made = Path(path), []
    if target.is_dir():
        return "is a folder, not a file"
    try:
        _make(target.parent, made)
        existed = target.exists()
        os.close(os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT))
        if not existed:
            os.unlink(target)
    except OSError as error:
        return f"cannot be written ({_reason(error)})"
    finally:
        _unmade(made)
    return None


def writable_folder(ctx: click.Context, param: click.Parameter, value):
    """An option's callback: the folder it names must take files, checked (and created) before any work."""
    problem = value is not None and folder_problem(value)
    if problem:
        raise click.BadParameter(f"{value}: {problem}", ctx, param)
    return value


def writable_file(ctx: click.Context, param: click.Parameter, value):
    """An option's callback: the file it names must be writable, checked before any work."""
    problem = value is not None and file_problem(value)
    if problem:
        raise click.BadParameter(f"{value}: {problem}", ctx, param)
    return value


def write_output(option: str, path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to the file an option names, its folder created; a failure (a full device, say) is a usage error naming the option."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    except OSError as error:
        fail(f"{option} {path}: cannot be written ({_reason(error)})")


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
