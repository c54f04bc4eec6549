"""How the time to prove the whole catalog grows with the bound.

``python -m gateproof.conformance.bench.proofs`` prints, for the latest
rules, the seconds the catalog takes at each bound, its slowest invariant,
and the growth over the previous bound.
"""

from __future__ import annotations

import time

from gateproof.model.versions import DEFAULT_VERSION

from ..proofs.engine import PROVED, prove_catalog, semantics_named

BOUNDS = (4, 8, 12, 16)


def measure(bound: int, rules: str = DEFAULT_VERSION) -> tuple[float, list]:
    """Seconds to prove the catalog at ``bound``, and the results."""
    started = time.perf_counter()
    results = prove_catalog(semantics_named(rules), bound)
    return time.perf_counter() - started, results


def run(print=print, bounds=BOUNDS, rules: str = DEFAULT_VERSION) -> list[tuple[int, float]]:
    """Print one row per bound: total seconds, growth, slowest invariant, and whether all were proved."""
    print(f"gateproof prove --rules {rules}: the whole catalog, one core")
    print(f"{'bound':>5}  {'seconds':>8}  {'growth':>7}  {'slowest invariant':<52}  all proved")
    rows, previous = [], None
    for bound in bounds:
        seconds, results = measure(bound, rules)
        slowest = max(results, key=lambda r: r.seconds)
        growth = "" if previous is None else f"x{seconds / previous:.2f}"
        slowest_text = f"{slowest.invariant.id} {slowest.invariant.name} {slowest.seconds:.3f}s"
        proved = all(r.outcome == PROVED for r in results)
        print(f"{bound:>5}  {seconds:>8.3f}  {growth:>7}  {slowest_text:<52}  {'yes' if proved else 'no'}")
        rows.append((bound, seconds))
        previous = seconds
    return rows


if __name__ == "__main__":
    run()
