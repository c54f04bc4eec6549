"""Whether this gateproof runs from a checkout of its repository: the commands that rewrite repository files need one.

Installed from a wheel or an sdist, the package has no ``examples/`` or
``adr/`` beside it and its corpus lives inside site-packages: regenerating
the corpus there would fail half-way or rewrite an installed package. Such a
command refuses with :class:`NotACheckout`, whose message says what it needs.
"""

from __future__ import annotations

import sys
from pathlib import Path

#: Where the repository's root is when the package runs from a checkout: conformance/ sits right under it.
REPOSITORY = Path(__file__).resolve().parent.parent
USAGE_ERROR = 2


class NotACheckout(Exception):
    """The command rewrites files of gateproof's repository, and this gateproof is an installed copy."""


def is_checkout(root: Path = REPOSITORY) -> bool:
    """Whether ``root`` holds the repository's sources: its pyproject.toml, the ADRs and the examples the corpus is built from."""
    pyproject = root / "pyproject.toml"
    return (pyproject.is_file() and 'name = "gateproof"' in pyproject.read_text(encoding="utf-8")
            and (root / "adr").is_dir() and (root / "examples").is_dir())


def checkout_root(command: str, root: Path = REPOSITORY) -> Path:
    """The repository's root; :class:`NotACheckout` naming ``command`` when this gateproof is not run from a checkout."""
    if is_checkout(root):
        return root
    raise NotACheckout(
        f"{command} rewrites files of gateproof's own repository and runs only from a checkout of it "
        f"(clone the repository and run 'pip install -e .' there); this gateproof is installed at {root}")


def refuse_outside_checkout(command: str, root: Path = REPOSITORY) -> Path:
    """:func:`checkout_root`, or the message on stderr and exit status 2."""
    try:
        return checkout_root(command, root)
    except NotACheckout as error:
        print(f"gateproof: error: {error}", file=sys.stderr)
        raise SystemExit(USAGE_ERROR) from None
