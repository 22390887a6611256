"""Reading wide files: seconds and microseconds per cell from 1,000 to 50,000 columns.

A leaderboard read by ``read_leaderboard`` (the table as given, ``infer=False``, and with every
column's role inferred, the default) against ``pandas.read_csv`` of the same file in the same
run (the baseline: what any reader pays). Before the fix of issue 31 the package deep-copied
its record of where each column came from on every column access, so reading n columns cost
n^2 (20 x 10,000: 31 s), and pandas' ``set_index`` on the wide frame deleted the name column
block by block (50,000 columns: 42.7 s); the time per cell should now stay flat within 2x across
the sizes.

Seeds 0-2 (``--seeds``), min / median / max; 20 systems (``--rows``).

Run: ``python benchmarks/wide_files.py [--columns 1000,10000,50000] [--rows 20] [--seeds 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import warnings
from pathlib import Path


def _board(rows: int, columns: int, seed: int, folder: Path):
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    frame = pd.DataFrame(rng.random((rows, columns)).round(4), columns=[f"task-{j}" for j in range(columns)],
                         index=pd.Index([f"system-{i}" for i in range(rows)], name="system"))
    path = folder / f"wide-{rows}x{columns}-{seed}.csv"
    frame.to_csv(path)
    return path


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--columns", default="1000,10000,50000")
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--seeds", type=int, default=3)
    args = parser.parse_args()
    import pandas as pd

    import consensus as cs

    warnings.simplefilter("ignore")
    print(f"{'columns':>8}  {'read_csv s':>22}  {'as given s':>22}  {'inferred s':>22}  {'us/cell given':>13}  "
          f"{'us/cell inferred':>16}  {'ratio to read_csv':>17}")
    per_cell = []
    with tempfile.TemporaryDirectory() as tmp:
        for columns in (int(c) for c in args.columns.split(",")):
            base, given, inferred = [], [], []
            for seed in range(args.seeds):
                path = _board(args.rows, columns, seed, Path(tmp))
                base.append(_timed(lambda: pd.read_csv(path, index_col=0)))
                given.append(_timed(lambda: cs.read_leaderboard(path, infer=False)))
                inferred.append(_timed(lambda: cs.read_leaderboard(path)))
            cells = args.rows * columns

            def spread(xs: list[float]) -> str:
                return f"{min(xs):.2f}/{statistics.median(xs):.2f}/{max(xs):.2f}"

            us_given = statistics.median(given) / cells * 1e6
            us_inferred = statistics.median(inferred) / cells * 1e6
            per_cell.append(us_inferred)
            print(f"{columns:>8}  {spread(base):>22}  {spread(given):>22}  {spread(inferred):>22}  {us_given:>13.1f}  "
                  f"{us_inferred:>16.1f}  {statistics.median(inferred) / statistics.median(base):>17.1f}")
    print(f"time per cell (inferred), largest / smallest over the sizes: {max(per_cell) / min(per_cell):.2f} "
          "(min/median/max over the seeds; flat means linear in the cells)")


if __name__ == "__main__":
    main()
