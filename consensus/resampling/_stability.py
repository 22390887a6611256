"""Rank uncertainty for every rule: how sure is this ranking?

:func:`rank_stability` ranks the leaderboard with each rule many times, each time on a
resampled version of the data, and returns a :class:`~consensus.results.StabilityResult`:
per rule and system a rank interval, the probability of being first or in the top k, the
systems not separable from the top, and per adjacent pair of the full-data ranking the share
of resamples keeping their order. Three resampling schemes:

- ``"bootstrap"``: draw T tasks with replacement (T = number of tasks); a task drawn c times
  gets c times its weight (:meth:`~consensus.Leaderboard.with_weights`), and a task never
  drawn is left out. For every weighted rule this is the same as ranking a leaderboard with
  the task duplicated c times (each copy with the task's weight), without copying scores;
- ``"leave_k_out"``: drop k tasks drawn at random (without replacement) per resample;
- ``"instances"`` (:class:`~consensus.InstanceScores` only): keep every task, and within each
  task draw its instances with replacement, so the task means move with the test items. When
  instance scores exist this is the informative scheme for "is the gap larger than the test
  set noise?"; the task-level schemes answer "would other tasks change the ranking?".

On instance scores the task-level schemes resample the task means
(:meth:`~consensus.InstanceScores.to_leaderboard`), which is how every rule ranks them.

Repetitions go through :func:`consensus.resampling._repetitions.run_repetitions`: resample ``r`` draws
from ``numpy.random.default_rng(SeedSequence(seed).spawn(resamples)[r])``, so the positions
are the same value for value whether the resamples run in this process or on a Dask cluster
(Kemeny runs single-threaded, warm-started from its full-data ranking; only a solve stopped
by `time_limit` can depend on the machine, and those are counted).

References
----------
.. [1] Efron and Tibshirani, "An Introduction to the Bootstrap", 1993 (the bootstrap and
   percentile intervals).
.. [2] Hall, Miller, "Using the bootstrap to quantify the authority of an empirical ranking",
   Annals of Statistics 37(6B), 2009 (bootstrap intervals for ranks).
.. [3] Colombo, Noiry, Irurozki, Clemencon, "What are the best systems? New perspectives on
   NLP benchmarking", NeurIPS 2022 (instance-level scores).
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_count, check_seconds, check_seed, check_share
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import DegenerateTaskWarning, InvalidOptionError
from ..io._limits import check_repetitions
from ..results.stability import StabilityResult
from ._repetitions import (
    REPETITION_DOCS,
    check_progress,
    check_scheduler,
    run_repetitions,
    spawn_seeds,
)
from ._rule_runs import DEFAULT_RULES, check_rules, rule_positions

__all__ = ["RESAMPLINGS", "rank_stability"]

logger = logging.getLogger(__name__)

Resampling = Literal["bootstrap", "leave_k_out", "instances"]
#: The resampling schemes of :func:`rank_stability`.
RESAMPLINGS = ("bootstrap", "leave_k_out", "instances")


@dataclass(frozen=True)
class _Job:
    """What every resample shares (pickled once per batch to a cluster)."""

    data: Leaderboard | InstanceScores
    resampling: str
    k: int
    rules: tuple[str, ...]
    systems: tuple[str, ...]
    initial: Mapping[str, tuple[str, ...]]
    time_limit: float | None


def _task_sample(board: Leaderboard, method: str, k: int, rng: np.random.Generator) -> Leaderboard | None:
    """The resampled tasks of `board` (None when fewer than 2 systems keep a weighted score)."""
    n = board.n_tasks
    if method == "bootstrap":
        counts = np.bincount(rng.integers(0, n, size=n), minlength=n)
    else:
        counts = np.ones(n, dtype=np.int64)
        counts[rng.choice(n, size=k, replace=False)] = 0
    kept = np.flatnonzero(counts)
    weights = board.weight_array[kept] * counts[kept]
    if not weights.sum() > 0:
        return None
    scored = ~np.isnan(board.values[:, kept])
    systems = [s for s, row in zip(board.systems, scored) if row.any()]
    if len(systems) < 2:
        return None
    tasks = [board.tasks[j] for j in kept]
    sample = board.select(systems=None if len(systems) == board.n_systems else systems, tasks=tasks)
    if method == "bootstrap":
        sample = sample.with_weights(dict(zip(tasks, weights.tolist())))
    return sample


def _instance_sample(data: InstanceScores, rng: np.random.Generator) -> InstanceScores | None:
    """Every task's instances drawn with replacement (None when fewer than 2 systems keep a score)."""
    offsets = data.offsets
    sizes = np.diff(offsets)
    columns = np.concatenate([a + rng.integers(0, size, size=size) for a, size in zip(offsets[:-1], sizes)])
    values = data.values[:, columns]
    keep = ~np.isnan(values).all(axis=1)
    if keep.sum() < 2:
        return None
    return InstanceScores(
        values[keep] if not keep.all() else values,
        systems=[s for s, k in zip(data.systems, keep) if k],
        tasks=data.tasks,
        offsets=offsets,
        instances=[pd.RangeIndex(int(size)) for size in sizes],
        lower_is_better=data.lower_is_better,
        weights=dict(data.weights.items()),
        oriented=True,
        copy=False,
    )


