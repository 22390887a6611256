"""Benchmark: exact Kemeny on the hardest leaderboards, several seeds per cell, with the spread.

The cells are the targets of the hard-instance work (Gumbel leaderboards, Colombo et al.
2022 sec. 4.1; 120 s per solve on this machine):

- pure noise (phi = 0), T = 20: N = 100, 120 and 150;
- weak structure, T = 20, N = 300: phi = 0.01 and 0.02;
- pure noise at N = 100 with T = 21 (odd: no majority ties) and T = 50;
- the structured case as a regression check: phi = 0.05, N = 1,000.

Each cell runs seeds 0, 1, 2 (``--seeds 3``; ``--seeds 100-104`` for a range, the seeds of the
branch-and-cut issue) and prints min / median / max seconds, how many seeds were certified
optimal, and the worst gap; ``--per-seed`` also prints each seed's line. ``--log FILE`` keeps
each (cell, seed) result as a JSON line and reuses the ones already there, so a grid that
outlasts a session can be resumed (the naive baseline is not logged). Every result is checked by independent
arithmetic: the returned ranking's objective is recomputed from the pairwise matrix
(:func:`consensus.kemeny_objective`) and must equal the reported objective, and a certified
one must have its proven bound equal to that objective. The naive full ILP
(:func:`solvers.ordering_naive.solve_naive_ilp`: every 3-cycle row up front, one HiGHS
solve) is the baseline: it runs on the first seed of the cells with N <= ``--naive-max`` (default
100) under the same time limit, and the ratio naive / ours is printed where the naive model
finishes (``>x`` when only ours finishes).

Usage::

    python benchmarks/kemeny_hard.py                 # every cell, 3 seeds (about 30-60 minutes)
    python benchmarks/kemeny_hard.py --cell 0:100:20 --cell 0.05:1000:20
    python benchmarks/kemeny_hard.py --quick         # phi = 0 N = 60/80 and phi = 0.05 N = 1000
    python benchmarks/kemeny_hard.py --cell 0:100:20 --seeds 100-104 --per-seed --log hard.jsonl
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import json
import os
import platform
import statistics
import time

CELLS = [("0", "100", "20"), ("0", "120", "20"), ("0", "150", "20"), ("0.01", "300", "20"), ("0.02", "300", "20"),
         ("0", "100", "21"), ("0", "100", "50"), ("0.05", "1000", "20")]
QUICK = [("0", "60", "20"), ("0", "80", "20"), ("0.05", "1000", "20")]


def _ours(lb, limit: float) -> tuple[float, object]:
    import consensus as cs

    start = time.perf_counter()
    res = cs.kemeny(lb, unique=False, time_limit=limit)
    seconds = time.perf_counter() - start
    p = cs.pairwise(lb)
    recomputed = cs.kemeny_objective(p, res.order)  # independent of the solver
    if abs(recomputed - res.objective) > 1e-7 * max(1.0, recomputed):
        raise SystemExit(f"!! objective mismatch: reported {res.objective}, recomputed {recomputed}")
    if res.optimal and res.lower_bound != res.objective:
        raise SystemExit(f"!! certified but bound {res.lower_bound} != objective {res.objective}")
    return seconds, res


def _naive(lb, limit: float) -> tuple[float, object]:
    import consensus as cs
    from solvers.ordering_naive import solve_naive_ilp

    costs = cs.pairwise(lb).preferences
    start = time.perf_counter()
    out = solve_naive_ilp(costs, time_limit=limit)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="3", help="a count (seeds 0..k-1) or a range FIRST-LAST")
    parser.add_argument("--per-seed", action="store_true", help="print each seed's status, objective, bound, seconds")
    parser.add_argument("--log", help="JSON lines of (cell, seed) results: appended, and reused when rerun")
    parser.add_argument("--cell", action="append", help="phi:N:T, e.g. 0:100:20 (repeatable)")
    parser.add_argument("--quick", action="store_true", help="small cells only (a few minutes)")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per solve (ours and naive)")
    parser.add_argument("--naive-max", type=int, default=100, help="largest N given to the naive ILP (seed 0)")
    args = parser.parse_args()
    import consensus as cs
    from solvers.model import highs_version

    cells = [tuple(c.split(":")) for c in args.cell] if args.cell else (QUICK if args.quick else CELLS)
    low, _, high = args.seeds.partition("-")
    seeds = list(range(int(low), int(high) + 1)) if high else list(range(int(low)))
    done: dict[tuple[str, str, str, int], dict] = {}
    if args.log and os.path.exists(args.log):
        with open(args.log) as handle:
            for line in handle:
                row = json.loads(line)
                if row["limit"] == args.limit:
                    done[row["phi"], row["n"], row["tasks"], row["seed"]] = row
    print(f"python {platform.python_version()}, pulp {metadata.version('pulp')}, HiGHS {highs_version()}; "
          f"seeds {seeds[0]}-{seeds[-1]}, limit {args.limit:g} s per solve", flush=True)
    print(f"{'cell':<22}{'min s':>8}{'median s':>10}{'max s':>8}{'certified':>11}{'worst gap':>17}{'naive s0':>10}"
          f"{'ratio s0':>10}")
    for phi, n, tasks in cells:
        times, certified, gaps, first = [], 0, [], None
        for seed in seeds:
            key = (phi, n, tasks, seed)
            if key not in done:
                lb = cs.datasets.gumbel_leaderboard(int(n), int(tasks), phi=float(phi), seed=seed)
                seconds, res = _ours(lb, args.limit)
                done[key] = {"phi": phi, "n": n, "tasks": tasks, "seed": seed, "limit": args.limit,
                             "seconds": seconds, "status": res.status.value, "objective": res.objective,
                             "bound": res.lower_bound, "gap": res.gap, "relative_gap": res.relative_gap}
                if args.log:
                    with open(args.log, "a") as handle:
                        handle.write(json.dumps(done[key]) + "\n")
                if seed == seeds[0]:
                    first = (lb, seconds, res)
            row = done[key]
            times.append(row["seconds"])
            certified += row["status"] == "optimal"
            gaps.append((row["gap"], row["relative_gap"]))
            if args.per_seed:
                print(f"  seed {seed}: {row['status']}, objective {row['objective']:g}, bound {row['bound']:g}, "
                      f"{row['seconds']:.1f} s", flush=True)
        naive_text, ratio_text = "-", "-"
        if first is not None and int(n) <= args.naive_max:
            lb, seconds, res = first
            naive_seconds, naive = _naive(lb, args.limit)
            if naive.optimal:
                if res.optimal and abs(naive.objective - res.objective) > 1e-6:
                    raise SystemExit(f"!! naive optimum {naive.objective} != ours {res.objective}")
                naive_text = f"{naive_seconds:.1f}"
                ratio_text = f"{naive_seconds / seconds:.1f}x" if res.optimal else "-"
            else:
                naive_text = f">{args.limit:g}"
                ratio_text = f">{args.limit / seconds:.1f}x" if res.optimal else "-"
        gap, rel = max(gaps)
        name = f"phi={phi} N={n} T={tasks}"
        print(f"{name:<22}{min(times):>8.1f}{statistics.median(times):>10.1f}{max(times):>8.1f}"
              f"{f'{certified}/{len(times)}':>11}{(f'{gap:g} ({100 * rel:.3f}%)' if gap else '0'):>17}"
              f"{naive_text:>10}{ratio_text:>10}", flush=True)
    print("\nseconds: time to a certified optimum, or to the limit; worst gap: largest objective - bound;\n"
          "naive s0 / ratio s0: the naive full ILP on seed 0 and its time over ours (where it finishes).")


if __name__ == "__main__":
    main()
