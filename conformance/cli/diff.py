"""``gateproof diff``: where two rule versions part, as shrunk stories and the ADRs' own claims.

The proofs and the search run first and are printed together, so that a
proof of "alike" is never printed beside a decision difference the search
found at a step the proof speaks of: that is reported as an inconsistency
(the proofs' encoding departs from the model) instead. The claims are
printed as they come; progress goes to stderr, and the exit status says
whether anything was unexpected or inconsistent.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
import orjson

from ..program import command
from ..diff.claims import ClaimCheck, check_claim, claims_to_check
from .options import USAGE_ERROR, VERSIONS_COMMAND, RuleName, model_versions, out_option, verbosity_options
from ..diff.search import Difference, each_difference, forced_source_count
from ..diff.text import claim_lines, difference_lines, printed, proof_lines, summary_lines
from ..harness.documents import dumps_pretty
from .progress import Progress
from ..proofs.equivalence import SUBJECTS, Comparison, each_comparison

FORMAT_VERSION = 1


def _write(directory: Path, name: str, document: dict) -> str:
    path = directory / name
    path.write_bytes(dumps_pretty(document) + b"\n")
    return str(path)


def replayable(document: dict, version: str, description: str) -> dict:
    """The story as a scenario file that runs under ``version`` with ``gateproof decide``."""
    return {"gateproof": 1, "id": document["id"], "description": description, "rules": version, "world": document["world"], "steps": document["steps"]}


def _difference_report(difference: Difference, path: str, left: str, right: str) -> dict:
    return {
        "file": path,
        "step": difference.step,
        "op": difference.op,
        "keys": list(difference.keys),
        "forced_sources": forced_source_count(difference.scenario),
        "found_after_seconds": round(difference.seconds, 2),
        "expected": difference.consequence is not None,
        "consequence": difference.consequence,
        "from_result": difference.left["results"][difference.step],
        "to_result": difference.right["results"][difference.step],
        "explain": [command("explain", "--rules", left, path), command("explain", "--rules", right, path)],
    }


def _proof_report(comparison: Comparison, files: list[str], right: str) -> dict:
    return {
        "subjects": comparison.subjects.domain.name,
        "scope": comparison.scope,
        "bound": comparison.bound,
        "result": {"proved": "alike", "counterexample": "differ"}.get(comparison.outcome, comparison.outcome),
        "seconds": round(comparison.seconds, 3),
        "files": files,
        "replay": [line for path in files for line in (command("decide", path), command("decide", "--rules", right, path))],
        "reason": comparison.reason,
    }


def _claim_report(check: ClaimCheck, path: str | None) -> dict:
    return {
        "id": check.claim.id,
        "adr": check.claim.adr,
        "statement": check.claim.statement,
        "versions": list(check.versions),
        "status": "held" if check.held else "broken",
        "expected": "held" if check.expected else "not claimed",
        "documented": check.documented or None,
        "counterexample": path,
        "replay": None if path is None else command("decide", path),
    }


def unexpected_count(report: dict) -> int:
    """Differences no ADR documents, claims found otherwise than their ADRs say, and proofs the search contradicts."""
    return (sum(not d["expected"] for d in report["differences"]) + sum(c["expected"] == "held" and c["status"] == "broken" for c in report["claims"])
            + sum(p["result"] == INCONSISTENT for p in report["proofs"]))


#: The keys of a step's result the proofs decide (``catalog.same_decision``), and the ops each kind of subject speaks of (the
#: gate over resolved sources speaks of no step alone: a step's sources are resolved first).
PROVED_KEYS = {"declared_class", "source", "decision", "sent"}
PROVED_OPS = {"playground send": {"send"}, "run story": {"dequeue", "resume"}}
INCONSISTENT = "inconsistent"


def contradicted(proof: dict, differences: list[dict]) -> dict | None:
    """The first difference the search found that a proof of "alike" denies: one in a decided key at a step the proof speaks of."""
    if proof["result"] != "alike":
        return None
    ops = PROVED_OPS.get(proof["subjects"], set())
    return next((d for d in differences if d["op"] in ops and PROVED_KEYS & set(d["keys"])), None)


def checked_against_search(proofs: list[dict], differences: list[dict]) -> list[dict]:
    """The proofs, each "alike" the search contradicts turned into an inconsistency that names the difference."""
    checked = []
    for proof in proofs:
        difference = contradicted(proof, differences)
        if difference is not None:
            proof = {**proof, "result": INCONSISTENT, "reason": (
                f"z3 found no story here on which the two decide otherwise, but the search found step {difference['step']} "
                f"({difference['op']}) of {difference['file']} decided otherwise in {', '.join(sorted(PROVED_KEYS & set(difference['keys'])))}: "
                "the proofs' encoding departs from the model")}
        checked.append(proof)
    return checked


def compared(left: str | None, right: str | None) -> tuple[str, str]:
    """The two versions diff compares: --to, else the latest ADR version; --from, else the version --to changes (its predecessor)."""
    from gateproof.model.versions import default_version, predecessor

    right = right or default_version()
    if left is None:
        before = predecessor(right)
        if before is None:
            click.echo(f"gateproof: error: --to {right} changes no earlier version; name the one to compare it with in --from", err=True)
            sys.exit(USAGE_ERROR)
        left = before.name
    return left, right


EPILOG = ("Exit status: 0 when every difference found is one an ADR documents and every claim is as its ADR says; "
          "1 when any result is UNEXPECTED or a proof of alike is contradicted by a difference the search found (INCONSISTENT); "
          "2 for bad options or an output folder that cannot be created.")


@click.command(epilog=EPILOG)
@click.option("--from", "left", type=RuleName(model_versions),
              help=f"The version the outcomes are compared from ({VERSIONS_COMMAND} lists them); default: the one --to changes.")
@click.option("--to", "right", type=RuleName(model_versions), help="The version the outcomes are compared to; default: the latest ADR version.")
@out_option("diff-out", "Where the replayable scenario files go.")
@click.option("--examples", type=click.IntRange(1, 100_000), default=1000, show_default=True, help="Stories tried per search.")
@click.option("--limit", type=click.IntRange(1, 20), default=3, show_default=True, help="At most this many differences, each for a different reason.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--no-claims", is_flag=True, help="Skip checking the ADRs' consequence claims.")
@click.option("--bound", type=click.IntRange(1, 32), default=8, show_default=True,
              help="Prove the decisions alike for every send and run story up to this many sources and records, or show one where they part.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report (conformance/schema/diff-report.schema.json) instead of text.")
@verbosity_options
def diff(left: str, right: str, out: str, examples: int, limit: int, seed: int, no_claims: bool, bound: int, as_json: bool,
         quiet: bool, verbose: bool) -> None:
    """Prove where two rule versions decide alike, search for the smallest stories on which they differ, and check the ADRs' claims."""
    left, right = compared(left, right)
    if left == right:
        click.echo("gateproof: error: --from and --to name the same version; nothing can differ", err=True)
        sys.exit(USAGE_ERROR)
    directory = Path(out)
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        click.echo(f"gateproof: error: {out}: cannot create ({error.strerror})", err=True)
        sys.exit(USAGE_ERROR)

    def emit(lines: list[str]) -> None:
        if not as_json:
            click.echo("\n".join(printed(lines)))

    report = {"gateproof": FORMAT_VERSION, "from": left, "to": right, "bound": bound, "examples": examples, "seed": seed}
    started = time.monotonic()
    with Progress("diff", quiet, verbose) as progress:
        proofs = _proofs(left, right, bound, directory, progress)
        report["differences"], report["search_seconds"] = _search(left, right, examples, limit, seed, directory, progress)
        report["proofs"] = checked_against_search(proofs, report["differences"])
        emit([f"gateproof diff --from {left} --to {right}", "", "decisions (declared class, named source, decision, sent), proved with z3:"])
        emit([line for proof in report["proofs"] for line in proof_lines(proof)])
        emit(search_lines(report, left, right, limit, examples))
        report["claims"] = [] if no_claims else _claims(left, right, max(examples, 1000), seed, directory, progress, emit)
    report["seconds"] = round(time.monotonic() - started, 2)
    report["unexpected"] = unexpected_count(report)
    if as_json:
        sys.stdout.buffer.write(orjson.dumps(report, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        emit(summary_lines(report))
    sys.exit(1 if report["unexpected"] else 0)


def _proofs(left, right, bound, directory, progress) -> list[dict]:
    progress.stage(f"proving {left} and {right} alike with z3", total=len(SUBJECTS))
    proofs = []
    for comparison in each_comparison(left, right, bound):
        stem = f"proof-{comparison.subjects.domain.name.replace(' ', '-')}"
        files = [_write(directory, f"{stem}-{number}.json", document) for number, document in enumerate(comparison.documents, 1)]
        proofs.append(_proof_report(comparison, files, right))
        progress.advance()
        progress.line(f"{comparison.subjects.domain.name}: z3 says {proofs[-1]['result']} ({proofs[-1]['seconds']}s), to be checked against the search")
    return proofs


def search_lines(report: dict, left: str, right: str, limit: int, examples: int) -> list[str]:
    found, searched = report["differences"], report["search_seconds"]
    lines = ["", f"search: up to {limit} difference(s) in every key of the outcome, {examples} stories a search:"]
    lines += [line for entry in found for line in difference_lines(entry, left, right)]
    return lines + ["", f"  {len(found)} difference(s) found in {searched}s" if found else f"  no story found on which the two versions decide differently ({searched}s)"]


def _search(left, right, examples, limit, seed, directory, progress) -> tuple[list[dict], float]:
    progress.stage(f"searching for stories {left} and {right} decide differently: stories run")
    started, found = time.monotonic(), []
    for number, difference in enumerate(each_difference(left, right, examples, limit, seed, on_story=progress.advance), 1):
        what = difference.consequence or "unexpected: no ADR documents this difference"
        document = replayable(difference.scenario, left, f"{left} and {right} differ at step {difference.step} ({difference.op}): {what}")
        found.append(_difference_report(difference, _write(directory, f"difference-{number}.json", document), left, right))
        progress.line(f"difference {number} at step {difference.step} ({difference.op}), after {found[-1]['found_after_seconds']}s")
    return found, round(time.monotonic() - started, 2)


def _claims(left, right, examples, seed, directory, progress, emit) -> list[dict]:
    todo = claims_to_check(left, right)
    if not todo:
        return []
    progress.stage("checking the ADRs' consequence claims", total=len(todo))
    emit(["", "consequence claims the ADRs make:"])
    claims = []
    for number, (claim, version, other) in enumerate(todo, 1):
        check = check_claim(claim, version, other, examples, seed)
        path = None
        if check.counterexample is not None:
            description = f"breaks {check.claim.id} under {check.versions[0]}: {check.claim.statement}"
            path = _write(directory, f"claim-{number}-{check.claim.id}.json", replayable(check.counterexample, check.versions[0], description))
        claims.append(_claim_report(check, path))
        progress.advance()
        progress.line(f"{claim.id} under {', '.join(check.versions)}: {claims[-1]['status']}")
        emit(claim_lines(claims[-1]))
    return claims
