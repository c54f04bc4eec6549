"""What verify prints when a campaign ends: the disagreements in full, the errors explained, and a summary that fits the screen.

The summary keeps to the terminal's width (100 columns when output is not a
terminal): one row per implementation expected to conform, the mutants of the
zoo summed up in one row unless a few were driven or one was missed, and the
counterexample of each below the table. Every reports format holds the whole
matrix. Text an implementation wrote is printed as text, never read as markup.

Disagreements are printed security first, then refusals, then the rest
(``harness/severity.py``), each security or refusal one headed by a line that
says what the implementation lets out or holds back; the table counts the
failed scenarios of each class apart, and the line under it says how many of
each an implementation expected to conform has.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..harness.difference import WHOLE, differences
from ..harness.environment import survivors_note
from ..harness.preview import shortened
from ..harness.expectations import CAUGHT, CONFORMANT, scenario_size, smallest_counterexample
from ..harness.results import MOST_ERRORS_KEPT, Tally, Verdict
from ..harness.severity import REFUSAL, SECURITY, SEVERITIES, severity_rank
from .escape import UNSAFE
from .failure import failure_lines, severity_note
from .summary import counted_notes, severity_text, summary_rows

SHOWN = 3  # disagreements printed in full per implementation expected to conform
NOTES_SHOWN = 3  # notes printed under the summary per implementation expected to conform
MUTANTS_LISTED = 5  # up to this many caught mutants get a row of their own
STDERR_LINES = 5
REPLY_SHOWN = 300  # characters of a reply that broke the protocol; results.jsonl keeps more
STYLE = {"conformant": "green", "caught": "cyan", "NOT CONFORMANT": "bold red", "MISSED": "bold red", "unavailable": "yellow",
         "NOTHING DECIDED": "bold red", "INCOMPLETE": "yellow", "DID NOT START": "bold red"}
COUNTED = ("passed", "failed", "known", "nondeterministic", "skipped", "errored")


def visible(text: str) -> str:
    """Text an implementation wrote, each character :data:`escape.UNSAFE` names shown as an escape: it can neither move the cursor nor colour the screen."""
    return UNSAFE.sub(lambda match: f"\\x{ord(match.group()):02x}" if ord(match.group()) < 0x100 else f"\\u{ord(match.group()):04x}", text)


def width() -> int:
    """The terminal's width, or ``COLUMNS``, or 100 when the output goes to a file or a pipe."""
    return shutil.get_terminal_size((100, 24)).columns


def console() -> Console:
    return Console(width=width(), highlight=False)


def errors_by_reason(tally: Tally) -> dict[str, tuple[int, Verdict]]:
    """Each distinct reason a kept run errored, in order first seen: how often, and the first run it was given for (the rest are not held)."""
    found: dict[str, tuple[int, Verdict]] = {}
    for verdict in tally.verdicts:
        if verdict.status == "errored":
            count, first = found.get(verdict.message, (0, verdict))
            found[verdict.message] = (count + 1, first)
    return found


def errored_lines(tally: Tally, limit: int = 6) -> list[str]:
    """Each distinct reason a run errored, how often, one case it happened on, and what the implementation last said on stderr."""
    total = tally.counts()["errored"]
    if not total:
        return []
    by_reason = errors_by_reason(tally)
    kept = sum(count for count, _ in by_reason.values())
    reasons = f"{len(by_reason)} reason{'s' * (len(by_reason) != 1)}"
    lines = [f"{tally.name}: {total} errored run{'s' * (total != 1)}, for {reasons}:" if kept == total
             else f"{tally.name}: {total} errored runs; the {kept} kept in results.jsonl are for {reasons}:"]
    for reason, (count, first) in list(by_reason.items())[:limit]:
        lines.append(f"  {shortened(reason, WHOLE)}")
        lines.append(f"    {count} recorded, for example {first.scenario_id} ({first.family})")
        # The context is the implementation's as much as verify's: any JSON value may stand where a text or a list of lines is written.
        told = first.context.get("stderr")
        stderr = [text for text in map(str, told if isinstance(told, list) else ()) if text.strip()][-STDERR_LINES:]
        lines += [f"    stderr: {shortened(line, WHOLE)}" for line in stderr]
        if "reply" in first.context:
            reply = first.context["reply"] if isinstance(first.context["reply"], str) else json.dumps(first.context["reply"])
            more = f" ... ({len(reply) - REPLY_SHOWN} characters more in results.jsonl)" if len(reply) > REPLY_SHOWN else ""
            lines.append(f"    reply: {reply[:REPLY_SHOWN]}{more}")
        if isinstance(first.context.get("replay"), str):
            lines.append(f"    replay:  {first.context['replay']}")
    if len(by_reason) > limit:
        lines.append(f"  ... and {len(by_reason) - limit} more reasons: see the report")
    if kept < total:
        lines.append(f"  {total - kept} more among the generated scenarios were counted, not kept: each rule version keeps its first "
                     f"{MOST_ERRORS_KEPT} distinct errors")
    return lines


