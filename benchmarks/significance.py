"""Time differences within noise (``cs.significance``) and the rules that read it.

Part 1, instance-level 0/1 scores: ``--models`` (default 400) models x ``--items`` (default
20,000) items in ``--tasks`` (default 4) tasks, each model's accuracy drawn around 0.6 (sd 0.05),
10% of the scores missing at random; the exact sign (McNemar) test of every pair on every task,
Holm per task. Baseline in the same run: scipy's ``binomtest`` pair by pair on the counts of
shared items, on ``--sample`` pairs of the first task, extrapolated to every pair of every task
(the counts themselves are not timed for it), and the ratio.

Part 2, a leaderboard with standard errors: 100 systems x 14 tasks (latent quality plus noise,
standard errors 0.2-1.0): ``cs.significance`` (z-tests, Holm) and ``cs.rank(..., significance=...)``
for Borda, Copeland and the exact Kemeny (``--time-limit``, default 10 s: some of these boards
are hard Kemeny instances, statuses printed), against the same calls without significance.

Part 3: ``consensus analyze FILE --significance`` end to end in a fresh process on the boards of
part 2 written as CSV with standard-error columns (target 5 s), against ``consensus analyze FILE
--time-limit 10`` (without significance some of these boards are hard Kemeny instances).

Seeds 0-2 (``--seeds``), min / median / max; peak traced memory of part 1 (tracemalloc). The
imports (scipy.stats) happen once before, not timed.

Run: ``python benchmarks/significance.py [--seeds 3] [--models 400] [--items 20000]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
import warnings

import numpy as np
import pandas as pd

import consensus as cs


def instances(models: int, items: int, tasks: int, seed: int) -> cs.InstanceScores:
    rng = np.random.default_rng(seed)
    skill = np.clip(rng.normal(0.6, 0.05, models), 0.05, 0.95)
    values = (rng.random((models, items)) < skill[:, None]).astype(np.float64)
    values[rng.random((models, items)) < 0.1] = np.nan
    cuts = np.linspace(0, items, tasks + 1).astype(int)
    arrays = {f"t{k}": values[:, cuts[k]:cuts[k + 1]] for k in range(tasks)}
    return cs.InstanceScores.from_arrays(arrays, systems=[f"m{i:03d}" for i in range(models)])


def board(n: int, t: int, seed: int) -> cs.Leaderboard:
    rng = np.random.default_rng(seed)
    scores = np.round(60 + 5 * rng.normal(size=n)[:, None] + 3 * rng.normal(size=(n, t)), 1)
    frame = pd.DataFrame(scores, index=[f"s{i:03d}" for i in range(n)], columns=[f"t{k:02d}" for k in range(t)])
    se = pd.DataFrame(rng.uniform(0.2, 1.0, (n, t)), index=frame.index, columns=frame.columns)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return cs.Leaderboard.from_frame(frame, infer=False).with_stderr(se)


def spread(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f} s"


def naive_pairs(scores: cs.InstanceScores, sample: int) -> float:
    """Seconds per pair of scipy's binomtest on the shared items' counts (first task)."""
    from scipy.stats import binomtest

    x = scores.task_values(scores.tasks[0])
    n = x.shape[0]
    rng = np.random.default_rng(0)
    pairs = [tuple(rng.choice(n, 2, replace=False)) for _ in range(sample)]
    counts = []
    for a, b in pairs:
        both = ~np.isnan(x[a]) & ~np.isnan(x[b])
        counts.append((int(((x[a] == 1) & (x[b] == 0) & both).sum()), int(((x[a] == 0) & (x[b] == 1) & both).sum())))
    start = time.perf_counter()
    for wins, losses in counts:
        binomtest(wins, wins + losses) if wins + losses else None
    return (time.perf_counter() - start) / sample


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--models", type=int, default=400)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--tasks", type=int, default=4)
    parser.add_argument("--sample", type=int, default=2000)
    parser.add_argument("--time-limit", type=float, default=10.0, help="of each Kemeny solve (default 10 s)")
    args = parser.parse_args()

    cs.significance(instances(4, 40, 2, 0))  # imports (scipy.stats) once, not timed
    times, peaks = [], []
    for seed in range(args.seeds):
        scores = instances(args.models, args.items, args.tasks, seed)
        tracemalloc.start()
        start = time.perf_counter()
        res = cs.significance(scores)
        times.append(time.perf_counter() - start)
        peaks.append(tracemalloc.get_traced_memory()[1] / 2**20)
        tracemalloc.stop()
        separated = res.separated().mean()
    pairs = args.models * (args.models - 1) // 2 * args.tasks
    per_pair = naive_pairs(instances(args.models, args.items, args.tasks, 0), args.sample)
    print(f"part 1: {args.models} models x {args.items} items (0/1, {args.tasks} tasks, 10% missing), "
          f"{args.seeds} seeds")
    print(f"  cs.significance (exact sign / McNemar, Holm): {spread(times)}, peak traced "
          f"{statistics.median(peaks):.0f} MiB; {separated:.0%} of pairs separated (last seed)")
    print(f"  baseline scipy binomtest per pair: {per_pair * 1e6:.1f} us x {pairs} pairs = {per_pair * pairs:.1f} s "
          f"extrapolated ({per_pair * pairs / statistics.median(times):.1f}x)")

    rows: dict[str, list[float]] = {}
    statuses: dict[str, list[str]] = {}
    for seed in range(args.seeds):
        lb = board(100, 14, seed)
        start = time.perf_counter()
        res = cs.significance(lb)
        rows.setdefault("significance (z, Holm)", []).append(time.perf_counter() - start)
        for rule in ("borda", "copeland", "kemeny"):
            options = {"time_limit": args.time_limit} if rule == "kemeny" else {}
            for name, extra in ((rule, {}), (f"{rule}, significance=", {"significance": res})):
                start = time.perf_counter()
                out = cs.rank(lb, rule, **options, **extra)
                rows.setdefault(name, []).append(time.perf_counter() - start)
                if rule == "kemeny":
                    statuses.setdefault(name, []).append(out.details["kemeny"].status.value)
    print(f"part 2: 100 systems x 14 tasks with standard errors, {args.seeds} seeds")
    for name, values in rows.items():
        said = f" (statuses: {', '.join(statuses[name])})" if name in statuses else ""
        print(f"  {name}: {spread(values)}{said}")

    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    runs: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as folder:
        for seed in range(args.seeds):
            lb = board(100, 14, seed)
            frame = lb.scores.copy()
            for task in lb.tasks:
                frame[f"{task}_stderr"] = lb.stderr[task]
            path = Path(folder) / f"board{seed}.csv"
            frame.rename_axis("model").to_csv(path)
            for name, extra in (("analyze --significance", ["--significance"]),
                                ("analyze", ["--time-limit", str(args.time_limit)])):
                start = time.perf_counter()
                subprocess.run([sys.executable, "-m", "consensus", "analyze", str(path), "-q", *extra],
                               check=True, capture_output=True)
                runs.setdefault(name, []).append(time.perf_counter() - start)
    print(f"part 3: consensus analyze FILE end to end (a fresh process), 100 x 14 with standard-error columns, "
          f"{args.seeds} seeds")
    for name, values in runs.items():
        print(f"  {name}: {spread(values)}")


if __name__ == "__main__":
    main()
