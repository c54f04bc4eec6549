"""Files a campaign writes, kept under the folder the user chose whatever an implementation calls itself.

An implementation's name and a scenario's id are data: each becomes one
bounded path component by :func:`path_component`, and no file or folder is
written through a symbolic link that stands where it would go.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Callable, TypeVar

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
