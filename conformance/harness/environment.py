"""What an implementation's processes inherit from verify's environment, and which of them outlive it.

By default an implementation inherits verify's whole environment, tokens and
cloud keys included. ``verify --clean-env`` passes only :data:`KEPT` (what a
program needs to find its interpreter, its home, its language and a place
for temporary files), and ``--env NAME`` or ``--env NAME=VALUE`` adds one
variable more.

Every implementation process also carries :data:`MARKER` with a value of
its own campaign's, which is how a process that left the implementation's
process group (a daemon started with ``setsid``) is found once verify has
ended the group: it still carries the marker (:func:`survivors`).
"""

from __future__ import annotations

import os
import re
import secrets
import time
from pathlib import Path

#: The variables ``--clean-env`` keeps: a program's interpreter, home, user, language, time zone and temporary folder.
KEPT = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR")
#: The variable that marks every process of one implementation's campaign, its value a random token.
MARKER = "GATEPROOF_CAMPAIGN"
#: Seconds a marked process may take to die once its group is killed, before it counts as outliving verify.
DYING = 1.0

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


class VariableError(ValueError):
    """An ``--env`` value that names no variable."""


def passed_variable(given: str, source=os.environ) -> tuple[str, str | None]:
    """(name, value) of one ``--env``: ``NAME=VALUE`` as written, ``NAME`` with verify's own value (None when it has none)."""
    name, equals, value = given.partition("=")
    if not _NAME.match(name):
        raise VariableError(f"{given!r}: not NAME or NAME=VALUE (a name is letters, digits and _, not starting with a digit)")
    return name, value if equals else source.get(name)


def implementation_environment(clean: bool, passed: tuple[str, ...] = (), source=os.environ) -> dict[str, str] | None:
    """The environment an implementation starts with: None (verify's own, whole) unless ``clean`` or ``passed`` say otherwise."""
    if not clean and not passed:
        return None
    environment = {name: source[name] for name in KEPT if name in source} if clean else dict(source)
    for given in passed:
        name, value = passed_variable(given, source)
        if value is not None:
            environment[name] = value
    return environment


def marked(environment: dict[str, str] | None, token: str) -> dict[str, str]:
    """``environment`` (None: verify's own) with :data:`MARKER` set to ``token``."""
    return {**(os.environ if environment is None else environment), MARKER: token}


def new_token() -> str:
    return secrets.token_hex(8)


def _carrying(entry: Path, marker: bytes) -> bool:
    try:
        if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
            return False  # a zombie has died already
        return marker in (entry / "environ").read_bytes().split(b"\0")
    except (OSError, IndexError):
        return False  # ended while read, or not this user's to read


def _marked_processes(token: str) -> list[int]:
    marker = f"{MARKER}={token}".encode()
    return sorted(int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit() and _carrying(entry, marker))


def survivors(token: str) -> list[int]:
    """The processes still carrying the campaign's ``token`` once its groups are ended: those that left the group.

    A member of a killed group may take a moment to die, so the processes
    found are looked for again for up to :data:`DYING` seconds. Where there
    is no ``/proc`` none can be found.
    """
    found = _marked_processes(token)
    deadline = time.monotonic() + DYING
    while found and time.monotonic() < deadline:
        time.sleep(0.05)
        found = _marked_processes(token)
    return found


def survivors_note(pids: list[int]) -> str:
    listed = ", ".join(str(pid) for pid in pids)
    return (f"{len(pids)} process{'es' * (len(pids) != 1)} it started outlived verify (pid {listed}): they left its process group "
            f"(setsid, a daemon) and were not ended; end them yourself (PROTOCOL.md, Processes)")
