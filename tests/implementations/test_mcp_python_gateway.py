"""The Python reference MCP gateway (conformance/implementations/mcp_python) gives the model's outcome over MCP.

Each test starts the gateway as a process, over stdio or over streamable HTTP
on a free loopback port, drives it as conformance/MCP.md says (a token a
session, the test hooks for the world, the changes and the records) with the
MCP SDK's own client, and stops it: no process is left behind. Where a key
must be written twice, which the SDK's client never writes, the request is
written by hand (stdio) or renamed on the wire (HTTP). Each variant carries
one gateway fault and must decide some scenario otherwise than the model.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections import Counter
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import mcp_types as types
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.harness.documents import dumps
from gateproof.conformance.implementations.mcp_python.variants import FAULTS
from gateproof.conformance.mcp.tokens import BAD_TOKENS, META_KEY, STDIO_AUDIENCE, CampaignKeys
from gateproof.model.scenario import read_scenario, run_scenario
from gateproof.model.scenario.document import RepeatedKeys, has_repeated_key

MODULE = "gateproof.conformance.implementations.mcp_python"
EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "examples" / "gateway-next-checks.json").read_text(encoding="utf-8"))
CORPUS = {case.id: case.scenario for case in load_corpus() if case.scenario.get("kind") == "gateway"}
KEY_META = "io.gateproof/idempotency-key"
TIMEOUT = 20
AS_DICT = TypeAdapter(dict[str, Any])
#: A scenario of each variant on which the model decides otherwise (from the gateway corpus).
DIFFERS_ON = {
    "fail-open": "gw.boundary.g001.5.applies",
    "ungated-read": "gw.boundary.g001.12.applies",
    "tool-name-only": "gw.unassigned-support",
    "identity-from-argument": "gw.forged.on_behalf_of",
    "discovery-filtered-only": "gw.boundary.g001.7.applies",
    "cross-tenant-supervisor": "gw.boundary.g001.12.other-tenant.applies",
    "last-key-wins": "gw.malformed.repeated-destination",
    "approval-any-arguments": "gw.next.approval-drift",
    "refusals-spend-budget": "gw.boundary.g002.4.uncounted.applies",
}


class Hook(types.Request[dict[str, Any], str]):
    """A request of the fixture extension, its method and params as given."""


def bearer(token: str) -> str:
    return "Bearer " + token


def model_outcome(document: dict) -> dict:
    return json.loads(json.dumps(run_scenario(read_scenario(document))))


def users(document: dict) -> dict[str, str]:
    return {session["id"]: session["user"] for session in document["world"]["sessions"]}


# -- three ways to reach the gateway, each with hook(name, params) and call(session, user, tool, arguments, key) --------


class StdioGateway:
    """The SDK's client over stdio: every request carries its token in ``params._meta``."""

    def __init__(self, session: ClientSession, keys: CampaignKeys, started: types.InitializeResult):
        self.session, self.keys, self.started = session, keys, started

    def meta(self, token: str, key: str | None = None) -> dict:
        return {META_KEY: bearer(token), **({} if key is None else {KEY_META: key})}

    async def hook(self, name: str, params: dict, token: str | None = None) -> dict:
        meta = self.meta(token or self.keys.fixture_token())
        return await self.session.send_request(Hook(method=f"gateproof/fixture/{name}", params={"_meta": meta, **params}), AS_DICT)

    async def call(self, session: str, user: str, tool: str, arguments: dict, key=None, token: str | None = None) -> dict:
        meta = self.meta(token or self.keys.session_token(session, user), key)
        return (await self.session.call_tool(tool, arguments, meta=meta)).model_dump(by_alias=True, exclude_none=True)


@asynccontextmanager
async def stdio_gateway(*options: str, fixture: bool = True):
    keys = CampaignKeys.new(STDIO_AUDIENCE)
    env = {name: value for name, value in keys.environment().items() if fixture or name != "GATEPROOF_MCP_FIXTURE"}
    server = StdioServerParameters(command=sys.executable, args=["-m", MODULE, *options], env=env)
    async with stdio_client(server) as (read, write), ClientSession(read, write, read_timeout_seconds=TIMEOUT) as session:
        yield StdioGateway(session, keys, await session.initialize())


#: A key suffix no proposal writes; :class:`RepeatKeys` writes the key it follows once more on the wire instead.
AGAIN = "\u0000again"


def marked(value):
    """``value`` with each repeat of a key renamed with :data:`AGAIN`, so a plain dict can carry it to the wire."""
    if isinstance(value, RepeatedKeys):
        seen: Counter = Counter()
        renamed = {}
        for key, item in value.pairs:
            renamed[f"{key}{AGAIN}{seen[key]}" if seen[key] else key] = marked(item)
            seen[key] += 1
        return renamed
    if isinstance(value, dict):
        return {key: marked(item) for key, item in value.items()}
    return [marked(item) for item in value] if isinstance(value, list) else value


