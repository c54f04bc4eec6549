"""How a command line printed for a person names gateproof, so that it runs as printed.

A person who ran ``gateproof`` from ``PATH`` reads ``gateproof explain …``.
One who ran it by its path (``.venv/bin/gateproof verify …``, the virtual
environment not activated) would find no ``gateproof`` on ``PATH``, so the
command names the script by its absolute path; and where gateproof runs
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


@cache
def program() -> str:
    """``gateproof``, or whatever runs this installation's gateproof from any shell and folder, quoted for a shell."""
    invoked = Path(sys.argv[0]) if sys.argv and Path(sys.argv[0]).name == "gateproof" else None
    script = invoked if invoked is not None and invoked.is_file() else Path(sys.executable).with_name("gateproof")
    on_path = shutil.which("gateproof")
    if not script.is_file():
        return shlex.join([sys.executable, "-m", "gateproof.conformance.cli"])
    if on_path is not None and os.path.samefile(on_path, script):
        return "gateproof"
    return shlex.quote(str(script.absolute()))


def command(*arguments: str) -> str:
    """A gateproof command line, its arguments quoted for a shell."""
    return " ".join([program(), *map(shlex.quote, arguments)])
