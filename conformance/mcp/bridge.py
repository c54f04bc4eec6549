"""An MCP server behind the conformance protocol: ``python -m gateproof.conformance.mcp.bridge --mcp stdio|URL [--map FILE] -- CMD``.

``verify --mcp`` drives this program as it drives any implementation of
PROTOCOL.md, so the corpus, generated scenarios, shrinking, reports,
``--known``, ``--shard`` and every fault the harness handles apply unchanged;
it starts the server, speaks MCP to it through the official SDK and answers
each run with the outcome the server showed (conformance/MCP.md).
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import Future

import anyio
from anyio.from_thread import start_blocking_portal

from gateproof.model.gateway.gate import GATEWAY_VERSIONS

from ..harness.paths import path_component
from ..harness.protocol import Started
from ..harness.process import DEFAULT_START_TIMEOUT
from ..implementations.serve import serve
from .connection import Server, ServerFault, StartFault, leaf
from .play import play, unsendable
from .refusals import NO_MAP, MapError, read_refusal_map, schema_problem
from .target import Target, TargetError, free_port_url, read_target
from .tokens import CampaignKeys

#: The share of verify's --timeout a scenario may take here, so a hanging server is reported by this bridge, on its run,
#: before the harness gives up on the bridge itself.
SCENARIO_SHARE = 0.8
#: The share of that a request may take: a server that hangs on one is reported for that request.
REQUEST_SHARE = 0.9


def started_info(described: dict, target: Target) -> Started:
    """What the bridge answers ``start`` with: the server's own description, ``-http`` after its name over HTTP (so one
    server verified both ways is two implementations in a report), and what it cannot show."""
    problem = schema_problem("describe", described)
    if problem:
        raise StartFault(f"gateproof/fixture/describe answered a document that breaks describe.json at {problem}")
    rules = [version for version in described["rules"] if version in GATEWAY_VERSIONS]
    return Started(
        name=path_component(described["name"] if target.stdio else f"{described['name']}-http"), version=described["version"], language=described["language"],
        homepage=described.get("homepage", ""), issues=described.get("issues"), rules=rules, kinds=("gateway",),
        unobservable=() if "rule" in described.get("shows", ()) else ("rule",),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="gateproof.conformance.mcp.bridge", description=__doc__.splitlines()[0])
    parser.add_argument("--mcp", required=True, help="stdio, or the server's streamable HTTP URL (a loopback address; port 0: a free one)")
    parser.add_argument("--map", help="a refusal map (conformance/MCP.md, A refusal)")
    parser.add_argument("--timeout", type=float, default=10.0, help="verify's --timeout")
    parser.add_argument("--start-timeout", type=float, default=DEFAULT_START_TIMEOUT, help="verify's --start-timeout")
    parser.add_argument("command", nargs="*", help="the command that starts the server, after --")
    options = parser.parse_args(argv)
    try:
        target = read_target(options.mcp if options.mcp == "stdio" else free_port_url(options.mcp), tuple(options.command))
        refusals = NO_MAP if options.map is None else read_refusal_map(options.map)
    except (TargetError, MapError) as error:
        raise SystemExit(f"gateproof MCP bridge: {error}") from None
    budget = options.timeout * SCENARIO_SHARE
    server = Server(target, CampaignKeys.new(target.audience), budget * REQUEST_SHARE, max(options.timeout, options.start_timeout) * SCENARIO_SHARE)
    with start_blocking_portal() as portal, Owner(portal, server) as owner:
        try:
            owner.ask(server.start)
            info = started_info(owner.ask(server.fixture, "describe", {}), target)
        except (StartFault, ServerFault, OSError) as error:
            raise SystemExit(f"gateproof MCP bridge: {error}") from None
        except Exception as error:  # the SDK's own failures while the server starts: say what, never a traceback
            raise SystemExit(f"gateproof MCP bridge: the server did not start: {type(error).__name__}: {leaf(error)}") from None
        shows_rule = "rule" not in info.unobservable

        async def decided(scenario: dict) -> dict:
            try:
                with anyio.fail_after(budget):
                    return await play(server, scenario, refusals, shows_rule)
            except TimeoutError:
                server.broken = True
                raise ServerFault(f"no outcome within {budget:g} seconds{await server.exit_note(0)}") from None

        serve(info, lambda scenario: owner.ask(decided, scenario), unsendable)


class Owner:
    """The one task that owns the server's connections: the SDK's sessions and streams are task groups, which anyio
    lets only the task that entered them leave, so every request is made by this task, asked from the protocol loop."""

    def __init__(self, portal, server: Server):
        self.portal, self.server = portal, server
        self.send, self.receive = anyio.create_memory_object_stream(0)

    def __enter__(self) -> "Owner":
        self.done = self.portal.start_task_soon(self._serve)
        return self

    def __exit__(self, *exc) -> None:
        self.portal.call(self.send.aclose)
        self.done.result()

    def ask(self, function, *arguments):
        """What ``function(*arguments)`` returns, or raises, awaited by the owning task."""
        answer = Future()
        self.portal.call(self.send.send, (function, arguments, answer))
        return answer.result()

    async def _serve(self) -> None:
        async with anyio.create_task_group() as group, self.receive:
            self.server.group = group
            try:
                async for function, arguments, answer in self.receive:
                    try:
                        answer.set_result(await function(*arguments))
                    except Exception as error:  # handed to the asking thread, which reports it on its run
                        answer.set_exception(error)
            finally:
                await self.server.close()


if __name__ == "__main__":
    main(sys.argv[1:])
