"""Each measuring command writes its page of docs/figures/ at the end of a whole default run, and a partial run leaves it alone.

The work each command measures is stood in for (a section that prints one
line, a variant caught at once), so these take seconds: what is held is
which runs write the page and that it holds what was printed, with the
command, the date and the machine.
"""

from __future__ import annotations

import datetime
import os
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from gateproof.conformance import figure_pages

needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")


@pytest.fixture
def pages(tmp_path, monkeypatch) -> Path:
    """docs/figures/ moved to a scratch folder, so no test rewrites the checkout's pages."""
    folder = tmp_path / "figures"
    monkeypatch.setattr(figure_pages, "FIGURES", folder)
    return folder


def assert_page(page: Path, command: str, printed: str) -> None:
    text = page.read_text(encoding="utf-8")
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    assert f"Written by `{command}` on {today} (UTC), on " in text
    assert f"{os.cpu_count()} cores, load average " in text and "build " in text
    assert f"```\n{printed}" in text, text


def test_a_page_says_what_wrote_it_when_and_on_what_machine_then_what_was_printed(pages):
    page = figure_pages.write_page("x.md", "A title", "make x (python -m x)", figure_pages.machine(), ["first", "second"])
    assert page == pages / "x.md"
    text = page.read_text(encoding="utf-8")
    assert text.startswith("# A title\n\nWritten by `make x (python -m x)` on ")
    assert text.endswith("```\nfirst\nsecond\n```\n")
    assert_page(page, "make x (python -m x)", "first\nsecond")


def test_make_bench_writes_its_page_after_the_last_figure_and_not_when_one_fails(pages, capsys):
    from gateproof.conformance.bench import figures

    def section(print=print):
        print("a figure 12/s")

    figures.main(sections=lambda: [section, section])
    assert capsys.readouterr().out.count("a figure 12/s") == 2
    assert_page(pages / "bench.md", "make bench (python -m gateproof.conformance.bench)", "measured on ")
    assert (pages / "bench.md").read_text(encoding="utf-8").count("a figure 12/s") == 2
    (pages / "bench.md").write_text("the last whole run's")

    def failing(print=print):
        raise RuntimeError("cut short")

    with pytest.raises(RuntimeError):
        figures.main(sections=lambda: [section, failing])
    assert (pages / "bench.md").read_text() == "the last whole run's"


def test_the_mcp_rates_are_written_by_a_run_of_the_default_size_only(pages, monkeypatch):
    from gateproof.conformance.bench import mcp

    monkeypatch.setattr(mcp, "campaign_rate", lambda name, examples, seed: (100.0, 0.5, examples))
    monkeypatch.setattr(mcp, "unavailable", lambda name: None)
    mcp.bench_mcp(print=lambda *_: None, examples=10)
    assert not (pages / "mcp.md").exists()
    mcp.bench_mcp(print=lambda *_: None)
    assert_page(pages / "mcp.md", "make bench (bench_mcp in conformance/bench/mcp.py)", f"MCP gateways: {mcp.EXAMPLES:,} generated")


def test_make_reach_writes_its_page_for_the_default_count_and_seed_only(pages, monkeypatch):
    from gateproof.conformance.generation import reach

    def measured(print=print, count=0, seed=0):
        print(f"reach of {count} on seed {seed}")
        return SimpleNamespace(complete=True)

    monkeypatch.setattr(reach, "bench_reach", measured)
    for partial in (["--count", "5"], ["--seed", "1"]):
        assert reach.main(partial) == 0
        assert not (pages / "reach.md").exists()
    assert reach.main([]) == 0
    assert_page(pages / "reach.md", "make reach (python -m gateproof.conformance.generation.reach)", f"reach of {reach.DEFAULT_COUNT} on seed 0")


def test_a_catalogs_reach_is_written_for_every_shipped_catalog_on_seed_0_only(pages, monkeypatch):
    from gateproof.conformance.bench import catalog_reach
    from gateproof.model.gateway.catalog import SHIPPED_DIR

    monkeypatch.setattr(catalog_reach, "measure", lambda document, seed=0: [("lab-001", "a_tool", "G001.1", 1, 2)])
    shipped = [str(path) for path in sorted(SHIPPED_DIR.glob("*.json"))]
    for partial in (shipped[:1], [*shipped, "--seed", "1"]):
        assert catalog_reach.main(partial) == 0
        assert not (pages / "catalog-reach.md").exists()
    assert catalog_reach.main(list(reversed(shipped))) == 0
    command = "make reach (python -m gateproof.conformance.bench.catalog_reach model/catalogs/*.json)"
    assert_page(pages / "catalog-reach.md", command, f"{shipped[-1]}: 1/1 (version, tool, rule) reached both ways")


@needs_node
def test_make_variants_writes_its_page_for_every_variant_through_the_default_campaign_only(pages, monkeypatch):
    from gateproof.conformance.mutation import variants

    def caught(chosen, jobs, options, report):
        return [variants.Outcome(v, variants.CAUGHT if v.equivalent is None else variants.SURVIVED, 0.5, 1, "corpus.x", read=9) for v in chosen]

    monkeypatch.setattr(variants, "drive_all", caught)
    some = variants.read_variants()[0].name
    for partial in (["--variant", some], ["--no-corpus"], ["--examples", "50"], ["--seed", "1"]):
        assert CliRunner().invoke(variants.main, partial).exit_code == 0
        assert not (pages / "variants.md").exists()
    result = CliRunner().invoke(variants.main, ["--jobs", "2"])
    assert result.exit_code == 0, result.output
    count = len(variants.read_variants())
    assert f"{count} variants in 0s, 2 at a time" in result.output
    assert_page(pages / "variants.md", "make variants (python -m gateproof.conformance.mutation.variants)", "rules ")
    assert f"{count} variants in 0s, 2 at a time\n```" in (pages / "variants.md").read_text(encoding="utf-8")


def test_make_mutation_writes_its_page_for_every_mutant_with_the_defaults_only(pages, monkeypatch, tmp_path):
    from gateproof.conformance.mutation import cli
    from gateproof.conformance.mutation.execute import CAUGHT, Finding
    from gateproof.conformance.mutation.mutants import mutants_of

    few = mutants_of(Path("lattice.py"))[:3]
    monkeypatch.setattr(cli, "all_mutants", lambda: few)
    monkeypatch.setattr(cli, "read_equivalents", lambda path: ())
    monkeypatch.setattr(cli, "run_all", lambda mutants, *_: {m.id: Finding(m.id, CAUGHT, 1.0, 4, "c", "corpus") for m in mutants})
    out = ["--out", str(tmp_path / "out")]
    for partial in (["--module", "lattice.py"], ["--sample", "2"], ["--mutant", few[0].id], ["--drivers", "none"], ["--examples", "9"], ["--jobs", "1"]):
        result = CliRunner().invoke(cli.mutation, [*partial, *out])
        assert result.exit_code == 0, result.output
        assert not (pages / "mutation.md").exists()
    result = CliRunner().invoke(cli.mutation, out)
    assert result.exit_code == 0, result.output
    assert_page(pages / "mutation.md", "make mutation (python -m gateproof.conformance.mutation)", "")
    assert "gateproof mutation: 3 of 3 mutants" in (pages / "mutation.md").read_text(encoding="utf-8")
