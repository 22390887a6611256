"""Instance-level scores at LLM-evaluation scale: the pairwise sums of thousands of models.

Run: ``python benchmarks/instance_scale.py [--quick] [--seeds 3] [--parts 1,2,3,4] [--no-dask]``

Data: 0/1 correctness of N models on 20,000 items (4 tasks x 5,000), each model with a latent
skill, 10% of the (model, item) scores missing at random. Every cell over ``--seeds`` seeds
(min / median / max), every baseline measured in the same run:

1. **Kernel**: ``impute_pairwise`` (``sigma_l``) and ``sigma_2l`` on InstanceScores for
   N = 200, 400, 1,000, 2,000 (``--quick``: 100, 200), with the peak of traced allocations
   (tracemalloc: numpy buffers included) during the call. Baselines: the pair-comparison
   kernel (``accumulate(..., kernel="compare")``) at N = 200 and 400, and every product in
   float64, with the matrices checked equal.
2. **Files, in-process**: one Parquet file per model (rows in random order within each file,
   as evaluation logs are), N = 2,000 (``--quick``: 100). Each measurement runs in a fresh
   process, which prints its time and its peak RSS: ``sigma_l(InstanceSource(folder))`` (read
   by item blocks, ``--memory`` setting, default the package's), against the in-memory
   ``sigma_l`` of the same scores (the baseline: the array read first, not timed) and the
   whole-array path (``read_instances`` + ``sigma_l``). Rows, bytes spilled and blocks printed;
   the matrices checked equal (counts exactly, wins to 1e-12 relative).
3. **Dask**: the same folder on local clusters of 1, 2 and 4 worker processes (one thread
   each), against the in-process time of part 2; the work per block (the in-process block
   time over the blocks) and the bytes moved (the rows once, one set of N x N sums per block),
   with the package imported on the workers before the timing (as on a cluster in use),
   from which a bigger cluster's time can be read off. On a 2-core machine more than 2
   workers cannot go faster.
4. **Larger**: 5,000 models (``--memory 512MB``, within a 2 GB budget) and 10,000 models,
   streamed in-process: time and peak RSS (``--big-seeds`` seeds, default 1: a 10,000-model run
   takes minutes).
5. **lm-evaluation-harness samples**: 500 models x 10 tasks x 400 docs as ``--log_samples``
   JSON lines, streamed (``InstanceSource(layout="harness-samples")``, memory setting 128 MB)
   against ``read_harness_samples`` + ``sigma_l`` and the in-memory ``sigma_l``: time, peak
   RSS, matrices equal.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
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


def write_per_model(n_models: int, seed: int, folder: Path) -> None:
    """One Parquet file per model (system, task, instance, score; the items it scored, in random
    order, as evaluation logs list them), generated model by model: latent-skill 0/1 scores as
    :func:`make_scores`, never held as one array (10,000 models fit)."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(size=ITEMS)
    per = ITEMS // TASKS
    task = np.repeat([f"task{t}" for t in range(TASKS)], per)
    instance = np.tile(np.arange(per), TASKS)
    for i in range(n_models):
        p = 1.0 / (1.0 + np.exp(-(rng.normal() - difficulty)))
        score = (rng.random(ITEMS) < p).astype(np.float64)
        kept = np.flatnonzero(rng.random(ITEMS) >= 0.1) if i else np.arange(ITEMS)  # model 0 scores every item
        order = rng.permutation(kept)
        pd.DataFrame({"system": f"model-{i:05d}", "task": task[order], "instance": instance[order],
                      "score": score[order]}).to_parquet(folder / f"model-{i:05d}.parquet", index=False)


def write_harness(n_models: int, tasks: int, docs: int, seed: int, out: Path) -> None:
    """lm-evaluation-harness ``--log_samples`` output: a directory per model, a samples file per task
    (``acc`` 0/1 per ``doc_id``, lines in random order, 10% of the samples absent)."""
    rng = np.random.default_rng(seed)
    difficulty = rng.normal(size=(tasks, docs))
    for m in range(n_models):
        folder = out / f"org__model-{m:04d}"
        folder.mkdir(parents=True)
        skill = rng.normal()
        for t in range(tasks):
            ok = rng.random(docs) < 1.0 / (1.0 + np.exp(-(skill - difficulty[t])))
            kept = rng.permutation(np.flatnonzero(rng.random(docs) >= 0.1) if m else np.arange(docs))
            lines = [f'{{"doc_id": {d}, "filter": "none", "metrics": ["acc"], "acc": {float(ok[d])}}}' for d in kept]
            (folder / f"samples_task{t:02d}_2024-05-01T12-00-00.000001.jsonl").write_text("\n".join(lines) + "\n")


