"""The JSON report: the whole campaign for a program to read, valid against ``conformance/schema/verify-report.schema.json``."""

from __future__ import annotations

from ..harness.difference import differences
from ..harness.documents import dumps_pretty
from ..harness.results import Tally, Verdict
from .campaign import RecordedCampaign
from .summary import matrix, summary_rows

FORMAT_VERSION = 2


def verdict_document(verdict: Verdict) -> dict:
    """A verdict as recorded, with its structured difference: each differing leaf, absent kept apart from null."""
    d = verdict.disagreement
    leaves = differences(d.expected, d.actual) if d is not None else []
    return {**verdict.serializable(), "differences": [leaf.serializable() for leaf in leaves]}


def implementation_document(row: dict, tally: Tally) -> dict:
    return {
        **row, "unavailable": tally.unavailable, "info": tally.info.body()["started"] if tally.info else None,
        "reordered": tally.reordered, "notes": list(tally.notes), "seconds": tally.seconds, "generated_seconds": tally.generated_seconds,
        "scenarios": tally.scenarios, "first_failure_after": tally.first_failure_after,
        "verdicts": [verdict_document(v) for v in tally.verdicts],
    }


def json_report(campaign: RecordedCampaign) -> str:
    tallies = list(campaign.tallies)
    families, cells = matrix(tallies)
    document = {
        "gateproof_verify": FORMAT_VERSION, "gateproof": campaign.version, "started": campaign.started, "finished": campaign.finished,
        "seconds": campaign.seconds, "complete": campaign.complete, "settings": campaign.settings,
        "matrix": {"families": families, "cells": {f: {name: dict(counts) for name, counts in cells[f].items()} for f in families}},
        "implementations": [implementation_document(row, tally) for row, tally in zip(summary_rows(tallies), tallies)],
    }
    if isinstance(campaign.record.get("shards"), dict):
        document["shards"] = campaign.record["shards"]
    return dumps_pretty(document).decode("utf-8") + "\n"  # orjson's speed; integers beyond 64 bits and repeated keys as read
