"""A value or a text as a person is shown it in a line: whole when short, otherwise its start and what was left out.

What is shown is cut before anything reads it character by character
(writing it as JSON, wrapping, escaping, the terminal): a value is written
piece by piece and the writing stops once :data:`MOST_SHOWN` characters are
out, a string or an integer too long for that is cut (or counted) before it
is written, and a text is sliced. So showing a value costs the same for a
16 MiB string, an array of a million items or an integer of a million
digits as for a short one, and printing a campaign or an explanation is
linear in what it holds. The value stays whole where the line says (``explain
--json``, ``results.jsonl``, the saved replay file).
"""

from __future__ import annotations

import math
from typing import Iterator

from .documents import json_text

#: The most characters of one value, or one text, a line shows.
MOST_SHOWN = 2_000
#: An integer of more bits than this has more digits than a line shows: it is counted, not written (writing it is quadratic).
_MOST_BITS = int(MOST_SHOWN / math.log10(2))


def _pieces(value: object, whole: str) -> Iterator[str]:
    """The JSON text of ``value`` in pieces, as ``json_text`` writes it, each piece at most a little over :data:`MOST_SHOWN` long."""
    if isinstance(value, str):
        yield json_text(value[:MOST_SHOWN + 1])  # one character past the most shown: enough to know it is cut
    elif isinstance(value, bool) or value is None or isinstance(value, float):
        yield json_text(value)
    elif isinstance(value, int):
        bits = abs(value).bit_length()
        yield json_text(value) if bits <= _MOST_BITS else f"(an integer of about {round(bits * math.log10(2)):,} digits: {whole})"
    elif isinstance(value, dict):
        yield "{"
        for number, (key, item) in enumerate(value.items()):
            yield (", " if number else "") + json_text(key[:MOST_SHOWN + 1]) + ": "
            yield from _pieces(item, whole)
        yield "}"
    elif isinstance(value, (list, tuple)):
        yield "["
        for number, item in enumerate(value):
            if number:
                yield ", "
            yield from _pieces(item, whole)
        yield "]"
    else:
        yield json_text(value)


def preview(value: object, whole: str) -> str:
    """``value`` as JSON text, whole when it is at most :data:`MOST_SHOWN` characters; otherwise its first ones, then
    ``…`` and ``whole``, which says where the value is kept whole. An integer too long to write is counted instead."""
    written, length = [], 0
    for piece in _pieces(value, whole):
        written.append(piece)
        length += len(piece)
        if length > MOST_SHOWN:
            return "".join(written)[:MOST_SHOWN] + f"… (cut at {MOST_SHOWN:,} characters: {whole})"
    return "".join(written)


def shortened(text: str, whole: str) -> str:
    """``text`` whole when it is at most :data:`MOST_SHOWN` characters; otherwise its first ones and how long it is, ``whole`` saying where it is kept."""
    if len(text) <= MOST_SHOWN:
        return text
    return f"{text[:MOST_SHOWN]}… ({len(text):,} characters in all: {whole})"
