"""The lab's gateway read from its catalog decides as the lab's rules always have.

The corpus holds each case's expected outcome as the model decided it when the
case was written: every gateway case is decided again here, through the
catalog, and compared byte for byte. Generated scenarios of the campaign, under
both rule versions, are compared with the Node.js implementation, written from
adr/gateway.md alone and reading no catalog.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from gateproof.conformance.corpus.attacks import CORPUS_DIR
from gateproof.conformance.generation.draw import Draw
from gateproof.conformance.generation.gateway import gateway_scenario
from gateproof.conformance.harness.bulk import decided
from gateproof.conformance.harness.documents import dumps, parse_json
from gateproof.model.gateway import lab
from gateproof.model.gateway.arguments import TOOLS
from gateproof.model.gateway.catalog import shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node")
CASES = [case for path in sorted(CORPUS_DIR.glob("*.json")) for case in parse_json(path.read_bytes(), repeats=None, limit=None)["cases"]]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case["id"])
def test_every_gateway_corpus_case_decides_its_recorded_outcome_byte_for_byte(case):
    assert dumps(decided(case["scenario"])) == dumps(case["expected"])


@pytest.mark.skipif(NODE is None, reason="node is not on PATH")
@pytest.mark.parametrize("rules", ["lab-001", "lab-001+next"])
def test_generated_campaign_scenarios_decide_as_the_node_implementation_does(rules):
    lines = [json.dumps(gateway_scenario(Draw(seed), rules, seed)) for seed in range(400)]
    entry = ROOT / "conformance" / "implementations" / "node" / "gateproof-node.js"
    done = subprocess.run([NODE, str(entry), "--jsonl"], input="".join(f"{line}\n" for line in lines), capture_output=True, text=True,
                          timeout=300, check=True)
    answers = done.stdout.splitlines()
    assert len(answers) == len(lines), done.stderr
    differing = [line for line, answer in zip(lines, answers) if dumps(decided(parse_json(line, repeats=None))) != dumps(parse_json(answer))]
    assert not differing, differing[0]


def test_the_lab_names_are_those_its_catalog_declares():
    catalog = shipped_catalog("lab-001")
    assert lab.LAB_CATALOG is catalog
    assert [(name, spec.arguments) for name, spec in TOOLS.items()] == [(tool.name, tool.argument_names) for tool in catalog.tools]
    assert (lab.EXPORT_TOOL.name, lab.READ_TOOL.name) == ("export_case", "read_case")
    assert (lab.RECORD_ARGUMENT, lab.DESTINATION_ARGUMENT, lab.SUPPORT_ROLE, lab.SUPERVISOR_ROLE) == ("case_id", "destination_id", "support", "supervisor")
    assert lab.ARGUMENT_MAX_LENGTH == 128


@pytest.mark.parametrize("values", [[], ["case_id", "ticket_id"]])
def test_a_lab_catalog_of_another_shape_stops_the_rules_that_assume_one(values):
    with pytest.raises(ValueError, match="written for one"):
        lab._only(values, "record arguments")
