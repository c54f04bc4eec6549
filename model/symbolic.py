"""The z3 interpretation of the order rules: hand :data:`Z3` as ``ops`` and ``lattice`` builds terms.

The proofs in ``gateproof.conformance.proofs`` call the very functions the
model runs, with z3 values and these operations, so a proof speaks about the
executable rules rather than a second copy of them.
"""

from __future__ import annotations

import z3


class Z3Ops:
    """Build z3 terms where :class:`gateproof.model.lattice.Concrete` computes values."""

    @staticmethod
    def If(cond, then, otherwise):  # noqa: N802 - mirrors z3's name
        return z3.If(cond, then, otherwise)

    @staticmethod
    def And(*terms):  # noqa: N802
        return z3.And(*terms)

    @staticmethod
    def Or(*terms):  # noqa: N802
        return z3.Or(*terms)

    @staticmethod
    def Not(term):  # noqa: N802
        return z3.Not(term)

    @staticmethod
    def select(table, index):
        """``table[index]`` for a symbolic index, as nested ``If``s; an index past the end reads the last entry.

        Callers constrain the index to the table, so the fallback entry is
        never the answer in a proof; it only keeps the term total.
        """
        term = table[-1]
        for position in range(len(table) - 2, -1, -1):
            term = z3.If(index == position, table[position], term)
        return term


Z3 = Z3Ops()
