"""Files a campaign writes, kept under the folder the user chose whatever an implementation calls itself.

An implementation's name and a scenario's id are data: each becomes one
bounded path component by :func:`path_component`, and no file or folder is
written through a symbolic link that stands where it would go.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import os
import re
import secrets
from pathlib import Path
from typing import Callable, Iterable, TypeVar

#: The longest component written: far below the 255 bytes file systems allow, with room for a suffix.
MOST_CHARACTERS = 64
#: A name kept as it is: it starts with a letter or digit, and holds nothing but letters, digits, ``.``, ``_`` and ``-``.
_KEPT = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def path_component(name: str) -> str:
    """``name`` as one path component: the same name always gives the same component, two names never the same one.

    A short name of safe characters is kept as it is. Any other name has its
    unsafe runs replaced by ``_``, is cut to length, and ends in ``~`` and a
    digest of the whole name: a kept name never holds ``~``, so it cannot
    meet a changed one, and two changed names meet only if their digests do.
    """
    if len(name) <= MOST_CHARACTERS and _KEPT.fullmatch(name):
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    readable = _UNSAFE.sub("_", name).lstrip("._-")[: MOST_CHARACTERS - len(digest) - 1]
    return f"{readable}~{digest}"


def create_no_follow(path: str | os.PathLike):
    """Open ``path`` for writing from empty, never through a symbolic link standing there (OSError when one does)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        return os.fdopen(os.open(path, flags, 0o644), "wb")
    except OSError as error:
        if Path(path).is_symlink():
            raise OSError(error.errno, "is a symbolic link, which is never followed", str(path)) from None
        raise


def write_no_follow(path: Path, data: bytes) -> None:
    with create_no_follow(path) as handle:
        handle.write(data)


def is_disk_full(error: OSError) -> bool:
    """Whether a write failed for want of room: the disk is full, or the user's quota on it."""
    return error.errno in (errno.ENOSPC, errno.EDQUOT)


class WriteFailed(Exception):
    """A file a command writes could not be written: which file, and why, a full disk said as such."""

    def __init__(self, path: str | os.PathLike, error: OSError):
        self.path = path
        why = "the disk is full" if is_disk_full(error) else error.strerror or str(error)
        super().__init__(f"{path}: cannot write: {why}")


def write_whole(path: Path, chunks: Iterable[bytes]) -> None:
    """Write ``chunks`` to ``path`` whole or not at all: into a temporary name in its folder, renamed into place once written.

    A full disk, or anything else that stops the write, leaves no part of
    the file behind (the file there before, if any, stays as it was):
    :class:`WriteFailed` names ``path``.
    """
    if path.exists() and not path.is_file():  # a device or a pipe (/dev/null, /dev/stdout) is written to, never replaced
        temporary = path
    else:
        temporary = path.parent / f".{path.name[:64]}.{secrets.token_hex(6)}.partial"
    try:
        with create_no_follow(temporary) as handle:
            for chunk in chunks:
                handle.write(chunk)
        if temporary != path:
            os.replace(temporary, path)
    except OSError as error:
        if temporary != path:
            try:
                os.unlink(temporary)
            except OSError:
                pass  # never created
        raise WriteFailed(path, error) from None


#: Times a folder is created before a parent that keeps being removed under it fails the write.
FOLDER_ATTEMPTS = 5

T = TypeVar("T")


def again_while_removed(make: Callable[[], T]) -> T:
    """``make()``, run again while a parent it needs is removed under it, as another verify's probe of a sibling folder does."""
    for _ in range(FOLDER_ATTEMPTS - 1):
        try:
            return make()
        except FileNotFoundError:
            continue
    return make()  # the last attempt's FileNotFoundError is the caller's


def make_folder(folder: Path) -> None:
    """Create ``folder`` and its missing parents, made again should one be removed meanwhile."""
    again_while_removed(lambda: folder.mkdir(parents=True, exist_ok=True))


def folder_within(parent: Path, name: str) -> Path:
    """The folder ``parent/name``, created if missing; OSError when a symbolic link or a file stands there."""
    folder = parent / name
    make_folder(folder)
    if folder.is_symlink() or not folder.is_dir():
        raise OSError(f"{folder}: is a symbolic link or not a folder, and is never written through")
    return folder


#: The file in a campaign's folder its campaign holds locked while it writes there; the system lets go of it when the process ends.
LOCK_NAME = ".gateproof-verify.lock"


class FolderHeld(Exception):
    """The folder is held by another campaign that is still running: the folder, and that campaign's pid when it wrote one."""


def hold_folder(folder: Path) -> int:
    """Hold ``folder`` for this process's campaign until it exits: the lock file's descriptor, kept open.

    Two campaigns writing one ``results.jsonl`` would interleave their lines:
    the second is refused at once (:class:`FolderHeld`) before it writes
    anything. The lock is the system's (``flock``), tied to the open file, so
    a campaign killed by any signal leaves no lock behind, and the descriptor
    is not inherited by the implementations verify starts.
    """
    make_folder(folder)
    descriptor = os.open(folder / LOCK_NAME, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(descriptor, 32).decode("ascii", "replace").strip()
        os.close(descriptor)
        by = f" (pid {holder})" if holder.isdigit() else ""
        raise FolderHeld(f"{folder}: another verify campaign{by} is writing in this folder; wait for it to end, or choose another --out") from None
    os.ftruncate(descriptor, 0)
    os.write(descriptor, f"{os.getpid()}\n".encode())
    return descriptor


def as_typed_here(path: str | os.PathLike) -> str:
    """``path`` as a person types it in the working folder: an absolute path inside that folder made relative to it (``./``
    in front when it has no folder, so a shell does not look it up on ``PATH``), any other path as given.

    Reports and printed command lines name files so, and hold no folder of the machine that wrote them: run from the folder
    verify ran in (a CI runner's checkout), they run as printed.
    """
    text = os.fspath(path)
    if not os.path.isabs(text):
        return text
    here = os.path.abspath(os.getcwd())
    absolute = os.path.abspath(text)
    if os.path.commonpath([here, absolute]) != here or absolute == here:
        return text
    relative = os.path.relpath(absolute, here)
    return relative if os.sep in relative else f".{os.sep}{relative}"
