"""Closes its stdout when it meets the fault scenario, and stays alive: end of file, with nobody exiting."""

import os
import time

from fake import is_fault, right, serve


def answer(seq, scenario):
    if is_fault(scenario):
        os.close(1)
        time.sleep(3600)
    return [right(seq, scenario)]


serve("closes-stdout", answer)
