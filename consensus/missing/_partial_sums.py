"""Additive partial sums of the imputed pairwise matrix, and the two kernels that fill them.

:class:`PartialSums` holds sums over columns (tasks or instances) that add up over disjoint
sets of columns: :func:`consensus.missing._imputation_sums.accumulate` fills one in memory, and
:mod:`consensus.missing._dask_sums` fills one per Dask partition and adds them. :meth:`PartialSums.finish`
turns them into the matrices (:class:`_Sums`); :class:`Summed` attaches the labels. The formulas
are in the docstring of :func:`consensus.missing._imputation_sums.accumulate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["MAX_LEVELS", "KERNELS", "PartialSums", "Summed"]

#: Booleans per chunk of the N x N x c comparison block (4 MiB).
_CHUNK_CELLS = 1 << 22


@dataclass(frozen=True, slots=True)
class _Sums:
    """Weighted sums over all units (tasks or instances), each N x N unless noted.

    When every unit has the same weight ``w``, the weighted counts are ``w * counts`` and
    ``w**2 * counts``: they are then made only when asked for (``kept_both`` is None).
    """

    imputed: np.ndarray  # sum of w * M (the compatible-ranking matrices)
    direct: np.ndarray  # sum of w * [i beats j] + w / 2 * [tie], both scored
    kept_both: tuple[np.ndarray, np.ndarray] | None  # the two below, or None: weight * counts
    weight: float  # the weight of every unit, when kept_both is None
    counts: np.ndarray  # number of units scoring both
    task_scores: np.ndarray | None  # N x T: row sums of each task's (unweighted) sum of M
    task_counts: np.ndarray | None  # number of tasks with at least one unit scoring both

    @property
    def both(self) -> np.ndarray:
        """Sum of w over units scoring both."""
        return self.kept_both[0] if self.kept_both is not None else self.weight * self.counts

    @property
    def both_sq(self) -> np.ndarray:
        """Sum of w**2 over units scoring both (effective sample size)."""
        return self.kept_both[1] if self.kept_both is not None else (self.weight * self.weight) * self.counts


#: A task whose scores take at most this many distinct values is summed with one matrix product
#: per value (the "levels" kernel); others by comparing every pair (the "compare" kernel).
MAX_LEVELS = 32
#: Cells (systems x columns) per chunk of the levels kernel (8 bytes each: 32 MiB per array).
_LEVEL_CELLS = 1 << 22
#: Sums of fewer 0/1 products than this are whole numbers that float32 holds exactly (2**24).
_EXACT_F32 = 1 << 24
KERNELS = ("auto", "levels", "compare")


class PartialSums:
    """Additive partial sums of the imputed pairwise matrix: add segments, add two of them, finish.

    Every field is a sum over columns, so the sums of disjoint sets of columns add up (the
    map-reduce of :func:`consensus.impute_pairwise` on a Dask cluster); :meth:`finish` turns
    them into the matrices. A *segment* is the columns of one task (instance-level data), or
    any set of whole tasks (task-level data, ``task=-1``: one column per task, in order).

    Parameters
    ----------
    n_systems, n_tasks : int
    per_task : bool
        Keep the per-task row sums and per-task comparison counts (``sigma_2l``).
    split_tasks : bool
        Tasks have several columns (instances): per-task counts are kept per segment.
    task_split_across_parts : bool, default=False
        A task's columns may arrive in several :class:`PartialSums` (a Dask partition holds
        some instances of a task): the per-task "compared in this task" indicators are then
        kept per task (``task_pairs``) and OR-ed when two sums are added, instead of counted
        per segment; :meth:`finish` counts them.
    """

    def __init__(
        self, n_systems: int, n_tasks: int, *, per_task: bool, split_tasks: bool, task_split_across_parts: bool = False
    ) -> None:
        n = n_systems
        self.n_systems, self.n_tasks = n, n_tasks
        self.wins = np.zeros((n, n))  # sum w [i beats j]
        # sums over the columns with an unscored system ("partial" columns)
        self.counts = np.zeros((n, n))  # sum o_i o_j
        # sum w o_i o_j and sum w^2 o_i o_j: while every partial column has the same weight
        # (`weight`), they are weight * counts and weight**2 * counts, and are not kept
        self.both: np.ndarray | None = None
        self.both_sq: np.ndarray | None = None
        self.weight: float | None = None
        self.q_obs = np.zeros((n, n))  # P[i, j] = sum w q_i o_j
        self.seen = np.zeros(n)  # sum w o_i
        self.q_sum = np.zeros(n)  # sum w q_i
        self.partial_w = 0.0  # sum w
        # complete columns: every pair compared
        self.full_w = self.full_w2 = 0.0
        self.full_n = 0
        self.task_scores = np.zeros((n, n_tasks)) if per_task else None
        self.task_counts = np.zeros((n, n)) if per_task and split_tasks else None
        self.task_pairs: dict[int, np.ndarray] | None = {} if per_task and split_tasks and task_split_across_parts else None
        self.per_task = per_task

    def _weighted(self, weight: float) -> bool:
        """Whether the weighted sums are kept, given partial columns of `weight` come next (kept
        from the first column set whose weight differs from the previous ones)."""
        if self.both is None and (self.weight is None or weight == self.weight):
            self.weight = weight
            return False
        self._keep_weighted()
        return True

    def _keep_weighted(self) -> None:
        """Keep the weighted sums from now on: what they hold so far, from `counts`."""
        if self.both is None:
            common = 0.0 if self.weight is None else self.weight
            self.both = common * self.counts
            self.both_sq = (common * common) * self.counts

    def __iadd__(self, other: PartialSums) -> PartialSums:
        if other.both is not None or (other.weight is not None and self._weighted(other.weight)):
            self._keep_weighted()
            assert self.both is not None and self.both_sq is not None
            if other.both is not None and other.both_sq is not None:
                self.both += other.both
                self.both_sq += other.both_sq
            else:
                common = 0.0 if other.weight is None else other.weight
                self.both += common * other.counts
                self.both_sq += (common * common) * other.counts
        for name in ("wins", "counts", "q_obs", "seen", "q_sum", "task_scores", "task_counts"):
            mine = getattr(self, name)
            if mine is not None:
                mine += getattr(other, name)
        self.partial_w += other.partial_w
        self.full_w += other.full_w
        self.full_w2 += other.full_w2
        self.full_n += other.full_n
        if self.task_pairs is not None and other.task_pairs is not None:
            for task, pairs in other.task_pairs.items():
                mine = self.task_pairs.get(task)
                self.task_pairs[task] = pairs.copy() if mine is None else (mine | pairs)
        return self

    def add_segment(self, values: np.ndarray, w: np.ndarray, task: int, *, kernel: str = "auto") -> None:
        """Add the columns of one task (``task >= 0``) or of whole tasks in order (``task=-1``).

        Parameters
        ----------
        values : numpy.ndarray (n_systems, c)
            Oriented scores, NaN where a system is not scored.
        w : numpy.ndarray (c,)
            The weight of each column.
        task : int
            The task of every column, or -1 when column ``k`` is task ``k`` of a run of tasks
            added in order (task-level data: then ``values`` holds every task).
        kernel : {"auto", "levels", "compare"}, default="auto"
            See :func:`accumulate`.
        """
        n_sys, n_cols = values.shape
        levels = None
        if kernel == "levels" and n_cols:
            levels = np.unique(values[~np.isnan(values)])
        elif kernel == "auto" and n_cols:
            levels = _few_levels(values)
        if levels is not None:
            chunk = max(1, _LEVEL_CELLS // max(n_sys, 1))
        else:
            chunk = max(1, _CHUNK_CELLS // (n_sys * n_sys))
        seg_counts = np.zeros((n_sys, n_sys)) if self.task_counts is not None else None
        for s in range(0, n_cols, chunk):
            e = min(s + chunk, n_cols)
            self._add_chunk(values[:, s:e], w[s:e], task, s, levels, seg_counts)
        if seg_counts is not None and self.task_counts is not None:
            np.fill_diagonal(seg_counts, 0.0)
            if self.task_pairs is not None:
                mine = self.task_pairs.get(task)
                self.task_pairs[task] = (seg_counts > 0) if mine is None else (mine | (seg_counts > 0))
            else:
                self.task_counts += seg_counts > 0

    def _add_chunk(
        self, x: np.ndarray, w: np.ndarray, task: int, first: int, levels: np.ndarray | None,
        seg_counts: np.ndarray | None,
    ) -> None:
        n_sys = x.shape[0]
        obs = ~np.isnan(x)
        if levels is not None:
            better, worse = _level_counts(x, obs, levels, w, self.wins)
        else:
            beats = x[:, None, :] > x[None, :, :]
            better = beats.sum(axis=0, dtype=np.int64)
            worse = beats.sum(axis=1, dtype=np.int64)
            if np.all(w == w[0]):
                self.wins += float(w[0]) * beats.sum(axis=2, dtype=np.int64)
            else:
                self.wins += np.einsum("ijk,k->ij", beats, w)
            del beats
        n = obs.sum(axis=0)
        partial = n < n_sys
        n_partial = int(partial.sum())
        w_full = w[~partial]
        self.full_w += float(w_full.sum())
        self.full_w2 += float((w_full * w_full).sum())
        self.full_n += len(w_full)
        if self.task_scores is None and n_partial == 0:
            if seg_counts is not None:
                seg_counts += len(w_full)
            return
        q = (better - worse) / (n + 1.0)
        q += 1.0
        q *= 0.5
        q *= obs  # 0 where unscored
        if self.task_scores is not None:
            # row sums of the unit matrices: scored i: (n - midrank) + (N - n)(1 - q); else (N - 1)/2
            rows = np.where(obs, 0.5 * (n - 1 - better + worse) + (n_sys - n) * (1.0 - q), 0.5 * (n_sys - 1))
            if task < 0:
                self.task_scores[:, first : first + x.shape[1]] += rows
            else:
                self.task_scores[:, task] += rows.sum(axis=1)
        if n_partial:
            c = self._add_partial(obs[:, partial], q[:, partial], w[partial])
            if seg_counts is not None:
                seg_counts += c
        if seg_counts is not None:
            seg_counts += len(w_full)

    def _add_partial(self, obs: np.ndarray, q: np.ndarray, wp: np.ndarray) -> np.ndarray:
        """The columns with an unscored system: the products of the docstring of :func:`accumulate`."""
        n_sys, n_partial = obs.shape
        uniform = bool(np.all(wp == wp[0]))
        stack = np.empty((2 * n_sys if uniform else 4 * n_sys, n_partial))
        o = stack[:n_sys]
        np.copyto(o, obs)
        stack[n_sys : 2 * n_sys] = q
        qp = stack[n_sys : 2 * n_sys]
        self.partial_w += float(wp.sum())
        if uniform:
            w0 = float(wp[0])
            self.seen += w0 * o.sum(axis=1)
            self.q_sum += w0 * qp.sum(axis=1)
            if n_partial < _EXACT_F32:  # the 0/1 counts in float32 (exact), the shares in float64
                o32 = o.astype(np.float32)
                c = _products(o32, o32)
                q_obs = _products(qp, o)
            else:
                prod = _products(stack, o)
                c, q_obs = prod[:n_sys], prod[n_sys:]
            if self._weighted(w0):
                assert self.both is not None and self.both_sq is not None
                _add_scaled(self.both, c, w0)
                _add_scaled(self.both_sq, c, w0 * w0)
            _add_scaled(self.q_obs, q_obs, w0)  # in place: no N x N temporary beside the product
            del q_obs
        else:
            self.seen += o @ wp
            self.q_sum += qp @ wp
            qp *= wp
            np.multiply(o, wp, out=stack[2 * n_sys : 3 * n_sys])
            np.multiply(stack[2 * n_sys : 3 * n_sys], wp, out=stack[3 * n_sys :])
            prod = _products(stack, o)
            c = prod[:n_sys]
            self.q_obs += prod[n_sys : 2 * n_sys]
            self._keep_weighted()  # a column set of several weights
            assert self.both is not None and self.both_sq is not None
            self.both += prod[2 * n_sys : 3 * n_sys]
            self.both_sq += prod[3 * n_sys :]
        self.counts += c
        return c

    def finish(self) -> _Sums:
        """The matrices from the sums (see :func:`accumulate`). The sums are used up: their
        arrays become the results' (an N x N matrix is 200 MB at 5,000 systems), and N x N
        temporaries are few.

        Returns
        -------
        _Sums
        """
        seen, q_sum, counts = self.seen, self.q_sum, self.counts
        # one weight for every unit: the weighted counts are that weight times the counts
        common = self.weight if self.weight is not None else (self.full_w / self.full_n if self.full_n else 0.0)
        uniform = self.both is None and (
            self.full_n == 0 or (self.full_w == common * self.full_n and self.full_w2 == common * common * self.full_n))
        if self.both is None and not uniform:
            self._keep_weighted()
        mixed = self.q_obs - self.q_obs.T
        mixed += q_sum[None, :]
        mixed -= q_sum[:, None]
        mixed += seen[:, None]
        neither = self.q_obs  # reused
        if self.both is None:
            partial = 0.0 if self.weight is None else self.weight
            _add_scaled(mixed, counts, -partial)
            np.multiply(counts, partial, out=neither)
            ties = counts * partial
        else:
            mixed -= self.both
            neither[...] = self.both
            ties = self.both.copy()
        neither += self.partial_w
        neither -= seen[:, None]
        neither -= seen[None, :]
        ties += self.full_w  # both_all
        wins = self.wins
        ties -= wins
        ties -= wins.T
        np.maximum(ties, 0.0, out=ties)
        ties *= 0.5
        direct = wins  # reused
        direct += ties
        del ties
        imputed = mixed  # reused
        imputed += direct
        neither *= 0.5
        imputed += neither
        del neither
        counts_all = counts  # reused
        np.rint(counts_all, out=counts_all)
        counts_all += self.full_n
        kept_both = None
        if self.both is not None and self.both_sq is not None:
            kept_both = (self.both + self.full_w, self.both_sq + self.full_w2)
        for arr in (direct, counts_all, imputed, *(kept_both or ())):
            np.fill_diagonal(arr, 0.0)
        np.maximum(imputed, 0.0, out=imputed)
        task_counts: np.ndarray | None = self.task_counts  # any dtype: numpy's stubs type the sums differently by version
        if self.task_pairs is not None and task_counts is not None:
            task_counts = task_counts + sum(self.task_pairs.values(), np.zeros_like(task_counts))
        if self.per_task and task_counts is None:
            task_counts = counts_all.copy()
        self.wins = self.counts = self.q_obs = np.zeros((0, 0))  # used up
        self.both = self.both_sq = None
        return _Sums(imputed, direct, kept_both, common, counts_all, self.task_scores, task_counts)


def _add_scaled(target: np.ndarray, source: np.ndarray, factor: float) -> None:
    """``target += factor * source`` in blocks of rows (no N x N temporary)."""
    if factor == 1.0:
        target += source
        return
    if factor == 0.0:
        return
    step = max(1, (1 << 20) // max(source.shape[1], 1))
    for a in range(0, source.shape[0], step):
        target[a : a + step] += np.multiply(source[a : a + step], factor, dtype=np.float64)  # float32 counts too


def _few_levels(values: np.ndarray) -> np.ndarray | None:
    """The distinct scores of `values` if there are at most :data:`MAX_LEVELS`, else None.

    Cheap on continuous scores: the first 4,096 cells already show more values than that.
    """
    flat = values.ravel()
    sample = np.unique(flat[:4096])
    sample = sample[~np.isnan(sample)]
    if len(sample) > MAX_LEVELS:
        return None
    observed = flat[~np.isnan(flat)]
    if len(sample) and np.isin(observed, sample).all():
        return sample
    distinct = np.unique(observed)
    return distinct if len(distinct) <= MAX_LEVELS else None


def _level_counts(
    x: np.ndarray, obs: np.ndarray, levels: np.ndarray, w: np.ndarray, wins: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The levels kernel: add ``sum_k w_k [x_ik > x_jk]`` to `wins` with one matrix product per
    value, and return ``better`` / ``worse`` (scored systems strictly above / below, per column).

    ``[x_i > x_j] = sum_a [x_i = a] [x_j < a]``, so ``G w = sum_a (E_a * w) @ L_a^T``; the
    lowest value has nothing below it and is skipped. Products of 0/1 matrices are exact
    integer counts (in float32 on uniform weights, below 2**24 columns; float64 otherwise),
    times the weight when it is uniform (as the compare kernel).
    """
    n_sys, c = x.shape
    n_lv = len(levels)
    cell_level = np.where(obs, np.searchsorted(levels, np.where(obs, x, levels[0])), n_lv)  # n_lv: unscored
    counts = np.zeros((n_lv + 1, c), dtype=np.int64)  # row n_lv stays 0: unscored cells count nowhere
    uniform = bool(np.all(w == w[0]))
    # uniform weights: products of 0/1 matrices, whole counts up to c < 2**24: exact in float32,
    # at half the cost of float64 (BLAS sgemm); weighted ones stay float64
    exact: type[np.floating[Any]] = np.float32 if uniform and c < _EXACT_F32 else np.float64
    lower: np.ndarray = np.zeros(x.shape, dtype=exact)  # L_a: scored and below the current value
    total = np.zeros((n_sys, n_sys), dtype=exact)  # whole counts: exact in float32 as the products
    for a in range(n_lv):
        here = cell_level == a
        counts[a] = here.sum(axis=0)
        if a > 0:
            e = here.astype(exact)
            if not uniform:
                e *= w
            total += _products(e, lower)
        if a < n_lv - 1:
            lower += here
    _add_scaled(wins, total, float(w[0]) if uniform else 1.0)  # the weight times whole counts, as before
    del total
    above = np.cumsum(counts[::-1], axis=0)[::-1] - counts  # scored values strictly above each level
    below = np.cumsum(counts, axis=0) - counts  # strictly below
    above[n_lv] = below[n_lv] = 0
    better = np.take_along_axis(above, cell_level, axis=0)
    worse = np.take_along_axis(below, cell_level, axis=0)
    return better, worse


@dataclass(frozen=True, slots=True)
class Summed:
    """The sums of :func:`accumulate` with the labels they are about: what the results are built from.

    Attributes
    ----------
    systems, tasks : tuple of str
    task_weights : numpy.ndarray
        Raw task weights.
    n_units : int
        Partial rankings summed (tasks, or instances).
    sums : _Sums
    """

    systems: tuple[str, ...]
    tasks: tuple[str, ...]
    task_weights: np.ndarray
    n_units: int
    sums: _Sums


def _products(stack: np.ndarray, o: np.ndarray) -> np.ndarray:
    """``stack @ o.T``. For few systems the products are small, and BLAS threads cost more than
    they save (badly so on a busy machine), so einsum's plain loop is used; BLAS beyond that."""
    if o.shape[0] < 64:
        return np.einsum("ik,jk->ij", stack, o)
    return stack @ o.T
