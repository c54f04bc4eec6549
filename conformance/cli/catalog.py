"""``gateproof catalog``: a gateway's tool catalog (docs/catalogs.md), read as the model reads it.

``gateproof catalog check FILE`` prints what a valid catalog declares, tool by
tool, and refuses any other with the file, the field and the problem (exit
status 2). The file is read as any document: at most 16 MiB.
``gateproof catalog from-mcp`` makes a catalog from an MCP server's
``tools/list`` and an extras file (conformance/MCP.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from gateproof.model.gateway.catalog import ANY_ROLE, Catalog, CatalogTool, read_catalog
from gateproof.model.scenario import ScenarioError

from ..explanation.names import argument_text
from ..harness.documents import parse_json
from ..harness.process import DEFAULT_START_TIMEOUT
from ..mcp.catalog_from_tools import ListingError, catalog_from_tools, check_extras
from ..mcp.target import STDIO, Target, TargetError, free_port_url, read_target
from .options import Seconds, fail, folder_problem, read_input


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


def read_mcp_target(transport: str, command: tuple[str, ...]) -> Target:
    """The server ``--mcp TRANSPORT -- COMMAND`` names, as ``verify --mcp`` reads it; a usage error otherwise."""
    try:
        target = read_target(transport, command)  # a URL is checked before a port 0 in it is replaced by a free one
        return target if target.stdio else read_target(free_port_url(transport), command)
    except TargetError as error:
        fail(str(error))


def catalog_of_server(extras_path: str, target: Target, timeout: float, start_timeout: float) -> dict:
    """The catalog made from the server's tools/list and the extras in ``extras_path``, its notes on stderr; else a usage error."""
    from ..mcp.listing import ListingFault, list_tools  # the MCP SDK loads only when a server is listed

    try:
        extras = parse_json(read_input(extras_path), repeats=None)
        check_extras(extras)
    except (ScenarioError, ListingError) as error:
        fail(f"--extras {extras_path}: {error}")
    try:
        document, notes = catalog_from_tools(list_tools(target, timeout, start_timeout), extras)
    except (ListingFault, ListingError) as error:
        fail(str(error))
    for note in notes:
        click.echo(f"gateproof: note: {note}", err=True)
    return document


@catalog.command("from-mcp")
@click.option("--extras", "extras_path", required=True, metavar="FILE", type=click.Path(dir_okay=False),
              help="What the catalog says that tools/list cannot: its id, record kinds, each tool's effect, record, roles and next checks.")
@click.option("--mcp", "mcp", required=True, metavar="stdio|URL",
              help="The command after -- starts an MCP server, spoken to over stdio or its streamable HTTP URL (a loopback address).")
@click.option("--out", "out", metavar="FILE", type=click.Path(dir_okay=False), help="Write the catalog to FILE, not to stdout.")
@click.option("--timeout", type=Seconds(), default=10.0, show_default=True, help="Seconds allowed for tools/list to be answered.")
@click.option("--start-timeout", "start_timeout", type=Seconds(), default=DEFAULT_START_TIMEOUT, show_default=True,
              help="Seconds allowed for the server to serve and answer initialize.")
@click.argument("command", nargs=-1, type=click.UNPROCESSED)
def from_mcp(extras_path, mcp, out, timeout, start_timeout, command) -> None:
    """Print the catalog of the MCP server the command after -- starts: each tool's arguments from its inputSchema, the rest
    from the extras file; a tool or a schema a catalog cannot hold is refused naming the tool and the property (exit status 2)."""
    problem = out is not None and folder_problem(Path(out).absolute().parent)
    if problem:
        fail(f"--out {out}: {problem}")
    document = catalog_of_server(extras_path, read_mcp_target(mcp, tuple(command)), timeout, start_timeout)
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as error:
        fail(f"--out {out}: cannot write ({error.strerror or error})")
