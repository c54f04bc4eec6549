"""gateproof as an MCP client: an MCP server or gateway under test, driven through the official Python SDK.

``bridge`` speaks ``PROTOCOL.md`` to the harness and MCP to the server, so
the harness drives an MCP server as it drives any implementation;
``conformance/MCP.md`` states the convention a server follows.
"""
