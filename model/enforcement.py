"""The enforcement switch (ADR-113, ADR-115): fail closed, only a literal observe observes."""

from __future__ import annotations

from .lattice import CONCRETE

#: Marks a switch value that is not stored at all (distinct from JSON null).
MISSING = object()


def is_enforcing(raw: object = MISSING) -> bool:
    """C113.1: only a string equal to ``observe`` after trimming and lowercasing observes.

    Every other value enforces: ``enforce``, a typo, the empty string, false,
    0, a list, null (C113.1) and a value never stored (C115.1).
    """
    return not (isinstance(raw, str) and observes(raw))


def observes(text, ops=CONCRETE):
    """C113.1 on a stored string: it observes exactly when trimming and ASCII-lowercasing leave ``observe``.

    Written with ``ops``: on a z3 string it is a regular expression, so the
    proofs read a switch's raw text by this very rule.
    """
    return ops.normalises_to(text, "observe")


def mode_label(enforcing: bool) -> str:
    """C113.2: the switch is shown as the label derived from it, so a typo shows as ``enforce``."""
    return "enforce" if enforcing else "observe"
