"""``results.jsonl``: a campaign written as it runs, one JSON record a line, and read back whole for any report.

Four kinds of record, each an object whose ``record`` names it
(``conformance/schema/results-record.schema.json``):

- ``campaign``, the first line: the gateproof version, when the campaign
  started and the settings it ran with;
- ``verdict``, the moment each is reached: a scenario that did not simply pass
  (passing generated scenarios are counted, not listed), with both outcomes
  and the disagreement's class (``security``, ``refusal`` or ``other``,
  ``harness/severity.py``) when it disagrees;
- ``implementation``, when an implementation's campaign ends: who it is, what
  it was expected to do, its counts per family and status, the failures it
  counted without keeping them by class, its durations;
- ``end``, the last line: when the campaign finished.

A campaign cut short leaves its verdicts; a line cut off mid-write is skipped
when read. Rendering a report needs nothing but this file.
"""

from __future__ import annotations

import time
from array import array
from contextlib import nullcontext
from functools import cache
from collections import Counter
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import jsonschema_rs
import orjson

from gateproof.model.scenario import ScenarioError
from gateproof.model.scenario.schema import validate

from ..harness.documents import dumps, parse_json
from ..harness.inputs import MOST_RECORD_BYTES, numbered_lines
from ..harness.paths import WriteFailed, create_no_follow, make_folder
from ..harness.protocol import Started
from ..harness.expectations import CAUGHT, CONFORMANT
from ..harness.results import CUT_SHORT, Disagreement, Tally, Verdict
from ..harness.severity import SEVERITIES
from ..implementations import is_mutant

FORMAT_VERSION = 1


def gateproof_version() -> str:
    try:
        return version("gateproof")
    except PackageNotFoundError:  # pragma: no cover - run from a tree that was never installed
        return "unknown"


def now_text() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class ResultLog:
    """Appends each record to ``path`` and flushes it, so a campaign stopped at any point keeps what it found."""

    def __init__(self, path: Path, settings: dict):
        self.path = path
        make_folder(path.parent)
        self.handle = create_no_follow(path)  # a results.jsonl that is a symbolic link is refused, never followed
        self.started = time.monotonic()
        self._write({"record": "campaign", "format": FORMAT_VERSION, "gateproof": gateproof_version(), "started": now_text(),
                     "settings": settings})

    def _write(self, record: dict) -> None:
        """One record, flushed; :class:`WriteFailed` naming the file when it cannot be written (a full disk said as such)."""
        try:
            self.handle.write(dumps(record) + b"\n")
            self.handle.flush()
        except OSError as error:
            raise WriteFailed(self.path, error) from None

    def write(self, verdict: Verdict) -> None:
        self._write({"record": "verdict", **verdict.serializable()})

    def implementation(self, tally: Tally) -> None:
        self._write(implementation_record(tally))

    def close(self) -> None:
        self._write({"record": "end", "finished": now_text(), "seconds": round(time.monotonic() - self.started, 3)})
        self.handle.close()


def implementation_record(tally: Tally) -> dict:
    return {
        "record": "implementation", "name": tally.name, "expected": tally.expected,
        "info": tally.info.body()["started"] if tally.info else None,
        "unkept": [[family, status, count] for (family, status), count in sorted(tally.unkept.items())],
        "generated": tally.generated, "generated_seconds": round(tally.generated_seconds, 3), "seconds": round(tally.seconds, 3),
        "scenarios": tally.scenarios, "first_failure_after": tally.first_failure_after, "restarts": tally.restarts,
        "reordered": tally.reordered, "notes": list(tally.notes), "lost": tally.lost, "unavailable": tally.unavailable,
        "asked": dict(tally.asked), "decided": dict(tally.decided), "skipped_for": dict(tally.skipped_for),
        "unkept_severities": dict(tally.unkept_severities),
    }


