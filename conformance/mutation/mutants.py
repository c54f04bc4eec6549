"""The mutants of the model: every site of every module, each with an id that survives edits elsewhere.

An id is ``model/lattice.py:takes_over:LtE->Lt:running <= candidate``: the
file, the function or class it sits in, the operator, and the text it changes
(its spaces folded, cut at :data:`TEXT_LIMIT` characters); ``#2`` follows
when one scope holds the same change of the same text twice. Lines added
anywhere, another function edited, or a literal added beside it leave it
naming the same change; an equivalence entry also keeps the line it judged
(:mod:`.equivalent`), so an edit of the text itself is noticed.

Nothing here imports the model: its source is read from where the package
lives, so the mutation server can find a mutant before the model is loaded.
"""

from __future__ import annotations

import ast
import importlib.util
from collections import Counter
from functools import cache
from pathlib import Path

from attrs import frozen

from .operators import Site, before_and_after, sites

PACKAGE = "gateproof.model"
#: Modules no scenario reaches, so mutating them measures nothing verify does.
UNREACHED = {
    "symbolic.py": "the z3 interpretation of the rules, loaded only by gateproof prove and diff",
}


@frozen
class Mutant:
    """One change to one module of the model, and how it reads before and after."""

    id: str
    path: str  # "model/fold.py"
    module: str  # "gateproof.model.fold"
    line: int
    column: int
    operator: str
    before: str
    after: str


class UnknownMutant(LookupError):
    """An id that names no mutant of the model as it stands."""


@cache
def model_root() -> Path:
    """The folder the model's package is loaded from, found without importing it."""
    spec = importlib.util.find_spec(PACKAGE)
    return Path(next(iter(spec.submodule_search_locations)))


def model_files(root: Path | None = None) -> list[Path]:
    """Every module of the model that scenarios reach, relative to the package, in path order."""
    root = root or model_root()
    return sorted(p.relative_to(root) for p in root.rglob("*.py") if p.relative_to(root).as_posix() not in UNREACHED)


def module_name(relative: Path) -> str:
    parts = relative.with_suffix("").parts
    return ".".join((PACKAGE, *(parts[:-1] if parts[-1] == "__init__" else parts)))


def display_path(relative: Path) -> str:
    return f"model/{relative.as_posix()}"


#: The most characters of the changed text an id keeps.
TEXT_LIMIT = 48


def changed_text(source: str, site: Site) -> str:
    """The text a site changes, on one line: for a branch, its condition."""
    node = site.node.test if isinstance(site.node, ast.If) else site.node
    text = " ".join((ast.get_source_segment(source, node) or ast.unparse(node)).split())
    return text if len(text) <= TEXT_LIMIT else text[:TEXT_LIMIT - 3] + "..."


def _keys(found: list[Site], source: str) -> list[str]:
    """The scope, operator and changed text of each site, in order: the part of the id after the file."""
    seen: Counter = Counter()
    keys = []
    for site in found:
        key = f"{site.scope}:{site.operator}:{changed_text(source, site)}"
        seen[key] += 1
        keys.append(key if seen[key] == 1 else f"{key} #{seen[key]}")
    return keys


def _parse(source: str, filename: str) -> ast.Module:
    return ast.parse(source, filename=filename)


def mutants_of(relative: Path, root: Path | None = None) -> list[Mutant]:
    """Every mutant of one module, in site order."""
    path = (root or model_root()) / relative
    source = path.read_text(encoding="utf-8")
    found = sites(_parse(source, str(path)))
    mutants = []
    for site, key in zip(found, _keys(found, source)):
        before, after = before_and_after(source, site)
        mutants.append(Mutant(
            id=f"{display_path(relative)}:{key}", path=display_path(relative), module=module_name(relative),
            line=site.node.lineno, column=site.node.col_offset + 1, operator=site.operator, before=before, after=after,
        ))
    return mutants


def all_mutants(root: Path | None = None) -> list[Mutant]:
    return [mutant for relative in model_files(root) for mutant in mutants_of(relative, root)]


def _split(mutant_id: str) -> tuple[Path, str]:
    path, _, key = mutant_id.partition(":")
    if not path.startswith("model/") or not key:
        raise UnknownMutant(f"{mutant_id!r} is not a mutant id (model/FILE.py:SCOPE:OPERATOR:TEXT)")
    return Path(path.removeprefix("model/")), key


def mutated_code(mutant_id: str, root: Path | None = None):
    """The module a mutant names, and its mutated source compiled under the file's own name."""
    relative, key = _split(mutant_id)
    path = (root or model_root()) / relative
    if relative.as_posix() in UNREACHED or not path.is_file():
        raise UnknownMutant(f"{mutant_id!r}: the model has no module {display_path(relative)} to mutate")
    source = path.read_text(encoding="utf-8")
    keys = _keys(sites(_parse(source, str(path))), source)
    if key not in keys:
        raise UnknownMutant(f"{mutant_id!r}: {display_path(relative)} has no such mutant (see --list)")
    tree = _parse(source, str(path))
    sites(tree)[keys.index(key)].apply()
    tree = ast.fix_missing_locations(tree)
    return module_name(relative), path, compile(tree, str(path), "exec", dont_inherit=True)
