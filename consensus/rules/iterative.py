"""Iterative rules: Threshold (fewest last places) and Baldwin (repeated Borda elimination).

References
----------
.. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.2 and appendix A.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Unpack

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..hints import hinted, option
from ..results import RuleResult
from .declaration import rule
from .engine import run_rule
from .imputed import expected_position_counts
from .positional import Ties, check_ties, tie_ranges
from .spec import (
    SCORE_TOL,
    CoreOutput,
    RuleSpec,
    SharedOptions,
    complete_values,
    pairwise_of,
)

__all__ = ["threshold", "baldwin"]


def _position_weights(lb: Leaderboard, ties: str) -> np.ndarray:
    """``D[i, p - 1]``: the weight of the tasks placing system ``i`` at position ``p`` (complete scores)."""
    values = complete_values(lb)
    n, m = values.shape
    w = lb.weight_array
    first, last = tie_ranges(values)
    rows = np.repeat(np.arange(n), m)
    wt = np.tile(w, n)
    density = np.zeros((n, n + 1))
    if ties == "average":  # a tie group spreads its weight evenly over its positions
        share = wt / (last - first + 1).ravel()
        np.add.at(density, (rows, first.ravel() - 1), share)
        np.add.at(density, (rows, last.ravel()), -share)
        density = np.cumsum(density, axis=1)
    else:
        np.add.at(density, (rows, (first if ties == "min" else last).ravel() - 1), wt)
    return density[:, :n]


def _threshold_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    ties = opts["ties"]
    n = lb.n_systems
    w = lb.weight_array
    # with `impute`: the expected weights over the compatible complete rankings of each task
    density = expected_position_counts(lb, ties) if impute else _position_weights(lb, ties)
    upto = np.cumsum(density, axis=1)  # upto[i, L-1]: weight placing i in positions 1..L
    # Vector k (k = 1..n-1) has n-k ones: (1,...,1,0), (1,...,1,0,0), ..., (1,0,...,0).
    table = upto[:, n - 2 :: -1] if n >= 2 else np.zeros((n, 0))
    scale = max(float(w.sum()), 1.0)
    key = np.round(table / (scale * SCORE_TOL))  # equal within the tolerance -> equal keys
    order = np.lexsort((-key[:, ::-1]).T) if key.shape[1] else np.arange(n)
    systems = lb.systems
    groups: list[list[int]] = []
    used = 1
    for pos, i in enumerate(order.tolist()):
        if pos and np.array_equal(key[i], key[order[pos - 1]]):
            groups[-1].append(i)
            continue
        if pos:
            diff = np.nonzero(key[i] != key[order[pos - 1]])[0]
            used = max(used, int(diff[0]) + 1)
        groups.append([i])
    ranking = tuple(tuple(systems[i] for i in sorted(g)) for g in groups)
    used = min(used, table.shape[1])
    labels = [_vector_label(n, n - k) for k in range(1, used + 1)]
    frame = pd.DataFrame(table[:, :used], index=pd.Index(systems, dtype=object), columns=labels)
    details: dict[str, Any] = {"vector_scores": frame, "vectors_used": used}
    if impute:
        details["imputation"] = "expected position counts over the compatible complete rankings of each task"
    return CoreOutput(table[:, 0], details, ranking=ranking)


def _vector_label(n: int, ones: int) -> str:
    if n <= 10:
        return "(" + ", ".join(["1"] * ones + ["0"] * (n - ones)) + ")"
    return f"(1 x {ones}, 0 x {n - ones})"


def _baldwin_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    ties = opts["ties"]
    if impute:  # the imputed pairwise matrix: tied and unscored pairs already split half and half
        if ties != "average":
            raise InvalidOptionError(hinted(
                "rule 'baldwin': {} needs ties='average': the imputed pairwise matrix already splits every tied or "
                "unscored pair half and half", option("missing", "impute"),
            ))
        pref = pairwise_of(lb, True).wins
    else:
        complete_values(lb)
        p = pairwise_of(lb, False)
        pref = {"average": p.wins + p.ties / 2.0, "min": p.wins + p.ties, "max": p.wins}[ties]
    n = lb.n_systems
    systems = lb.systems
    alive = np.ones(n, dtype=bool)
    score = pref.sum(axis=1)  # Borda among the survivors: sum of preferences over survivors
    tol = SCORE_TOL * max(1.0, float(lb.weights.sum()) * (n - 1))
    out_round = np.zeros(n)
    rounds: list[dict[str, Any]] = []
    r = 0
    while alive.sum() > 1:
        r += 1
        live = np.nonzero(alive)[0]
        s = score[live]
        scores_r = {systems[i]: float(v) + 0.0 for i, v in zip(live.tolist(), s.tolist())}
        lo = float(s.min())
        if float(s.max()) - lo <= tol:  # every survivor ties: they all win
            rounds.append({"round": r, "scores": scores_r, "eliminated": ()})
            r -= 1
            break
        out = live[s <= lo + tol]
        out_round[out] = r
        rounds.append({"round": r, "scores": scores_r, "eliminated": tuple(systems[i] for i in out)})
        alive[out] = False
        score = score - pref[:, out].sum(axis=1)
    out_round[alive] = r + 1
    order = tuple(systems[i] for i in np.nonzero(alive)[0])
    details: dict[str, Any] = {"rounds": tuple(rounds), "survivors": order}
    if impute:
        details["imputation"] = "Borda among the survivors: row sums of the imputed pairwise matrix restricted to them"
    return CoreOutput(out_round, details)


_SPECS: dict[str, RuleSpec] = {
    "threshold": RuleSpec("threshold", "iterative", _threshold_core, impute=True),
    "baldwin": RuleSpec("baldwin", "iterative", _baldwin_core, impute=True),
}


@rule(
    _SPECS["threshold"],
    linear='it eliminates and re-counts, so its score is not a fixed weighted sum of per-task points',
)
def threshold(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Threshold: fewest (weighted) last places wins; ties broken by the last-k places.

    Vector k = 1, ..., |M|-1 gives one point for each of the first |M|-k positions:
    (1, ..., 1, 0), (1, ..., 1, 0, 0), ..., (1, 0, ..., 0). The paper applies vector k+1
    only to the systems tied at the top under vectors 1..k. This function ranks *all*
    systems by the same lexicographic comparison: by their score vector under
    (1, ..., 1, 0), then (1, ..., 1, 0, 0), ...; so the winners are the paper's, and the
    rest of the ranking follows the same principle. Systems equal under every vector stay
    tied.

    ``scores`` is the score under the first vector (1, ..., 1, 0): the weight of the tasks
    where the system is not last. ``details["vector_scores"]`` holds the scores under the
    vectors the ranking needed (``details["vectors_used"]`` of them). With
    ``missing="impute"`` the weights of the tasks placing a system at each position are
    their expectations over the complete rankings compatible with each task
    (:func:`consensus.missing._impute.position_distribution`), compared under SCORE_TOL.

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``, ``ranking`` and ``details`` as described above.

    Raises
    ------
    {positional_raises}

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.2 and appendix A.1.
    .. [2] Aleskerov, Chistyakov and Kalyagin, "The threshold aggregation", Economics
       Letters 107(2), 2010.

    Examples
    --------
    >>> import consensus as cs
    >>> res = threshold(cs.load_example("votenrank-toy"))
    >>> res.scores.tolist(), res.winners
    ([2.0, 4.0, 5.0, 4.0], ('C',))
    >>> res.ranking
    (('C',), ('B',), ('D',), ('A',))
    """
    return run_rule(_SPECS["threshold"], data, {"ties": check_ties(ties, "threshold")}, options)


