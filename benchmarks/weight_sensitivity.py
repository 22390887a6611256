"""Benchmark: ``consensus.prospective`` for the linear rules, and ``consensus.weight_sensitivity``.

Leaderboards are realistic, not pure noise: each system has a latent strength, each task a
difficulty, and every score is ``60 + 10 (strength - difficulty) + noise`` (noise sd 4),
rounded to 2 decimals (so scores tie now and then, as real metrics do), with equal official
weights. Each cell runs seeds 0, 1, 2 (``--seeds``) in this process, one after the other, and
prints the wall time of the call (min / median / max over the seeds). Every baseline is
measured in the same run on the same boards, so read the ratios (stable from machine to
machine), not the seconds (noisy).

1. ``prospective(lb, rule=r)`` for every rule ``r`` of ``consensus.rules.linear.LINEAR_RULES``
   (``scoring`` with ``vector=(3, 2, 1)``) on 100 systems x 14 tasks: seconds and the number
   of prospective systems (systems that can score highest under some weighting; one value
   per seed). Baseline: ``prospective(lb)``, the Condorcet version; ``x condorcet`` is the
   rule's median over the baseline's median.
2. ``weight_sensitivity(lb, rule="mean", target="winner")`` on 100 x 14 and 1,000 x 50:
   seconds, the L1 and L-infinity radii, the fewest removals, and from ``res.options`` the LPs
   solved, the pairs pruned by the solver-free lower bounds and the critical pairs (LPs and
   pruned count both norms). Baseline: the naive method without pruning, one L1 radius LP
   per critical pair (``solvers.weight_radius.RadiusLP(r, "l1").solve(P[W] - P[j])`` for
   every rival ``j`` of the winner ``W``, one reused model); ``naive / pruned`` is its median
   over the median of the whole ``weight_sensitivity`` call (both norms, removals and the
   re-check of the answer included, so the ratio understates the saving). ``agree``: the
   naive minimum equals the L1 radius within 1e-9 on every seed (asserted).
3. ``weight_sensitivity`` with ``target="top3"`` and ``"ranking"`` for ``mean`` and
   ``borda`` on 100 x 14: seconds, LPs and critical pairs. Baseline: ``target="winner"`` for
   the same rule on the same boards (``x winner``). A radius of 0 with no pairs means the
   target is already tied under the official weights (Borda ties are common on 100 systems).

The last block repeats the medians as markdown table lines for docs/performance.md.

Usage::

    python benchmarks/weight_sensitivity.py --quick   # 30 x 6 and 100 x 10 boards (a few seconds)
    python benchmarks/weight_sensitivity.py           # 100 x 14 and 1,000 x 50 (about 20 s on 2 cores)
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

import consensus as cs
from consensus.rules.linear import LINEAR_RULES, linear_points
from solvers.weight_radius import RadiusLP

RULE_OPTIONS: dict[str, dict[str, Any]] = {"scoring": {"vector": (3, 2, 1)}}
AGREE_TOL = 1e-9


def board(n_systems: int, n_tasks: int, seed: int) -> cs.Leaderboard:
    """Latent system strength minus task difficulty plus per-task noise, rounded to 2 decimals."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0.0, 1.0, n_systems)[:, None]
    difficulty = rng.normal(0.0, 0.5, n_tasks)[None, :]
    scores = np.round(60.0 + 10.0 * (strength - difficulty) + rng.normal(0.0, 4.0, (n_systems, n_tasks)), 2)
    frame = pd.DataFrame(
        scores, index=[f"sys{i:04d}" for i in range(n_systems)], columns=[f"task{k:02d}" for k in range(n_tasks)]
    )
    return cs.Leaderboard.from_frame(frame)


