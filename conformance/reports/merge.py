"""The results of a campaign's shards, merged into the results of the whole: one tally per implementation, totals summed.

Shards must come from one campaign: the same settings but for the shard, and
the same number of shards. A shard that is missing is named, and the merged
campaign says it is incomplete rather than passing off a part as the whole.
"""

from __future__ import annotations

from collections import Counter

from ..harness.results import Tally
from .results_log import ResultsError, StoredVerdicts

Results = tuple[dict, list[Tally], "dict | None"]


def _settings_but_shard(campaign: dict) -> dict:
    return {k: v for k, v in campaign.get("settings", {}).items() if k != "shard"}


def _merged_tally(parts: list[Tally]) -> Tally:
    first = parts[0]
    merged = Tally(first.name, info=first.info, expected=first.expected, unkept=sum((t.unkept for t in parts), Counter()))
    merged.verdicts = StoredVerdicts.joined([t.verdicts for t in parts])
    for key in ("generated", "generated_seconds", "seconds", "scenarios", "restarts", "reordered"):
        setattr(merged, key, sum(getattr(t, key) for t in parts))
    found = [t.first_failure_after for t in parts if t.first_failure_after is not None]
    merged.first_failure_after = min(found) if found else None  # within its shard: the shards ran side by side
    merged.notes = [note for t in parts for note in t.notes]
    for key in ("asked", "decided", "skipped_for", "unkept_severities"):
        setattr(merged, key, sum((getattr(t, key) for t in parts), Counter()))
    merged.lost = next((t.lost for t in parts if t.lost), None)
    merged.unavailable = next((t.unavailable for t in parts if t.unavailable), None)
    return merged


def merge(parts: list[Results]) -> Results:
    """One campaign from its shards' results; ResultsError when they are not shards of one campaign."""
    if len(parts) == 1:
        return parts[0]
    campaigns = [campaign for campaign, _, _ in parts]
    if any(_settings_but_shard(c) != _settings_but_shard(campaigns[0]) for c in campaigns):
        raise ResultsError("these results are not shards of one campaign: their settings differ beyond --shard")
    shards = [tuple(c["settings"].get("shard") or (1, 1)) for c in campaigns]
    counts = {count for _, count in shards}
    if len(counts) != 1:
        raise ResultsError(f"these results split the campaign differently: {sorted(f'{i}/{n}' for i, n in shards)}")
    [count] = counts
    indices = [index for index, _ in shards]
    if len(set(indices)) != len(indices):
        raise ResultsError(f"shard {next(i for i in indices if indices.count(i) > 1)}/{count} is given twice")
    missing = [i for i in range(1, count + 1) if i not in indices]
    by_name: dict[str, list[Tally]] = {}
    for _, tallies, _ in parts:
        for tally in tallies:
            by_name.setdefault(tally.name, []).append(tally)
    campaign = dict(campaigns[0], started=min(c["started"] for c in campaigns),
                    settings=dict(campaigns[0]["settings"], shard=None),
                    shards={"of": count, "present": sorted(indices), "missing": missing})
    ends = [end for _, _, end in parts]
    end = None if None in ends else {"record": "end", "finished": max(e["finished"] for e in ends), "seconds": max(e["seconds"] for e in ends)}
    return campaign, [_merged_tally(group) for group in by_name.values()], end
