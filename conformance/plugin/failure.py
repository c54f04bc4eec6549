"""What a failing gateproof item prints: the structured difference ``gateproof verify`` shows, the scenario, the replay command.

The differing fields, the deciding rules and the model's explanation of the
step come from the same renderer as verify's (``reports/failure.py``); this
adds the scenario itself, pretty-printed, and the pytest command that runs
it again.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from attrs import evolve

from ..harness.difference import differences
from ..harness.documents import dumps_pretty
from ..reports.escape import visible
from ..reports.failure import failure_lines
from .options import PluginSettings
from .search import Found

OUT = "gateproof-pytest"  # beside the ini file: where failing scenarios are saved, one file each


class Failure(Exception):
    """A gateproof item failed: the text to show, and the gateway's own exception when it raised."""

    def __init__(self, text: str, raised: BaseException | None = None):
        super().__init__(text)
        self.text, self.raised = text, raised


def shown_path(path: Path, directory: Path) -> str:
    """``path`` as a person types it in ``directory``: relative when it can be."""
    try:
        return os.path.relpath(path, directory)
    except ValueError:
        return str(path)


def replay_command(settings: PluginSettings, path: Path, directory: Path) -> str:
    """The pytest command, run in ``directory``, that runs the saved scenario alone against the same gateway."""
    words = ["pytest", shown_path(settings.inipath, directory), "--gateproof-replay", shown_path(path, directory)]
    words += settings.naming
    return shlex.join(words)


def save(found: Found, name: tuple[str, str], settings: PluginSettings) -> Path:
    """Write the failing scenario beside the ini file, under a name made from the item's, and return where."""
    directory = settings.inipath.parent / OUT
    directory.mkdir(exist_ok=True)
    stem = ".".join(name)  # corpus, gw.x: saved as corpus.gw.x.json
    path = directory / ("".join(c if c.isalnum() or c in "._-" else "_" for c in stem) + ".json")
    path.write_bytes(dumps_pretty(found.scenario) + b"\n")
    return path


def scenario_lines(scenario: dict, heading: str) -> list[str]:
    return [f"  {heading}:", *("    " + line for line in dumps_pretty(scenario).decode().splitlines())]


def failure_text(found: Found, settings: PluginSettings, saved: Path | None, directory: Path, width: int, heading: str,
                 detail: str = "long") -> str:
    """One failure as ``--tb`` asks: ``line``, one line naming where it differs; ``short``, what differs field by field with
    its rules and how to run it again; ``long`` (and every other style), that with the model's explanation and the scenario.

    What the gateway wrote is shown with its control and bidirectional characters as escapes (``reports/escape.py``).
    """
    command = replay_command(settings, saved, directory) if saved is not None else None
    if detail == "line":
        return one_line(found, settings)
    if found.raised is not None:
        error = found.raised.error
        lines = [f"{settings.target} raised {type(error).__name__}: {error}"]
        lines += scenario_lines(found.scenario, heading) if detail != "short" else []
        if command:
            lines.append(f"  replay:  {command}")
        return visible("\n".join(lines))
    verdict = found.verdict
    if verdict.disagreement is not None:
        shown = shown_path(saved, directory) if saved is not None else None
        verdict = evolve(verdict, disagreement=evolve(verdict.disagreement, replay_path=shown, replay_command=command))
    lines = failure_lines(verdict, width, explained=detail != "short")
    if verdict.disagreement is None and command:
        lines.append(f"  replay:  {command}")
    if detail == "short":
        return visible("\n".join(lines))
    at = next((n for n, line in enumerate(lines) if line.startswith("  replay:")), len(lines))
    return visible("\n".join(lines[:at] + scenario_lines(found.scenario, heading) + lines[at:]))


def one_line(found: Found, settings: PluginSettings) -> str:
    """The failure in one line: the scenario, and where it differs or what the gateway raised."""
    if found.raised is not None:
        error = found.raised.error
        return visible(f"{found.scenario.get('id', '')}: {settings.target} raised {type(error).__name__}: {error}".splitlines()[0])
    verdict = found.verdict
    d = verdict.disagreement
    if d is None:
        return visible(f"{verdict.scenario_id}: {verdict.message}".splitlines()[0])
    leaves = differences(d.expected, d.actual)
    paths = ", ".join(leaf.path for leaf in leaves[:3]) + (f" and {len(leaves) - 3} more" if len(leaves) > 3 else "")
    return visible(f"{verdict.scenario_id}: differs in {paths}")
