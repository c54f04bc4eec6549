"""The TypeScript reference MCP gateway (conformance/implementations/mcp_node) as conformance/MCP.md drives it.

The server is started over stdio and over streamable HTTP and reached with the
official Python MCP client; tokens are minted with the campaign's keys, the
world of examples/gateway-next-checks.json is loaded through the fixture
hooks, its steps are played, and what the server shows (the tool result, the
records hook) must be the model's outcome. Tokens that must fail, the hooks
outside test mode, and arguments that write a key twice are checked too; those
need exact bytes on the wire, so they are sent as raw JSON-RPC text.

Skipped when node is not on PATH, or when the server is not built
(``npm ci && npm run build`` in conformance/implementations/mcp_node).
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import socket
import subprocess
import time
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any, Iterator

import anyio
import httpx2
import mcp_types as types
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from pydantic import TypeAdapter

from gateproof.conformance.corpus.load import load_corpus
from gateproof.conformance.mcp.tokens import BAD_TOKENS, META_KEY, STDIO_AUDIENCE, CampaignKeys
from gateproof.model.scenario import run_scenario

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "conformance" / "implementations" / "mcp_node"
SERVER = FOLDER / "dist" / "server.js"
EXAMPLE = ROOT / "examples" / "gateway-next-checks.json"

NODE = shutil.which("node")
if NODE is None:
    pytest.skip("node is not on PATH", allow_module_level=True)
if not SERVER.is_file():
    pytest.skip(f"{SERVER.relative_to(ROOT)} is not built: run `npm ci && npm run build` in {FOLDER.relative_to(ROOT)}",
                allow_module_level=True)

HOOKS = ("describe", "load", "change", "before_write", "records")
IDEMPOTENCY_META = "io.gateproof/idempotency-key"
UNAUTHORIZED = -32001
METHOD_NOT_FOUND = -32601
SECONDS = 60  # a bound on any one conversation with the server, so a hang fails instead of blocking the suite
ANY_RESULT = TypeAdapter(dict[str, Any])


def hook(name: str) -> str:
    return f"gateproof/fixture/{name}"


def example() -> dict:
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


def model_results(document: dict) -> list[dict]:
    return json.loads(json.dumps(run_scenario(document)))["results"]


def users(document: dict) -> dict[str, str]:
    return {session["id"]: session["user"] for session in document["world"]["sessions"]}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def call_result(step: dict, refused: bool, reason: str | None, recorded: dict) -> dict:
    """One call's result read from what the server shows, key by key as conformance/MCP.md's table says."""
    assert len(recorded["audit"]) == 1, recorded  # G001.15: one audit record a call
    audit = dict(recorded["audit"][0])
    rule = audit.pop("rule")
    return {"op": "call", "session": step["session"], "decision": "deny" if refused else "allow", "reason": audit["reason"],
            "caller_reason": reason if refused else "allowed", "rule": rule, "stage": audit["stage"],
            "replayed": audit["replayed"], "exports": recorded["exports"], "reads": recorded["reads"], "audit": audit}


# --- the official Python client ------------------------------------------------------------------------------------


class Client:
    """A gateway reached with the official client: hooks under the fixture token, calls under their session's token."""

    def __init__(self, keys: CampaignKeys):
        self.keys = keys

    async def hook(self, name: str, params: dict) -> dict:
        raise NotImplementedError

    async def call(self, step: dict, user: str) -> types.CallToolResult:
        raise NotImplementedError

    async def play(self, document: dict) -> list[dict]:
        await self.hook("load", {"scenario": document["id"], "rules": document.get("rules", "lab-001"), "world": document["world"]})
        who = users(document)
        results = []
        for step in document["steps"]:
            if step["op"] != "call":
                await self.hook("change", {"change": step})
                results.append({"op": step["op"]})
                continue
            if step.get("before_write"):
                await self.hook("before_write", {"changes": step["before_write"]})
            answer = await self.call(step, who[step["session"]])
            reason = (answer.structured_content or {}).get("reason") if answer.is_error else None
            results.append(call_result(step, answer.is_error, reason, await self.hook("records", {})))
        return results


