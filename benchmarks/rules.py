"""Time every voting rule on a 1,000-system x 100-task Gumbel leaderboard.

Run: ``.venv/bin/python benchmarks/rules.py [--systems 1000] [--tasks 100] [--repeat 3]``

Prints one row per rule: the best of `repeat` wall-clock times, and its ratio to two
baselines built in the same run: ``pairwise()`` (the weighted pairwise matrix every
majority rule starts from) and the plain weighted mean of the scores (numpy).
``kemeny`` is left out: it is exact and NP-hard (see benchmarks of issue 4).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

import consensus as cs
from consensus import rules

OPTIONS = {"scoring": {"vector": (5, 3, 2, 1)}}  # optimality_gap: gamma = per-task best (default)


def best_time(call: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=1000)
    parser.add_argument("--tasks", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    lb = cs.datasets.gumbel_leaderboard(args.systems, args.tasks, phi=0.05, seed=0)
    build = time.perf_counter() - start
    positive = cs.Leaderboard.from_frame(lb.scores - float(np.nanmin(lb.values)) + 1.0)  # for geometric_mean

    t_pairwise = best_time(lambda: cs.pairwise(lb), args.repeat)
    w = lb.weights.to_numpy()
    t_numpy_mean = best_time(lambda: lb.values @ w / w.sum(), args.repeat)

    print(f"{args.systems} systems x {args.tasks} tasks (Gumbel, phi=0.05, seed=0); built in {build:.3f} s")
    print(f"baselines: pairwise() {t_pairwise:.3f} s, numpy weighted mean {t_numpy_mean * 1e3:.3f} ms")
    print()
    header = f"{'rule':<16} {'seconds':>9} {'x pairwise':>11}  winner"
    print(header)
    print("-" * len(header))
    for name in rules.RULE_NAMES:
        if name == "kemeny":
            continue
        data = positive if name == "geometric_mean" else lb
        options = OPTIONS.get(name, {})
        result = cs.rank(data, name, **options)
        seconds = best_time(lambda: cs.rank(data, name, **options), args.repeat)
        shown = list(result.winners[:3]) + ([f"... ({len(result.winners)} tied)"] if len(result.winners) > 3 else [])
        winners = ", ".join(shown) if shown else "(none)"
        print(f"{name:<16} {seconds:>9.3f} {seconds / t_pairwise:>11.2f}  {winners}")
    print()
    print(f"ground truth winner: s{args.systems}")


if __name__ == "__main__":
    main()