def _one_resample(payload: tuple[_Job, np.random.SeedSequence]) -> tuple[np.ndarray, str, float, bool | None]:
    """One resample: positions (rules x systems, NaN where not ranked), Kemeny status, gap and uniqueness."""
    job, child = payload
    rng = np.random.default_rng(child)
    positions = np.full((len(job.rules), len(job.systems)), np.nan)
    with warnings.catch_warnings():  # a resample may tie every system on a task: not news
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        if job.resampling == "instances":
            sample: Leaderboard | InstanceScores | None = _instance_sample(job.data, rng)  # type: ignore[arg-type]
        else:
            sample = _task_sample(job.data, job.resampling, job.k, rng)  # type: ignore[arg-type]
        if sample is None:
            return positions, "", float("nan"), None
        runs = rule_positions(sample, job.rules, systems=job.systems, initial=job.initial,
                              time_limit=job.time_limit)
    for r, rule in enumerate(job.rules):
        positions[r] = runs[rule].positions
    kemeny = runs.get("kemeny")
    if kemeny is None:
        return positions, "", float("nan"), None
    return positions, kemeny.status, kemeny.gap, kemeny.unique


def _check_options(
    data: object, resampling: object, k: object, alpha: object, level: object, top_k: object,
    resamples: object, seed: object, time_limit: object, progress: object,
) -> tuple[int, float | None]:
    """Every option of :func:`rank_stability` checked before any work; returns (k, time limit)."""
    if not isinstance(data, (Leaderboard, InstanceScores)):
        raise InvalidOptionError(f"data must be a Leaderboard or InstanceScores, got {type(data).__name__}")
    if resampling not in RESAMPLINGS:
        raise InvalidOptionError(f"unknown resampling {resampling!r}; choose one of {', '.join(map(repr, RESAMPLINGS))}")
    if resampling == "instances" and not isinstance(data, InstanceScores):
        raise InvalidOptionError(
            "resampling='instances' resamples the instances of InstanceScores, but data is a Leaderboard "
            "(task scores only); use resampling='bootstrap' or 'leave_k_out', or pass instance-level scores"
        )
    count = check_count(k, "k", 1)
    if resampling == "leave_k_out" and count >= data.n_tasks:
        raise InvalidOptionError(
            f"k must be >= 1 and < the number of tasks ({data.n_tasks}) for resampling='leave_k_out', got k={count}"
        )
    if resampling != "leave_k_out" and count != 1:
        raise InvalidOptionError(f"k sets the tasks dropped by resampling='leave_k_out'; got k={count} with resampling={resampling!r}")
    check_share(alpha, "alpha")
    check_share(level, "level")
    check_count(top_k, "top_k", 1)
    check_count(resamples, "resamples", 1)
    check_seed(seed, "seed", allow_none=False)
    limit = check_seconds(time_limit, "time_limit")
    check_progress(progress)
    return count, limit


