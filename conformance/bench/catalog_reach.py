"""How far a catalog's default campaign reaches: every rule that applies to each declared tool, seen refusing a call and seen passed.

``python -m gateproof.conformance.bench.catalog_reach CATALOG...`` decides
the catalog's boundary pairs and its share of the default campaign's
generated scenarios (10,000 shared by the two rule versions) through the
model, and prints, tool by tool, each rule that applies to it (derived from
what the tool declares) with how often it refused a call and how often a
call of the tool passed it. Exit status 1 when a rule is not reached both
ways for some tool, 2 for a catalog that cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from gateproof.model.gateway.catalog import SHIPPED_DIR, Catalog, CatalogTool, read_catalog
from gateproof.model.gateway.catalog_checks import ANY_ROLE
from gateproof.model.gateway.scenario import trace_gateway_scenario
from gateproof.model.scenario import ScenarioError, read_scenario

from ..corpus.catalog_pairs import VERSIONS, catalog_pairs
from ..figure_pages import Printed, machine, write_page
from ..generation import scenarios
from ..generation.catalog_gateway import near_names
from ..harness.documents import parse_json

CAMPAIGN = 10_000  # the default campaign's generated scenarios, shared by the versions


def applicable(tool: CatalogTool, rules: str) -> list[str]:
    """The rules that judge a call of ``tool`` under ``rules``, as its declaration makes them apply (adr/gateway.md, G001.13)."""
    nexts = rules != "lab-001"
    ids = ["G001.1", "G001.2", "G001.17", "G001.3", "G001.4", "G001.5", "G001.6"]
    ids += ["G002.4"] * nexts + ["G002.2", "G002.3"] * (nexts and tool.idempotency_key)
    ids += ["G001.7"] * (ANY_ROLE not in tool.roles) + ["G001.8"] * bool(tool.destination)
    if any(approval.when == "argument_above" for approval in tool.approvals) and not nexts:
        ids.append("G001.18")
    ids += ["G002.5", "G002.6"] * (nexts and bool(tool.approvals))
    ids += ["G001.9", "G001.10", "G001.11" if tool.has_side_effect else "G001.12"]
    return ids + ["G002.1"] * (nexts and tool.recheck_at_write and tool.has_side_effect)


def tally(catalog: Catalog, rules: str, documents) -> Counter:
    """(tool, rule, side) counts over ``documents``: ``refused`` where the rule refused a call of the tool, ``passed`` where a call passed it."""
    near = {repr(name): tool.name for tool in catalog.tools for name in near_names(tool)}
    seen: Counter = Counter()
    for document in documents:
        for step, trace, _ in trace_gateway_scenario(read_scenario(document)):
            if trace is None:
                continue
            tool = step.tool if catalog.tool(step.tool) else near.get(repr(step.tool))
            if trace.rule is not None:
                seen[(tool, trace.rule, "refused")] += 1
            for check in (c for c in trace.checks + trace.write_checks if c.passed):
                seen[(tool, check.rule, "passed")] += 1
            if trace.decision == "allow":
                seen[(tool, "G001.18", "passed")] += 1  # checked only where it refuses: an allowed call passed it
            if trace.write_checks:  # G002.1: judged again at the write, refused there or not
                seen[(tool, "G002.1", "refused" if trace.stage == "write" else "passed")] += 1
            if step.idempotency_key is not None:
                seen[(tool, "G002.2", "refused" if trace.replayed else "passed")] += 1
    return seen


def measure(document: dict, count: int = CAMPAIGN, seed: int = 0) -> list[tuple[str, str, str, int, int]]:
    """(rules, tool, rule, refused, passed) for every rule that applies to every tool of the catalog ``document``."""
    catalog = read_catalog(document)
    pairs = catalog_pairs(document)
    rows = []
    for rules in VERSIONS:
        generated = [s for s, _ in zip(scenarios("gateway", rules, seed, document), range(count // len(VERSIONS)))]
        seen = tally(catalog, rules, [case["scenario"] for case in pairs if case["scenario"]["rules"] == rules] + generated)
        rows += [(rules, tool.name, rule, seen[(tool.name, rule, "refused")], seen[(tool.name, rule, "passed")])
                 for tool in catalog.tools for rule in applicable(tool, rules)]
    return rows


def print_reach(name: str, rows, print=print) -> bool:
    """The table of one catalog, and whether every rule was reached both ways for every tool."""
    missing = [row for row in rows if not (row[3] and row[4])]
    print(f"{name}: {len(rows) - len(missing)}/{len(rows)} (version, tool, rule) reached both ways")
    for rules, tool, rule, refused, passed in rows:
        mark = "" if refused and passed else "   NOT both ways"
        print(f"  {rules:<13} {tool:<24} {rule:<8} refused {refused:>6}  passed {passed:>6}{mark}")
    return not missing


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateproof.conformance.bench.catalog_reach", description=__doc__.splitlines()[0])
    parser.add_argument("catalogs", nargs="+", metavar="CATALOG", help="catalog files (docs/catalogs.md)")
    parser.add_argument("--seed", type=int, default=0, help="the generators' seed (default 0)")
    arguments = parser.parse_args(argv)
    started_on, printed = machine(), Printed()
    complete = True
    for path in arguments.catalogs:
        try:  # read as catalog check reads it: a key written twice is refused, not kept last
            document = parse_json(Path(path).read_bytes(), repeats=None)
            read_catalog(document)
        except (OSError, ScenarioError) as error:
            print(f"catalog_reach: error: {path}: {error}", file=sys.stderr)
            return 2
        complete = print_reach(path, measure(document, seed=arguments.seed), printed) and complete
    if is_whole(arguments.catalogs, arguments.seed):
        write_page("catalog-reach.md", "make reach: how far each shipped catalog's default campaign reaches",
                   "make reach (python -m gateproof.conformance.bench.catalog_reach model/catalogs/*.json)", started_on, printed.lines)
    return 0 if complete else 1


def is_whole(catalogs: list[str], seed: int) -> bool:
    """Whether the run is ``make reach``'s: every shipped catalog, each once, on seed 0 (the page holds no other)."""
    return seed == 0 and sorted(Path(path).resolve() for path in catalogs) == sorted(path.resolve() for path in SHIPPED_DIR.glob("*.json"))


if __name__ == "__main__":
    sys.exit(main())
