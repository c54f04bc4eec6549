"""One mutant through ``gateproof verify``, as a subprocess whose exit status, files and stderr are all that is read.

Exit 1 is a caught mutant, 0 a survivor; exit 2 after the mutant failed to
start (or to restart) is a mutant that crashes on import, counted apart as
stillborn; anything else, and a run cut short by the timeout before any
disagreement was recorded, is an error kept with the tail of verify's stderr.

verify appends each verdict to results.jsonl the moment it is reached, and a
failing verdict fixes its exit status as non-conformant; so by default the run
is stopped there, sparing the shrinking of further disagreements that would
take most of a caught mutant's time and change nothing found.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import orjson
from attrs import frozen

from gateproof.model.scenario import ScenarioError, read_scenario, run_scenario
from gateproof.model.scenario.schema import validate

from ..harness.compare import compare
from .serve import JOURNAL

CAUGHT, SURVIVED, STILLBORN, ERROR = "caught", "survived", "stillborn", "error"
#: Verdicts that make verify exit 1 (harness/results.py's FAILING).
FAILING = ("failed", "errored", "nondeterministic")
STDERR_TAIL = 12  # lines of verify's stderr kept with an error
POLL = 0.2  # seconds between looks at a running verify
STOP_GRACE = 10.0  # seconds verify is given to end its implementation's group when it is cut short


@frozen
class VerifySettings:
    """What every mutant's verify run shares."""

    timeout: float  # seconds for one mutant's whole run
    examples: int | None = None  # None: verify's own default
    # Once verify has recorded a failing verdict it can only exit non-conformant: what follows is shrinking
    # further disagreements, which costs most of a caught mutant's run and cannot change the finding.
    stop_at_first: bool = True


@frozen
class Finding:
    """What verify made of one mutant."""

    mutant: str
    status: str
    seconds: float
    to_catch: int | None = None  # scenarios verify ran up to and including the first the mutant decided wrong
    counterexample: str | None = None  # the id of the first scenario verify recorded as failed
    phase: str | None = None  # where that was: corpus or generated
    detail: str = ""


def verify_command(mutant_id: str, folder: Path, settings: VerifySettings) -> list[str]:
    """verify, run by this interpreter, driving the mutation server as an implementation given by its command."""
    command = [sys.executable, "-m", "gateproof.conformance.cli", "verify", "--out", str(folder), "--report", "json"]
    if settings.examples is not None:
        command += ["--examples", str(settings.examples)]
    return [*command, "--", sys.executable, "-m", "gateproof.conformance.mutation.serve", mutant_id]


def json_lines(path: Path) -> list[dict]:
    try:
        return _json_lines_of(path.read_bytes().splitlines())
    except OSError:
        return []


def _lost(report_path: Path) -> str | None:
    """Why verify could not drive the implementation to the end, from its report; None when it could (or wrote none)."""
    try:
        implementations = orjson.loads(report_path.read_bytes())["implementations"]
    except (OSError, orjson.JSONDecodeError, KeyError, TypeError):
        return None
    return next((i.get("lost") for i in implementations if i.get("lost")), None)


def first_failure(results: list[dict]) -> dict | None:
    return next((verdict for verdict in results if verdict.get("status") in FAILING), None)


def scenarios_to_catch(journal: list[dict]) -> int | None:
    """How many scenarios the mutant answered up to the first answer the model would not have given.

    verify keeps the scenarios that pass only as counts, so results.jsonl
    cannot say where among the generated ones the first disagreement fell;
    the server's journal can, replayed here against the pristine model.
    """
    for position, entry in enumerate(journal, start=1):
        if _is_wrong(entry):
            return position
    return None


def _is_wrong(entry: dict) -> bool:
    """Whether verify would not pass this answer: an error, an outcome that breaks its schema, or one the model does not give."""
    if "errored" in entry:
        return True
    try:
        validate("outcome", entry["outcome"])
    except ScenarioError:
        return True  # verify refuses it as a reply, and counts the run errored
    return compare(run_scenario(read_scenario(entry["scenario"])), entry["outcome"], "full") is not None


