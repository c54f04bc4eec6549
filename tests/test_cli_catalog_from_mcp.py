"""``gateproof catalog from-mcp``: the lab's MCP gateways and the lab's extras make a catalog that decides the lab's corpus as
``model/catalogs/lab-001.json`` does; what cannot be listed or made is refused in one line, exit status 2."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from gateproof.conformance.corpus.attacks import CORPUS_DIR
from gateproof.conformance.harness.bulk import decided
from gateproof.conformance.harness.documents import dumps, parse_json
from gateproof.conformance.implementations import MCP_NODE_ENTRY, MCP_PYTHON
from gateproof.model.gateway.catalog import read_catalog, shipped_catalog

ROOT = Path(__file__).resolve().parent.parent
EXTRAS = ROOT / "examples" / "mcp-extras" / "lab-001.json"
GATEPROOF = Path(sys.executable).parent / "gateproof"
CASES = [case for path in sorted(CORPUS_DIR.glob("*.json")) for case in parse_json(path.read_bytes(), repeats=None, limit=None)["cases"]]
SERVERS = {
    "mcp-python": ("stdio", *MCP_PYTHON),
    "mcp-python-http": ("http://127.0.0.1:0/mcp", *MCP_PYTHON, "--http"),
    "mcp-node": ("stdio", "node", str(MCP_NODE_ENTRY)),
}


def from_mcp(*options: str, extras: Path = EXTRAS) -> subprocess.CompletedProcess:
    return subprocess.run([str(GATEPROOF), "catalog", "from-mcp", "--extras", str(extras), *options], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)


def served(name: str) -> list[str]:
    if name == "mcp-node" and (shutil.which("node") is None or not MCP_NODE_ENTRY.is_file()):
        pytest.skip("node, or the built mcp_node server, is not here")
    transport, *command = SERVERS[name]
    return ["--mcp", transport, "--", *command]


def described_alike(catalog):
    """The catalog with no description: the servers describe their tools, the shipped catalog does not."""
    return attrs.evolve(catalog, tools=tuple(attrs.evolve(tool, description="") for tool in catalog.tools))


@pytest.mark.parametrize("name", SERVERS)
def test_the_lab_gateways_listing_and_the_lab_extras_make_the_lab_catalog_which_decides_the_corpus_as_recorded(name):
    done = from_mcp(*served(name))
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert described_alike(read_catalog(document)) == shipped_catalog("lab-001")
    differing = [case["id"] for case in CASES if dumps(decided({**case["scenario"], "catalog": document})) != dumps(case["expected"])]
    assert CASES and not differing, differing[:5]


def test_out_writes_the_catalog_to_a_file_and_nothing_to_stdout(tmp_path):
    out = tmp_path / "lab.json"
    done = from_mcp("--out", str(out), *served("mcp-python"))
    assert (done.returncode, done.stdout) == (0, "")
    assert described_alike(read_catalog(json.loads(out.read_text(encoding="utf-8")))) == shipped_catalog("lab-001")


def test_a_server_without_the_test_hooks_is_listed_page_after_page_and_its_open_schemas_noted():
    """``fake_mcp.py no-hooks`` serves no test hooks, lists one tool a page and leaves additionalProperties unsaid."""
    done = from_mcp("--mcp", "stdio", "--", sys.executable, str(ROOT / "tests" / "implementations" / "fake_mcp.py"), "no-hooks")
    assert done.returncode == 0, done.stderr
    assert read_catalog(json.loads(done.stdout)) == shipped_catalog("lab-001")
    assert done.stderr.splitlines() == [f"gateproof: note: tool {name!r}: its inputSchema admits properties it does not list; the catalog "
                                        "refuses any argument it does not declare (G001.3)" for name in ("export_case", "read_case")]


def test_a_tool_the_server_does_not_list_is_refused_in_one_line_naming_it(tmp_path):
    extras = json.loads(EXTRAS.read_text(encoding="utf-8"))
    extras["tools"].append({**copy.deepcopy(extras["tools"][1]), "name": "close_case"})
    path = tmp_path / "extras.json"
    path.write_text(json.dumps(extras), encoding="utf-8")
    done = from_mcp(*served("mcp-python"), extras=path)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "gateproof: error: tool 'close_case': the extras describe it and the server does not list it\n"


@pytest.mark.parametrize(("options", "said"), [
    (("--mcp", "stdio"), "gateproof: error: --mcp stdio needs the command that starts the server after --\n"),
    (("--mcp", "http://example.com/mcp", "--", "true"), "is not a loopback address"),
    (("--mcp", "stdio", "--", "/nonexistent/server"), "gateproof: error: the server could not be listed: FileNotFoundError"),
    (("--mcp", "stdio", "--", sys.executable, "-c", "pass"),
     "gateproof: error: the server closed the connection before it listed its tools (the server exited with status 0)"),
    (("--mcp", "stdio", "--out", "/proc/no/such/catalog.json", "--", "true"), "gateproof: error: --out /proc/no/such/catalog.json: cannot write"),
])
def test_a_server_that_cannot_be_reached_is_refused_in_one_line(options, said):
    done = from_mcp(*options)
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize(("text", "said"), [
    ("{", "$: not valid JSON"),
    ('{"catalog": 1}', "$: "),
    ('{"catalog_extras": 2}', "$.catalog_extras: expected the extras format version 1, got 2"),
])
def test_extras_that_cannot_be_read_are_refused_before_any_server_is_started(text, said, tmp_path):
    path = tmp_path / "extras.json"
    path.write_text(text, encoding="utf-8")
    done = from_mcp("--mcp", "stdio", "--", "/nonexistent/server", extras=path)
    assert done.returncode == 2 and done.stderr.startswith(f"gateproof: error: --extras {path}: {said}"), done.stderr
    assert done.stderr.count("\n") == 1
