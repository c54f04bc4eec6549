"""How a command line printed for a person names gateproof, so that it runs as printed.

A person who ran ``gateproof`` from ``PATH`` reads ``gateproof explain …``.
One who ran it by its path (``.venv/bin/gateproof verify …``, the virtual
environment not activated) would find no ``gateproof`` on ``PATH``, so the
command names the script by its path, relative to the working folder when
it lies inside it (``paths.as_typed_here``); and where gateproof runs
without its script (as ``python -m``, or inside pytest without the
environment's ``bin`` on ``PATH``), by the same script or, without one, by
the interpreter running it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from functools import cache
from pathlib import Path

from .harness.paths import as_typed_here


def program() -> str:
    """``gateproof``, or whatever runs this installation's gateproof from the working folder, quoted for a shell."""
    return shlex.join(map(as_typed_here, program_words()))


@cache
def program_words() -> tuple[str, ...]:
    """``gateproof``, or the absolute path of this installation's script, or its interpreter and module."""
    invoked = Path(sys.argv[0]) if sys.argv and Path(sys.argv[0]).name == "gateproof" else None
    script = invoked if invoked is not None and invoked.is_file() else Path(sys.executable).with_name("gateproof")
    on_path = shutil.which("gateproof")
    if not script.is_file():
        return sys.executable, "-m", "gateproof.conformance.cli"
    if on_path is not None and os.path.samefile(on_path, script):
        return ("gateproof",)
    return (str(script.absolute()),)


def command(*arguments: str) -> str:
    """A gateproof command line, its arguments quoted for a shell."""
    return " ".join([program(), *map(shlex.quote, arguments)])
