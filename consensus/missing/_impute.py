"""Missing scores: pairwise matrices of compatible rankings (Himmi et al. 2023).

On one task (or one test instance) the scored systems form a *partial ranking*. Himmi et
al. (sec. 2.1-2.2, appendix D) replace it by the matrix ``M`` of the *compatible* complete
rankings: ``M[i, j]`` is the share of the complete rankings of all ``N`` systems that keep
the order of the scored systems and put ``i`` above ``j``. Summing these matrices over the
tasks (or over every instance of every task) and ranking the systems by the row sums of the
sum (Borda, eq. 3) gives the one-level ranking ``sigma_l``; ranking each task from the sum
over its instances and then running Borda over the task rankings gives the two-level
ranking ``sigma_2l`` (sec. 2.2.3). Hoeffding intervals on the direct comparisons (sec. 2.3)
say which pairwise wins are significant.

Compatible rankings with tied scores
------------------------------------
Scores can tie (two systems scored 1 on a binary instance). We read a partial ranking with
ties as a *weak order* of the scored systems and call a complete ranking of all ``N``
systems compatible with it when every scored system with a strictly higher score is above
every scored system with a strictly lower score; tied scored systems may come in either
order, unscored systems anywhere. Without ties this is exactly the paper's definition. With
it, every entry has a closed form. Let ``k`` be the number of scored systems and, for a
scored system ``j``, ``a_j`` the number of scored systems strictly better and ``g_j`` the
number of scored systems tied with ``j`` (``j`` included). Its *midrank* (1 = best) is
``r_j = a_j + (g_j + 1) / 2``. Then

- ``i`` and ``j`` both scored: ``M[i, j] = 1`` if ``i`` scores higher, ``0`` if lower, ``1/2`` if tied;
- neither scored: ``M[i, j] = 1/2``;
- ``i`` unscored, ``j`` scored: ``M[i, j] = r_j / (k + 1)`` and ``M[j, i] = 1 - r_j / (k + 1)``.

**Proof.** *Both unscored:* swapping ``i`` and ``j`` maps the compatible rankings with ``i``
above ``j`` one-to-one onto those with ``j`` above ``i``. *Both scored and tied:* swapping
them is again such a bijection. *Both scored, not tied:* every compatible ranking keeps their
order. *One unscored, no ties:* let ``b_1 > ... > b_k`` be the scored systems and
``j = b_r``. Restrict a compatible ranking to the ``k + 1`` systems ``b_1..b_k, i``: the
restriction is the chain with ``i`` inserted into one of its ``k + 1`` gaps. Each such
insertion is the restriction of exactly ``N! / (k + 1)!`` compatible rankings (choose the
``k + 1`` positions, ``C(N, k + 1)`` ways, and order the other ``N - k - 1`` systems freely,
``(N - k - 1)!`` ways; neither count depends on the gap). So the gap of ``i`` is uniform over
the ``k + 1`` gaps, and ``i`` is above ``b_r`` in exactly ``r`` of them: the share is
``r / (k + 1)``. *One unscored, with ties:* the compatible rankings of the weak order are the
disjoint union, over its strict refinements ``tau`` (the tie groups ordered every possible
way), of the compatible rankings of ``tau``, and each ``tau`` has the same number of them
(``N! / k!``). Over the refinements the position of ``j`` inside its tie group is uniform on
``1..g_j``, so the share is the average of ``(a_j + u) / (k + 1)`` over ``u = 1..g_j``, that
is ``r_j / (k + 1)``. The complementary entry follows from ``M[i, j] + M[j, i] = 1``. QED.

With no missing score every entry is 1, 0 or 1/2, and the row sum of ``M`` over a task is
``N - r_i``: Borda with average ranks for ties. So ``sigma_l`` equals the ordinary Borda
ranking on complete data. An unscored system's row sum on a task is always ``(N - 1) / 2``,
the average.

Appendix D of the paper derives the one-unscored share as a sum over positions (its Eq. 6).
Read with ``S^a_b = (a + b)! / (a! b!)`` (the number of shuffles of two lists; the paper prints
``a! + b!`` in the denominator), ``V^a_b = b! / (b - a)!`` (variations of ``a`` out of ``b``;
printed ``a! / (b - a)!``) and ``r`` counting the scored systems above ``j`` from 0, Eq. 6
equals ``(r + 1) / (k + 1)``, the no-tie case above (checked in the tests for ``N <= 8``).

Orientation: the paper's case 1 writes ``M[i, j] = 0`` when ``i`` beats ``j`` and sums
columns; here ``M[i, j]`` is the share with ``i`` above ``j`` and Borda sums rows, as in
:class:`consensus.PairwiseMatrix` (``wins[i, j]``).

Weights: task ``t`` with weight ``w_t`` contributes ``w_t * M_t`` (each of its instances
``w_t`` times its matrix), the convention of :func:`consensus.pairwise`. With the default
weights (all 1) the sums are exactly the paper's ``M^T`` and ``M^I``.

Computation: per instance the closed form needs only the number of scored systems and each
scored system's midrank, which are row and column counts of the ``N x N`` comparison block
of a chunk of instances; the four cases are then matrix products of ``N x c`` indicator
arrays. Memory is a few ``N x N x c`` booleans per chunk (``c`` chosen so that is 4 MiB),
never ``N x N x K``. 10 million scores (20 systems, 500,000 instances) take about a second.

References
----------
.. [1] Himmi, Irurozki, Noiry, Clemencon, Colombo, "Towards More Robust NLP System
   Evaluation: Handling Missing Scores in Benchmarks", 2023, sec. 2 and appendix D.
.. [2] Colombo, Noiry, Irurozki, Clemencon, "What are the best systems? New perspectives
   on NLP benchmarking", NeurIPS 2022, sec. 3.3.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy.special import gammaln

from .._docstrings import fill_doc
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import (
    EmptyTaskError,
    InvalidOptionError,
    InvalidWeightError,
    LeaderboardError,
)
from ..majority._pairwise import PairwiseMatrix
from ..results import (
    ImputationResult,
    MeanBaselineResult,
    tiers_from_scores,
)
from ._docs import SECTIONS
from ._imputation_sums import SCORE_TOL, Units, accumulate, midranks, summed, units_of
from ._instance_source import InstanceSource

__all__ = ["impute_pairwise", "sigma_l", "sigma_2l", "mean_baseline", "partial_ranking_matrix",
           "position_distribution", "order_statistic_table", "order_statistic_band", "rank_bounds"]


def _check_levels(levels: object) -> int:
    if isinstance(levels, bool) or levels not in (1, 2):
        raise InvalidOptionError(f"levels must be 1 (sigma_l) or 2 (sigma_2l), got {levels!r}")
    return int(levels)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- public API
def _score_array(scores: object) -> np.ndarray:
    """One task's scores as floats (NaN: unscored); text or objects are a LeaderboardError."""
    try:
        return np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError):
        raise LeaderboardError(f"scores must be a list of numbers (NaN: unscored), got {scores!r}") from None


