"""One disagreement as a person reads it on a terminal: every differing field in full, its rules, the model's reasoning, the commands.

The reader should not need to open a file to see what differs: each leaf is
shown under its JSON path with both values, whole up to 2,000 characters
(a longer one is cut before it is written or wrapped, so a 30 MB reply
prints as fast as a short one; results.jsonl holds it whole), a
missing field said to be absent, and the explanation the model gives for the
step that differs, so the rule that decides the answer is on screen.
"""

from __future__ import annotations

import textwrap

from gateproof.model.scenario import ScenarioError, read_scenario

from ..harness.difference import WHOLE, Leaf, differences, echo_text, echoes, parting, step_of, value_text
from ..harness.preview import shortened
from ..harness.protocol import scenario_rules
from ..harness.results import Verdict
from ..harness.severity import REFUSAL, SECURITY, classify
from ..program import command

SHOWN_LEAVES = 8  # differing fields printed per disagreement; the reports list them all


#: What the model writes from its decision rather than how it decides; the terminal leaves it to the differing fields and explain.
WRITTEN = {"message": "message", "exception": "exception", "audit": "audit record"}


def step_explanation(scenario: dict, step: int, written: bool = True) -> list[str]:
    """The lines ``gateproof explain`` gives for the step at ``step`` (counted from 0); empty when it has none.

    Without ``written``, the texts and records the model writes (WRITTEN) are
    left out and one line says which, and where they are.
    """
    from ..explanation.explain import explained
    from ..explanation.trace import applied_lines

    try:
        steps = explained(read_scenario(scenario)).steps
    except ScenarioError:
        return []
    if step >= len(steps):
        return []
    applied = steps[step].applied
    kept = [a for a in applied if written or a.id not in WRITTEN]
    left = list(dict.fromkeys(WRITTEN[a.id] for a in applied if a not in kept))
    lines = [f"step {steps[step].number}: {steps[step].says}"] + [line for a in kept for line in applied_lines(a)]
    if left:
        said = " and the ".join([", the ".join(left[:-1]), left[-1]] if len(left) > 1 else left)
        lines.append(f"  then it writes the {said} (explain shows {'them' if len(left) > 1 else 'it'})")
    return lines


def wrapped(label: str, text: str, width: int, indent: str) -> list[str]:
    """``label  text``, the text wrapped under itself at ``width`` columns after a space where it can be, every character kept."""
    head = f"{indent}{label}  "
    room = max(20, width - len(head))
    pieces = textwrap.wrap(text, room, expand_tabs=False, replace_whitespace=False, drop_whitespace=False, break_on_hyphens=False) or [""]
    return [head + pieces[0], *(" " * len(head) + piece for piece in pieces[1:])]


def leaf_lines(leaf: Leaf, width: int, cause: Leaf | None = None) -> list[str]:
    """A differing field: its path and rules, then both values whole, or, when ``cause``'s change is all of its own, that in one line."""
    rules = f"  [{', '.join(leaf.rules)}]" if leaf.rules else ""
    path = shortened(leaf.path, WHOLE)  # a key may be as long as a document
    if cause is not None:
        return [f"    {path}{rules}", *textwrap.wrap(echo_text(leaf, cause), width, initial_indent="      ", subsequent_indent="          ")]
    lines = [f"    {path}{rules}", *wrapped("expected", value_text(leaf.expected), width, "      "),
             *wrapped("actual  ", value_text(leaf.actual), width, "      ")]
    where = parting(leaf.expected, leaf.actual)
    return lines + (textwrap.wrap(where, width, initial_indent="      ", subsequent_indent="          ") if where else [])


def answered_rules(d) -> list[str]:
    """The rules a call result of the implementation names at the step that differs and the model's does not: its reading, not the rule broken."""
    def rule_at(outcome: dict):
        results = outcome.get("results") if isinstance(outcome, dict) else None
        if d.step is None or not isinstance(results, list) or d.step >= len(results) or not isinstance(results[d.step], dict):
            return None
        rule = results[d.step].get("rule")
        return rule if isinstance(rule, str) else None

    theirs = rule_at(d.actual)
    return [theirs] if theirs is not None and theirs != rule_at(d.expected) else []


