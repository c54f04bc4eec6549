"""The one-change variants of the Node implementation: each applies to it as it stands, and verify catches what it must.

Driving every variant takes minutes (``make variants``); here each is only
made, and a few are driven: one of each family that verify must catch, and
one listed as equivalent, which it must pass.
"""

import shutil
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from gateproof.conformance.mutation import variants
from gateproof.conformance.mutation.variants import (CAUGHT, SURVIVED, Edit, Outcome, Variant, VariantError, campaign_options,
                                                     changed_files, drive_all, is_gateway, main, problems, read_variants)

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
VARIANTS = read_variants()
BY_NAME = {v.name: v for v in VARIANTS}


def test_the_catalogue_names_each_variant_once_with_its_rule_and_a_reason_for_each_equivalent():
    assert len(BY_NAME) == len(VARIANTS) >= 150
    assert all(v.rule[:1] in "CGS" and v.description and v.edits for v in VARIANTS)
    assert sum(v.equivalent is not None for v in VARIANTS) <= len(VARIANTS) // 20  # at most 5% set aside as equivalent


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_each_variant_changes_the_implementation_as_it_stands(variant):
    texts = changed_files(variant)
    assert texts and all((variants.NODE_SOURCES / name).read_text(encoding="utf-8") != text for name, text in texts.items())


def test_no_two_variants_make_the_same_implementation():
    made_by = {}
    for variant in VARIANTS:
        made_by.setdefault(tuple(sorted(changed_files(variant).items())), []).append(variant.name)
    assert [names for names in made_by.values() if len(names) > 1] == []


def test_an_edit_whose_text_is_gone_or_found_twice_is_refused_in_one_line(tmp_path):
    (tmp_path / "a.js").write_text("x = 1;\nx = 1;\n", encoding="utf-8")
    for old, why in (("y = 2;", "does not start exactly once"), ("x = 1;", "does not start exactly once"), ("x = 1;\nx", None)):
        variant = Variant("v", "C144.9", "d", (Edit("a.js", old, old if why is None else "z"),))
        with pytest.raises(VariantError, match=why or "makes no change"):
            changed_files(variant, tmp_path)


def test_an_anchored_edit_is_made_in_its_declaration_whatever_the_rest_of_the_file_holds(tmp_path):
    (tmp_path / "a.js").write_text("function f() {\n  return x < 1;\n}\nfunction g() {\n  return x < 1;\n}\n", encoding="utf-8")
    variant = Variant("v", "C144.9", "d", (Edit("a.js", "x < 1", "x <= 1", "function g() {"),))
    assert changed_files(variant, tmp_path)["a.js"] == "function f() {\n  return x < 1;\n}\nfunction g() {\n  return x <= 1;\n}\n"
    with pytest.raises(VariantError, match="does not start exactly once in the declaration 'function h"):
        changed_files(Variant("v", "C144.9", "d", (Edit("a.js", "x < 1", "x <= 1", "function h() {"),)), tmp_path)


def test_what_needs_work_is_a_survivor_and_an_equivalent_one_caught_never_a_caught_one():
    wrong, same = VARIANTS[0], next(v for v in VARIANTS if v.equivalent is not None)
    found = problems([Outcome(wrong, SURVIVED, 1.0), Outcome(same, CAUGHT, 1.0, 1, "x"), Outcome(wrong, CAUGHT, 1.0, 1, "x"), Outcome(same, SURVIVED, 1.0)])
    assert found == [f"{wrong.name} survived [{wrong.rule}]: {wrong.description}",
                     f"{same.name} is listed as equivalent but was caught, by x: take it off the list"]


@needs_node
def test_verify_catches_a_wrong_reading_of_each_family_and_passes_one_listed_as_equivalent():
    chosen = [BY_NAME["fold-first-wins-tie"], BY_NAME["approval-any-tool"], BY_NAME["less-trusted-tie-second"]]
    outcomes = drive_all(chosen)
    assert [o.status for o in outcomes] == [CAUGHT, CAUGHT, SURVIVED] and problems(outcomes) == []
    assert outcomes[1].first == "gw.boundary.g002.5.tool.applies"
    assert all(0 < o.read < 100 for o in outcomes[:2]) and outcomes[2].read == 0