def partial_ranking_matrix(scores: Sequence[float] | np.ndarray | pd.Series) -> np.ndarray:
    """The matrix ``M`` of one partial ranking: share of compatible rankings with ``i`` above ``j``.

    Parameters
    ----------
    scores : sequence of float or pandas.Series
        One score per system (higher is better), NaN where the system is not scored.

    Returns
    -------
    ndarray (N, N)
        ``M[i, j]``: 1/0/0.5 when both are scored (tie 0.5), 0.5 when neither is, and
        ``r_j / (k + 1)`` when only ``j`` is scored (``r_j`` its midrank among the ``k``
        scored systems, 1 = best); ``M[i, j] + M[j, i] = 1`` off the diagonal. See the module
        notes for the definition with ties and the proof.

    Raises
    ------
    EmptyTaskError
        If no system is scored (or `scores` is empty).
    LeaderboardError
        If a score is +inf or -inf.

    References
    ----------
    .. [1] Himmi et al. 2023, sec. 2.2.1 and appendix D.3.

    Examples
    --------
    Two scored systems ``a > b`` and one unscored ``c`` (the paper's example: three compatible
    rankings, ``c`` above ``a`` in one and above ``b`` in two):

    >>> partial_ranking_matrix([2.0, 1.0, float("nan")]).round(3)
    array([[0.   , 1.   , 0.667],
           [0.   , 0.   , 0.333],
           [0.333, 0.667, 0.   ]])
    """

    x = _score_array(scores).reshape(-1, 1)
    if x.shape[0] < 1 or np.isnan(x).all():
        raise EmptyTaskError("<partial ranking>")
    if np.isinf(x).any():
        raise LeaderboardError("scores must be finite (NaN marks an unscored system)")
    labels = tuple(f"s{i}" for i in range(x.shape[0]))
    units = Units(labels, ("t",), x, np.array([0, 1]), np.array([1.0]), True)
    return accumulate(units, per_task=False).imputed


