"""Benchmark: rank stability (task bootstrap) and the task-removal experiment, here and on Dask.

Two figures of issue "how sure is this ranking", each on 50 x 20 Gumbel leaderboards
(phi = 0.05), over several data seeds (min / median / max), five rules (mean, borda, copeland,
minimax, kemeny):

1. ``rank_stability``: 1,000 task-bootstrap resamples in this process, then on a local Dask
   cluster of 2 worker processes (one thread each); the ratio in-process / Dask. Target: under
   60 s in-process on 2 cores. The Dask figure includes starting the cluster.
2. ``task_removal``: 100 repetitions (3 settings each) in this process; target under 30 s. The
   baseline, built in the same run, is the loop one would write by hand from the primitives:
   the full-data ranking once, then ``consensus.rank`` per rule on each subset (Kemeny with its
   defaults: the uniqueness proof, no warm start, the solver's own threads) and scipy's Kendall
   tau. The ratio baseline / ours.

Usage::

    python benchmarks/resampling.py                  # 3 seeds, 1000 resamples, 100 repetitions
    python benchmarks/resampling.py --seeds 1 --resamples 200 --repetitions 20 --no-dask
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import os
import platform
import statistics
import time

RULES = ("mean", "borda", "copeland", "minimax", "kemeny")


def _spread(times: list[float]) -> str:
    return f"{min(times):8.2f} {statistics.median(times):8.2f} {max(times):8.2f}"


def _by_hand(board, kept: list[int], repetitions: int, seed: int) -> None:
    """The hand-written loop: the same job (full-data ranking once, then each subset ranked and
    compared by scipy's Kendall tau), every rule through consensus.rank with its defaults."""
    import numpy as np
    from scipy.stats import kendalltau

    import consensus as cs

    full = {rule: cs.rank(board, rule) for rule in RULES}
    where = {rule: [res.position(s) for s in board.systems] for rule, res in full.items()}
    for child in np.random.SeedSequence(seed).spawn(repetitions):
        rng = np.random.default_rng(child)
        for k in kept:
            chosen = sorted(rng.choice(board.n_tasks, size=k, replace=False))
            sub = board.select(tasks=[board.tasks[i] for i in chosen])
            for rule in RULES:
                res = cs.rank(sub, rule)
                kendalltau([res.position(s) for s in board.systems], where[rule])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repetitions", type=int, default=100)
    parser.add_argument("--no-dask", action="store_true")
    args = parser.parse_args()
    import consensus as cs
    from consensus.experiments import task_removal
    from consensus.resampling._stability import rank_stability

    print(f"python {platform.python_version()}, pulp {metadata.version('pulp')}, highspy {metadata.version('highspy')}, "
          f"{os.cpu_count()} cores; 50 systems x 20 tasks, phi 0.05, data seeds 0-{args.seeds - 1}; rules {', '.join(RULES)}")
    boards = [cs.datasets.gumbel_leaderboard(50, 20, phi=0.05, seed=s) for s in range(args.seeds)]

    here, dask, limited = [], [], 0
    for board in boards:
        start = time.perf_counter()
        local = rank_stability(board, RULES, resamples=args.resamples, seed=0)
        here.append(time.perf_counter() - start)
        limited += local.time_limited
        if not args.no_dask:
            import distributed
            import numpy as np

            start = time.perf_counter()
            with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                          dashboard_address=None) as cluster, distributed.Client(cluster) as client:
                remote = rank_stability(board, RULES, resamples=args.resamples, seed=0, scheduler=client)
            dask.append(time.perf_counter() - start)
            assert np.array_equal(np.asarray(local.positions), np.asarray(remote.positions), equal_nan=True)
    print(f"\n1. rank_stability, {args.resamples} task-bootstrap resamples x {len(RULES)} rules   min      med      max  (s)")
    print(f"   in this process              {_spread(here)}   target < 60 s; Kemeny at its time limit: {limited}")
    if dask:
        print(f"   2-worker local Dask cluster  {_spread(dask)}   (same positions, checked)")
        ratios = [a / b for a, b in zip(here, dask)]
        print(f"   in-process / Dask            {_spread(ratios)}   (x; > 1: the cluster is faster)")

    ours, hand = [], []
    kept = [5, 10, 15]
    for seed, board in enumerate(boards):
        start = time.perf_counter()
        res = task_removal(board, RULES, kept=kept, repetitions=args.repetitions, seed=seed)
        ours.append(time.perf_counter() - start)
        assert len(res.table) == args.repetitions * len(kept) * len(RULES)
        start = time.perf_counter()
        _by_hand(board, kept, args.repetitions, seed)
        hand.append(time.perf_counter() - start)
    print(f"\n2. task_removal, {args.repetitions} repetitions x 3 settings x {len(RULES)} rules     min      med      max  (s)")
    print(f"   consensus.experiments        {_spread(ours)}   target < 30 s")
    print(f"   by hand with consensus.rank  {_spread(hand)}")
    print(f"   by hand / ours               {_spread([h / o for h, o in zip(hand, ours)])}   (x)")


if __name__ == "__main__":
    main()
