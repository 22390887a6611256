"""Benchmark: the spread of exact Kemeny solve times over seeds (min / median / max per cell).

One seed per size hides the spread on pure-noise leaderboards (seconds to minutes for the same
N), so each cell runs several seeds of the Gumbel generator (T = 20 tasks) and prints
min / median / max seconds to a certified optimum (``unique=False``), with the versions of
Python, PuLP and HiGHS, so runs under PuLP 3 and PuLP 4 can be put side by side.

Usage::

    python benchmarks/kemeny_spread.py             # phi=0.05 N=150, phi=0 N=60 and N=80, seeds 0-2
    python benchmarks/kemeny_spread.py --seeds 5 --cell 0:100
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import platform
import statistics
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--cell", action="append", help="phi:N, e.g. 0:80 (repeatable)")
    parser.add_argument("--limit", type=float, default=120.0)
    args = parser.parse_args()
    import consensus as cs
    from solvers.model import highs_version

    cells = [tuple(c.split(":")) for c in args.cell] if args.cell else [("0.05", "150"), ("0", "60"), ("0", "80")]
    print(f"python {platform.python_version()}, pulp {metadata.version('pulp')}, HiGHS {highs_version()}; "
          f"seeds 0-{args.seeds - 1}, T = 20, limit {args.limit:g} s")
    print(f"{'cell':<18}{'min s':>9}{'median s':>10}{'max s':>9}  statuses")
    for phi, n in cells:
        times, statuses = [], []
        for seed in range(args.seeds):
            lb = cs.datasets.gumbel_leaderboard(int(n), 20, phi=float(phi), seed=seed)
            start = time.perf_counter()
            res = cs.kemeny(lb, unique=False, time_limit=args.limit)
            times.append(time.perf_counter() - start)
            statuses.append(res.status.value)
        name = f"phi={phi} N={n}"
        print(f"{name:<18}{min(times):>9.3f}{statistics.median(times):>10.3f}{max(times):>9.3f}  {','.join(statuses)}", flush=True)


if __name__ == "__main__":
    main()