def impute_pairwise(
    data: Leaderboard | InstanceScores | InstanceSource, *, levels: int = 1, scheduler: object = None
) -> ImputationResult:
    """Pairwise matrix of compatible rankings, summed over tasks or instances, and its Borda ranking.

    Parameters
    ----------
    data : Leaderboard, InstanceScores or InstanceSource
        Task-level scores (each task one partial ranking) or instance-level scores (each
        instance of each task one partial ranking). Missing scores allowed. An
        :class:`~consensus.missing.InstanceSource` (files, a Dask DataFrame) is summed on Dask.
    levels : {1, 2}, default=1
        1: ``sigma_l``, the sum of the matrices of every partial ranking, ranked by Borda
        (eq. 3). 2: ``sigma_2l``, each task ranked by Borda on the sum over its instances,
        then Borda over the task rankings (sec. 2.2.3).
    scheduler : optional
        InstanceSource only: ``dask.compute(scheduler=...)`` (None: the active client).

    Returns
    -------
    ImputationResult
        ``matrix``: a :class:`PairwiseMatrix` (``source="imputed"``). With ``levels=1`` its
        ``wins`` is the weighted sum ``sum_t w_t M_t`` (tied and unscored pairs already split
        half and half, so ``ties`` is zero and ``preferences == wins``); ``counts[i, j]`` is
        ``z_ij``, the number of tasks or instances scoring both. With ``levels=2`` ``wins`` is
        the pairwise matrix of the task rankings (``w_t`` per task, ties half) and ``counts``
        the number of tasks with a direct comparison. ``scores[i] = sum_j wins[i, j]``,
        ``ranking`` their tie groups.

    Raises
    ------
    InvalidOptionError
        If `levels` is not 1 or 2, or `data` is neither a Leaderboard nor InstanceScores.

    See Also
    --------
    pairwise_confidence : which pairwise wins are significant (Hoeffding).
    mean_baseline : the mean of the available scores, for comparison.

    References
    ----------
    .. [1] Himmi et al. 2023, sec. 2.2 (eq. 3), appendix D.
    .. [2] Colombo et al. 2022, sec. 3.3 (one- and two-level aggregation).

    Examples
    --------
    >>> import pandas as pd
    >>> from consensus import Leaderboard
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, None], "nli": [0.7, None, 0.6],
    ...                       "mt": [None, 0.5, 0.4]}, index=["a", "b", "c"])
    >>> res = impute_pairwise(Leaderboard.from_frame(frame))
    >>> res.matrix.to_frame().round(3)
           a    b      c
    a  0.000  2.0  2.333
    b  1.000  0.0  2.000
    c  0.667  1.0  0.000
    >>> res.scores.round(3).to_dict(), res.ranking
    ({'a': 4.333, 'b': 3.0, 'c': 1.667}, (('a',), ('b',), ('c',)))
    >>> res.matrix.counts.astype(int).tolist()
    [[0, 1, 1], [1, 0, 1], [1, 1, 0]]
    """
    levels = _check_levels(levels)
    units = summed(data, per_task=levels == 2, scheduler=scheduler)
    sums = units.sums
    n_sys = len(units.systems)
    task_scores = None
    tasks: tuple[str, ...] = ()
    if levels == 1:
        wins = sums.imputed
        counts = sums.counts
        n_rankings = units.n_units
    else:
        per_task_scores = np.asarray(sums.task_scores)  # filled because per_task=True
        ranks = midranks(per_task_scores)
        second = Units(
            units.systems, units.tasks, -ranks, np.arange(len(units.tasks) + 1), units.task_weights, True
        )
        wins = accumulate(second, per_task=False).imputed
        counts = np.asarray(sums.task_counts)
        n_rankings = len(units.tasks)
        task_scores, tasks = per_task_scores, tuple(units.tasks)
    systems = units.systems
    del units, sums  # the sums not used here are freed before the matrix copies its arrays
    matrix = PairwiseMatrix(systems, wins, np.zeros((n_sys, n_sys)), counts, 0.0, "imputed")
    scores = matrix.wins.sum(axis=1)
    ranking = tiers_from_scores(systems, scores.tolist(), tol=SCORE_TOL)
    return ImputationResult(
        method="sigma_l" if levels == 1 else "sigma_2l",
        levels=levels,
        matrix=matrix,
        score_values=scores,
        ranking=ranking,
        n_rankings=int(n_rankings),
        tasks=tasks,
        task_score_values=task_scores,
    )


