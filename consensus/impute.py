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

import math
from collections.abc import Sequence
from dataclasses import dataclass
import numpy as np
import pandas as pd

from .errors import InvalidOptionError, InvalidWeightError, LeaderboardError
from .instances import InstanceScores
from .leaderboard import Leaderboard
from .pairwise import PairwiseMatrix
from .results import ImputationResult, MeanBaselineResult, PairwiseConfidence, tiers_from_scores

__all__ = [
    "impute_pairwise",
    "sigma_l",
    "sigma_2l",
    "mean_baseline",
    "pairwise_confidence",
    "partial_ranking_matrix",
]

#: Booleans per chunk of the N x N x c comparison block (4 MiB).
_CHUNK_CELLS = 1 << 22
#: Relative tolerance under which two float Borda sums count as tied.
_SCORE_TOL = 1e-9


# ---------------------------------------------------------------------- input normalisation
@dataclass(frozen=True, slots=True)
class _Units:
    """The partial rankings to sum: columns of `values` (systems x units), grouped in tasks."""

    systems: tuple[str, ...]
    tasks: tuple[str, ...]
    values: np.ndarray  # oriented, higher is better, NaN missing
    offsets: np.ndarray  # task t = columns offsets[t]:offsets[t + 1]
    task_weights: np.ndarray  # raw task weights
    one_per_task: bool  # every task is a single column (task-level data)


def _units(data: object) -> _Units:
    if isinstance(data, Leaderboard):
        return _Units(
            data.systems,
            data.tasks,
            data.values,
            np.arange(data.n_tasks + 1),
            data.weights.to_numpy(dtype=np.float64),
            True,
        )
    if isinstance(data, InstanceScores):
        return _Units(
            data.systems,
            data.tasks,
            data.values,
            np.asarray(data.offsets),
            data.weights.to_numpy(dtype=np.float64),
            bool(np.all(np.diff(data.offsets) == 1)),
        )
    raise InvalidOptionError(
        f"expected a Leaderboard or InstanceScores, got {type(data).__name__}; "
        "build one with Leaderboard.from_frame or InstanceScores.from_long"
    )


def _check_levels(levels: object) -> int:
    if isinstance(levels, bool) or levels not in (1, 2):
        raise InvalidOptionError(f"levels must be 1 (sigma_l) or 2 (sigma_2l), got {levels!r}")
    return int(levels)  # type: ignore[arg-type]


def _check_delta(delta: object) -> float:
    if isinstance(delta, bool) or not isinstance(delta, (int, float, np.integer, np.floating)):
        raise InvalidOptionError(f"delta must be a number strictly between 0 and 1, got {delta!r}")
    value = float(delta)
    if not math.isfinite(value) or not 0.0 < value < 1.0:
        raise InvalidOptionError(f"delta must be a number strictly between 0 and 1, got {delta!r}")
    return value


# ---------------------------------------------------------------------- the kernel
@dataclass(frozen=True, slots=True)
class _Sums:
    """Weighted sums over all units (tasks or instances), each N x N unless noted."""

    imputed: np.ndarray  # sum of w * M (the compatible-ranking matrices)
    direct: np.ndarray  # sum of w * [i beats j] + w / 2 * [tie], both scored
    both: np.ndarray  # sum of w over units scoring both
    both_sq: np.ndarray  # sum of w**2 over units scoring both (effective sample size)
    counts: np.ndarray  # number of units scoring both
    task_scores: np.ndarray | None  # N x T: row sums of each task's (unweighted) sum of M
    task_counts: np.ndarray | None  # number of tasks with at least one unit scoring both


