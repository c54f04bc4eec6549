"""Catches its own error on the fault scenario: a traceback on stderr, then an ``errored`` reply that carries no stderr of its own."""

import sys

from fake import is_fault, right, serve


def answer(seq: int, scenario: dict) -> list[dict]:
    if not is_fault(scenario):
        return [right(seq, scenario)]
    print("Traceback (most recent call last):\n  File \"gateway.py\", line 12, in decide\nTypeError: 'NoneType' object is not subscriptable",
          file=sys.stderr, flush=True)
    return [{"seq": seq, "errored": {"message": "TypeError: 'NoneType' object is not subscriptable"}}]


serve("raises-and-says", answer)
