"""The Markdown report: a summary that fits a pull-request comment (at most 65,536 characters), details collapsed.

The summary table and the compliance matrix come first; then one collapsed
``<details>`` block per implementation with something to read, holding its
disagreements smallest and most distinct first, as many as the budget allows
(a few per implementation expected to conform, one per mutant), each saying
how many more there are and the command that renders them all as HTML.
Foreign text is escaped for tables, headings and ``<summary>``; code blocks
use a fence longer than any backtick run inside them, so no message can
close one.

Security disagreements (``harness/severity.py``) come first wherever cases are
listed, then refusals: the summary table counts both apart beside the failed
column, each implementation's ``<summary>`` says how many of each it has, and
each such case's line opens with **SECURITY** or **REFUSAL** and says what it
lets out or holds back.
"""

from __future__ import annotations

import html

from ..harness.difference import echo_text, parting, value_text
from ..harness.expectations import CAUGHT, smallest_counterexample
from ..harness.results import STATUSES, Tally, Verdict, disagreeing
from ..harness.severity import REFUSAL, SECURITY
from .campaign import RecordedCampaign
from .cases import case_of
from .failure import rules_line, scenario_context, severity_reason
from .escape import fenced, markdown_inline, one_line
from .summary import cell_text, counted_notes, matrix, summary_rows
from .terminal import distinct_first, errored_lines

LIMIT = 60_000  # characters: below a pull-request comment's 65,536, with room for what a CI adds around it
CASES = {"conformant": 5, CAUGHT: 1}  # cases shown in full per implementation, by what is expected of it
LEAVES = 8  # differing fields shown per case
VALUE = 600  # characters of one value shown
EXPLANATION = 60  # lines of the model's explanation shown: a whole step, as the terminal shows it, unless its world is large


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    cells = [[markdown_inline(str(c)) for c in row] for row in [header, *rows]]
    return ["| " + " | ".join(cells[0]) + " |", "|" + " --- |" * len(header), *("| " + " | ".join(row) + " |" for row in cells[1:])]


def _cut(text: str) -> str:
    return text if len(text) <= VALUE else f"{text[:VALUE]}… ({len(text) - VALUE} more characters in the HTML report)"


def case_lines(verdict: Verdict) -> list[str]:
    """One case: its status, id and rules, the differing fields in a code block, the model's reasoning, the replay command."""
    case = case_of(verdict)
    where, description = scenario_context(verdict)
    reason = severity_reason(verdict)
    marker = f"**{verdict.disagreement.severity.upper()}** " if reason is not None else ""
    lines = [f"{marker}**{verdict.status}** {markdown_inline(verdict.scenario_id)} ({markdown_inline(where)}): {markdown_inline(verdict.message)}", ""]
    lines += [f"{verdict.disagreement.severity}: {markdown_inline(reason)}", ""] if reason else []
    lines += [f"case: {markdown_inline(description)}", ""] if description else []
    lines += [markdown_inline(rules_line(verdict)), ""]
    if case.leaves:
        body = []
        for leaf, cause in case.shown[:LEAVES]:
            body.append(f"{leaf.path}  [{', '.join(leaf.rules) or '-'}]")
            if cause is not None:
                body.append(f"  {echo_text(leaf, cause)}")
                continue
            # One line a value, as the terminal shows it: indented JSON under a label loses its indent to the label's.
            body += [f"  expected: {_cut(value_text(leaf.expected))}", f"  actual:   {_cut(value_text(leaf.actual))}"]
            body += [f"  {where}" for where in filter(None, [parting(leaf.expected, leaf.actual)])]
        if len(case.leaves) > LEAVES:
            body.append(f"... and {len(case.leaves) - LEAVES} more fields in the HTML report")
        lines += [*fenced("\n".join(body)), ""]
    if case.explanation:
        shown = list(case.explanation[:EXPLANATION]) + [f"... {len(case.explanation) - EXPLANATION} more lines"] * (len(case.explanation) > EXPLANATION)
        lines += [f"how the model decides step {case.step} (gateproof explain):", "", *fenced("\n".join(shown)), ""]
    commands = [c for c in (case.replay_command, case.explain_command) if c]
    if commands:
        lines += [*fenced("\n".join(commands), "sh"), ""]
    return lines


def chosen(tally: Tally) -> list[Verdict]:
    """The disagreements of an implementation in the order they are worth reading: for a mutant its smallest counterexample first."""
    found = [v for v in disagreeing(tally.verdicts) if v.status != "known"]
    ordered = distinct_first(found)
    smallest = smallest_counterexample(tally) if tally.expected == CAUGHT else None
    return ([smallest] + [v for v in ordered if v is not smallest]) if smallest else ordered