def test_the_lines_read_are_the_first_disagreement_from_its_heading_to_its_commands():
    from gateproof.conformance.mutation.variants import first_block, summary

    output = "\nnode failed: a  (ceiling)\n  rules: C144.9\n  replay:  x\n\nnode failed: b  (ceiling)\n  rules: C144.9\n\nsummary\n"
    assert first_block(output) == 3 and first_block("gateproof verify\nall passed\n") == 0
    assert first_block("impl errored: c  (gateway)\n  message  no reply") == 2
    outcomes = [Outcome(VARIANTS[0], CAUGHT, 1.0, 1, "a", read=read) for read in (30, 10, 20)]
    assert summary(outcomes)[-1] == "its first disagreement, as verify prints it: 20 lines to read (median), at most 30"


def test_an_unknown_variant_is_one_line_and_status_2():
    result = CliRunner().invoke(main, ["--variant", "nope"])
    assert result.exit_code == 2 and result.output.strip() == "error: --variant nope: no such variant in node_variants.json (see --list)"


def test_the_list_names_every_variant_with_its_rule():
    result = CliRunner().invoke(main, ["--list"])
    lines = result.output.splitlines()
    assert result.exit_code == 0 and len(lines) == len(VARIANTS) and lines[0].startswith(f"{VARIANTS[0].name}  [{VARIANTS[0].rule}]")


@needs_node
def test_verify_options_reach_the_campaign_a_variant_is_driven_by():
    [outcome] = drive_all([BY_NAME["fold-first-wins-tie"]], options=("--no-corpus", "--seed", "3", "--examples", "300"))
    assert outcome.status == CAUGHT and outcome.first.startswith("generated."), outcome


def test_a_seed_that_is_no_integer_is_refused_with_status_2():
    result = CliRunner().invoke(main, ["--seed", "x"])
    assert result.exit_code == 2 and "--seed" in result.output


def test_a_verify_that_ends_without_its_report_is_an_error_never_a_catch(tmp_path, monkeypatch):
    import subprocess

    from gateproof.conformance.mutation.variants import ERROR, drive

    crashed = subprocess.CompletedProcess([], 1, b"", b"Traceback (most recent call last):\nImportError: cannot import name 'x'\n")
    monkeypatch.setattr(variants.subprocess, "run", lambda *arguments, **options: crashed)
    outcome = drive(VARIANTS[0], tmp_path)
    assert outcome.status == ERROR and outcome.detail == "verify exited 1 without its report: ImportError: cannot import name 'x'"


# Each folder's own modules decide every scenario; an error that is not the folder's InvalidScenario or
# UnsupportedScenario is a JavaScript exception: a variant that names what its scope does not hold.
THROWN = r"""
const lines = require('node:fs').readFileSync(0, 'utf8').split('\n').filter((line) => line.trim() !== '');
const thrown = [];
for (const folder of process.argv.slice(1)) {
  const { decide } = require(`${folder}/scenario.js`);
  const { parse } = require(`${folder}/json.js`);
  const { InvalidScenario, UnsupportedScenario } = require(`${folder}/errors.js`);
  for (const line of lines) {
    const document = parse(line);
    try {
      decide(document);
    } catch (error) {
      if (error instanceof InvalidScenario || error instanceof UnsupportedScenario) continue;
      thrown.push({ folder, scenario: document.id, message: String(error instanceof Error ? error.message : error) });
      break;
    }
  }
}
process.stdout.write(JSON.stringify(thrown));
"""


def gateway_scenario_lines() -> list[str]:
    """The gateway corpus, and a third of the boundary pairs of every shipped catalog: scenarios under each catalog's own names."""
    import json

    from gateproof.conformance.corpus.catalog_pairs import catalog_corpus
    from gateproof.conformance.corpus.load import load_corpus
    from gateproof.model.gateway.catalog import SHIPPED_DIR

    cases = [case for case in load_corpus() if case.scenario.get("kind") == "gateway"]
    cases += [case for path in sorted(SHIPPED_DIR.glob("*.json")) for case in catalog_corpus(json.loads(path.read_text(encoding="utf-8")))[::3]]
    return [json.dumps(case.scenario) for case in cases]