def timed(call: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    out = call()
    return time.perf_counter() - start, out


def spread(times: Sequence[float]) -> str:
    return f"{min(times):>8.4f} {statistics.median(times):>8.4f} {max(times):>8.4f}"


def median_of(values: Sequence[float | None]) -> float:
    """The median of the values that exist (NaN when none does: e.g. no removal changes the winner)."""
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else float("nan")


def table(header: str) -> None:
    print(header)
    print("-" * len(header))


def naive_radius(lb: cs.Leaderboard) -> float:
    """One L1 radius LP per rival of the mean winner, no pruning: the smallest distance."""
    P = linear_points(lb, "mean", {"normalize": None}, False).points
    r = lb.normalized_weights.to_numpy()
    scores = P @ r
    W = int(np.argmax(scores))
    assert (np.delete(scores, W) < scores[W]).all(), "the mean winner is tied: no naive baseline"
    lp = RadiusLP(r, "l1")
    return min(lp.solve(P[W] - P[j]).distance for j in range(lb.n_systems) if j != W)


def part_prospective(size: tuple[int, int], seeds: int, summary: list[str]) -> None:
    n, t = size
    boards = [board(n, t, seed) for seed in range(seeds)]
    cells: dict[str, tuple[list[float], list[int]]] = {}
    for name in ("condorcet (baseline)",) + LINEAR_RULES:
        times, counts = [], []
        for lb in boards:
            if name.startswith("condorcet"):
                seconds, res = timed(partial(cs.prospective, lb))
            else:
                seconds, res = timed(partial(cs.prospective, lb, rule=name, **RULE_OPTIONS.get(name, {})))
            assert len(res.prospective_systems) >= 1
            times.append(seconds)
            counts.append(len(res.prospective_systems))
        cells[name] = (times, counts)
    base = statistics.median(cells["condorcet (baseline)"][0])
    print(f"\n1. prospective(lb, rule=r) on {n} systems x {t} tasks, seeds 0-{seeds - 1}")
    table(f"{'rule':<22} | {'min s':>8} {'median':>8} {'max':>8} | {'x condorcet':>11} | prospective (per seed)")
    for name, (times, counts) in cells.items():
        med = statistics.median(times)
        per_seed = "/".join(str(c) for c in counts)
        print(f"{name:<22} | {spread(times)} | {med / base:>11.2f} | {per_seed}", flush=True)
        label = "prospective(lb)" if name.startswith("condorcet") else f"prospective(lb, rule={name!r})"
        summary.append(f"| {label} | {n} x {t} | {med:.3f} | {med / base:.2f} (x Condorcet) | {per_seed} prospective |")


def part_winner(sizes: Sequence[tuple[int, int]], seeds: int, summary: list[str]) -> None:
    print(f"\n2. weight_sensitivity(lb, rule='mean', target='winner'), seeds 0-{seeds - 1}; "
          "baseline: one L1 radius LP per rival (no pruning)")
    table(
        f"{'board':>11} | {'min s':>8} {'median':>8} {'max':>8} | {'naive med':>9} {'naive/pruned':>12} {'agree':>5} | "
        f"{'L1 radius':>9} {'Linf':>9} {'removals':>8} | {'LPs':>3} {'pruned':>6} {'pairs':>5}  (medians; per seed below)"
    )
    for n, t in sizes:
        times, naive_times, rows = [], [], []
        for seed in range(seeds):
            lb = board(n, t, seed)
            seconds, res = timed(partial(cs.weight_sensitivity, lb, rule="mean", target="winner"))
            naive_s, naive = timed(partial(naive_radius, lb))
            gap = abs(naive - res.l1.distance)
            assert gap <= AGREE_TOL, f"{n} x {t} seed {seed}: naive {naive!r} != pruned {res.l1.distance!r}"
            times.append(seconds)
            naive_times.append(naive_s)
            o = res.options
            rows.append((res.l1.distance, res.linf.distance, res.removal.n_removed, o["n_lps"], o["n_pruned"], o["n_pairs"]))
        med, naive_med = statistics.median(times), statistics.median(naive_times)
        l1, linf, removed, lps, pruned, pairs = (median_of(col) for col in zip(*rows))
        print(
            f"{f'{n} x {t}':>11} | {spread(times)} | {naive_med:>9.4f} {naive_med / med:>12.1f} {'yes':>5} | "
            f"{l1:>9.4g} {linf:>9.4g} {removed:>8g} | {lps:>3g} {pruned:>6g} {pairs:>5g}",
            flush=True,
        )
        for seed, row in enumerate(rows):
            print(f"{'':>11}   seed {seed}: L1 {row[0]:.6g}, Linf {row[1]:.6g}, removals {row[2]}, "
                  f"LPs {row[3]}, pruned {row[4]}, pairs {row[5]}")
        summary.append(
            f"| weight_sensitivity(rule='mean', target='winner') | {n} x {t} | {med:.3f} | "
            f"naive {naive_med:.3f} s: {naive_med / med:.1f}x faster | {lps:g} LPs for {pairs:g} pairs, agree: yes |"
        )


def part_targets(size: tuple[int, int], seeds: int, summary: list[str]) -> None:
    n, t = size
    boards = [board(n, t, seed) for seed in range(seeds)]
    print(f"\n3. weight_sensitivity(lb, rule, target) on {n} systems x {t} tasks, seeds 0-{seeds - 1}; "
          "baseline: target='winner', same rule")
    table(f"{'rule':<6} {'target':<8} | {'min s':>8} {'median':>8} {'max':>8} | {'x winner':>8} | "
          f"{'LPs':>3} {'pairs':>5} | L1 radius (per seed)")
    for rule in ("mean", "borda"):
        base = None
        for target in ("winner", "top3", "ranking"):
            times, lps, pairs, radii = [], [], [], []
            for lb in boards:
                seconds, res = timed(partial(cs.weight_sensitivity, lb, rule=rule, target=target))
                times.append(seconds)
                lps.append(res.options["n_lps"])
                pairs.append(res.options["n_pairs"])
                radii.append(f"{res.l1.distance:.4g}" + (" (tied)" if res.options["n_pairs"] == 0 else ""))
            med = statistics.median(times)
            base = med if base is None else base
            per_seed = "/".join(radii)
            print(f"{rule:<6} {target:<8} | {spread(times)} | {med / base:>8.2f} | "
                  f"{statistics.median(lps):>3g} {statistics.median(pairs):>5g} | {per_seed}", flush=True)
            n_tied = sum(p == 0 for p in pairs)
            tied_note = f" (target tied at the official weights on {n_tied} of {len(pairs)} seeds)" if n_tied else ""
            if target != "winner":
                summary.append(
                    f"| weight_sensitivity(rule={rule!r}, target={target!r}) | {n} x {t} | {med:.3f} | "
                    f"{med / base:.2f} (x target='winner') | {statistics.median(lps):g} LPs for "
                    f"{statistics.median(pairs):g} pairs{tied_note} |"
                )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="30 x 6 and 100 x 10 boards (a few seconds)")
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args(argv)
    if args.seeds < 1:
        parser.error("--seeds must be at least 1")

    from solvers.model import highs_version

    small, large = ((30, 6), (100, 10)) if args.quick else ((100, 14), (1000, 50))
    warm = board(12, 4, 99)  # imports and the first HiGHS call, outside the timings
    cs.prospective(warm)
    cs.prospective(warm, rule="borda")
    cs.weight_sensitivity(warm, rule="mean")
    naive_radius(warm)
    print(f"# Python {platform.python_version()}, HiGHS {highs_version()}, {os.cpu_count()} CPUs, "
          f"{args.seeds} seeds per cell{' (--quick)' if args.quick else ''}")

    start = time.perf_counter()
    summary: list[str] = []
    part_prospective(small, args.seeds, summary)
    part_winner((small, large), args.seeds, summary)
    part_targets(small, args.seeds, summary)

    print(f"\nsummary (medians over {args.seeds} seeds; markdown):\n")
    print("| call | board (systems x tasks) | median s | ratio to the same-run baseline | notes |")
    print("|---|---|---|---|---|")
    print("\n".join(summary))
    print(f"\n# total {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
