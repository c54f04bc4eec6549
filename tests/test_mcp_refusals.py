"""Reading an MCP refusal (conformance/MCP.md, A refusal), the campaign's tokens (Identity), and what verify --mcp refuses."""

from __future__ import annotations

import jwt
import pytest
from click.testing import CliRunner

from gateproof.conformance.cli import main
from gateproof.conformance.mcp.play import REFUSAL_REASONS, call_result, json_kind, unsendable
from gateproof.conformance.mcp.refusals import (NO_MAP, HttpRefusal, MapError, RpcError, ToolResult, read_refusal_map, refusal_reason)
from gateproof.conformance.mcp.connection import ServerFault
from gateproof.conformance.mcp.target import TargetError, read_target
from gateproof.conformance.mcp.tokens import BAD_TOKENS, FIXTURE_SCOPE, CampaignKeys, verify_token
from gateproof.model.scenario.document import RepeatedKeys


def write_map(tmp_path, text: str):
    path = tmp_path / "map.json"
    path.write_text(text)
    return path


def test_a_refusal_carrying_a_reason_code_is_read_without_a_map():
    assert refusal_reason(ToolResult(True, {"reason": "role_denied"}), NO_MAP, REFUSAL_REASONS) == "role_denied"
    assert refusal_reason(RpcError(-32003, "no", {"reason": "tenant_mismatch"}), NO_MAP, REFUSAL_REASONS) == "tenant_mismatch"


@pytest.mark.parametrize("answer", [ToolResult(True, {"reason": "allowed"}), ToolResult(True, {"reason": "forbidden"}), ToolResult(True, None, "denied"),
                                    RpcError(-32003, "Forbidden"), HttpRefusal(403, "Forbidden")])
def test_a_refusal_naming_no_reason_code_is_never_guessed(answer):
    assert refusal_reason(answer, NO_MAP, REFUSAL_REASONS) is None


def test_the_first_map_entry_whose_conditions_all_hold_decides(tmp_path):
    refusals = read_refusal_map(write_map(tmp_path, """{"gateproof_mcp_map": 1, "refusals": [
        {"jsonrpc_code": -32003, "message_pattern": "tenant", "reason": "case_not_found"},
        {"jsonrpc_code": -32003, "reason": "role_denied"},
        {"http_status": 403, "reason": "destination_denied"},
        {"tool_error_pattern": "^RATE:", "reason": "rate_limited"}]}"""))
    assert refusal_reason(RpcError(-32003, "other tenant"), refusals, REFUSAL_REASONS) == "case_not_found"
    assert refusal_reason(RpcError(-32003, "Forbidden"), refusals, REFUSAL_REASONS) == "role_denied"
    assert refusal_reason(RpcError(-32004, "Forbidden"), refusals, REFUSAL_REASONS) is None
    assert refusal_reason(HttpRefusal(403), refusals, REFUSAL_REASONS) == "destination_denied"
    assert refusal_reason(HttpRefusal(401), refusals, REFUSAL_REASONS) is None
    assert refusal_reason(ToolResult(True, None, "RATE: slow down"), refusals, REFUSAL_REASONS) == "rate_limited"
    assert refusal_reason(ToolResult(True, None, "rate: slow down"), refusals, REFUSAL_REASONS) is None


@pytest.mark.parametrize("text, said", [
    ('{"gateproof_mcp_map": 1, "refusals": [{"reason": "role_denied"}]}', "$.refusals[0]"),
    ('{"gateproof_mcp_map": 1, "refusals": [{"jsonrpc_code": -32003, "reason": "allowed"}]}', "$.refusals[0].reason"),
    ('{"gateproof_mcp_map": 2, "refusals": []}', "$.gateproof_mcp_map"),
    ('{"gateproof_mcp_map": 1, "refusals": [], "extra": 1}', "extra"),
    ('{"gateproof_mcp_map": 1, "refusals": [{"http_status": 403, "http_status": 401, "reason": "role_denied"}]}', "written more than once"),
    ('{"gateproof_mcp_map": 1, "refusals": [{"message_pattern": "(", "reason": "role_denied"}]}', "$.refusals[0].message_pattern: not a regular expression"),
    ("not json", "$"),
])
def test_a_bad_refusal_map_is_refused_naming_the_field(tmp_path, text, said):
    with pytest.raises(MapError) as refused:
        read_refusal_map(write_map(tmp_path, text))
    assert said in str(refused.value)


def test_a_refusal_map_is_read_with_a_bound(tmp_path):
    with pytest.raises(MapError, match="larger than"):
        read_refusal_map("/dev/zero")


