"""z3 proofs of the invariant catalog (single sends, run stories, gateway calls) over the rules the model runs (see ``adr/invariants.md``)."""
