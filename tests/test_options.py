"""Bad option values are refused before any work, naming the option, with exit status 2 and no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def refused(result, option: str, problem: str) -> None:
    """One line on stderr naming the option and the problem, as every command says a bad value; exit status 2."""
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # a usage error, not a traceback
    [line] = result.stderr.splitlines()
    assert line.startswith(f"gateproof: error: {option} ") and problem in line, line


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
@pytest.mark.parametrize("command", [["verify", "--builtin", "reference", "--examples", "0"], ["prove", "--only", "I001"]])
def test_a_timeout_that_is_not_a_finite_number_of_seconds_is_refused(command, value):
    refused(run(*command, "--timeout", value), "--timeout", "is not a finite number of seconds")


@pytest.mark.parametrize("value", ["0", "-1", "100000", "soon"])
def test_a_timeout_out_of_range_or_not_a_number_is_refused(value):
    result = run("verify", "--builtin", "reference", "--examples", "0", "--timeout", value)
    assert result.exit_code == 2 and result.stderr.startswith("gateproof: error: --timeout ") and len(result.stderr.splitlines()) == 1


def test_checking_outputs_leaves_nothing_behind_when_the_command_then_fails(tmp_path):
    result = run("verify", "--builtin", "nope", "--out", "o/p", "--report", "json")
    assert result.exit_code == 2 and "is not a built-in" in result.stderr
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("command, option", [
    (["verify", "--builtin", "reference", "--examples", "0", "--out"], "--out"),
    (["diff", "--from", "adr-166", "--to", "adr-175", "--out"], "--out"),
    (["prove", "--only", "I001", "--out"], "--out"),
    (["corpus", "export"], "DIRECTORY"),
])
def test_an_output_folder_that_cannot_be_created_is_refused_before_the_work(tmp_path, command, option):
    (tmp_path / "file").write_text("")
    refused(run(*command, "file/x"), option, "file/x: cannot write files in this folder (Not a directory)")
    if os.path.isdir("/proc/self"):
        refused(run(*command, "/proc/x"), option, "/proc/x: cannot write files in this folder")


def test_diff_leaves_nothing_in_the_working_directory_but_the_folder_it_was_given(tmp_path):
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    done = subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "diff", "--from", "adr-166", "--to", "adr-175",
                           "--examples", "20", "--bound", "1", "--out", "d"],
                          cwd=tmp_path, env=env, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert sorted(os.listdir(tmp_path)) == ["d"]


def test_verify_leaves_nothing_in_the_working_directory_but_the_folder_it_was_given(tmp_path):
    """Writes outside the output folder: no .hypothesis/, no other file, beside --out."""
    env = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "cache"))
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    work = tmp_path / "work"
    work.mkdir()
    done = subprocess.run([sys.executable, "-m", "gateproof.conformance.cli", "verify", "--builtin", "reference", "--examples", "20",
                           "--out", "d", "--quiet"], cwd=work, env=env, capture_output=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert os.listdir(work) == ["d"]


@pytest.mark.parametrize("command, spelled", [
    ("verify", ["--out DIR", "-q, --quiet", "-v, --verbose", "--rules VERSION"]),
    ("diff", ["--out DIR", "-q, --quiet", "-v, --verbose", "--from VERSION", "--to VERSION"]),
    ("prove", ["--out DIR", "-q, --quiet", "-v, --verbose", "--rules VERSION"]),
    ("decide", ["--rules VERSION"]),
    ("explain", ["--rules VERSION"]),
    ("report", ["--output FILE"]),
])
def test_one_idea_is_spelled_one_way_in_every_command(command, spelled):
    """A folder to write into is --out DIR, progress is --quiet/--verbose, a rule version is --rules VERSION; only report writes one FILE."""
    text = " ".join(run(command, "--help").output.split())
    assert all(option in text for option in spelled), (command, text)
    assert "wrong:first-wins-ties" not in text  # the names --rules takes are listed by gateproof rules --versions, not in every help


@pytest.mark.parametrize("command, other", [("verify", "--output"), ("diff", "--output"), ("prove", "--counterexamples")])
def test_a_folder_named_otherwise_than_out_is_refused(command, other):
    result = run(command, other, "x")
    assert result.exit_code == 2 and f"No such option '{other}'" in result.output and "Traceback" not in result.output, result.output


@pytest.mark.parametrize("command, option, closest", [
    (["decide", "--rules", "lab-01", "-"], "--rules", "closest: lab-001"),
    (["explain", "--rules", "lab-01", "-"], "--rules", "closest: lab-001"),
    (["verify", "--rules", "lab-01", "--builtin", "reference"], "--rules", "closest: lab-001"),
    (["verify", "--builtin", "nod"], "--builtin", "closest: node;"),
    (["verify", "--builtin", "reference", "--compare", "vibes"], "--compare", "is not one of"),
    (["prove", "--only", "I001", "--bound", "many"], "--bound", "is not a valid integer"),
])
def test_a_bad_option_value_is_one_line_in_every_command_with_the_closest_value(command, option, closest):
    result = run(*command)
    refused(result, option, closest)
    assert "mutant:" not in result.stderr  # the closest names, never the whole list


def test_a_required_option_left_out_is_one_line_naming_it_and_its_choices(tmp_path):
    result = run("report", str(tmp_path / "results.jsonl"))
    assert result.exit_code == 2 and result.stderr.strip() == "gateproof: error: --format is required: choose from json, junit, markdown, html"