def request(name: str, params: dict) -> types.Request:
    return types.Request[dict[str, Any], str](method=hook(name), params=params)


def call_meta(token: str, step: dict) -> dict:
    meta = {META_KEY: f"Bearer {token}"}
    if "idempotency_key" in step:
        meta[IDEMPOTENCY_META] = step["idempotency_key"]
    return meta


class StdioClient(Client):
    """One stdio connection for every session: each request carries its token in params._meta."""

    def __init__(self, keys: CampaignKeys, session: ClientSession):
        super().__init__(keys)
        self.session = session

    async def hook(self, name: str, params: dict) -> dict:
        meta = {META_KEY: f"Bearer {self.keys.fixture_token()}"}
        return await self.session.send_request(request(name, {**params, "_meta": meta}), ANY_RESULT)

    async def call(self, step: dict, user: str) -> types.CallToolResult:
        token = self.keys.session_token(step["session"], user)
        return await self.session.call_tool(step["tool"], step["arguments"], meta=call_meta(token, step))


class HttpClient(Client):
    """One streamable HTTP connection a token, its token in the Authorization header of every request."""

    def __init__(self, keys: CampaignKeys, url: str, stack: AsyncExitStack):
        super().__init__(keys)
        self.url, self.stack = url, stack
        self.sessions: dict[str, ClientSession] = {}

    async def connect(self, token: str) -> ClientSession:
        http = await self.stack.enter_async_context(httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=SECONDS))
        read, write = await self.stack.enter_async_context(streamable_http_client(self.url, http_client=http))
        session = await self.stack.enter_async_context(ClientSession(read, write))
        await session.initialize()
        return session

    async def session_for(self, name: str, token: str) -> ClientSession:
        if name not in self.sessions:
            self.sessions[name] = await self.connect(token)
        return self.sessions[name]

    async def hook(self, name: str, params: dict) -> dict:
        session = await self.session_for("", self.keys.fixture_token())
        return await session.send_request(request(name, params), ANY_RESULT)

    async def call(self, step: dict, user: str) -> types.CallToolResult:
        token = self.keys.session_token(step["session"], user)
        session = await self.session_for(step["session"], token)
        meta = {key: value for key, value in call_meta(token, step).items() if key != META_KEY}
        return await session.call_tool(step["tool"], step["arguments"], meta=meta or None)


def server_environment(keys: CampaignKeys, fixture: bool = True, **more: str) -> dict[str, str]:
    environment = {**keys.environment(), **more}
    if not fixture:
        del environment["GATEPROOF_MCP_FIXTURE"]
    return environment


async def with_stdio(keys: CampaignKeys, use, fixture: bool = True):
    """Runs use(client, initialize_result) against a server over stdio; the client's shutdown ends the server."""
    parameters = StdioServerParameters(command=NODE, args=[str(SERVER)], env=server_environment(keys, fixture))
    with anyio.fail_after(SECONDS):
        async with stdio_client(parameters) as (read, write), ClientSession(read, write) as session:
            initialized = await session.initialize()
            return await use(StdioClient(keys, session), initialized)


@contextmanager
def http_server(environment: dict[str, str], port: int) -> Iterator[subprocess.Popen]:
    """A server over streamable HTTP, in its own process group; stopped with SIGTERM, and it must exit 0 at once."""
    process = subprocess.Popen([NODE, str(SERVER), "--http"], env={**os.environ, **environment, "GATEPROOF_MCP_PORT": str(port)},
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, process.stderr.read().decode()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not listen within 20 seconds"
                time.sleep(0.05)
        yield process
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=10) == 0, process.stderr.read().decode()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        process.stderr.close()


async def with_http(keys: CampaignKeys, url: str, use):
    with anyio.fail_after(SECONDS):
        async with AsyncExitStack() as stack:
            return await use(HttpClient(keys, url, stack))


# --- raw JSON-RPC text, for what the client cannot write -----------------------------------------------------------


