"""``gateproof diff``: where two rule versions part, as shrunk stories and the ADRs' own claims."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import click

from gateproof.model.versions import VERSIONS

from .claims import ClaimCheck, check_claims
from .diff import Difference, forced_source_count, search_differences
from .documents import dumps_pretty
from .options import hypothesis_kept_out_of_working_directory, writable_folder
from .proofs.equivalence import Comparison, compare_versions

USAGE_ERROR = 2


def _write(directory: Path, name: str, document: dict) -> str:
    path = directory / name
    path.write_bytes(dumps_pretty(document) + b"\n")
    return str(path)


def replayable(document: dict, version: str, description: str) -> dict:
    """The story as a scenario file that runs under ``version`` with ``gateproof decide``."""
    return {"gateproof": 1, "id": document["id"], "description": description, "rules": version, "world": document["world"], "steps": document["steps"]}


def _cell(value) -> str:
    text = json.dumps(value)
    return text if len(text) <= 58 else text[:55] + "..."


def side_by_side(difference: Difference, left: str, right: str) -> list[str]:
    """The differing keys of the first differing step, one version per column."""
    a, b = difference.left["results"][difference.step], difference.right["results"][difference.step]
    lines = [f"    {'key':<16} {left:<58} {right}"]
    for key in difference.keys:
        lines.append(f"    {key:<16} {_cell(a.get(key, '(absent)')):<58} {_cell(b.get(key, '(absent)'))}")
    return lines


def _difference_report(number: int, difference: Difference, path: str) -> dict:
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
    }


def _proof_report(comparison: Comparison, files: list[str]) -> dict:
    return {
        "subjects": comparison.subjects.domain.name,
        "scope": comparison.scope,
        "result": {"proved": "alike", "counterexample": "differ"}.get(comparison.outcome, comparison.outcome),
        "seconds": round(comparison.seconds, 3),
        "files": files,
        "reason": comparison.reason,
    }


def _claim_report(check: ClaimCheck, path: str | None) -> dict:
    return {
        "id": check.claim.id,
        "adr": check.claim.adr,
        "statement": check.claim.statement,
        "versions": list(check.versions),
        "status": "held" if check.held else "broken",
        "expected": "held" if check.expected else "broken",
        "documented": check.documented or None,
        "counterexample": path,
    }


@click.command()
@click.option("--from", "left", required=True, type=click.Choice(sorted(VERSIONS)), help="The version the outcomes are compared from.")
@click.option("--to", "right", required=True, type=click.Choice(sorted(VERSIONS)), help="The version the outcomes are compared to.")
@click.option("--output", type=click.Path(file_okay=False), default="diff-out", show_default=True, callback=writable_folder, help="Where the replayable scenario files go.")
@click.option("--examples", type=click.IntRange(1, 100_000), default=1000, show_default=True, help="Stories tried per search.")
@click.option("--limit", type=click.IntRange(1, 20), default=3, show_default=True, help="At most this many differences, each for a different reason.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--no-claims", is_flag=True, help="Skip checking the ADRs' consequence claims.")
@click.option("--bound", type=click.IntRange(1, 32), default=8, show_default=True,
              help="Prove the decisions alike for every send and run story up to this many sources and records, or show one where they part.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable report instead of text.")
@hypothesis_kept_out_of_working_directory()
def diff(left: str, right: str, output: str, examples: int, limit: int, seed: int, no_claims: bool, bound: int, as_json: bool) -> None:
    """Prove where two rule versions decide alike, search for the smallest stories on which they differ, and check the ADRs' claims."""
    if left == right:
        click.echo("gateproof: error: --from and --to name the same version; nothing can differ", err=True)
        sys.exit(USAGE_ERROR)
    directory = Path(output)
    directory.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    differences = search_differences(left, right, examples, limit, seed)
    searched = time.monotonic() - started
    found = []
    for number, difference in enumerate(differences, 1):
        what = difference.consequence or "unexpected: no ADR documents this difference"
        document = replayable(difference.scenario, left, f"{left} and {right} differ at step {difference.step} ({difference.op}): {what}")
        found.append(_difference_report(number, difference, _write(directory, f"difference-{number}.json", document)))
    claims = []
    if not no_claims:
        for number, check in enumerate(check_claims(left, right, max(examples, 1000), seed), 1):
            path = None
            if check.counterexample is not None:
                description = f"breaks {check.claim.id} under {check.versions[0]}: {check.claim.statement}"
                path = _write(directory, f"claim-{number}-{check.claim.id}.json", replayable(check.counterexample, check.versions[0], description))
            claims.append(_claim_report(check, path))
    proofs = []
    for comparison in compare_versions(left, right, bound):
        stem = f"proof-{comparison.subjects.domain.name.replace(' ', '-')}"
        files = [_write(directory, f"{stem}-{number}.json", document) for number, document in enumerate(comparison.documents, 1)]
        proofs.append(_proof_report(comparison, files))
    report = {
        "from": left, "to": right, "search_seconds": round(searched, 2), "seconds": round(time.monotonic() - started, 2),
        "proofs": proofs, "differences": found, "claims": claims,
    }
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(print_report(report, differences))


def print_report(report: dict, differences: list[Difference]) -> str:
    left, right = report["from"], report["to"]
    lines = [f"gateproof diff --from {left} --to {right}", "", "decisions (declared class, named source, decision, sent), proved with z3:"]
    for proof in report["proofs"]:
        if proof["result"] == "alike":
            lines.append(f"  alike for {proof['scope']}  ({proof['seconds']}s)")
        elif proof["result"] == "differ":
            lines.append(f"  differ for some {proof['subjects']}: {', '.join(proof['files'])}  (decide it, then decide --rules {right})")
        else:
            lines.append(f"  unknown for {proof['scope']}: {proof['reason']}")
    lines += ["", f"search: {len(differences)} difference(s) in every key of the outcome, in {report['search_seconds']}s"]
    for entry, difference in zip(report["differences"], differences):
        verdict = f"expected: {entry['consequence']}" if entry["expected"] else "UNEXPECTED: no ADR documents this difference"
        lines += ["", f"  {entry['file']}: step {entry['step']} ({entry['op']}), {entry['forced_sources']} forced source(s), found after {entry['found_after_seconds']}s", f"    {verdict}"]
        lines += side_by_side(difference, left, right)
    if differences:
        first = report["differences"][0]["file"]
        lines += ["", f"  to see why, explain a difference under each version: gateproof explain --rules {left} {first}  (then --rules {right})"]
    if not differences:
        lines.append("  no story found on which the two versions decide differently")
    if report["claims"]:
        lines += ["", "consequence claims the ADRs make:"]
    for claim in report["claims"]:
        status = claim["status"] + ("" if claim["status"] == claim["expected"] else " (UNEXPECTED)")
        lines.append(f"  {claim['id']} under {', '.join(claim['versions'])}: {status} — {claim['statement']} [{claim['adr']}]")
        if claim["documented"]:
            lines.append(f"    {claim['documented']}")
        if claim["counterexample"]:
            lines.append(f"    counterexample: {claim['counterexample']}")
    return "\n".join(lines)
