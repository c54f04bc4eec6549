"""An MCP server's ``tools/list``, read through the connection a campaign uses (``gateproof catalog from-mcp``).

The server is started and given what ``verify`` gives it (conformance/MCP.md,
What the server is given at start), and the listing is asked as a session
of the campaign would ask it, under a token of its own; the test hooks are not
needed, so a server that serves none is listed too.
"""

from __future__ import annotations

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError

from .connection import Server, StartFault, leaf
from .target import Target
from .tokens import CampaignKeys

#: The session and user the listing's token names: a session no world holds, as a listing concerns none.
LISTING_SESSION, LISTING_USER = "gateproof-catalog", "gateproof"
#: The most pages of a listing read: a server whose cursors never end is refused, not followed for ever.
MOST_PAGES = 100


class ListingFault(Exception):
    """The server could not be started or listed: the message says what happened."""


async def _pages(server: Server) -> list:
    token = server.keys.session_token(LISTING_SESSION, LISTING_USER)
    connection = await server.connection(token)
    tools, cursor = [], None
    for _ in range(MOST_PAGES):
        params = server.with_token({} if cursor is None else {"cursor": cursor}, token)
        result = await connection.request("tools/list", params, server.exact, server.timeout)
        page = result.get("tools")
        if not isinstance(page, list):
            raise ListingFault(f"tools/list answered a result without a list of tools: {str(result)[:300]}")
        tools += page
        cursor = result.get("nextCursor")
        if cursor is None:
            return tools
    raise ListingFault(f"tools/list gave a next page {MOST_PAGES} times: a listing that long is not read")


def _said(error: BaseException, timeout: float, start_timeout: float) -> str:
    """What went wrong, in a few words: the SDK's task groups wrap what failed inside them, so the first failure is said."""
    error = leaf(error)
    if isinstance(error, (ListingFault, StartFault)):
        return str(error)
    if isinstance(error, MCPError) and error.code == types.CONNECTION_CLOSED:
        return "the server closed the connection before it listed its tools"
    if isinstance(error, MCPError):
        return f"the server answered the error {error.code}: {error.error.message}"
    if isinstance(error, TimeoutError):
        return f"the server did not answer in time: {start_timeout:g} seconds to start and answer initialize, {timeout:g} for tools/list"
    return f"the server could not be listed: {type(error).__name__}: {error}"


async def _listed(server: Server) -> list:
    async with anyio.create_task_group() as group:
        server.group = group
        try:
            await server.start()
            return await _pages(server)
        except Exception as error:
            raise ListingFault(_said(error, server.timeout, server.start_timeout) + await server.exit_note()) from None
        finally:
            await server.close()


def list_tools(target: Target, timeout: float, start_timeout: float) -> list:
    """The tools ``tools/list`` lists, every page, as the server wrote them; a :class:`ListingFault` for any failure."""
    server = Server(target, CampaignKeys.new(target.audience), timeout, start_timeout, fixture=False)
    try:
        return anyio.run(_listed, server)
    except Exception as error:  # a failure of the task group itself, outside the listing
        raise ListingFault(_said(error, timeout, start_timeout)) from None
