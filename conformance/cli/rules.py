"""``gateproof rules``: the rules as adr/ states them, looked up by the ids the other commands print.

``gateproof rules C144.9`` prints one entry, ``gateproof rules C144`` lists
the rules C144.*, ``gateproof rules`` lists every
id with its title, and ``gateproof rules --versions`` lists what ``--rules``
accepts: the rule versions and the deliberately wrong variants.
"""

from __future__ import annotations

import sys
import textwrap

import click

from ..explanation.adr_entries import Entry, adr_entries
from .options import USAGE_ERROR, unknown_name_message

WIDTH = 100

#: The gateway's versions, as adr/gateway.md introduces them.
GATEWAY_VERSION_LINES = [
    ("lab-001", "the tool-call gateway as the lab shipped it (rules G001.*)"),
    ("lab-001+next", "lab-001 with the checks the lab listed as next steps (rules G002.*)"),
]


def wrapped(text: str, indent: str = "") -> list[str]:
    """Each paragraph of ``text`` wrapped at :data:`WIDTH`, nothing cut."""
    lines = []
    for paragraph in text.split("\n\n"):
        lines += textwrap.wrap(" ".join(paragraph.split()), WIDTH, initial_indent=indent, subsequent_indent=indent,
                               break_long_words=False, break_on_hyphens=False) or [""]
        lines.append("")
    return lines[:-1]


def entry_text(entry: Entry) -> str:
    head = f"{entry.id} — {entry.title}"
    return "\n".join([head, f"  {entry.file}, {entry.section}" if entry.section else f"  {entry.file}", "", *wrapped(entry.text, "  ")])


def listing() -> str:
    entries = adr_entries().values()
    width = max(len(entry.id) for entry in entries)
    lines, file = [], None
    for entry in entries:
        if entry.file != file:
            lines += ([""] if file else []) + [entry.file]
            file = entry.file
        lines.append(f"  {entry.id:<{width}}  {entry.title}")
    return "\n".join(lines + ["", "gateproof rules ID prints one rule's text."])


def versions_text() -> str:
    from ..implementations.wrong.decide import DECIDABLE_VARIANTS, REFUTED

    from gateproof.model.versions import declarations, default_version

    rows = [(declaration.name, declaration.title) for declaration in declarations()] + GATEWAY_VERSION_LINES
    rows = [(name, f"(default) {what}" if name in (default_version(), "lab-001") else what) for name, what in rows]
    width = max(len(name) for name, _ in rows)
    lines = ["rule versions (a scenario's \"rules\"; --rules of decide, explain, prove, diff):"]
    lines += [line for name, what in rows for line in wrapped_row(name, what, width)]
    lines += ["", "deliberately wrong variants (--rules of decide and explain; prove refutes those marked *):"]
    width = max(len(name) for name in DECIDABLE_VARIANTS) + 2
    for name, variant in DECIDABLE_VARIANTS.items():
        mark = "*" if name in REFUTED else " "
        lines += wrapped_row(f"{mark} {name}", variant.description or "", width)
    return "\n".join(lines)


def wrapped_row(name: str, what: str, width: int) -> list[str]:
    text = textwrap.wrap(" ".join(what.split()), WIDTH - width - 4, break_long_words=False, break_on_hyphens=False) or [""]
    return [f"  {name:<{width}}  {text[0]}"] + [f"  {'':<{width}}  {line}" for line in text[1:]]


@click.command(short_help="Rules' texts from adr/ by their ids; every id with no id; --versions for what --rules takes.")
@click.argument("rule_ids", nargs=-1, metavar="[ID]...")
@click.option("--versions", is_flag=True, help="List the rule versions and wrong variants that --rules accepts.")
def rules(rule_ids: tuple[str, ...], versions: bool) -> None:
    """Print each rule ID as adr/ states it (e.g. C144.9 G001.15), in the order given; a prefix (C144, G001) lists its rules with their
    titles; with no ID, list every rule id with its title.

    Exit status 0, or 2 for an unknown id (then nothing is printed).
    """
    if versions:
        click.echo(versions_text())
        return
    if not rule_ids:
        click.echo(listing())
        return
    entries = adr_entries()
    found = []
    for rule_id in rule_ids:
        entry = entries.get(rule_id) or entries.get(rule_id.upper())
        family = [e for key, e in entries.items() if key.upper().startswith(rule_id.upper() + ".")]
        if entry is None and not family:
            click.echo(f"gateproof: error: {unknown_name_message('a rule id', rule_id, entries, 'gateproof rules')}", err=True)
            sys.exit(USAGE_ERROR)
        found.append(entry_text(entry) if entry is not None else family_text(rule_id.upper(), family))
    click.echo("\n\n".join(found))


def family_text(prefix: str, family: list[Entry]) -> str:
    """The rules whose ids begin ``prefix.`` (``C144``: C144.1, C144.2 and on), each with its title, and how to print one's text."""
    width = max(len(entry.id) for entry in family)
    lines = [f"{prefix}.* — {len(family)} rules, in {', '.join(dict.fromkeys(entry.file for entry in family))}"]
    lines += [f"  {entry.id:<{width}}  {entry.title}" for entry in family]
    return "\n".join(lines + [f"gateproof rules {family[0].id} prints one rule's text."])
