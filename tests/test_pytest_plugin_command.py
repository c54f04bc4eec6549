"""The pytest plugin on a gateway named by its command, in any language: the Node.js implementation over the protocol, an MCP
server over MCP, a wrong MCP server caught with the replay command that names it again, and bad settings refused."""

from __future__ import annotations

import shlex
import shutil
import sys

import pytest

from plugin_helpers import LAB_CASES, ini
from gateproof.conformance.implementations import NODE_ENTRY
from gateproof.conformance.mcp.play import unsendable

pytest_plugins = ["pytester"]
FAKE_MCP = [sys.executable, str(__import__("pathlib").Path(__file__).resolve().parent / "implementations" / "fake_mcp.py")]
#: The lab-001 cases a tools/call can carry: the others are skipped over MCP, as verify skips them.
SENDABLE = [case for case in LAB_CASES if not unsendable(case.scenario)]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")
def test_a_node_gateway_given_by_its_command_passes_every_case(pytester):
    pytester.makeini(ini(None, examples=20, gateproof_command=shlex.join(["node", str(NODE_ENTRY)])))
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=len(LAB_CASES) + 1)


def test_an_mcp_server_given_by_its_command_passes_what_mcp_carries_and_skips_the_rest(pytester):
    pytester.makeini(ini(None, examples=20, gateproof_command=shlex.join(FAKE_MCP), gateproof_mcp="stdio"))
    result = pytester.runpytest("-p", "no:cacheprovider", "-rs")
    result.assert_outcomes(passed=len(SENDABLE) + 1, skipped=len(LAB_CASES) - len(SENDABLE))
    result.stdout.fnmatch_lines(["*the implementation does not decide it: a call proposes*"])


def test_a_wrong_mcp_server_fails_with_the_difference_and_a_replay_naming_it_again(pytester):
    command = shlex.join([*FAKE_MCP, "cross-tenant", "--everywhere"])
    pytester.makeini(ini(None, examples=0))
    result = pytester.runpytest("-p", "no:cacheprovider", "--gateproof-command", command, "--gateproof-mcp", "stdio", "-k", "cross-tenant.read")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*step 0 differs in*", "*results?0?.decision*", "*--gateproof-replay*--gateproof-command*--gateproof-mcp stdio*"])


def test_an_mcp_server_whose_refusals_name_no_reason_fails_saying_so(pytester):
    pytester.makeini(ini(None, examples=0, gateproof_command=shlex.join([*FAKE_MCP, "unmapped", "--everywhere"]), gateproof_mcp="stdio"))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "cross-tenant.read")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*a refusal that names no reason*"])


def test_a_command_that_errors_fails_naming_the_command_and_what_it_said(pytester, tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("import sys, json\n"
                      "for line in sys.stdin:\n"
                      "    m = json.loads(line)\n"
                      "    if m['cmd'] == 'start':\n"
                      "        print(json.dumps({'started': {'protocol': 1, 'name': 'broken', 'version': '0', 'language': 'python', 'homepage': '',"
                      " 'rules': ['lab-001'], 'kinds': ['gateway']}}), flush=True)\n"
                      "    elif m['cmd'] == 'run':\n"
                      "        print(json.dumps({'seq': m['seq'], 'errored': {'message': 'no database'}}), flush=True)\n")
    command = shlex.join([sys.executable, str(script)])
    pytester.makeini(ini(None, examples=0))
    result = pytester.runpytest("-p", "no:cacheprovider", "--gateproof-command", command, "-k", LAB_CASES[0].id)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*{command} raised ImplementationErrored: no database*", "*--gateproof-command*"])


@pytest.mark.parametrize("settings, said", [
    ({"gateproof_command": "node x.js"}, "name the implementation once"),
    ({"gateproof_implementation": None, "gateproof_mcp": "stdio"}, "gateproof_command names none"),
    ({"gateproof_implementation": None, "gateproof_command": "'unclosed"}, "is not a command line"),
    ({"gateproof_implementation": None, "gateproof_command": "x", "gateproof_mcp": "http://10.0.0.1/mcp"}, "not a loopback address"),
])
def test_bad_command_settings_are_refused_naming_the_setting(pytester, settings, said):
    pytester.makeini(ini(**{"implementation": "gateways.lab_gateway:run", **{k: v for k, v in settings.items() if k != "gateproof_implementation"}})
                     if "gateproof_implementation" not in settings else ini(None, **{k: v for k, v in settings.items() if k != "gateproof_implementation"}))
    result = pytester.runpytest("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{said}*"])
