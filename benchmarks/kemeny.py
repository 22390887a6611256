"""Benchmark: exact Kemeny consensus (lazy 3-cycle cuts + decomposition) against the naive ILP.

Instances are Gumbel leaderboards (Colombo et al. 2022, sec. 4.1): system n scores
Gumbel(phi * n, 1) on each of T = 20 tasks; phi = 0 is pure noise (the hardest case).
For each instance the script measures, in separate processes and in the same run:

- ``ours``: ``consensus.kemeny(lb, unique=False)``, time to a certified optimum, with its
  peak resident memory; then the uniqueness check (``unique=True``) as an extra column;
- ``naive``: the textbook model with *all* 2 * C(N, 3) 3-cycle constraints up front
  (one binary per pair), solved by the same HiGHS (``solvers.LinearModel``); build + solve time,
  capped (``>cap`` when the cap is hit);
- the Borda ranking's objective and its gap to the optimum.

Usage::

    python benchmarks/kemeny.py --quick     # N in {20, 50}, about a minute
    python benchmarks/kemeny.py             # N up to 150 (phi = 0 up to 80), several minutes
    python benchmarks/kemeny.py --full      # also phi = 0 at N = 100 and 150 (120 s limits)
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import platform
import queue as queue_module
import resource
import sys
import time
from typing import Any

import numpy as np


def _leaderboard(kind: str, n: int, phi: float, seed: int, tasks: int) -> Any:
    import consensus as cs

    if kind == "gumbel":
        return cs.datasets.gumbel_leaderboard(n, tasks, phi=phi, seed=seed)
    # "realistic": scores rounded to 2 decimals (ties), 10% of cells missing, task weights
    import pandas as pd

    base = cs.datasets.gumbel_leaderboard(n, tasks, phi=phi, seed=seed).scores
    rng = np.random.default_rng(seed)
    frame = (base * 10).round(0) / 10  # e.g. accuracy reported to one decimal: ties appear
    mask = rng.random(frame.shape) < 0.10
    mask[:, 0] = False  # every system keeps a score
    frame = frame.mask(pd.DataFrame(mask, index=frame.index, columns=frame.columns))
    weights = {t: float(w) for t, w in zip(frame.columns, rng.choice([1.0, 1.0, 2.0], size=tasks))}
    return cs.Leaderboard.from_frame(frame, weights=weights)


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # kilobytes on Linux


def _run_ours(spec: dict[str, Any], out: Any) -> None:
    import consensus as cs

    lb = _leaderboard(spec["kind"], spec["n"], spec["phi"], spec["seed"], spec["tasks"])
    start = time.perf_counter()
    res = cs.kemeny(lb, unique=False, time_limit=spec["limit"])
    seconds = time.perf_counter() - start
    peak = _peak_mb()
    start = time.perf_counter()
    uniq = cs.kemeny(lb, unique=True, time_limit=spec["limit"])
    unique_seconds = time.perf_counter() - start
    p = cs.pairwise(lb)
    # Borda as the share of pairwise preference over the rivals compared with (row sums of
    # preferences for complete data); ties broken by system order
    borda = p.preferences.sum(axis=1) / np.maximum(p.compared.sum(axis=1), 1e-12)
    order = [p.systems[i] for i in sorted(range(p.n_systems), key=lambda i: (-borda[i], i))]
    out.put(
        {
            "status": res.status.value,
            "objective": res.objective,
            "bound": res.lower_bound,
            "seconds": seconds,
            "largest": max(res.components),
            "n_components": len(res.components),
            "cuts": res.constraints_added,
            "rounds": res.iterations,
            "unique": uniq.unique,
            "unique_seconds": unique_seconds,
            "borda": cs.kemeny_objective(p, order),
            "peak_mb": peak,
        }
    )


def _run_naive(spec: dict[str, Any], out: Any) -> None:
    import consensus as cs
    from solvers import LinearModel, SolveStatus

    lb = _leaderboard(spec["kind"], spec["n"], spec["phi"], spec["seed"], spec["tasks"])
    costs = cs.pairwise(lb).preferences
    n = len(costs)
    start = time.perf_counter()
    iu, ju = np.triu_indices(n, 1)
    pair = np.full((n, n), -1, dtype=np.int64)
    pair[iu, ju] = np.arange(len(iu))
    model = LinearModel(backend="highs")
    # y[i, j] = 1: i above j (pays costs[j, i]); 0: j above i (pays costs[i, j])
    model.add_columns(np.zeros(len(iu)), np.ones(len(iu)), costs[ju, iu] - costs[iu, ju])
    model.set_integer(True)
    t = np.array(list(itertools.combinations(range(n), 3)), dtype=np.int64).reshape(-1, 3)
    ab, bc, ac = pair[t[:, 0], t[:, 1]], pair[t[:, 1], t[:, 2]], pair[t[:, 0], t[:, 2]]
    m = len(t)
    index = np.stack([ab, bc, ac], axis=1).repeat(2, axis=0).reshape(-1)
    # per triple i < j < k: no cycle i > j > k > i (y_ij + y_jk - y_ik <= 1) and
    # no cycle i > k > j > i (-y_ij - y_jk + y_ik <= 0)
    value = np.tile([1.0, 1.0, -1.0, -1.0, -1.0, 1.0], m)
    upper = np.tile([1.0, 0.0], m)
    model.add_rows(np.full(2 * m, -np.inf), upper, np.arange(0, 6 * m, 3), index, value)
    left = max(1.0, spec["cap"] - (time.perf_counter() - start))
    sol = model.solve(time_limit=left, highs_options={"mip_rel_gap": 0.0})  # certified optimum, like ours
    constant = float(costs[iu, ju].sum())
    out.put(
        {
            "status": sol.status.value,
            "optimal": sol.status is SolveStatus.OPTIMAL,
            "objective": float(sol.objective) + constant if sol.objective is not None else float("nan"),
            "seconds": time.perf_counter() - start,
        }
    )


def _in_child(target: Any, spec: dict[str, Any], wall: float) -> dict[str, Any] | None:
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(spec, queue))
    proc.start()
    deadline = time.perf_counter() + wall
    try:
        while time.perf_counter() < deadline:
            try:
                return queue.get(timeout=0.5)
            except queue_module.Empty:  # still running, or the child died
                if not proc.is_alive():
                    try:
                        return queue.get(timeout=0.5)
                    except queue_module.Empty:
                        return None
        return None
    finally:
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
            proc.join()


def _fmt_time(seconds: float | None, capped: bool = False, cap: float = 0.0) -> str:
    if capped:
        return f">{cap:g}"
    if seconds is None:
        return "-"
    return f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="N in {20, 50} only")
    mode.add_argument("--full", action="store_true", help="also phi = 0 at N = 100 and 150")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tasks", type=int, default=20)
    parser.add_argument("--cap", type=float, default=None, help="seconds for the naive model (default 120, quick 30)")
    parser.add_argument("--limit", type=float, default=120.0, help="time limit for ours (reported, never hit silently)")
    parser.add_argument("--no-naive", action="store_true", help="skip the naive baseline")
    args = parser.parse_args(argv)

    cap = args.cap if args.cap is not None else (30.0 if args.quick else 120.0)
    sizes = [20, 50] if args.quick else [20, 50, 80, 100, 150]
    grid = [(phi, n) for phi in (0.0, 0.05, 0.2) for n in sizes]
    if not args.full:
        grid = [(phi, n) for phi, n in grid if not (phi == 0.0 and n > 80)]
    instances = [("gumbel", n, phi, args.tasks) for phi, n in grid]
    instances.append(("realistic", 100, 0.1, 12))

    print(f"Kemeny benchmark: python {platform.python_version()}, {platform.machine()}, seed {args.seed}, "
          f"naive cap {cap:g} s, our time limit {args.limit:g} s", flush=True)
    header = (
        f"{'instance':<18}{'N':>5}{'T':>4}{'comp':>6}{'ours s':>9}{'status':>12}{'naive s':>10}{'speedup':>9}"
        f"{'objective':>11}{'bound':>10}{'gap':>7}{'unique':>8}{'uniq s':>8}{'borda gap':>16}{'cuts':>7}{'MB':>6}"
    )
    print(header)
    print("-" * len(header))
    rows = []
    for kind, n, phi, tasks in instances:
        spec = {"kind": kind, "n": n, "phi": phi, "seed": args.seed, "tasks": tasks, "limit": args.limit, "cap": cap}
        ours = _in_child(_run_ours, spec, wall=3 * args.limit + 60)
        naive = None if args.no_naive else _in_child(_run_naive, spec, wall=cap + 120)
        name = f"{kind} phi={phi:g}"
        if ours is None:
            print(f"{name:<18}{n:>5}{tasks:>4}  (ours did not finish)")
            continue
        naive_capped = naive is None or not naive["optimal"]
        if naive is not None and naive["optimal"] and abs(naive["objective"] - ours["objective"]) > 1e-6 and ours["status"] == "optimal":
            print(f"!! objective mismatch: ours {ours['objective']} naive {naive['objective']}")
        speedup = "-"
        if naive is not None and ours["status"] == "optimal":
            ratio = (cap if naive_capped else naive["seconds"]) / max(ours["seconds"], 1e-9)
            speedup = f"{'>' if naive_capped else ''}{ratio:.0f}x"
        borda_gap = ours["borda"] - ours["objective"]
        borda = f"{borda_gap:g} ({100 * borda_gap / ours['objective']:.2f}%)"
        gap = ours["objective"] - ours["bound"]
        print(
            f"{name:<18}{n:>5}{tasks:>4}{ours['largest']:>6}{_fmt_time(ours['seconds']):>9}{ours['status']:>12}"
            f"{('-' if args.no_naive else _fmt_time(None if naive is None else naive['seconds'], naive_capped, cap)):>10}"
            f"{speedup:>9}{ours['objective']:>11g}{ours['bound']:>10g}{gap:>7g}{ours['unique']!s:>8}"
            f"{_fmt_time(ours['unique_seconds']):>8}{borda:>16}{ours['cuts']:>7}{ours['peak_mb']:>6.0f}",
            flush=True,
        )
        rows.append((kind, n, phi, ours, naive, naive_capped))

    print()
    print("comp: size of the largest majority component; ours s: time to a certified optimum (unique=False);")
    print("uniq s: a second solve with the uniqueness check; naive s: build + HiGHS solve of the full model;")
    print("MB: peak resident memory of the process running ours; borda gap: Borda objective minus the optimum.")

    def find(kind: str, n: int, phi: float) -> tuple | None:
        return next((r for r in rows if r[0] == kind and r[1] == n and r[2] == phi), None)

    checks = []
    r = find("gumbel", 150, 0.05)
    if r:
        ours, naive, capped = r[3], r[4], r[5]
        ratio = ((cap if capped else naive["seconds"]) / ours["seconds"]) if naive else float("nan")
        checks.append(("phi=0.05, N=150 certified optimal under 1 s", ours["status"] == "optimal" and ours["seconds"] < 1))
        if naive:
            checks.append((f"phi=0.05, N=150 at least 30x faster than naive ({ratio:.0f}x)", ratio >= 30))
        checks.append((f"N=150 peak memory under 2 GB ({ours['peak_mb']:.0f} MB)", ours["peak_mb"] < 2048))
    r = find("gumbel", 80, 0.0)
    if r:
        checks.append((f"phi=0, N=80 certified optimal under 30 s ({r[3]['seconds']:.1f} s)",
                       r[3]["status"] == "optimal" and r[3]["seconds"] < 30))
    r = find("gumbel", 100, 0.0)
    if r:
        o = r[3]
        print(f"phi=0, N=100: {o['status']} after {o['seconds']:.1f} s, best {o['objective']:g}, "
              f"bound {o['bound']:g}, gap {o['objective'] - o['bound']:g}")
    r = find("realistic", 100, 0.1)
    if r:
        checks.append((f"realistic 100 systems x 12 tasks under 1 s ({r[3]['seconds']:.3f} s)",
                       r[3]["status"] == "optimal" and r[3]["seconds"] < 1))
    for text, ok in checks:
        print(f"[{'ok' if ok else 'MISS'}] {text}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
