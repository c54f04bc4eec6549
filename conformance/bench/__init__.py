"""``make bench``: the project's figures, measured side by side in one run (``python -m gateproof.conformance.bench``)."""