@fill_doc(REPETITION_DOCS)
def rank_stability(
    data: Leaderboard | InstanceScores,
    rules: Sequence[str] = DEFAULT_RULES,
    *,
    resamples: int = 1000,
    resampling: Resampling = "bootstrap",
    k: int = 1,
    seed: int = 0,
    alpha: float = 0.05,
    top_k: int = 3,
    level: float = 0.95,
    time_limit: float | None = 10.0,
    scheduler: object = None,
    n_jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StabilityResult:
    """Rank intervals and top sets for every rule, from resampled leaderboards.

    The full data is ranked once per rule (the reference ranking; Kemeny's is the warm
    start of every resample's Kemeny solve), then each resample is ranked by every rule.

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        The scores.
    rules : sequence of str, default=DEFAULT_RULES
        Rule names (:data:`consensus.resampling._rule_runs.DEFAULT_RULES`: mean, borda, copeland,
        minimax, kemeny).
    resamples : int, default=1000
        Number of resamples (an integer >= 1).
    resampling : {"bootstrap", "leave_k_out", "instances"}, default="bootstrap"
        The resampling scheme (see the module docstring): tasks with replacement, k tasks
        left out, or instances with replacement within each task (InstanceScores only; the
        informative one when instance scores exist).
    k : int, default=1
        Tasks dropped per resample by ``"leave_k_out"`` (1 <= k < number of tasks); leave it
        at 1 for the other resamplings.
    seed : int, default=0
        Master seed (an integer >= 0); resample ``r`` uses the ``r``-th
        ``SeedSequence(seed).spawn(resamples)`` child.
    alpha : float, default=0.05
        A system is in a rule's top set (not separable from the top) when it is first in at
        least this share of the resamples that rank it.
    top_k : int, default=3
        The k of ``p_top_k`` (share of resamples with position <= top_k).
    level : float, default=0.95
        Coverage of the rank intervals, in (0, 1).
    time_limit : float or None, default=10.0
        Seconds per Kemeny solve; a resample stopped there keeps the best ranking found and
        is counted in ``result.time_limited`` (reported in the repr).
    {repetition_options}

    Returns
    -------
    StabilityResult
        ``positions`` (resamples x rules x systems), ``full_positions``, and the derived
        ``to_frame()`` (rank intervals, P(first), P(top k), top set), ``pairs_frame()``
        (adjacent pairs kept), ``top_set(rule)``.

    Raises
    ------
    InvalidOptionError
        If `data` is neither a Leaderboard nor InstanceScores, `rules` is empty or names an
        unknown rule, `resampling` is unknown or ``"instances"`` on a Leaderboard, `k` is out of
        range (or not 1 with another resampling), `alpha` or `level` is not in (0, 1), `top_k` or
        `resamples` < 1, `seed` is not an integer >= 0, `time_limit` is not positive,
        `progress` is not callable, or the scheduler is refused
        (:func:`consensus.resampling._repetitions.check_scheduler`).
    ConsensusError
        Whatever a rule raises on the full data.

    Notes
    -----
    Positions are competition positions (1 + systems strictly above), so a system tied for
    first counts as first in ``p_first``. The interval ``[low, high]`` takes the
    ``(1 - level) / 2`` quantile of a system's positions with ``method="lower"`` and the
    ``(1 + level) / 2`` quantile with ``method="higher"`` (:func:`numpy.quantile`): both are
    positions that occurred, and the interval covers at least `level` of the resamples.
    A resample in which a system has no score left (``leave_k_out`` or ``instances`` on sparse
    data) does not rank it (NaN): its interval, median and probabilities are over the
    resamples that rank it (``ranked`` in ``to_frame()``). A resample in which fewer than two
    systems keep a score (or the drawn tasks all weigh 0) ranks nobody.

    Examples
    --------
    >>> import consensus as cs
    >>> board = cs.datasets.gumbel_leaderboard(5, 12, phi=0.5, seed=0)  # true ranking s5 > s4 > ... > s1
    >>> res = rank_stability(board, ["mean", "borda"], resamples=50, seed=0)
    >>> res.positions.shape, res.top_set("borda")
    ((50, 2, 5), ('s5',))
    >>> res.to_frame().query("rule == 'borda'")[["system", "position", "low", "high", "p_first"]]
      system  position  low  high  p_first
    5     s5         1    1     1      1.0
    6     s4         2    2     4      0.0
    7     s3         3    2     5      0.0
    8     s2         4    2     5      0.0
    9     s1         5    2     5      0.0
    >>> res.pairs_frame().query("rule == 'borda'")[["upper", "lower", "kept"]]  # s5 is clearly first
      upper lower  kept
    4    s5    s4  1.00
    5    s4    s3  0.72
    6    s3    s2  0.52
    7    s2    s1  0.68
    """
    rules = check_rules(rules)
    count, limit = _check_options(data, resampling, k, alpha, level, top_k, resamples, seed, time_limit, progress)
    check_repetitions(int(resamples), 1024 + 16 * len(rules) * data.n_systems, "resamples")  # type: ignore[call-overload]
    check_scheduler(scheduler, n_jobs)
    board = data.to_leaderboard() if isinstance(data, InstanceScores) else data
    full = rule_positions(board, rules, time_limit=limit)
    initial = {"kemeny": full["kemeny"].order} if "kemeny" in full else {}
    job = _Job(data if resampling == "instances" else board, resampling, count, rules, tuple(data.systems), initial, limit)
    logger.info("rank_stability: %d %s resamples of %d systems x %d tasks, rules %s",
                resamples, resampling, len(data.systems), len(data.tasks), ", ".join(rules))
    out = run_repetitions(_one_resample, [(job, child) for child in spawn_seeds(seed, resamples)],
                          scheduler=scheduler, n_jobs=n_jobs, progress=progress)
    parameters: dict[str, Any] = {
        "seed": seed, "k": count if resampling == "leave_k_out" else None, "time_limit": limit,
        "data": type(data).__name__, "n_tasks": len(data.tasks),
    }
    if "kemeny" in full:
        parameters["kemeny_full_status"] = full["kemeny"].status
        parameters["kemeny_full_unique"] = full["kemeny"].unique
    return StabilityResult(
        rules=rules,
        systems=tuple(data.systems),
        resampling=str(resampling),
        positions=np.stack([o[0] for o in out]),
        full_positions=np.stack([full[r].positions for r in rules]),
        kemeny_status=tuple(o[1] for o in out),
        kemeny_gaps=[o[2] for o in out],
        kemeny_unique=tuple(o[3] for o in out),
        alpha=float(alpha),  # type: ignore[arg-type]
        level=float(level),  # type: ignore[arg-type]
        top_k=int(top_k),
        parameters=parameters,
    )
