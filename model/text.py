"""String normalisation exactly as the rules' host language performs it.

The rules were written against PHP: ``trim`` strips only space, tab, newline,
carriage return, NUL and vertical tab, and ``strtolower`` folds ASCII letters
only. Python's own ``strip``/``lower`` go further (Unicode spaces, ``Ä``), which
would silently accept values the rules reject.
"""

from __future__ import annotations

#: What PHP's ``trim`` strips by default.
TRIMMED = " \t\n\r\0\x0b"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def trim(value: str) -> str:
    """Strip the six characters PHP's ``trim`` strips, nothing else."""
    return value.strip(TRIMMED)


def ascii_lower(value: str) -> str:
    """Lowercase ASCII letters only, as PHP's ``strtolower`` does.

    On an all-ASCII string Python's ``lower`` does exactly that, and faster;
    only a string with other characters needs the letter-by-letter table.
    """
    return value.lower() if value.isascii() else value.translate(_ASCII_LOWER)


def normalise_token(value: str) -> str:
    """Trim, then lowercase: how identifiers, tags and the switch are compared."""
    return ascii_lower(trim(value))