class RawStdio:
    """A server over stdio spoken to one line of text at a time."""

    def __init__(self, keys: CampaignKeys, *args: str, fixture: bool = True):
        self.keys = keys
        self.process = subprocess.Popen([NODE, str(SERVER), *args], env={**os.environ, **server_environment(keys, fixture)},
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
        self.buffer = b""
        self.next_id = 0
        answer = self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                             "clientInfo": {"name": "gateproof-tests", "version": "1"}})
        assert "result" in answer, answer
        self.send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def send(self, text: str) -> None:
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()

    def line(self) -> dict:
        deadline = time.monotonic() + SECONDS
        while b"\n" not in self.buffer:
            ready, _, _ = select.select([self.process.stdout], [], [], max(0.0, deadline - time.monotonic()))
            assert ready, "no answer within the time allowed"
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            assert chunk, f"the server closed stdout: {self.process.stderr.read().decode()}"
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, method: str, params: dict) -> dict:
        """The answer to one request; params are written with json.dumps, which writes a RepeatedKeys' keys as held."""
        self.next_id += 1
        self.send(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        answer = self.line()
        assert answer.get("id") == self.next_id, answer
        return answer

    def hook(self, name: str, params: dict) -> dict:
        answer = self.request(hook(name), {**params, "_meta": {META_KEY: f"Bearer {self.keys.fixture_token()}"}})
        assert "result" in answer, answer
        return answer["result"]

    def call(self, token: str, step: dict) -> dict:
        return self.request("tools/call", {"name": step["tool"], "arguments": step["arguments"], "_meta": call_meta(token, step)})

    def play(self, document: dict) -> list[dict]:
        """Every step, every proposal carried exactly as written: any tool, any arguments, keys written twice."""
        self.hook("load", {"scenario": document["id"], "rules": document.get("rules", "lab-001"), "world": document["world"]})
        who = users(document)
        results = []
        for step in document["steps"]:
            if step["op"] != "call":
                self.hook("change", {"change": step})
                results.append({"op": step["op"]})
                continue
            if step.get("before_write"):
                self.hook("before_write", {"changes": step["before_write"]})
            answer = self.call(self.keys.session_token(step["session"], who[step["session"]]), step)["result"]
            refused = answer.get("isError") is True
            reason = answer["structuredContent"]["reason"] if refused else None
            results.append(call_result(step, refused, reason, self.hook("records", {})))
        return results

    def close(self) -> int:
        """Ends stdin: the server must answer what it owes and exit 0 by itself."""
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=10)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.process.stdout.close()
            self.process.stderr.close()


@contextmanager
def raw_stdio(keys: CampaignKeys, *args: str, fixture: bool = True) -> Iterator[RawStdio]:
    server = RawStdio(keys, *args, fixture=fixture)
    try:
        yield server
    finally:
        assert server.close() == 0


REPEATED = ('{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {"_meta": %s, "name": "export_case", '
            '"arguments": {"case_id": "CASE-1042", "destination_id": "legal-hold", "destination_id": "review-queue"}}}')


def refused_as_malformed(answer: dict, recorded: dict) -> None:
    """G001.17: refused as malformed_input, recorded naming neither the case nor the destination, and nothing exported."""
    assert answer["result"]["isError"] is True and answer["result"]["structuredContent"] == {"reason": "malformed_input"}
    assert recorded["exports"] == [] and recorded["reads"] == []
    assert recorded["audit"] == [{"decision": "deny", "reason": "malformed_input", "tool": "export_case", "user": "ana", "tenant": "acme",
                                  "case_id": None, "destination_id": None, "stage": "check", "replayed": False, "rule": "G001.17"}]


def limited_world() -> dict:
    """The example's world allowing one call a minute: a refused token that counted would leave no room for the good call."""
    return {**example()["world"], "rate_limit": {"calls": 1, "window": 60}}


GOOD_READ = {"op": "call", "session": "s-ana", "tool": "read_case", "arguments": {"case_id": "CASE-1042"}}
NOTHING = {"exports": [], "reads": [], "audit": []}


# --- the tests -----------------------------------------------------------------------------------------------------


