"""Exits in the middle of a run when it meets the fault scenario."""

import sys

from fake import is_fault, right, serve


def answer(seq, scenario):
    if is_fault(scenario):
        sys.stderr.write("segmentation fault (pretend)\n")
        sys.exit(3)
    return [right(seq, scenario)]


serve("crash-mid-run", answer)