@fill_doc(SECTIONS)
def sigma_l(data: Leaderboard | InstanceScores | InstanceSource, *, scheduler: object = None) -> ImputationResult:
    """The one-level ranking ``sigma_l`` of Himmi et al. (sec. 2.2.2): ``impute_pairwise(data, levels=1)``.

    Parameters
    ----------
    data : Leaderboard, InstanceScores or InstanceSource
        Task-level or instance-level scores; missing scores allowed.
    {scheduler}

    Returns
    -------
    ImputationResult
        ``method="sigma_l"``; see :func:`impute_pairwise`.

    Raises
    ------
    {not_scores}

    Examples
    --------
    >>> import consensus as cs
    >>> sigma_l(cs.load_example("votenrank-toy")).ranking  # complete data: plain Borda
    (('B',), ('C',), ('D',), ('A',))
    """
    return impute_pairwise(data, levels=1, scheduler=scheduler)


@fill_doc(SECTIONS)
def sigma_2l(data: Leaderboard | InstanceScores | InstanceSource, *, scheduler: object = None) -> ImputationResult:
    """The two-level ranking ``sigma_2l`` of Himmi et al. (sec. 2.2.3): ``impute_pairwise(data, levels=2)``.

    Each task is ranked by Borda on the sum of its instances' matrices (average ranks for
    ties), then the task rankings are aggregated by weighted Borda.

    Parameters
    ----------
    data : Leaderboard, InstanceScores or InstanceSource
        Task-level scores (each task is then a single instance) or instance-level scores;
        missing scores allowed.
    {scheduler}

    Returns
    -------
    ImputationResult
        ``method="sigma_2l"``, with the per-task Borda scores in ``task_scores``; see
        :func:`impute_pairwise`.

    Raises
    ------
    {not_scores}

    Examples
    --------
    >>> import pandas as pd
    >>> from consensus import InstanceScores
    >>> long = pd.DataFrame({"system": ["a", "b", "a", "b", "b"], "task": ["t1", "t1", "t1", "t1", "t2"],
    ...                      "instance": [1, 1, 2, 2, 1], "score": [1.0, 0.0, 1.0, 0.0, 0.3]})
    >>> res = sigma_2l(InstanceScores.from_long(long))
    >>> res.task_scores
        t1   t2
    a  2.0  0.5
    b  0.0  0.5
    >>> res.ranking
    (('a',), ('b',))
    """
    return impute_pairwise(data, levels=2, scheduler=scheduler)


