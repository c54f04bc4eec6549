"""The mutation operators, as places in a module's syntax tree where one small change can be made.

:func:`sites` walks a tree in a fixed order (fields in their declared order,
lists front to back), so the same source always yields the same sites in the
same order. A site holds a changed copy of one node and the slot the node
sits in; the tree itself is left alone until a site is applied, so one parse
lists every mutant of a module, and applying one changes nothing else.

Nothing that cannot change what the model decides is mutated: docstrings and
other bare strings, annotations, ``__all__``, imports, code under ``if
TYPE_CHECKING``, ``assert``, ``raise`` statements (their messages describe
input the model refuses, which never reaches an outcome), and the layout of
f-strings (their format specs).
"""

from __future__ import annotations

import ast
import copy
from typing import Iterator

from attrs import frozen

COMPARISONS = {
    ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq, ast.NotEq: ast.Eq,
    ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is,
}
BOOLEANS = {ast.And: ast.Or, ast.Or: ast.And}
ARITHMETIC = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.Pow: ast.Mult, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
}
#: Built-ins whose twin gives the opposite answer on the same arguments.
TWINS = {"min": "max", "max": "min", "any": "all", "all": "any"}
#: Fields that hold annotations; never descended into.
ANNOTATION_FIELDS = {"annotation", "returns", "type_comment"}
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


@frozen(eq=False)
class Site:
    """One mutation: the node it replaces, where that node sits, and what takes its place."""

    scope: str  # the qualified name of the enclosing function or class; "<module>" at top level
    operator: str  # what the mutation does, e.g. "Lt->LtE" or "if-body->pass"
    node: ast.AST  # the node replaced; its position is the mutant's
    parent: ast.AST
    field: str
    index: int | None  # the position in ``parent.field`` when that field is a list
    replacement: ast.AST

    def apply(self) -> None:
        if self.index is None:
            setattr(self.parent, self.field, self.replacement)
        else:
            getattr(self.parent, self.field)[self.index] = self.replacement


def _name(node: ast.AST) -> str:
    return type(node).__name__


def _changed(node: ast.AST, **fields) -> ast.AST:
    """A shallow copy of ``node`` with some fields replaced: the original stays as it is."""
    result = copy.copy(node)
    for name, value in fields.items():
        setattr(result, name, value)
    return result


def _is_skipped(statement: ast.stmt) -> bool:
    if isinstance(statement, (ast.Import, ast.ImportFrom, ast.Raise, ast.Assert)):
        return True
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str):
        return True  # a docstring, or a string standing as a comment
    if isinstance(statement, ast.If) and isinstance(statement.test, ast.Name) and statement.test.id == "TYPE_CHECKING":
        return True
    targets = statement.targets if isinstance(statement, ast.Assign) else [getattr(statement, "target", None)]
    return isinstance(statement, (ast.Assign, ast.AnnAssign)) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets)


def _constant_changes(node: ast.Constant) -> Iterator[tuple[str, ast.AST]]:
    value = node.value
    if isinstance(value, bool):
        yield f"{value}->{not value}", _changed(node, value=not value)
    elif isinstance(value, (int, float)):
        yield "number+1", _changed(node, value=value + 1)
        if value != 0:
            yield "number->0", _changed(node, value=type(value)(0))
    elif isinstance(value, str):
        yield ("empty->XX", _changed(node, value="XX")) if value == "" else ("string->XXstringXX", _changed(node, value=f"XX{value}XX"))


def _comparison_changes(node: ast.Compare) -> Iterator[tuple[str, ast.AST]]:
    for position, op in enumerate(node.ops):
        if type(op) in COMPARISONS:
            ops = [*node.ops]
            ops[position] = COMPARISONS[type(op)]()
            yield f"{_name(op)}->{_name(ops[position])}", _changed(node, ops=ops)


def _call_changes(node: ast.Call) -> Iterator[tuple[str, ast.AST]]:
    if isinstance(node.func, ast.Name) and node.func.id in TWINS:
        yield f"{node.func.id}->{TWINS[node.func.id]}", _changed(node, func=_changed(node.func, id=TWINS[node.func.id]))
    for position in range(len(node.args) - 1):
        first, second = node.args[position], node.args[position + 1]
        if isinstance(first, ast.Starred) or isinstance(second, ast.Starred) or ast.dump(first) == ast.dump(second):
            continue  # swapping a spread, or two equal arguments, changes nothing that can be told
        args = [*node.args]
        args[position], args[position + 1] = second, first
        yield f"args-{position}-{position + 1}-swapped", _changed(node, args=args)


def _filter_changes(node: ast.expr) -> Iterator[tuple[str, ast.AST]]:
    """Each ``if`` of a comprehension dropped in turn."""
    for number, generator in enumerate(node.generators):
        for position in range(len(generator.ifs)):
            generators = [*node.generators]
            generators[number] = _changed(generator, ifs=generator.ifs[:position] + generator.ifs[position + 1:])
            yield "filter-dropped", _changed(node, generators=generators)


