"""The Python reference MCP gateway: the tools of ``adr/gateway.md`` served over MCP with the official Python SDK.

``python -m gateproof.conformance.implementations.mcp_python [--http] [--variant NAME] [--db PATH]``
serves ``export_case`` and ``read_case`` over stdio, or over streamable HTTP
at ``http://127.0.0.1:$GATEPROOF_MCP_PORT/mcp``, and in test mode
(``GATEPROOF_MCP_FIXTURE=1``) the hooks of ``conformance/MCP.md``.

This gateway decides with the model's functions: each call reads the store
into the model's values and is decided by ``decide_call`` of rule version
``lab-001`` or ``lab-001+next``. It owns the rest, as a production gateway
would: storage (every record in SQLite tables, read and written by each call,
nothing kept in memory between requests), transport (stdio or streamable
HTTP, and reading the proposal from the message's own text, repeated keys
kept) and identity (the campaign's signed tokens, the session taken from the
store). It is the reference of a server that keeps its records in a real
store. ``--variant`` starts it with one known gateway fault (``variants.py``),
for ``gateproof verify`` to catch.

Modules: ``store`` (the SQLite tables), ``gateway`` (one call: read, decide,
write back), ``identity`` (tokens and sessions), ``proposals`` (the proposal
as written), ``fixture`` (the test hooks), ``server`` (the tools on the SDK's
low-level server), ``transports`` (stdio and HTTP), ``pipes`` (stdin and
stdout on the event loop), ``variants`` (the faults).
"""
