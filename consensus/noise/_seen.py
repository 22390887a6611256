"""A leaderboard seen through a :class:`~consensus.results.SignificanceResult`.

The rules see noise in the form each needs:

- the **majority rules and Kemeny** need only the pairwise relation: a pair counts as won on a
  task only when the difference is significant, and as tied otherwise
  (:func:`significance_pairwise`); this relation need not be transitive, and the exact solvers
  handle ties on any pair;
- the **positional rules** need a weak order per task: each task's tie groups
  (:func:`~consensus.results.significance.task_tie_groups`) become its scores
  (:func:`tie_group_board`);
- the **score rules** (mean, geometric mean, normalized mean, ...) add the scores themselves
  and are unchanged.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import DegenerateTaskWarning, InvalidOptionError
from ..majority._pairwise import PairwiseMatrix, _count_pairs
from ..results.significance import SignificanceResult, task_tie_groups

__all__ = ["significance_pairwise", "tie_group_board", "seen_through", "check_covers", "resolve"]


def check_covers(result: SignificanceResult, lb: Leaderboard, what: str, *,
                 partial: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Positions of `lb`'s systems and tasks in `result`.

    Parameters
    ----------
    result : SignificanceResult
    lb : Leaderboard
    what : str
        The entry point, for the message.
    partial : bool, default=False
        Allow systems of `lb` that `result` lacks (their row is -1).

    Returns
    -------
    tuple of ndarray
        The rows of `lb`'s systems and the indices of its tasks in `result`.

    Raises
    ------
    InvalidOptionError
        Naming the first system or task of `lb` that `result` lacks.
    """
    where_s = {s: i for i, s in enumerate(result.systems)}
    where_t = {t: j for j, t in enumerate(result.tasks)}
    for s in lb.systems:
        if s not in where_s and not partial:
            raise InvalidOptionError(f"{what}: the significance result has no system {s!r}; compute it on this leaderboard")
    for t in lb.tasks:
        if t not in where_t:
            raise InvalidOptionError(f"{what}: the significance result has no task {t!r}; compute it on this leaderboard")
    return np.array([where_s.get(s, -1) for s in lb.systems], dtype=np.intp), np.array([where_t[t] for t in lb.tasks],
                                                                                        dtype=np.intp)


def significance_pairwise(lb: Leaderboard, result: SignificanceResult) -> PairwiseMatrix:
    """The weighted pairwise matrix of `lb` where a task counts for a pair only when the pair
    differs significantly on it (``source="significance"``; otherwise as :func:`consensus.pairwise`).

    Parameters
    ----------
    lb : Leaderboard
        The board (its systems and tasks must be in `result`; weights are `lb`'s).
    result : SignificanceResult

    Returns
    -------
    PairwiseMatrix
        ``wins[a, b]``: the weight of the tasks where ``a`` is significantly better than ``b``;
        ``ties``: the weight of the other tasks both are scored on.

    Examples
    --------
    >>> import consensus as cs, pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.80, 0.78, 0.60], "qa_stderr": [0.01] * 3}, index=["a", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame)
    >>> significance_pairwise(lb, cs.significance(lb)).to_frame("wins").astype(int)
       a  b  c
    a  0  0  1
    b  0  0  1
    c  0  0  0
    """
    rows, cols = check_covers(result, lb, "significance")
    grid = np.ix_(rows, rows)

    def beats(j: int) -> np.ndarray:
        return result.significant(result.tasks[cols[j]])[grid]

    return _count_pairs(lb, 0.0, beats, source="significance")


def tie_group_board(lb: Leaderboard, result: SignificanceResult, *, partial: bool = False) -> Leaderboard:
    """`lb` with each task's scores replaced by its tie groups: the best group scores the
    number of groups, the next one less, ... (higher is better; missing stays missing).

    The groups are built among `lb`'s systems only (:func:`~consensus.results.significance.
    task_tie_groups` on the result's scores and relation restricted to them), so a system the
    result has but `lb` has not (set aside, dropped, not selected) never leads a group. With
    `partial`, systems of `lb` the result lacks score 0 where scored (below every group: the
    engine sets them aside again).

    Parameters
    ----------
    lb : Leaderboard
    result : SignificanceResult

    Returns
    -------
    Leaderboard
        The same systems, tasks, weights and groups; every task higher-is-better.

    Examples
    --------
    >>> import consensus as cs, pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.80, 0.78, 0.60], "qa_stderr": [0.01] * 3}, index=["a", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame)
    >>> tie_group_board(lb, cs.significance(lb)).scores
        qa
    a  2.0
    b  2.0
    c  1.0
    """
    rows, cols = check_covers(result, lb, "significance", partial=partial)
    known = rows >= 0
    inside = np.flatnonzero(known)
    names = [lb.systems[i] for i in inside]
    grid = np.ix_(rows[inside], rows[inside])
    index = {s: i for i, s in enumerate(lb.systems)}
    values = np.where(np.isnan(lb.values), np.nan, 0.0)
    for j in range(lb.n_tasks):
        task = result.tasks[cols[j]]
        scores = np.where(np.isnan(lb.values[inside, j]), np.nan, result.scores[rows[inside], cols[j]])
        tiers = task_tie_groups(names, scores, result.significant(task)[grid])
        for g, tier in enumerate(tiers):
            for s in tier:
                values[index[s], j] = float(len(tiers) - g)
    frame = pd.DataFrame(values, index=pd.Index(lb.systems, dtype=object), columns=pd.Index(lb.tasks, dtype=object))
    with warnings.catch_warnings():  # a task whose systems all tie within noise is not news here
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return Leaderboard(frame, weights=dict(lb.weights.items()), groups=lb.groups, notes=lb.notes)


def seen_through(lb: Leaderboard, result: SignificanceResult) -> Leaderboard:
    """The board the rules run on: :func:`tie_group_board`, whose pairwise matrix (memoized, so
    every majority rule and Kemeny reads it) is :func:`significance_pairwise` of `lb`.

    Parameters
    ----------
    lb : Leaderboard
    result : SignificanceResult

    Returns
    -------
    Leaderboard
    """
    board = tie_group_board(lb, result)
    matrix = significance_pairwise(lb, result)
    board._memoized(("pairwise", 0.0), lambda: matrix)
    return board


def resolve(option: object, lb: Leaderboard, context: str) -> SignificanceResult | None:
    """A ``significance=`` option as a result: None/False (off), True (the defaults of
    :func:`~consensus.significance` on `lb`'s standard errors), a level (a float in (0, 1)) or a
    :class:`~consensus.results.SignificanceResult` (checked to cover `lb`).

    Parameters
    ----------
    option : object
        The option as given.
    lb : Leaderboard
        The board the question runs on (its standard errors serve True and a level).
    context : str
        The entry point, for messages.

    Returns
    -------
    SignificanceResult or None
        None when the option is off.

    Raises
    ------
    InvalidOptionError
        An option of another kind, a bad level, or a result that does not cover `lb`.
    MissingStandardErrorError
        True or a level on a board without standard errors.
    """
    from ._significance import check_level, significance

    if option is None or option is False:
        return None
    if isinstance(option, SignificanceResult):
        check_covers(option, lb, context)
        return option
    if option is True:
        return significance(lb)
    if isinstance(option, (int, float, np.integer, np.floating)) and not isinstance(option, (bool, np.bool_)):
        return significance(lb, level=check_level(option, f"{context}: significance"))
    raise InvalidOptionError(
        f"{context}: significance must be True, a level between 0 and 1, or a result of cs.significance(...), "
        f"got {type(option).__name__}"
    )
