"""The test hooks, as the MCP extension ``io.gateproof/fixture`` (conformance/MCP.md): served in test mode only.

They replace the host's administration, never the gateway's storage: a
world is loaded into the same tables the calls read, a change is applied to
them, the changes of a call's ``before_write`` wait in a table for the next
call, and the records are read back from theirs. Each hook verifies its
token like a call does and is served only under a fixture token.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any, Literal

from mcp.server.extension import Extension, MethodBinding
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, RequestParams
from pydantic import ConfigDict, Field

from gateproof.model.gateway.changes import apply_change, apply_changes
from gateproof.model.gateway.gate import GATEWAY_VERSIONS
from gateproof.model.gateway.scenario import read_change, read_gateway_world
from gateproof.model.scenario.errors import ScenarioError

from .identity import require_fixture, request_claims
from .store import Store

IDENTIFIER = "io.gateproof/fixture"
#: What a world or change the model cannot read raises while it is read.
UNREADABLE = (ScenarioError, KeyError, TypeError, ValueError, AttributeError)


class HookParams(RequestParams):
    model_config = ConfigDict(extra="allow")


class LoadParams(HookParams):
    scenario: str
    rules: Literal["lab-001", "lab-001+next"]
    world: dict[str, Any]


class ChangeParams(HookParams):
    change: dict[str, Any]


class BeforeWriteParams(HookParams):
    changes: list[dict[str, Any]] = Field(min_length=1)


def _invalid(where: str, error: Exception) -> MCPError:
    return MCPError(code=INVALID_PARAMS, message=f"{where}: {error}")


class FixtureExtension(Extension):
    """The five hooks of MCP.md, each checking its token first."""

    identifier = IDENTIFIER

    def __init__(self, store: Store, trust, over_http: bool, name: str):
        self.store, self.trust, self.over_http, self.name = store, trust, over_http, name

    def methods(self) -> list[MethodBinding]:
        hooks = {"describe": (HookParams, self.describe), "load": (LoadParams, self.load), "change": (ChangeParams, self.change),
                 "before_write": (BeforeWriteParams, self.before_write), "records": (HookParams, self.records)}
        return [MethodBinding(f"gateproof/fixture/{name}", params, self._guarded(hook)) for name, (params, hook) in hooks.items()]

    def _guarded(self, hook):
        async def handler(ctx, params):
            require_fixture(request_claims(ctx, self.trust, self.over_http))
            return hook(params)

        return handler

    def describe(self, params: HookParams) -> dict:
        return {"name": self.name, "version": version("gateproof"),
                "language": "python", "homepage": "", "rules": sorted(GATEWAY_VERSIONS), "shows": ["rule"]}

    def load(self, params: LoadParams) -> dict:
        try:
            world = read_gateway_world(params.world)
        except UNREADABLE as error:
            raise _invalid("world", error) from None
        with self.store.transaction():
            self.store.load(params.scenario, params.rules, world)
        return {}

    def change(self, params: ChangeParams) -> dict:
        with self.store.transaction():
            world, declared = self.store.read_worlds()
            try:
                changed = apply_change(world, read_change(params.change, "$.change", declared))
            except UNREADABLE as error:
                raise _invalid("change", error) from None
            self.store.write_world(world, changed)
        return {}

    def before_write(self, params: BeforeWriteParams) -> dict:
        with self.store.transaction():
            world, declared = self.store.read_worlds()
            try:  # read and tried now, so that the call they wait for can always apply them
                changes = [read_change(change, f"$.changes[{i}]", declared) for i, change in enumerate(params.changes)]
                apply_changes(world, changes)
            except UNREADABLE as error:
                raise _invalid("changes", error) from None
            self.store.stage(params.changes)
        return {}

    def records(self, params: HookParams) -> dict:
        with self.store.transaction():
            return self.store.take_records()


def install(server: Server, extension: Extension) -> None:
    """Serve an extension's methods on a low-level server and advertise it, as ``MCPServer`` does for its extensions."""
    for binding in extension.methods():
        server.add_request_handler(binding.method, binding.params_type, binding.handler)
    server.extensions[extension.identifier] = extension.settings()
