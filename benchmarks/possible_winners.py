"""Time who can still win (``cs.missing.possible_winners``) on boards with holes.

Boards: latent quality plus task noise (sd 1 each, two decimals), a share of cells missing at
random (``--missing``, default 30%), every task weighted 1; seeds 0-2 (``--seeds``), min / median /
max over the seeds. Per rule (mean, condorcet, borda, copeland, minimax, kemeny; plurality and dowdall on request) and size (``--sizes``, default
100x20 and 350x8): the wall time of the whole call, the possible and necessary winners counted, and
for Borda, Copeland, Minimax, plurality and Dowdall what decided each system (pairwise bound, set bound, greedy completion, Borda's weighted bound and combined completion,
Copeland's rival bound and local search, integer program, or the
solver's status when a system's programs reach ``--time-limit`` seconds undecided) and the
integer programs solved.

Baseline in the same run (Borda, Copeland, Minimax): the naive method, one integer program per system with every
rival modelled and no shortcut, on ``--sample`` systems of the first seed, each under the same time
limit; its statuses and its total extrapolated to every system, and the ratio to the package's
time.

Pivotal cells (Borda, Copeland, Minimax): the same call with ``pivotal=True`` on every seed, the
cells found and those left undecided, under a total ``--pivotal-budget`` (default 60 s: their
searches can take far longer than the possible winners).

Rank ranges (``--ranges``): ``rank_ranges`` of every system on every seed, its time and the
systems whose both ends are exact. ``--no-pivotal`` skips the pivotal cells.

Run: ``python benchmarks/possible_winners.py [--seeds 3] [--sizes 20x10,100x20,350x8] [--time-limit 2] [--ranges]``.
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
import warnings

import numpy as np
import pandas as pd

import consensus as cs
from consensus.missing import possible_winners

SEARCHED = ("borda", "copeland", "minimax", "plurality", "dowdall")  # the rules decided by integer programs


def board(n: int, t: int, missing: float, seed: int) -> cs.Leaderboard:
    """Latent quality plus task noise, `missing` of the cells empty (every system and task keeps one score)."""
    rng = np.random.default_rng(seed)
    values = np.round(rng.normal(size=n)[:, None] + rng.normal(size=(n, t)), 2)
    holes = rng.random((n, t)) < missing
    holes[np.arange(n), rng.integers(0, t, size=n)] = False
    values[holes] = np.nan
    frame = pd.DataFrame(values, index=[f"s{i:03d}" for i in range(n)], columns=[f"t{k:02d}" for k in range(t)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.Leaderboard.from_frame(frame, infer=False)


def naive(lb: cs.Leaderboard, rule: str, sample: int, time_limit: float) -> tuple[float, collections.Counter]:
    """Seconds per system of one full integer program (every rival modelled), over `sample` systems."""
    from solvers.completion_borda import best_borda_completion
    from solvers.completion_majority import (
        best_copeland_completion,
        best_minimax_completion,
    )

    values = np.array(lb.values, dtype=float)
    weights = np.asarray(lb.weight_array, dtype=float)
    statuses: collections.Counter = collections.Counter()
    spent = 0.0
    for target in np.linspace(0, lb.n_systems - 1, sample).round().astype(int):
        everyone = np.ones(lb.n_systems, dtype=bool)
        begin = time.perf_counter()
        if rule == "borda":
            out = best_borda_completion(values, weights, int(target), everyone, time_limit=time_limit)
        elif rule == "copeland":
            out = best_copeland_completion(values, weights, int(target), everyone, 1.0, time_limit=time_limit)
        elif rule == "minimax":
            out = best_minimax_completion(values, weights, int(target), everyone, 1.0, time_limit=time_limit)
        else:  # plurality, dowdall: the positional program
            from consensus.missing._possible_positional import PositionalBoard

            out = PositionalBoard.of(values, weights, rule).solve(int(target), everyone, time_limit)
        spent += time.perf_counter() - begin
        statuses[out.status.value] += 1
    return spent / sample, statuses


def pivotal_cells(n: int, t: int, rule: str, args: argparse.Namespace) -> None:
    """The whole call with the pivotal cells (every seed) under a total ``--pivotal-budget``; the
    cells found, those left undecided, the programs."""
    budget = args.pivotal_budget
    times, found = [], []
    for seed in args.seed_list:
        lb = board(n, t, args.missing, seed)
        begin = time.perf_counter()
        res = possible_winners(lb, rule, time_limit=args.time_limit, budget=budget)
        times.append(time.perf_counter() - begin)
        found.append((len(res.pivotal or {}), len(res.pivotal_undecided or {}), res.programs))
    cap = f"budget {budget:g} s"
    print(f"{'':16}with the cells that can change who can win ({cap}): {min(times):.2f} / "
          f"{statistics.median(times):.2f} / {max(times):.2f} s; (pivotal cells, undecided cells, programs) "
          f"per seed {found}")
    if args.no_naive:
        return
    per_pair, pairs = naive_pivotal(board(n, t, args.missing, 0), rule, args.sample, args.time_limit)
    print(f"{'':16}naive pivotal cells (a search for every position class of every cell, per possible winner; "
          f"{args.sample} pairs sampled, seed 0): {per_pair:.2f} s a (winner, cell) pair, {pairs} pairs: "
          f"{per_pair * pairs:.0f} s extrapolated, {per_pair * pairs / times[0]:.1f}x the package's seed 0")


def naive_pivotal(lb: cs.Leaderboard, rule: str, sample: int, time_limit: float) -> tuple[float, int]:
    """Seconds per (possible winner, missing cell) pair when every position class is searched."""
    from consensus.missing._pivotal_search import classes
    from consensus.missing._possible_borda import (
        board_arrays,
        borda_search,
        pair_bounds,
    )
    from consensus.missing._possible_majority import MajorityBoard, majority_search
    from consensus.missing._possible_positional import PositionalBoard, positional_search

    values, weights = board_arrays(lb)
    winners = [lb.systems.index(s) for s in possible_winners(lb, rule, time_limit=time_limit, pivotal=False)
               .possible_winners]
    holes = np.argwhere(np.isnan(values)).tolist()
    pairs = [(w, x, k) for w in winners for x, k in holes]
    rng = np.random.default_rng(0)
    spent = 0.0
    for j in rng.choice(len(pairs), size=min(sample, len(pairs)), replace=False):
        w, x, k = pairs[j]
        begin = time.perf_counter()
        for v in classes(values[:, k]):
            fixed = values.copy()
            fixed[x, k] = v
            if rule == "borda":
                borda_search(fixed, weights, pair_bounds(fixed, weights), w, time_limit)
            elif rule in ("plurality", "dowdall"):
                positional_search(PositionalBoard.of(fixed, weights, rule), w, time_limit)
            else:
                majority_search(MajorityBoard.of(fixed, weights, rule), w, time_limit)
        spent += time.perf_counter() - begin
    return spent / max(min(sample, len(pairs)), 1), len(pairs)


def ranges(n: int, t: int, rule: str, args: argparse.Namespace) -> None:
    """Rank ranges of every system (``rank_ranges``) on every seed: seconds, systems exact, programs."""
    times, exact = [], []
    for seed in args.seed_list:
        lb = board(n, t, args.missing, seed)
        begin = time.perf_counter()
        res = cs.missing.rank_ranges(lb, rule, time_limit=args.time_limit)
        times.append(time.perf_counter() - begin)
        exact.append(sum(res.exact))
        print(f"{'':16}rank ranges, seed {seed}: {times[-1]:.2f} s, {exact[-1]} of {n} systems exact", flush=True)
    print(f"{'':16}rank ranges (both ends, {args.time_limit:g} s per system and end): {min(times):.2f} / "
          f"{statistics.median(times):.2f} / {max(times):.2f} s; systems exact per seed {exact} of {n}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="3", help="a count (seeds 0..k-1) or a range FIRST-LAST")
    parser.add_argument("--sizes", default="100x20,350x8")
    parser.add_argument("--missing", type=float, default=0.3)
    parser.add_argument("--rules", default="mean,condorcet,borda,copeland,minimax,kemeny")
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--sample", type=int, default=3)
    parser.add_argument("--pivotal-budget", type=float, default=60.0,
                        help="seconds for the whole call with the pivotal cells")
    parser.add_argument("--ranges", action="store_true", help="also time rank_ranges (Borda, Copeland, Minimax, ...)")
    parser.add_argument("--no-pivotal", action="store_true", help="skip the pivotal cells and their naive baseline")
    parser.add_argument("--no-naive", action="store_true",
                        help="skip the naive baselines (at 350 x 8 one full program takes minutes to build)")
    args = parser.parse_args()
    low, _, high = args.seeds.partition("-")
    args.seed_list = list(range(int(low), int(high) + 1)) if high else list(range(int(low)))
    print(f"possible winners: {args.missing:.0%} of cells missing, seeds {args.seed_list[0]}-{args.seed_list[-1]}, "
          f"Borda, Copeland and Minimax time limit {args.time_limit:g} s for each system's integer programs")
    for size in args.sizes.split(","):
        n, t = (int(x) for x in size.split("x"))
        for rule in args.rules.split(","):
            times, counts, decided, programs = [], [], collections.Counter(), []
            for seed in args.seed_list:
                lb = board(n, t, args.missing, seed)
                begin = time.perf_counter()
                res = possible_winners(lb, rule, time_limit=args.time_limit if rule in SEARCHED else None,
                                       **({"pivotal": False} if rule in SEARCHED else {}))
                times.append(time.perf_counter() - begin)
                counts.append((len(res.possible_winners), len(res.necessary_winners)))
                decided.update(res.decided_by)
                programs.append(res.programs)
            print(f"{n:>4} x {t:<3} {rule:<10} {min(times):7.2f} / {statistics.median(times):7.2f} / {max(times):7.2f} s"
                  f"  possible/necessary per seed {counts}")
            if rule == "kemeny":  # the steps that decided each system (undecided ones say why)
                kinds = collections.Counter(d.split(" (")[0].split(";")[-1].strip().split(":")[0] for d in decided.elements())
                print(f"{'':16}decided by (all seeds, systems): {dict(kinds)}")
            if rule in SEARCHED:
                print(f"{'':16}decided by (all seeds): {dict(decided)}; programs per seed (integer, and for Borda the linear programs of the weighting) {programs}")
                if args.ranges:
                    ranges(n, t, rule, args)
                if not args.no_pivotal:
                    pivotal_cells(n, t, rule, args)
                if args.no_naive:
                    continue
                per_system, statuses = naive(board(n, t, args.missing, 0), rule, args.sample, args.time_limit)
                total = per_system * n
                print(f"{'':16}naive (one full program per system, {args.sample} sampled): {per_system:.2f} s each, "
                      f"statuses {dict(statuses)}; {total:.0f} s extrapolated to {n} systems, "
                      f"{total / statistics.median(times):.1f}x the package's median (a lower bound: "
                      "sampled programs stop at the time limit)")


if __name__ == "__main__":
    main()
