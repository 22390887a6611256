"""How sure is each pairwise comparison? Hoeffding intervals from the direct comparisons only.

Himmi et al. 2023, sec. 2.3 and Figure 6: for each pair, the share of the tasks (or
instances) scoring both on which one system beats the other, with a Hoeffding confidence
interval; a comparison is *confident* when the interval excludes 1/2.
"""

from __future__ import annotations

import math

import numpy as np

from ..arguments import check_share
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..results import PairwiseConfidence, tiers_from_scores
from ._imputation_sums import summed
from ._impute import SCORE_TOL
from ._instance_source import InstanceSource

__all__ = ["pairwise_confidence"]


def check_delta(delta: object) -> float:
    """Validate the error level of :func:`pairwise_confidence` and return it as a float.

    Parameters
    ----------
    delta : object
        Must be an int or float (numpy scalars included, bools not) strictly between 0 and 1.

    Returns
    -------
    float
        `delta` as a float.

    Raises
    ------
    InvalidOptionError
        If `delta` is not such a number (a bool, a string, NaN, 0, 1, ...).

    Examples
    --------
    >>> check_delta(0.05)
    0.05
    >>> check_delta(1)
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: delta must be a number strictly between 0 and 1, got 1
    """
    return check_share(delta, "delta")


def pairwise_confidence(
    data: Leaderboard | InstanceScores | InstanceSource, *, delta: float = 0.05, scheduler: object = None
) -> PairwiseConfidence:
    """Hoeffding confidence on every pairwise comparison, from the direct comparisons only.

    For systems ``i`` and ``j`` scored together on ``z_ij`` tasks (or instances), the estimate
    ``p_ij`` is the share of those comparisons that ``i`` wins (ties count 1/2; weighted by the
    task weights) and the half-width is Himmi et al.'s eq. 4,
    ``c_ij = sqrt(-log(delta) / (2 z_ij))`` (with task weights, ``z_ij`` is replaced by the
    effective count ``(sum w)^2 / sum w^2``, which equals ``z_ij`` when the weights are equal).

    Hoeffding's inequality bounds each side by ``delta``: ``P(p_ij - c_ij > p) <= delta``. So
    ``confident[i, j] = p_ij - c_ij > 1/2`` claims "``i`` beats ``j``" at level ``1 - delta``
    (one-sided), and the two-sided interval ``[p_ij - c_ij, p_ij + c_ij]`` covers ``p`` with
    probability at least ``1 - 2 delta``. (Sec. 2.3 of the paper writes the bound as
    ``<= 1 - delta``; ``delta`` is meant.) Pairs never scored together get an infinite
    half-width and are never confident.

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        Task-level scores (each task one comparison per pair) or instance-level scores
        (each instance one comparison); missing scores allowed.
    delta : float, default=0.05
        Error level, strictly between 0 and 1.
    scheduler : optional
        For an :class:`~consensus.missing.InstanceSource` (summed on Dask), see
        :func:`consensus.impute_pairwise`.

    Returns
    -------
    PairwiseConfidence
        Matrices in the order of the ``sigma_l`` ranking (``order``): ``estimate``,
        ``half_width``, ``lower``, ``upper``, ``confident``, ``counts``; ``to_frame()`` lists
        every ordered pair.

    Raises
    ------
    InvalidOptionError
        If `delta` is not a number in (0, 1) (NaN, negative, 0, 1, ...), or `data` is
        neither a Leaderboard nor InstanceScores.

    References
    ----------
    .. [1] Himmi et al. 2023, sec. 2.3 (eq. 4) and 4.4 (Figure 6).
    .. [2] W. Hoeffding, "Probability inequalities for sums of bounded random variables", 1963.

    Examples
    --------
    >>> import pandas as pd
    >>> from consensus import Leaderboard
    >>> frame = pd.DataFrame({f"t{k}": [3.0, 2.0, 1.0] for k in range(8)}, index=["a", "b", "c"])
    >>> conf = pairwise_confidence(Leaderboard.from_frame(frame), delta=0.05)
    >>> round(float(conf.half_width[0, 1]), 4)  # sqrt(log(20) / 16)
    0.4327
    >>> conf.matrix("confident")
           a      b      c
    a  False   True   True
    b  False  False   True
    c  False  False  False
    """
    delta = check_delta(delta)
    units = summed(data, per_task=False, scheduler=scheduler)
    sums = units.sums
    scores = sums.imputed.sum(axis=1)
    ranking = tiers_from_scores(units.systems, scores.tolist(), tol=SCORE_TOL)
    order = tuple(s for group in ranking for s in group)
    idx = np.array([units.systems.index(s) for s in order], dtype=np.int64)
    grid = np.ix_(idx, idx)
    both = sums.both[grid]
    with np.errstate(divide="ignore", invalid="ignore"):
        estimate = np.where(both > 0, sums.direct[grid] / np.where(both > 0, both, 1.0), np.nan)
        n_eff = np.where(both > 0, both**2 / np.where(sums.both_sq[grid] > 0, sums.both_sq[grid], 1.0), 0.0)
        half = np.where(n_eff > 0, np.sqrt(-math.log(delta) / (2.0 * np.where(n_eff > 0, n_eff, 1.0))), np.inf)
    np.fill_diagonal(estimate, np.nan)
    np.fill_diagonal(half, np.nan)
    return PairwiseConfidence(
        order=order,
        ranking=ranking,
        estimate=estimate,
        half_width=half,
        counts=sums.counts[grid],
        delta=delta,
    )
