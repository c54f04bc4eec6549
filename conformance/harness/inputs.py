"""Every file a person names, read within a documented bound: a document at most 16 MiB, a results line at most 128 MiB.

A scenario, a known-divergences file, a saved disagreement to replay: each is
one JSON document, read as S001.4–S001.6 read a scenario (16 MiB, 64 levels,
a key written twice refused with its object and key). A ``results.jsonl`` is
read a line at a time, each line at most :data:`MOST_RECORD_BYTES`. Nothing
reads more than one byte past its bound, so ``/dev/zero``, ``/dev/urandom``
or a pipe that never ends is refused at once with the file (and line) named.
"""

from __future__ import annotations

import sys
from typing import Iterator

from gateproof.model.scenario import ScenarioError
from gateproof.model.scenario.document import MAX_DOCUMENT_BYTES, check_repeated_keys

from .channel import MAX_REPLY_BYTES
from .documents import parse_json, read_document

#: The longest line of a results file: a disagreement holds its scenario (16 MiB), the model's outcome and the reply line (64 MiB).
MOST_RECORD_BYTES = 128 * 1024 * 1024
assert MOST_RECORD_BYTES > 2 * MAX_DOCUMENT_BYTES + MAX_REPLY_BYTES


class InputError(Exception):
    """A file that cannot be read as what it should hold: the file, the line when it has lines, and what is wrong."""


def _cannot_read(path: str, error: OSError) -> InputError:
    return InputError(f"{path}: cannot read ({error.strerror or error})")


def read_bytes(path: str) -> bytes:
    """The bytes of the file ``path`` (``-``: standard input), never more than one byte past :data:`MAX_DOCUMENT_BYTES`."""
    try:
        if path == "-":
            return read_document(sys.stdin.buffer)
        with open(path, "rb") as handle:
            return read_document(handle)
    except OSError as error:
        raise _cannot_read(path, error) from None


def read_json(path: str, repeats=check_repeated_keys) -> object:
    """The one JSON document in ``path``, read as a scenario is (S001.4–S001.6); :class:`InputError` naming the file and field."""
    raw = read_bytes(path)
    try:
        return parse_json(raw, repeats=repeats)
    except ScenarioError as error:
        raise InputError(f"{path}: {error}") from None


def numbered_lines(path: str, limit: int = MOST_RECORD_BYTES) -> Iterator[tuple[int, bytes, bool]]:
    """Each line of ``path`` with its number and whether it ended (a last line a write was cut off in does not), read as it comes.

    A line longer than ``limit`` bytes is refused with its number, after
    reading one byte more than the limit; nothing after it is read.
    """
    try:
        with open(path, "rb") as handle:
            number = 0
            while line := handle.readline(limit + 1):
                number += 1
                ended = line.endswith(b"\n")
                if len(line) - ended > limit:
                    raise InputError(f"{path}: line {number}: longer than {limit} bytes, the most a line may hold")
                yield number, line[:-1] if ended else line, ended
    except OSError as error:
        raise _cannot_read(path, error) from None