def harness_part(n_models: int, tasks: int, docs: int, seeds: int, memory: str) -> None:
    print(f"\n5. lm-evaluation-harness samples: {n_models} models x {tasks} tasks x {docs} docs (JSON lines); "
          f"fresh process per cell, {seeds} seed(s)")
    got: dict[str, list[dict[str, object]]] = {}
    for seed in range(seeds):
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "out"
            write_harness(n_models, tasks, docs, seed, out)
            got.setdefault("harness-memory", []).append(cell("harness-memory", out))
            got.setdefault("harness-whole", []).append(cell("harness-whole", out))
            got.setdefault("harness-stream", []).append(cell("harness-stream", out, memory))
            base = out.parent
            for kind in ("harness-whole", "harness-stream"):
                np.testing.assert_array_equal(np.load(base / f"{kind}-0-counts.npy"),
                                              np.load(base / "harness-memory-0-counts.npy"))
                np.testing.assert_allclose(np.load(base / f"{kind}-0-wins.npy"), np.load(base / "harness-memory-0-wins.npy"),
                                           rtol=1e-12, atol=1e-9)
    for kind, label in (("harness-memory", "in-memory sigma_l (samples read first)"),
                        ("harness-whole", "read_harness_samples + sigma_l (whole array)"),
                        ("harness-stream", f"InstanceSource(layout='harness-samples', memory='{memory}')")):
        seconds = [float(r["seconds"]) for r in got[kind]]
        print(f"   {label:<62} {spread(seconds)} s  peak RSS {max(float(r['rss_mib']) for r in got[kind]):6.0f} MiB")
    print("   matrices equal (counts exactly, wins to 1e-12)")


def _warm() -> None:
    import consensus.missing._dask_sums  # noqa: F401
    import consensus.missing._item_blocks  # noqa: F401


