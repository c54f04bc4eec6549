"""Every file a campaign writes stays under the folder the user chose, whatever an implementation calls itself."""

from __future__ import annotations

import os

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from gateproof.conformance.cli import main
from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.harness.paths import MOST_CHARACTERS, path_component

from harness_helpers import entries, fake


def files_under(folder) -> set[str]:
    return {os.path.relpath(os.path.join(root, name), folder) for root, _, names in os.walk(folder) for name in names}


def saved_by(name: str, out) -> Campaign:
    campaign = Campaign(None, (*fake("named"), name), CampaignSettings(timeout=30.0, out=out))
    campaign.start()
    campaign.run_known("corpus", entries())
    campaign.finish()
    return campaign


def test_an_implementation_named_dot_dot_has_its_disagreement_saved_inside_the_out_folder(tmp_path):
    out = tmp_path / "a" / "out"
    campaign = saved_by("..", out)
    [failed] = [v for v in campaign.tally.verdicts if v.status == "failed"]
    assert campaign.tally.name == ".."  # the name is reported as given; only its path is made safe
    written = os.path.realpath(failed.disagreement.replay_path)
    assert os.path.exists(written) and os.path.commonpath([written, os.path.realpath(out)]) == os.path.realpath(out)
    assert files_under(tmp_path) == {os.path.relpath(written, os.path.realpath(tmp_path))}


def test_a_name_of_the_longest_length_is_saved_under_one_short_component(tmp_path):
    """A name of 200 characters, the most ``started`` allows (PROTOCOL.md, start), is longer than one path component holds."""
    campaign = saved_by("x" * 200, tmp_path)
    [failed] = [v for v in campaign.tally.verdicts if v.status == "failed"]
    folder, file = os.path.split(os.path.relpath(failed.disagreement.replay_path, tmp_path))
    assert "/" not in folder and len(folder) <= MOST_CHARACTERS and folder.startswith("x" * 20)
    assert os.path.exists(failed.disagreement.replay_path) and campaign.tally.notes == []


def test_a_symbolic_link_where_a_disagreement_goes_is_not_followed_and_the_run_goes_on(tmp_path):
    target = tmp_path / "elsewhere.json"
    target.write_text("kept")
    out = tmp_path / "out"
    (out / "named").mkdir(parents=True)
    scenario_id = entries()[3][2]["id"]
    (out / "named" / f"{path_component(scenario_id)}.json").symlink_to(target)
    campaign = saved_by("named", out)
    [failed] = [v for v in campaign.tally.verdicts if v.status == "failed"]
    assert target.read_text() == "kept" and failed.disagreement.replay_path is None
    assert any("could not save" in note and "symbolic link" in note for note in campaign.tally.notes)


def test_verify_refuses_a_results_file_that_is_a_symbolic_link_before_it_runs_anything(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "precious"
    target.write_text("kept")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "results.jsonl").symlink_to(target)
    result = CliRunner().invoke(main, ["verify", "--builtin", "reference", "--examples", "0", "--out", "out"])
    assert result.exit_code == 2 and target.read_text() == "kept"
    assert "--out out: cannot write results.jsonl (is a symbolic link, which is never followed)" in result.stderr
    assert "Traceback" not in result.output


@given(st.text(), st.text())
def test_a_path_component_is_one_bounded_safe_name_and_two_names_never_share_one(first, second):
    for name in (first, second):
        component = path_component(name)
        assert component == path_component(name)
        assert component not in ("", ".", "..") and "/" not in component and "\0" not in component
        assert len(component.encode()) <= MOST_CHARACTERS
        assert component == name or "~" in component
    assert (path_component(first) == path_component(second)) == (first == second)


def test_a_safe_short_name_is_kept_and_a_name_that_differs_only_in_unsafe_characters_is_told_apart():
    assert path_component("reference") == "reference"
    assert path_component("generated.adr-179.3") == "generated.adr-179.3"
    assert path_component("a b") != path_component("a_b") == "a_b"
    assert path_component("a b") != path_component("a/b")
    assert path_component("..").startswith("~")
