"""Can my system win? Task weights that make a system the Condorcet winner (Rofin et al. 2023).

A seven-task leaderboard where the official (uniform) weighting makes ``titan`` the Condorcet
winner. The team behind ``brisk`` asks: is there *any* reasonable weighting under which
``brisk`` beats every other system head to head? ``condorcet_weights`` answers with a linear
program: the weights that make it win by the largest margin, weights under user bounds, the
winning weighting closest to the official one, and, when it can never win, a certificate (a
blend of rivals, plus multipliers of the user's bounds) that we check by hand below.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import consensus as cs

SCORES = pd.DataFrame(
    {
        "qa": [81.2, 79.5, 80.1, 77.0, 78.5],
        "nli": [90.4, 88.1, 89.0, 87.3, 89.9],
        "summ": [41.0, 43.2, 40.1, 39.5, 40.0],
        "code": [55.0, 52.1, 57.3, 50.2, 54.0],
        "math": [62.0, 64.5, 60.2, 58.8, 61.0],
        "safety": [0.91, 0.88, 0.90, 0.86, 0.89],
        "latency_ms": [48.0, 21.0, 35.0, 30.0, 40.0],
    },
    index=["titan", "brisk", "aurora", "condor", "delta"],
)
GROUPS = {"reasoning": ["qa", "nli", "math"], "generation": ["summ", "code"], "cost": ["latency_ms"]}


def weights_text(weights: pd.Series) -> str:
    return ", ".join(f"{t}={w:.3f}" for t, w in weights.items() if w > 1e-9)


def advantage_over(lb: cs.Leaderboard, system: str, blend: pd.Series) -> pd.Series:
    """sum over rivals y * R(system, rival, task): +1 win / -1 loss / 0 tie, per task."""
    oriented = lb.oriented()
    return sum(y * np.sign(oriented.loc[system] - oriented.loc[rival]) for rival, y in blend.items())


def main() -> None:
    lb = cs.Leaderboard.from_frame(SCORES, lower_is_better=["latency_ms"], groups=GROUPS)
    print("Condorcet winner under the official uniform weights:", cs.condorcet_winner(lb))

    # 1. Can brisk win at all? Maximize its smallest weighted margin over the rivals.
    res = cs.condorcet_weights(lb, "brisk")
    print(f"\n1. brisk can win: {res.feasible}; best margin {res.margin:.3f} (proven bound {res.bound:.3f})")
    print("   weights:", weights_text(res.weights))

    # 2. ... with reasonable weights: no task above 30%, reasoning at least 40%, cost at most 10%.
    res = cs.condorcet_weights(
        lb, "brisk", constraints=cs.Constraints(max_weight=0.3, group_bounds={"reasoning": (0.4, None), "cost": (None, 0.1)})
    )
    print(f"\n2. with bounds: feasible {res.feasible}; margin {res.margin:.3f}")
    print("   weights:", weights_text(res.weights))

    # 3. How far from the official weighting must we move? (L1 distance; 0 = no change needed)
    res = cs.condorcet_weights(lb, "brisk", nearest_to="leaderboard")
    print(f"\n3. nearest winning weights: L1 distance {res.distance:.4f} from the official weights")
    print("   weights:", weights_text(res.weights))
    print("   brisk wins the rebuilt majority graph:", cs.majority.is_condorcet_winner(lb.with_weights(res.weights.to_dict()), "brisk"))

    # 4. brisk wins on summ, math and latency; cap each at 15% and it can never win. Why?
    caps = {"summ": 0.15, "math": 0.15, "latency_ms": 0.15}
    res = cs.condorcet_weights(lb, "brisk", constraints=cs.Constraints(max_weight=caps))
    cert = res.certificate
    print(f"\n4. with summ, math, latency capped at 0.15: feasible {res.feasible}")
    print("  ", cert.statement)
    # The proof by hand: the advantage over the rival blend, minus the capped tasks' multipliers,
    # is at most `offset` on every task; any admissible weights then give a margin of at most
    # offset + sum(multiplier * cap).
    adv = advantage_over(lb, "brisk", cert.rivals)
    mu = pd.Series({key.split("[")[1].split("]")[0]: m for key, m in cert.multipliers.items()})
    slack = adv.sub(mu, fill_value=0.0)
    bound = slack.max() + sum(m * caps[t] for t, m in mu.items())
    print(f"   blend {cert.summary()}; multipliers {mu.to_dict()}")
    print(f"   bound by hand: {slack.max():.2f} + {bound - slack.max():.2f} = {bound:.2f} <= 0: never wins")

    # 5. condor can never win at all: brisk is better on every task.
    res = cs.condorcet_weights(lb, "condor")
    print("\n5.", res.certificate.statement)
    print("   advantage per task:", advantage_over(lb, "condor", res.certificate.rivals).to_dict())

    # 6. delta can tie everyone (the paper's weak condition) but never beat everyone.
    weak = cs.condorcet_weights(lb, "delta", strict=False)
    strict = cs.condorcet_weights(lb, "delta")
    print(f"\n6. delta weakly: {weak.feasible} with {weights_text(weak.weights)}; strictly: {strict.feasible}")
    print("   blend:", strict.certificate.summary(), "advantage:",
          advantage_over(lb, "delta", strict.certificate.rivals).to_dict())

    # 7. Every system at once: who is prospective, how far from the official weights, and the proofs.
    table = cs.prospective(lb).to_frame()
    print("\n7. prospective systems")
    print(table[["system", "feasible", "strict_feasible", "margin", "distance", "certificate"]].to_string(index=False))


if __name__ == "__main__":
    main()