def _expression_changes(node: ast.expr) -> Iterator[tuple[str, ast.AST]]:
    if isinstance(node, ast.Compare):
        yield from _comparison_changes(node)
    elif isinstance(node, ast.BoolOp):
        yield f"{_name(node.op)}->{_name(BOOLEANS[type(node.op)]())}", _changed(node, op=BOOLEANS[type(node.op)]())
    elif isinstance(node, ast.BinOp) and type(node.op) in ARITHMETIC:
        yield f"{_name(node.op)}->{_name(ARITHMETIC[type(node.op)]())}", _changed(node, op=ARITHMETIC[type(node.op)]())
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        yield f"{_name(node.op)}-dropped", node.operand
    elif isinstance(node, ast.Constant):
        yield from _constant_changes(node)
    elif isinstance(node, ast.JoinedStr):
        yield "fstring->XXfstring", _changed(node, values=[ast.Constant("XX"), *node.values])
    elif isinstance(node, ast.IfExp):
        yield "ifexp-swapped", _changed(node, body=node.orelse, orelse=node.body)
    elif isinstance(node, ast.Call):
        yield from _call_changes(node)
    elif isinstance(node, ast.Slice):
        if node.lower is not None:
            yield "slice-lower-dropped", _changed(node, lower=None)
        if node.upper is not None:
            yield "slice-upper-dropped", _changed(node, upper=None)
    elif isinstance(node, COMPREHENSIONS):
        yield from _filter_changes(node)


def _statement_changes(statement: ast.stmt) -> Iterator[tuple[str, ast.AST]]:
    if isinstance(statement, ast.If) and not (len(statement.body) == 1 and isinstance(statement.body[0], ast.Pass)):
        yield "if-body->pass", _changed(statement, body=[ast.Pass()])
    elif isinstance(statement, ast.Return) and statement.value is not None and not (
        isinstance(statement.value, ast.Constant) and statement.value.value is None
    ):
        yield "return->None", _changed(statement, value=ast.Constant(None))
    elif isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        yield "call-dropped", ast.Pass()
    elif isinstance(statement, ast.Break):
        yield "break->continue", ast.Continue()
    elif isinstance(statement, ast.Continue):
        yield "continue->break", ast.Break()


def _is_layout(parent: ast.AST, node: ast.AST) -> bool:
    """An f-string's literal text (mutated with the f-string as a whole) or its format spec."""
    return isinstance(parent, (ast.JoinedStr, ast.FormattedValue)) and isinstance(node, (ast.Constant, ast.JoinedStr))


class _Walker:
    """Collects the sites of one tree, front to back."""

    def __init__(self) -> None:
        self.found: list[Site] = []

    def visit(self, parent: ast.AST, field: str, index: int | None, node: ast.AST, scope: str) -> None:
        if isinstance(node, ast.stmt):
            if _is_skipped(node):
                return
            changes = _statement_changes(node)
        elif isinstance(node, ast.expr):
            if _is_layout(parent, node):
                return
            changes = _expression_changes(node)
        else:
            changes = iter(())
        for operator, replacement in changes:
            self.found.append(Site(scope, operator, node, parent, field, index, replacement))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            scope = node.name if scope == "<module>" else f"{scope}.{node.name}"
        for name, value in ast.iter_fields(node):
            if name in ANNOTATION_FIELDS:
                continue
            if isinstance(value, list):
                for position, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        self.visit(node, name, position, item, scope)
            elif isinstance(value, ast.AST):
                self.visit(node, name, None, value, scope)


def sites(tree: ast.Module) -> list[Site]:
    """Every mutation of ``tree``, in a fixed order."""
    walker = _Walker()
    for position, statement in enumerate(tree.body):
        walker.visit(tree, "body", position, statement, "<module>")
    return walker.found


def _segment(lines: list[bytes], node: ast.AST) -> tuple[bytes, bytes, bytes]:
    """The text before the node on its first line, the node's own text, and the text after it on its last line.

    Positions are byte offsets into the UTF-8 source, as :mod:`ast` gives them.
    """
    first, last = lines[node.lineno - 1], lines[node.end_lineno - 1]
    if node.lineno == node.end_lineno:
        return first[:node.col_offset], first[node.col_offset:node.end_col_offset], first[node.end_col_offset:]
    inner = [first[node.col_offset:], *lines[node.lineno:node.end_lineno - 1], last[:node.end_col_offset]]
    return first[:node.col_offset], b"\n".join(inner), last[node.end_col_offset:]


def _one_line(text: bytes) -> str:
    return " ".join(part.strip() for part in text.decode("utf-8").splitlines() if part.strip())


def before_and_after(source: str, site: Site) -> tuple[str, str]:
    """The mutated source line(s), on one line each, as they read before and after the change."""
    lines = source.encode("utf-8").splitlines()
    node = site.node
    if isinstance(node, ast.If):  # the condition and what its body began with, not the whole block
        header = _one_line(lines[node.lineno - 1])
        return f"{header} {_one_line(lines[node.body[0].lineno - 1])}", f"{header} pass"
    prefix, text, suffix = _segment(lines, node)
    return _one_line(prefix + text + suffix), _one_line(prefix + ast.unparse(site.replacement).encode("utf-8") + suffix)
