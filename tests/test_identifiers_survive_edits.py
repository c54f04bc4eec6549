"""Reach exemptions, mutant ids and Node variants name the same code after lines are added above it and literals beside it."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import orjson
import pytest

from gateproof.conformance.generation.reach import MODEL_DIR, UNREACHABLE
from gateproof.conformance.generation.reach_keys import branch_key, function_key
from gateproof.conformance.mutation.equivalent import read_equivalents
from gateproof.conformance.mutation.mutants import mutants_of
from gateproof.conformance.mutation.variants import NODE_SOURCES, changed_files, read_variants

ADDED = '_added = "a literal added here"'


def with_unrelated_edits(source: str) -> str:
    """Blank lines and a literal at the top, and a literal at the end of every function's body."""
    lines = source.splitlines()
    ends = sorted({(node.body[-1].end_lineno, node.body[0].col_offset) for node in ast.walk(ast.parse(source))
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}, reverse=True)
    for end, indent in ends:
        lines.insert(end, " " * indent + ADDED)
    return "\n\n\n" + ADDED + "\n" + "\n".join(lines) + "\n"


def edited_copy(tmp_path: Path, relative: str) -> Path:
    """``model/RELATIVE`` copied into ``tmp_path/model/`` with unrelated edits; the copy's path."""
    copy = tmp_path / "model" / relative
    copy.parent.mkdir(parents=True, exist_ok=True)
    copy.write_text(with_unrelated_edits((MODEL_DIR / relative).read_text(encoding="utf-8")), encoding="utf-8")
    return copy


def table_keys(file: Path, model_dir: Path) -> set[str]:
    """Every key the reach table could hold for ``file``: each line's branch key, each function's key."""
    count = len(file.read_text(encoding="utf-8").splitlines())
    return {key for line in range(1, count + 1) for key in (branch_key(file, line, model_dir), function_key(file, line, model_dir))}


REACH_FILES = sorted({key.split(":", 1)[0].removeprefix("model/") for key in UNREACHABLE})
MUTATED_FILES = sorted({entry.id.split(":", 1)[0].removeprefix("model/") for entry in read_equivalents()})


@pytest.mark.parametrize("relative", REACH_FILES)
def test_every_reach_exemption_names_the_same_code_after_unrelated_edits(tmp_path, relative):
    wanted = {key for key in UNREACHABLE if key.startswith(f"model/{relative}:")}
    assert wanted <= table_keys(MODEL_DIR / relative, MODEL_DIR)
    assert wanted <= table_keys(edited_copy(tmp_path, relative), tmp_path / "model")


@pytest.mark.parametrize("relative", MUTATED_FILES)
def test_every_mutant_id_judged_equivalent_names_the_same_change_after_unrelated_edits(tmp_path, relative):
    edited_copy(tmp_path, relative)
    judged = {entry.id: entry.line for entry in read_equivalents() if entry.id.startswith(f"model/{relative}:")}
    mutants = {m.id: m.before for m in mutants_of(Path(relative), tmp_path / "model")}
    assert {identifier: mutants.get(identifier) for identifier in judged} == judged


def test_every_node_variant_applies_after_lines_above_and_its_texts_elsewhere_in_its_file(tmp_path):
    copy = tmp_path / "node"
    shutil.copytree(NODE_SOURCES, copy, ignore=shutil.ignore_patterns("node_modules"))
    variants = read_variants()
    for name in {edit.file for variant in variants for edit in variant.edits}:
        olds = [edit.old for variant in variants for edit in variant.edits if edit.file == name]
        # Each text again, inside another function: as it reads where it is one line, as a string where it is more.
        elsewhere = "function addedElsewhere() {\n" + "\n".join(f"  // {old}" if "\n" not in old else f"  const text = {orjson.dumps(old).decode()};"
                                                                for old in olds) + "\n}\n"
        (copy / name).write_text("\n\n\n" + (NODE_SOURCES / name).read_text(encoding="utf-8") + elsewhere, encoding="utf-8")
    for variant in variants:
        assert changed_files(variant, copy), variant.name
