#!/bin/sh
# A short guided tour of gateproof, in five stops: a refusal explained rule by
# rule, where two rule versions part, a wrong implementation caught and shown
# field by field, every built-in implementation held to the model, and an MCP
# gateway verified as it is deployed, over MCP. What is
# long goes to files under one folder, named as they are written. Each command
# it shows runs as shown from the folder above examples/, where make demo runs.
set -e
cd "$(dirname "$0")/.."
out="${TMPDIR:-/tmp}/gateproof-demo"
examples="${GATEPROOF_DEMO_EXAMPLES:-10000}"  # generated scenarios per implementation at stop 4
rm -rf "$out"
mkdir -p "$out"
stop() {
  printf '\n=== %s\n$ %s\n\n' "$1" "$2"
}

stop "1/5  A refusal, rule by rule: a forced snippet meets an external provider" \
  "gateproof explain examples/forced-snippet-refused.json"
gateproof explain examples/forced-snippet-refused.json
gateproof decide examples/forced-snippet-refused.json > "$out/forced-snippet-refused.outcome.json"
echo
echo "The outcome document an implementation must answer: $out/forced-snippet-refused.outcome.json"

stop "2/5  Where ADR-166 and ADR-175 part: proved with z3, then searched" \
  "gateproof diff --from adr-166 --to adr-175 --limit 1 --quiet --out $out/diff"
gateproof diff --from adr-166 --to adr-175 --limit 1 --quiet --out "$out/diff"

stop "3/5  A wrong implementation (a tie names the first source), found, shrunk and shown" \
  "gateproof verify --no-corpus --examples 2000 --seed 17 -x --out $out/wrong -- python -m gateproof.conformance.implementations.mutant first-wins-ties"
# Seed 17 finds a one-step counterexample first, which keeps the stop short; other seeds find the same fault in longer stories.
status=0
gateproof verify --no-corpus --examples 2000 --seed 17 -x --out "$out/wrong" -- python -m gateproof.conformance.implementations.mutant first-wins-ties || status=$?
[ "$status" -eq 1 ]  # verify says NOT CONFORMANT, as it must

stop "4/5  Every built-in: reference, node and cedar must conform, each mutant must be caught" \
  "gateproof verify --builtin all --examples $examples --disagreements 1 --report html --report markdown --out $out/verify --quiet"
gateproof verify --builtin all --examples "$examples" --disagreements 1 --report html --report markdown --out "$out/verify" --quiet
echo
echo "Reports: $out/verify/report.html and report.md; every verdict: $out/verify/results.jsonl"

stop "5/5  An MCP gateway as deployed: the Python reference gateway over stdio, its records in SQLite, each call under a signed token" \
  "gateproof verify --builtin mcp-python --kinds gateway --examples 500 --out $out/mcp --quiet"
gateproof verify --builtin mcp-python --kinds gateway --examples 500 --out "$out/mcp" --quiet
echo "How an MCP server of your own is checked: conformance/MCP.md"
echo "More stories, one per ADR: for f in examples/*.json; do gateproof explain \$f; done"