@fill_doc(SECTIONS)
def mean_baseline(data: Leaderboard | InstanceScores) -> MeanBaselineResult:
    """The baseline that ignores missing scores: weighted mean of the available scores.

    For a Leaderboard, ``score_i = sum_t w_t s_it / sum_t w_t`` over the tasks scoring ``i``;
    for instance-level data, first the mean over the scored instances of each task, then the
    same weighted mean over tasks (the two-step mean ``sigma_mu`` of Himmi et al. sec. 1.3 and
    2.4, with missing scores left out). Scores are oriented (lower-is-better tasks negated).

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        Task-level or instance-level scores; missing scores allowed.

    Returns
    -------
    MeanBaselineResult
        ``scores`` (the weighted means), their tie groups as ``ranking`` (relative
        tolerance 1e-9) and ``coverage`` (share of the total task weight scoring each
        system).

    Raises
    ------
    {not_scores}
    InvalidWeightError
        If a system is scored only on zero-weight tasks (its mean is undefined).

    Examples
    --------
    >>> import pandas as pd
    >>> from consensus import Leaderboard
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, None], "nli": [0.7, None, 0.6]}, index=["a", "b", "c"])
    >>> mean_baseline(Leaderboard.from_frame(frame)).scores.round(3).tolist()
    [0.8, 0.8, 0.6]
    """
    units_of(data)  # checks the input type
    table = data.to_leaderboard() if isinstance(data, InstanceScores) else data
    values = table.values
    weights = table.weight_array
    present = ~np.isnan(values)
    weight_seen = present @ weights
    dead = np.nonzero(weight_seen <= 0)[0]
    if len(dead):
        raise InvalidWeightError(
            f"system {table.systems[dead[0]]!r} is scored only on tasks of weight 0; its mean is undefined"
        )
    scores = (np.where(present, values, 0.0) @ weights) / weight_seen
    scores[scores == 0] = 0.0
    return MeanBaselineResult(
        systems=table.systems,
        score_values=scores,
        ranking=tiers_from_scores(table.systems, scores.tolist(), tol=SCORE_TOL),
        coverage_values=weight_seen / weights.sum(),
    )


# ---------------------------------------------------------------------- positions
def order_statistic_table(n_systems: int, n_scored: int) -> np.ndarray:
    """Where the ``r``-th best of ``k`` scored systems lands among ``N``, over the compatible rankings.

    ``H[r - 1, p - 1] = C(p - 1, r - 1) C(N - p, k - r) / C(N, k)``: the probability that the
    scored system of rank ``r`` (no ties) is at position ``p`` of a complete ranking drawn
    uniformly from the rankings compatible with the order of the ``k`` scored systems. See
    :func:`position_distribution` for the proof.

    Parameters
    ----------
    n_systems : int
        ``N``, the number of positions (systems ranked).
    n_scored : int
        ``k``, the number of scored systems, ``1 <= k <= N``.

    Returns
    -------
    numpy.ndarray (k, N)
        Row ``r - 1`` is the distribution of the position of rank ``r``; every row sums to 1
        and ``k == N`` gives the identity.

    Raises
    ------
    InvalidOptionError
        If not ``1 <= n_scored <= n_systems``.

    Examples
    --------
    >>> (order_statistic_table(3, 2) * 3).round(6).tolist()
    [[2.0, 1.0, 0.0], [0.0, 1.0, 2.0]]
    """
    n, k = int(n_systems), int(n_scored)
    if not 1 <= k <= n:
        raise InvalidOptionError(f"need 1 <= n_scored <= n_systems, got n_scored={k}, n_systems={n}")
    band = order_statistic_band(n, k)
    out = np.zeros((k, n))
    rows = np.arange(k)[:, None]
    out[rows, rows + np.arange(n - k + 1)[None, :]] = band
    return out


