"""z3 proofs of the trust-ceiling invariants, over the rules the model runs (see ``adr/invariants.md``)."""
