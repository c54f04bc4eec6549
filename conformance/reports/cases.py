"""One verdict as the reports show it: the structured difference, the rules that decide each field, the model's reasoning.

The HTML and Markdown reports render the same case: every differing leaf
under its JSON path with both values in full (a missing field said to be
absent, never shown as ``null``), the rule ids that decide it with each
rule's title from ``adr/`` where the source tree is at hand, the lines
``gateproof explain`` gives for the first differing step, and the commands
that replay and explain it.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache

from attrs import frozen

from ..program import command
from ..harness.difference import ABSENT, Leaf, differences, echoes, step_of
from ..harness.results import Verdict
from .failure import scenario_context, split_rules, step_explanation


@lru_cache(maxsize=1)
def rule_titles() -> dict[str, str]:
    """Each rule id of ``adr/`` with its title; empty when the package runs without its source tree."""
    from ..generation.reach_rules import ADR_DIR, ENTRY

    if not ADR_DIR.is_dir():
        return {}
    return {m.group("id"): m.group("title") for path in sorted(ADR_DIR.glob("*.md")) for m in ENTRY.finditer(path.read_text("utf-8"))}


def rule_title(rule: str) -> str:
    return rule_titles().get(rule, "")


def json_text(value) -> str:
    """A value in full as indented JSON, or ``absent`` for a field that side lacks."""
    return "absent" if value is ABSENT else json.dumps(value, ensure_ascii=False, indent=1)


@frozen
class Case:
    """A verdict and what the reports say of it beyond its status."""

    verdict: Verdict
    leaves: tuple[Leaf, ...]
    causes: tuple[Leaf | None, ...]  # for each leaf, the earlier one whose change is all of its own (difference.echoed)
    step: int | None  # the first step that differs; None when the outcome differs outside its results, or nothing does
    explanation: tuple[str, ...]  # how the model decides that step

    @property
    def shown(self) -> tuple[tuple[Leaf, Leaf | None], ...]:
        """Each leaf with the earlier one whose change is all of its own, or None: a report may say that instead of both values."""
        return tuple(zip(self.leaves, self.causes))

    @property
    def replay_command(self) -> str | None:
        d = self.verdict.disagreement
        return d.replay_command if d else None

    @property
    def explain_command(self) -> str | None:
        d = self.verdict.disagreement
        return command("explain", d.replay_path) if d and d.replay_path else None

    @property
    def context(self) -> tuple[str, str]:
        """The scenario's family with its rule version, and what it sets out to show (empty for a generated one)."""
        return scenario_context(self.verdict)

    @property
    def answered(self) -> tuple[str, ...]:
        """The rules only the implementation's answer names: its reading, not a rule broken."""
        return tuple(split_rules(self.verdict)[1])

    @property
    def rules(self) -> tuple[str, ...]:
        """The rules of the verdict, in the order every report lists them, without those only the implementation's answer names."""
        return tuple(split_rules(self.verdict)[0])


def case_of(verdict: Verdict, explained: bool = True) -> Case:
    d = verdict.disagreement
    if d is None:
        return Case(verdict, (), (), None, ())
    leaves = tuple(differences(d.expected, d.actual))
    steps = sorted({s for s in map(step_of, leaves) if s is not None})
    step = steps[0] if steps else None
    explanation = tuple(step_explanation(d.scenario, step)) if explained and step is not None else ()
    return Case(verdict, leaves, tuple(echoes(list(leaves))), step, explanation)


def context_lines(verdict: Verdict, tail: int = 20) -> list[tuple[str, str]]:
    """An errored run's circumstances as (label, text): the implementation's stderr tail, its reply, anything else it said."""
    shown = []
    for key, value in verdict.context.items():
        if key == "stderr" and isinstance(value, list):
            shown.append(("stderr", "\n".join(str(line) for line in value[-tail:])))
        else:
            shown.append((key, value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=1)))
    return shown


_SLUG = re.compile(r"[^A-Za-z0-9]+")


def anchor(*parts: object) -> str:
    """An HTML id from ``parts``: only letters, digits and dashes, so foreign text can never leave the attribute."""
    return "-".join(_SLUG.sub("-", str(part)).strip("-") or "x" for part in parts)