def order_statistic_band(n_systems: int, n_scored: int) -> np.ndarray:
    """The nonzero band of :func:`order_statistic_table`: ``B[r - 1, d] = h_r(r + d)``.

    The rank-``r`` scored system has ``d`` unscored systems above it, ``0 <= d <= N - k``;
    ``h_r(r + d) = C(r + d - 1, d) C(N - r - d, N - k - d) / C(N, k)``. ``k (N - k + 1)``
    entries instead of ``k N``.

    Parameters
    ----------
    n_systems : int
        ``N``.
    n_scored : int
        ``k``, ``1 <= k <= N`` (not checked here).

    Returns
    -------
    numpy.ndarray (k, N - k + 1)

    Examples
    --------
    >>> (order_statistic_band(3, 2) * 3).round(6).tolist()
    [[2.0, 1.0], [1.0, 2.0]]
    """
    n, k = int(n_systems), int(n_scored)
    lf = gammaln(np.arange(n + 1, dtype=np.float64) + 1.0)  # log x!
    r = np.arange(1, k + 1)[:, None]
    d = np.arange(n - k + 1)[None, :]
    log = (
        lf[r + d - 1] - lf[r - 1] - lf[d]
        + lf[n - r - d] - lf[k - r] - lf[n - k - d]
        - (lf[n] - lf[k] - lf[n - k])
    )
    return np.exp(log)


def rank_bounds(scores: Sequence[float] | np.ndarray, *, ties: str = "average") -> tuple[np.ndarray, np.ndarray]:
    """The ranks among the scored systems each system may take, for :func:`position_distribution`.

    A scored system with ``a`` scored systems strictly above it and ``g`` scored systems
    tied with it (itself included) takes a rank uniform on ``a + 1 .. a + g`` (``ties=
    "average"``), the rank ``a + 1`` of the best of its tie group (``"min"``) or ``a + g``
    of the worst (``"max"``). Ties are exact equalities, as in the positional rules.

    Parameters
    ----------
    scores : sequence of float
        One score per system (higher is better), NaN where the system is not scored.
    ties : {"average", "min", "max"}, default="average"

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Lowest and highest rank, int64, 1 = best; 0 for an unscored system.

    Examples
    --------
    >>> lo, hi = rank_bounds([3.0, float("nan"), 3.0, 1.0])
    >>> lo.tolist(), hi.tolist()
    ([1, 0, 1, 3], [2, 0, 2, 3])
    """
    x = np.asarray(scores, dtype=np.float64).ravel()
    scored = ~np.isnan(x)
    sorted_x = np.sort(x[scored])
    k = len(sorted_x)
    above = k - np.searchsorted(sorted_x, x[scored], side="right")
    group = np.searchsorted(sorted_x, x[scored], side="right") - np.searchsorted(sorted_x, x[scored], side="left")
    lo = np.zeros(len(x), dtype=np.int64)
    hi = np.zeros(len(x), dtype=np.int64)
    first, last = above + 1, above + group
    lo[scored] = last if ties == "max" else first
    hi[scored] = first if ties == "min" else last
    return lo, hi


