"""Answers the faulty scenario with a line that never ends, and every other scenario correctly."""

import sys

from fake import is_fault, right, serve


def answer(seq: int, scenario: dict) -> list:
    if not is_fault(scenario):
        return [right(seq, scenario)]
    chunk = "x" * (1 << 20)
    for _ in range(4):  # more than the limit the test sets, never a newline
        sys.stdout.write(chunk)
    sys.stdout.flush()
    return []


serve("endless-line", answer)
