"""Time ranked pairs' winners over every order of its equal-strength pairs.

Boards: integer scores 0..K-1 drawn at random (so equal margins and contested batches
everywhere), every task weighted 1; sizes ``--sizes`` (default 100x8 with K=3, 350x8 with K=5),
seeds 0-2 (``--seeds``), min / median / max. Per board: the wall time of ``rank(lb,
"ranked_pairs")``, its status (``optimal``: the winners are exact; ``time_limit``), the winners
and the systems left undecided.

Baseline in the same run: enumerating the orders of each batch of equal pairs, state by state
(the method the search replaced), with its budget of 20,000 orders: whether it finishes.

Run: ``python benchmarks/ranked_pairs.py [--seeds 3] [--sizes 100x8x3,350x8x5] [--time-limit 10]``.
"""

from __future__ import annotations

import argparse
import itertools
import math
import statistics
import time
import warnings

import numpy as np
import pandas as pd

import consensus as cs
from consensus.rules.condorcet_methods import _link_levels


def board(n: int, t: int, k: int, seed: int) -> cs.Leaderboard:
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.integers(0, k, size=(n, t)).astype(float), index=[f"s{i}" for i in range(n)],
                         columns=[f"t{j}" for j in range(t)])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.Leaderboard.from_frame(frame, infer=False)


def enumerated(levels: np.ndarray, budget: int = 20_000) -> bool:
    """Whether enumerating the orders of every batch, state by state, stays within `budget` orders."""
    n = levels.shape[0]
    states = {np.zeros((n, n), dtype=bool).tobytes()}
    tried = 0
    for level in range(int(levels.max(initial=0)), 0, -1):
        pairs = list(zip(*(x.tolist() for x in np.nonzero(levels == level))))
        after = set()
        for state in states:
            above = np.frombuffer(state, dtype=bool).reshape(n, n)
            fresh = [(i, j) for i, j in pairs if not above[i, j] and not above[j, i]]
            tried += math.factorial(len(fresh))
            if tried > budget:
                return False
            for order in itertools.permutations(fresh):
                closure = above.copy()
                for i, j in order:
                    if not closure[j, i]:
                        up, down = closure[:, i].copy(), closure[j, :].copy()
                        up[i] = down[j] = True
                        closure |= np.outer(up, down)
                after.add(closure.tobytes())
        states = after
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", default="100x8x3,350x8x5")
    parser.add_argument("--time-limit", type=float, default=10.0)
    args = parser.parse_args()
    for size in args.sizes.split(","):
        n, t, k = (int(x) for x in size.split("x"))
        times, rows, finished = [], [], 0
        for seed in range(args.seeds):
            lb = board(n, t, k, seed)
            begin = time.perf_counter()
            res = cs.rank(lb, "ranked_pairs", time_limit=args.time_limit)
            times.append(time.perf_counter() - begin)
            rows.append((res.details["status"], len(res.winners), len(res.details["undecided"])))
            finished += enumerated(_link_levels(cs.pairwise(lb), "margins")[0])
        print(f"{n:>4} x {t:<3} scores 0-{k - 1}: {min(times):6.2f} / {statistics.median(times):6.2f} / {max(times):6.2f} s;"
              f" (status, winners, undecided) per seed {rows}; enumerating the orders finished on {finished} of "
              f"{args.seeds} boards within 20,000 orders")


if __name__ == "__main__":
    main()