def thrown_by(folders: list, lines: list[str]) -> list[dict]:
    import json
    import subprocess

    done = subprocess.run(["node", "-e", THROWN, *map(str, folders)], input="\n".join(lines), capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


@needs_node
def test_every_gateway_variant_decides_the_gateway_scenarios_without_a_javascript_exception(tmp_path):
    """A variant that throws is caught by verify as errored without testing the misreading it describes."""
    modules = variants.reached("gateway.js")
    chosen = [variant for variant in VARIANTS if any(edit.file in modules for edit in variant.edits)]
    assert len(chosen) >= 200 and {"gateway.js", "authorize.js", "proposal.js", "catalog.js", "history.js"} <= modules
    lines = gateway_scenario_lines()
    shutil.copytree(variants.NODE_SOURCES, tmp_path / "unchanged")
    folders = {variants.made(variant, tmp_path / str(number)).parent: variant.name for number, variant in enumerate(chosen)}
    assert thrown_by([tmp_path / "unchanged"], lines) == []
    offenders = [f"{folders[Path(found['folder'])]}: {found['scenario']}: {found['message']}" for found in thrown_by(list(folders), lines)]
    assert offenders == [], f"{len(offenders)} variants throw:\n" + "\n".join(offenders)


def test_under_a_catalog_the_gateway_variants_are_driven_by_verify_under_it(monkeypatch):
    from gateproof.model.gateway.catalog import SHIPPED_DIR

    driven = {}

    def record(chosen, jobs, options, report):
        driven.update(names=[v.name for v in chosen], options=options)
        return []

    monkeypatch.setattr(variants, "drive_all", record)
    result = CliRunner().invoke(main, ["--catalog", str(SHIPPED_DIR / "payments.json"), "--examples", "50"])
    assert result.exit_code == 0, result.output
    assert driven["options"] == ("--catalog", str(SHIPPED_DIR / "payments.json"), "--kinds", "gateway", "--examples", "50")
    assert set(driven["names"]) == {v.name for v in VARIANTS if v.rule.startswith("G")} | {"r6g-result-session-user"}
    result = CliRunner().invoke(main, ["--catalog", str(SHIPPED_DIR / "payments.json"), "--variant", "fold-first-wins-tie"])
    assert result.exit_code == 2 and "no such gateway variant" in result.output


@needs_node
def test_a_wrong_reading_of_a_catalog_is_caught_under_the_catalog_that_declares_it():
    from gateproof.model.gateway.catalog import SHIPPED_DIR

    chosen = [BY_NAME["catalog-above-inclusive"]]
    options = ("--catalog", str(SHIPPED_DIR / "payments.json"), "--kinds", "gateway", "--examples", "50")
    assert [o.status for o in drive_all(chosen, options=options)] == [CAUGHT]


def test_a_variant_that_names_a_catalog_is_a_gateway_variant_of_a_shipped_one_driven_under_it_unless_another_is_given():
    from gateproof.model.gateway.catalog import SHIPPED_DIR

    named = [v for v in VARIANTS if v.catalog is not None]
    assert named and all(is_gateway(v) and (SHIPPED_DIR / f"{v.catalog}.json").is_file() for v in named)
    variant = BY_NAME["catalog-integer-any-number"]
    assert campaign_options(variant, ("--examples", "50")) == ("--examples", "50", "--catalog", str(SHIPPED_DIR / "hr-records.json"),
                                                                "--kinds", "gateway")
    given = ("--catalog", str(SHIPPED_DIR / "payments.json"), "--kinds", "gateway")
    assert campaign_options(variant, given) == given
    assert campaign_options(BY_NAME["fold-first-wins-tie"], ("--examples", "50")) == ("--examples", "50")


@needs_node
def test_a_whole_run_catches_a_catalog_variant_the_labs_campaign_cannot_under_the_catalog_it_names():
    variant = BY_NAME["catalog-integer-any-number"]  # the lab's catalog declares no integer argument
    assert [o.status for o in drive_all([variant], options=("--examples", "50"))] == [CAUGHT]
    assert [o.status for o in drive_all([attrs.evolve(variant, catalog=None)], options=("--examples", "50"))] == [SURVIVED]
