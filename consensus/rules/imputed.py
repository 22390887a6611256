"""Positional and iterative rules under ``missing="impute"``: expected points over compatible rankings.

On each task the position of every system is a random variable over the complete rankings
compatible with the scored systems' order (:func:`consensus.missing._impute.position_distribution`,
with its proof). A positional rule with scoring vector ``c`` scores system ``i`` by its
expected points ``sum_t w_t E[c(pos_it)]``; Threshold uses the expected (weighted) number of
tasks placing each system at each position; Baldwin runs on the imputed pairwise matrix
(:func:`consensus.missing._impute.impute_pairwise`). On a complete leaderboard every position is
certain and each rule gives its ordinary result (tested).

References
----------
.. [1] Himmi et al., "Towards More Robust NLP System Evaluation: Handling Missing Scores in
   Benchmarks", 2023, sec. 2.1-2.2.
"""

from __future__ import annotations

import numpy as np

from ..board._leaderboard import Leaderboard
from ..missing._impute import order_statistic_band, order_statistic_table, rank_bounds

__all__ = ["expected_points", "expected_position_counts"]


def expected_points(lb: Leaderboard, c: np.ndarray, ties: str = "average") -> np.ndarray:
    """Expected points of scoring vector `c` on each task, over the compatible complete rankings.

    Parameters
    ----------
    lb : Leaderboard
        Scores; missing scores allowed.
    c : numpy.ndarray
        Points for positions ``1..lb.n_systems``.
    ties : {"average", "min", "max"}, default="average"
        Placement of tied scored systems (:func:`consensus.missing._impute.position_distribution`).

    Returns
    -------
    numpy.ndarray
        Systems x tasks: ``E[c(pos)]``; an unscored system gets the mean of `c`, a scored
        system of rank ``r`` (no ties) ``sum_p h_r(p) c_p``, a tied one the mean of these
        over its tie group's ranks. Unweighted (multiply by the task weights to sum).

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"t": [2.0, 1.0, None], "u": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    >>> points = expected_points(cs.Leaderboard.from_frame(frame), np.array([2.0, 1.0, 0.0]))  # Borda
    >>> (points * 3).round(6).tolist()  # on t: c is anywhere, a above b in 3 rankings of 3
    [[5.0, 0.0], [1.0, 3.0], [3.0, 6.0]]
    """
    values = lb.values
    n, m = values.shape
    c = np.asarray(c, dtype=np.float64)
    out = np.empty((n, m))
    cache: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for t in range(m):
        x = values[:, t]
        scored = ~np.isnan(x)
        k = int(scored.sum())
        if k not in cache:  # expected points of each rank 1..k, and their cumulative sums
            if k == n:
                per_rank = c.copy()
            else:  # sum_d h_r(r + d) c[r + d]: the band of the order-statistic table
                idx = np.arange(k)[:, None] + np.arange(n - k + 1)[None, :]
                per_rank = (order_statistic_band(n, k) * c[idx]).sum(axis=1)
            cache[k] = (per_rank, np.concatenate([[0.0], np.cumsum(per_rank)]))
        per_rank, cum = cache[k]
        lo, hi = rank_bounds(x, ties=ties)
        lo, hi = lo[scored], hi[scored]
        col = np.full(n, float(c.mean()))
        shared = (cum[hi] - cum[lo - 1]) / (hi - lo + 1)
        col[scored] = np.where(lo == hi, per_rank[lo - 1], shared)  # one rank: its exact points
        out[:, t] = col
    return out


def expected_position_counts(lb: Leaderboard, ties: str = "average") -> np.ndarray:
    """Expected weight of the tasks placing each system at each position (Threshold's histogram).

    Parameters
    ----------
    lb : Leaderboard
        Scores; missing scores allowed.
    ties : {"average", "min", "max"}, default="average"
        Placement of tied scored systems (:func:`consensus.missing._impute.position_distribution`).

    Returns
    -------
    numpy.ndarray (n_systems, n_systems)
        ``D[i, p - 1] = sum_t w_t P(pos_it = p)``; each row sums to the total weight.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"t": [2.0, 1.0, None], "u": [1.0, 2.0, 3.0]}, index=["a", "b", "c"])
    >>> (expected_position_counts(cs.Leaderboard.from_frame(frame)) * 3).round(6).tolist()
    [[2.0, 1.0, 3.0], [0.0, 4.0, 2.0], [4.0, 1.0, 1.0]]
    """
    values = lb.values
    n, m = values.shape
    w = lb.weight_array
    out = np.zeros((n, n))
    cache: dict[int, np.ndarray] = {}
    bands: dict[int, np.ndarray] = {}
    for t in range(m):
        if w[t] == 0:
            continue
        x = values[:, t]
        scored = ~np.isnan(x)
        k = int(scored.sum())
        lo, hi = rank_bounds(x, ties=ties)
        rows = np.nonzero(scored)[0]
        out[~scored] += w[t] / n
        if np.array_equal(lo[rows], hi[rows]):  # one rank each: add its band row where it lies
            if k not in bands:
                bands[k] = order_statistic_band(n, k)
            r0 = lo[rows] - 1
            out[rows[:, None], r0[:, None] + np.arange(n - k + 1)[None, :]] += w[t] * bands[k][r0]
            continue
        if k not in cache:  # ties: averages of rows of the table, by cumulative sums over ranks
            cache[k] = np.vstack([np.zeros((1, n)), np.cumsum(order_statistic_table(n, k), axis=0)])
        cum = cache[k]
        out[rows] += w[t] * (cum[hi[rows]] - cum[lo[rows] - 1]) / (hi[rows] - lo[rows] + 1)[:, None]
    return out
