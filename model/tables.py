"""A table of stored records: their storage order, a lookup by key, and one record changed without copying the others.

A world changes one record at a time: a case reassigned, a session revoked, a
snippet updated, a provider removed. Held in a tuple, the whole table would be
copied at every change, and a story of many changes over a large world would
cost their product. A :class:`Table` keeps its records in a tree of tuples of
32 and each key's position in one dict, built once, with the table a reader
builds, and shared by every table changed from it. Changing or removing a
record copies the one path of the tree that leads to it (three tuples of 32
for 10,000 records) and nothing else; a removed record leaves an empty slot.

A table holding one key twice (which no reader admits, S001.1) finds, changes
and removes the last record under it, as a dict built from the records would.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

from attrs import Factory, field, frozen

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1


def _tree(records: tuple) -> tuple[tuple, int]:
    """The records as a tree of tuples of at most 32, and the shift of its root's level (0 for a single leaf)."""
    nodes, shift = records, 0
    while len(nodes) > _WIDTH:
        nodes = tuple(nodes[start:start + _WIDTH] for start in range(0, len(nodes), _WIDTH))
        shift += _BITS
    return nodes, shift


def _replaced(node: tuple, shift: int, position: int, record) -> tuple:
    """``node`` with the slot of ``position`` holding ``record``: the path to it copied, every other node shared."""
    slot = (position >> shift) & _MASK
    child = record if shift == 0 else _replaced(node[slot], shift - _BITS, position, record)
    return node[:slot] + (child,) + node[slot + 1:]


@frozen(eq=False)
class Table(Sequence):
    """Records in storage order, each found by its ``key`` attribute through :attr:`lookup`; equal to the tuple of its records."""

    key: str
    root: tuple = field(repr=False)
    shift: int = field(repr=False)
    slots: int = field(repr=False)  # records the table was built with, removed ones included
    positions: dict = field(repr=False)  # key -> slot of the last record built under it; shared by every table changed from this one
    removed: int = field(default=0, repr=False)
    lookup: Lookup = field(init=False, repr=False)

    def __attrs_post_init__(self):
        object.__setattr__(self, "lookup", Lookup(self))

    @classmethod
    def of(cls, key: str, records=()) -> Table:
        """A table of ``records`` found by ``key``; one given as a table found by ``key`` is taken as it is."""
        if isinstance(records, Table) and records.key == key:
            return records
        records = tuple(records)
        root, shift = _tree(records)
        return cls(key, root, shift, len(records), {getattr(record, key): slot for slot, record in enumerate(records)})

    def at(self, slot: int):
        """The record in ``slot``; None when it was removed."""
        return self.lookup._at(slot)

    def replaced(self, record) -> Table:
        """The table with ``record`` in the place of the stored record of its key (which must be in the table)."""
        slot = self.positions[getattr(record, self.key)]
        return Table(self.key, _replaced(self.root, self.shift, slot, record), self.shift, self.slots, self.positions, self.removed)

    def without(self, key) -> Table:
        """The table without the record of ``key``; the same table when it holds none."""
        if self.lookup.get(key) is None:
            return self
        root = _replaced(self.root, self.shift, self.positions[key], None)
        return Table(self.key, root, self.shift, self.slots, self.positions, self.removed + 1)

    def __iter__(self):
        records = iter(self.root)
        for _ in range(self.shift // _BITS):
            records = chain.from_iterable(records)
        return records if not self.removed else (record for record in records if record is not None)

    def __len__(self) -> int:
        return self.slots - self.removed

    def __getitem__(self, index):
        if isinstance(index, int) and not self.removed and -self.slots <= index < self.slots:
            return self.at(index % self.slots)
        return tuple(self)[index]

    def __eq__(self, other):
        if isinstance(other, Table):
            return self.root is other.root or tuple(self) == tuple(other)
        if isinstance(other, tuple):
            return tuple(self) == other
        return NotImplemented

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Table({self.key!r}, {tuple(self)!r})"

    def __reduce__(self):
        return (Table.of, (self.key, tuple(self)))


class Lookup(Mapping):
    """A table's records by key: a read-only mapping found through the table's positions, never copied.

    It holds what the table holds, not the table, which holds it: a table and
    its lookup holding each other would be a cycle that only the garbage
    collector frees, and a story makes a table at every change.
    """

    __slots__ = ("_positions", "_root", "_shift", "_removed")

    def __init__(self, table: Table):
        self._positions, self._root, self._shift, self._removed = table.positions, table.root, table.shift, table.removed

    def _at(self, slot: int):
        node, shift = self._root, self._shift
        while shift:
            node = node[(slot >> shift) & _MASK]
            shift -= _BITS
        return node[slot & _MASK]

    def get(self, key, default=None):
        slot = self._positions.get(key)
        if slot is None:
            return default
        record = self._at(slot)
        return default if record is None else record

    def __getitem__(self, key):
        record = self.get(key)
        if record is None:
            raise KeyError(key)
        return record

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def __iter__(self):
        return (key for key, slot in self._positions.items() if not self._removed or self._at(slot) is not None)

    def __len__(self) -> int:
        return len(self._positions) - self._removed

    def __repr__(self) -> str:
        return f"Lookup({dict(self)!r})"


def table_field(key: str, **kwargs):
    """A world's field holding a :class:`Table` found by ``key``; a tuple or list given for it is made one."""
    return field(default=(), converter=lambda records: Table.of(key, records), **kwargs)


def lookup_of(table: str):
    """A derived field of a world: the lookup of its ``table`` by key, shared with the table, no part of the world's equality."""
    return field(init=False, eq=False, repr=False, default=Factory(lambda world: getattr(world, table).lookup, takes_self=True))
