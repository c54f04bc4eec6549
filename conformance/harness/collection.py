"""Fewer cyclic garbage collections while a campaign's pipeline runs.

Every generated scenario allocates hundreds of containers, and a
campaign keeps those of the runs in flight alive: at the interpreter's
default threshold the collector runs about once a scenario and walks
them, about a hundredth of the harness's instructions (valgrind).
Documents, model values and replies are trees, which reference counting
frees as soon as they are dropped, so the collector finds little: it still
runs, only less often, and the thresholds are put back afterwards.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import Iterator

#: Allocations between two young-generation collections while a pipeline runs (the interpreter's default is 700).
PIPELINE_THRESHOLD = 50_000

_lock = threading.Lock()
_within = 0  # pipelines running now, in any thread
_found: tuple[int, ...] = ()  # the thresholds found when the first of them began


@contextmanager
def fewer_collections(threshold: int = PIPELINE_THRESHOLD) -> Iterator[None]:
    """The young generation collected every ``threshold`` allocations (never fewer than before) while any pipeline runs.

    The thresholds are process-wide: the first pipeline to begin raises
    them and the last to end puts back what the first found, so pipelines
    that overlap, nested or in other threads, never leave them raised.
    """
    global _within, _found
    with _lock:
        if _within == 0:
            _found = gc.get_threshold()
            gc.set_threshold(max(threshold, _found[0]), *_found[1:])
        _within += 1
    try:
        yield
    finally:
        with _lock:
            _within -= 1
            if _within == 0:
                gc.set_threshold(*_found)
