"""The rule entries of adr/, as shipped with the package: each id with its title, its text and where it stands.

The same files are the source tree's ``adr/`` folder; an installed package
carries them as ``gateproof.adr`` (see ``pyproject.toml``), so a rule id a
command prints can be looked up without a clone.
"""

from __future__ import annotations

import importlib.util
import re
from functools import cache
from pathlib import Path

from attrs import frozen

from ..generation.reach_rules import ENTRY

SECTION = re.compile(r"^## (?P<title>.+)$", re.M)


@frozen
class Entry:
    """One rule as ``adr/`` states it."""

    id: str
    title: str
    text: str  # the entry's body, *Implemented by* line included
    file: str  # adr/ceiling.md
    section: str  # the heading of the part it stands in


def _entries_of(name: str, text: str) -> list[Entry]:
    headings = list(ENTRY.finditer(text))
    sections = list(SECTION.finditer(text))
    entries = []
    for heading, following in zip(headings, headings[1:] + [None]):
        end = len(text)
        after = [s.start() for s in sections if s.start() > heading.end()]
        if following is not None:
            end = following.start()
        if after:
            end = min(end, after[0])
        section = [s["title"] for s in sections if s.start() < heading.start()]
        entries.append(Entry(heading["id"], heading["title"], text[heading.end():end].strip(), f"adr/{name}", section[-1] if section else ""))
    return entries


@cache
def adr_folder() -> Path:
    """The folder of the shipped adr/ files: ``gateproof.adr``, a folder of data with no module of its own."""
    import gateproof

    spec = importlib.util.find_spec("gateproof.adr")
    folders = [Path(place) for place in (spec.submodule_search_locations or ()) if Path(place).is_dir()] if spec else []
    # A regular package hides a data folder from the import system in an editable install: look where each layout puts it.
    here = Path(gateproof.__file__).resolve().parent
    folders += [folder for folder in (here / "adr", here.parent / "adr") if (folder / "ceiling.md").is_file()]
    if not folders:
        raise FileNotFoundError("the adr/ files are not installed with gateproof (package gateproof.adr)")
    return folders[0]


@cache
def adr_entries() -> dict[str, Entry]:
    """Every rule entry of the shipped adr/ files, by id, in file then text order."""
    folder = adr_folder()
    entries: dict[str, Entry] = {}
    for path in sorted(folder.glob("*.md")):
        for entry in _entries_of(path.name, path.read_text(encoding="utf-8")):
            entries[entry.id] = entry
    return entries
