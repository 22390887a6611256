"""Benchmark: does ``consensus.kemeny(lb, time_limit=L)`` return within its limit at 500-2,000 systems?

The limit covers the whole call (pairwise matrix, decomposition, heuristic, LP rounds, MIP,
checks); the requirement is an overshoot of at most ``max(1 s, 10% of L)``. Instances are
pure-noise Gumbel leaderboards (``phi = 0``, Colombo et al. 2022, sec. 4.1), which no
solver proves optimal at these sizes, so every run must stop on the clock with status
``time_limit``, its best ranking and a proven lower bound. For each cell (systems x tasks x
limit) the script runs several seeds in this process, one after the other, and prints the
wall time of the ``kemeny`` call (min / median / max), wall / limit, whether the worst run
is within ``limit + max(1, 0.1 * limit)``, and the statuses. The leaderboard is built
outside the timing; ``pairwise s`` is the median time of ``consensus.pairwise`` alone, the
one part of the call that cannot stop early (its cost grows with systems^2 x tasks).

Usage::

    python benchmarks/time_limit.py --quick   # 500 / 1,000 systems, limit 1 s (about a minute)
    python benchmarks/time_limit.py           # 500 / 1,000 / 2,000 x 20 tasks and 1,000 x 1,000, limits 1 and 5 s
    python benchmarks/time_limit.py --full    # also limit 30 s and 2,000 systems x 2,500 tasks
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from collections import Counter
from typing import Any


def _cells(quick: bool, full: bool) -> list[tuple[int, int, float]]:
    """(systems, tasks, limit) of each cell."""
    if quick:
        return [(n, 20, 1.0) for n in (500, 1000)] + [(500, 500, 1.0)]
    limits = (1.0, 5.0, 30.0) if full else (1.0, 5.0)
    cells = [(n, 20, limit) for n in (500, 1000, 2000) for limit in limits]
    cells += [(1000, 1000, limit) for limit in limits]
    if full:
        cells += [(2000, 2500, limit) for limit in (5.0, 30.0)]
    return cells


def _run_cell(n: int, tasks: int, limit: float, seeds: int, phi: float) -> dict[str, Any]:
    import consensus as cs

    walls: list[float] = []
    pairwise: list[float] = []
    statuses: Counter[str] = Counter()
    gaps: list[float] = []
    for seed in range(seeds):
        lb = cs.datasets.gumbel_leaderboard(n, tasks, phi=phi, seed=seed)
        start = time.perf_counter()
        cs.pairwise(lb)
        pairwise.append(time.perf_counter() - start)
        start = time.perf_counter()
        res = cs.kemeny(lb, time_limit=limit)
        walls.append(time.perf_counter() - start)
        statuses[res.status.value] += 1
        assert sorted(res.order) == sorted(lb.systems) and res.lower_bound <= res.objective
        gaps.append(res.gap / res.objective if res.objective else 0.0)
    return {
        "walls": walls,
        "pairwise": statistics.median(pairwise),
        "statuses": statuses,
        "gap": statistics.median(gaps),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a smaller grid (about a minute)")
    parser.add_argument("--full", action="store_true", help="also limit 30 s and 2,000 x 2,500")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--phi", type=float, default=0.0, help="Gumbel dispersion (0: pure noise)")
    args = parser.parse_args()

    import consensus as cs
    from solvers.model import highs_version

    cs.kemeny(cs.datasets.gumbel_leaderboard(12, 5, phi=0.0, seed=0), method="ilp")  # imports, HiGHS banner
    print(f"# Python {platform.python_version()}, HiGHS {highs_version()}, phi={args.phi:g}, {args.seeds} seeds per cell")
    header = (
        f"{'systems':>7} {'tasks':>5} {'limit':>5} | {'wall min':>8} {'median':>7} {'max':>7} | "
        f"{'max/limit':>9} {'allowed':>7} {'ok':>3} | {'pairwise s':>10} {'rel gap':>8} | status"
    )
    print(header)
    print("-" * len(header))
    for n, tasks, limit in _cells(args.quick, args.full):
        cell = _run_cell(n, tasks, limit, args.seeds, args.phi)
        walls = cell["walls"]
        allowed = limit + max(1.0, 0.1 * limit)
        worst = max(walls)
        statuses = ", ".join(f"{k} x{v}" for k, v in sorted(cell["statuses"].items()))
        print(
            f"{n:>7} {tasks:>5} {limit:>5g} | {min(walls):>8.2f} {statistics.median(walls):>7.2f} {worst:>7.2f} | "
            f"{worst / limit:>9.2f} {allowed:>7.1f} {'yes' if worst <= allowed else 'NO':>3} | "
            f"{cell['pairwise']:>10.2f} {cell['gap']:>8.2%} | {statuses}",
            flush=True,
        )


if __name__ == "__main__":
    main()
