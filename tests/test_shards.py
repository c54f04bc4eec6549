"""Sharding: each shard a deterministic part, the shards together the whole campaign, their merged totals the whole's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gateproof.conformance.generation import scenarios
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.shards import Shard, dealt, holds_case, parse_shard, share
from gateproof.conformance.reports.merge import merge
from gateproof.conformance.reports.results_log import ResultsError, read_results


@pytest.mark.parametrize("count", [1, 2, 3, 7])
def test_the_shards_deal_every_generated_scenario_and_corpus_case_exactly_once(count):
    budget = 500
    whole = list(dealt(scenarios("gateway", "lab-001+next", 3), budget, Shard(1, 1)))
    parts = [list(dealt(scenarios("gateway", "lab-001+next", 3), budget, Shard(i, count))) for i in range(1, count + 1)]
    assert [len(p) for p in parts] == [share(budget, Shard(i, count)) for i in range(1, count + 1)]
    assert sorted(map(repr, (s for p in parts for s in p))) == sorted(map(repr, whole))
    ids = [c.id for c in load_corpus()]
    holders = [[i for i in range(1, count + 1) if holds_case(Shard(i, count), case)] for case in ids]
    assert all(len(h) == 1 for h in holders)


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0", "-1/2"])
def test_a_shard_that_is_not_I_of_N_is_refused(text):
    with pytest.raises(ValueError):
        parse_shard(text)


def verify(folder: Path, *arguments: str) -> None:
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["gateproof", "verify", "--builtin", "reference", "--builtin", "mutant:forged-authority", "--kinds", "gateway",
                           "--examples", "400", "--out", str(folder), "-q", *arguments], env=environment, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


def totals(results) -> dict:
    _, tallies, _ = results
    return {t.name: (t.counts(), t.generated, t.scenarios) for t in tallies}


def test_merged_shards_count_what_the_whole_campaign_counts(tmp_path):
    verify(tmp_path / "whole")
    for index in (1, 2, 3):
        verify(tmp_path / f"part{index}", "--shard", f"{index}/3")
    parts = [read_results(tmp_path / f"part{i}" / "results.jsonl") for i in (1, 2, 3)]
    whole = read_results(tmp_path / "whole" / "results.jsonl")
    reference = lambda results: totals(results)["reference"]  # noqa: E731
    assert reference(merge(parts)) == reference(whole)
    assert merge(parts)[0]["shards"] == {"of": 3, "present": [1, 2, 3], "missing": []}
    # A mutant's disagreements are found by whichever shard meets them, each shrunk and saved there.
    assert totals(merge(parts))["mutant:forged-authority"][0]["failed"] >= 1
    assert merge(parts[:2])[0]["shards"]["missing"] == [3]
    with pytest.raises(ResultsError, match="given twice"):
        merge([parts[0], parts[0]])
    with pytest.raises(ResultsError, match="split the campaign differently"):
        merge([parts[0], whole])
    campaign, tallies, end = parts[1]
    other_seed = (dict(campaign, settings=dict(campaign["settings"], seed=9)), tallies, end)
    with pytest.raises(ResultsError, match="settings differ"):
        merge([parts[0], other_seed])


def test_shards_started_at_once_under_one_new_parent_both_conform_and_merge(tmp_path):
    """The way a machine runs its shards side by side: ``--out results/shardI`` each, the parent made by whichever gets there first."""
    environment = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    started = [subprocess.Popen(["gateproof", "verify", "--builtin", "reference", "--examples", "40", "--shard", f"{index}/2",
                                 "--out", str(tmp_path / "results" / f"shard{index}"), "-q"],
                                env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for index in (1, 2)]
    printed = [process.communicate(timeout=600)[0] for process in started]
    assert [process.returncode for process in started] == [0, 0], printed
    merged = merge([read_results(tmp_path / "results" / f"shard{index}" / "results.jsonl") for index in (1, 2)])
    assert merged[0]["shards"] == {"of": 2, "present": [1, 2], "missing": []}