def position_distribution(scores: Sequence[float] | np.ndarray | pd.Series, *, ties: str = "average") -> np.ndarray:
    """Distribution of each system's position over the complete rankings compatible with one task.

    Imputation by compatible permutations (Himmi et al. 2023, sec. 2.1): a task that scores
    ``k`` of the ``N`` systems is a partial ranking, and every complete ranking of the ``N``
    systems compatible with it (see the module notes; with ties, a weak order) is equally
    likely. The position ``pos_i`` (1 = best) of each system is then a random variable:

    - unscored system: ``P(pos = p) = 1 / N``, uniform;
    - scored system of rank ``r`` among the scored ones, no ties:
      ``P(pos = p) = h_r(p) = C(p - 1, r - 1) C(N - p, k - r) / C(N, k)``;
    - scored system with ``a`` scored systems strictly above it and ``g`` tied with it
      (itself included): ``P(pos = p) = (1 / g) sum_{r = a + 1}^{a + g} h_r(p)``.

    **Proof.** *No ties.* A compatible ranking is fixed by the set ``S`` of the ``k``
    positions the scored systems take (they fill ``S`` in their own order) and by the order
    of the ``N - k`` unscored systems in the other positions. Every ``S`` admits the same
    ``(N - k)!`` orders, so ``S`` is a uniform ``k``-subset of ``1..N``. The rank-``r``
    system sits at the ``r``-th smallest element of ``S``, which is ``p`` when ``r - 1`` of
    the ``p - 1`` positions above ``p`` and ``k - r`` of the ``N - p`` below are in ``S``:
    ``C(p - 1, r - 1) C(N - p, k - r)`` of the ``C(N, k)`` subsets. An unscored system is at
    ``p`` when ``p`` is not in ``S`` (probability ``(N - k) / N``) and it is the one of the
    ``N - k`` unscored systems put there (``1 / (N - k)``, by symmetry): ``1 / N``.
    *Ties.* The compatible rankings of a weak order are the disjoint union, over its strict
    refinements (each tie group ordered every possible way), of the compatible rankings of
    each refinement, and every refinement has the same number of them (``N! / k!``). So a
    uniform compatible ranking is a uniform refinement followed by a uniform compatible
    ranking of it; in a uniform refinement the rank of a system of a tie group is uniform on
    ``a + 1 .. a + g``, hence the average of the ``h_r``. Unscored systems stay uniform. QED.

    Consequences (tested): every row sums to 1; on a complete task (``k = N``) ``h_r`` is the
    point mass at ``r``, so a system has its own position, and a tie group is spread evenly
    over the positions it occupies (``ties="average"`` of the positional rules);
    ``N - E[pos_i]`` is the row sum of :func:`partial_ranking_matrix` (the expected number of
    systems below ``i``), so expected Borda points are the imputed Borda of
    :func:`impute_pairwise`. ``ties="min"`` (``"max"``) gives a tied system the distribution
    of the best (worst) position its tie group takes, ``h_{a + 1}`` (``h_{a + g}``): on
    complete data the points of the best (worst) shared position, as in the positional rules.

    Parameters
    ----------
    scores : sequence of float or pandas.Series
        One score per system (higher is better), NaN where the system is not scored; at
        least one scored.
    ties : {"average", "min", "max"}, default="average"
        How a scored system tied with others is placed, as above.

    Returns
    -------
    numpy.ndarray (N, N)
        ``P[i, p - 1]``: probability that system ``i`` is at position ``p``.

    Raises
    ------
    EmptyTaskError
        If no system is scored.
    InvalidOptionError
        If `ties` is not one of the three choices.

    References
    ----------
    .. [1] Himmi et al. 2023, sec. 2.1-2.2 and appendix D (compatible permutations).

    Examples
    --------
    Two scored systems ``a > b`` and one unscored ``c``: the compatible rankings are
    ``cab``, ``acb``, ``abc``.

    >>> (position_distribution([2.0, 1.0, float("nan")]) * 3).round(6).tolist()
    [[2.0, 1.0, 0.0], [0.0, 1.0, 2.0], [1.0, 1.0, 1.0]]
    """
    if ties not in ("average", "min", "max"):
        raise InvalidOptionError(f"ties must be 'average', 'min' or 'max', got {ties!r}")
    x = _score_array(scores).ravel()
    scored = ~np.isnan(x)
    n, k = len(x), int(scored.sum())
    if k == 0:
        raise EmptyTaskError("<partial ranking>")
    lo, hi = rank_bounds(x, ties=ties)
    cum = np.vstack([np.zeros((1, n)), np.cumsum(order_statistic_table(n, k), axis=0)])
    out = np.full((n, n), 1.0 / n)
    rows = np.nonzero(scored)[0]
    out[rows] = (cum[hi[rows]] - cum[lo[rows] - 1]) / (hi[rows] - lo[rows] + 1)[:, None]
    return out
