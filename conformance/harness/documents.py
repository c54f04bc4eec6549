"""Reading JSON documents from files and streams, with errors a person can act on, and writing them back.

A document is read by orjson when orjson reads it exactly, and otherwise by
the standard parser with hooks: an integer beyond 64 bits (orjson reads it as
a float, or refuses it), or a key written twice in one object (orjson keeps
the last). Both are found by a few passes over the bytes at C speed, so a
document that has neither pays for them alone.
"""

from __future__ import annotations

import json
import sys
import threading
from contextlib import contextmanager

import orjson

from gateproof.model.scenario import ScenarioError
from gateproof.model.scenario.document import MAX_DEPTH, MAX_DOCUMENT_BYTES, check_depth, check_repeated_keys, check_size, read_object
from gateproof.model.scenario.errors import join_path

# orjson reads an integer below -2**63 or above 2**64 - 1 as a float; a run of
# 19 digits marks a document that the exact (and slower) standard parser must
# read instead. The run is found by turning every digit into "0" and every
# other byte into "x", then searching for nineteen zeros: ten times cheaper
# than a regular expression, which tries a match at every position. A text
# that is the document as orjson writes it needs no search (see
# ``written_as_orjson_writes``).
_SHAPE = bytes(0x30 if 0x30 <= byte <= 0x39 else 0x78 for byte in range(256))
_LONG_RUN = b"0" * 19

#: The most levels a protocol command may nest: a ``run`` holds its scenario, which S001.5 allows 64, one level down.
COMMAND_DEPTH = MAX_DEPTH + 1


def has_long_number(raw: bytes) -> bool:
    """Whether the text holds a run of at least 19 ASCII digits (an integer orjson may not keep exact)."""
    return _LONG_RUN in raw.translate(_SHAPE)


def written_as_orjson_writes(raw: bytes, again: bytes) -> bool:
    """Whether the text is ``again``, the document it holds as orjson writes it, but for white space after it.

    Such a text writes no key twice (the parsed object keeps each key once)
    and no integer beyond 64 bits (orjson would have read it as a float, and
    writes that otherwise): it needs neither check. A bulk line is, as a rule.
    """
    return raw.startswith(again) and len(raw) - len(again) <= 2


def may_repeat_a_key(raw: bytes, document: object, again: bytes | None = None) -> bool:
    """Whether the text may write a key twice in one object; False only when it certainly does not.

    The parsed document written again is the text itself when the text is
    written as orjson writes (a bulk line, as a rule): that text writes no key
    twice. Otherwise colons are counted: every key is followed by one, and a
    colon elsewhere is inside a string, written as itself or as ``\\u003a``.
    orjson writes each string's colons as themselves, so the document written
    again holds exactly the text's colons less one per key its objects lost:
    the counts are equal only when no key was written twice.
    """
    again = orjson.dumps(document) if again is None else again
    if written_as_orjson_writes(raw, again):
        return False
    written = raw.count(b":")
    if b"\\u" in raw:
        written += raw.count(b"\\u003a") + raw.count(b"\\u003A")
    return written != again.count(b":")


def _at(where: str, error: ScenarioError) -> ScenarioError:
    return error if where == "$" else ScenarioError(where + error.path[1:], error.problem)


def _refuse_constant(name: str):
    raise ScenarioError("$", f"not valid JSON ({name} is not a JSON number)")


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ScenarioError("$", f"not valid JSON (the number {text[:40]} is beyond the range of a double)")
    return number


#: The most digits Python turns into an int, or back, by default (``sys.get_int_max_str_digits``): about 4,300.
_PLAIN_DIGITS = 4000
_lifted = threading.Lock()
_lifts = [0, 0]  # how many writes run with the limit lifted, and the limit to put back when the last ends


def _powers_of_five(cache: dict, count: int) -> int:
    if count not in cache:
        half = count >> 1
        cache[count] = 5 ** count if count <= _PLAIN_DIGITS else _powers_of_five(cache, half) * _powers_of_five(cache, count - half)
    return cache[count]


def exact_integer(text: str) -> int:
    """S001.4: the integer ``text`` writes, whatever its size, without Python's limit on digits.

    Past a few thousand digits the text is cut in halves, each read alone and
    joined by one multiplication by a power of ten (five to the power, then a
    shift): far less than quadratic, where ``int(text)`` is quadratic (and
    refused past the limit).
    """
    digits = text.lstrip("-")
    if len(digits) <= _PLAIN_DIGITS:
        return int(text)
    powers: dict = {}

    def read(start: int, end: int) -> int:
        if end - start <= _PLAIN_DIGITS:
            return int(digits[start:end])
        middle = (start + end + 1) >> 1
        return read(middle, end) + ((read(start, middle) * _powers_of_five(powers, end - middle)) << (end - middle))

    value = read(0, len(digits))
    return -value if text.startswith("-") else value


@contextmanager
def long_integers_written():
    """Python's limit on the digits of an int written as text lifted for the block: S001.4 writes every integer back whole.

    The limit is one for the process; the lock and count keep it lifted until
    the last block that lifted it ends, whatever thread it runs on.
    """
    with _lifted:
        if _lifts[0] == 0:
            _lifts[1] = sys.get_int_max_str_digits()
            sys.set_int_max_str_digits(0)
        _lifts[0] += 1
    try:
        yield
    finally:
        with _lifted:
            _lifts[0] -= 1
            if _lifts[0] == 0:
                sys.set_int_max_str_digits(_lifts[1])