def counterexample_line(verdict: Verdict) -> str:
    """A caught mutant in one line: where its smallest counterexample differs first."""
    leaves = differences(verdict.disagreement.expected, verdict.disagreement.actual)
    where = f"{leaves[0].path} [{', '.join(leaves[0].rules) or '-'}]" if leaves else verdict.message
    return f"{verdict.implementation} caught by {verdict.scenario_id}: {where}"


def disagreements_counted(name: str, failing: int, kept: list[Verdict], shown: int) -> str:
    """How the summary's failed count relates to the disagreements shown: a generated failure in fields a kept one differs in is counted, not kept."""
    counted = max(0, failing - sum(v.status == "failed" for v in kept))
    kept_as = "1 kept as a disagreement" if len(kept) == 1 else f"{len(kept)} kept as disagreements"
    parts = [f"{name}: {failing} failed scenario{'s' * (failing != 1)}", f"{kept_as}, {shown} shown above"]
    if counted:
        parts.append(f"{counted} more counted only, each differing in fields a kept one differs in")
    return "; ".join(parts) + "; every kept one is in results.jsonl and the reports"


def disagreement_sections(tallies: list[Tally], columns: int, shown: int = SHOWN) -> list[list[str]]:
    """The disagreements to print in full: up to ``shown`` for each implementation expected to conform."""
    sections = []
    for tally in tallies:
        if tally.expected != CONFORMANT:
            continue
        found = distinct_first([v for v in tally.verdicts if v.disagreement is not None and v.status != "known"])
        printed = found[:shown]
        sections += [noted_lines(verdict, columns) for verdict in printed]
        unshown = sum(v.disagreement.severity == SECURITY for v in found[shown:])
        if unshown:
            sections.append([f"{tally.name}: {unshown} more security disagreement{'s' * (unshown != 1)} not shown: --verbose prints "
                             "every one, and results.jsonl and the reports hold them"])
        failing = tally.counts()["failed"]
        if failing > len(printed):
            sections.append([disagreements_counted(tally.name, failing, found, len(printed))])
    return sections


def noted_lines(verdict: Verdict, columns: int) -> list[str]:
    """A disagreement in full, headed by what it lets out or holds back when it is a security or refusal one."""
    note = severity_note(verdict)
    return (textwrap.wrap(note, columns, subsequent_indent="  ") if note else []) + failure_lines(verdict, columns)


def distinct_first(verdicts: list[Verdict]) -> list[Verdict]:
    """The disagreements, security ones first, then refusals, then the rest; within each, those differing in fields not
    seen before first, a boundary case or else the smallest of each kind leading.

    Forty corpus cases that all differ in one audit field are one fault: the
    reader sees it once, then the next fault, not forty copies of the first.
    A corpus boundary case (``*.boundary.*``) is named by the rule and the side
    of it it tests, so it says what is wrong before its fields are read. A
    security disagreement comes before all of them, however many share a cause.
    """
    ordered = sorted(verdicts, key=lambda v: (".boundary." not in v.scenario_id, scenario_size(v.disagreement.scenario)))
    chosen = []
    for rank in range(len(SEVERITIES) + 1):
        seen, first, rest = set(), [], []
        for verdict in (v for v in ordered if severity_rank(v.disagreement.severity) == rank):
            paths = tuple(re.sub(r"^results\[\d+\]", "results[]", leaf.path)
                          for leaf in differences(verdict.disagreement.expected, verdict.disagreement.actual))
            (rest if paths in seen else first).append(verdict)
            seen.add(paths)
        chosen += first + rest
    return chosen


def _row(label: str, verdict: str, counts: dict, statuses: tuple[str, ...]) -> list:
    style = STYLE.get(verdict, "")
    return [Text(visible(label), overflow="fold"), Text(verdict, style=style), *(Text(str(counts[s]) if counts[s] else "-") for s in statuses)]


