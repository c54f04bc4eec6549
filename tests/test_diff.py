"""``gateproof diff``: the search, the documented consequences, the claims, the report and its exit status."""

import json
import re
import shlex
from pathlib import Path

import attrs
import jsonschema_rs
import pytest
from click.testing import CliRunner

from gateproof.conformance.diff.claims import check_claim, declared_claims
from gateproof.conformance.cli import main
from gateproof.conformance.cli import diff as diff_command
from gateproof.conformance.cli.diff import unexpected_count
from gateproof.conformance.proofs.engine import PROVED
from gateproof.conformance.proofs.equivalence import SUBJECTS, Comparison
from gateproof.conformance.program import program
from gateproof.conformance.diff.search import documented_consequence, forced_source_count, search_differences
from gateproof.model import versions
from gateproof.model.scenario import read_scenario

SAME_NAME = next(c for c in declared_claims() if c.id == "claim.175.same-name")
SCHEMA = json.loads((Path(__file__).resolve().parent.parent / "conformance" / "schema" / "diff-report.schema.json").read_text())


def run_diff(*arguments):
    return CliRunner().invoke(main, ["diff", *arguments])


def printed_commands(text: str) -> list[str]:
    """Every command the text shows to run: a line of its own after ``$ ``."""
    return [line.strip()[2:] for line in text.splitlines() if line.strip().startswith("$ ")]


def test_166_to_175_differs_on_at_most_two_forced_sources():
    # How long the search takes is measured by make bench, not asserted here.
    [difference] = search_differences("adr-166", "adr-175", examples=400, limit=1)
    assert forced_source_count(difference.scenario) <= 2
    assert difference.consequence.startswith("ADR-175")


def test_175_to_179_changes_no_decision_only_the_dropped_record():
    differences = search_differences("adr-175", "adr-179", examples=200, limit=3)
    assert differences
    assert all(d.keys == ("dropped",) and d.consequence.startswith("ADR-179") for d in differences)


def test_an_undocumented_difference_is_reported_as_unexpected():
    assert documented_consequence("adr-175", "adr-179", "resume", ["decision"]) is None
    assert documented_consequence("adr-164", "adr-166", "resume", ["source"]).startswith("ADR-165")


def test_the_same_name_claim_breaks_under_166_and_holds_under_175():
    broken = check_claim(SAME_NAME, "adr-166", "adr-166", examples=1000)
    assert not broken.held and not broken.expected and "ADR-175" in broken.documented
    read_scenario(broken.counterexample)
    held = check_claim(SAME_NAME, "adr-175", "adr-175", examples=200)
    assert held.held and held.expected


