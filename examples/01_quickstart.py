"""Quick start: a real-looking leaderboard export, read through the API and analyzed.

The export has a rank and a URL column next to the scores, two tasks whose cells hold two
metrics ("93.9/91.8" = F1/accuracy), and two lower-is-better metrics (latency, perplexity).
We read it with ``read_leaderboard``, then ask: who wins by majority, what is the exact
Kemeny ranking, and how far do the mean, Borda and friends land from it?
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import consensus as cs

EXPORT = """\
rank,model,url,MRPC,STS-B,CoLA,SST-2,latency_ms,perplexity
1,titan-xl,https://example.org/titan,93.9/91.8,92.9/92.6,71.5,97.5,48,3.9
2,aurora,https://example.org/aurora,92.6/90.1,93.1/92.8,69.4,97.1,21,4.4
3,brisk-base,https://example.org/brisk,91.0/88.2,92.4/92.1,70.8,96.2,12,4.9
4,condor,https://example.org/condor,93.2/90.9,91.9/91.5,68.1,96.8,25,4.1
5,delta-lite,https://example.org/delta,89.5/86.0,90.2/89.9,64.0,95.0,7,5.8
"""


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "leaderboard.csv"
        path.write_text(EXPORT, encoding="utf-8")
        lb = cs.read_leaderboard(
            path,
            index_col="model",
            exclude=["rank", "url"],
            split_composite=True,  # "93.9/91.8" -> MRPC[1], MRPC[2], each half the task's weight
            lower_is_better=["latency_ms", "perplexity"],
        )
    print(lb.describe())
    print()

    summary = cs.majority_summary(lb)
    print("Condorcet winner:", summary.condorcet_winner or "none")
    print("Smith set:", ", ".join(summary.smith_set))

    comparison = cs.compare_rules(lb, rules=["mean", "borda", "copeland", "plurality"])
    kemeny = comparison.kemeny
    print("exact Kemeny ranking:", " > ".join(kemeny.order), f"(objective {kemeny.objective:g}, {kemeny.status})")
    print()
    columns = ["winner", "kendall_tau", "objective", "gap", "top1", "top3"]
    print(comparison.table[columns].round(3).to_string())
    print()
    print("The mean adds milliseconds and perplexities to percentages, so latency decides it;")
    print("rank-based rules and the exact Kemeny ranking only use each task's order.")
    print()
    print("rank changes versus the mean (positive = moved up):")
    print(comparison.rank_changes().to_string())


if __name__ == "__main__":
    main()