def json_text(value: object, **options) -> str:
    """``value`` as JSON text for a person (``json.dumps`` with ``options``), non-ASCII kept and integers whole at any size."""
    with long_integers_written():
        return json.dumps(value, ensure_ascii=False, **options)


def path_too_deep(text: str, limit: int = MAX_DEPTH) -> str | None:
    """The path of the first array or object of ``text`` opened deeper than ``limit``, read from the text alone.

    For a document too deep for either parser to hand over; it reads only
    as far as that first value and keys are read as written, escapes and all.
    """
    path: list = []  # per open container: its kind, then the key or index of the value being read
    position, key_expected = 0, False
    while position < len(text):
        char = text[position]
        if char == '"':
            end = position + 1
            while end < len(text) and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if key_expected:
                path[-1][1] = text[position + 1:end]
            position, key_expected = end + 1, False
            continue
        if char in "[{":
            if len(path) == limit:
                return join_path(part for _, part in path)
            path.append([char, 0 if char == "[" else ""])
            key_expected = char == "{"
        elif char in "]}" and path:
            path.pop()
        elif char == "," and path:
            key_expected = path[-1][0] == "{"
            if not key_expected:
                path[-1][1] += 1
        position += 1
    return None


def _read_exactly(raw: bytes, fast_error: str | None, depth: int = MAX_DEPTH):
    """The standard parser's reading: integers exact at any size, repeated keys kept as ``RepeatedKeys``.

    ``fast_error`` is why orjson refused the text, if it did: anything the
    standard parser accepts that orjson does not for another reason (a lone
    surrogate) is refused with it.
    """
    try:
        text = raw.decode("utf-8")
        document = json.loads(text, object_pairs_hook=read_object, parse_constant=_refuse_constant, parse_float=_finite,
                              parse_int=exact_integer)
    except ScenarioError:
        raise
    except RecursionError:
        raise ScenarioError(path_too_deep(text, depth) or "$", f"nested more than {depth} levels deep") from None
    except ValueError as error:  # not UTF-8, or not JSON
        raise ScenarioError("$", f"not valid JSON ({fast_error or error})") from None
    check_depth(document, depth)
    if fast_error is not None:
        try:
            with long_integers_written():
                json.dumps(document, ensure_ascii=False).encode()
        except UnicodeEncodeError:
            raise ScenarioError("$", f"not valid JSON ({fast_error})") from None
    return document


def parse_json(data: bytes | str, where: str = "$", repeats=check_repeated_keys, limit: int | None = MAX_DOCUMENT_BYTES,
               depth: int = MAX_DEPTH) -> object:
    """Parse one JSON document exactly; anything S001.4–S001.6 refuse is a :class:`ScenarioError` at ``where``.

    ``repeats`` judges the objects that write a key twice (by default, as a
    scenario document: invalid outside a call's proposal); None keeps them all.
    ``limit`` is the most bytes the text may hold (None: any number), and
    ``depth`` the most levels it may nest (:data:`COMMAND_DEPTH` for a protocol command).
    """
    raw = data.encode() if isinstance(data, str) else data
    try:
        if limit is not None:
            check_size(len(raw), limit)
        try:
            document = orjson.loads(raw)
        except orjson.JSONDecodeError as error:
            document = _read_exactly(raw, str(error), depth)
        else:
            # No value can nest deeper than the text has brackets: most documents skip the walk.
            if raw.count(b"[") + raw.count(b"{") > depth:
                check_depth(document, depth)
            again = orjson.dumps(document)
            if written_as_orjson_writes(raw, again):
                return document
            if not (has_long_number(raw) or may_repeat_a_key(raw, document, again)):
                return document
            document = _read_exactly(raw, None, depth)
        if repeats is not None:
            repeats(document)
        return document
    except ScenarioError as error:
        raise _at(where, error) from None


def dumps(document: object) -> bytes:
    """One line of JSON; integers beyond 64 bits and repeated keys (``RepeatedKeys``) are written as read."""
    try:
        return orjson.dumps(document, option=orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        with long_integers_written():
            return json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()


def dumps_pretty(document: object) -> bytes:
    """The same, indented by two spaces."""
    try:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2 | orjson.OPT_PASSTHROUGH_SUBCLASS)
    except TypeError:
        with long_integers_written():
            return json.dumps(document, ensure_ascii=False, indent=2).encode()


def read_document(handle) -> bytes:
    """A whole document from a binary file or stream, never more than one byte past :data:`MAX_DOCUMENT_BYTES`.

    A longer one is refused by the parser for its size, so ``/dev/zero`` is
    read for an instant, not without end.
    """
    return handle.read(MAX_DOCUMENT_BYTES + 1)


def read_lines(handle):
    """The lines of a binary stream without their newlines, each at most one byte past :data:`MAX_DOCUMENT_BYTES`.

    The newline ends the line and is no part of its document, so a document
    of exactly the limit followed by one is read whole. A line that does not
    end within one byte past the limit is the last one read: the parser
    refuses it for its size, and nothing after it is read.
    """
    while True:
        line = handle.readline(MAX_DOCUMENT_BYTES + 2)
        if not line:
            return
        if line.endswith(b"\n"):
            line = line[:-1]
        yield line
        if len(line) > MAX_DOCUMENT_BYTES:
            return