def test_the_command_writes_replayable_files_and_a_json_report_valid_against_its_schema(tmp_path):
    result = run_diff("--from", "adr-175", "--to", "adr-179", "--json", "--no-claims", "--examples", "100", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    jsonschema_rs.validate(SCHEMA, report)
    assert report["differences"] and all(d["expected"] for d in report["differences"]) and report["unexpected"] == 0
    replayed = json.loads(open(report["differences"][0]["file"]).read())
    assert read_scenario(replayed).rules.name == "adr-175"


def test_every_printed_command_runs_and_explains_the_step_that_differs(tmp_path):
    """Each explain command diff prints runs as printed, and its step N is the step whose results differ, under that version."""
    result = run_diff("--from", "adr-179", "--to", "nr-llm", "--no-claims", "--examples", "100", "--out", str(tmp_path))
    assert result.exit_code == 0, result.output
    report = json.loads(run_diff("--from", "adr-179", "--to", "nr-llm", "--no-claims", "--examples", "100", "--out", str(tmp_path / "j"), "--json").stdout)
    commands = printed_commands(result.stdout)
    assert commands and len(commands) == sum(len(d["explain"]) for d in report["differences"]) + sum(len(p["replay"]) for p in report["proofs"])
    for command in commands:
        prefix, arguments = len(shlex.split(program())), shlex.split(command)
        assert " ".join(arguments[:prefix]) == " ".join(shlex.split(program()))
        arguments = ["gateproof", *arguments[prefix:]]
        done = CliRunner().invoke(main, arguments[1:])
        assert done.exit_code == 0, (command, done.output)
        if arguments[1] == "explain":
            rules, path = arguments[3], arguments[4]
            entry = next(d for d in report["differences"] if Path(d["file"]).name == Path(path).name)
            step = entry["step"]
            assert f"under rules {rules}" in done.output
            assert re.search(rf"^step {step}: {entry['op']} ", done.output, re.M), done.output
            trace = json.loads(CliRunner().invoke(main, [*arguments[1:4], "--json", path]).output)
            side = entry["from_result"] if rules == "adr-179" else entry["to_result"]
            assert trace["steps"][step]["result"] == side


def test_values_are_printed_in_full(tmp_path):
    result = run_diff("--from", "adr-166", "--to", "adr-175", "--no-claims", "--examples", "300", "--limit", "3", "--out", str(tmp_path))
    report = json.loads(run_diff("--from", "adr-166", "--to", "adr-175", "--no-claims", "--examples", "300", "--limit", "3", "--out", str(tmp_path), "--json").stdout)
    flat = " ".join(result.stdout.split())
    for entry in report["differences"]:
        for key in entry["keys"]:
            for side in (entry["from_result"], entry["to_result"]):
                if key in side:
                    assert " ".join(json.dumps(side[key], ensure_ascii=False).split()) in flat
    assert "..." not in result.stdout


def test_an_unexpected_difference_exits_1(tmp_path, monkeypatch):
    """With ADR-179's consequence taken out of what is documented, the dropped record it adds is unexpected: CI sees exit status 1."""
    bare = [attrs.evolve(d, consequences=()) if d.name == "adr-179" else d for d in versions.DECLARATIONS]
    monkeypatch.setattr(versions, "DECLARATIONS", tuple(bare))
    result = run_diff("--from", "adr-175", "--to", "adr-179", "--no-claims", "--examples", "100", "--limit", "1", "--out", str(tmp_path))
    assert result.exit_code == 1, result.output
    assert "UNEXPECTED: no ADR documents this difference" in result.stdout
    assert "1 UNEXPECTED result(s): exit status 1" in result.stdout


def test_a_claim_broken_inside_its_span_counts_as_unexpected_and_one_outside_it_never():
    broken_inside = {"status": "broken", "expected": "held"}
    outside = [{"status": status, "expected": "not claimed"} for status in ("held", "broken")]
    assert unexpected_count({"differences": [{"expected": True}], "claims": [broken_inside, *outside], "proofs": []}) == 1


def test_a_claim_that_holds_before_its_span_is_no_finding(tmp_path):
    """claim.175.same-name holds under pre-164, where no forced skill exists to tie: the claim is not made there, and not UNEXPECTED."""
    result = run_diff("--from", "pre-164", "--to", "adr-164", "--examples", "300", "--limit", "1", "--out", str(tmp_path))
    assert "claim.175.same-name under pre-164: held (not claimed here)" in result.stdout, result.stdout
    assert "UNEXPECTED" not in result.stdout


def test_a_difference_no_adr_documents_counts_as_unexpected():
    assert unexpected_count({"differences": [{"expected": False}, {"expected": True}], "claims": [], "proofs": [{"result": "alike"}]}) == 1


def test_diff_never_prints_alike_beside_a_decision_difference_its_search_found(tmp_path, monkeypatch):
    """A z3 side that departs from the model (here: one that finds every pair alike) is reported as inconsistent, exit status 1."""
    def always_alike(left, right, bound, timeout_seconds=None):
        return iter([Comparison(subjects, left, right, bound, PROVED, 0.0) for subjects in SUBJECTS])

    monkeypatch.setattr(diff_command, "each_comparison", always_alike)
    arguments = ["--from", "adr-166", "--to", "adr-175", "--no-claims", "--examples", "300", "--limit", "3", "--out", str(tmp_path)]
    text, report = run_diff(*arguments), json.loads(run_diff(*arguments, "--json").stdout)
    assert text.exit_code == 1, text.output
    proofs = {proof["subjects"]: proof for proof in report["proofs"]}
    assert proofs["playground send"]["result"] == "inconsistent" and "departs from the model" in proofs["playground send"]["reason"]
    shown = " ".join(text.stdout.split())
    assert "alike for every playground send" not in shown and "INCONSISTENT for every playground send" in shown
    assert report["unexpected"] >= 1


def test_the_help_documents_the_exit_statuses():
    text = " ".join(run_diff("--help").output.split())
    assert "Exit status: 0 when" in text and "1 when any result is UNEXPECTED" in text and "2 for bad options" in text


def test_progress_goes_to_stderr_as_plain_lines_and_quiet_silences_it(tmp_path):
    arguments = ["--from", "adr-175", "--to", "adr-179", "--no-claims", "--examples", "50", "--limit", "1", "--out", str(tmp_path)]
    shown = run_diff(*arguments)
    assert "diff: proving adr-175 and adr-179 alike with z3 ..." in shown.stderr and "diff: difference 1 at step" in shown.stderr
    assert "diff:" not in shown.stdout
    quiet = run_diff(*arguments, "--quiet")
    untimed = lambda text: re.sub(r"\d+(\.\d+)?s\b", "Ns", text)  # noqa: E731
    assert quiet.exit_code == 0 and quiet.stderr == "" and untimed(quiet.stdout) == untimed(shown.stdout)


@pytest.mark.parametrize("arguments, message", [
    (["--from", "adr-999", "--to", "adr-175"], "'adr-999' is not a rule version; closest: adr-"),
    (["--from", "adr-175", "--to", "adr-175"], "name the same version"),
    (["--from", "adr-166", "--to", "adr-175", "--examples", "0"], "--examples"),
    (["--from", "adr-166", "--to", "adr-175", "--output", "x"], "No such option '--output'. Did you mean '--out'?"),
])
def test_bad_options_exit_2_without_a_traceback(tmp_path, arguments, message):
    result = run_diff(*arguments, "--out", str(tmp_path))
    assert result.exit_code == 2 and "Traceback" not in result.output and message in result.output, arguments
    assert "pre-164" not in result.output


def test_without_versions_it_compares_the_latest_with_the_version_it_changes(tmp_path):
    arguments = ["diff", "--examples", "20", "--bound", "2", "--no-claims", "--json", "--out", str(tmp_path)]
    report = json.loads(CliRunner().invoke(main, arguments).stdout)
    assert (report["from"], report["to"]) == (versions.predecessor(versions.default_version()).name, versions.default_version())
    profile = json.loads(CliRunner().invoke(main, [*arguments, "--to", "nr-llm"]).stdout)
    assert (profile["from"], profile["to"]) == (versions.declared("nr-llm").profile_of, "nr-llm")


def test_a_to_that_changes_no_earlier_version_needs_a_from():
    done = CliRunner().invoke(main, ["diff", "--to", versions.adr_versions()[0].name])
    assert done.exit_code == 2 and done.output == (f"gateproof: error: --to {versions.adr_versions()[0].name} changes no earlier version; "
                                                   "name the one to compare it with in --from\n")
