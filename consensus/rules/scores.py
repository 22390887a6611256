"""Score baselines on the oriented scores: the (weighted) mean, the geometric mean, the optimality gap."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Unpack

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import (
    InvalidOptionError,
    NonPositiveScoreError,
    ScoreOverflowError,
    UnknownTaskError,
)
from ..results import RuleResult
from .declaration import rule
from .engine import run_rule
from .policies import robust_weighted_mean
from .spec import (
    CoreOutput,
    RuleSpec,
    SharedOptions,
    check_task_numbers,
    complete_values,
    tiers,
)

__all__ = ["mean", "geometric_mean", "optimality_gap"]


def _mean_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    values = complete_values(lb)
    w = lb.weight_array
    return CoreOutput(robust_weighted_mean(values, w))  # no overflow with scores near 1e308


def _geometric_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    complete_values(lb)
    raw = lb.scores.to_numpy(dtype=np.float64)
    w = lb.weight_array
    used = w > 0
    bad = (raw[:, used] <= 0).any(axis=1)  # no geometric mean: unranked, not the board refused
    if (~bad).sum() < 2:
        j = int(np.nonzero(used & (raw <= 0).any(axis=0))[0][0])
        rows = np.nonzero(raw[:, j] <= 0)[0]
        raise NonPositiveScoreError("geometric_mean", lb.tasks[j], [lb.systems[i] for i in rows], float(raw[rows[0], j]))
    sign = np.array([-1.0 if t in lb.lower_is_better else 1.0 for t in lb.tasks])
    ok = np.nonzero(~bad)[0]
    logs = np.log(raw[np.ix_(ok, np.nonzero(used)[0])]) * sign[used]  # a lower-is-better task enters as 1/x
    scores = np.full(lb.n_systems, np.nan)
    scores[ok] = np.exp(logs @ w[used] / float(w[used].sum()))
    if not bad.any():
        return CoreOutput(scores)
    unranked = tuple(lb.systems[i] for i in np.nonzero(bad)[0])
    ranking = tiers([lb.systems[i] for i in ok], scores[ok]) + (unranked,)
    return CoreOutput(scores, {"unranked": unranked}, ranking=ranking)


def _gap_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    values = complete_values(lb)
    w = lb.weight_array
    gamma = opts["gamma"]
    if gamma is None:
        target = values.max(axis=0)  # the best oriented score on each task
    else:
        raw = np.array([float(gamma[t]) if isinstance(gamma, Mapping) else float(gamma) for t in lb.tasks])
        target = np.where([t in lb.lower_is_better for t in lb.tasks], -raw, raw)
    lower = np.array([t in lb.lower_is_better for t in lb.tasks], dtype=bool)
    gamma_used = pd.Series(np.where(lower, -target, target) + 0.0, index=pd.Index(lb.tasks, dtype=object))
    with np.errstate(over="ignore", invalid="ignore"):
        gaps = np.minimum(values, target) - target
    if np.all(np.isfinite(gaps)):
        return CoreOutput(robust_weighted_mean(gaps, w), {"gamma": gamma_used})
    # a task spanning nearly the whole float range: gaps on scores divided by a power of two
    exponent = math.frexp(max(float(np.abs(values).max()), float(np.abs(target).max())))[1]
    with np.errstate(under="ignore"):
        small = np.minimum(np.ldexp(values, -exponent), np.ldexp(target, -exponent)) - np.ldexp(target, -exponent)
    with np.errstate(over="ignore"):
        scores = np.ldexp(robust_weighted_mean(small, w), exponent)
    bad = ~np.isfinite(scores)
    if bad.any():
        span = np.ptp(small, axis=0) * (w > 0)
        raise ScoreOverflowError(
            "optimality_gap", [s for s, b in zip(lb.systems, bad.tolist()) if b], lb.tasks[int(np.argmax(span))]
        )
    return CoreOutput(scores, {"gamma": gamma_used})



_MEAN_SPEC = RuleSpec("mean", "score", _mean_core)
_SPECS: dict[str, RuleSpec] = {
    "mean": _MEAN_SPEC,
    "geometric_mean": RuleSpec("geometric_mean", "score", _geometric_core),
    "optimality_gap": RuleSpec("optimality_gap", "score", _gap_core, second_step=_MEAN_SPEC),
}


@rule(_SPECS["mean"], linear=True)
def mean(data: Leaderboard, **options: Unpack[SharedOptions]) -> RuleResult:
    """Weighted arithmetic mean of the oriented scores (a lower-is-better task enters negated).

    Parameters
    ----------
    data : Leaderboard
        {score_data}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: sum_k w_k s_k / sum_k w_k per system, higher is better.

    Raises
    ------
    {score_raises}

    Examples
    --------
    >>> import consensus as cs
    >>> mean(cs.load_example("colombo-table1")).ranking
    (('A',), ('B',), ('C',))
    """
    return run_rule(_SPECS["mean"], data, {}, options)


@rule(
    _SPECS["geometric_mean"],
    linear="its score is a weighted sum of logarithms, not of the scores; use rule='mean' on log scores",
)
def geometric_mean(data: Leaderboard, **options: Unpack[SharedOptions]) -> RuleResult:
    """Weighted geometric mean of the scores; a lower-is-better task enters as 1/score.

    A system with a score <= 0 on a task of positive weight has no geometric mean: it is
    *unranked*, not the whole leaderboard refused. Unranked systems form the last tie group
    of the ranking, with score NaN, and are listed in ``details["unranked"]`` and in
    ``result.missing`` (``unranked``, and named in ``treatment``). Only when fewer than two
    systems remain rankable is :class:`NonPositiveScoreError` raised. With
    ``missing="median"`` the filled cells count like any other score.

    Parameters
    ----------
    data : Leaderboard
        {score_data}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: prod_k s_k^(w_k / W) over the tasks with positive weight (W their
        total weight; 1/s_k on a lower-is-better task), higher is better; NaN for an
        unranked system (``details["unranked"]``, present when there is one).

    Raises
    ------
    NonPositiveScoreError
        Fewer than two systems have every score > 0 on the tasks with positive weight.
    {score_raises}

    Examples
    --------
    >>> import consensus as cs
    >>> round(float(geometric_mean(cs.load_example("votenrank-toy")).scores["B"]), 4)
    2.5508
    >>> res = geometric_mean(cs.load_example("colombo-table1"))  # C scores 0 on Task1
    >>> res.ranking, res.details["unranked"]
    ((('B',), ('A',), ('C',)), ('C',))
    """
    return run_rule(_SPECS["geometric_mean"], data, {}, options)


@rule(_SPECS["optimality_gap"], linear="its target depends on the best score of every task; use rule='mean'")
def optimality_gap(
    data: Leaderboard, *, gamma: float | Mapping[str, float] | None = None, **options: Unpack[SharedOptions]
) -> RuleResult:
    """Weighted mean over tasks of min(s, gamma) - gamma (Vote'n'Rank sec. 3.1).

    The score is <= 0 and higher is better (0: at least gamma everywhere); the paper
    reports its negation, the gap, where lower is better. `gamma` is one number, a mapping
    task -> number, or None (default): the best score observed on each task, so the score
    is the mean shortfall from the per-task best. On a lower-is-better task the gap is
    max(s, gamma) - gamma, counted negatively. In two-step aggregation the second step
    averages the group gaps.

    Parameters
    ----------
    data : Leaderboard
        {score_data}
    gamma : float or Mapping[str, float], optional
        The target score: one number for every task, or task -> number with a value for
        every task of `data`, in the task's own units; None: the best score on each task.
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the weighted mean of min(s, gamma) - gamma (<= 0, higher is better);
        ``details["gamma"]``: the target used on each task.

    Raises
    ------
    UnknownTaskError
        A key of a `gamma` mapping is not a task of `data`.
    InvalidOptionError
        `gamma` (or one of its values) is not a finite number, or a `gamma` mapping
        leaves out a task; a shared option is invalid or cannot apply (e.g.
        ``weighting="groups"`` without task groups, a drop policy that leaves nothing to
        rank); ``missing="impute"`` is asked for; or `data` is not a Leaderboard.
    MissingScoreError
        `data` has missing scores and ``missing`` is None.

    Examples
    --------
    >>> import consensus as cs
    >>> optimality_gap(cs.load_example("votenrank-toy"), gamma=3).scores.tolist()
    [-1.2, -0.4, -0.6, -0.8]
    """
    g = check_task_numbers(gamma, "gamma", "optimality_gap")
    if isinstance(g, dict) and isinstance(data, Leaderboard):
        for t in g:
            if t not in data.tasks:
                raise UnknownTaskError(t, data.tasks, "gamma")
        loose = [t for t in data.tasks if t not in g]
        if loose:
            raise InvalidOptionError(f"rule 'optimality_gap': gamma has no value for task(s) {', '.join(map(repr, loose))}")
    return run_rule(_SPECS["optimality_gap"], data, {"gamma": g}, options)


