"""A campaign split by ``--shard I/N``: each shard a deterministic part, the shards together the whole, scenario for scenario.

A corpus case belongs to the shard its id hashes to, so adding a case moves
no other; the generated scenarios of a rule version are the first ``budget``
of its seeded stream, dealt round-robin, so shard ``I`` of ``N`` runs
positions ``I-1``, ``I-1+N``, ... of exactly the stream the whole campaign
runs. Shards run anywhere (a CI job matrix, a batch scheduler), each writing
its own ``results.jsonl``; ``gateproof report`` merges them.
"""

from __future__ import annotations

import zlib
from itertools import islice
from typing import Iterable, Iterator, TypeVar

from attrs import frozen

T = TypeVar("T")


@frozen
class Shard:
    """Shard ``index`` (from 1) of ``count``."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


WHOLE = Shard(1, 1)


def parse_shard(text: str) -> Shard:
    """``I/N`` with 1 <= I <= N; ValueError naming what is wrong otherwise."""
    index, slash, count = text.partition("/")
    if not slash or not index.strip().isdigit() or not count.strip().isdigit():
        raise ValueError(f"{text!r} is not I/N, two whole numbers such as 2/4")
    shard = Shard(int(index), int(count))
    if not 1 <= shard.index <= shard.count:
        raise ValueError(f"{text!r}: I must be from 1 to N")
    return shard


def holds_case(shard: Shard, case_id: str) -> bool:
    return zlib.crc32(case_id.encode("utf-8")) % shard.count == shard.index - 1


def dealt(stream: Iterable[T], budget: int, shard: Shard) -> Iterator[T]:
    """This shard's part of the first ``budget`` items of ``stream``, in order."""
    for position, item in enumerate(islice(stream, budget)):
        if position % shard.count == shard.index - 1:
            yield item


def share(budget: int, shard: Shard) -> int:
    """How many of ``budget`` positions :func:`dealt` gives this shard."""
    return len(range(shard.index - 1, budget, shard.count))
