#!/bin/sh
# The main job: decide and explain the shipped example scenarios, one story
# per ADR from 164 to 179, and show where two consecutive versions part.
set -e
cd "$(dirname "$0")"
for scenario in forced-snippet-refused undeclared-installation observe-mode fallback-drags-to-external \
    gateway-poisoned-runbook gateway-cross-tenant-probe gateway-next-checks \
    adr-164-queued-run-binds adr-165-resume-regates adr-166-deactivation-keeps-the-class \
    adr-175-tie-names-one-source adr-179-dropped-sources-recorded; do
  echo "=================================================================="
  gateproof explain "$scenario.json"
  echo
  echo "--- outcome (gateproof decide $scenario.json) ---"
  gateproof decide "$scenario.json"
  echo
done
echo "=================================================================="
echo "--- where adr-166 and adr-175 part (gateproof diff --from adr-166 --to adr-175) ---"
gateproof diff --from adr-166 --to adr-175 --out "${TMPDIR:-/tmp}/gateproof-diff"
echo "=================================================================="
echo "--- every built-in implementation, conformant ones and the mutant zoo (gateproof verify --builtin all) ---"
# Exit 0 only when reference, node and cedar conform and every mutant is caught.
gateproof verify --builtin all --disagreements 1 --out "${TMPDIR:-/tmp}/gateproof-verify"