def verdict_of(record: dict) -> Verdict:
    d = record.get("disagreement")
    # A file written before disagreements were classed holds no severity: it is computed again from the outcomes.
    classed = {"severity": d["severity"]} if d is not None and d.get("severity") in SEVERITIES else {}
    disagreement = None if d is None else Disagreement(d["scenario"], d["expected"], d["actual"], d["step"], tuple(d["keys"]),
                                                       d.get("replay_path"), d.get("replay_command"), **classed)
    return Verdict(record["implementation"], record["phase"], record["family"], record["scenario"], record["status"],
                   record.get("message", ""), tuple(record.get("rules", ())), record.get("issue"), disagreement, record.get("context") or {},
                   record.get("seconds"))


class StoredVerdicts:
    """One implementation's verdicts in results files, read back without holding them all: rendering stays within what it shows.

    A verdict holding a disagreement is kept (every report shows them); any
    other is kept as where its line starts, and read again from there each
    time the verdicts are gone through. They are counted by family and
    status as they are read, so a report's counts read no line again. A
    file that cannot be read again (a pipe) has every verdict kept.
    """

    def __init__(self, path: Path | None = None, again: bool = True):
        self.segments: list[tuple[Path | None, array]] = [] if path is None else [(path if again else None, array("q"))]
        self.kept: dict[tuple[int, int], Verdict] = {}  # (segment, offset) -> a verdict holding a disagreement, or any from a pipe
        self.cells: Counter = Counter()  # (family, status) -> how many

    def add(self, offset: int, verdict: Verdict) -> None:
        path, offsets = self.segments[-1]
        offsets.append(offset)
        self.cells[(verdict.family, verdict.status)] += 1
        if verdict.disagreement is not None or path is None:
            self.kept[(len(self.segments) - 1, offset)] = verdict

    @classmethod
    def joined(cls, parts: list["StoredVerdicts"]) -> "StoredVerdicts":
        """The verdicts of one implementation in several shards' results, in the order given."""
        whole = cls()
        for part in parts:
            whole.kept.update({(len(whole.segments) + segment, offset): v for (segment, offset), v in part.kept.items()})
            whole.segments += part.segments
            whole.cells.update(part.cells)
        return whole

    @property
    def disagreements(self) -> list[Verdict]:
        return list(self.kept.values())

    def __len__(self) -> int:
        return sum(len(offsets) for _, offsets in self.segments)

    def __iter__(self):
        for segment, (path, offsets) in enumerate(self.segments):
            with path.open("rb") if path is not None else nullcontext() as handle:
                for offset in offsets:
                    kept = self.kept.get((segment, offset))
                    if kept is None:
                        handle.seek(offset)
                        kept = verdict_of(parse_json(handle.readline(MOST_RECORD_BYTES + 1), repeats=None, limit=None))
                    yield kept


def expectation(campaign: dict, name: str) -> str:
    """What the implementation ``name`` was expected to do, read from how the campaign record says verify was told to drive it."""
    namings = campaign.get("settings", {}).get("implementations") or ()
    return CAUGHT if is_mutant(name) and ["--builtin", name] in namings else CONFORMANT


def _info_of(info: dict | None) -> Started | None:
    if info is None:
        return None
    return Started(info["name"], info["version"], info["language"], info["homepage"], info["rules"], info["kinds"], info.get("issues"),
                   info.get("protocol", 1))


def _tally_of(record: dict, verdicts: StoredVerdicts) -> Tally:
    tally = Tally(record["name"], info=_info_of(record.get("info")), verdicts=verdicts,
                  unkept=Counter({(family, status): count for family, status, count in record["unkept"]}))
    for key in ("generated", "generated_seconds", "seconds", "scenarios", "first_failure_after", "restarts", "reordered", "lost",
                "unavailable", "expected"):
        setattr(tally, key, record.get(key, getattr(tally, key)))
    tally.notes = list(record.get("notes", ()))
    # What the verdict "nothing decided" is judged on, and the classes of the failures counted only.
    for key in ("asked", "decided", "skipped_for", "unkept_severities"):
        setattr(tally, key, Counter(record.get(key) or {}))
    return tally