def summary_table(tallies: list[Tally], every_row: bool = False) -> Table:
    """One row per implementation expected to conform and per mutant worth a look; the caught mutants summed up in one row."""
    rows = summary_rows(tallies)
    # Passed and failed always, and the failures' classes beside them once any failed; a status no implementation has costs a column for nothing.
    statuses = tuple(s for s in COUNTED if s in ("passed", "failed") or any(r[s] for r in rows))
    if any(r["failed"] for r in rows):
        statuses = statuses[:2] + (SECURITY, REFUSAL) + statuses[2:]
    table = Table(title="gateproof verify", title_justify="left")
    table.add_column("implementation", overflow="fold")
    table.add_column("verdict", no_wrap=True)
    for status in statuses:
        table.add_column("nondet." if status == "nondeterministic" else status, justify="right", no_wrap=True)
    mutants = [(t, r) for t, r in zip(tallies, rows) if t.expected == CAUGHT]
    summed = [(t, r) for t, r in mutants if r["verdict"] == "caught"] if len(mutants) > MUTANTS_LISTED and not every_row else []
    for tally, row in zip(tallies, rows):
        if (tally, row) not in summed:
            table.add_row(*_row(tally.name, row["verdict"], row, statuses))
    if summed:
        total = {s: sum(r[s] for _, r in summed) for s in (*COUNTED, SECURITY, REFUSAL)}
        table.add_row(*_row(f"{len(summed)} mutants", f"{len(summed)} caught", total, statuses))
    return table


def print_summary(tallies: list[Tally], out: Console, everything: bool = False) -> None:
    """Disagreements in full, then the errors explained, the counterexamples of the caught mutants, and the summary last.

    ``everything``: every disagreement, and every mutant's counterexample and row.
    """
    columns = out.width
    sections = disagreement_sections(tallies, columns, 10**9 if everything else SHOWN) + list(filter(None, map(errored_lines, tallies)))
    for section in sections:
        # Wrapped already where it may be; a command line stays one line, so it can be copied whole.
        for line in section:
            out.print(Text(visible(line)), soft_wrap=True)
        out.print()
    mutants = [t for t in tallies if t.expected == CAUGHT]
    caught = [smallest_counterexample(t) for t in mutants]
    if mutants and (len(mutants) <= MUTANTS_LISTED or everything):
        for verdict in filter(None, caught):
            out.print(Text(visible(counterexample_line(verdict))))  # wrapped to the width; the replay below stays one line to copy
            if verdict.disagreement.replay_command:
                out.print(Text(visible(f"  replay:  {verdict.disagreement.replay_command}")), soft_wrap=True)
    missed = [t.name for t, v in zip(mutants, caught) if v is None and not t.unavailable]
    if missed:
        out.print(Text(visible(f"missed (no disagreement found): {', '.join(missed)}"), style="bold red"))
    for tally in tallies:
        if tally.lost and not tally.unavailable:
            out.print(Text(visible(f"{tally.name}: {tally.lost}"), style="bold red"))
    print_table(tallies, out, every_row=everything)
    for tally in tallies:
        if tally.expected != CAUGHT:
            print_notes(tally, out, 10**9 if everything else NOTES_SHOWN)


def print_notes(tally: Tally, out: Console, shown: int) -> None:
    """An implementation's first notes: why fewer scenarios were generated than asked, what it does not declare, what it skipped."""
    notes = counted_notes(tally)
    for note in notes[:shown]:
        out.print(Text(visible(f"{tally.name}: {note}")))
    if len(notes) > shown:
        out.print(Text(visible(f"{tally.name}: {len(notes) - shown} more notes: --verbose prints them, and the reports hold them")))


def print_table(tallies: list[Tally], out: Console, every_row: bool = False) -> None:
    """The summary table, and under it the failed scenarios of each implementation expected to conform by class, in red when any is security."""
    out.print(summary_table(tallies, every_row=every_row))
    for tally in tallies:
        if tally.outlived:
            out.print(Text(visible(f"{tally.name}: {survivors_note(tally.outlived)}"), style="bold red"))
        if tally.expected != CAUGHT and tally.counts()["failed"]:
            out.print(Text(visible(f"{tally.name}: {severity_text(tally)}"), style="bold red" if tally.severities()[SECURITY] else ""))