@rule(
    _SPECS["baldwin"],
    linear='it eliminates and re-counts, so its score is not a fixed weighted sum of per-task points',
)
def baldwin(data: Leaderboard, *, ties: Ties = "average", **options: Unpack[SharedOptions]) -> RuleResult:
    """Baldwin: repeatedly eliminate the lowest Borda score, recomputed among the survivors.

    Every round computes Borda scores with the vector (k-1, ..., 1, 0) over the k surviving
    systems and eliminates the system(s) with the lowest score; systems tied at the lowest
    score are eliminated together. The procedure stops when one system is left or all
    survivors tie (they are all winners). The ranking is the reverse elimination order:
    systems eliminated in the same round are tied.

    ``scores`` is the elimination round (1 = eliminated first); the survivors get one more
    than the last elimination round. ``details["rounds"]`` records each round's Borda
    scores and eliminated systems (Table 7 of the paper). With ``missing="impute"`` the
    preferences are the imputed pairwise matrix of the whole leaderboard
    (:func:`consensus.missing._impute.impute_pairwise`, ``ties="average"`` only) and Borda among the
    survivors is its row sums restricted to them (the matrix is not re-imputed on the
    survivors; on complete data both are the same).

    Parameters
    ----------
    data : Leaderboard
    ties : {"average", "min", "max"}, default="average"
        {ties}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores`` and ``details["rounds"]`` as above; ``details["survivors"]``: the
        systems never eliminated.

    Raises
    ------
    {positional_raises}

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.2 and appendix A.1, Table 7.

    Examples
    --------
    >>> import consensus as cs
    >>> res = baldwin(cs.load_example("votenrank-toy"))
    >>> res.winners, [r["eliminated"] for r in res.details["rounds"]]
    (('B',), [('A',), ('D',), ('C',)])
    >>> dict(res.details["rounds"][1]["scores"])
    {'B': 6.0, 'C': 5.0, 'D': 4.0}
    """
    return run_rule(_SPECS["baldwin"], data, {"ties": check_ties(ties, "baldwin")}, options)


