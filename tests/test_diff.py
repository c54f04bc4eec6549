"""``gateproof diff``: the search, the documented consequences and the claims."""

import json

from click.testing import CliRunner

from gateproof.conformance.claims import CLAIMS, check_claim
from gateproof.conformance.cli import main
from gateproof.conformance.diff import documented_consequence, forced_source_count, search_differences
from gateproof.model.scenario import read_scenario

SAME_NAME = next(c for c in CLAIMS if c.id == "claim.175.same-name")


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


def test_the_command_writes_replayable_files_and_a_json_report(tmp_path):
    result = CliRunner().invoke(main, ["diff", "--from", "adr-175", "--to", "adr-179", "--json", "--no-claims", "--examples", "100", "--output", str(tmp_path)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["differences"] and all(d["expected"] for d in report["differences"])
    replayed = json.loads(open(report["differences"][0]["file"]).read())
    assert read_scenario(replayed).rules.name == "adr-175"


def test_the_text_report_shows_the_two_versions_side_by_side(tmp_path):
    result = CliRunner().invoke(main, ["diff", "--from", "adr-179", "--to", "nr-llm", "--no-claims", "--examples", "100", "--output", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "adr-179" in result.output and "nr-llm" in result.output and "dropped" in result.output
    hint = next(line for line in result.output.splitlines() if "gateproof explain --rules adr-179" in line)
    first = hint.split("--rules adr-179 ")[1].split()[0]
    explained = CliRunner().invoke(main, ["explain", "--rules", "nr-llm", first])
    assert explained.exit_code == 0 and "under rules nr-llm" in explained.output


def test_bad_options_exit_2_without_a_traceback(tmp_path):
    runner = CliRunner()
    for arguments in (["--from", "adr-999", "--to", "adr-175"], ["--from", "adr-175", "--to", "adr-175"], ["--from", "adr-166", "--to", "adr-175", "--examples", "0"]):
        result = runner.invoke(main, ["diff", *arguments, "--output", str(tmp_path)])
        assert result.exit_code == 2 and "Traceback" not in result.output, arguments
