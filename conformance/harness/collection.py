"""Fewer cyclic garbage collections while a campaign's pipeline runs.

A campaign keeps thousands of scenario documents alive (those in flight,
and the answered ones remembered so a late second reply is pinned on its
own run), and every generated scenario allocates hundreds of containers:
at the interpreter's default threshold the collector ran about once a
scenario and walked the documents kept, a tenth of a campaign's time.
Documents, model values and replies are trees, which reference counting
frees as soon as they are dropped, so the collector finds little: it still
runs, only less often, and the thresholds are put back afterwards.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

#: Allocations between two young-generation collections while a pipeline runs (the interpreter's default is 700).
PIPELINE_THRESHOLD = 50_000


@contextmanager
def fewer_collections(threshold: int = PIPELINE_THRESHOLD) -> Iterator[None]:
    """The young generation collected every ``threshold`` allocations within, as before after; never lowered."""
    before = gc.get_threshold()
    gc.set_threshold(max(threshold, before[0]), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)
