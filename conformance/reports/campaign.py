"""A campaign as every report format reads it: the header, the implementations' tallies, and whether it ran to its end."""

from __future__ import annotations

import shlex
from pathlib import Path

from attrs import frozen

from ..program import command
from ..harness.results import Tally
from ..harness.inputs import InputError
from .merge import merge
from .results_log import ResultsError, read_results

INCOMPLETE = "incomplete: the campaign was cut short before its end record; what it found up to then is shown"


@frozen
class RecordedCampaign:
    """What ``results.jsonl`` holds, read back: its first record, each implementation's tally, its last record if written.

    ``paths`` are the files it was read from: one, or the results of each
    shard of a campaign run in parts, merged.
    """

    paths: tuple[Path, ...]
    record: dict
    tallies: tuple[Tally, ...]
    end: dict | None

    @property
    def missing_shards(self) -> list[int]:
        """The parts of a campaign run in shards (verify --shard I/N) whose results were not merged in."""
        shards = self.record.get("shards")
        return list(shards.get("missing", ())) if isinstance(shards, dict) else []

    @property
    def complete(self) -> bool:
        return self.end is not None and not self.missing_shards

    @property
    def incomplete_text(self) -> str:
        """Why the report is not of a whole campaign: cut short, or parts of it missing."""
        if self.missing_shards:
            count = self.record["shards"].get("of", "?")
            return f"incomplete: shard{'s' * (len(self.missing_shards) != 1)} {', '.join(f'{i}/{count}' for i in self.missing_shards)} missing; what the others found is shown"
        return INCOMPLETE

    @property
    def version(self) -> str:
        return str(self.record.get("gateproof", "unknown"))

    @property
    def started(self) -> str:
        return str(self.record.get("started", ""))

    @property
    def finished(self) -> str | None:
        return self.end.get("finished") if self.end else None

    @property
    def seconds(self) -> float | None:
        """The whole campaign's duration in seconds; None when it was cut short."""
        if self.end and isinstance(self.end.get("seconds"), (int, float)):
            return float(self.end["seconds"])
        return None

    @property
    def settings(self) -> dict:
        return self.record.get("settings") or {}

    def settings_lines(self) -> list[tuple[str, str]]:
        """The settings as (name, value) for a reader: lists joined, an implementation as the verify options naming it."""
        shown = []
        for key, value in self.settings.items():
            if key == "implementations" and isinstance(value, list):
                value = ", ".join(shlex.join(map(str, naming)) for naming in value)
            elif key == "shard":
                value = "/".join(map(str, value)) if isinstance(value, list) else "the parts merged"
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            elif isinstance(value, list):
                value = ", ".join(map(str, value))
            elif value is None:
                value = "all" if key == "rules" else "-"  # no rule version chosen: all of them
            shown.append((key, str(value)))
        return shown

    def report_command(self, report_format: str, file_name: str) -> str:
        """The command that renders this campaign again in another format, as a person types it: beside its results when one file."""
        output = self.paths[0].parent / file_name if len(self.paths) == 1 else Path(file_name)
        return command("report", *map(str, self.paths), "--format", report_format, "--output", str(output))


def read_campaign(*paths: Path) -> RecordedCampaign:
    """The campaign in ``paths``: one results file, or the results of a campaign's shards merged into the whole.

    Raises ``ResultsError`` naming the file and line that cannot be read, or
    why several files are not the shards of one campaign.
    """
    parts = []
    for path in paths:
        try:
            parts.append(read_results(path))
        except ResultsError as error:
            raise ResultsError(f"{path}: {error}") from None
        except InputError as error:  # the file and the line are in its message
            raise ResultsError(str(error)) from None
    if len(parts) == 1:
        record, tallies, end = parts[0]
    else:
        record, tallies, end = merge(parts)
    return RecordedCampaign(tuple(paths), record, tuple(tallies), end)
