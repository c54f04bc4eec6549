"""The README stays a front door, and every relative link of the README, docs/ and adr/ leads somewhere that exists.

The README is at most 200 lines and shows `gateproof verify` on its first
screen; it indexes every guide in docs/, adr/README.md indexes every file of
adr/, and every path the layout of docs/layout.md names is in the tree.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LINKED = (README, *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "adr").glob("*.md")))
LINK = re.compile(r"\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)\)")


def test_the_readme_is_at_most_200_lines_and_shows_gateproof_verify_on_its_first_screen():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200, len(lines)
    assert any("gateproof verify" in line for line in lines[:40])


def test_the_readme_leads_to_checking_a_gateway_with_the_one_command_under_its_own_heading():
    text = README.read_text(encoding="utf-8")
    section = text.split("\n## Check your gateway in ten minutes\n", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^gateproof verify -- \S", section, re.M)
    assert "(#check-your-gateway-in-ten-minutes)" in "\n".join(text.splitlines()[:40])


def relative_links(document: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)  # a link in a code block is code
    return [target for target in LINK.findall(text) if not re.match(r"[a-z]+:", target)]


@cache
def anchors(document: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``document``: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.S)
    found: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        candidate, number = slug, 0
        while candidate in found:
            number += 1
            candidate = f"{slug}-{number}"
        found.add(candidate)
    return found


@pytest.mark.parametrize("document", LINKED, ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(document):
    broken = []
    for target in relative_links(document):
        path_part, _, anchor = target.partition("#")
        path = (document.parent / path_part).resolve() if path_part else document
        if not path.exists():
            broken.append(target)
        elif anchor and (path.suffix != ".md" or anchor not in anchors(path)):
            broken.append(target)
    assert not broken, broken


def test_the_readme_indexes_every_guide_in_docs():
    index = README.read_text(encoding="utf-8").split("\n## Documentation\n", 1)[1]
    assert {path.name for path in (ROOT / "docs").glob("*.md")} == set(re.findall(r"\]\(docs/([\w-]+\.md)\)", index))


def test_adr_readme_indexes_every_file_of_adr():
    text = (ROOT / "adr" / "README.md").read_text(encoding="utf-8")
    indexed = set(re.findall(r"^\| \[([\w-]+\.md)\]\(\1\) \|", text, re.M))
    assert indexed == {path.name for path in (ROOT / "adr").glob("*.md")} - {"README.md"}


def layout_rows() -> list[tuple[str, str]]:
    text = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    return re.findall(r"^\| `([^`]+)` \| (.+) \|$", text, re.M)


def test_every_path_the_layout_names_exists():
    """The first column's path, and each file or folder a row's text names in backticks, from the row's path or the top."""
    rows = layout_rows()
    assert len(rows) >= 20
    missing = []
    for path, text in rows:
        if not (ROOT / path).exists():
            missing.append(path)
        for named in re.findall(r"`([^`\s]+)`", text):
            if not re.search(r"(/|\.(py|md|json|yml|sh|j2|cedar))$", named):
                continue  # a module, a command or an id, not a path
            if not ((ROOT / path / named).exists() or (ROOT / named).exists()):
                missing.append(f"{path}: {named}")
    assert not missing, missing
