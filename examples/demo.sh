#!/bin/sh
# The main job for now: decide and explain the shipped example scenarios.
set -e
cd "$(dirname "$0")"
for scenario in forced-snippet-refused undeclared-installation observe-mode fallback-drags-to-external \
    gateway-poisoned-runbook gateway-cross-tenant-probe gateway-next-checks; do
  echo "=================================================================="
  gateproof explain "$scenario.json"
  echo
  echo "--- outcome (gateproof decide $scenario.json) ---"
  gateproof decide "$scenario.json"
  echo
done
