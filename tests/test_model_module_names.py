"""Every module of the model has a name of its own, so a path, an import or a mutant id names one file only."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import gateproof.model

MODEL_DIR = Path(gateproof.model.__file__).resolve().parent
#: Names every package has by design.
PACKAGE_FILES = {"__init__.py", "__main__.py"}


def shared_names(root: Path) -> dict[str, list[str]]:
    """Each file name that more than one module under ``root`` carries, with their paths."""
    paths = defaultdict(list)
    for path in sorted(root.rglob("*.py")):
        if path.name not in PACKAGE_FILES and "__pycache__" not in path.parts:
            paths[path.name].append(path.relative_to(root).as_posix())
    return {name: found for name, found in paths.items() if len(found) > 1}


def test_no_two_modules_of_the_model_share_a_file_name():
    assert shared_names(MODEL_DIR) == {}
