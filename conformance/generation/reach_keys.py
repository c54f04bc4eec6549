"""Keys of the reach table that survive edits elsewhere: a function by its qualified name, a branch by its function and its text.

``model/lifecycle.py:takes_configuration_only_path`` names a whole function;
``model/uids.py:read_request_uids:if value > MOST:`` names the branch whose
statement reads so in that function (the text with its spaces folded; a
``#2`` follows when the same text opens two branches of one function).
Lines added or removed anywhere, a function moved, or a literal added
elsewhere leave every key naming the same code.
"""

from __future__ import annotations

import ast
from collections import Counter
from functools import cache
from pathlib import Path

MODULE = "<module>"


@cache
def _index(file: Path) -> tuple[dict[int, str], tuple[str, ...]]:
    """Each line's innermost enclosing function (qualified by its classes and functions), and the file's lines."""
    text = file.read_text(encoding="utf-8")
    owners: dict[int, str] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = prefix + child.name
                if not isinstance(child, ast.ClassDef):
                    first = min([child.lineno, *(d.lineno for d in child.decorator_list)])
                    owners.update(dict.fromkeys(range(first, child.end_lineno + 1), name))
                visit(child, name + ".")
            else:
                visit(child, prefix)

    visit(ast.parse(text), "")
    return owners, tuple(" ".join(line.split()) for line in text.splitlines())


def _shown(file: Path, model_dir: Path) -> str:
    return (file.relative_to(model_dir.parent) if file.is_relative_to(model_dir.parent) else file).as_posix()


def function_key(file: Path, first_line: int, model_dir: Path) -> str:
    """``model/lifecycle.py:takes_configuration_only_path``: the function whose definition starts at ``first_line``."""
    owners, _ = _index(file)
    return f"{_shown(file, model_dir)}:{owners.get(first_line, MODULE)}"


def branch_key(file: Path, line: int, model_dir: Path) -> str:
    """``model/uids.py:read_request_uids:if value > MOST:``: the branch at ``line`` by its function and its text."""
    owners, lines = _index(file)
    owner = owners.get(line, MODULE)
    text = lines[line - 1]
    same = Counter(lines[earlier - 1] for earlier in range(1, line) if owners.get(earlier, MODULE) == owner)[text]
    return f"{_shown(file, model_dir)}:{owner}:{text}" + (f" #{same + 1}" if same else "")
