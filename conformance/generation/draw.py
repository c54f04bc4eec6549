"""The seeded draws every fast generator is written in: one ``random.Random``, a few named choices.

A generator here is a plain function of a :class:`Draw`, so a campaign can
make thousands of scenario documents a second and make the same ones again
from the same seed. Shrinking is not the generator's job: a disagreement is
reduced as a document afterwards (:mod:`.reducer`).
"""

from __future__ import annotations

from random import Random
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")


class Draw:
    """Named choices over one seeded random stream."""

    __slots__ = ("random", "_random", "side")

    def __init__(self, seed: int):
        self.random = Random(seed)
        self._random = self.random.random
        #: A second stream for draws added after a generator's main stream was fixed: drawing from it leaves every
        #: scenario the main stream makes as it was.
        self.side = Random(f"side/{seed}")

    def pick(self, options: Sequence[T]) -> T:
        # Indexing by one float draw is three times faster than Random.choice, and as uniform for pools this small.
        return options[int(self._random() * len(options))]

    def chance(self, probability: float) -> bool:
        return self._random() < probability

    def number(self, low: int, high: int) -> int:
        """An integer from ``low`` to ``high``, both included."""
        return low + int(self._random() * (high - low + 1))

    def some(self, make: Callable[[], T], most: int, least: int = 0) -> list[T]:
        """Between ``least`` and ``most`` values, short lists likelier: small worlds collide more."""
        count = least
        while count < most and self._random() < 0.55:
            count += 1
        return [make() for _ in range(count)]

    def sparse(self, record: dict, keeps: tuple[str, ...], probability: float = 0.05) -> dict:
        """``record`` with each field but ``keeps`` sometimes left out: a reader must supply the default the format states."""
        draw = self._random
        for name in [n for n in record if n not in keeps and draw() < probability]:
            del record[name]
        return record

    def subset(self, options: Sequence[T], most: int) -> list[T]:
        """Distinct options in a drawn order."""
        chosen = list(options)
        self.random.shuffle(chosen)
        return chosen[: self.number(0, min(most, len(chosen)))]