def test_over_stdio_the_server_describes_itself_lists_both_tools_and_advertises_the_hooks():
    async def use(client: StdioClient, initialized: types.InitializeResult):
        tools = (await client.session.list_tools()).tools
        return initialized, await client.hook("describe", {}), {tool.name: tool.input_schema for tool in tools}

    initialized, described, schemas = anyio.run(with_stdio, CampaignKeys.new(STDIO_AUDIENCE), use)
    assert initialized.capabilities.extensions == {"io.gateproof/fixture": {}}
    version = json.loads((FOLDER / "package.json").read_text(encoding="utf-8"))["version"]
    assert described == {"name": "mcp-node", "version": version, "language": "typescript", "homepage": "",
                         "rules": ["lab-001", "lab-001+next"], "shows": ["rule"]}
    assert set(schemas) == {"export_case", "read_case"}
    assert schemas["export_case"]["required"] == ["case_id", "destination_id"] and schemas["read_case"]["required"] == ["case_id"]


def test_the_example_played_over_stdio_gives_the_models_results():
    document = example()
    results = anyio.run(with_stdio, CampaignKeys.new(STDIO_AUDIENCE), lambda client, _: client.play(document))
    assert results == model_results(document)


def test_the_example_played_over_streamable_http_gives_the_models_results():
    document, port = example(), free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    keys = CampaignKeys.new(url)
    with http_server(server_environment(keys), port):
        results = anyio.run(with_http, keys, url, lambda client: client.play(document))
    assert results == model_results(document)


def test_without_test_mode_the_hooks_are_refused_as_method_not_found():
    async def use(client: StdioClient, initialized: types.InitializeResult):
        codes = {}
        for name in HOOKS:
            with pytest.raises(MCPError) as refused:
                await client.hook(name, {})
            codes[name] = refused.value.code
        return initialized, codes

    initialized, codes = anyio.run(with_stdio, CampaignKeys.new(STDIO_AUDIENCE), use, False)
    assert not initialized.capabilities.extensions
    assert codes == {name: METHOD_NOT_FOUND for name in HOOKS}


def test_over_stdio_a_token_that_must_fail_authorizes_nothing_and_is_not_counted():
    keys = CampaignKeys.new(STDIO_AUDIENCE)
    with raw_stdio(keys) as server:
        server.hook("load", {"scenario": "bad-tokens", "rules": "lab-001+next", "world": limited_world()})
        for kind in BAD_TOKENS:
            answer = server.call(keys.bad_token(kind, "s-ana", "ana"), GOOD_READ)
            assert answer["error"]["code"] == UNAUTHORIZED, (kind, answer)
            assert server.hook("records", {}) == NOTHING, kind
        # Neither a fixture token nor a call token names a session, or no session of the store: no tool is called.
        assert server.call(keys.fixture_token(), GOOD_READ)["error"]["code"] == UNAUTHORIZED
        assert server.call(keys.session_token("s-nobody", "ana"), GOOD_READ)["error"]["code"] == UNAUTHORIZED
        no_token = server.request("tools/call", {"name": "read_case", "arguments": {"case_id": "CASE-1042"}})
        assert no_token["error"]["code"] == UNAUTHORIZED
        assert server.hook("records", {}) == NOTHING
        # A session's token opens no hook.
        session_meta = {META_KEY: f"Bearer {keys.session_token('s-ana', 'ana')}"}
        assert server.request(hook("records"), {"_meta": session_meta})["error"]["code"] == UNAUTHORIZED
        # The limit of one call a minute was left whole for the one good call.
        good = server.call(keys.session_token("s-ana", "ana"), GOOD_READ)
        assert good["result"].get("isError") is not True, good
        assert server.hook("records", {})["reads"] == [{"case_id": "CASE-1042"}]


