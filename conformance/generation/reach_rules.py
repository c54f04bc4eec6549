"""Each rule id of adr/ with the model functions its ``*Implemented by*`` line names, as coverage.py names them.

The project reads its own adr/ folder, beside the packages in the source
tree. A name may be a function, a property (its getter is measured) or a
class: a class is measured through the methods its own body defines, so an
enum that only lists its members is a definition with no code to reach.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from types import FunctionType

from attrs import frozen

ADR_DIR = Path(__file__).resolve().parents[2] / "adr"
ENTRY = re.compile(r"^### (?P<id>[A-Z]\d{3}\.\d+) — (?P<title>.+)$", re.M)
IMPLEMENTED = re.compile(r"^\*Implemented by\* (?P<names>.+)$", re.M)


@frozen
class RuleFunction:
    """One function a rule names: where it is, and the name coverage.py gives its region in a file."""

    dotted: str  # as adr/ names it, or the class's name with the method's
    function: FunctionType
    file: Path
    region: str  # the qualified name without ``<locals>``, the key of coverage's per-function report

    @property
    def code(self):
        return self.function.__code__


@frozen
class Rule:
    id: str
    title: str
    names: tuple[str, ...]  # the dotted names the entry gives
    functions: tuple[RuleFunction, ...]  # empty for a rule implemented by a definition alone


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            target = getattr(target, attribute)
        return target
    raise ImportError(f"nothing importable in {dotted}")


def rule_function(dotted: str, function: FunctionType) -> RuleFunction:
    return RuleFunction(dotted, function, Path(inspect.getsourcefile(function)).resolve(), function.__qualname__.replace(".<locals>", ""))


def functions_named(dotted: str) -> tuple[RuleFunction, ...]:
    target = resolve(dotted)
    if isinstance(target, property):
        target = target.fget
    if inspect.isfunction(target):
        return (rule_function(dotted, target),)
    if inspect.isclass(target):
        members = [m.fget if isinstance(m, property) else m for m in vars(target).values()]
        return tuple(rule_function(f"{dotted}.{m.__name__}", m) for m in members if inspect.isfunction(m) and m.__module__ == target.__module__)
    raise TypeError(f"{dotted} is neither a function, a property nor a class")


def read_rules(adr_dir: Path = ADR_DIR) -> list[Rule]:
    """Every rule id in ``adr_dir``'s files that has an *Implemented by* line, in file then text order."""
    if not adr_dir.is_dir():
        raise FileNotFoundError(f"no adr/ folder at {adr_dir}: the measurement reads the rules from the source tree")
    rules = []
    for path in sorted(adr_dir.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        entries = list(ENTRY.finditer(text))
        for entry, following in zip(entries, entries[1:] + [None]):
            body = text[entry.end(): following.start() if following else len(text)]
            implemented = IMPLEMENTED.search(body)
            if implemented is None:
                continue
            names = tuple(re.findall(r"`([^`]+)`", implemented["names"]))
            functions = tuple(f for name in names for f in functions_named(name))
            rules.append(Rule(entry["id"], entry["title"], names, functions))
    return rules
