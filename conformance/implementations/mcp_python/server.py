"""The MCP server: the two tools on the SDK's low-level server, and in test mode the test hooks.

The tools are registered with the low-level ``on_call_tool`` handler, below
which the SDK neither validates nor coerces arguments against the listed
schemas: the gateway judges every proposal itself (G001.1 to G001.5,
G001.17), and an unknown tool is a refusal it audits, not an SDK error.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib.metadata import version

import mcp_types as types
from attrs import frozen
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from gateproof.model.gateway.arguments import TOOLS
from gateproof.model.gateway.lab import SUPPORT_ROLE

from .fixture import FixtureExtension, install
from .gateway import Decision, call_tool, served_case
from .identity import Trust, request_claims, tool_session
from .proposals import CURRENT, Proposal, ProposalMiddleware, WireLines
from .store import Store
from .variants import Fault

#: Where a call's idempotency key travels: set by the host's client, like the token, never by the model.
KEY_META = "io.gateproof/idempotency-key"
DESCRIPTIONS = {
    "export_case": "Export a stored case to a configured destination.",
    "read_case": "Read a stored case.",
}


@frozen
class Config:
    """How the server was started: its store, its transport, its fault (none for the correct gateway), its mode."""

    store: Store
    trust: Trust
    fault: Fault
    over_http: bool
    fixture: bool


def tool_listing(name: str) -> types.Tool:
    """A tool as discovery shows it: every argument a required string, nothing else admitted (what G001.3 to G001.5 enforce)."""
    arguments = TOOLS[name].arguments
    schema = {"type": "object", "properties": {a: {"type": "string", "minLength": 1, "maxLength": 128} for a in arguments},
              "required": list(arguments), "additionalProperties": False}
    return types.Tool(name=name, description=DESCRIPTIONS[name], input_schema=schema)


def refusal(decision: Decision) -> types.CallToolResult:
    reason = decision.caller_reason
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"refused: {reason}")],
                                structured_content={"reason": reason}, is_error=True)


def allowance(decision: Decision) -> types.CallToolResult:
    """What an allowed call answers: the export made (or replayed), or the case read."""
    arguments = decision.arguments if isinstance(decision.arguments, dict) else {}
    if decision.tool == "export_case":
        content = {"exported": arguments.get("case_id"), "destination_id": arguments.get("destination_id"),
                   "replayed": decision.replayed}
    else:
        content = served_case(decision) or {"case_id": arguments.get("case_id")}
    text = json.dumps(content, ensure_ascii=False)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)], structured_content=content)


def idempotency_key(ctx) -> str | None:
    meta = ctx.params.get("_meta") if isinstance(ctx.params, Mapping) else None
    key = meta.get(KEY_META) if isinstance(meta, Mapping) else None
    if key is not None and not isinstance(key, str):
        raise MCPError(code=INVALID_PARAMS, message=f"params._meta[{KEY_META!r}] must be a string")
    return key


class GatewayServer(Server):
    """The SDK's low-level server, advertising its extensions on the handshake era too.

    The 2025-11-25 capabilities the SDK's ``initialize`` answers with have no
    ``extensions`` field (SEP-2133 came later), so there the extension is
    also listed under ``experimental``, as extensions were before it.
    """

    def create_initialization_options(self, notification_options=None, experimental_capabilities=None, extensions=None):
        experimental = {**self.extensions, **(experimental_capabilities or {})} or None
        return super().create_initialization_options(notification_options, experimental, extensions)


def build(config: Config, lines: WireLines | None) -> Server:
    """The low-level server: tools/list, tools/call, and in test mode the fixture extension."""
    store, fault = config.store, config.fault

    async def list_tools(ctx, params) -> types.ListToolsResult:
        names = sorted(TOOLS)
        if fault.filters_discovery and not _has_support_role(ctx, config):
            names.remove("export_case")
        return types.ListToolsResult(tools=[tool_listing(name) for name in names])

    async def call(ctx, params) -> types.CallToolResult:
        session = tool_session(request_claims(ctx, config.trust, config.over_http), store.has_session)
        proposal = CURRENT.get() or Proposal(params.name, params.arguments or {})  # the middleware always sets it
        decision = call_tool(store, fault, session, proposal.tool, proposal.arguments, idempotency_key(ctx))
        return allowance(decision) if decision.allowed else refusal(decision)

    server = GatewayServer(fault.server_name, version=version("gateproof"), on_list_tools=list_tools, on_call_tool=call)
    server.middleware.append(ProposalMiddleware(lines))
    if config.fixture:
        install(server, FixtureExtension(store, config.trust, config.over_http, fault.server_name))
    return server


def _has_support_role(ctx, config: Config) -> bool:
    """discovery-filtered-only: whether the caller's session, when the request names a valid one, holds the support role."""
    try:
        session = config.store.session(tool_session(request_claims(ctx, config.trust, config.over_http), config.store.has_session))
    except MCPError:
        return False
    return session is not None and SUPPORT_ROLE in session.roles
