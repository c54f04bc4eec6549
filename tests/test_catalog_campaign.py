"""verify --catalog: a team's catalog drives a campaign of its boundary pairs and generated scenarios in its names, reaching every rule of every tool both ways."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from gateproof.conformance.bench.catalog_reach import main as reach_main
from gateproof.conformance.bench.catalog_reach import measure
from gateproof.conformance.cli import main
from gateproof.conformance.corpus.catalog_pairs import catalog_pairs
from gateproof.conformance.generation import scenarios
from gateproof.model.gateway.catalog import SHIPPED_DIR
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.schema import validate

ROOT = Path(__file__).resolve().parent.parent
CATALOG_FILES = sorted(SHIPPED_DIR.glob("*.json"))
CATALOGS = {path.stem: json.loads(path.read_text(encoding="utf-8")) for path in CATALOG_FILES}


def verify(*arguments: str):
    return CliRunner().invoke(main, ["verify", *arguments], catch_exceptions=False)


@pytest.mark.parametrize("name", CATALOGS)
def test_every_rule_that_applies_to_each_tool_is_reached_both_ways(name):
    rows = measure(CATALOGS[name], count=2_000)
    assert rows and [row[:3] for row in rows if not (row[3] and row[4])] == []


@pytest.mark.parametrize("name", CATALOGS)
def test_generated_scenarios_are_valid_documents_in_the_catalogs_names_and_the_same_for_a_seed(name):
    document = CATALOGS[name]
    drawn = [s for s, _ in zip(scenarios("gateway", "lab-001+next", 3, document), range(200))]
    again = [s for s, _ in zip(scenarios("gateway", "lab-001+next", 3, document), range(200))]
    assert drawn == again
    tools = {tool["name"] for tool in document["tools"]}
    called = {step["tool"] for s in drawn for step in s["steps"] if step["op"] == "call" and isinstance(step["tool"], str)}
    assert tools <= called
    for scenario in drawn:
        validate("scenario", scenario)
        assert scenario["catalog"] is document
        run_scenario(read_scenario(scenario))


@pytest.mark.parametrize("name", CATALOGS)
def test_boundary_pairs_have_ids_made_from_what_they_test_and_pin_adr_rules(name, adr_rule_ids):
    cases = catalog_pairs(CATALOGS[name])
    ids = [case["id"] for case in cases]
    assert len(ids) == len(set(ids)) and all(not part.isdigit() for i in ids for part in i.split(".")[-1:])
    for case in cases:
        assert set(case["rules"]) <= adr_rule_ids
        run_scenario(read_scenario(case["scenario"]))
    renamed = copy.deepcopy(CATALOGS[name])
    renamed["tools"].reverse()  # another order of the same tools: the same ids
    assert sorted(ids) == sorted(case["id"] for case in catalog_pairs(renamed))


def test_the_reference_conforms_under_a_catalog_and_the_results_name_it(tmp_path):
    done = verify("--catalog", str(SHIPPED_DIR / "payments.json"), "--examples", "300", "--out", str(tmp_path / "out"),
                  "--builtin", "reference")
    assert done.exit_code == 0, done.output
    assert "conformant" in done.output
    first = json.loads((tmp_path / "out" / "results.jsonl").read_text().splitlines()[0])
    assert first["settings"]["catalog"] == "payments" and first["settings"]["kinds"] == ["gateway"]


def test_an_implementation_of_the_labs_tools_alone_is_caught_under_another_catalog(tmp_path):
    done = verify("--catalog", str(SHIPPED_DIR / "ticketing.json"), "--examples", "300", "--out", str(tmp_path / "out"),
                  "--builtin", "cedar")
    assert done.exit_code == 1 and "NOT CONFORMANT" in done.output


@pytest.mark.parametrize(("edit", "message"), [
    (lambda d: d["tools"][0].update(roles=[]), "$.tools[0].roles: fewer than 1 items"),
    (lambda d: d["tools"][0]["arguments"].append(dict(d["tools"][0]["arguments"][0])), "$.tools[0].arguments[3].name: argument 'order_id' is declared twice"),
    (lambda d: d["tools"][0]["record"].update(argument="order"), "$.tools[0].record.argument: no argument 'order' among the tool's arguments"),
    (lambda d: d["tools"][0]["arguments"][1].update(maximum=-1), "$.tools[0].arguments[1].minimum: 0.01 is above the maximum -1"),
    (lambda d: d.update(owner="team"), "$.owner: unknown field"),
])
def test_a_bad_catalog_is_refused_naming_the_file_and_the_field_exit_2(tmp_path, edit, message):
    document = copy.deepcopy(CATALOGS["payments"])
    edit(document)
    path = tmp_path / "my-gateway.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    done = CliRunner().invoke(main, ["verify", "--catalog", str(path), "--out", str(tmp_path / "out"), "--builtin", "reference"])
    assert done.exit_code == 2
    assert done.output.strip().splitlines()[-1] == f"gateproof: error: --catalog {path}: {message}"


def test_a_catalog_that_is_not_json_is_refused_in_one_line_exit_2(tmp_path):
    path = tmp_path / "my-gateway.json"
    path.write_text('{"catalog": 1,}', encoding="utf-8")
    done = CliRunner().invoke(main, ["verify", "--catalog", str(path), "--out", str(tmp_path / "out"), "--builtin", "reference"])
    assert done.exit_code == 2
    assert done.output.strip().splitlines()[-1].startswith(f"gateproof: error: --catalog {path}: $: not valid JSON (trailing comma")


def test_reach_refuses_a_catalog_that_writes_a_key_twice_as_catalog_check_does(tmp_path, capsys):
    path = tmp_path / "my-gateway.json"
    text = (SHIPPED_DIR / "payments.json").read_text(encoding="utf-8")
    path.write_text(text.replace('"catalog": 1,', '"catalog": 1, "catalog": 1,', 1), encoding="utf-8")
    assert reach_main([str(path)]) == 2
    assert capsys.readouterr().err == f"catalog_reach: error: {path}: $: the key 'catalog' is written more than once\n"


def test_a_catalog_campaign_is_a_gateway_campaign(tmp_path):
    done = CliRunner().invoke(main, ["verify", "--catalog", str(CATALOG_FILES[0]), "--kinds", "ceiling", "--out", str(tmp_path / "o"), "--builtin", "reference"])
    assert done.exit_code == 2 and "--catalog declares a gateway: it needs --kinds gateway" in done.output


def test_an_mcp_gateway_is_driven_under_a_catalog_through_the_bridge(tmp_path):
    """The lab's catalog campaign (its boundary pairs, then generated calls) played through the reference MCP gateway over stdio."""
    done = verify("--catalog", str(SHIPPED_DIR / "lab-001.json"), "--examples", "100", "--out", str(tmp_path / "out"), "--builtin", "mcp-python", "-q")
    assert done.exit_code == 0, done.output
    assert "conformant" in done.output
