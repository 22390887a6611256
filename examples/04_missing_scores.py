"""Missing scores: rank systems that were not all run on every task (Himmi et al. 2023).

A leaderboard with holes: ``delta`` skipped the two hardest tasks and ``eps`` two others.
``delta`` is beaten by ``alpha`` and ``beta`` on every task it ran, yet the mean of the
available scores ranks it first, because its mean leaves out the low scores of the hard tasks.
The compatible-ranking imputation (``sigma_l``) turns each task into a partial ranking,
places an unscored system uniformly among the scored ones, and ranks by Borda. Hoeffding intervals
then say which pairwise wins are backed by enough direct comparisons, and the instance-level
part ranks systems from per-question scores in one or two levels.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import consensus as cs

NAN = float("nan")

SCORES = pd.DataFrame(
    {
        "qa": [84.0, 82.0, 80.0, 81.0, 78.0],
        "nli": [74.0, 73.0, 75.0, 71.0, 69.0],
        "summ": [44.0, 42.0, 41.0, 40.0, NAN],
        "reasoning": [38.0, 36.0, 33.0, NAN, 31.0],  # hard: everybody scores low
        "code": [30.0, 28.0, 27.0, NAN, 24.0],  # hard too
        "translation": [62.0, 61.0, 58.0, 59.0, 57.0],
        "ner": [92.0, 91.0, 90.0, 89.0, NAN],
        "error_rate": [8.0, 9.0, 11.0, 10.0, 12.0],  # lower is better
    },
    index=["alpha", "beta", "gamma", "delta", "eps"],
)

# instance level: 0/1 correctness per question, some questions not run by some systems
ANSWERS = [
    # system, task, question, correct
    ("alpha", "arith", 1, 1), ("beta", "arith", 1, 1), ("gamma", "arith", 1, 0),
    ("alpha", "arith", 2, 1), ("beta", "arith", 2, 0), ("gamma", "arith", 2, 0),
    ("alpha", "arith", 3, 0), ("beta", "arith", 3, 1),
    ("alpha", "trivia", 1, 0), ("beta", "trivia", 1, 1), ("gamma", "trivia", 1, 1),
    ("beta", "trivia", 2, 1), ("gamma", "trivia", 2, 1),
    ("alpha", "trivia", 3, 1), ("gamma", "trivia", 3, 0),
]  # fmt: skip


def main() -> None:
    lb = cs.Leaderboard.from_frame(SCORES, lower_is_better=["error_rate"])
    print(lb.describe())
    print()

    imputed = cs.impute_pairwise(lb)  # sigma_l: Borda on the summed compatible-ranking matrices
    mean = cs.mean_baseline(lb)
    print("mean of available scores:", " > ".join(mean.order))
    print("sigma_l (imputed Borda):  ", " > ".join(imputed.order))
    print()
    print("imputed pairwise matrix M (row above column, summed over tasks):")
    print(imputed.matrix.to_frame().round(2).to_string())
    print()
    print("direct comparisons z:")
    print(imputed.matrix.to_frame("counts").astype(int).to_string())
    print()

    conf = cs.pairwise_confidence(lb, delta=0.1)
    pairs = conf.to_frame()
    print("pairs won with confidence 0.9 (Hoeffding, direct comparisons only):")
    print(pairs[pairs["beats"]].round(3).to_string(index=False))
    print()

    if hasattr(cs, "kemeny"):
        exact = cs.kemeny(imputed.matrix)
        print("exact Kemeny ranking of the imputed profile:", " > ".join(exact.order))
        print()

    answers = pd.DataFrame(ANSWERS, columns=["system", "task", "instance", "score"])
    data = cs.InstanceScores.from_long(answers)
    print(data.describe())
    one, two = cs.sigma_l(data), cs.sigma_2l(data)
    print("one level (every question a ranking):", one.to_frame()["score"].round(3).to_dict())
    print("two levels (per-task Borda scores):")
    print(two.task_scores.round(3).to_string())
    print("two levels ranking:", two.ranking)
    print("mean of per-task accuracies:", cs.mean_baseline(data).scores.round(3).to_dict())
    print("z on questions:", np.asarray(one.counts, dtype=int).tolist())


if __name__ == "__main__":
    main()