def test_over_http_a_token_that_must_fail_is_answered_401_and_records_nothing():
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    keys = CampaignKeys.new(url)
    accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "gateproof-tests", "version": "1"}}}
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "read_case", "arguments": {"case_id": "CASE-1042"}}}

    async def use(client: HttpClient):
        await client.hook("load", {"scenario": "bad-tokens", "rules": "lab-001+next", "world": limited_world()})
        statuses = {}
        async with httpx2.AsyncClient(timeout=30) as http:
            good = {**accept, "Authorization": f"Bearer {keys.session_token('s-ana', 'ana')}"}
            opened = await http.post(url, json=initialize, headers=good)
            assert opened.status_code == 200, opened.text
            session = {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
            await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers={**good, **session})
            for kind in BAD_TOKENS:
                bad = {**accept, "Authorization": f"Bearer {keys.bad_token(kind, 's-ana', 'ana')}"}
                statuses[kind] = ((await http.post(url, json=initialize, headers=bad)).status_code,
                                  (await http.post(url, json=call, headers={**bad, **session})).status_code)
            statuses["absent"] = ((await http.post(url, json=initialize, headers=accept)).status_code,
                                  (await http.post(url, json=call, headers={**accept, **session})).status_code)
            recorded = await client.hook("records", {})
            answered = (await http.post(url, json=call, headers={**good, **session})).json()
        return statuses, recorded, answered, await client.hook("records", {})

    with http_server(server_environment(keys), port):
        statuses, recorded, answered, after = anyio.run(with_http, keys, url, use)
    assert statuses == {kind: (401, 401) for kind in (*BAD_TOKENS, "absent")}
    assert recorded == NOTHING
    assert answered["result"].get("isError") is not True, answered
    assert after["reads"] == [{"case_id": "CASE-1042"}]


def test_over_stdio_arguments_that_write_a_key_twice_are_refused_as_malformed_input():
    keys = CampaignKeys.new(STDIO_AUDIENCE)
    with raw_stdio(keys) as server:
        server.hook("load", {"scenario": "repeated-key", "rules": "lab-001", "world": example()["world"]})
        meta = json.dumps({META_KEY: f"Bearer {keys.session_token('s-ana', 'ana')}"})
        server.send(REPEATED % (900, meta))
        refused_as_malformed(server.line(), server.hook("records", {}))


def test_over_http_arguments_that_write_a_key_twice_are_refused_as_malformed_input():
    port = free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    keys = CampaignKeys.new(url)

    async def use(client: HttpClient):
        await client.hook("load", {"scenario": "repeated-key", "rules": "lab-001", "world": example()["world"]})
        headers = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json",
                   "Authorization": f"Bearer {keys.session_token('s-ana', 'ana')}"}
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "gateproof-tests", "version": "1"}}}
        async with httpx2.AsyncClient(timeout=30) as http:
            opened = await http.post(url, json=initialize, headers=headers)
            headers |= {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
            await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
            answer = await http.post(url, content=(REPEATED % (2, "{}")).encode(), headers=headers)
            assert answer.status_code == 200, answer.text
        return answer.json(), await client.hook("records", {})

    with http_server(server_environment(keys), port):
        answer, recorded = anyio.run(with_http, keys, url, use)
    refused_as_malformed(answer, recorded)


def test_every_gateway_scenario_of_the_corpus_played_over_stdio_gives_the_models_results():
    """Every proposal is judged by the gateway, never by the SDK: a tool that is no string, arguments that are no object."""
    documents = [case.scenario for case in load_corpus() if case.scenario.get("kind") == "gateway"]
    assert documents
    with raw_stdio(CampaignKeys.new(STDIO_AUDIENCE)) as server:
        differences = [(document["id"], got, want) for document in documents
                       if (got := server.play(document)) != (want := model_results(document))]
    assert differences == []


def test_with_a_database_file_the_records_outlive_the_process(tmp_path):
    """The world, the key bindings and the records live in SQLite: a server restarted on the same file goes on."""
    keys, database = CampaignKeys.new(STDIO_AUDIENCE), str(tmp_path / "gateway.sqlite")
    document = example()
    first, again = document["steps"][0], document["steps"][1]  # one idempotency key, the same action twice
    token = keys.session_token("s-ana", "ana")
    with raw_stdio(keys, "--db", database) as server:
        server.hook("load", {"scenario": document["id"], "rules": document["rules"], "world": document["world"]})
        assert server.call(token, first)["result"]["structuredContent"]["replayed"] is False
    with raw_stdio(keys, "--db", database) as server:
        assert server.call(token, again)["result"]["structuredContent"]["replayed"] is True
        recorded = server.hook("records", {})
    assert [record["case_id"] for record in recorded["exports"]] == ["CASE-1042"]  # the first call's, not yet reported
    assert [record["replayed"] for record in recorded["audit"]] == [False, True]
