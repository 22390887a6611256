"""Instance-level scores at LLM-evaluation scale: the pairwise sums of thousands of models.

Run: ``python benchmarks/instance_scale.py [--quick] [--seeds 3] [--no-dask]``

Data: 0/1 correctness of N models on 20,000 items (4 tasks x 5,000), each model with a latent
skill, 10% of the (model, item) scores missing at random. Three parts, every cell over
``--seeds`` seeds (min / median / max seconds), every baseline measured in the same run:

1. **Kernel**: ``impute_pairwise`` (``sigma_l``) and ``sigma_2l`` on InstanceScores for
   N = 200, 400, 1,000, 2,000 (``--quick``: 100, 200), with the peak of traced allocations
   (tracemalloc: numpy buffers included) during the call. Baseline: the pair-comparison kernel
   (``accumulate(..., kernel="compare")``, the kernel before the matrix-product one) at
   N = 200 and 400: ratio printed, and the matrices checked equal (to 1e-12 relative: the
   counts are the same integers, but the float sums of midrank shares are added in chunks of
   other sizes).
2. **Files**: the same scores written as one Parquet file per model (system, task, instance,
   score; only the scored items), read back with ``read_instances(folder)``, then ``sigma_l``;
   checked equal to part 1 (within 1e-12: the items come in another order, so the float sums
   add up in another order).
3. **Dask** (when dask and distributed are installed, unless ``--no-dask``): ``sigma_l`` of
   ``InstanceSource(folder/*.parquet)`` on a local 2-worker cluster (processes, 1 thread
   each), against read + ``sigma_l`` in-process on the same files: ratio printed, matrices
   checked equal (1e-9). At ``--dask-models`` models (default 200): on this 2-core machine,
   where the two workers and the client share the cores, 2,000 models did not finish one run
   within 12 minutes (the shuffle moves every row).

The process's peak RSS is printed at the end.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

import consensus as cs
from consensus.missing import _partial_sums
from consensus.missing._imputation_sums import accumulate, units_of

ITEMS, TASKS = 20_000, 4


def make_scores(n_models: int, seed: int) -> cs.InstanceScores:
    rng = np.random.default_rng(seed)
    skill = rng.normal(size=(n_models, 1))
    difficulty = rng.normal(size=(1, ITEMS))
    p = 1.0 / (1.0 + np.exp(-(skill - difficulty)))
    values = (rng.random((n_models, ITEMS)) < p).astype(np.float64)
    values[rng.random(values.shape) < 0.1] = np.nan
    values[0, np.isnan(values).all(axis=0)] = 1.0  # every item scored by someone
    per = ITEMS // TASKS
    arrays = {f"task{t}": values[:, t * per : (t + 1) * per] for t in range(TASKS)}
    return cs.InstanceScores.from_arrays(arrays, systems=[f"model-{i:04d}" for i in range(n_models)])


def timed(call: Callable[[], object]) -> tuple[float, object, int]:
    tracemalloc.start()
    start = time.perf_counter()
    out = call()
    seconds = time.perf_counter() - start
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, out, peak


def spread(values: list[float]) -> str:
    return f"{min(values):8.2f} {statistics.median(values):8.2f} {max(values):8.2f}"


def kernel_part(sizes: list[int], baseline_sizes: list[int], seeds: int) -> None:
    print(f"1. kernel: 0/1 scores, {ITEMS:,} items ({TASKS} tasks), 10% missing; seconds min / median / max "
          f"over {seeds} seeds")
    print(f"{'models':>7} | {'sigma_l':>26} | {'sigma_2l':>26} | peak MiB | {'compare kernel':>26} | ratio | "
          "float64 products: sigma_l, ratio")
    cs.sigma_l(make_scores(50, 99))  # warm-up: imports, BLAS threads
    for n in sizes:
        t1, t2, peaks, base, t64 = [], [], [], [], []
        for seed in range(seeds):
            data = make_scores(n, seed)
            s, res, peak = timed(lambda: cs.sigma_l(data))
            t1.append(s)
            peaks.append(peak)
            s, _, _ = timed(lambda: cs.sigma_2l(data))
            t2.append(s)
            exact, _partial_sums._EXACT_F32 = _partial_sums._EXACT_F32, 0  # every product in float64, as before
            try:
                start = time.perf_counter()
                same = cs.sigma_l(data)
                t64.append(time.perf_counter() - start)
            finally:
                _partial_sums._EXACT_F32 = exact
            assert np.array_equal(same.matrix.counts, res.matrix.counts)  # the counts, bit for bit
            if n in baseline_sizes:
                start = time.perf_counter()
                ref = accumulate(units_of(data), per_task=False, kernel="compare").imputed
                base.append(time.perf_counter() - start)
                np.testing.assert_allclose(res.matrix.wins, ref, rtol=1e-12, atol=1e-9)  # chunked float sums
        ratio = f"{statistics.median(base) / statistics.median(t1):5.1f}x" if base else "    -"
        compare = spread(base) if base else f"{'-':>26}"
        print(f"{n:7d} | {spread(t1)} | {spread(t2)} | {max(peaks) / 2**20:8.0f} | {compare} | {ratio} | "
              f"{spread(t64)} {statistics.median(t64) / statistics.median(t1):5.2f}x", flush=True)


def write_per_model(data: cs.InstanceScores, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, system in enumerate(data.systems):
        parts = []
        for t, task in enumerate(data.tasks):
            lo, hi = data.offsets[t], data.offsets[t + 1]
            row = data.values[i, lo:hi]
            keep = ~np.isnan(row)
            parts.append(pd.DataFrame({"system": system, "task": task, "instance": np.arange(hi - lo)[keep],
                                       "score": row[keep]}))
        pd.concat(parts, ignore_index=True).to_parquet(folder / f"{system}.parquet", index=False)


def files_part(n: int, seeds: int, use_dask: bool, label: str = "2. files") -> None:
    print(f"\n{label}: {n} models, one Parquet file per model; read_instances(folder) + sigma_l")
    reads, totals, dask_times = [], [], []
    for seed in range(seeds):
        data = make_scores(n, seed)
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "logs"
            write_per_model(data, folder)
            start = time.perf_counter()
            read = cs.read_instances(folder)
            reads.append(time.perf_counter() - start)
            res = cs.sigma_l(read)
            totals.append(time.perf_counter() - start)
            np.testing.assert_allclose(res.matrix.wins, cs.sigma_l(data).matrix.wins, rtol=1e-12, atol=1e-9)
            if use_dask:
                dask_times.append(dask_run(folder, res.matrix.wins))
    print(f"   read_instances: {spread(reads)} s;  read + sigma_l: {spread(totals)} s")
    if dask_times:
        print(f"   dask: sigma_l(InstanceSource(folder/*.parquet)) on a local 2-worker cluster: {spread(dask_times)} s; "
              f"ratio to in-process read + sigma_l: {statistics.median(dask_times) / statistics.median(totals):.2f}x "
              "(matrices equal within 1e-9)", flush=True)


def dask_run(folder: Path, expected: np.ndarray) -> float:
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        start = time.perf_counter()
        res = cs.sigma_l(cs.missing.InstanceSource(str(folder / "*.parquet")), scheduler=client)
        seconds = time.perf_counter() - start
    got = res.matrix.wins
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-9)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--parts", default="1,2,3", help="which parts to run (default 1,2,3)")
    parser.add_argument("--dask-models", type=int, default=200,
                        help="models of the Dask part (default 200: 2,000 did not finish within 12 minutes here)")
    args = parser.parse_args()
    print(f"# {os.cpu_count()} CPUs, numpy {np.__version__}")
    use_dask = not args.no_dask
    if use_dask:
        try:
            import dask.dataframe  # noqa: F401
            import distributed  # noqa: F401
        except ImportError:
            use_dask = False
            print("# dask/distributed not installed: part 3 skipped")
    parts = set(args.parts.split(","))
    if "1" in parts:
        kernel_part([100, 200] if args.quick else [200, 400, 1000, 2000], [100, 200] if args.quick else [200, 400],
                    args.seeds)
    if "2" in parts:
        files_part(100 if args.quick else 2000, args.seeds, False)
    if "3" in parts and use_dask:
        files_part(50 if args.quick else args.dask_models, args.seeds, True, "3. files and dask")
    print(f"\npeak RSS of the process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