class RepeatKeys(httpx2.AsyncBaseTransport):
    """Rewrites each renamed key of a request body back to its name, so the body writes that key twice."""

    def __init__(self):
        self.inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request):
        body = await request.aread()
        if b"\\u0000again" in body:
            headers = [(k, v) for k, v in request.headers.raw if k.lower() != b"content-length"]
            body = re.sub(rb'\\u0000again\d+"', b'"', body)
            request = httpx2.Request(request.method, request.url, headers=headers, content=body, extensions=request.extensions)
        return await self.inner.handle_async_request(request)

    async def aclose(self):
        await self.inner.aclose()


class HttpGateway:
    """The SDK's client over streamable HTTP: one connection a token, the token in its ``Authorization`` header."""

    def __init__(self, url: str, keys: CampaignKeys, stack: AsyncExitStack):
        self.url, self.keys, self.stack = url, keys, stack
        self.sessions: dict[str, ClientSession] = {}
        self.tokens = {"fixture": keys.fixture_token()}

    async def connect(self, token: str) -> ClientSession:
        if token not in self.sessions:
            http = await self.stack.enter_async_context(
                httpx2.AsyncClient(headers={"Authorization": bearer(token)}, transport=RepeatKeys(), timeout=TIMEOUT))
            read, write = await self.stack.enter_async_context(streamable_http_client(self.url, http_client=http))
            self.sessions[token] = await self.stack.enter_async_context(ClientSession(read, write, read_timeout_seconds=TIMEOUT))
            await self.sessions[token].initialize()
        return self.sessions[token]

    async def hook(self, name: str, params: dict, token: str | None = None) -> dict:
        session = await self.connect(token or self.tokens["fixture"])
        return await session.send_request(Hook(method=f"gateproof/fixture/{name}", params=params), AS_DICT)

    async def call(self, session: str, user: str, tool: str, arguments: dict, key=None, token: str | None = None) -> dict:
        token = token or self.tokens.setdefault(session, self.keys.session_token(session, user))
        result = await (await self.connect(token)).call_tool(tool, marked(arguments), meta=None if key is None else {KEY_META: key})
        return result.model_dump(by_alias=True, exclude_none=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@asynccontextmanager
async def http_gateway(*options: str):
    """The gateway over HTTP, stopped with SIGTERM at the end, which it must answer by exiting with 0."""
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    keys = CampaignKeys.new(url)
    env = {**os.environ, **keys.environment(), "GATEPROOF_MCP_PORT": str(port)}
    process = subprocess.Popen([sys.executable, "-m", MODULE, "--http", *options], env=env)
    try:
        with anyio.fail_after(TIMEOUT):
            while process.poll() is None and not listening(port):
                await anyio.sleep(0.05)
        assert process.poll() is None, "the gateway exited before it listened"
        async with AsyncExitStack() as stack:
            yield HttpGateway(url, keys, stack)
        process.send_signal(signal.SIGTERM)
        assert await anyio.to_thread.run_sync(process.wait, TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


class RawStdioGateway:
    """JSON-RPC lines written by hand, the one way to send a key twice over stdio; the same hooks and calls."""

    def __init__(self, process, keys: CampaignKeys):
        self.process, self.keys, self.count = process, keys, 0
        self.lines = BufferedByteReceiveStream(process.stdout)

    async def request(self, method: str, params: dict) -> dict:
        self.count += 1
        await self.process.stdin.send(dumps({"jsonrpc": "2.0", "id": self.count, "method": method, "params": params}) + b"\n")
        with anyio.fail_after(TIMEOUT):
            answer = json.loads(await self.lines.receive_until(b"\n", 1 << 24))
        if "error" in answer:
            raise MCPError(answer["error"]["code"], answer["error"]["message"])
        return answer["result"]

    async def hook(self, name: str, params: dict) -> dict:
        return await self.request(f"gateproof/fixture/{name}", {"_meta": {META_KEY: bearer(self.keys.fixture_token())}, **params})

    async def call(self, session: str, user: str, tool, arguments, key=None) -> dict:
        meta = {META_KEY: bearer(self.keys.session_token(session, user)), **({} if key is None else {KEY_META: key})}
        return await self.request("tools/call", {"_meta": meta, "name": tool, "arguments": arguments})


@asynccontextmanager
async def raw_stdio_gateway(*options: str):
    keys = CampaignKeys.new(STDIO_AUDIENCE)
    async with await anyio.open_process([sys.executable, "-m", MODULE, *options], env={**os.environ, **keys.environment()},
                                        stderr=None) as process:
        gateway = RawStdioGateway(process, keys)
        await gateway.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}})
        await process.stdin.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        yield gateway
        await process.stdin.aclose()
        with anyio.fail_after(TIMEOUT):
            assert await process.wait() == 0  # stdin ended: the gateway exits by itself


