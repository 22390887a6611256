"""The memory pre-check against the peak it guards: estimate vs measured peak resident memory.

Before the pairwise comparison and before the full analysis, the package refuses a board whose
``n x n`` matrices cannot fit (``consensus.io._limits.check_square_matrices``, counts in
``consensus.io._limits.MATRICES``). The check is useful only if its estimate is near the real peak:
too low and a board passes the check and dies late (issue 31: 10,000 systems passed and failed),
too high and it refuses boards that fit. This script runs each stage in a fresh process per board
(boards of 3 tasks, latent quality plus noise, ``n`` systems), takes the process's resident memory
just before the stage, adds the stage's estimate, and prints that against the peak resident
memory of the whole run (``ru_maxrss``). The ratio should stay within 1.5x (0.67-1.5) at every size.

Stages: ``pairwise`` (what ``consensus rank --rule copeland`` computes) and ``analysis``
(``consensus analyze``, its Kemeny solve stopped at 3 s: the exact solve's own memory grows with
its cuts, and the solver's time limit bounds it, not this check).

Seeds 0-2 (``--seeds``), min / median / max of the ratio.

Run: ``python benchmarks/limits.py [--pairwise 500,1000,1500,2000,2500,3000]
[--analysis 250,500,750,1000,1500,2000] [--seeds 3]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

_CHILD = r"""
import json, resource, sys, warnings
import numpy as np, pandas as pd
import consensus as cs
from consensus.io._limits import MATRICES

stage, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(seed)
quality = rng.normal(size=n)
scores = np.round(50 + 15 * quality[:, None] + 3 * rng.normal(size=(n, 3)), 3)
frame = pd.DataFrame(scores, columns=["t0", "t1", "t2"], index=[f"m{i}" for i in range(n)])
board = cs.Leaderboard.from_frame(frame)

def rss():
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmRSS:"))

before = rss()
estimate = before + MATRICES[stage] * 8 * n * n
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    if stage == "pairwise":
        cs.rank(board, "copeland")
    else:
        from consensus.comparison._analysis import analyze
        analyze(board, time_limit=3)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
print(json.dumps({"before": before, "estimate": estimate, "peak": peak}))
"""


def _run(stage: str, n: int, seed: int) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, stage, str(n), str(seed)], capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pairwise", default="500,1000,1500,2000,2500,3000")
    parser.add_argument("--analysis", default="250,500,750,1000,1500,2000")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    from consensus.io._limits import MATRICES

    mib = 1024**2
    print(f"{'stage':<9} {'systems':>7} {'matrices':>8} {'before MiB':>10} {'estimate MiB':>12} {'peak MiB':>9} "
          f"{'ratio min / median / max':>25}")
    worst = []
    for stage, sizes in (("pairwise", args.pairwise), ("analysis", args.analysis)):
        for n in (int(x) for x in sizes.split(",") if x):
            runs = [_run(stage, n, seed) for seed in range(args.seeds)]
            ratios = sorted(r["estimate"] / r["peak"] for r in runs)
            worst.append(max(ratios[-1], 1 / ratios[0]))
            print(f"{stage:<9} {n:>7} {MATRICES[stage]:>8} {statistics.median(r['before'] for r in runs) / mib:>10.0f} "
                  f"{statistics.median(r['estimate'] for r in runs) / mib:>12.0f} "
                  f"{statistics.median(r['peak'] for r in runs) / mib:>9.0f} "
                  f"{ratios[0]:>9.2f} / {statistics.median(ratios):.2f} / {ratios[-1]:.2f}", flush=True)
    print(f"worst ratio either way: {max(worst):.2f}x (the check's promise: within 1.5x)")


if __name__ == "__main__":
    main()
