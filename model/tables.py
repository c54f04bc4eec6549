"""A table of stored records: their storage order, a lookup by key, and one record changed without copying the others.

A world changes one record at a time: a case reassigned, a session revoked, a
snippet updated, a provider removed. Held in a tuple, the whole table would be
copied at every change, and a story of many changes over a large world would
cost their product. A :class:`Table` keeps its records in a tree of tuples,
three levels deep whatever its size (a root of middle nodes of leaves, each
node holding at most 32), and each key's position in one dict, built once,
with the table a reader builds, and shared by every table changed from it.
Changing or removing a record copies the one path of the tree that leads to
it (three tuples) and nothing else; a removed record leaves an empty slot,
which walking the table skips. Three levels hold 32,768 records, more than
the schema admits in any table (10,000).

A table holding one key twice (which no reader admits, S001.1) finds, changes
and removes the last record under it, as a dict built from the records would.
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter

from attrs import field, frozen

_WIDTH = 32  # records in a leaf, and children of any other node
_BITS = _WIDTH.bit_length() - 1  # the bits of a slot that choose one child of a node
_MASK = _WIDTH - 1
_TOP = 2 * _BITS  # how far a slot is shifted to choose the root's child


def _chunks(nodes) -> tuple[tuple, ...]:
    """``nodes`` in tuples of at most 32, in their order."""
    return tuple(tuple(nodes[start:start + _WIDTH]) for start in range(0, len(nodes), _WIDTH))


def _replaced(node: tuple, shift: int, slot: int, record) -> tuple:
    """``node`` with ``slot`` holding ``record``: the path to it copied, every other node shared."""
    index = slot >> shift & _MASK
    child = record if shift == 0 else _replaced(node[index], shift - _BITS, slot, record)
    return node[:index] + (child,) + node[index + 1:]


def _records(root: tuple):
    """The records under ``root`` in storage order, removed ones (empty slots) skipped; a record is never false."""
    return filter(None, chain.from_iterable(chain.from_iterable(root)))


@frozen
class Lookup:
    """A table's records by key: its tree, and the slot of each key in it, one dict shared by every table changed from the one a reader built."""

    key: str  # the attribute of a record that names it
    root: tuple
    positions: dict  # key -> slot of the last record built under it

    def get(self, key):
        """The record under ``key``, or None when none was stored under it or it was removed."""
        slot = self.positions.get(key)
        return None if slot is None else self.root[slot >> _TOP & _MASK][slot >> _BITS & _MASK][slot & _MASK]

    def __getitem__(self, key):
        record = self.get(key)
        if record is None:
            raise KeyError(key)
        return record

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def items(self):
        """(key, record) of every record stored, in storage order."""
        key = self.key
        return ((getattr(record, key), record) for record in _records(self.root))


@frozen
class Table:
    """Records in storage order, each found by its key through :attr:`lookup`."""

    lookup: Lookup

    @classmethod
    def of(cls, key: str, records) -> Table:
        """A table of the sequence ``records``, each found by its attribute ``key``.

        A table is no sequence: handed one, this fails rather than copy it whole.
        """
        count = len(records)
        assert count <= _WIDTH ** 3, f"a table holds at most {_WIDTH ** 3:,} records"
        # Most tables fit in one leaf: their tree is that leaf under one middle node, built at once.
        root = ((tuple(records),),) if count <= _WIDTH else _chunks(_chunks(records))
        return cls(Lookup(key, root, dict(zip(map(attrgetter(key), records), range(count)))))

    def replaced(self, record) -> Table:
        """The table with ``record`` in the place of the stored record of its key (which must be in the table)."""
        return self._with(getattr(record, self.lookup.key), record)

    def without(self, key) -> Table:
        """The table without the record of ``key`` (a key it was built with); removing it again changes nothing."""
        return self._with(key, None)

    def _with(self, key, record) -> Table:
        lookup = self.lookup
        return Table(Lookup(lookup.key, _replaced(lookup.root, _TOP, lookup.positions[key], record), lookup.positions))

    def __iter__(self):
        return _records(self.lookup.root)


def table_field(key: str):
    """A world's field holding a :class:`Table` found by ``key``; a tuple given for it is made one, a table taken as it is.

    A world copied with one table changed hands every other table back
    through this converter, which must not rebuild them.
    """

    def table(records) -> Table:
        return records if type(records) is Table else Table.of(key, records)

    return field(default=(), converter=table)


def lookup_of(table: str) -> property:
    """A world's lookup of its field ``table`` by key: the table's own, shared, never copied (read at C speed: every send reads several)."""
    return property(attrgetter(f"{table}.lookup"))
