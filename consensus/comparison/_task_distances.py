"""Rankings against the tasks: each task's ranking, the Kemeny objective of any ranking, task distances.

A leaderboard's tasks are voters, each ranking the systems it scores. These functions
measure a consensus ranking against them: the Kemeny objective of a ranking with ties
(:func:`ranking_objective`), its total Kendall distance to the task rankings
(:func:`task_distance`), and how much the tasks disagree among themselves
(:func:`task_dispersion`, Colombo et al. 2022, appendix C). The pairwise conventions are
those of :mod:`consensus.comparison._distances`.

References
----------
.. [1] Colombo et al., "What are the best systems? New perspectives on NLP benchmarking",
   NeurIPS 2022, sec. 3.4 and appendix C (dispersion).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import COMMON, fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, UnknownSystemError
from ..majority._inputs import as_pairwise
from ..majority._pairwise import PairwiseMatrix, pairwise
from ._distances import (
    Tiers,
    as_tiers,
    check_penalty,
    kendall_tau_distance,
    tier_index,
    tier_systems,
)

__all__ = ["task_rankings", "rank_vector", "ranking_objective", "task_distance", "task_distances", "task_dispersion"]


def task_rankings(table: Leaderboard) -> dict[str, Tiers]:
    """The ranking each task induces on the systems it scores (exact score ties tie).

    Systems without a score on a task are left out of that task's ranking; ties are
    exact, like :func:`consensus.pairwise` (lower-is-better tasks are oriented). Within a
    tie group, systems keep leaderboard order.

    Parameters
    ----------
    table : Leaderboard
        The scores.

    Returns
    -------
    dict of str to tuple of tuple of str
        Task -> its ranking as tie groups, best first, in task order (an empty tuple for a
        task that scores no system).

    Examples
    --------
    >>> import consensus as cs
    >>> task_rankings(cs.load_example("votenrank-toy"))["t2"]
    (('A',), ('C',), ('D',), ('B',))
    """
    result: dict[str, Tiers] = {}
    values = table.values
    for j, task in enumerate(table.tasks):
        col = values[:, j]
        scored = [i for i in range(len(col)) if not math.isnan(col[i])]
        scored.sort(key=lambda i: (-col[i], i))
        tiers: list[list[str]] = []
        last = None
        for i in scored:
            if last is not None and col[i] == last:
                tiers[-1].append(table.systems[i])
            else:
                tiers.append([table.systems[i]])
            last = col[i]
        result[task] = tuple(tuple(t) for t in tiers)
    return result


def rank_vector(pairs: PairwiseMatrix, ranking: Any) -> np.ndarray:
    """Tie-group index of every system of `pairs` under `ranking`, in the matrix's system order.

    Parameters
    ----------
    pairs : PairwiseMatrix
        Fixes the systems and their order.
    ranking : ranking
        See :func:`as_tiers`; must rank every system of `pairs` and no other.

    Returns
    -------
    numpy.ndarray of int64
        ``r[i]``: 0-based index of the tie group of ``pairs.systems[i]`` (0 = best), so
        ``r[i] < r[j]`` means ``i`` is ranked above ``j`` and equal values mean a tie.

    Raises
    ------
    UnknownSystemError
        If `ranking` names a system that is not in `pairs`.
    InvalidOptionError
        If `ranking` leaves out a system of `pairs`, or is malformed (see :func:`as_tiers`).

    Examples
    --------
    >>> import consensus as cs
    >>> rank_vector(cs.pairwise(cs.load_example("votenrank-toy")), ["B", ("C", "D"), "A"]).tolist()
    [2, 0, 1, 1]
    """
    tiers = as_tiers(ranking)
    index = tier_index(tiers)
    missing = [s for s in pairs.systems if s not in index]
    extra = [s for s in index if s not in set(pairs.systems)]
    if extra:
        raise UnknownSystemError(extra[0], pairs.systems, "the ranking")
    if missing:
        raise InvalidOptionError(
            f"the ranking leaves out system(s) {', '.join(repr(s) for s in missing[:5])}; rank every system"
        )
    return np.array([index[s] for s in pairs.systems], dtype=np.int64)


def ranking_objective(data: Any, ranking: Any) -> float:
    """The Kemeny objective of a ranking, ties included: task weight it disagrees with.

    Placing ``j`` above ``i`` costs ``preferences[i, j]`` (the weight of the tasks where
    ``i`` beats ``j``, plus half the weight of the tasks where they tie). A pair the
    ranking ties costs half of the weight comparing the two systems: the expected cost of
    a uniformly random tie-breaking. So a ranking with ties is never better than the
    Kemeny optimum, and for a strict ranking this is the usual Kemeny objective.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        Anything :func:`consensus.majority._inputs.as_pairwise` accepts.
    ranking : ranking
        Must rank every system of `data` (see :func:`as_tiers`).

    Returns
    -------
    float
        The (expected) task weight the ranking disagrees with.

    Raises
    ------
    InvalidOptionError
        If `data` is not a supported input, or `ranking` leaves out a system or is malformed.
    UnknownSystemError
        If `ranking` names a system that is not in `data`.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> ranking_objective(toy, ["B", "C", "D", "A"])
    12.0
    >>> ranking_objective(toy, ["B", ("C", "D"), "A"])  # C-D tied: half of their 5 tasks
    12.5
    """
    p = as_pairwise(data)
    r = rank_vector(p, ranking)
    pref = p.preferences
    above = r[:, None] < r[None, :]  # above[i, j]: i placed above j
    tied = r[:, None] == r[None, :]
    np.fill_diagonal(tied, False)
    cost = float((pref.T * above).sum()) + 0.5 * float(((pref + pref.T) * np.triu(tied, k=1)).sum())
    return cost + 0.0


@fill_doc(COMMON)
def task_distance(data: Any, ranking: Any, *, tie_penalty: float = 0.5) -> float:
    """Weighted sum of Kendall distances from a ranking to the task rankings.

    ``sum_t w_t d(sigma, sigma_t)``, each distance over the systems task ``t`` scores
    (Colombo et al. 2022, appendix C.1, eq. 1, with task weights; unit weights give the
    formula as printed). Computed from the pairwise matrix: an ordered pair costs the
    weight of the tasks that order it the other way plus ``tie_penalty`` times the
    weight of the tasks that tie it; a tied pair costs ``tie_penalty`` times the weight
    of the tasks that separate it. For a strict ranking and ``tie_penalty=1/2`` it equals
    the Kemeny objective.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        Anything :func:`consensus.majority._inputs.as_pairwise` accepts; the task weights are those
        already in its pairwise matrix.
    ranking : ranking
        Must rank every system of `data` (see :func:`as_tiers`).
    {tie_penalty}

    Returns
    -------
    float
        The weighted sum of distances.

    Raises
    ------
    InvalidOptionError
        If `tie_penalty` is not in [0, 1], `data` is not a supported input, or `ranking`
        leaves out a system or is malformed.
    UnknownSystemError
        If `ranking` names a system that is not in `data`.

    Examples
    --------
    >>> import consensus as cs
    >>> task_distance(cs.load_example("votenrank-toy"), ["B", "C", "D", "A"])
    12.0
    """
    pen = check_penalty(tie_penalty)
    p = as_pairwise(data)
    r = rank_vector(p, ranking)
    above = r[:, None] < r[None, :]
    tied = np.triu(r[:, None] == r[None, :], k=1)
    ordered = float(((p.wins.T + pen * p.ties) * above).sum())
    tie_cost = float((pen * (p.wins + p.wins.T) * tied).sum())
    return ordered + tie_cost + 0.0


@fill_doc(COMMON)
def task_distances(table: Leaderboard, ranking: Any, *, tie_penalty: float = 0.5) -> pd.Series:
    """Kendall distance from a ranking to each task's ranking (unweighted), per task.

    Each distance is over the systems the task scores. ``(series * lb.weights).sum()``
    equals :func:`task_distance`.

    Parameters
    ----------
    table : Leaderboard
        The scores.
    ranking : ranking
        Must rank every system of `table` (see :func:`as_tiers`).
    {tie_penalty}

    Returns
    -------
    pandas.Series
        Task -> Kendall distance, in task order, named ``"kendall_distance"``.

    Raises
    ------
    InvalidOptionError
        If `tie_penalty` is not in [0, 1], or `ranking` leaves out a system or is malformed.
    UnknownSystemError
        If `ranking` names a system that is not in `table`.

    Examples
    --------
    >>> import consensus as cs
    >>> task_distances(cs.load_example("votenrank-toy"), ["B", "C", "D", "A"]).tolist()
    [3.0, 5.0, 1.0, 1.0, 2.0]
    """
    tiers = as_tiers(ranking)
    rank_vector(pairwise(table), tiers)  # validates the systems
    values = {}
    for task, task_tiers in task_rankings(table).items():
        scored = tier_systems(task_tiers)
        restricted = _restrict(tiers, set(scored))
        values[task] = kendall_tau_distance(restricted, task_tiers, tie_penalty=tie_penalty)
    return pd.Series(values, dtype=np.float64, name="kendall_distance")


def _restrict(tiers: Tiers, keep: set[str]) -> Tiers:
    groups = [tuple(s for s in group if s in keep) for group in tiers]
    return tuple(g for g in groups if g)


def task_dispersion(data: Any, *, tie_penalty: float = 0.5) -> float:
    """Mean Kendall distance between two task rankings: the problem's intrinsic difficulty.

    ``sum_{t, t'} p_t p_t' d(sigma_t, sigma_t')`` over all ordered pairs of tasks (a task
    with itself included), with ``p`` the normalized task weights: Colombo et al. 2022,
    appendix C.2, eq. 3, divided by ``T^2`` (unit weights). Each distance is over the
    systems both tasks score. With this normalization the mean distance of the Kemeny
    ranking to the tasks, ``task_distance / total weight``, lies between 1/2 and 1 times
    the dispersion (their Remark 2) when tasks rank every system strictly.

    Computed from the pairwise matrix in O(n^2): a pair of systems that tasks of weight
    ``W+`` order one way, ``W-`` the other way and ``W0`` tie contributes
    ``2 (W+ W- + p W0 (W+ + W-)) / W^2``.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        Anything :func:`consensus.majority._inputs.as_pairwise` accepts. For a Leaderboard the total
        weight ``W`` is the sum of its task weights; otherwise it is the largest weight any
        pair is compared on (the total task weight when no score is missing).
    tie_penalty : float, default=0.5
        Cost of a pair tied in one task ranking only (see :func:`kendall_tau_distance`).

    Returns
    -------
    float
        The dispersion; 0.0 when the total weight is 0.

    Raises
    ------
    InvalidOptionError
        If `tie_penalty` is not in [0, 1] or `data` is not a supported input.

    Examples
    --------
    >>> import consensus as cs
    >>> round(task_dispersion(cs.load_example("votenrank-toy")), 4)
    2.88
    """

    pen = check_penalty(tie_penalty)
    p = as_pairwise(data)
    if isinstance(data, Leaderboard):
        total = float(data.weights.sum())
    else:
        total = float(p.compared.max()) if p.n_systems > 1 else 0.0
    if total <= 0:
        return 0.0
    upper = np.triu(np.ones((p.n_systems, p.n_systems), dtype=bool), k=1)
    w, wt, t = p.wins, p.wins.T, p.ties
    per_pair = 2.0 * (w * wt + pen * t * (w + wt))
    return float(per_pair[upper].sum() / total**2) + 0.0
