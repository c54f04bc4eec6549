"""Every scenario a campaign saves has a name and a file of its own: an errored run never shares one with a disagreement."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings

from harness_helpers import GENEROUS, fake


def test_an_errored_run_and_a_disagreement_of_one_rule_version_are_saved_apart(tmp_path):
    settings = CampaignSettings(examples=12, rules=("lab-001",), kinds=("gateway",), disagreements=1, out=tmp_path, timeout=GENEROUS)
    campaign = Campaign("errs", fake("errs_once_then_wrong"), settings)
    campaign.start()
    campaign.run_generated()
    tally = campaign.finish()
    errored = [v for v in tally.verdicts if v.status == "errored"]
    failed = [v for v in tally.verdicts if v.status == "failed"]
    assert errored and failed, [(v.scenario_id, v.status) for v in tally.verdicts]
    names = [v.scenario_id for v in tally.verdicts]
    assert len(set(names)) == len(names), names
    [error], [disagreement] = errored, failed
    error_file = Path(shlex.split(error.context["replay"])[shlex.split(error.context["replay"]).index("--replay") + 1])
    disagreement_file = Path(disagreement.disagreement.replay_path)
    assert error_file != disagreement_file
    assert json.loads(error_file.read_text())["id"] == error.scenario_id
    assert json.loads(disagreement_file.read_text())["id"] == disagreement.scenario_id
