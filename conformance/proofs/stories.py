"""The situations an invariant compares: one send, or two sends related the way the claim needs.

Each story returns the sends and the facts that relate them. The sends are
fresh z3 constants; a field two sends share is the same constant, so they
differ only where the story says.
"""

from __future__ import annotations

import z3
from attrs import evolve

from gateproof.model.enforcement import observes
from gateproof.model.lattice import UNDECLARED
from gateproof.model.symbolic import Z3

from .send import fresh_send


def one_send(bound: int):
    """Any send of at most ``bound`` sources and fallbacks."""
    return (fresh_send("a", bound),), []


def without_forced_set(bound: int):
    """A send whose run forces nothing: no listed source is forced."""
    send = fresh_send("a", bound)
    return (send,), [z3.Not(z3.And(listed, forced)) for listed, forced in zip(send.listed, send.forced)]


def with_more_sources(bound: int):
    """A send, and the same send with any further sources listed."""
    first = fresh_send("a", bound)
    second = evolve(first, listed=fresh_send("b", bound).listed)
    return (first, second), [z3.Implies(before, after) for before, after in zip(first.listed, second.listed)]


def with_more_undeclared_sources(bound: int):
    """A send, and the same send with any further undeclared sources listed."""
    first, second = with_more_sources(bound)[0]
    facts = [
        z3.Or(before == after, rank == UNDECLARED)
        for before, after, rank in zip(first.listed, second.listed, first.ranks)
    ]
    return (first, second), facts


def in_two_zones(bound: int):
    """The same sources and switch sent through any two zone resolutions."""
    first = fresh_send("a", bound)
    other = fresh_send("b", bound)
    second = evolve(first, primary_zone=other.primary_zone, fallback_zones=other.fallback_zones, fallback_listed=other.fallback_listed)
    return (first, second), []


def with_more_fallbacks(bound: int):
    """A send, and the same send with any further fallbacks in its chain."""
    first = fresh_send("a", bound)
    second = evolve(first, fallback_listed=fresh_send("b", bound).fallback_listed)
    return (first, second), [z3.Implies(before, after) for before, after in zip(first.fallback_listed, second.fallback_listed)]


def in_both_modes(bound: int):
    """The same send under two raw switch texts, one that enforces and one that observes (C113.1)."""
    send = fresh_send("a", bound)
    sends = tuple(
        evolve(send, enforcing=z3.Not(observes(text, Z3)), switch=text)
        for text in (z3.String("a.switch"), z3.String("b.switch"))
    )
    return sends, [sends[0].enforcing, z3.Not(sends[1].enforcing)]


def in_another_order(bound: int):
    """A send, and the same sources with two neighbours swapped, forced sources still last.

    Every reordering is a chain of neighbour swaps, and the claims that use
    this story compare the two sends by equalities, which chain; so one swap
    at any position covers every order, at a fraction of the cost of a
    symbolic permutation.
    """
    first = fresh_send("a", bound)
    swap = z3.Int("swap")
    last = bound - 1

    def swapped(values):
        return tuple(
            z3.If(swap == i, values[min(i + 1, last)], z3.If(swap == i - 1, values[max(i - 1, 0)], values[i]))
            for i in range(bound)
        )

    second = evolve(first, ranks=swapped(first.ranks), listed=swapped(first.listed), forced=swapped(first.forced))
    return (first, second), [0 <= swap, swap < last] if bound > 1 else [swap == 0]
