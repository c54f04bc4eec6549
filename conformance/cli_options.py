"""Options every command spells alike: ``--rules VERSION``, ``--out DIR``, ``--quiet`` and ``--verbose``.

``--rules`` takes one of some thirty names; neither the help nor an error
lists them all. The help names ``gateproof rules --versions``, which does;
an unknown name is refused with the few closest.
"""

from __future__ import annotations

import difflib
import re
from typing import Callable, Iterable

import click

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

    def __init__(self, names: Callable[[], Iterable[str]], what: str = "a rule version", listing: str = VERSIONS_COMMAND) -> None:
        self.names = names
        self.what = what
        self.listing = listing

    def get_metavar(self, param, ctx=None) -> str:
        return "VERSION"

    def convert(self, value, param, ctx):
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
    from .proofs.replay import decide_names  # the prover's variants load only when a value is given

    return decide_names()


def rules_option(names: Callable[[], Iterable[str]], help: str, what: str = "a rule version", **extra):
    """``--rules VERSION``, its help ending in where the names are listed."""
    return click.option("--rules", "rules", type=RuleName(names, what), help=f"{help} ({VERSIONS_COMMAND} lists them).", **extra)


def out_option(default: str | None, help: str):
    """``--out DIR``: a folder the command writes files into, checked (and created) before any work."""
    from .options import writable_folder

    return click.option("--out", "out", metavar="DIR", type=click.Path(file_okay=False), default=default,
                        show_default=default is not None, callback=writable_folder, help=help)


def verbosity_options(function):
    """``--quiet`` (no progress) and ``--verbose`` (a line for each thing done) for a command that shows progress on stderr."""
    function = click.option("--verbose", "-v", is_flag=True, help="Print progress on stderr as plain lines, one for each thing done, on a terminal too.")(function)
    return click.option("--quiet", "-q", is_flag=True, help="Print no progress on stderr; the results alone.")(function)
