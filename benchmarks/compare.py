"""Benchmark: the comparison measures of ``consensus.compare`` against naive baselines.

Synthetic leaderboards from the Gumbel model (``consensus.datasets.gumbel_leaderboard``, phi=0.05,
seed=0, so task rankings are noisy and full of inversions). Each row times, in the same run:

- ``task_dispersion`` (mean Kendall distance between two task rankings, Colombo et al.
  appendix C.2) computed from the pairwise matrix in O(n^2), against the naive double loop
  over task pairs with a pair-counting Kendall distance (O(T^2 n^2));
- ``task_distance`` (Kendall distance from a ranking to every task ranking, appendix C.1)
  from the pairwise matrix, against the per-task loop of ``task_distances``;
- ``kendall_tau`` (tau-b, vectorized over pairs) against ``scipy.stats.kendalltau``.

Both sides of each row must agree (checked). Then ``compare_rules`` end to end (nine rules
and the exact Kemeny ranking) on boards of growing size.

Run: ``.venv/bin/python benchmarks/compare.py`` (``--quick`` for the small sizes only). Wall
times are the best of 3 runs.
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np
import scipy.stats

import consensus as cs
from consensus.comparison._distances import kendall_tau, kendall_tau_distance
from consensus.comparison._task_distances import task_distance, task_distances, task_rankings


def _best(fn, repeats: int = 3):
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def _naive_dispersion(lb: cs.Leaderboard) -> float:
    rankings = task_rankings(lb)
    p = lb.normalized_weights
    total = 0.0
    for t, u in itertools.product(lb.tasks, repeat=2):
        if t != u:
            total += p[t] * p[u] * kendall_tau_distance(rankings[t], rankings[u])
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small boards only")
    args = parser.parse_args()
    sizes = [(20, 20), (50, 50)] if args.quick else [(20, 20), (50, 50), (100, 100)]

    print("measure          systems x tasks   ours (s)   baseline (s)   speed-up")
    for n, m in sizes:
        lb = cs.datasets.gumbel_leaderboard(n, m, phi=0.05, seed=0)
        ranking = cs.rank(lb, "borda")
        t_fast, fast = _best(lambda: cs.comparison.task_dispersion(lb))
        t_slow, slow = _best(lambda: _naive_dispersion(lb), 1)
        assert abs(fast - slow) <= 1e-9 * max(1.0, slow), (fast, slow)
        print(f"task_dispersion  {n:>7} x {m:<5}  {t_fast:>10.4f}  {t_slow:>13.4f}  {t_slow / t_fast:>8.0f}x")
        t_fast, fast = _best(lambda: task_distance(lb, ranking))
        t_slow, slow = _best(lambda: float((task_distances(lb, ranking) * lb.weights).sum()), 1)
        assert abs(fast - slow) <= 1e-9 * max(1.0, slow), (fast, slow)
        print(f"task_distance    {n:>7} x {m:<5}  {t_fast:>10.4f}  {t_slow:>13.4f}  {t_slow / t_fast:>8.0f}x")

    rng = np.random.default_rng(0)
    print()
    print("kendall_tau (tau-b, ties)   systems   ours (s)   scipy (s)   ratio")
    for n in (100, 1000) if args.quick else (100, 1000, 3000):
        labels = [f"s{i}" for i in range(n)]
        a_levels, b_levels = rng.integers(0, n // 4, n), rng.integers(0, n // 4, n)
        a = [tuple(s for s, v in zip(labels, a_levels) if v == k) for k in sorted(set(a_levels))]
        b = [tuple(s for s, v in zip(labels, b_levels) if v == k) for k in sorted(set(b_levels))]
        t_ours, ours = _best(lambda: kendall_tau(a, b))
        t_scipy, ref = _best(lambda: scipy.stats.kendalltau(a_levels, b_levels).statistic)
        assert abs(ours - ref) < 1e-9, (ours, ref)
        print(f"{'':28}{n:>7}  {t_ours:>9.4f}  {t_scipy:>10.4f}  {t_ours / t_scipy:>6.1f}")

    print()
    print("compare_rules (9 rules + exact Kemeny)   systems x tasks   seconds   of which Kemeny")
    for n, m in [(10, 10), (20, 20)] if args.quick else [(10, 10), (20, 20), (40, 20)]:
        lb = cs.datasets.gumbel_leaderboard(n, m, phi=0.05, seed=0)
        t, comp = _best(lambda: cs.compare_rules(lb), 1)
        print(f"{'':41}{n:>7} x {m:<5}  {t:>8.3f}  {comp.table.loc['kemeny', 'seconds']:>15.3f}")


if __name__ == "__main__":
    main()