def test_verify_refuses_a_bad_map_a_remote_url_and_a_map_without_mcp_with_exit_status_2(tmp_path):
    bad = write_map(tmp_path, '{"gateproof_mcp_map": 1, "refusals": [{"reason": "nope", "http_status": 403}]}')
    for arguments, said in (
        (["--mcp", "stdio", "--mcp-map", str(bad), "--", "true"], "$.refusals[0].reason"),
        (["--mcp", "http://10.1.2.3:8080/mcp", "--", "true"], "not a loopback address"),
        (["--mcp", "http://example.org/mcp", "--", "true"], "not a loopback address"),
        (["--mcp", "ftp://127.0.0.1/mcp", "--", "true"], "neither stdio nor an http:// URL"),
        (["--mcp", "stdio"], "needs the command"),
        (["--mcp-map", str(bad), "--", "true"], "--mcp-map needs --mcp"),
    ):
        result = CliRunner().invoke(main, ["verify", "--out", str(tmp_path / "out"), *arguments])
        assert result.exit_code == 2, result.output
        assert said in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("url", ["http://127.0.0.1:8931/mcp", "http://127.9.9.9/mcp", "http://localhost:1/mcp", "http://[::1]:8080/mcp"])
def test_loopback_urls_are_targets(url):
    assert read_target(url, ("server",)).url == url


def test_each_token_that_must_fail_fails_verification_and_the_others_pass():
    keys = CampaignKeys.new("gateproof-mcp-stdio")
    claims = verify_token(keys.session_token("s-ana", "ana"), keys.jwks(), keys.audience)
    assert (claims["sid"], claims["sub"], claims["scope"]) == ("s-ana", "ana", "tools")
    assert verify_token(keys.fixture_token(), keys.jwks(), keys.audience)["scope"] == FIXTURE_SCOPE
    for kind in BAD_TOKENS:
        with pytest.raises(jwt.InvalidTokenError):
            verify_token(keys.bad_token(kind, "s-ana", "ana"), keys.jwks(), keys.audience)
    other = CampaignKeys.new("gateproof-mcp-stdio")
    with pytest.raises(jwt.InvalidTokenError):
        verify_token(keys.session_token("s-ana", "ana"), other.jwks(), other.audience)


def test_a_proposal_mcp_cannot_carry_is_skipped_in_json_words():
    call = {"op": "call", "session": "s", "tool": "read_case", "arguments": {"case_id": "C"}}
    assert unsendable({"steps": [call]}) is None
    assert unsendable({"steps": [{**call, "arguments": RepeatedKeys([("case_id", "A"), ("case_id", "B")])}]}) is None
    assert "an array as its arguments" in unsendable({"steps": [{**call, "arguments": []}]})
    assert "its tool with null" in unsendable({"steps": [{**call, "tool": None}]})
    assert json_kind(RepeatedKeys([("a", 1), ("a", 2)])) == "an object that writes a key twice"
    assert [json_kind(v) for v in (True, 1, 1.5, "x", {})] == ["true", "a number", "a number", "a string", "an object"]


def test_a_call_result_is_made_of_the_answer_and_the_records_and_nothing_else():
    audit = {"decision": "deny", "reason": "tenant_mismatch", "tool": "read_case", "user": "ana", "tenant": "acme", "case_id": None,
             "destination_id": None, "stage": "check", "replayed": False, "rule": "G001.10"}
    records = {"exports": [], "reads": [], "audit": [audit]}
    step = {"op": "call", "session": "s-ana"}
    result = call_result(step, ToolResult(True, {"reason": "case_not_found"}), records, NO_MAP, shows_rule=True)
    assert (result["decision"], result["reason"], result["caller_reason"], result["rule"]) == ("deny", "tenant_mismatch", "case_not_found", "G001.10")
    assert "rule" not in result["audit"]
    assert call_result(step, ToolResult(True, {"reason": "case_not_found"}), records, NO_MAP, shows_rule=False)["rule"] is None
    with pytest.raises(ServerFault, match="wrote 0 audit records"):
        call_result(step, ToolResult(False), {"exports": [], "reads": [], "audit": []}, NO_MAP, True)
    with pytest.raises(ServerFault, match="breaks records.json"):
        call_result(step, ToolResult(False), {"exports": [{"case_id": 7}], "reads": [], "audit": [audit]}, NO_MAP, True)


def test_a_call_result_lists_the_servers_writes_only_where_the_catalog_has_a_write_tool():
    audit = {"decision": "allow", "reason": "allowed", "tool": "refund_order", "user": "ana", "tenant": "m1", "case_id": "o1",
             "destination_id": None, "stage": "check", "replayed": False}
    write = {"tool": "refund_order", "case_id": "o1", "arguments": {"order_id": "o1", "amount": 5}}
    step = {"op": "call", "session": "s-ana"}
    answer = ToolResult(False)
    assert call_result(step, answer, {"exports": [], "reads": [], "writes": [write], "audit": [audit]}, NO_MAP, True, writes=True)["writes"] == [write]
    assert call_result(step, answer, {"exports": [], "reads": [], "audit": [audit]}, NO_MAP, True, writes=True)["writes"] == []
    assert "writes" not in call_result(step, answer, {"exports": [], "reads": [], "writes": [write], "audit": [audit]}, NO_MAP, True)
    with pytest.raises(ServerFault, match="breaks records.json"):
        call_result(step, answer, {"exports": [], "reads": [], "writes": [{"tool": 1}], "audit": [audit]}, NO_MAP, True, writes=True)
