"""The JSON report: the whole campaign for a program to read, valid against ``conformance/schema/verify-report.schema.json``."""

from __future__ import annotations

from typing import Iterator

from ..harness.difference import differences
from ..harness.documents import dumps, dumps_pretty
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
    """An implementation's entry, its verdicts apart: :func:`json_chunks` writes them one at a time."""
    return {
        **row, "unavailable": tally.unavailable, "info": tally.info.body()["started"] if tally.info else None,
        "reordered": tally.reordered, "notes": list(tally.notes), "seconds": tally.seconds, "generated_seconds": tally.generated_seconds,
        "scenarios": tally.scenarios, "first_failure_after": tally.first_failure_after,
    }


def _opened(document: dict, key: str) -> str:
    """``document`` written out, left open at a last member ``key`` whose array follows."""
    return dumps_pretty(document).decode("utf-8")[:-2] + f',\n  "{key}": ['


def json_chunks(campaign: RecordedCampaign) -> Iterator[str]:
    """The JSON report a piece at a time: the campaign, then each implementation, then each of its verdicts, so that a
    campaign of a million verdicts is written holding one verdict at a time (a verdict on one line of the array).

    orjson's speed; integers beyond 64 bits and repeated keys as read.
    """
    tallies = list(campaign.tallies)
    families, cells = matrix(tallies)
    head = {
        "gateproof_verify": FORMAT_VERSION, "gateproof": campaign.version, "started": campaign.started, "finished": campaign.finished,
        "seconds": campaign.seconds, "complete": campaign.complete, "settings": campaign.settings,
        "matrix": {"families": families, "cells": {f: {name: dict(counts) for name, counts in cells[f].items()} for f in families}},
    }
    if isinstance(campaign.record.get("shards"), dict):
        head["shards"] = campaign.record["shards"]
    yield _opened(head, "implementations")
    for number, (row, tally) in enumerate(zip(summary_rows(tallies), tallies)):
        yield ("," if number else "") + "\n" + _opened(implementation_document(row, tally), "verdicts")
        for position, verdict in enumerate(tally.verdicts):
            yield ("," if position else "") + "\n" + dumps(verdict_document(verdict)).decode("utf-8")
        yield "\n]}"
    yield "\n]}\n"


def json_report(campaign: RecordedCampaign) -> str:
    return "".join(json_chunks(campaign))
