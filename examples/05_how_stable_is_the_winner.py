"""How stable is the winner? Winning weights under Borda and the mean, and the stability radius.

A twelve-system, eight-task leaderboard with official weights (the two long-form tasks count
double). The maintainers publish the mean and, like MTEB, a Borda rank. Three questions:

1. Which systems could win the Borda rank under *some* task weighting, and which never can
   (with a certificate we check by hand)?
2. How far are the official weights from a weighting that changes the mean's winner, or the
   top 3? In L1, in L-infinity, and in tasks removed.
3. Do the answers survive bounds on the weights (no task above 25%)?
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd

import consensus as cs
from consensus.rules.linear import linear_points


def make_board() -> cs.Leaderboard:
    rng = np.random.default_rng(7)
    systems = [f"model-{c}" for c in "ABCDEFGHIJKL"]
    tasks = ["qa", "nli", "summ", "code", "math", "safety", "long_qa", "long_summ"]
    quality = np.linspace(1.0, 0.0, len(systems))[:, None]
    scores = 60 + 20 * quality + rng.normal(scale=4.0, size=(len(systems), len(tasks)))
    frame = pd.DataFrame(scores.round(1), index=systems, columns=tasks)
    return cs.Leaderboard.from_frame(frame, weights={"long_qa": 2.0, "long_summ": 2.0})


def main() -> None:
    lb = make_board()
    print("official weights:", {t: round(w, 3) for t, w in lb.normalized_weights.items()})
    print("mean winner:", cs.rank(lb, "mean").winners, " Borda winner:", cs.rank(lb, "borda").winners)

    # 1. Who could win Borda under some weighting?
    prospective = cs.prospective(lb, rule="borda")
    frame = prospective.to_frame()
    print("\n1. can score strictly highest under Borda:", ", ".join(prospective.strict_winners))
    never = frame[~frame["strict_feasible"]]
    print(f"   {len(never)} never can; e.g. {never.iloc[0]['system']}: certificate {never.iloc[0]['certificate']}")
    res = prospective.results[never.iloc[0]["system"]]
    # check the certificate by hand: the blend's Borda points are >= the system's on every task
    points = linear_points(lb, "borda", {"ties": "average"}, False).points
    i = lb.system_index(res.system)
    advantage = [
        sum(Fraction(y) * (Fraction(points[i, k]) - Fraction(points[lb.system_index(r), k]))
            for r, y in res.certificate.rival_mix.items())
        for k in range(lb.n_tasks)
    ]
    print(f"   by hand: its largest advantage over the blend on any task is {float(max(advantage)):.3g} <= 0:",
          max(advantage) <= 0, "| res.verify(lb):", res.verify(lb))

    # 2. How far from changing the mean's winner, and the top 3?
    for target in ("winner", "top3"):
        sens = cs.weight_sensitivity(lb, rule="mean", target=target)
        print(f"\n2. {sens.explanation}")
        moved = sens.to_frame()
        moved = moved[moved["change_l1"].abs() > 0]["change_l1"].round(4)
        print("   nearest L1 change per task:", moved.to_dict())
        print(f"   pairs {sens.options['n_pairs']}, LPs solved {sens.options['n_lps']}, skipped {sens.options['n_pruned']}")

    # 3. The same with no task above 25% of the weight.
    capped = cs.weight_sensitivity(lb, rule="borda", constraints=cs.Constraints(max_weight=0.25))
    free = cs.weight_sensitivity(lb, rule="borda")
    print(f"\n3. Borda winner's L1 radius: {free.l1.distance:.4g} unconstrained, "
          f"{capped.l1.distance:.4g} with max_weight=0.25 (never smaller: {capped.l1.distance >= free.l1.distance - 1e-12})")


if __name__ == "__main__":
    main()