def run_cell(kind: str, folder: str, memory: str | None, workers: int) -> dict[str, object]:
    """One measurement in this (fresh) process: its seconds, its peak RSS, what it moved; the
    matrices are saved beside the folder for the parent to compare."""
    from consensus.missing._item_blocks import LAST_RUN

    out: dict[str, object] = {}
    if kind == "memory":  # the baseline: the array read first (not timed), then sigma_l in memory
        data = cs.read_instances(folder)
        start = time.perf_counter()
        res = cs.sigma_l(data)
    elif kind == "whole":  # the whole-array path from the files
        start = time.perf_counter()
        res = cs.sigma_l(cs.read_instances(folder))
    elif kind == "harness-memory":
        from consensus.formats.harness import read_harness_samples

        data = read_harness_samples(folder, metric="acc")
        start = time.perf_counter()
        res = cs.sigma_l(data)
    elif kind == "harness-whole":
        from consensus.formats.harness import read_harness_samples

        start = time.perf_counter()
        res = cs.sigma_l(read_harness_samples(folder, metric="acc"))
    elif kind == "harness-stream":
        start = time.perf_counter()
        res = cs.sigma_l(cs.missing.InstanceSource(folder, layout="harness-samples", metric="acc", memory=memory))
        out.update(LAST_RUN)
    elif kind == "stream":  # by item blocks, in-process
        start = time.perf_counter()
        res = cs.sigma_l(cs.missing.InstanceSource(folder, memory=memory))
        out.update(LAST_RUN)
    else:  # dask: a local cluster of `workers` processes, one thread each
        from distributed import Client, LocalCluster

        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.run(_warm)  # the package imported on every worker, as on a cluster in use: not timed
            start = time.perf_counter()
            res = cs.sigma_l(cs.missing.InstanceSource(folder, memory=memory), scheduler=client)
            out["seconds"] = time.perf_counter() - start
    out.setdefault("seconds", time.perf_counter() - start)
    out["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    np.save(Path(folder).parent / f"{kind}-{workers}-wins.npy", res.matrix.wins)
    np.save(Path(folder).parent / f"{kind}-{workers}-counts.npy", res.matrix.counts)
    return out


def cell(kind: str, folder: Path, memory: str | None = None, workers: int = 0) -> dict[str, object]:
    """:func:`run_cell` in a fresh process (its own peak RSS)."""
    command = [sys.executable, __file__, "--cell", kind, str(folder), "--workers-count", str(workers)]
    if memory:
        command += ["--memory", memory]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"cell {kind} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def same(folder: Path, kind: str, workers: int = 0) -> None:
    """The matrices of a cell equal the in-memory ones: counts exactly, wins to 1e-12 relative."""
    base = folder.parent
    np.testing.assert_array_equal(np.load(base / f"{kind}-{workers}-counts.npy"), np.load(base / "memory-0-counts.npy"))
    np.testing.assert_allclose(np.load(base / f"{kind}-{workers}-wins.npy"), np.load(base / "memory-0-wins.npy"),
                               rtol=1e-12, atol=1e-9)


def files_part(n: int, seeds: int, memory: str | None, use_dask: bool, workers: list[int]) -> None:
    print(f"\n2. files: {n} models, one Parquet file per model, rows in random order; fresh process per cell; "
          f"seconds min / median / max over {seeds} seeds")
    rows: dict[str, list[dict[str, object]]] = {}
    for seed in range(seeds):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp) / "logs"
            write_per_model(n, seed, folder)
            for kind in ("memory", "whole", "stream"):
                rows.setdefault(kind, []).append(cell(kind, folder, memory))
            same(folder, "whole")
            same(folder, "stream")
            if use_dask:
                for k in workers:
                    rows.setdefault(f"dask-{k}", []).append(cell("dask", folder, memory, k))
                    same(folder, "dask", k)
    base = statistics.median(float(r["seconds"]) for r in rows["memory"])

    def line(label: str, kind: str) -> None:
        got = rows[kind]
        seconds = [float(r["seconds"]) for r in got]
        print(f"   {label:<52} {spread(seconds)} s  {statistics.median(seconds) / base:5.2f}x  "
              f"peak RSS {max(float(r['rss_mib']) for r in got):6.0f} MiB", flush=True)

    line("in-memory sigma_l (baseline; array read first)", "memory")
    line("read_instances + sigma_l (the whole-array path)", "whole")
    line("sigma_l(InstanceSource(folder)) by item blocks", "stream")
    last = rows["stream"][-1]
    print(f"   item blocks: {int(last['rows']):,} rows, {int(last['blocks'])} blocks, "
          f"{int(last['spilled_bytes']) / 2**20:.0f} MiB spilled, memory setting {int(last['memory']) / 2**20:.0f} MiB; "
          "matrices equal to the in-memory ones (counts exactly)")
    if use_dask:
        stream = statistics.median(float(r["seconds"]) for r in rows["stream"])
        for k in workers:
            seconds = [float(r["seconds"]) for r in rows[f"dask-{k}"]]
            print(f"   dask, {k} worker(s) x 1 thread: {spread(seconds)} s, {statistics.median(seconds) / stream:5.2f}x "
                  f"the in-process item blocks (client peak RSS {max(float(r['rss_mib']) for r in rows[f'dask-{k}']):.0f} MiB)",
                  flush=True)
        blocks = max(workers)  # one block per worker thread, at the largest cluster
        # as packed between tasks: one system code per file and block, a uint8 task code, the id in
        # the smallest unsigned dtype (ids below ITEMS // TASKS), a float32 score
        row_bytes = 1 + int(np.min_scalar_type(ITEMS // TASKS).itemsize) + 4
        moved = int(last["rows"]) * row_bytes + blocks * 3 * n * n * 8
        print(f"   per block (one block per worker thread, {blocks} blocks): about {statistics.median(float(r['seconds']) for r in rows['memory']) / blocks:.2f} s "
              f"of kernel work on this machine; bytes moved between workers: about {moved / 2**20:,.0f} MiB "
              f"(rows once: {int(last['rows']) * row_bytes / 2**20:,.0f} MiB; N x N sums per block: "
              f"{3 * n * n * 8 / 2**20:,.0f} MiB)")


def big_part(sizes: list[int], seeds: int, memory: str) -> None:
    print(f"\n4. larger boards, streamed in-process (memory setting {memory}); fresh process per run, {seeds} seed(s)")
    for n in sizes:
        got = []
        for seed in range(seeds):
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp) / "logs"
                write_per_model(n, seed, folder)
                got.append(cell("stream", folder, memory))
        seconds = [float(r["seconds"]) for r in got]
        print(f"   {n:,} models x {ITEMS:,} items: {spread(seconds)} s, peak RSS "
              f"{max(float(r['rss_mib']) for r in got):,.0f} MiB, {int(got[-1]['spilled_bytes']) / 2**20:,.0f} MiB spilled, "
              f"{int(got[-1]['blocks'])} blocks", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes (a smoke run)")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--big-seeds", type=int, default=1)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--parts", default="1,2,4,5", help="which parts to run (default 1,2,4,5; 3 = 2 with Dask)")
    parser.add_argument("--memory", default=None, help="the memory setting of the streamed runs (default the package's)")
    parser.add_argument("--workers", default="1,2,4", help="Dask cluster sizes (part 3)")
    parser.add_argument("--cell", nargs=2, metavar=("KIND", "FOLDER"), help=argparse.SUPPRESS)
    parser.add_argument("--big-sizes", default="5000,10000")
    parser.add_argument("--workers-count", dest="workers_count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cell:
        print(json.dumps(run_cell(args.cell[0], args.cell[1], args.memory, args.workers_count)))
        return
    print(f"# {os.cpu_count()} CPUs, numpy {np.__version__}")
    parts = set(args.parts.split(","))
    use_dask = "3" in parts and not args.no_dask
    if use_dask:
        try:
            import dask.dataframe  # noqa: F401
            import distributed  # noqa: F401
        except ImportError:
            use_dask = False
            print("# dask/distributed not installed: part 3 skipped")
    if "1" in parts:
        kernel_part([100, 200] if args.quick else [200, 400, 1000, 2000], [100, 200] if args.quick else [200, 400],
                    args.seeds)
    if "2" in parts or use_dask:
        files_part(100 if args.quick else 2000, args.seeds, args.memory, use_dask,
                   [int(k) for k in args.workers.split(",")])
    if "5" in parts:
        harness_part(50 if args.quick else 500, 10, 100 if args.quick else 400, args.seeds, args.memory or "128MB")
    if "4" in parts:
        big_part([300, 500] if args.quick else [int(k) for k in args.big_sizes.split(",")], args.big_seeds,
                 args.memory or "512MB")


if __name__ == "__main__":
    main()
