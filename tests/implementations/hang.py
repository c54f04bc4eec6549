"""Stops answering, forever, when it meets the fault scenario."""

import time

from fake import is_fault, right, serve


def answer(seq, scenario):
    if is_fault(scenario):
        time.sleep(3600)
    return [right(seq, scenario)]


serve("hang", answer)
