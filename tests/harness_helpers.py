"""Driving the misbehaving implementations of ``tests/implementations/`` in the harness's own tests."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from gateproof.conformance.harness.campaign import Campaign, CampaignSettings
from gateproof.conformance.corpus.load import load_corpus

FAKES = Path(__file__).resolve().parent / "implementations"
#: A handful of fast gateway cases; the fourth is the one the misbehaving implementations fault on.
CASES = [c for c in load_corpus() if c.family == "gateway/cross_tenant"] + [c for c in load_corpus() if c.family == "gateway/malformed"][:4]
FAULT = 3
FAULT_ID = CASES[FAULT].id + ".fault"
#: The timeout where a hang is not the point: long enough for a loaded machine to start a Python fake.
GENEROUS = 60.0
#: The timeout where a hang is the point: short, yet a loaded machine still starts a fake within it.
SHORT = 3.0


def fake(name: str) -> tuple[str, ...]:
    return (sys.executable, str(FAKES / f"{name}.py"))


def entries(fault: int | None = FAULT) -> list[tuple]:
    """(family, pinned rules, scenario, expected) for each case; the ``fault``-th scenario's id ends in .fault."""
    chosen = []
    for number, case in enumerate(CASES):
        scenario = dict(case.scenario, id=case.id + ".fault") if number == fault else case.scenario
        expected = dict(case.expected, scenario=scenario["id"])
        chosen.append((case.family, case.rules, scenario, expected))
    return chosen


def drive(name: str, fault: int | None = FAULT, **settings) -> Campaign:
    """The fake named ``name`` through the chosen cases, pipelined; the finished campaign."""
    campaign = Campaign(name, fake(name), CampaignSettings(**{"timeout": GENEROUS, **settings}))
    campaign.start()
    campaign.run_known("corpus", entries(fault))
    campaign.finish()
    return campaign


def statuses(campaign: Campaign) -> dict[str, str]:
    return {v.scenario_id: v.status for v in campaign.tally.verdicts}


def processes() -> list[tuple[int, str, int, int]]:
    """(pid, state, parent, process group) of every process, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # it ended while /proc was read
        state, parent, group = stat[stat.rindex(")") + 2:].split()[:3]
        found.append((int(entry.name), state, int(parent), int(group)))
    return found


def group_members(group: int) -> list[int]:
    """The processes of a process group still alive; a zombie has already died and is not counted."""
    return [pid for pid, state, _, pgrp in processes() if pgrp == group and state not in ("Z", "X")]


def left_running(group: int, within: float = 30.0) -> list[int]:
    """The members of ``group`` still alive once ``within`` seconds have passed (a killed process dies when it is next scheduled)."""
    deadline = time.monotonic() + within
    while group_members(group) and time.monotonic() < deadline:
        time.sleep(0.05)
    return group_members(group)


def children(pid: int) -> list[int]:
    return [child for child, _, parent, _ in processes() if parent == pid]
