#!/bin/sh
# A short guided tour of gateproof, as a gateway team meets it, in five stops:
# the tool-call gateway's rules on one refused call; a team's gateway found
# wrong, a call let through that must be refused, shrunk to a small case;
# that case explained, and the fixed gateway held to it; alongside, the trust
# ceiling on injected context, every built-in of both families held to the
# model; and an MCP gateway verified as it is deployed, over MCP. What is long
# goes to files under one folder, named as they are written. Each command it
# shows runs as shown from the folder above examples/, where make demo runs.
set -e
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/gateproof-demo"
examples="${GATEPROOF_DEMO_EXAMPLES:-10000}"  # generated scenarios per implementation at stop 4
rm -rf "$out"
mkdir -p "$out"
stop() {
  printf '\n=== %s\n' "$1"
}
shown() {
  printf '$ %s\n\n' "$1"
}

stop "1/5  The tool-call gateway: a probe of another tenant's case, refused rule by rule (Lab ADR-001)"
shown "gateproof explain examples/gateway-cross-tenant-probe.json | head -32"
gateproof explain examples/gateway-cross-tenant-probe.json | head -32
gateproof explain examples/gateway-cross-tenant-probe.json > "$out/gateway-cross-tenant-probe.explained.txt"
echo "... every step: $out/gateway-cross-tenant-probe.explained.txt"

stop "2/5  A team's gateway, wrong: it lets through an export that must be refused; found, shrunk and shown"
shown "gateproof verify --kinds gateway --no-corpus --examples 2000 -x --out $out/wrong -- python -m gateproof.conformance.implementations.mutant unsafe-gateway"
status=0
gateproof verify --kinds gateway --no-corpus --examples 2000 -x --out "$out/wrong" -- python -m gateproof.conformance.implementations.mutant unsafe-gateway || status=$?
[ "$status" -eq 1 ]  # verify says NOT CONFORMANT, and the disagreement is a security one, as it must

saved=$(ls "$out"/wrong/*/generated.lab-001.disagreement-*.json)
stop "3/5  Explained, then fixed: the model's reasons on that case, and the fixed gateway (here the reference) held to it"
shown "gateproof explain $saved | sed -n '/checks in/,/decision:/p'"
gateproof explain "$saved" | sed -n '/checks in/,/decision:/p'
shown "gateproof verify --replay $saved --out $out/fixed --quiet --builtin reference"
gateproof verify --replay "$saved" --out "$out/fixed" --quiet --builtin reference

stop "4/5  Alongside, the trust ceiling on injected context (nr-llm): every built-in of both families held to the model"
shown "gateproof verify --builtin all --examples $examples --disagreements 1 --report html --report markdown --out $out/verify --quiet"
gateproof verify --builtin all --examples "$examples" --disagreements 1 --report html --report markdown --out "$out/verify" --quiet
echo
echo "Reports: $out/verify/report.html and report.md; every verdict: $out/verify/results.jsonl"

stop "5/5  An MCP gateway as deployed: the Python reference gateway over stdio, its records in SQLite, each call under a signed token"
shown "gateproof verify --builtin mcp-python --kinds gateway --examples 500 --out $out/mcp --quiet"
gateproof verify --builtin mcp-python --kinds gateway --examples 500 --out "$out/mcp" --quiet
echo "How an MCP server of your own is checked: conformance/MCP.md"
echo "More stories, one per ADR: for f in examples/*.json; do gateproof explain \$f; done"
