"""Time the Bradley-Terry rule against choix's ``ilsr_pairwise_dense`` on dense boards.

Boards: latent-strength systems (strength ~ N(0, 1), plus N(0, 1) noise on each of 20 tasks,
every task weighted 1: every pair compared on every task), 200 and 1,000 systems (``--sizes``),
seeds 0-2 (``--seeds``). Per board, on the same pairwise matrix (``cs.pairwise(board)``):

- ``cs.rank(matrix, "bradley_terry")``: the whole rule on the matrix (the existence check,
  the MM + Newton solve to a last step of 1e-10, the result);
- choix 0.4.1 ``ilsr_pairwise_dense(preferences, tol=1e-10)`` (iterative Luce spectral
  ranking: a linear solve per iteration), the reference for speed;
- on the 200-system boards, the former solver (``minimize(method="trust-exact")`` finished by
  ``root``, now the fallback ``consensus.rules.strengths._trust_exact``).

The new options of issue 35 are timed on the same matrices (``--repeat`` / 5 calls each):
``interval_level=0.95`` (the covariance: one more Hessian and an n x n inverse), and, on the
board's scores rounded to one decimal (so that about a tenth of the comparisons are ties),
``tie_model="davidson"`` against the plain model on that matrix.

The timed calls alternate, ``--repeat`` times each (20 on 200 systems, 5 on 1,000 by default);
the table gives min / median / max seconds over seeds and repeats, and the ratio of the
medians (per seed: min / max). The centered log-strengths must agree with choix's to 1e-8 (and
the former solver's to 1e-9), or the script stops. ``cs.rank(board)`` on a fresh Leaderboard
(the pairwise matrix counted from the scores as well, once per seed) is shown for reference.

Run: ``python benchmarks/bradley_terry.py [--sizes 200,1000] [--seeds 3] [--repeat N]``
(needs ``pip install choix``).
"""

from __future__ import annotations

import argparse
import importlib.metadata as metadata
import os
import platform
import statistics
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

import consensus as cs
from consensus.rules.strengths import _trust_exact

TASKS = 20
TOL = 1e-10


def board(n: int, seed: int) -> cs.Leaderboard:
    rng = np.random.default_rng(seed)
    scores = rng.normal(size=n)[:, None] + rng.normal(size=(n, TASKS))
    frame = pd.DataFrame(scores, index=[f"s{i}" for i in range(n)], columns=[f"t{j}" for j in range(TASKS)])
    return cs.Leaderboard.from_frame(frame, infer=False)


def timed(call: Callable[[], object]) -> tuple[float, object]:
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def spread(values: list[float]) -> str:
    return f"{min(values):.4f} / {statistics.median(values):.4f} / {max(values):.4f}"


