"""Each report format rendered from a recorded ``results.jsonl``, and checked the way its reader would check it."""

import copy
import html
import json
import re
from xml.etree import ElementTree

import jsonschema_rs
import pytest

from gateproof.conformance.reports.campaign import RecordedCampaign, read_campaign
from gateproof.conformance.reports.render import render, render_results
from gateproof.conformance.generation.reach_rules import ADR_DIR, ENTRY

from report_helpers import Page, invalid_records, mutant, record, schema, tally, verdict_of, verify, wrong_export

PR_COMMENT = 65_536


@pytest.fixture(scope="module")
def builtin_all(tmp_path_factory):
    """``verify --builtin all`` with default settings but no generated scenarios: the corpus alone catches every mutant."""
    out = tmp_path_factory.mktemp("all") / "gateproof-verify"
    result = verify("--builtin", "all", "--examples", "0", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out / "results.jsonl"


@pytest.fixture
def one_wrong(tmp_path):
    """One implementation wrong on one case: a field it left out and one it made null."""
    return record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", wrong_export())])])


def test_every_record_verify_writes_is_valid_against_its_schema(builtin_all):
    records = [json.loads(line) for line in builtin_all.read_text().splitlines()]
    assert {r["record"] for r in records} == {"campaign", "verdict", "implementation", "end"}
    assert invalid_records(builtin_all) == []


def test_the_json_report_is_valid_and_carries_version_start_durations_and_the_difference(builtin_all):
    document = json.loads(render_results(builtin_all, "json"))
    jsonschema_rs.validate(schema("verify-report.schema.json"), document)
    campaign = json.loads(builtin_all.read_text().splitlines()[0])
    assert (document["gateproof"], document["started"], document["complete"]) == (campaign["gateproof"], campaign["started"], True)
    assert document["seconds"] >= sum(i["seconds"] for i in document["implementations"]) > 0
    unsafe = next(i for i in document["implementations"] if i["implementation"] == "mutant:unsafe-gateway")
    attack = next(v for v in unsafe["verdicts"] if v["scenario"] == "gw.poisoned-runbook.attack-proposal")
    [decision] = [leaf for leaf in attack["differences"] if leaf["path"] == "results[0].decision"]
    # The unsafe gateway allows what the model denies at the destination check.
    assert (decision["expected"], decision["actual"]) == ("deny", "allow") and "G001.8" in decision["rules"]


def test_the_json_report_keeps_a_missing_field_apart_from_null(one_wrong):
    document = json.loads(render_results(one_wrong, "json"))
    jsonschema_rs.validate(schema("verify-report.schema.json"), document)
    leaves = {leaf["path"]: leaf for leaf in document["implementations"][0]["verdicts"][0]["differences"]}
    assert leaves["results[0].audit.case_id"] == {"path": "results[0].audit.case_id", "expected": "CASE-9", "rules": ["G001.15", "G001.10"]}
    assert leaves["results[0].audit.destination_id"]["actual"] is None


def test_the_html_report_parses_and_shows_each_leaf_side_by_side_with_the_rule_that_decides_it(one_wrong):
    text = render_results(one_wrong, "html")
    page = Page(text)
    assert not page.open and {"details", "summary", "table", "style"} <= page.tags and "script" not in page.tags
    rows = text.split("<tr><td><code>")
    [absent] = [row for row in rows if row.startswith("results[0].audit.case_id</code>")]
    assert '"CASE-9"' in html.unescape(absent) and '<span class="absent">absent</span>' in absent  # expected has it; the implementation lacks it
    [null] = [row for row in rows if row.startswith("results[0].audit.destination_id</code>")]
    assert '"review-queue"' in html.unescape(null) and "<pre>null</pre>" in null
    titles = {m.group("id"): m.group("title") for path in ADR_DIR.glob("*.md") for m in ENTRY.finditer(path.read_text())}
    assert '<span class="rule">G001.15</span>' in absent and titles["G001.15"] in absent
    assert "how the model decides step 0 (gateproof explain)" in text and "case belongs to the session" in page.all_text


def test_the_html_matrix_links_each_cell_to_that_implementations_cases_of_the_family(builtin_all):
    text = render_results(builtin_all, "html")
    page = Page(text)
    assert not page.open and set(page.links) <= page.ids
    implementations = json.loads(render_results(builtin_all, "json"))["implementations"]
    column = [i["implementation"] for i in implementations].index("mutant:unsafe-gateway")
    row = text[text.index("<tr><th>gateway/injection</th>"):]
    cell = row[:row.index("</tr>")].split("<td")[1 + column]
    target = re.search(r'href="#([^"]+)"', cell).group(1)
    block = text[text.index(f'id="{target}"'):]
    block = block[:block.index("</div>")]  # the family's block ends where its div does
    failed = [v for v in implementations[column]["verdicts"] if v["family"] == "gateway/injection" and v["status"] == "failed"]
    assert "4 failed" in cell and len(failed) == 4
    assert failed and all(f"<code>{v['scenario']}</code>" in block for v in failed)


def test_each_smallest_counterexample_links_to_its_own_case_detail(builtin_all):
    text = render_results(builtin_all, "html")
    assert set(Page(text).links) <= Page(text).ids
    summary = text[text.index('<h2 id="summary">'):text.index('<h2 id="matrix">')]
    implementations = json.loads(render_results(builtin_all, "json"))["implementations"]
    mutants = [i for i in implementations if i["implementation"].startswith("mutant:")]
    linked = dict(re.findall(r'<a href="#([^"]+)">([^<]+ \([^<]+\))</a>', summary))
    assert len(linked) == len(mutants) == 11
    for target, shown in linked.items():
        case = text[text.index(f'<details id="{target}">'):]
        assert f"<code>{shown.split(' (')[0]}</code>" in case[:case.index("</summary>")]


def test_a_note_said_many_times_is_one_line_with_how_often_in_both_reports(tmp_path):
    notes = ["restarted after: exited with status 1"] * 123 + ["generated 0 of the 50 scenarios asked"]
    results = record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", wrong_export())], notes=notes)])
    markdown = render_results(results, "markdown")
    assert markdown.count("restarted after") == 1 and "- note: restarted after: exited with status 1 (123 times)" in markdown
    assert "- note: generated 0 of the 50 scenarios asked\n" in markdown
    page = Page(render_results(results, "html")).all_text
    assert page.count("restarted after") == 1 and "restarted after: exited with status 1 (123 times)" in page


def test_the_html_report_tells_each_verdict_apart_by_word_and_by_colour(tmp_path):
    wrong = verdict_of("my-gateway", wrong_export())
    passed = verdict_of("mutant:lazy", verdict_of("x", wrong_export()).disagreement.expected)
    results = record(tmp_path, [tally("reference", []), tally("my-gateway", [wrong]), mutant("mutant:caught", [wrong]),
                                mutant("mutant:lazy", [passed]), tally("node", [], unavailable="node is not on PATH", lost="unavailable")])
    badges = set(re.findall(r'<span class="badge (\w+)">([^<]+)</span>', render_results(results, "html")))
    shown = {word: colour for colour, word in badges if word in ("conformant", "NOT CONFORMANT", "caught", "MISSED", "unavailable")}
    assert len(shown) == 5 and len({shown["conformant"], shown["NOT CONFORMANT"], shown["caught"], shown["unavailable"]}) == 4
    assert shown["MISSED"] == shown["NOT CONFORMANT"]  # both are failures of what was expected


def test_the_html_header_carries_version_start_duration_and_settings(builtin_all):
    campaign, *_, end = [json.loads(line) for line in builtin_all.read_text().splitlines()]
    header = Page(render_results(builtin_all, "html")).all_text
    header = " ".join(header[:header.index("Summary")].split())
    assert f"gateproof {campaign['gateproof']} · started {campaign['started']} · finished {end['finished']} · took {end['seconds']:.1f} s" in header
    assert "compare full · examples 0 · seed 0 · rules all · kinds ceiling, gateway · timeout 10.0" in header


def test_the_markdown_report_of_every_builtin_fits_a_pull_request_comment(builtin_all):
    text = render_results(builtin_all, "markdown")
    assert len(text) < PR_COMMENT
    assert "## Compliance matrix" in text and text.count("<details>") == text.count("</details>") >= 11
    assert "| mutant:unsafe-gateway | must be caught | caught |" in text


def test_the_markdown_report_stays_under_the_limit_and_says_how_many_more_and_where(tmp_path):
    long_value = "x" * 5000
    wrong = wrong_export()
    wrong["results"][0]["audit"]["tool"] = long_value
    tallies = [tally(f"gateway-{n}", [verdict_of(f"gateway-{n}", wrong)] * 40) for n in range(30)]
    results = record(tmp_path, tallies)
    text = render_results(results, "markdown")
    assert len(text) < PR_COMMENT
    assert "35 more disagreements of this implementation, every one in the HTML report:" in text
    assert f"gateproof report {results} --format html --output {results.parent / 'report.html'}" in text


def test_the_junit_report_has_times_and_no_failure_for_a_run_that_met_every_expectation(builtin_all):
    root = ElementTree.fromstring(render_results(builtin_all, "junit"))
    assert float(root.get("time")) > 0 and root.get("failures") == root.get("errors") == "0"
    assert root.findall(".//failure") == [] and root.findall(".//error") == []
    report = json.loads(render_results(builtin_all, "json"))
    for suite, implementation in zip(root.findall("testsuite"), report["implementations"]):
        assert suite.get("name") == implementation["implementation"] and float(suite.get("time")) == pytest.approx(implementation["seconds"], abs=1e-3)
        if implementation["expected"] == "must be caught":
            caught = [c.get("name") for c in suite.findall("testcase")]
            assert caught == [f"caught by {v['scenario']}" for v in implementation["verdicts"] if v["status"] == "failed"]
    # Each corpus case carries what answering it added to the campaign: together no more than its implementation's time.
    reference = next(suite for suite in root.findall("testsuite") if suite.get("name") == "reference")
    corpus = [case for case in reference.findall("testcase") if not case.get("classname").startswith("reference.generated")]
    assert corpus and all(float(case.get("time")) >= 0 for case in corpus)
    assert sum(float(case.get("time")) for case in corpus) <= float(reference.get("time"))


def test_the_junit_report_gives_a_missed_mutant_one_failure_and_a_wrong_gateway_one_per_disagreement(tmp_path):
    passed = verdict_of("mutant:lazy", {**wrong_export(), "results": verdict_of("x", wrong_export()).disagreement.expected["results"]})
    assert passed.status == "passed"
    results = record(tmp_path, [mutant("mutant:lazy", [passed]), tally("my-gateway", [verdict_of("my-gateway", wrong_export())])])
    lazy, gateway = ElementTree.fromstring(render_results(results, "junit")).findall("testsuite")
    [missed] = lazy.findall("testcase/failure")
    assert missed.get("message").startswith("MISSED") and lazy.get("failures") == "1"
    [failure] = gateway.findall("testcase/failure")
    assert "results[0].audit.case_id" in failure.text and "expected" in failure.text


def test_a_campaign_cut_short_renders_what_it_found_marked_incomplete(tmp_path):
    results = record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", wrong_export())])], complete=False)
    with results.open("ab") as handle:
        handle.write(b'{"record": "verdict", "implementation": "my-gat')  # the line being written when it stopped
    for report_format in ("html", "markdown"):
        assert "incomplete" in render_results(results, report_format)
    [error] = ElementTree.fromstring(render_results(results, "junit")).findall("testsuite/testcase/error")
    assert error.get("type") == "incomplete"  # a CI shows that the campaign was not whole, beside the one failure it found
    document = json.loads(render_results(results, "json"))
    jsonschema_rs.validate(schema("verify-report.schema.json"), document)
    assert document["complete"] is False and document["finished"] is None and document["implementations"][0]["failed"] == 1


def test_a_campaign_merged_from_shards_with_one_missing_is_marked_incomplete(one_wrong):
    campaign = read_campaign(one_wrong)
    merged = RecordedCampaign(campaign.paths, {**campaign.record, "shards": {"of": 3, "present": [1, 3], "missing": [2]}},
                              campaign.tallies, campaign.end)
    for report_format in ("html", "markdown"):
        assert "incomplete: shard 2/3 missing" in render(merged, report_format)
    document = json.loads(render(merged, "json"))
    jsonschema_rs.validate(schema("verify-report.schema.json"), document)
    assert document["complete"] is False and document["shards"]["missing"] == [2]
    [error] = ElementTree.fromstring(render(merged, "junit")).findall("testsuite/testcase/error")
    assert error.get("message").startswith("incomplete: shard 2/3 missing")


def test_the_settings_read_as_a_person_gave_them(one_wrong):
    campaign = read_campaign(one_wrong)
    settings = {**campaign.record["settings"], "rules": None, "shard": [2, 4], "corpus": False, "timeout": None}
    shown = dict(RecordedCampaign(campaign.paths, {**campaign.record, "settings": settings}, (), None).settings_lines())
    assert (shown["rules"], shown["shard"], shown["corpus"], shown["timeout"]) == ("all", "2/4", "no", "-")
    assert shown["implementations"] == "-- ./my-gateway"  # as verify's options named it
    merged = dict(RecordedCampaign(campaign.paths, {**campaign.record, "settings": {**settings, "shard": None}}, (), None).settings_lines())
    assert merged["shard"] == "the parts merged"


def test_both_reports_say_where_two_long_texts_part(tmp_path):
    actual = wrong_export()
    actual["results"][0]["audit"]["tenant"] = "globex (as the proposal claimed it, not as the host holds it)"
    text = {fmt: render_results(record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", actual)])]), fmt) for fmt in ("markdown", "html")}
    assert 'they part after character 0, "": expected "acme", actual "globex (as the proposal "' in text["markdown"]
    assert '<tr class="parting">' in text["html"] and "they part after character 0" in html.unescape(text["html"])


@pytest.mark.parametrize("passed, failed, shown", [(4645, 4, "99.9%"), (10180, 27, "99.7%"), (9999, 1, "99.9%"), (10, 0, "100%"),
                                                   (1, 9999, "0.1%"), (0, 5, "0%"), (1, 1, "50%")])
def test_the_share_passing_is_rounded_down_so_a_failing_implementation_never_reads_100_percent(passed, failed, shown):
    from collections import Counter

    from gateproof.conformance.harness.results import Tally
    from gateproof.conformance.reports.summary import percent_passing

    assert percent_passing(Tally("x", unkept=Counter({("f", "passed"): passed, ("f", "failed"): failed}))) == shown


def _failed(scenario_id: str, steps: int, audit_field: str):
    from attrs import evolve

    verdict = verdict_of("my-gateway", wrong_export())
    scenario = dict(verdict.disagreement.scenario, id=scenario_id, steps=verdict.disagreement.scenario["steps"] * steps)
    actual = copy.deepcopy(verdict.disagreement.expected)
    actual["results"][0]["audit"][audit_field] = "other"
    return evolve(verdict, scenario_id=scenario_id, disagreement=evolve(verdict.disagreement, scenario=scenario, actual=actual))


def test_a_boundary_case_leads_the_disagreements_shown_then_the_smallest_of_each_kind():
    from gateproof.conformance.reports.terminal import distinct_first

    small, boundary, again = _failed("generated.1", 1, "tenant"), _failed("gw.boundary.g001.10.applies", 3, "tenant"), _failed("generated.2", 1, "user")
    assert [v.scenario_id for v in distinct_first([small, again, boundary])] == ["gw.boundary.g001.10.applies", "generated.2", "generated.1"]


def _allowed(scenario_id: str, steps: int):
    """A disagreement that exports the cross-tenant case the model refuses to: security (harness/severity.py)."""
    from attrs import evolve

    verdict = verdict_of("my-gateway", wrong_export())
    scenario = dict(verdict.disagreement.scenario, id=scenario_id, steps=verdict.disagreement.scenario["steps"] * steps)
    actual = copy.deepcopy(verdict.disagreement.expected)
    actual["results"][0].update(decision="allow", reason="allowed", caller_reason="allowed", rule=None,
                                exports=[{"case_id": "CASE-9", "destination_id": "review-queue", "tenant": "globex", "payload": ""}])
    return evolve(verdict, scenario_id=scenario_id, disagreement=evolve(verdict.disagreement, scenario=scenario, actual=actual))


def test_security_disagreements_lead_whatever_the_boundary_cases_and_sizes_and_those_not_shown_are_said():
    from gateproof.conformance.reports.terminal import disagreement_sections, distinct_first

    others = [_failed("gw.boundary.g001.10.applies", 1, "tenant"), _failed("generated.1", 1, "user"), _failed("generated.2", 1, "tool")]
    security = [_allowed(f"generated.{n}", 3) for n in (3, 4, 5, 6)]
    assert {v.disagreement.severity for v in security} == {"security"} and {v.disagreement.severity for v in others} == {"other"}
    assert distinct_first(others + security) == [*security, *others]  # the boundary case leads only the others
    sections = disagreement_sections([tally("my-gateway", others + security)], 100)
    assert [section[0] for section in sections[:3]] == ["SECURITY: step 0: allows a call the model denies (tenant_mismatch) [G001.13, "
                                                        "G001.10] (and 1 more)"] * 3
    assert ["my-gateway: 1 more security disagreement not shown: --verbose prints every one, and results.jsonl and the reports "
            "hold them"] in sections


def test_the_failed_count_is_told_apart_from_the_disagreements_kept_and_shown():
    from collections import Counter

    from gateproof.conformance.reports.terminal import disagreement_sections

    kept = [_failed(f"generated.{n}", 1, field) for n, field in enumerate(("tenant", "user", "tool", "decision"))]
    made = tally("my-gateway", kept, unkept=Counter({("generated/lab-001", "failed"): 31}))
    *_, last = disagreement_sections([made], 100)
    assert last == ["my-gateway: 35 failed scenarios; 4 kept as disagreements, 3 shown above; 31 more counted only, each differing in "
                    "fields a kept one differs in; every kept one is in results.jsonl and the reports"]
    assert len(disagreement_sections([tally("my-gateway", kept[:1])], 100)) == 1  # one failure, shown: nothing to count
    one = tally("my-gateway", kept[:1], unkept=Counter({("generated/lab-001", "failed"): 9}))
    assert disagreement_sections([one], 100)[-1][0].startswith("my-gateway: 10 failed scenarios; 1 kept as a disagreement, 1 shown above; 9 more")


def test_the_markdown_report_writes_each_differing_value_on_one_line(tmp_path):
    actual = wrong_export()
    actual["results"][0]["exports"] = [{"case_id": "CASE-9", "destination_id": "review-queue"}]
    text = render_results(record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", actual)])]), "markdown")
    assert '  actual:   {"case_id": "CASE-9", "destination_id": "review-queue"}' in text


def test_a_field_that_repeats_an_earlier_change_is_said_so_in_both_reports_and_the_html_keeps_its_values(tmp_path):
    actual = copy.deepcopy(wrong_export())
    actual["results"][0]["reason"] = actual["results"][0]["audit"]["reason"] = "not_assigned"
    text = {fmt: render_results(record(tmp_path, [tally("my-gateway", [verdict_of("my-gateway", actual)])]), fmt) for fmt in ("markdown", "html")}
    assert "results[0].audit.reason  [G001.15, G001.10]\n  the same two values as results[0].reason\n" in text["markdown"]
    [row] = [row for row in text["html"].split("<tr><td><code>") if row.startswith("results[0].audit.reason</code>")]
    assert html.unescape(row).count('"not_assigned"') == 1 and "the same two values as results[0].reason" in row