# -- a scenario played through a gateway, read back as MCP.md reads it ------------------------------------------------


async def play(gateway, document: dict) -> dict:
    """The outcome the gateway shows for ``document``: one load, then per step a change or before_write, call, records."""
    rules = document.get("rules", "lab-001")
    await gateway.hook("load", {"scenario": document["id"], "rules": rules, "world": document["world"]})
    results, names = [], users(document)
    for step in document["steps"]:
        if step["op"] != "call":
            await gateway.hook("change", {"change": step})
            results.append({"op": step["op"]})
            continue
        if step.get("before_write"):
            await gateway.hook("before_write", {"changes": step["before_write"]})
        answer = await gateway.call(step["session"], names[step["session"]], step["tool"], step["arguments"], step.get("idempotency_key"))
        results.append(call_result(step, answer, await gateway.hook("records", {})))
    return {"gateproof": 1, "scenario": document["id"], "rules": rules, "results": results}


def call_result(step: dict, answer: dict, records: dict) -> dict:
    assert len(records["audit"]) == 1, records  # G001.15: exactly one audit record a call
    audit = dict(records["audit"][0])
    rule = audit.pop("rule")
    refused = answer.get("isError") is True
    return {"op": "call", "session": step["session"], "decision": "deny" if refused else "allow", "reason": audit["reason"],
            "caller_reason": answer["structuredContent"]["reason"] if refused else "allowed", "rule": rule,
            "stage": audit["stage"], "replayed": audit["replayed"], "exports": records["exports"], "reads": records["reads"], "audit": audit}


def carried_by_the_sdk(document: dict) -> bool:
    """Whether the SDK's client can write every call (a tool name, arguments an object writing no key twice)."""
    return all(isinstance(s["tool"], str) and type(s["arguments"]) is dict and not has_repeated_key(s["arguments"])
               for s in document["steps"] if s["op"] == "call")


def run(test):
    """Runs an async test body to its end on one event loop."""
    return anyio.run(test)


# -- the tests ----------------------------------------------------------------------------------------------------------


def test_over_stdio_the_example_and_the_corpus_give_the_models_outcome():
    documents = [EXAMPLE] + [document for document in CORPUS.values() if carried_by_the_sdk(document)]

    async def test():
        async with stdio_gateway() as gateway:
            assert gateway.started.capabilities.experimental == {"io.gateproof/fixture": {}}
            describe = await gateway.hook("describe", {})
            assert describe | {"version": ""} == {"name": "mcp-python", "version": "", "language": "python", "homepage": "",
                                                   "rules": ["lab-001", "lab-001+next"], "shows": ["rule"]}
            listed = await gateway.session.list_tools()
            assert [(tool.name, tool.input_schema["required"], tool.input_schema["additionalProperties"]) for tool in listed.tools] == [
                ("export_case", ["case_id", "destination_id"], False), ("read_case", ["case_id"], False)]
            return [(document, await play(gateway, document)) for document in documents]

    differences = [document["id"] for document, outcome in run(test) if outcome != model_outcome(document)]
    assert len(documents) > 100 and differences == []


def test_over_streamable_http_the_example_gives_the_models_outcome_and_sigterm_ends_it():
    repeated = CORPUS["gw.malformed.repeated-destination"]

    async def test():
        async with http_gateway() as gateway:
            return await play(gateway, EXAMPLE), await play(gateway, repeated)

    example, refused = run(test)
    assert example == model_outcome(EXAMPLE)
    assert refused == model_outcome(repeated)
    assert refused["results"][0]["reason"] == "malformed_input" and refused["results"][0]["rule"] == "G001.17"


def test_a_key_written_twice_over_stdio_is_refused_as_malformed_input():
    document = CORPUS["gw.malformed.repeated-destination"]
    assert has_repeated_key(document["steps"][0]["arguments"])

    async def test():
        async with raw_stdio_gateway() as gateway:
            return await play(gateway, document)

    outcome = run(test)
    assert outcome == model_outcome(document)
    assert (outcome["results"][0]["caller_reason"], outcome["results"][0]["audit"]["destination_id"]) == ("malformed_input", None)


def test_without_test_mode_the_hooks_are_not_served():
    async def test():
        async with stdio_gateway(fixture=False) as gateway:
            assert gateway.started.capabilities.experimental is None and gateway.started.capabilities.extensions is None
            with pytest.raises(MCPError) as refused:
                await gateway.hook("describe", {})
            return refused.value.code

    assert run(test) == -32601


