"""An import hook that gives one module of the model its mutated code, whoever imports it.

Installed first on ``sys.meta_path`` before the model is imported, it answers
for the mutated module alone and leaves every other module to the finders
that would have found it, so ``from .fold import fold`` anywhere in the model
(or in the harness, which reads scenarios with it) gets the mutant.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from pathlib import Path
from types import CodeType, ModuleType


class MutantLoader(importlib.abc.Loader):
    """Runs the code it is given; bytecode cached for the pristine module is never read, nor any written."""

    def __init__(self, code: CodeType):
        self.code = code

    def create_module(self, spec) -> None:
        return None  # the default module object

    def exec_module(self, module: ModuleType) -> None:
        exec(self.code, module.__dict__)


class MutantFinder(importlib.abc.MetaPathFinder):
    """Finds ``name`` at ``path`` with mutated code; finds nothing else."""

    def __init__(self, name: str, path: Path, code: CodeType):
        self.name, self.path, self.code = name, path, code

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name:
            return None
        package = [str(self.path.parent)] if self.path.name == "__init__.py" else None
        return importlib.util.spec_from_file_location(fullname, self.path, loader=MutantLoader(self.code), submodule_search_locations=package)


def install(name: str, path: Path, code: CodeType) -> None:
    """Serve ``name`` from ``code`` from now on; refused once the pristine module is loaded, since importers would keep it."""
    if name in sys.modules:
        raise RuntimeError(f"{name} is already imported: the mutant would not be the module its importers see")
    sys.meta_path.insert(0, MutantFinder(name, path, code))
