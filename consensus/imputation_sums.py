"""The sums behind the imputed pairwise matrix: every partial ranking's compatible-permutation matrix, added up.

Himmi et al. 2023 (sec. 2.2): a task (or instance) that scores only some systems is a
partial ranking; each of its compatible full rankings is equally likely, so system ``i``
beats ``j`` with probability 1 (both scored, ``i`` better), 1/2 (tied, or neither
scored), or the share of compatible rankings placing ``i`` above ``j`` (one scored).
:func:`accumulate` adds these matrices over all partial rankings, in chunks, with the
counts of direct comparisons; :mod:`consensus.impute` and :mod:`consensus.confidence`
build their results from the sums.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import InvalidOptionError
from .instances import InstanceScores
from .leaderboard import Leaderboard
from .limits import check_square_matrices

__all__ = ["SCORE_TOL", "Units", "units_of", "accumulate", "midranks"]

#: Booleans per chunk of the N x N x c comparison block (4 MiB).
_CHUNK_CELLS = 1 << 22
#: Relative tolerance under which two float Borda sums count as tied.
SCORE_TOL = 1e-9


# ---------------------------------------------------------------------- input normalisation
@dataclass(frozen=True, slots=True)
class Units:
    """The partial rankings to sum: columns of `values` (systems x units), grouped in tasks.

    A *unit* is one partial ranking: a task of a Leaderboard, or one instance of a task of
    InstanceScores. Built by :func:`units_of`.

    Attributes
    ----------
    systems : tuple of str
        Row labels.
    tasks : tuple of str
        Task labels.
    values : numpy.ndarray (n_systems, n_units)
        Oriented scores (higher is better), NaN where a system is not scored.
    offsets : numpy.ndarray (n_tasks + 1,)
        Task ``t`` is the columns ``offsets[t]:offsets[t + 1]``.
    task_weights : numpy.ndarray (n_tasks,)
        The raw task weights (not normalized); each unit of a task carries its weight.
    one_per_task : bool
        Every task is a single column (task-level data).
    """

    systems: tuple[str, ...]
    tasks: tuple[str, ...]
    values: np.ndarray  # oriented, higher is better, NaN missing
    offsets: np.ndarray  # task t = columns offsets[t]:offsets[t + 1]
    task_weights: np.ndarray  # raw task weights
    one_per_task: bool  # every task is a single column (task-level data)


def units_of(data: object) -> Units:
    """The partial rankings of a Leaderboard (one per task) or InstanceScores (one per instance).

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        The scores; missing scores allowed.

    Returns
    -------
    Units
        Oriented values, task offsets and raw task weights of `data`.

    Raises
    ------
    InvalidOptionError
        If `data` is neither a Leaderboard nor InstanceScores.

    Examples
    --------
    >>> import consensus as cs
    >>> units = units_of(cs.load_example("votenrank-toy"))
    >>> units.values.shape, units.offsets.tolist(), units.one_per_task
    ((4, 5), [0, 1, 2, 3, 4, 5], True)
    """
    if isinstance(data, Leaderboard):
        return Units(
            data.systems,
            data.tasks,
            data.values,
            np.arange(data.n_tasks + 1),
            data.weights.to_numpy(dtype=np.float64),
            True,
        )
    if isinstance(data, InstanceScores):
        return Units(
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


def accumulate(units: Units, *, per_task: bool) -> _Sums:
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

    Parameters
    ----------
    units : Units
        The partial rankings (see :func:`units_of`).
    per_task : bool
        Also return the per-task row sums and per-task comparison counts (needed by the
        two-level ranking ``sigma_2l``).

    Returns
    -------
    _Sums
        N x N weighted sums, zero on the diagonal: ``imputed`` (``sum w M``), ``direct``
        (direct wins, ties 1/2), ``both`` and ``both_sq`` (``sum w`` and ``sum w**2`` over
        the units scoring both systems), ``counts`` (units scoring both); with `per_task`
        also ``task_scores`` (N x T unweighted row sums) and ``task_counts`` (tasks with a
        direct comparison), else None.

    Examples
    --------
    >>> import consensus as cs
    >>> sums = accumulate(units_of(cs.load_example("votenrank-toy")), per_task=False)
    >>> sums.imputed.sum(axis=1).tolist()  # complete data: Borda scores
    [6.0, 9.0, 8.0, 7.0]
    >>> sums.task_scores is None
    True
    """
    values, offsets, tw = units.values, units.offsets, units.task_weights
    n_sys, n_cols = values.shape
    n_tasks = len(units.tasks)
    col_w = np.repeat(tw, np.diff(offsets))
    check_square_matrices(n_sys, 8, "the imputed pairwise comparison")
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


def midranks(scores: np.ndarray, *, tol: float = SCORE_TOL) -> np.ndarray:
    """Average ranks (1 = highest score) of each column of `scores`.

    Values within ``tol * max(1, max |column|)`` of their sorted neighbour tie (so a chain
    of close values forms one group); tied values share the mean of their positions.

    Parameters
    ----------
    scores : numpy.ndarray
        Scores, systems x columns (complete: no NaN).
    tol : float, default=SCORE_TOL
        Relative tolerance under which neighbouring scores tie.

    Returns
    -------
    numpy.ndarray
        Float midranks, same shape as `scores`.

    Examples
    --------
    >>> import numpy as np
    >>> midranks(np.array([[0.9, 1.0], [0.5, 1.0], [0.9, 0.0]])).tolist()
    [[1.5, 1.5], [3.0, 1.5], [1.5, 3.0]]
    """
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
