"""Benchmark: ``consensus.prospective`` (every system's Condorcet-winner weight LP).

Synthetic leaderboards from the Gumbel model (``consensus.datasets.gumbel_leaderboard``, phi=0.05,
seed=0). For each size it times, in the same run:

- ``prospective``: the default fast path (highspy directly, one reused HiGHS model, rival
  rows added lazily, LPs skipped when the comparison matrix decides them), max margin for
  every system plus the nearest weighting to the leaderboard's weights for the winners;
- the fast path with every shortcut disabled (one max-margin LP per system);
- ``prospective(interface="pulp")``: the same work (shortcuts included) with a fresh pulp model
  per LP instead of the reused highspy model;
- the naive baseline: a fresh model with every rival row per system
  (``solvers.weights_lp.max_margin_lp(R, shortcut=False)``), on every system for the small
  board and on an evenly spaced sample for the large one (extrapolated, and labelled so).

Run: ``.venv/bin/python benchmarks/condorcet.py`` (``--quick`` for the small board only). Wall times
are the best of 3 runs on the small board, one run on the large one.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import consensus as cs
from solvers.weights_lp import HighsWeightsLP, max_margin_lp, relation_matrix


def _best(fn, repeats: int):
    """Run `fn` `repeats` times; the fastest wall time and the last result."""
    best, out = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return best, out


def _naive(lb: cs.Leaderboard, systems: list[int]) -> tuple[float, list[float]]:
    start = time.perf_counter()
    margins = [max_margin_lp(relation_matrix(lb.values, i), shortcut=False).objective for i in systems]
    return time.perf_counter() - start, margins


def _fast_no_shortcut(lb: cs.Leaderboard) -> tuple[float, HighsWeightsLP, list[float]]:
    start = time.perf_counter()
    lp = HighsWeightsLP(lb.n_tasks)
    margins = [lp.max_margin(relation_matrix(lb.values, i), shortcut=False).objective for i in range(lb.n_systems)]
    return time.perf_counter() - start, lp, margins


def run(n_systems: int, n_tasks: int, sample: int | None, repeats: int) -> list[str]:
    lb = cs.datasets.gumbel_leaderboard(n_systems, n_tasks, phi=0.05, seed=0)
    wall, table = _best(lambda: cs.prospective(lb).to_frame(), repeats)
    a = table.attrs
    pulp_wall, pulp_table = _best(lambda: cs.prospective(lb, interface="pulp").to_frame(), repeats)
    if not np.allclose(pulp_table["margin"], table["margin"], atol=1e-9) or not (
        pulp_table["feasible"].equals(table["feasible"])
    ):
        raise SystemExit("the eager and lazy paths disagree")
    raw_wall, (_, lp, raw_margins) = _best(lambda: _fast_no_shortcut(lb), repeats)
    if not np.allclose(raw_margins, table["margin"], atol=1e-9):
        raise SystemExit("fast paths disagree on the margins")
    picked = list(range(n_systems)) if sample is None else list(np.linspace(0, n_systems - 1, sample).astype(int))
    naive_wall, naive_margins = _naive(lb, picked)
    if not np.allclose(naive_margins, table["margin"].to_numpy()[picked], atol=1e-9):
        raise SystemExit("the naive baseline disagrees on the margins")
    naive_full = naive_wall * n_systems / len(picked)
    label = "" if sample is None else f" (extrapolated from {len(picked)} systems)"
    size = f"{n_systems} x {n_tasks}"
    lines = [
        f"| {size} | prospective (fast path, default) | {wall:.3f} | {a['solver_seconds']:.3f} | "
        f"{a['n_lps']} | {a['n_solves']} | 1.0 |",
        f"| {size} | fast path, no shortcuts (max margin only) | {raw_wall:.3f} | {lp.solver_seconds:.3f} | "
        f"{lp.n_lps} | {lp.n_solves} | {raw_wall / wall:.1f} |",
        f"| {size} | prospective(interface='pulp'): fresh model per LP (every rival row) | {pulp_wall:.3f} | "
        f"{pulp_table.attrs['solver_seconds']:.3f} | {pulp_table.attrs['n_lps']} | {pulp_table.attrs['n_solves']} | "
        f"{pulp_wall / wall:.1f} |",
        f"| {size} | naive: fresh model per system, no shortcuts{label} | {naive_full:.2f} | - | "
        f"{n_systems} | {n_systems} | {naive_full / wall:.0f} |",
    ]
    summary = (
        f"{size}: {int(table['feasible'].sum())} prospective (weak), "
        f"{int(table['strict_feasible'].sum())} can be strict Condorcet winners; "
        f"naive / fast = {naive_full / wall:.0f}x"
    )
    return lines + [f"<!-- {summary} -->"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the 100 x 15 board")
    args = parser.parse_args()
    sizes = [(100, 15, None, 3)] if args.quick else [(100, 15, None, 3), (1000, 50, 20, 1)]
    cs.prospective(cs.datasets.gumbel_leaderboard(10, 3, seed=1)).to_frame()  # warm-up: imports, first HiGHS call
    print("| board (systems x tasks) | method | wall s | solver s | LPs | solver runs | x slower than default |")
    print("|---|---|---|---|---|---|---|")
    notes = []
    for n, k, sample, repeats in sizes:
        lines = run(n, k, sample, repeats)
        print("\n".join(lines[:-1]))
        notes.append(lines[-1][5:-4])
    print()
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
