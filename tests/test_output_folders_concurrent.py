"""Shards started at once with their --out folders under one new parent: neither is refused, and each writes its results.

Each verify checks its output folder before any work by creating what is
missing, writing a probe file and removing what it created. Two of them
side by side on sibling folders used to meet in the parent: one created it
between the other's look and its mkdir ("File exists"), or removed it, done
probing, between the other's look and its mkdir ("No such file or
directory"), and a sound campaign exited 2.
"""

from __future__ import annotations

import os
from multiprocessing import get_context
from pathlib import Path

import pytest

from gateproof.conformance.cli import options
from gateproof.conformance.cli.options import folder_problem
from gateproof.conformance.harness.paths import make_folder

REAL_MKDIR = Path.mkdir


def test_a_parent_another_process_creates_meanwhile_is_taken_and_left_to_it(tmp_path, monkeypatch):
    parent, folder = tmp_path / "results", tmp_path / "results" / "shard2"

    def mkdir_after_the_other(self, *args, **kwargs):
        if self == parent:
            REAL_MKDIR(parent)  # the other shard's probe got there first
        return REAL_MKDIR(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir_after_the_other)
    made: list[Path] = []
    options._make(folder, made)
    assert made == [folder] and folder.is_dir()


def test_a_parent_another_probe_removes_meanwhile_is_made_again(tmp_path, monkeypatch):
    parent, folder = tmp_path / "results", tmp_path / "results" / "shard2"
    parent.mkdir()
    removed = []

    def mkdir_after_removal(self, *args, **kwargs):
        if self == folder and not removed:
            parent.rmdir()  # the other shard, done probing, removes the parent it made
            removed.append(parent)
        return REAL_MKDIR(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", mkdir_after_removal)
    made: list[Path] = []
    options._make(folder, made)
    assert removed and made == [folder, parent] and folder.is_dir()


def test_a_parent_removed_under_every_attempt_is_a_problem_named_as_such(tmp_path, monkeypatch):
    folder = tmp_path / "results" / "shard2"

    def always_removed(self, *args, **kwargs):
        raise FileNotFoundError(2, "No such file or directory", str(self))

    monkeypatch.setattr(Path, "mkdir", always_removed)
    assert folder_problem(folder) == "cannot write files in this folder (No such file or directory)"


def test_a_writer_makes_again_a_parent_removed_under_it(tmp_path, monkeypatch):
    folder = tmp_path / "results" / "shard1" / "reference"
    calls = []

    def removed_once(self, *args, **kwargs):
        calls.append(self)
        if len(calls) == 1:
            raise FileNotFoundError(2, "No such file or directory", str(self))
        return REAL_MKDIR(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", removed_once)
    make_folder(folder)
    assert folder.is_dir()


def _probe_siblings(arguments: tuple[str, int]) -> list[str]:
    root, shard = arguments
    return [problem for number in range(50) if (problem := folder_problem(Path(root) / f"campaign{number}" / f"shard{shard}"))]


def test_four_processes_probing_sibling_folders_under_new_parents_find_no_problem(tmp_path):
    if not hasattr(os, "fork"):
        pytest.skip("the stress needs processes started at once")
    with get_context("fork").Pool(4) as pool:
        problems = pool.map(_probe_siblings, [(str(tmp_path), shard) for shard in range(4)])
    assert problems == [[], [], [], []]
    # What a probe made it removes, but a parent that held a sibling's folder as it tried stays: empty, where the shards then write.
    assert all(not os.listdir(tmp_path / parent) for parent in os.listdir(tmp_path))
