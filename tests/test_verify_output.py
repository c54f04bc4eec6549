"""What verify prints: scenarios counted once, the summary within the terminal's width, colour only when wanted."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings, is_selected
from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.results import Tally, Verdict
from gateproof.conformance.implementations import BUILTINS
from gateproof.conformance.reports.terminal import errored_lines

from gateproof.model.versions import DEFAULT_VERSION

from harness_helpers import FAULT, FAULT_ID, entries, fake


def test_each_scenario_is_counted_once_though_disagreements_are_confirmed_and_reduced():
    advanced, described = [], []
    # The zoo's mutants decide the latest version alone.
    settings = CampaignSettings(level="full", examples=600, disagreements=2, rules=(DEFAULT_VERSION,))
    campaign = Campaign("mutant:first-wins-ties", BUILTINS["mutant:first-wins-ties"], settings,
                        advance=lambda: advanced.append(1), describe=described.append)
    corpus = [c for c in load_corpus() if is_selected(c.scenario, settings)]
    campaign.start()
    campaign.run_corpus(corpus)
    campaign.run_generated()
    tally = campaign.finish()
    assert any(v.phase == "generated" and v.status == "failed" for v in tally.verdicts)  # a reduction did run
    assert any(text.startswith("reducing a disagreement") for text in described)
    assert len(advanced) == tally.scenarios == len(corpus) + tally.generated == sum(tally.counts().values())
    assert tally.generated <= settings.examples
    assert len(advanced) <= campaign.planned(corpus)  # the bar verify draws never counts past its total


def test_the_bar_total_is_what_a_campaign_then_runs_when_nothing_cuts_it_short():
    advanced = []
    settings = CampaignSettings(level="full", examples=300, kinds=("gateway",))
    campaign = Campaign("reference", BUILTINS["reference"], settings, advance=lambda: advanced.append(1))
    corpus = [c for c in load_corpus() if is_selected(c.scenario, settings)]
    campaign.start()
    planned = campaign.planned(corpus)
    campaign.run_corpus(corpus)
    campaign.run_generated()
    campaign.finish()
    assert len(advanced) == planned == len(corpus) + 300


ANSI = re.compile(r"\x1b\[[0-9;]*m")
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-8]|9[0-7])[;m]")


def run_verify(*arguments: str, **environment: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", **environment}
    return subprocess.run(["gateproof", "verify", *arguments], env=env, capture_output=True, text=True, timeout=600)


def test_the_summary_keeps_to_the_width_and_no_color_means_none(tmp_path):
    done = run_verify("--examples", "0", "--kinds", "gateway", "--out", str(tmp_path), "--builtin", "reference", "--builtin", "mutant:forged-authority",
                      "--", *fake("always_wrong"), COLUMNS="100", NO_COLOR="1", FORCE_COLOR="1")
    assert done.returncode == 1
    table = [ANSI.sub("", line) for line in done.stdout.splitlines() if ANSI.sub("", line)[:1] in "┏┃┡│└"]
    assert len(table) >= 7 and all(len(line) <= 100 for line in table)
    assert not COLOUR.search(done.stdout)
    coloured = run_verify("--examples", "0", "--kinds", "gateway", "--out", str(tmp_path), "--builtin", "reference", FORCE_COLOR="1", COLUMNS="100")
    assert COLOUR.search(coloured.stdout)  # colour when a terminal is forced and nobody said no
    piped = run_verify("--examples", "0", "--kinds", "gateway", "--out", str(tmp_path), "--builtin", "reference")
    assert "\x1b[" not in piped.stdout and max(map(len, piped.stdout.splitlines())) <= 100


def test_every_line_but_a_command_to_copy_keeps_to_a_narrow_terminal(tmp_path):
    done = run_verify("--examples", "0", "--out", str(tmp_path), "--verbose", "--builtin", "mutant:first-wins-ties",
                      "--builtin", "mutant:logs-case-content", "--builtin", "mutant:observe-blocks", COLUMNS="60", NO_COLOR="1")
    assert done.returncode == 0, done.stdout + done.stderr
    printed = done.stdout.splitlines()
    assert sum(line.lstrip().startswith("replay:") for line in printed) == 3  # each caught mutant's smallest counterexample
    assert [line for line in printed if len(line) > 60 and not line.lstrip().startswith(("replay:", "explain:"))] == []


def test_console_markup_in_an_implementation_text_is_printed_as_text(tmp_path):
    done = run_verify("--examples", "0", "--kinds", "gateway", "--out", str(tmp_path), "--", *fake("markup_talker"), COLUMNS="100")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "[bold]" in done.stdout and "[/path]" in done.stdout


def test_control_and_bidirectional_characters_an_implementation_writes_reach_the_terminal_as_escapes(tmp_path):
    done = run_verify("--examples", "0", "--kinds", "gateway", "--out", str(tmp_path), "--", *fake("hostile"), COLUMNS="100")
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert not re.search("[\x00-\x08\x0b\x1b\x7f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", done.stdout)
    assert "\\x1b[31m" in done.stdout and "[bold]loud[/bold]" in done.stdout
    assert "\\u202egnp.exe\\u2066\\u2069\\u200f\\u061c" in done.stdout


def replay_files(tmp_path: Path) -> list[str]:
    """The fault case and one ordinary case of the misbehaving implementations, as scenario files verify replays."""
    paths = []
    for number, (_, _, scenario, _) in enumerate(entries()[FAULT - 1:FAULT + 1]):
        path = tmp_path / f"case-{number}.json"
        path.write_text(json.dumps(scenario))
        paths += ["--replay", str(path)]
    return paths


def test_an_errored_run_is_explained_by_its_reason_one_case_and_what_the_implementation_said_on_stderr(tmp_path):
    done = run_verify(*replay_files(tmp_path), "--out", str(tmp_path / "out"), "--", *fake("crash_mid_run"))
    assert done.returncode == 1, done.stdout + done.stderr
    printed = done.stdout.splitlines()
    head = printed.index("crash-mid-run: 1 errored run, for 1 reason:")
    assert printed[head + 1:head + 4] == ["  exited with status 3", f"    1 recorded, for example {FAULT_ID} (replay)",
                                          "    stderr: segmentation fault (pretend)"]


def test_an_implementation_that_catches_its_own_error_is_shown_with_what_it_wrote_on_stderr(tmp_path):
    """Its errored reply names the error in one line; the traceback it printed on stderr comes with it."""
    done = run_verify(*replay_files(tmp_path), "--out", str(tmp_path / "out"), "--", *fake("raises_and_says"))
    assert done.returncode == 1, done.stdout + done.stderr
    printed = done.stdout.splitlines()
    head = printed.index("raises-and-says: 1 errored run, for 1 reason:")
    assert printed[head + 1:head + 3] == ["  TypeError: 'NoneType' object is not subscriptable", f"    1 recorded, for example {FAULT_ID} (replay)"]
    assert printed[head + 3:head + 6] == ["    stderr: Traceback (most recent call last):", '    stderr:   File "gateway.py", line 12, in decide',
                                          "    stderr: TypeError: 'NoneType' object is not subscriptable"], printed[head:head + 7]


def test_a_reply_that_breaks_the_schema_is_shown_with_the_reason(tmp_path):
    done = run_verify(*replay_files(tmp_path), "--out", str(tmp_path / "out"), "--", *fake("schema_break"))
    assert done.returncode == 1, done.stdout + done.stderr
    printed = done.stdout.splitlines()
    head = printed.index("schema-break: 1 errored run, for 1 reason:")
    assert printed[head + 1].startswith("  reply breaks the protocol:") and "outcome" in printed[head + 1]
    assert printed[head + 2] == f"    1 recorded, for example {FAULT_ID} (replay)"
    assert printed[head + 3].startswith("    reply: {") and '"results":"nope"' in printed[head + 3].replace(" ", ""), printed[head:head + 4]


def test_errors_counted_but_not_kept_are_said_to_be_so():
    kept = Verdict("raises", "generated", "generated/adr-179", "generated.adr-179.1", "errored", "exited with status 1", (),
                   context={"stderr": ["Traceback (most recent call last):", "TypeError: 'NoneType' object is not subscriptable"]})
    tally = Tally("raises", verdicts=[kept], unkept=Counter({("generated/adr-179", "errored"): 7}))
    lines = errored_lines(tally)
    assert lines[0] == "raises: 8 errored runs; the 1 kept in results.jsonl are for 1 reason:"
    assert "    stderr: TypeError: 'NoneType' object is not subscriptable" in lines
    assert lines[-1].startswith("  7 more among the generated scenarios were counted, not kept")


def test_a_search_stopped_at_its_disagreements_says_so_and_how_to_search_on(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from gateproof.conformance.cli import main

    monkeypatch.chdir(tmp_path)
    arguments = ["verify", "--no-corpus", "--examples", "2000", "--rules", "lab-001", "--disagreements", "1", "--report", "markdown"]
    result = CliRunner().invoke(main, [*arguments, "--", *fake("always_wrong")], catch_exceptions=False)
    said = " ".join(result.output.split())
    match = re.search(r"lab-001: generated (\d+) of 2000 scenarios: the search stopped once 1 distinct disagreement was found "
                      r"\(--disagreements 1\); to search on, raise --disagreements, try another --seed", said)
    assert result.exit_code == 1 and match, said
    assert int(match.group(1)) < 2000
    assert f"note: lab-001: generated {match.group(1)} of 2000" in (tmp_path / "gateproof-verify" / "report.md").read_text()


def test_an_implementation_that_never_started_is_labelled_so_not_non_conformant(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from gateproof.conformance.cli import main

    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["verify", "--examples", "0", "--report", "json", "--report", "html", "--", *fake("fail_on_start")])
    [row] = json.loads((tmp_path / "gateproof-verify" / "report.json").read_text())["implementations"]
    assert result.exit_code == 2 and row["verdict"] == "DID NOT START"
    assert "DID NOT START" in result.output and "NOT CONFORMANT" not in result.output
    assert "NOT CONFORMANT" not in (tmp_path / "gateproof-verify" / "report.html").read_text()