def classify(mutant_id: str, exit_code: int | None, cut_short: str, seconds: float, folder: Path) -> Finding:
    """The finding from what one verify run left: its exit status (None when ``cut_short`` says why it was stopped) and its files."""
    failure = first_failure(json_lines(folder / "results.jsonl"))
    # Exit status 1 is verify's verdict only with a failing verdict or its report written: Python exits 1 on an uncaught error too.
    finished = failure is not None or (folder / "report.json").is_file()
    if (exit_code == 1 and finished) or (exit_code is None and failure is not None):
        to_catch = scenarios_to_catch(json_lines(folder / "journal.jsonl"))
        counterexample, phase = (failure.get("scenario"), failure.get("phase")) if failure else (None, None)
        return Finding(mutant_id, CAUGHT, seconds, to_catch, counterexample, phase, cut_short)
    if exit_code == 0:
        return Finding(mutant_id, SURVIVED, seconds)
    lost = _lost(folder / "report.json") if exit_code == 2 else None
    if lost is not None and lost.startswith(("did not start", "could not be restarted")):
        return Finding(mutant_id, STILLBORN, seconds, detail=lost)
    try:
        tail = "\n".join((folder / "stderr.txt").read_text(encoding="utf-8", errors="replace").strip().splitlines()[-STDERR_TAIL:])
    except OSError:
        tail = ""
    why = cut_short if exit_code is None else f"verify exited with status {exit_code}"
    return Finding(mutant_id, ERROR, seconds, detail=f"{why}\n{tail}".strip())


class FailureWatch:
    """Reads results.jsonl as verify appends to it, and says when a failing verdict has been recorded."""

    def __init__(self, path: Path):
        self.path, self.offset, self.pending = path, 0, b""

    def has_failed(self) -> bool:
        try:
            with self.path.open("rb") as handle:
                handle.seek(self.offset)
                chunk = handle.read()
        except OSError:
            return False
        self.offset += len(chunk)
        *lines, self.pending = (self.pending + chunk).split(b"\n")
        return first_failure(_json_lines_of(lines)) is not None


def _json_lines_of(lines: list[bytes]) -> list[dict]:
    """The lines that parse; a line cut off when verify was stopped is left out."""
    parsed = []
    for line in lines:
        try:
            parsed.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            continue
    return parsed


def _wait(process: subprocess.Popen, watch: FailureWatch | None, timeout: float) -> tuple[int | None, str]:
    """The exit status, or None and why the run was cut short: at its first disagreement, or at the timeout."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return process.wait(timeout=POLL), ""
        except subprocess.TimeoutExpired:
            pass
        if watch is not None and watch.has_failed():
            reason = "stopped at the first disagreement"
        elif time.monotonic() >= deadline:
            reason = f"timed out after {timeout:g}s"
        else:
            continue
        _end(process)
        return None, reason


def _end(process: subprocess.Popen) -> None:
    """SIGTERM first: verify ends the process group of the mutant it started (a session of its own); then kill verify's group.

    The leader is left unreaped until its group is killed, so the group's number cannot meanwhile be another's.
    """
    for number in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, number)
        except ProcessLookupError:
            break
        deadline = time.monotonic() + STOP_GRACE
        while number == signal.SIGTERM and time.monotonic() < deadline and _running(process):
            time.sleep(0.05)
    process.wait()


def _running(process: subprocess.Popen) -> bool:
    return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None


def run_mutant(mutant_id: str, folder: Path, settings: VerifySettings) -> Finding:
    """Drive one mutant with verify in ``folder``; never raises for anything verify or the mutant does."""
    folder.mkdir(parents=True, exist_ok=True)
    environment = {**os.environ, JOURNAL: str(folder / "journal.jsonl")}
    started = time.perf_counter()
    with (folder / "stderr.txt").open("wb") as stderr:
        try:
            process = subprocess.Popen(verify_command(mutant_id, folder, settings), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                       stderr=stderr, env=environment, start_new_session=True)
        except OSError as error:
            return Finding(mutant_id, ERROR, 0.0, detail=f"cannot run verify: {error}")
        watch = FailureWatch(folder / "results.jsonl") if settings.stop_at_first else None
        exit_code, cut_short = _wait(process, watch, settings.timeout)
    seconds = time.perf_counter() - started
    try:
        return classify(mutant_id, exit_code, cut_short, seconds, folder)
    except Exception as error:  # whatever a mutant left behind, one finding is lost, never the run
        return Finding(mutant_id, ERROR, seconds, detail=f"cannot read what verify left (exit status {exit_code}): {type(error).__name__}: {error}")
