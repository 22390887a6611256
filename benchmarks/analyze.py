"""Time ``consensus analyze`` on realistic boards, with and without ``--plot``.

Boards: 100 x 14 and 200 x 20, latent quality plus task noise, 20% empty cells (the generator of
``tests/messy_exports.py``), three seeds each. Each run is the installed command in a fresh
process, as a user runs it (start-up included). The baseline of each row is the same board
without ``--plot`` in the same run, so the ratio shows what the figures cost.

Run: ``python benchmarks/analyze.py [--seeds 3] [--sizes 100x14,200x20]``.
Prints min / median / max seconds over the seeds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1] / "tests"))  # after the package: tests/solvers must not shadow solvers
from messy_exports import board  # noqa: E402


def _run(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"failed: {' '.join(argv)}\n{done.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--sizes", default="100x14,200x20")
    args = parser.parse_args()
    sizes = [tuple(int(x) for x in s.split("x")) for s in args.sizes.split(",")]
    print("| board | --plot | min s | median s | max s | median / without --plot | report lines (median) |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for n, t in sizes:
            times: dict[bool, list[float]] = {False: [], True: []}
            lines: list[int] = []
            for seed in range(args.seeds):
                path = Path(tmp) / f"board_{n}x{t}_{seed}.csv"
                board(n, t, seed=seed).to_csv(path, index=False)
                base = [sys.executable, "-m", "consensus", "analyze", str(path), "--index-col", "Model", "--quiet"]
                times[False].append(_run(base))
                out = subprocess.run(base, capture_output=True, text=True).stdout
                lines.append(len(out.splitlines()))
                times[True].append(_run(base + ["--plot", str(Path(tmp) / f"p{seed}.png")]))
            ref = statistics.median(times[False])
            for plot in (False, True):
                ts = times[plot]
                med = statistics.median(ts)
                print(f"| {n} x {t} | {'yes' if plot else 'no'} | {min(ts):.2f} | {med:.2f} | {max(ts):.2f} "
                      f"| {med / ref:.2f} | {statistics.median(lines)} |")


if __name__ == "__main__":
    main()
