"""The plugin honours ``--tb``: ``line`` one line a failure, ``short`` the differing fields, ``long`` and ``auto`` the whole story;
and a gateway's value that JSON cannot carry fails with the plugin's display, never gateproof's own traceback."""

from __future__ import annotations

import shlex
import shutil

import pytest

from plugin_helpers import CROSS_TENANT, ini
from gateproof.conformance.implementations import NODE_ENTRY

pytest_plugins = ["pytester"]
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not on PATH")

#: The Node implementation with one fault: every outcome it gives loses its last result.
FAULTY_NODE = """
const scenario = require({scenario});
const decide = scenario.decide;
scenario.decide = (document) => {{ const outcome = decide(document); outcome.results = outcome.results.slice(0, -1); return outcome; }};
require({protocol}).serve(process.stdin, process.stdout);
"""


def faulty_node(pytester) -> str:
    folder = NODE_ENTRY.parent
    script = pytester.path / "faulty.js"
    script.write_text(FAULTY_NODE.format(scenario=repr(str(folder / "scenario.js")), protocol=repr(str(folder / "protocol.js"))))
    return shlex.join(["node", str(script)])


@needs_node
def test_tb_line_prints_one_line_a_failure_of_a_node_gateway_given_by_its_command(pytester):
    pytester.makeini(ini(None, examples=0, gateproof_command=faulty_node(pytester)))
    result = pytester.runpytest("-p", "no:cacheprovider", "--tb=line", "-k", "cross-tenant")
    result.assert_outcomes(failed=len(CROSS_TENANT))
    failures = result.outlines[result.outlines.index(next(line for line in result.outlines if "FAILURES" in line)) + 1:]
    failures = failures[:next(n for n, line in enumerate(failures) if "short test summary" in line or line.startswith("FAILED") or "failed" in line)]
    assert len(failures) == len(CROSS_TENANT), failures
    assert all(": differs in results[0]" in line and "gw." in line for line in failures), failures


@needs_node
def test_tb_short_prints_the_differing_fields_without_the_scenario_or_the_explanation(pytester):
    pytester.makeini(ini(None, examples=0, gateproof_command=faulty_node(pytester)))
    short = pytester.runpytest("-p", "no:cacheprovider", "--tb=short", "-k", "cross-tenant.read")
    whole = pytester.runpytest("-p", "no:cacheprovider", "--tb=long", "-k", "cross-tenant.read")
    for result in (short, whole):
        result.assert_outcomes(failed=1)
        result.stdout.fnmatch_lines(["*step 0 differs in 1 field:*", "*results?0?*", "*--gateproof-replay*"])
    assert "how the model decides" not in short.stdout.str() and '"world"' not in short.stdout.str()
    assert "how the model decides" in whole.stdout.str() and '"world"' in whole.stdout.str()


@pytest.mark.parametrize("kind, said", [
    ("cycle", "results[0].reads[0]: a cycle"), ("set", "results[0].reads: a set"), ("bytes", "results[0].reads: bytes"),
    ("int-key", "results[0].reads: the key 1 is an int"), ("huge", "results[0].reads: an integer of more than 4300 digits"),
    ("nan", "results[0].reads: nan"),
])
def test_a_value_json_cannot_carry_fails_with_the_plugins_display(pytester, monkeypatch, kind, said):
    monkeypatch.setenv("GATEWAY_VALUE", kind)
    pytester.makeini(ini("gateways.unjsonable_gateway:run", examples=0))
    result = pytester.runpytest("-p", "no:cacheprovider", "-k", "cross-tenant.read")
    result.assert_outcomes(failed=1)
    assert f"a value JSON cannot carry: {said}" in " ".join(result.stdout.str().split())
    assert "Traceback" not in result.stdout.str() and "site-packages" not in result.stdout.str()
