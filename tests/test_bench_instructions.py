"""The instruction count of a campaign scenario: each side's work, the count read from valgrind, and a machine without it."""

import os
import shutil
import stat

from gateproof.conformance.bench import instructions


def test_each_side_decides_every_scenario_of_every_rule_version_drawn():
    work, count = instructions.side_work("reference", per_target=2)
    replies = work()
    assert count == len(replies) == 2 * len(instructions.campaign_streams())
    assert all(b'"outcome"' in reply for reply in replies)
    work, count = instructions.side_work("harness", per_target=2)
    assert work() is None and count == len(replies)


def test_the_count_is_read_from_what_valgrind_prints_and_the_work_runs_as_asked(tmp_path, monkeypatch):
    """A stand-in valgrind that runs the command it is handed and prints a summary as valgrind does."""
    fake = tmp_path / "valgrind"
    fake.write_text('#!/bin/sh\nshift 3\n"$@" || exit $?\necho "==7== I   refs:      1,234,567" >&2\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert instructions.count_instructions("reference", 1) == 1_234_567


def test_a_side_that_fails_under_valgrind_is_an_error_naming_it(tmp_path, monkeypatch):
    fake = tmp_path / "valgrind"
    fake.write_text('#!/bin/sh\necho "no such tool" >&2\nexit 1\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    try:
        instructions.count_instructions("harness", 1)
    except RuntimeError as error:
        assert "harness side exited 1: no such tool" in str(error)
    else:
        raise AssertionError("a failed valgrind run was read as a count")


def test_half_of_what_two_more_repeats_add_is_one_run_of_the_work(monkeypatch):
    _, count = instructions.side_work("reference")
    monkeypatch.setattr(instructions, "count_instructions", lambda side, repeats: 1_000 + repeats * count * 500)
    assert instructions.per_scenario("reference") == 500


def test_without_valgrind_nothing_is_measured_and_the_command_says_why(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda program: None)
    printed = []
    instructions.measure(print=printed.append)
    assert printed == ["instructions a campaign scenario: not measured (valgrind is not on PATH; apt-get install valgrind)"]