def _accumulate(units: _Units, *, per_task: bool) -> _Sums:
    """Sum the compatible-ranking matrices of every column of `units.values`, chunk by chunk.

    For a chunk ``x`` (N x c): ``G[i, j, k] = x[i, k] > x[j, k]`` (NaN compares False),
    ``better = G.sum(0)`` and ``worse = G.sum(1)`` count the scored systems strictly above and
    below each scored system, so its midrank is ``(n + 1 + better - worse) / 2`` with ``n``
    scored systems, and ``q = midrank / (n + 1)`` is the share of compatible rankings that put an
    unscored system above it (0 for an unscored system). With ``o`` the scored indicator,
    ``u = 1 - o`` and the column weights ``w``, the four cases of the module notes sum to::

        both scored:  G w  +  1/2 (o w o^T - G w - (G w)^T)      (ties count 1/2)
        neither:      1/2 u w u^T
        i unscored:   u w q^T                                     (i above scored j)
        j unscored:   (o - q) w u^T                               (scored i above j)

    Only columns with an unscored system contribute to the last three lines. Over those,
    expanding ``u = 1 - o`` leaves two products, ``o w o^T`` and ``q w o^T``, plus the vectors
    ``sum_k w``, ``o w`` and ``q w``: one ``(2N x c) @ (c x N)`` product per chunk (four blocks
    when the weights vary inside the chunk). Complete columns only add their weight to every
    pair, so complete data gives Borda's sums exactly.
    """
    values, offsets, tw = units.values, units.offsets, units.task_weights
    n_sys, n_cols = values.shape
    n_tasks = len(units.tasks)
    col_w = np.repeat(tw, np.diff(offsets))
    chunk = max(1, _CHUNK_CELLS // (n_sys * n_sys))
    wins = np.zeros((n_sys, n_sys))  # sum w [i beats j]
    # sums over the columns with an unscored system ("partial" columns)
    both = np.zeros((n_sys, n_sys))  # sum w o_i o_j
    both_sq = np.zeros((n_sys, n_sys))  # sum w^2 o_i o_j
    counts = np.zeros((n_sys, n_sys))  # sum o_i o_j
    q_obs = np.zeros((n_sys, n_sys))  # P[i, j] = sum w q_i o_j
    seen = np.zeros(n_sys)  # sum w o_i
    q_sum = np.zeros(n_sys)  # sum w q_i
    partial_w = 0.0  # sum w
    # complete columns: every pair compared
    full_w = full_w2 = 0.0
    full_n = 0
    task_scores = np.zeros((n_sys, n_tasks)) if per_task else None
    task_counts = np.zeros((n_sys, n_sys)) if per_task and not units.one_per_task else None
    if units.one_per_task:
        segments = [(0, n_cols, -1)]
    else:
        segments = [(int(offsets[t]), int(offsets[t + 1]), t) for t in range(n_tasks)]
    for start, stop, task in segments:
        seg_counts = np.zeros((n_sys, n_sys)) if task_counts is not None else None
        for s in range(start, stop, chunk):
            e = min(s + chunk, stop)
            x = values[:, s:e]
            w = col_w[s:e]
            obs = ~np.isnan(x)
            beats = x[:, None, :] > x[None, :, :]
            better = beats.sum(axis=0, dtype=np.int64)
            worse = beats.sum(axis=1, dtype=np.int64)
            if np.all(w == w[0]):
                wins += float(w[0]) * beats.sum(axis=2, dtype=np.int64)
            else:
                wins += np.einsum("ijk,k->ij", beats, w)
            del beats
            n = obs.sum(axis=0)
            partial = n < n_sys
            n_partial = int(partial.sum())
            w_full = w[~partial]
            full_w += float(w_full.sum())
            full_w2 += float((w_full * w_full).sum())
            full_n += len(w_full)
            if task_scores is None and n_partial == 0:
                if seg_counts is not None:
                    seg_counts += len(w_full)
                continue
            q = (better - worse) / (n + 1.0)
            q += 1.0
            q *= 0.5
            q *= obs  # 0 where unscored
            if task_scores is not None:
                # row sums of the unit matrices: scored i: (n - midrank) + (N - n)(1 - q); else (N - 1)/2
                rows = np.where(obs, 0.5 * (n - 1 - better + worse) + (n_sys - n) * (1.0 - q), 0.5 * (n_sys - 1))
                if task < 0:
                    task_scores[:, s:e] += rows
                else:
                    task_scores[:, task] += rows.sum(axis=1)
            c = np.zeros((n_sys, n_sys))
            if n_partial:
                wp = w[partial]
                uniform = bool(np.all(wp == wp[0]))
                stack = np.empty((2 * n_sys if uniform else 4 * n_sys, n_partial))
                o = stack[:n_sys]
                np.copyto(o, obs[:, partial])
                stack[n_sys : 2 * n_sys] = q[:, partial]
                qp = stack[n_sys : 2 * n_sys]
                partial_w += float(wp.sum())
                if uniform:
                    w0 = float(wp[0])
                    seen += w0 * o.sum(axis=1)
                    q_sum += w0 * qp.sum(axis=1)
                    prod = _products(stack, o)
                    c = prod[:n_sys]
                    both += w0 * c
                    both_sq += (w0 * w0) * c
                    q_obs += w0 * prod[n_sys:]
                else:
                    seen += o @ wp
                    q_sum += qp @ wp
                    qp *= wp
                    np.multiply(o, wp, out=stack[2 * n_sys : 3 * n_sys])
                    np.multiply(stack[2 * n_sys : 3 * n_sys], wp, out=stack[3 * n_sys :])
                    prod = _products(stack, o)
                    c = prod[:n_sys]
                    q_obs += prod[n_sys : 2 * n_sys]
                    both += prod[2 * n_sys : 3 * n_sys]
                    both_sq += prod[3 * n_sys :]
                counts += c
            if seg_counts is not None:
                seg_counts += c + len(w_full)
        if seg_counts is not None and task_counts is not None:
            np.fill_diagonal(seg_counts, 0.0)
            task_counts += seg_counts > 0
    neither = partial_w - seen[:, None] - seen[None, :] + both
    mixed = q_sum[None, :] - q_obs.T + seen[:, None] - q_sum[:, None] - both + q_obs
    both_all = both + full_w
    ties = np.maximum(both_all - wins - wins.T, 0.0)
    direct = wins + 0.5 * ties
    imputed = direct + 0.5 * neither + mixed
    both_sq_all = both_sq + full_w2
    counts_all = np.rint(counts) + full_n
    for arr in (direct, both_all, both_sq_all, counts_all, imputed):
        np.fill_diagonal(arr, 0.0)
    imputed = np.maximum(imputed, 0.0)
    if per_task and task_counts is None:
        task_counts = counts_all.copy()
    return _Sums(imputed, direct, both_all, both_sq_all, counts_all, task_scores, task_counts)


def _products(stack: np.ndarray, o: np.ndarray) -> np.ndarray:
    """``stack @ o.T``. For few systems the products are small, and BLAS threads cost more than
    they save (badly so on a busy machine), so einsum's plain loop is used; BLAS beyond that."""
    if o.shape[0] < 64:
        return np.einsum("ik,jk->ij", stack, o)
    return stack @ o.T


def _midranks(scores: np.ndarray, *, tol: float = _SCORE_TOL) -> np.ndarray:
    """Average ranks (1 = highest score) of each column of `scores`; values within a relative
    `tol` of their neighbour (sorted) tie."""
    out = np.empty(scores.shape)
    for t in range(scores.shape[1]):
        v = scores[:, t]
        order = np.argsort(-v, kind="stable")
        sorted_v = v[order]
        scale = tol * max(1.0, float(np.max(np.abs(v))))
        new_group = np.concatenate([[True], (sorted_v[:-1] - sorted_v[1:]) > scale])
        group = np.cumsum(new_group) - 1
        starts = np.nonzero(new_group)[0]
        ends = np.append(starts[1:], len(v))
        mid = (starts + ends + 1) / 2.0  # 1-based average of positions start+1..end
        out[order, t] = mid[group]
    return out


# ---------------------------------------------------------------------- public API
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
        If no system is scored.

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
    from .errors import EmptyTaskError

    x = np.asarray(scores, dtype=np.float64).reshape(-1, 1)
    if x.shape[0] < 1 or np.isnan(x).all():
        raise EmptyTaskError("<partial ranking>")
    if np.isinf(x).any():
        raise LeaderboardError("scores must be finite (NaN marks an unscored system)")
    labels = tuple(f"s{i}" for i in range(x.shape[0]))
    units = _Units(labels, ("t",), x, np.array([0, 1]), np.array([1.0]), True)
    return _accumulate(units, per_task=False).imputed


def impute_pairwise(data: Leaderboard | InstanceScores, *, levels: int = 1) -> ImputationResult:
    """Pairwise matrix of compatible rankings, summed over tasks or instances, and its Borda ranking.

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        Task-level scores (each task one partial ranking) or instance-level scores (each
        instance of each task one partial ranking). Missing scores allowed.
    levels : {1, 2}, default=1
        1: ``sigma_l``, the sum of the matrices of every partial ranking, ranked by Borda
        (eq. 3). 2: ``sigma_2l``, each task ranked by Borda on the sum over its instances,
        then Borda over the task rankings (sec. 2.2.3).

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
        Unknown `levels` or input type.

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
    units = _units(data)
    sums = _accumulate(units, per_task=levels == 2)
    n_sys = len(units.systems)
    task_scores = None
    if levels == 1:
        wins = sums.imputed
        counts = sums.counts
        n_rankings = units.values.shape[1]
    else:
        per_task_scores = np.asarray(sums.task_scores)  # filled because per_task=True
        ranks = _midranks(per_task_scores)
        second = _Units(
            units.systems, units.tasks, -ranks, np.arange(len(units.tasks) + 1), units.task_weights, True
        )
        wins = _accumulate(second, per_task=False).imputed
        counts = np.asarray(sums.task_counts)
        n_rankings = len(units.tasks)
        task_scores = pd.DataFrame(
            per_task_scores, index=pd.Index(units.systems, dtype=object), columns=pd.Index(units.tasks, dtype=object)
        )
    matrix = PairwiseMatrix(units.systems, wins, np.zeros((n_sys, n_sys)), counts, 0.0, "imputed")
    scores = matrix.wins.sum(axis=1)
    ranking = tiers_from_scores(units.systems, scores.tolist(), tol=_SCORE_TOL)
    return ImputationResult(
        method="sigma_l" if levels == 1 else "sigma_2l",
        levels=levels,
        matrix=matrix,
        scores=pd.Series(scores, index=pd.Index(units.systems, dtype=object), name="score"),
        ranking=ranking,
        n_rankings=int(n_rankings),
        task_scores=task_scores,
    )


def sigma_l(data: Leaderboard | InstanceScores) -> ImputationResult:
    """The one-level ranking ``sigma_l`` of Himmi et al. (sec. 2.2.2): ``impute_pairwise(data, levels=1)``.

    Examples
    --------
    >>> import consensus as cs
    >>> sigma_l(cs.load_example("votenrank-toy")).ranking  # complete data: plain Borda
    (('B',), ('C',), ('D',), ('A',))
    """
    return impute_pairwise(data, levels=1)


def sigma_2l(data: Leaderboard | InstanceScores) -> ImputationResult:
    """The two-level ranking ``sigma_2l`` of Himmi et al. (sec. 2.2.3): ``impute_pairwise(data, levels=2)``.

    Each task is ranked by Borda on the sum of its instances' matrices (average ranks for
    ties), then the task rankings are aggregated by weighted Borda.

    Examples
    --------
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
    return impute_pairwise(data, levels=2)


