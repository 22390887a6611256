"""Start-up time of the ``consensus`` command: ``--version`` and ``--help`` against a full import.

The baseline is ``python -c "import consensus.rules"`` (what any real subcommand pays:
pandas, scipy, the rules); the ratio shows how much ``--version`` / ``--help`` save.
Run: ``python benchmarks/cli_startup.py [--repeats 5]``. Prints min / median / max seconds.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

CASES = {
    "consensus --version": [sys.executable, "-m", "consensus", "--version"],
    "consensus --help": [sys.executable, "-m", "consensus", "--help"],
    "consensus rank --help": [sys.executable, "-m", "consensus", "rank", "--help"],
    "baseline: import consensus.rules": [sys.executable, "-c", "import consensus.rules"],
    "baseline: python -c pass": [sys.executable, "-c", "pass"],
}


def _time(argv: list[str], repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    results = {name: _time(argv, args.repeats) for name, argv in CASES.items()}
    base = statistics.median(results["baseline: import consensus.rules"])
    print("| command | min s | median s | max s | median / full import |")
    print("|---|---|---|---|---|")
    for name, times in results.items():
        med = statistics.median(times)
        print(f"| {name} | {min(times):.3f} | {med:.3f} | {max(times):.3f} | {med / base:.2f} |")


if __name__ == "__main__":
    main()
