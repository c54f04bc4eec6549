"""Boundary pairs: for one rule, the case where it decides and the nearest case where it does not.

A test is also a vector (consensus-specs' habit): each rule gets a case on
each side of its boundary, named by the rule and citing it, so a runner in
another language is held to the very edge of each condition (``<`` against
``<=``, ASCII-only trimming against non-ASCII text, a deleted record against
an inactive one), and a reader of the corpus finds both sides of every rule.

A pair is ``<family>.boundary.<rule>[.<aspect>].applies`` and
``….just-outside``; a rule whose condition can fail in more than one nearby
way adds named near misses, ``….just-outside.<name>``. The family's own
case builder makes each case, and the model computes every expected outcome.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen


@frozen
class Side:
    """One side of a boundary: the sentence saying why it is on that side, and what the family's builder takes."""

    description: str
    arguments: tuple  # what the builder takes after the id, the description and the rules
    options: dict


def side(description: str, *arguments, **options) -> Side:
    return Side(description, arguments, options)


def pair(build: Callable[..., dict], family: str, rule: str, applies: Side, outside: Side, aspect: str = "", **near_misses: Side) -> list[dict]:
    """The cases of one boundary of ``rule``: where it applies, just outside, and any further near misses."""
    stem = ".".join(part for part in (family, "boundary", rule.lower(), aspect) if part)
    sides = [("applies", f"{rule} applies", applies), ("just-outside", f"{rule} just outside", outside)]
    sides += [(f"just-outside.{name.replace('_', '-')}", f"{rule} just outside", near) for name, near in near_misses.items()]
    return [build(f"{stem}.{suffix}", f"{label}: {near.description}", [rule], *near.arguments, **near.options) for suffix, label, near in sides]