class ResultsError(Exception):
    """A results file that cannot be read as a campaign: which line, and what is wrong with it."""


SCHEMA = Path(__file__).resolve().parent.parent / "schema" / "results-record.schema.json"


@cache
def _validator():
    return jsonschema_rs.validator_for(orjson.loads(SCHEMA.read_bytes()))


#: What a disagreement holds from the model, each read by its schema: the scenario it ran, and the outcome it gave. The actual
#: outcome is the implementation's: any object, as the protocol reads it.
DISAGREEMENT_DOCUMENTS = (("scenario", "scenario"), ("expected", "outcome"))


def _check(number: int, record: object) -> None:
    """Raise :class:`ResultsError` naming the line and the field when ``record`` breaks the results-record schema.

    A disagreement's scenario and expected outcome are checked against the
    model's scenario and outcome schemas: the model read the one and wrote the other.
    """
    if not _validator().is_valid(record):
        error = next(_validator().iter_errors(record))
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.instance_path)
        problem = error.message if len(error.message) <= 160 else error.message[:157] + "..."
        raise ResultsError(f"line {number}: {where}: {problem}")
    disagreement = record.get("disagreement")
    for field, kind in DISAGREEMENT_DOCUMENTS if disagreement is not None else ():
        try:
            validate(kind, disagreement[field])
        except ScenarioError as error:
            raise ResultsError(f"line {number}: $.disagreement.{field}{error.path[1:]}: {error.problem}") from None


def read_results(path: Path) -> tuple[dict, list[Tally], dict | None]:
    """The campaign record, each implementation's tally in the order driven, and the end record (None when cut short).

    The file is read a line at a time, each line at most ``MOST_RECORD_BYTES``
    (``harness/inputs.py``). Every record is checked against
    ``results-record.schema.json``; only the last line may be cut off
    mid-write, as a campaign stopped at that moment leaves it. Verdicts of an
    implementation whose campaign was cut short are kept under a tally marked
    lost, so a partial file still renders what it found.
    """
    campaign, end, tallies = None, None, []
    pending: dict[str, StoredVerdicts] = {}
    cut = None  # the number of a line that is not JSON: refused unless it is the last
    offset = 0  # where the line starts
    again = path.is_file()  # a verdict is read again from where its line starts; from a pipe, every verdict is kept
    for number, line, ended in numbered_lines(str(path)):
        starts, offset = offset, offset + len(line) + ended
        if cut is not None:
            raise ResultsError(f"line {cut}: not a JSON record: not a results.jsonl written by gateproof verify")
        try:
            record = parse_json(line, repeats=None, limit=None)  # integers exact, a call's repeated keys kept
        except ScenarioError:
            cut = number
            continue
        _check(number, record)
        kind = record["record"]
        if (kind == "campaign") != (number == 1):
            raise ResultsError(f"line {number}: $.record: the campaign record must be the first line, and only it")
        if end is not None:
            raise ResultsError(f"line {number}: a {kind} record after the end record")
        try:
            if kind == "campaign":
                campaign = record
            elif kind == "verdict":
                pending.setdefault(record["implementation"], StoredVerdicts(path, again)).add(starts, verdict_of(record))
            elif kind == "implementation":
                tallies.append(_tally_of(record, pending.pop(record["name"], None) or StoredVerdicts(path, again)))
            else:
                end = record
        except (KeyError, TypeError, ValueError) as error:
            raise ResultsError(f"line {number}: a {kind} record that cannot be read ({type(error).__name__}: {error})") from None
    if campaign is None:
        if cut is not None:  # the first line itself
            raise ResultsError(f"line {cut}: not a JSON record: not a results.jsonl written by gateproof verify")
        raise ResultsError("no campaign record: not a results.jsonl written by gateproof verify")
    for name, verdicts in pending.items():
        tallies.append(Tally(name, verdicts=verdicts, lost=CUT_SHORT, expected=expectation(campaign, name)))
    return campaign, tallies, end