def split_rules(verdict: Verdict) -> tuple[list[str], list[str]]:
    """The verdict's rules: those at stake, and apart those only the implementation's answer names."""
    theirs = [] if verdict.disagreement is None else answered_rules(verdict.disagreement)
    return [rule for rule in verdict.rules if rule not in theirs], theirs


def rules_line(verdict: Verdict) -> str:
    """The verdict's rules as every report says them: the rules broken, then apart those only the implementation's answer names."""
    ours, theirs = split_rules(verdict)
    return f"rules: {', '.join(ours) or '-'}" + (f"; the implementation's answer names {', '.join(theirs)}" if theirs else "")


def scenario_context(verdict: Verdict) -> tuple[str, str]:
    """Where a disagreement's scenario comes from, with the rule version it is decided under, and what it sets out to show (empty
    for a generated one)."""
    d = verdict.disagreement
    where = verdict.family
    if d is not None and (version := scenario_rules(d.scenario)) not in where:
        where += f", under {version}"
    description = d.scenario.get("description") if d is not None else None
    return where, description if isinstance(description, str) else ""


def severity_reason(verdict: Verdict) -> str | None:
    """What a security or refusal disagreement lets out or holds back, where, and the rules that say it may not; empty when
    the class was recorded by another gateproof and reads otherwise now; None for any other verdict."""
    d = verdict.disagreement
    if d is None or d.severity not in (SECURITY, REFUSAL):
        return None
    found_class, found = classify(d.expected, d.actual, d.scenario)
    if found_class != d.severity or not found:
        return ""
    return found[0].text(d.severity) + (f" (and {len(found) - 1} more)" if len(found) > 1 else "")


def severity_note(verdict: Verdict) -> str | None:
    """A security or refusal disagreement in one line, its class first: ``SECURITY: step 0: allows a call ...``; None for another."""
    reason = severity_reason(verdict)
    if reason is None:
        return None
    return f"{verdict.disagreement.severity.upper()}" + (f": {reason}" if reason else "")


def heading_lines(verdict: Verdict, width: int) -> list[str]:
    """What was run: the implementation, the verdict, the scenario with its family and rule version, and what a corpus case sets out to show."""
    where, description = scenario_context(verdict)
    lines = [f"{verdict.implementation} {verdict.status}: {verdict.scenario_id}  ({where})"]
    return lines + (wrapped("case", shortened(description, WHOLE), width, "  ") if description else [])


def failure_lines(verdict: Verdict, width: int = 100, explained: bool = True) -> list[str]:
    """A disagreement in full for the terminal: header, differing fields, the model's reasoning, the replay, explain and rules commands."""
    d = verdict.disagreement
    lines = [*heading_lines(verdict, width), f"  {rules_line(verdict)}"]
    if d is None:
        lines += wrapped("message", shortened(verdict.message, WHOLE), width, "  ")
        return lines
    leaves = differences(d.expected, d.actual)
    steps = sorted({step_of(leaf) for leaf in leaves if step_of(leaf) is not None})
    where = "the outcome" if not steps else f"step {steps[0]}" + (f" (and {len(steps) - 1} later)" if len(steps) > 1 else "")
    lines.append(f"  {where} differs in {len(leaves)} field{'s' * (len(leaves) != 1)}:")
    for leaf, cause in list(zip(leaves, echoes(leaves)))[:SHOWN_LEAVES]:
        lines += leaf_lines(leaf, width, cause)
    if len(leaves) > SHOWN_LEAVES:
        lines.append(f"    ... and {len(leaves) - SHOWN_LEAVES} more: every one is in the report")
    if explained and steps:
        trace = step_explanation(d.scenario, steps[0], written=False)
        if trace:
            lines.append(f"  how the model decides step {steps[0]} (gateproof explain):")
            lines += [line for text in trace for line in textwrap.wrap(text, width, initial_indent="    | ",
                                                                         subsequent_indent="    |     ", drop_whitespace=False) or ["    |"]]
    if d.replay_command:
        lines.append(f"  replay:  {d.replay_command}")
    if d.replay_path:
        lines.append(f"  explain: {command('explain', d.replay_path)}")
    named = list(dict.fromkeys([*verdict.rules, *(rule for leaf in leaves for rule in leaf.rules)]))
    if named:
        lines.append(f"  rule texts: {command('rules', *named)}")
    return lines