def run(n: int, seeds: int, repeat: int, choix) -> list[str]:
    times: dict[str, list[float]] = {"package": [], "choix": [], "former": [], "board": [], "intervals": [],
                                     "tied": [], "davidson": []}
    ratios = []
    worst = worst_former = 0.0
    for seed in range(seeds):
        lb = board(n, seed)
        matrix = cs.pairwise(lb)
        counts = np.array(matrix.preferences, dtype=np.float64)
        ours_seed, choix_seed = [], []
        for _ in range(repeat):
            seconds, res = timed(lambda: cs.rank(matrix, "bradley_terry"))
            ours_seed.append(seconds)
            seconds, params = timed(lambda: choix.ilsr_pairwise_dense(counts, tol=TOL, max_iter=1000))
            choix_seed.append(seconds)
        scores = res.scores.to_numpy()
        if res.details["method"] != "newton":
            raise SystemExit(f"{n} systems, seed {seed}: the Newton iteration fell back to trust-exact")
        worst = max(worst, float(np.abs(scores - (params - params.mean())).max()))
        if worst > 1e-8:
            raise SystemExit(f"{n} systems, seed {seed}: log-strengths differ from choix's by {worst:.2e}")
        if n <= 200:
            for _ in range(max(1, repeat // 5)):
                seconds, (theta, _, _) = timed(lambda: _trust_exact(counts / counts.sum()))
                times["former"].append(seconds)
            worst_former = max(worst_former, float(np.abs(scores - (theta - theta.mean())).max()))
            if worst_former > 1e-9:
                raise SystemExit(f"{n} systems, seed {seed}: log-strengths differ from the former solver's "
                                 f"by {worst_former:.2e}")
        for _ in range(max(1, repeat // 5)):
            times["intervals"].append(timed(lambda: cs.rank(matrix, "bradley_terry", interval_level=0.95))[0])
        tied = cs.pairwise(cs.Leaderboard.from_frame(lb.scores.round(1), infer=False))
        for _ in range(max(1, repeat // 5)):
            times["tied"].append(timed(lambda: cs.rank(tied, "bradley_terry"))[0])
            seconds, davidson = timed(lambda: cs.rank(tied, "bradley_terry", tie_model="davidson"))
            times["davidson"].append(seconds)
        if davidson.details["method"] != "newton" or not davidson.details["davidson_nu"] > 0:
            raise SystemExit(f"{n} systems, seed {seed}: Davidson's model fell back or found no ties")
        fresh = board(n, seed)  # a new Leaderboard: its pairwise matrix is not cached yet
        times["board"].append(timed(lambda: cs.rank(fresh, "bradley_terry"))[0])
        times["package"] += ours_seed
        times["choix"] += choix_seed
        ratios.append(statistics.median(ours_seed) / statistics.median(choix_seed))
    ratio = statistics.median(times["package"]) / statistics.median(times["choix"])
    size = f"{n} x {TASKS}"
    lines = [
        f"| {size} | cs.rank(matrix, 'bradley_terry') | {spread(times['package'])} | {ratio:.2f} "
        f"(seeds {min(ratios):.2f}-{max(ratios):.2f}) |",
        f"| {size} | choix.ilsr_pairwise_dense(tol=1e-10) | {spread(times['choix'])} | 1.00 |",
    ]
    if times["former"]:
        former = statistics.median(times["former"]) / statistics.median(times["choix"])
        lines.append(f"| {size} | former solver (trust-exact + root) | {spread(times['former'])} | {former:.1f} |")
    board_ratio = statistics.median(times["board"]) / statistics.median(times["choix"])
    lines.append(f"| {size} | cs.rank(board, 'bradley_terry'), counting the matrix | {spread(times['board'])} | "
                 f"{board_ratio:.2f} |")
    for key, label in (("intervals", "cs.rank(matrix, 'bradley_terry', interval_level=0.95)"),
                       ("tied", "scores rounded to 0.1: cs.rank(matrix, 'bradley_terry')"),
                       ("davidson", "scores rounded to 0.1: tie_model='davidson'")):
        key_ratio = statistics.median(times[key]) / statistics.median(times["choix"])
        lines.append(f"| {size} | {label} | {spread(times[key])} | {key_ratio:.2f} |")
    agree = f"max |theta - choix| = {worst:.1e}" + (f", |theta - former| = {worst_former:.1e}" if times["former"] else "")
    return lines + [f"{size}: ratio to choix {ratio:.2f} (at most 1.5: {'yes' if ratio <= 1.5 else 'NO'}); {agree}"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="200,1000", help="numbers of systems, comma-separated")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=None, help="timed calls per seed (default 20; 5 from 500 systems)")
    args = parser.parse_args()
    try:
        import choix
    except ModuleNotFoundError:
        raise SystemExit("needs choix: pip install choix") from None
    print(f"Python {platform.python_version()}, numpy {np.__version__}, scipy {metadata.version('scipy')}, "
          f"choix {metadata.version('choix')}; seeds 0-{args.seeds - 1}; {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f} (both solvers call multi-threaded BLAS: a busy machine slows them a lot)")
    warm = cs.pairwise(board(50, 99))  # warm-up: imports, BLAS threads
    cs.rank(warm, "bradley_terry")
    choix.ilsr_pairwise_dense(np.array(warm.preferences, dtype=np.float64), tol=TOL)
    print("| board (systems x tasks) | method | seconds min / median / max | x choix (median) |")
    print("|---|---|---|---|")
    notes = []
    for n in (int(x) for x in args.sizes.split(",")):
        repeat = args.repeat or (20 if n < 500 else 5)
        lines = run(n, args.seeds, repeat, choix)
        print("\n".join(lines[:-1]))
        notes.append(lines[-1])
    print()
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
