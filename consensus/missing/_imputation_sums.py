"""The sums behind the imputed pairwise matrix: every partial ranking's compatible-permutation matrix, added up.

Himmi et al. 2023 (sec. 2.2): a task (or instance) that scores only some systems is a
partial ranking; each of its compatible full rankings is equally likely, so system ``i``
beats ``j`` with probability 1 (both scored, ``i`` better), 1/2 (tied, or neither
scored), or the share of compatible rankings placing ``i`` above ``j`` (one scored).
:func:`accumulate` adds these matrices over all partial rankings, in chunks, with the
counts of direct comparisons; :mod:`consensus.missing._impute` and :mod:`consensus.missing._confidence`
build their results from the sums.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._docstrings import fill_doc
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..io._limits import check_square_matrices
from ._docs import SECTIONS
from ._partial_sums import KERNELS, MAX_LEVELS, PartialSums, Summed, _Sums

__all__ = ["SCORE_TOL", "MAX_LEVELS", "PartialSums", "Summed", "Units", "units_of", "accumulate", "summed", "midranks"]

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


@fill_doc(SECTIONS)
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
    {not_scores}

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
            data.weight_array,
            True,
        )
    if isinstance(data, InstanceScores):
        return Units(
            data.systems,
            data.tasks,
            data.values,
            np.asarray(data.offsets),
            data.weight_array,
            bool(np.all(np.diff(data.offsets) == 1)),
        )
    raise InvalidOptionError(
        f"expected a Leaderboard or InstanceScores, got {type(data).__name__}; "
        "build one with Leaderboard.from_frame or InstanceScores.from_long"
    )


# ---------------------------------------------------------------------- the kernel
def accumulate(units: Units, *, per_task: bool, kernel: str = "auto") -> _Sums:
    """Sum the compatible-ranking matrices of every column of `units.values`, chunk by chunk.

    For a chunk ``x`` (N x c): ``G[i, j, k] = x[i, k] > x[j, k]`` (NaN compares False),
    ``better`` and ``worse`` count the scored systems strictly above and below each scored
    system, so its midrank is ``(n + 1 + better - worse) / 2`` with ``n`` scored systems, and
    ``q = midrank / (n + 1)`` is the share of compatible rankings that put an unscored system
    above it (0 for an unscored system). With ``o`` the scored indicator, ``u = 1 - o`` and the
    column weights ``w``, the four cases of the module notes sum to::

        both scored:  G w  +  1/2 (o w o^T - G w - (G w)^T)      (ties count 1/2)
        neither:      1/2 u w u^T
        i unscored:   u w q^T                                     (i above scored j)
        j unscored:   (o - q) w u^T                               (scored i above j)

    Only columns with an unscored system contribute to the last three lines. Over those,
    expanding ``u = 1 - o`` leaves two products, ``o w o^T`` and ``q w o^T``, plus the vectors
    ``sum_k w``, ``o w`` and ``q w``: one ``(2N x c) @ (c x N)`` product per chunk (four blocks
    when the weights vary inside the chunk). Complete columns only add their weight to every
    pair, so complete data gives Borda's sums exactly.

    ``G w`` itself has two kernels (:class:`PartialSums`): when a task's scores take few
    distinct values (0/1 correctness, Likert, small integers: at most :data:`MAX_LEVELS`),
    ``G w = sum_a (E_a w) L_a^T`` with ``E_a`` the indicator of value ``a`` and ``L_a`` of the
    scored values below ``a``: one matrix product per value, and ``better`` / ``worse`` from
    per-column value counts; otherwise every pair is compared (an N x N x c block per chunk).
    Both give the same integer counts, hence the same sums (bit for bit when both see the same
    chunks; the levels kernel takes larger chunks, so on large data the float sums of midrank
    shares may differ in the last bits).

    Parameters
    ----------
    units : Units
        The partial rankings (see :func:`units_of`).
    per_task : bool
        Also return the per-task row sums and per-task comparison counts (needed by the
        two-level ranking ``sigma_2l``).
    kernel : {"auto", "levels", "compare"}, default="auto"
        ``"auto"``: levels where a task has at most :data:`MAX_LEVELS` distinct scores;
        ``"compare"``: every pair compared (the reference); ``"levels"``: the levels kernel
        for every task, whatever its number of distinct values (for tests).

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
    if kernel not in KERNELS:
        raise InvalidOptionError(f"kernel must be one of {', '.join(KERNELS)}, got {kernel!r}")
    values, offsets, tw = units.values, units.offsets, units.task_weights
    n_sys, n_cols = values.shape
    check_square_matrices(n_sys, 8, "the imputed pairwise comparison")
    acc = PartialSums(n_sys, len(units.tasks), per_task=per_task, split_tasks=not units.one_per_task)
    col_w = np.repeat(tw, np.diff(offsets))
    if units.one_per_task:
        segments = [(0, n_cols, -1)]
    else:
        segments = [(int(offsets[t]), int(offsets[t + 1]), t) for t in range(len(units.tasks))]
    for start, stop, task in segments:
        acc.add_segment(values[:, start:stop], col_w[start:stop], task, kernel=kernel)
    return acc.finish()


def _is_dask_frame(data: object) -> bool:
    return type(data).__module__.startswith("dask")


def summed(data: object, *, per_task: bool, scheduler: object = None) -> Summed:
    """The pairwise sums of `data`: in memory (:func:`accumulate`), or a map-reduce on Dask.

    Parameters
    ----------
    data : Leaderboard, InstanceScores or InstanceSource
        An :class:`~consensus.missing._instance_source.InstanceSource` of files is summed
        in-process by item blocks in bounded memory
        (:func:`consensus.missing._item_blocks.stream_summed`), or with Dask when `scheduler`
        is given (:func:`consensus.missing._dask_sums.dask_summed`; a Dask DataFrame always).
    per_task : bool
        See :func:`accumulate`.
    scheduler : object, optional
        For an InstanceSource: sum it on Dask, with what ``dask.compute(scheduler=...)``
        takes (``"threads"``, ``"processes"``, ``"synchronous"``, a ``distributed.Client``);
        None: files in-process, a Dask DataFrame on Dask's default scheduler. Must be None
        for in-memory data.

    Returns
    -------
    Summed

    Raises
    ------
    InvalidOptionError
        `data` of another type, or `scheduler` with in-memory data.

    Examples
    --------
    >>> import consensus as cs
    >>> summed(cs.load_example("votenrank-toy"), per_task=False).n_units
    5
    """
    from ._instance_source import InstanceSource

    if isinstance(data, InstanceSource):
        if scheduler is None and not _is_dask_frame(data.data):
            from ._item_blocks import stream_summed

            return stream_summed(data, per_task=per_task)
        from ._dask_sums import dask_summed

        return dask_summed(data, per_task=per_task, scheduler=scheduler)
    if scheduler is not None:
        raise InvalidOptionError(
            "scheduler= applies to an InstanceSource (scores summed on Dask); this data is already in memory"
        )
    units = units_of(data)
    return Summed(units.systems, units.tasks, units.task_weights, units.values.shape[1], accumulate(units, per_task=per_task))


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
