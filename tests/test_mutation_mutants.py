"""Mutants of the model: enumerated in a fixed order, with ids that survive edits elsewhere, never where nothing can change."""

from __future__ import annotations

import ast
from pathlib import Path
from random import Random

import pytest

from gateproof.conformance.mutation.mutants import UNREACHED, UnknownMutant, all_mutants, mutants_of, mutated_code
from gateproof.conformance.mutation.operators import sites

# The tie rule of the fold (C144.9): ``<=`` is what lets the later of two equal declarations win.
TIE = "model/lattice.py:takes_over:LtE->Lt:running_rank <= new_rank"


def ids_of(source: str, tmp_path: Path) -> list[str]:
    (tmp_path / "module.py").write_text(source, encoding="utf-8")
    return [m.id for m in mutants_of(Path("module.py"), tmp_path)]


def test_enumeration_is_deterministic_and_every_id_unique():
    first, second = all_mutants(), all_mutants()
    assert first == second
    assert len({m.id for m in first}) == len(first) > 1000


def test_a_known_mutant_keeps_its_id_and_reads_as_the_change_it_makes():
    tie = next(m for m in all_mutants() if m.id == TIE)
    assert tie.module == "gateproof.model.lattice" and tie.operator == "LtE->Lt"
    assert tie.before == "return ops.And(new_rank > UNDECLARED, running_rank <= new_rank)"
    assert tie.after == "return ops.And(new_rank > UNDECLARED, running_rank < new_rank)"


def test_ids_do_not_move_when_another_function_is_edited(tmp_path):
    body = "def strict(a, b):\n    return a < b\n"
    before = ids_of(body, tmp_path)
    after = ids_of("def added(x):\n    return x + 1 if x else 0\n\n\n" + body, tmp_path)
    assert before == ["model/module.py:strict:return->None:return a < b", "model/module.py:strict:Lt->LtE:a < b"]
    assert set(before) < set(after)


def test_ids_do_not_move_when_a_literal_or_lines_are_added_in_the_same_function(tmp_path):
    body = "def strict(a, b):\n    return a < b and b != 2\n"
    before = ids_of(body, tmp_path)
    after = ids_of("\n\n\n" + body.replace("    return", "    limit = 7\n    return"), tmp_path)
    assert before and set(before) < set(after)


def test_nothing_is_mutated_that_cannot_change_a_decision(tmp_path):
    source = '''"""A docstring."""
from typing import TYPE_CHECKING
__all__ = ["f"]
if TYPE_CHECKING:
    LIMIT = 1
def f(x: int = 0) -> "str":
    """Another docstring."""
    assert x < 10, "never"
    if x:
        raise ValueError(f"bad {x:>5}")
    return f"{x:>5}"
'''
    operators = {":".join(i.split(":")[1:3]) for i in ids_of(source, tmp_path)}
    # The default, the test, the if's body and the f-string's text are mutated; nothing else is.
    assert operators == {"f:number+1", "f:if-body->pass", "f:return->None", "f:fstring->XXfstring"}


def test_mutated_code_compiles_under_the_module_s_own_file_name():
    name, path, code = mutated_code(TIE)
    assert name == "gateproof.model.lattice" and path.name == "lattice.py" and code.co_filename == str(path)
    for mutant in Random(0).sample(all_mutants(), 200):  # every one is compiled by make mutation; a sample keeps this quick
        assert mutated_code(mutant.id)[2] is not None


def test_listing_sites_leaves_the_tree_alone_and_each_site_makes_its_own_change():
    source = "def f(a, b):\n    return [x for x in a if x] if a < b and b <= 3 else min(a, b)\n"
    tree = ast.parse(source)
    pristine = ast.dump(tree)
    found = sites(tree)
    assert ast.dump(tree) == pristine
    changed = set()
    for position in range(len(found)):
        fresh = ast.parse(source)
        sites(fresh)[position].apply()
        changed.add(ast.unparse(fresh))
    assert len(changed) == len(found) and ast.unparse(tree) not in changed


def test_modules_no_scenario_reaches_are_left_out():
    assert all(m.path.removeprefix("model/") not in UNREACHED for m in all_mutants())


@pytest.mark.parametrize("bad", ["nope", "model/fold.py:fold:x#1", "model/symbolic.py:Z3:And->Or#1", "model/none.py:f:And->Or#1"])
def test_an_unknown_id_is_refused_with_what_is_wrong(bad):
    with pytest.raises(UnknownMutant):
        mutated_code(bad)
