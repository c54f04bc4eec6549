"""Deliberately wrong rule versions, each changing one rule the way a plausible bug would.

They live here, beside the other implementations the suite must catch, not
in the model, which states the right rules only. A variant is concrete: it
decides a scenario document (:mod:`.decide`), and so serves ``decide
--rules wrong:…``, ``explain --rules``, the mutant zoo and the harness's
bulk decisions without loading the prover. The proofs import each variant
and add its encoding (``gateproof.conformance.proofs.wrong``); nothing
here imports the proofs.
"""