def mean_baseline(data: Leaderboard | InstanceScores) -> MeanBaselineResult:
    """The baseline that ignores missing scores: weighted mean of the available scores.

    For a Leaderboard, ``score_i = sum_t w_t s_it / sum_t w_t`` over the tasks scoring ``i``;
    for instance-level data, first the mean over the scored instances of each task, then the
    same weighted mean over tasks (the two-step mean ``sigma_mu`` of Himmi et al. sec. 1.3 and
    2.4, with missing scores left out). Scores are oriented (lower-is-better tasks negated).

    Raises
    ------
    InvalidWeightError
        If a system is scored only on zero-weight tasks (its mean is undefined).

    Examples
    --------
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, None], "nli": [0.7, None, 0.6]}, index=["a", "b", "c"])
    >>> mean_baseline(Leaderboard.from_frame(frame)).scores.round(3).tolist()
    [0.8, 0.8, 0.6]
    """
    _units(data)  # checks the input type
    table = data.to_leaderboard() if isinstance(data, InstanceScores) else data
    values = table.values
    weights = table.weights.to_numpy(dtype=np.float64)
    present = ~np.isnan(values)
    weight_seen = present @ weights
    dead = np.nonzero(weight_seen <= 0)[0]
    if len(dead):
        raise InvalidWeightError(
            f"system {table.systems[dead[0]]!r} is scored only on tasks of weight 0; its mean is undefined"
        )
    scores = (np.where(present, values, 0.0) @ weights) / weight_seen
    scores[scores == 0] = 0.0
    index = pd.Index(table.systems, dtype=object)
    return MeanBaselineResult(
        scores=pd.Series(scores, index=index, name="score"),
        ranking=tiers_from_scores(table.systems, scores.tolist(), tol=_SCORE_TOL),
        coverage=pd.Series(weight_seen / weights.sum(), index=index, name="coverage"),
    )


def pairwise_confidence(data: Leaderboard | InstanceScores, *, delta: float = 0.05) -> PairwiseConfidence:
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
    delta : float, default=0.05
        Error level, strictly between 0 and 1.

    Returns
    -------
    PairwiseConfidence
        Matrices in the order of the ``sigma_l`` ranking (``order``): ``estimate``,
        ``half_width``, ``lower``, ``upper``, ``confident``, ``counts``; ``to_frame()`` lists
        every ordered pair.

    Raises
    ------
    InvalidOptionError
        If `delta` is not a number in (0, 1) (NaN, negative, 0, 1, ...).

    References
    ----------
    .. [1] Himmi et al. 2023, sec. 2.3 (eq. 4) and 4.4 (Figure 6).
    .. [2] W. Hoeffding, "Probability inequalities for sums of bounded random variables", 1963.

    Examples
    --------
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
    delta = _check_delta(delta)
    units = _units(data)
    sums = _accumulate(units, per_task=False)
    scores = sums.imputed.sum(axis=1)
    ranking = tiers_from_scores(units.systems, scores.tolist(), tol=_SCORE_TOL)
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
