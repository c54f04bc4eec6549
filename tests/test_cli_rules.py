"""``gateproof rules``: a rule's text from adr/ by id, every id with its title, the versions --rules accepts."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.explanation.adr_entries import adr_entries
from gateproof.conformance.implementations.wrong.decide import decide_names

ROOT = Path(__file__).resolve().parent.parent
ENTRIES = {match[0]: match[1] for path in sorted((ROOT / "adr").glob("*.md"))
           for match in re.findall(r"^### ([A-Z]\d{3}\.\d+) — (.+)$", path.read_text(encoding="utf-8"), re.M)}


def run(*arguments):
    return CliRunner().invoke(main, ["rules", *arguments])


def test_a_rule_id_prints_its_entry_from_adr():
    done = run("C144.9")
    assert done.exit_code == 0
    text = (ROOT / "adr" / "ceiling.md").read_text(encoding="utf-8")
    body = text.split("### C144.9 — ", 1)[1].split("\n### ", 1)[0].split("\n", 1)[1]
    assert done.output.startswith(f"C144.9 — {ENTRIES['C144.9']}\n")
    assert " ".join(done.output.split()).endswith(" ".join(body.split()))
    assert "adr/ceiling.md, The fold and the decision (ADR-144)" in done.output


def test_an_entry_stops_at_the_next_section_heading():
    """C094.10 is the last entry of its section: the serving model's heading after it is not part of it."""
    done = run("C094.10")
    assert done.exit_code == 0 and "The serving model" not in done.output and "C149.1" not in done.output


def test_with_no_id_every_rule_id_is_listed_with_its_title():
    done = run()
    assert done.exit_code == 0
    listed = dict(re.findall(r"^  ([A-Z]\d{3}\.\d+)\s+(.+)$", done.output, re.M))
    assert listed == ENTRIES and len(listed) > 80


@pytest.mark.parametrize("wrong, closest", [("C144.99", "C144.9"), ("g001.30", "G001.3")])
def test_an_unknown_id_exits_2_with_the_closest(wrong, closest):
    done = run(wrong)
    assert done.exit_code == 2 and "Traceback" not in done.output
    assert f"'{wrong}' is not a rule id; closest: {closest}" in done.output


def test_several_ids_print_each_entry_in_the_order_given():
    done = run("G001.15", "C144.9")
    assert done.exit_code == 0 and done.output == run("G001.15").output + "\n" + run("C144.9").output


def test_an_unknown_id_among_several_prints_nothing_but_the_error():
    done = CliRunner().invoke(main, ["rules", "C144.9", "C144.99"])
    assert done.exit_code == 2 and done.stdout == "" and "'C144.99' is not a rule id" in done.stderr


def test_an_id_is_found_whatever_its_case():
    assert run("g001.3").output == run("G001.3").output and run("G001.3").exit_code == 0


def test_versions_lists_every_name_rules_accepts():
    done = run("--versions")
    assert done.exit_code == 0
    listed = re.findall(r"^  (?:\* |  )?([a-z0-9:+.-]+)\s", done.output, re.M)
    assert sorted(listed) == sorted(decide_names())


def test_every_printed_command_line_runs():
    """The listing ends with how to print one rule, and --rules' help names the versions listing: both run as printed."""
    listing = run().output.splitlines()[-1]
    command = listing.split(" prints")[0]
    assert command == "gateproof rules ID"
    assert run("C144.9").exit_code == 0
    hint = re.search(r"\((gateproof rules --versions) lists them\)", " ".join(CliRunner().invoke(main, ["decide", "--help"]).output.split()))
    assert run(*hint[1].split()[2:]).exit_code == 0


def test_an_installed_package_reads_the_rules_it_ships(tmp_path):
    """Built as a wheel and installed away from the source tree, gateproof rules still prints an entry: adr/ ships as gateproof.adr."""
    # Built from a copy, so that nothing is written into the source tree and no earlier build's files are packed.
    source = shutil.copytree(ROOT, tmp_path / "source", ignore=shutil.ignore_patterns(".venv", ".git", "build", "*.egg-info", "__pycache__", ".hypothesis", "tests"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheel"), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "wheel").glob("gateproof-*.whl")
    assert {f"gateproof/adr/{p.name}" for p in (ROOT / "adr").glob("*.md")} <= set(zipfile.ZipFile(wheel).namelist())
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp_path / "site"), str(wheel)],
                               capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    code = "import gateproof.conformance.explanation.adr_entries as a, sys; print(a.adr_folder()); sys.argv = ['gateproof', 'rules', 'G001.3']; import gateproof.conformance.cli as c; c.main()"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(tmp_path / "site")})
    assert done.returncode == 0, done.stderr
    folder, heading = done.stdout.splitlines()[:2]
    assert Path(folder) == tmp_path / "site" / "gateproof" / "adr"
    assert heading == f"G001.3 — {ENTRIES['G001.3']}"


@pytest.mark.parametrize("prefix, first", [("C144", "C144.1"), ("g001", "G001.1")])
def test_a_prefix_lists_the_rules_it_begins(prefix, first):
    result = CliRunner().invoke(main, ["rules", prefix])
    listed = re.findall(r"^  (\S+)  ", result.output, re.M)
    assert result.exit_code == 0 and listed[0] == first
    assert listed and all(rule_id.startswith(prefix.upper() + ".") for rule_id in listed)
    assert len(listed) == len([rule_id for rule_id in adr_entries() if rule_id.startswith(prefix.upper() + ".")])
