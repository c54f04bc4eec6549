"""A rule version the suite can decide a scenario under: the model's rules, or a deliberately wrong variant of them."""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from types import MappingProxyType
from typing import Callable, Mapping

from attrs import field, frozen

from gateproof.model.versions import LATEST, Rules

#: The prefix of every deliberately wrong variant's name.
WRONG_PREFIX = "wrong:"


@frozen
class Variant:
    """A rule version and what a wrong one changes of it.

    A wrong variant changes the rules in one of three ways: other switches
    (``rules``), other model functions (``patches``), or, for the gateway,
    another decision (the ``runner`` that decides its documents).
    ``patches`` maps a model function to its wrong replacement; while
    :meth:`in_force` holds, every module of the model that binds the
    original binds the replacement.
    """

    name: str
    rules: Rules = LATEST
    patches: Mapping = field(factory=dict, converter=MappingProxyType)
    description: str = ""
    #: Decides a scenario document in place of the model: document -> outcome.
    runner: Callable | None = None
    #: The version a wrong variant was written against, and is applied on top of: pinned, so a later version leaves it as written.
    against: str = LATEST.name

    @property
    def is_model_version(self) -> bool:
        return not self.name.startswith(WRONG_PREFIX)

    @property
    def document_rules(self) -> str:
        """The rule version a counterexample document names: a wrong variant is applied on top of the version it was written against."""
        return self.name if self.is_model_version else self.against

    @contextmanager
    def in_force(self):
        """Swap the patched model functions in, and back on exit.

        The swap is global to the process, so it holds a lock for its whole
        extent, a variant that patches nothing too: two threads deciding
        under different variants wait for each other instead of one seeing
        the other's rules.
        """
        with _PATCHING:
            bindings = [
                (module, attribute, original, replacement)
                for original, replacement in self.patches.items()
                for module in _model_modules()
                for attribute, value in list(vars(module).items())
                if value is original
            ]
            for module, attribute, _, replacement in bindings:
                setattr(module, attribute, replacement)
            try:
                yield self
            finally:
                for module, attribute, original, _ in bindings:
                    setattr(module, attribute, original)


_PATCHING = threading.RLock()


@contextmanager
def model_as_it_is():
    """The model unpatched while it is held: a variant's swap, process-wide, waits until it is let go."""
    with _PATCHING:
        yield


def _model_modules():
    return [module for name, module in list(sys.modules.items()) if name.startswith("gateproof.model") and module is not None]