def one_call_a_minute() -> dict:
    """A world where s-ana may make one call a minute, and that call: refused as rate_limited if a refused token counted."""
    world = {**EXAMPLE["world"], "rate_limit": {"calls": 1, "window": 60}}
    step = {"op": "call", "session": "s-ana", "tool": "read_case", "arguments": {"case_id": "CASE-1042"}}
    return {**EXAMPLE, "id": "refused-tokens", "world": world, "steps": [step]}


def test_over_stdio_a_refused_token_reaches_no_hook_and_no_tool_and_changes_nothing():
    document = one_call_a_minute()

    async def test():
        async with stdio_gateway() as gateway:
            keys, read = gateway.keys, {"case_id": "CASE-1042"}
            await gateway.hook("load", {"scenario": document["id"], "rules": document["rules"], "world": document["world"]})
            attempts = [gateway.hook("records", {}, token=keys.session_token("s-ana", "ana")),  # a session's token on a hook
                        gateway.call("s-ana", "ana", "read_case", read, token=keys.fixture_token()),  # the fixture's on a tool
                        gateway.call("s-bo", "bo", "read_case", read)]  # a session the store does not hold
            attempts += [gateway.call("s-ana", "ana", "read_case", read, token=keys.bad_token(kind, "s-ana", "ana")) for kind in BAD_TOKENS]
            codes = []
            for attempt in attempts:
                with pytest.raises(MCPError) as refused:
                    await attempt
                codes.append(refused.value.code)
            return codes, await gateway.hook("records", {}), await play(gateway, document)

    codes, records, outcome = run(test)
    assert codes == [-32001] * (3 + len(BAD_TOKENS))
    assert records == {"exports": [], "reads": [], "audit": []}
    assert outcome == model_outcome(document) and outcome["results"][0]["decision"] == "allow"


def test_bad_tokens_over_http_are_answered_401_and_change_nothing():
    document = one_call_a_minute()

    async def test():
        async with http_gateway() as gateway:
            await gateway.hook("load", {"scenario": document["id"], "rules": document["rules"], "world": document["world"]})
            body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "read_case", "arguments": {"case_id": "CASE-1042"}}}
            statuses = []
            async with httpx2.AsyncClient(timeout=TIMEOUT) as http:
                for kind in BAD_TOKENS:
                    headers = {"Authorization": bearer(gateway.keys.bad_token(kind, "s-ana", "ana")), "Content-Type": "application/json",
                               "Accept": "application/json, text/event-stream"}
                    statuses.append((await http.post(gateway.url, json=body, headers=headers)).status_code)
                statuses.append((await http.post(gateway.url, json=body, headers={"Accept": "application/json, text/event-stream"})).status_code)
            return statuses, await gateway.hook("records", {}), await play(gateway, document)

    statuses, records, outcome = run(test)
    assert statuses == [401] * (len(BAD_TOKENS) + 1)
    assert records == {"exports": [], "reads": [], "audit": []}
    assert outcome == model_outcome(document) and outcome["results"][0]["decision"] == "allow"


def test_each_variant_decides_a_scenario_otherwise_than_the_model():
    """The correct gateway decides each of these scenarios as the model does: the corpus and repeated-key tests above."""
    documents = {name: CORPUS[scenario] for name, scenario in DIFFERS_ON.items()}
    assert set(documents) == set(FAULTS)
    outcomes: dict[str, dict] = {}

    async def play_faulty(name: str, document: dict):
        async with (stdio_gateway if carried_by_the_sdk(document) else raw_stdio_gateway)("--variant", name) as gateway:
            outcomes[name] = await play(gateway, document)

    async def test():
        async with anyio.create_task_group() as group:
            for name, document in documents.items():
                group.start_soon(play_faulty, name, document)

    run(test)
    assert [name for name, document in documents.items() if outcomes[name] == model_outcome(document)] == []


def test_the_discovery_filtered_variant_hides_export_case_from_a_session_without_the_support_role():
    document = CORPUS["gw.boundary.g001.7.applies"]
    roles = {session["id"]: session.get("roles", []) for session in document["world"]["sessions"]}
    plain = next(sid for sid, held in roles.items() if "support" not in held)
    support = next(sid for sid, held in roles.items() if "support" in held)

    async def listed(gateway, session: str) -> list[str]:
        meta = gateway.meta(gateway.keys.session_token(session, users(document)[session]))
        return [tool.name for tool in (await gateway.session.list_tools(params=types.PaginatedRequestParams(_meta=meta))).tools]

    async def test():
        async with stdio_gateway("--variant", "discovery-filtered-only") as gateway:
            await gateway.hook("load", {"scenario": document["id"], "rules": "lab-001", "world": document["world"]})
            assert (await gateway.hook("describe", {}))["name"] == "mcp-python-discovery-filtered-only"
            return await listed(gateway, plain), await listed(gateway, support)

    assert run(test) == (["read_case"], ["export_case", "read_case"])
