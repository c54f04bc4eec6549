"""The conformance side of gateproof: command line, generators, harness, reports."""
