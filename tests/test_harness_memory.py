"""A campaign keeps what its verdicts and reports need, not each generated answer: counts for passes, a few of its errors."""

from __future__ import annotations

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.harness.results import MOST_ERRORS_KEPT

from harness_helpers import fake

GENERATED = 300


def generated(*argv: str) -> Campaign:
    campaign = Campaign(None, fake(*argv[:1]) + argv[1:], CampaignSettings(examples=GENERATED, kinds=("gateway",), rules=("lab-001",), timeout=30.0))
    campaign.start()
    campaign.run_generated()
    campaign.finish()
    return campaign


def test_errors_that_each_name_their_scenario_are_kept_a_few_and_counted_all():
    campaign = generated("errors_by_id")
    kept = [v for v in campaign.tally.verdicts if v.status == "errored"]
    assert len(kept) == MOST_ERRORS_KEPT and len({v.message for v in kept}) == MOST_ERRORS_KEPT
    assert campaign.tally.generated == GENERATED and campaign.tally.counts()["errored"] == GENERATED


def test_passing_generated_scenarios_are_counted_and_none_is_kept():
    campaign = generated("named", "right-everywhere")
    assert campaign.tally.verdicts == [] and campaign.tally.counts()["passed"] == GENERATED
