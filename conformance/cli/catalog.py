"""``gateproof catalog``: a gateway's tool catalog (docs/catalogs.md), read as the model reads it.

``gateproof catalog check FILE`` prints what a valid catalog declares, tool by
tool, and refuses any other with the file, the field and the problem (exit
status 2). The file is read as any document: at most 16 MiB.
"""

from __future__ import annotations

import click

from gateproof.model.gateway.catalog import ANY_ROLE, ArgumentSpec, Catalog, CatalogTool, read_catalog
from gateproof.model.scenario import ScenarioError

from ..corpus.cases import with_expected
from ..corpus.catalog_pairs import catalog_pairs
from ..harness.corpus import CorpusCase
from ..harness.documents import parse_json
from .options import fail, read_input


def argument_text(argument: ArgumentSpec) -> str:
    """``case_id identifier 1..128``, ``amount number 0.01..10000``, ``note string ..500 optional``: one argument in a few words."""
    least, most = (argument.min_length, argument.max_length) if argument.type in ("identifier", "string") else (argument.minimum, argument.maximum)
    if least is None and argument.type == "identifier":
        least = 1
    bounds = "" if least is None and most is None else f" {'' if least is None else least}..{'' if most is None else most}"
    return f"{argument.name} {argument.type}{bounds}{'' if argument.required else ' optional'}"


def next_checks_text(tool: CatalogTool) -> str | None:
    """What the next checks (lab-001+next) apply to this tool, or None when nothing."""
    checks = ["idempotency key"] if tool.idempotency_key else []
    for approval in tool.approvals:
        condition = "an external destination" if approval.when == "external_destination" else f"{approval.argument} above {approval.above}"
        checks.append(f"approval for {condition}")
    if tool.recheck_at_write:
        checks.append("re-checked at the write")
    return ", ".join(checks) or None


def tool_lines(tool: CatalogTool) -> list[str]:
    record = f"{tool.record_argument} ({tool.record_kind})"
    lines = [f"{tool.name}: {tool.effect}", f"  arguments: {', '.join(map(argument_text, tool.arguments))}",
             f"  record: {record}" + (f"; destination: {tool.destination}" if tool.destination else "")]
    roles = "any" if ANY_ROLE in tool.roles else ", ".join(sorted(tool.roles))
    reader = f"; reads any record of its tenant: {tool.tenant_reader_role}" if tool.tenant_reader_role else ""
    lines.append(f"  roles: {roles}{reader}")
    checks = next_checks_text(tool)
    return lines + ([f"  next checks: {checks}"] if checks else [])


def summary_lines(catalog: Catalog) -> list[str]:
    """A valid catalog in a few lines: its name, its record kinds, then each tool with its effect, arguments and roles."""
    kinds = ", ".join(f"{kind.name} (tenant: {kind.tenant}, assignees: {kind.assignees})" for kind in catalog.record_kinds)
    plural = "s" if len(catalog.tools) != 1 else ""
    head = [f"{catalog.id}: a valid catalog of {len(catalog.tools)} tool{plural}", f"record kinds: {kinds}"]
    if catalog.rate_limit is not None:
        head.append(f"rate limit: {catalog.rate_limit.calls} calls per session in {catalog.rate_limit.window} seconds")
    return head + [line for tool in catalog.tools for line in tool_lines(tool)]


@click.group()
def catalog() -> None:
    """A gateway's tool catalog: its tools, their arguments, records, roles and effects (docs/catalogs.md)."""


@catalog.command()
@click.argument("path")
def check(path: str) -> None:
    """Print what the catalog in PATH (- for stdin) declares, or refuse it naming the field and the problem (exit status 2)."""
    click.echo("\n".join(summary_lines(read_catalog(read_catalog_file(path)))))


def read_catalog_file(path: str, option: str = "") -> dict:
    """The catalog document in ``path``, once the model has read it whole; else a usage error naming the file, the field and the problem."""
    try:
        document = parse_json(read_input(path), repeats=None)
        read_catalog(document)
    except ScenarioError as error:
        fail(f"{option}{path}: {error}")
    return document


def catalog_corpus(document: dict) -> list[CorpusCase]:
    """The boundary pairs of a catalog as corpus cases, each with the outcome the model gives it, in the family ``catalog/ID``."""
    family = f"catalog/{document['id']}"
    return [CorpusCase(case["id"], family, case["description"], tuple(case["rules"]), case["scenario"], with_expected(case)["expected"])
            for case in catalog_pairs(document)]
