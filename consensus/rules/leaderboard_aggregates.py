"""The aggregates of two public leaderboards: HELM's mean win rate and the Open LLM Leaderboard v2 mean.

- :func:`mean_win_rate` (HELM): on each task, the share of the other scored systems a system
  beats; then the (task-weighted) mean over the tasks it is scored on. Missing scores are
  part of the definition, so ``missing=None`` accepts them.
- :func:`normalized_mean` (Open LLM Leaderboard v2): each score rescaled from the task's
  random-chance baseline (0) to its maximum (100), below-baseline scores clipped to 0, then
  the weighted mean.

References
----------
.. [1] P. Liang et al., "Holistic Evaluation of Language Models", TMLR 2023, sec. 3
   (mean win rate); code: ``compute_aggregate_row_win_rates`` in
   ``src/helm/benchmark/presentation/summarize.py`` of github.com/stanford-crfm/helm.
.. [2] Hugging Face, Open LLM Leaderboard v2, "Scores Normalization",
   https://huggingface.co/docs/leaderboards/open_llm_leaderboard/normalization.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Unpack

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, ScoreOverflowError, UnknownTaskError
from ..hints import hinted, option
from ..results import RuleResult
from . import scores
from .declaration import rule
from .engine import run_rule
from .policies import robust_weighted_mean
from .spec import (
    CoreOutput,
    RuleSpec,
    SharedOptions,
    check_choice,
    check_task_numbers,
    complete_values,
)

__all__ = ["mean_win_rate", "normalized_mean"]

WinRateTies = Literal["half", "loss"]


# ---------------------------------------------------------------------- mean win rate
def _win_rate_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    # here: scipy.stats takes most of a second to import
    from scipy.stats import rankdata

    values = lb.values  # oriented: higher is better on every task
    w = lb.weight_array
    n, m = values.shape
    rates = np.full((n, m), np.nan)
    rivals = np.zeros(m, dtype=np.int64)
    method = "average" if opts["ties"] == "half" else "min"
    for t in range(m):
        scored = np.nonzero(~np.isnan(values[:, t]))[0]
        rivals[t] = len(scored) - 1
        if rivals[t] < 1 or w[t] == 0:  # nobody to beat (HELM skips it), or no weight
            continue
        below = rankdata(values[scored, t], method=method) - 1.0  # beaten + tied / 2 (or beaten)
        rates[scored, t] = below / rivals[t]
    counted = ~np.isnan(rates)
    total = counted @ w
    lonely = [lb.systems[i] for i in np.nonzero(total == 0)[0]]
    if lonely:
        shown = ", ".join(repr(s) for s in lonely[:5]) + (", ..." if len(lonely) > 5 else "")
        raise InvalidOptionError(hinted(
            "rule 'mean_win_rate': system(s) {} share no task of positive weight with any other system, so they "
            "have no win rate; remove them (Leaderboard.select) or pass {}", shown, option("missing", "median"),
        ))
    score = np.where(counted, rates, 0.0) @ w / total
    idx = pd.Index(lb.systems, dtype=object)
    cols = pd.Index(lb.tasks, dtype=object)
    details = {
        "win_rates": pd.DataFrame(rates + 0.0, index=idx, columns=cols),
        "rivals": pd.Series(rivals.astype(np.float64), index=cols),
        "coverage": pd.Series(total / float(w.sum()), index=idx),
    }
    return CoreOutput(score, details)


def _per_task(value: Any, tasks: tuple[str, ...], default: float) -> np.ndarray:
    if isinstance(value, Mapping):
        return np.array([float(value.get(t, default)) for t in tasks])
    return np.full(len(tasks), float(default if value is None else value))


def _normalized_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    complete_values(lb)
    raw = lb.scores.to_numpy(dtype=np.float64)
    base = _per_task(opts["baseline"], lb.tasks, 0.0)
    top = _per_task(opts["maximum"], lb.tasks, 1.0)
    _check_range(lb, base, top)
    with np.errstate(over="ignore", invalid="ignore"):
        normalized = (raw - base) * (100.0 / (top - base))
    bad = ~np.isfinite(normalized)
    if bad.any():  # a score near 1e308 (or a tiny maximum - baseline): not a float64
        t = int(np.nonzero(bad.any(axis=0))[0][0])
        raise ScoreOverflowError("normalized_mean", [s for s, b in zip(lb.systems, bad[:, t].tolist()) if b], lb.tasks[t])
    if opts["clip"]:
        normalized = np.maximum(normalized, 0.0)
    idx = pd.Index(lb.systems, dtype=object)
    cols = pd.Index(lb.tasks, dtype=object)
    details = {
        "normalized": pd.DataFrame(normalized + 0.0, index=idx, columns=cols),
        "baseline": pd.Series(base + 0.0, index=cols),
        "maximum": pd.Series(top + 0.0, index=cols),
    }
    return CoreOutput(robust_weighted_mean(normalized, lb.weight_array), details)


def _check_range(lb: Leaderboard, base: np.ndarray, top: np.ndarray) -> None:
    """Refuse a task whose normalized score would not grow with quality (or divide by 0)."""
    for t, b, m in zip(lb.tasks, base.tolist(), top.tolist()):
        lower = t in lb.lower_is_better
        if m == b:
            raise InvalidOptionError(f"rule 'normalized_mean': task {t!r} has maximum == baseline == {b!r}; they must differ")
        if lower and m > b:
            raise InvalidOptionError(
                f"rule 'normalized_mean': task {t!r} is lower-is-better but its maximum {m!r} is above its "
                f"baseline {b!r}; pass its best possible score as maximum and its chance-level score as "
                f"baseline (maximum < baseline), e.g. maximum={{{t!r}: 0.0}}, baseline={{{t!r}: ...}}"
            )
        if not lower and m < b:
            raise InvalidOptionError(
                f"rule 'normalized_mean': task {t!r} has maximum {m!r} below its baseline {b!r}; "
                "the maximum is the best possible score (1.0 or 100 for accuracy)"
            )


def _check_bounds(value: Any, name: str, data: Any) -> float | dict[str, float] | None:
    out = check_task_numbers(value, name, "normalized_mean")
    if isinstance(out, dict) and isinstance(data, Leaderboard):
        for t in out:
            if t not in data.tasks:
                raise UnknownTaskError(t, data.tasks, name)
    return out



def _scored_mean_core(lb: Leaderboard, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    """The weighted mean over the cells a system has (two-step mean win rate: over its groups)."""
    values = lb.values
    w = lb.weight_array
    present = ~np.isnan(values)
    return CoreOutput(np.where(present, values, 0.0) @ w / (present @ w))


_SCORED_MEAN = RuleSpec("mean_over_scored_groups", "score", _scored_mean_core, pairwise_missing=True)
_SPECS: dict[str, RuleSpec] = {
    "mean_win_rate": RuleSpec("mean_win_rate", "score", _win_rate_core, pairwise_missing=True, second_step=_SCORED_MEAN,
                              ranks_within_tasks=True),
    "normalized_mean": RuleSpec("normalized_mean", "score", _normalized_core, second_step=scores._SPECS["mean"]),
}


@rule(
    _SPECS["mean_win_rate"],
    linear="the weight questions have no per-task points for it; use rule='borda' (on complete scores its points divided by M - 1 are the win rates)",
)
def mean_win_rate(data: Leaderboard, *, ties: WinRateTies = "half", **options: Unpack[SharedOptions]) -> RuleResult:
    """HELM's mean win rate: the share of rivals beaten on each task, averaged over tasks.

    On task ``t``, let ``S_t`` be the systems scored on it. A system of ``S_t`` gets
    ``r_t = (beaten + tied / 2) / (|S_t| - 1)`` (``ties="half"``) or ``beaten / (|S_t| - 1)``
    (``ties="loss"``), counting the other systems of ``S_t`` it scores strictly better /
    equal to (oriented scores, so lower-is-better tasks count as such). Its score is the
    weighted mean of ``r_t`` over the tasks it is scored on: ``sum_t w_t r_t / sum_t w_t``.

    Decisions (HELM's where it has one):

    - **ties**: ``"half"`` (default) is HELM's current code, where tied systems share the
      wins of the positions they occupy (stanford-crfm/helm issue #2991, fixed by pull
      request #3001, Sept. 2024). Before that fix HELM sorted the scores and took positions,
      so a tie was broken by row order (0 or 1 between two tied systems), as the
      leaderboards published before it still show (helm issue #4332). ``"loss"`` counts only
      strict wins: a tie is worth nothing to either side (a lower bound of every tie-break).
    - **missing scores** (``missing=None`` accepts them, as HELM does): a system not scored
      on a task skips it (its mean runs over its own tasks, so ``details["coverage"]`` says
      how much weight it rests on); rivals not scored on a task are not in the denominator
      ``|S_t| - 1``. A task scored by fewer than two systems, or of weight 0, counts for
      nobody (HELM skips columns with fewer than two values). A system left with no task is
      an error (HELM prints no value for it); the other policies of ``missing`` apply as
      for any rule (``"impute"`` is refused: win rates need scores).
    - **weights**: HELM's mean is unweighted; task weights make it the weighted mean
      (unit weights, the default, give HELM's number).

    Parameters
    ----------
    data : Leaderboard
        Scores, systems x tasks; missing scores allowed.
    ties : {"half", "loss"}, default="half"
        What a tied rival counts for, as above (recorded as ``result.ties``).
    **options
        {shared_options}
        In two-step aggregation the second step is the
        (group-weighted) mean of a system's group win rates over the groups it is scored
        in, as the first step does over tasks.

    Returns
    -------
    RuleResult
        ``scores``: the mean win rate, in [0, 1], higher is better. ``details``:
        ``win_rates`` (systems x tasks, NaN where not counted), ``rivals`` (``|S_t| - 1``
        per task) and ``coverage`` (the share of the total task weight each mean rests on).

    Raises
    ------
    InvalidOptionError
        `ties` is unknown; a system shares no task of positive weight with any other;
        ``missing="impute"``; a shared option is invalid or cannot apply; or `data` is not
        a Leaderboard.

    See Also
    --------
    borda : on complete scores with unit weights, Borda (``ties="average"``) is the mean win
        rate times ``(n - 1)`` times the number of tasks.

    References
    ----------
    .. [1] P. Liang et al., "Holistic Evaluation of Language Models", TMLR 2023.
    .. [2] stanford-crfm/helm, ``compute_aggregate_row_win_rates``; issue #2991 and pull
       request #3001 (ties count half).

    Examples
    --------
    On "qa" a > b > c; on "nli" a is not scored and b > c; on "mt" c is first, a and b tie:

    >>> import numpy as np, pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, 0.4], "nli": [np.nan, 0.7, 0.5], "mt": [0.3, 0.3, 0.6]},
    ...                      index=["a", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame)
    >>> res = mean_win_rate(lb)      # a: (1 + 1/4) / 2, b: (1/2 + 1 + 1/4) / 3, c: (0 + 0 + 1) / 3
    >>> res.scores.round(4).tolist(), res.ties
    ([0.625, 0.5833, 0.3333], 'half')
    >>> mean_win_rate(lb, ties="loss").scores.round(4).tolist()   # the tie on mt is worth 0
    [0.5, 0.5, 0.3333]
    """
    ties = check_choice("ties", ties, ("half", "loss"), "mean_win_rate")
    return run_rule(_SPECS["mean_win_rate"], data, {"ties": ties}, options)


# ---------------------------------------------------------------------- normalized mean


@rule(
    _SPECS["normalized_mean"],
    linear="its baseline and maximum per task are not among the weight questions' points; use rule='mean' with normalize='minmax'",
)
def normalized_mean(
    data: Leaderboard,
    *,
    baseline: float | Mapping[str, float] | None = None,
    maximum: float | Mapping[str, float] | None = None,
    clip: bool = True,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Open LLM Leaderboard v2 average: scores rescaled from random chance (0) to the maximum (100).

    Each score ``s`` of task ``t`` becomes ``(s - baseline_t) / (maximum_t - baseline_t) * 100``,
    below-baseline results are clipped to 0 (``clip=True``, as the leaderboard does), and the
    system's score is the weighted mean over tasks (the leaderboard's plain mean with unit
    weights). The leaderboard normalizes sub-tasks first (BBH, MUSR) and averages them into
    one task: pass the sub-tasks as columns with weights for the same effect.

    Decisions:

    - **defaults**: ``baseline`` 0 (a generative task with no chance level) and ``maximum``
      1.0 (scores in [0, 1], as in the leaderboard's ``normalize_within_range``), for every
      task not named. Scores in percent need ``maximum=100``; nothing is guessed from the data.
    - **direction**: the normalized score must grow with quality. On a higher-is-better task
      ``maximum > baseline``; a lower-is-better task (an error rate) must be given its best
      possible score as ``maximum`` and its chance level as ``baseline``, ``maximum <
      baseline`` (the same formula then works); anything else is refused (the defaults 0 and
      1 are refused on a lower-is-better task, rather than silently inverting it).
    - **scores above the maximum** are not clipped (the leaderboard does not clip them).

    Parameters
    ----------
    data : Leaderboard
        Complete scores, systems x tasks, in each task's raw units.
    baseline : float or Mapping[str, float], optional
        The random-chance score: one number for every task, or task -> number (tasks not
        named: 0). For a k-way multiple-choice task, 1/k.
    maximum : float or Mapping[str, float], optional
        The best possible score: one number, or task -> number (tasks not named: 1.0).
    clip : bool, default=True
        Clip normalized scores below 0 (results under the baseline) to 0.
    **options
        {shared_options}
        In two-step aggregation the second step averages the
        group means (as ``mean``).

    Returns
    -------
    RuleResult
        ``scores``: the weighted mean normalized score (0 = chance, 100 = maximum).
        ``details``: ``normalized`` (systems x tasks), ``baseline`` and ``maximum`` (per
        task, as used).

    Raises
    ------
    UnknownTaskError
        A key of a `baseline` or `maximum` mapping is not a task of `data`.
    InvalidOptionError
        A value of `baseline` or `maximum` is not a finite number; a task has
        ``maximum == baseline`` or a maximum on the wrong side of its baseline (the message
        names the task); `clip` is not a bool; ``missing="impute"``; a shared option is
        invalid or cannot apply; or `data` is not a Leaderboard.
    MissingScoreError
        `data` has missing scores and ``missing`` is None.
    ScoreOverflowError
        A normalized score does not fit in float64 (scores near 1e308); names the task.

    References
    ----------
    .. [1] Hugging Face, "Open LLM Leaderboard v2: Scores Normalization",
       https://huggingface.co/docs/leaderboards/open_llm_leaderboard/normalization (the
       ``normalize_within_range`` snippet clips ``value - lower_bound`` at 0).

    Examples
    --------
    A 4-way multiple-choice task (chance 0.25) and a generative one (chance 0):

    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"mmlu_pro": [0.55, 0.20], "math": [0.10, 0.30]}, index=["a", "b"])
    >>> res = normalized_mean(cs.Leaderboard.from_frame(frame), baseline={"mmlu_pro": 0.25})
    >>> res.details["normalized"].round(2)       # b is below chance on mmlu_pro: 0
       mmlu_pro  math
    a      40.0  10.0
    b       0.0  30.0
    >>> res.scores.round(2).tolist()
    [25.0, 15.0]
    """
    if not isinstance(clip, (bool, np.bool_)):
        raise InvalidOptionError(f"rule 'normalized_mean': clip must be True or False, got {clip!r}")
    rule_options = {
        "baseline": _check_bounds(baseline, "baseline", data),
        "maximum": _check_bounds(maximum, "maximum", data),
        "clip": bool(clip),
    }
    return run_rule(_SPECS["normalized_mean"], data, rule_options, options)
