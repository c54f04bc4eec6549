"""The explained trace as data: per step, each rule applied with its ids, what it read and what it gave.

``gateproof explain`` prints it as text and ``gateproof explain --json`` as
a document valid against ``conformance/schema/explain-trace.schema.json``;
both come from the same :class:`Applied` values, so they cannot disagree.
Steps count from 0, as the outcome's ``results`` and ``gateproof diff`` do.
Values are shown as JSON, whole up to 2,000 characters (``harness/preview.py``):
a longer one is cut before it is written or wrapped, so explaining costs the
same for a 16 MiB value as for a short one; ``--json`` keeps every value whole
in what each rule read and gave. A long line is wrapped.
"""

from __future__ import annotations

import textwrap

from attrs import field, frozen

from ..harness.preview import preview

FORMAT_VERSION = 1
WIDTH = 100


#: Where a value cut in the text is whole.
WHOLE = "explain --json shows it whole"


def shown(value: object) -> str:
    """A value as JSON: ``{"active": false}``, ``null``, ``[]``; past 2,000 characters, its start and where it is whole."""
    return preview(value, WHOLE)


@frozen
class Applied:
    """One rule (or a few that act together) applied in a step: its stable id, what it says, what it read and gave."""

    id: str  # one of the ids the schema lists: "fold", "zone", "checks", ...
    says: str
    rules: tuple[str, ...] = field(default=(), converter=tuple)
    details: tuple[str, ...] = field(default=(), converter=tuple)
    inputs: dict = field(factory=dict)
    result: object = None

    def document(self) -> dict:
        return {"id": self.id, "rules": list(self.rules), "says": self.says, "details": list(self.details),
                "inputs": self.inputs, "result": self.result}


@frozen
class ExplainedStep:
    number: int  # from 0
    op: str
    says: str
    applied: tuple[Applied, ...] = field(converter=tuple)
    result: dict = field(factory=dict)  # the step's result, as the outcome has it

    def document(self) -> dict:
        return {"step": self.number, "op": self.op, "says": self.says, "applied": [a.document() for a in self.applied], "result": self.result}


@frozen
class Explained:
    scenario: str
    rules: str  # the rules it is explained under, as given: a version or a wrong: variant
    kind: str  # "ceiling" or "gateway"
    description: str
    steps: tuple[ExplainedStep, ...] = field(converter=tuple)
    notes: tuple[str, ...] = field(default=(), converter=tuple)  # what the rules are, when they are not a version

    def document(self) -> dict:
        return {"gateproof": FORMAT_VERSION, "explains": self.kind, "scenario": self.scenario, "rules": self.rules,
                "description": self.description, "notes": list(self.notes), "steps": [s.document() for s in self.steps]}


def wrapped(line: str) -> list[str]:
    """The line as it is when it fits :data:`WIDTH`; otherwise wrapped under its own indent, every character kept."""
    if len(line) <= WIDTH:
        return [line]
    indent = " " * (len(line) - len(line.lstrip()))
    return textwrap.wrap(line, WIDTH, subsequent_indent=indent + "    ", break_on_hyphens=False, drop_whitespace=True) or [line]


def applied_lines(applied: Applied) -> list[str]:
    rules = f"  [{', '.join(applied.rules)}]" if applied.rules else ""
    return [f"  {applied.says}{rules}"] + [f"    {detail}" for detail in applied.details]


def text_of(explained: Explained) -> str:
    """The trace as a person reads it: a heading, then each step's rules in the order they were applied."""
    what = "gateway scenario" if explained.kind == "gateway" else "scenario"
    lines = [f"{what} {explained.scenario} under rules {explained.rules}"]
    lines += [f"  {note}" for note in explained.notes]
    if explained.description:
        lines.append(f"  {explained.description}")
    for step in explained.steps:
        lines += ["", f"step {step.number}: {step.says}"]
        for applied in step.applied:
            lines += applied_lines(applied)
    return "\n".join(piece for line in lines for piece in wrapped(line))
