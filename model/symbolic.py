"""The z3 interpretation of the order rules: hand :data:`Z3` as ``ops`` and ``lattice`` builds terms.

The proofs in ``gateproof.conformance.proofs`` call the very functions the
model runs, with z3 values and these operations, so a proof speaks about the
executable rules rather than a second copy of them.
"""

from __future__ import annotations

from functools import cache

import z3

from .text import TRIMMED


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


    @staticmethod
    def normalises_to(text, word):
        """Membership of ``text`` in the strings that trim and ASCII-lowercase to ``word``.

        Those are the trimmed characters, then ``word`` with each ASCII
        letter in either case, then trimmed characters again; this holds
        because ``word`` neither starts nor ends with a trimmed character.
        """
        return z3.InRe(text, _normalising_to(word))


@cache
def _normalising_to(word: str):
    if not word or word[0] in TRIMMED or word[-1] in TRIMMED:
        raise ValueError(f"no regular expression for {word!r}: it must start and end with untrimmed characters")
    padding = z3.Star(z3.Union(*(z3.Re(z3.StringVal(c)) for c in TRIMMED)))
    letters = [z3.Union(z3.Re(c), z3.Re(c.upper())) if "a" <= c <= "z" else z3.Re(z3.StringVal(c)) for c in word]
    return z3.Concat(padding, *letters, padding)


Z3 = Z3Ops()
