"""The MCP gateways' campaign rate beside the same rules through the JSON-lines protocol, measured side by side in one run.

The Python MCP gateway decides with the model's functions, as ``reference``
does behind the protocol: the ratio of their rates is what MCP costs a
campaign (the SDK on both sides, the test hooks, a token checked on every
call, a store read and written), over stdio and over streamable HTTP. Rounds
alternate the implementations, so a slow minute of a noisy machine falls on
all of them alike. The figures are written to ``docs/figures/mcp.md`` as well
(:mod:`gateproof.conformance.figure_pages`).
"""

from __future__ import annotations

import time

from ..figure_pages import machine, write_page
from ..harness.campaign import Campaign, CampaignSettings
from ..implementations import BUILTINS, unavailable

IMPLEMENTATIONS = ("reference", "mcp-python", "mcp-python-http", "mcp-node", "mcp-node-http")
EXAMPLES, ROUNDS = 2000, 2  # a campaign's generated scenarios, and the rounds alternated, of the run the page holds


def campaign_rate(name: str, examples: int, seed: int) -> tuple[float, float, int]:
    """(generated scenarios a second, seconds to start, scenarios decided) for one campaign of gateway scenarios alone."""
    campaign = Campaign(name, BUILTINS[name], CampaignSettings(level="full", examples=examples, seed=seed, kinds=("gateway",), timeout=30.0))
    started = time.perf_counter()
    campaign.start()
    start_seconds = time.perf_counter() - started
    campaign.run_generated()
    tally = campaign.finish()
    decided = tally.counts()["passed"]
    return tally.generated / tally.generated_seconds, start_seconds, decided


def bench_mcp(print=print, examples: int = EXAMPLES, rounds: int = ROUNDS) -> None:
    """The rates printed; written to ``docs/figures/mcp.md`` too by a run of the default size, not by a smaller one."""
    started_on = machine()
    chosen = [name for name in IMPLEMENTATIONS if not unavailable(name)]
    heading = (f"MCP gateways: {examples:,} generated gateway scenarios a campaign, {rounds} rounds alternated "
               "(rate: generated scenarios a second, start-up apart; ratio to reference, the same rules through the JSON-lines protocol)")
    print(heading)
    rates: dict[str, list[float]] = {name: [] for name in chosen}
    starts: dict[str, list[float]] = {name: [] for name in chosen}
    decided: dict[str, int] = {}
    for round_number in range(rounds):
        for name in chosen if round_number % 2 == 0 else reversed(chosen):
            rate, start, passed = campaign_rate(name, examples, seed=round_number)
            rates[name].append(rate)
            starts[name].append(start)
            decided[name] = passed
    lines = []
    for name in chosen:
        # Each round's ratio is of two campaigns run minutes apart at most: the side-by-side figure.
        ratios = [mine / theirs for mine, theirs in zip(rates[name], rates.get("reference", ()))]
        ratio = f"  ratio to reference {min(ratios):.3f} to {max(ratios):.3f}" if ratios else ""
        lines.append(f"  {name:<16} {min(rates[name]):9,.0f} to {max(rates[name]):9,.0f}/s  start {min(starts[name]):5.2f} s{ratio}"
                     f"  ({decided[name]:,} passed in the last round)")
    lines += [f"  {name:<16} unavailable: {unavailable(name)}" for name in IMPLEMENTATIONS if name not in chosen]
    for line in lines:
        print(line)
    if (examples, rounds) == (EXAMPLES, ROUNDS):
        write_page("mcp.md", "MCP gateways: the campaign rate", "make bench (bench_mcp in conformance/bench/mcp.py)", started_on, [heading, *lines])