def header_lines(campaign: RecordedCampaign) -> list[str]:
    took = f"{campaign.seconds:.1f} s" if campaign.seconds is not None else "unfinished"
    lines = ["# gateproof verify", "", f"gateproof {markdown_inline(campaign.version)} · started {markdown_inline(campaign.started)} · {took}", ""]
    if not campaign.complete:
        lines += [f"> **{markdown_inline(campaign.incomplete_text)}**", ""]
    lines += [" · ".join(f"{markdown_inline(k)}: {markdown_inline(v)}" for k, v in campaign.settings_lines()), ""]
    rows = summary_rows(list(campaign.tallies))
    # Passed and failed always; a status no implementation has costs a column for nothing.
    statuses = [s for s in STATUSES if s in ("passed", "failed") or any(row[s] for row in rows)]
    if any(row["failed"] for row in rows):  # the failures' classes beside them
        statuses[2:2] = [SECURITY, REFUSAL]
    columns = ["implementation", "expected", "verdict", *statuses, "passing", "seconds", "counterexample"]
    cells = [[row["implementation"], row["expected"], row["verdict"], *(row[s] or "-" for s in statuses), row["passing"], f"{tally.seconds:.1f}",
              row["counterexample"]] for row, tally in zip(rows, campaign.tallies)]
    return lines + table(columns, cells)


def matrix_lines(tallies: list[Tally]) -> list[str]:
    families, cells = matrix(tallies)
    return ["", "## Compliance matrix", "", *table(["family", *(t.name for t in tallies)],
                                                  [[f, *(cell_text(cells[f].get(t.name)) for t in tallies)] for f in families])]


def implementation_block(tally: Tally, budget: int, more_command: str) -> list[str]:
    """The collapsed block of one implementation, at most ``budget`` characters; empty when it has nothing to show."""
    found = chosen(tally)
    errors = errored_lines(tally) if tally.expected != CAUGHT else []
    if not (found or errors or tally.lost or tally.notes):
        return []
    counts = tally.counts()
    classes = tally.severities()
    said = ", ".join([*(f"{classes[c]} {c}" for c in (SECURITY, REFUSAL) if classes[c]),
                      *(f"{counts[s]} {s}" for s in STATUSES if counts[s] and s != "passed")]) or "nothing to show"
    lines = ["", f"<details><summary><b>{html.escape(one_line(tally.name))}</b>: {html.escape(said)}</summary>", ""]
    lines += [f"- lost: {markdown_inline(tally.lost)}" for _ in [tally.lost] if tally.lost] + [f"- note: {markdown_inline(n)}" for n in counted_notes(tally)]
    if errors:
        lines += ["", *fenced("\n".join(errors))]
    closing = ["", "</details>"]
    shown = 0
    for verdict in found[:CASES.get(tally.expected, 1)]:
        block = ["", *case_lines(verdict)]
        if sum(map(len, lines + block + closing)) + len(lines) + len(block) + 200 > budget:
            break
        lines += block
        shown += 1
    if len(found) > shown:
        lines += ["", f"{len(found) - shown} more disagreement{'s' * (len(found) - shown != 1)} of this implementation, every one in the HTML report:",
                  "", *fenced(more_command, "sh")]
    lines += closing
    return lines if sum(map(len, lines)) + len(lines) <= budget else []


def markdown_report(campaign: RecordedCampaign) -> str:
    tallies = list(campaign.tallies)
    lines = header_lines(campaign)
    grid = matrix_lines(tallies)
    more_command = campaign.report_command("html", "report.html")
    if sum(map(len, lines + grid)) + len(lines + grid) < LIMIT // 2:
        lines += grid
    else:
        lines += ["", "The compliance matrix is too wide for this summary: it is in the HTML report.", "", *fenced(more_command, "sh")]
    left_out = []
    details = ["", "## Details"]
    for tally in tallies:
        used = sum(map(len, lines + details)) + len(lines + details)
        block = implementation_block(tally, LIMIT - used - 1_000, more_command)
        if block:
            details += block
        elif chosen(tally) or tally.lost:
            left_out.append(tally.name)
    if left_out:
        details += ["", f"Left out to keep this summary short: {markdown_inline(', '.join(left_out))}; every one is in the HTML report:", "",
                    *fenced(more_command, "sh")]
    return "\n".join(lines + (details if len(details) > 2 else [])) + "\n"
