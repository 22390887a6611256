"""The steps of the rule pipeline around a rule's core: float range, tie-breaks, how rules use missing scores.

Coverage, missing scores and group weighting are the preparation stage every question shares
(:mod:`consensus.missing._preparation`); this module holds what only the rules add: weights scaled into
float64's range, the tie-breaks, two-step group scores, and how each kind of rule imputes. See
``docs/rules.md`` for the decisions taken where the papers are silent.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._docstrings import COMMON, fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, InvalidWeightError
from ..hints import hinted, option
from ..results import tiers_from_scores
from ..results.base import walk_tiers
from .spec import (
    SCORE_TOL,
    RuleSpec,
    quiet,
)

__all__ = [
    "policies_for",
    "IMPUTE_TREATMENT",
    "NO_IMPUTE",
    "tie_break_methods",
    "systems_below",
    "apply_tie_break",
    "mean_key",
    "fit_weights",
    "robust_weighted_mean",
]

#: Rule pipelines keep sums of weights x points (x systems) below 2**this (float64 ends at 2**1024).
_WEIGHT_HEADROOM_EXPONENT = 1000


# ---------------------------------------------------------------------- float range
def fit_weights(lb: Leaderboard) -> tuple[Leaderboard, int]:
    """`lb` with its task weights divided by ``2**k`` when their sums could overflow float64.

    Every rule is scale-free in the task weights (rankings and majority relations do not
    change when all weights are multiplied by one positive number), so weights near the top
    of the float64 range (1e308) are divided by a power of two, exactly, before any sum is
    formed; ``k`` is recorded by the caller. Ordinary weights are left alone (``k = 0``).

    Parameters
    ----------
    lb : Leaderboard

    Returns
    -------
    (Leaderboard, int)
        The leaderboard (the same object when ``k = 0``) and ``k``.

    Raises
    ------
    InvalidWeightError
        A positive weight is so much smaller than the largest (below 2**-1074 of it) that
        float64 cannot hold both; the message names the task.

    Examples
    --------
    >>> import pandas as pd
    >>> from consensus import Leaderboard
    >>> lb = Leaderboard(pd.DataFrame({"qa": [1.0, 2.0], "nli": [2.0, 1.0]}, index=["a", "b"]),
    ...                  weights={"qa": 1e308, "nli": 1e308})
    >>> fitted, k = fit_weights(lb)
    >>> k > 0, bool(fitted.weights["qa"] == fitted.weights["nli"] < 1e306)
    (True, True)
    """
    w = lb.weight_array
    top = float(w.max(initial=0.0))
    if top == 0:
        return lb, 0
    sums = (lb.n_tasks * max(lb.n_systems, 12) ** 3).bit_length()  # tasks x points x pairs
    shift = max(0, math.frexp(top)[1] + sums - _WEIGHT_HEADROOM_EXPONENT)
    if shift == 0:
        return lb, 0
    new = {t: math.ldexp(float(x), -shift) for t, x in zip(lb.tasks, w)}
    for t, x in zip(lb.tasks, w):
        if x > 0 and new[t] == 0:
            big = lb.tasks[int(np.argmax(w))]
            raise InvalidWeightError(
                f"task {t!r} has weight {float(x)!r}, too small next to the weight {top!r} of task {big!r} "
                "for float64 to hold both (they differ by more than 2**1074); raise it, or drop the task",
                t,
            )
    return quiet(lambda: lb.with_weights(new)), shift


def robust_weighted_mean(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Row-wise ``values @ weights / weights.sum()`` that does not overflow.

    Computed directly when that stays finite (the usual case, bit for bit the plain
    formula); else on scores divided by a power of two and normalized weights, then scaled
    back. A mean lies between the row's smallest and largest value, so it always fits.

    Parameters
    ----------
    values : numpy.ndarray
        Complete finite scores, systems x tasks.
    weights : numpy.ndarray
        Finite, non-negative task weights with a positive, finite sum.

    Returns
    -------
    numpy.ndarray
        One mean per row.

    Examples
    --------
    >>> robust_weighted_mean(np.array([[1.7e308, 1.7e308], [1.0, 3.0]]), np.array([1.0, 1.0])).tolist()
    [1.7e+308, 2.0]
    """
    total = float(weights.sum())
    with np.errstate(over="ignore", invalid="ignore"):
        direct = values @ weights / total
    if np.all(np.isfinite(direct)):
        return direct
    exponent = math.frexp(float(np.abs(values).max(initial=0.0)))[1]
    share = weights / total
    with np.errstate(under="ignore"):
        scaled = np.ldexp(values, -exponent) @ share
    with np.errstate(over="ignore"):
        result = np.ldexp(scaled, exponent)
    return np.clip(result, values.min(axis=1), values.max(axis=1))  # rounding at the very top


# ---------------------------------------------------------------------- missing scores
def policies_for(spec: RuleSpec) -> tuple[str, ...]:
    """The missing-score policies `spec` accepts, for error messages.

    Parameters
    ----------
    spec : RuleSpec
        The rule; ``"impute"`` is listed only when ``spec.impute``.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> policies_for(RuleSpec("mean", "score", None))
    ('median', 'drop_tasks', 'drop_systems')
    """
    return (("impute",) if spec.impute else ()) + ("median", "drop_tasks", "drop_systems")


#: What ``missing="impute"`` does, by rule kind (the ``treatment`` of the preparation record).
IMPUTE_TREATMENT = {
    "positional": "expected points over the complete rankings compatible with each task "
    "(imputation by compatible permutations)",
    "iterative": "expected positions / pairwise preferences over the complete rankings compatible with "
    "each task (imputation by compatible permutations)",
    "majority": "imputed pairwise matrix (impute_pairwise: imputation by compatible permutations)",
    "exact": "imputed pairwise matrix (impute_pairwise: imputation by compatible permutations)",
}

#: Why a score baseline refuses ``missing="impute"``.
NO_IMPUTE = hinted(
    "imputation by compatible permutations gives positions and pairwise preferences, not the numbers a score "
    "baseline averages; pass {}", option("missing", "median", "drop_tasks", "drop_systems"),
)


@fill_doc(COMMON)
def systems_below(ranking: Sequence[Sequence[str]]) -> dict[str, float]:
    """Per system, the number of systems ranked strictly below it (two-step group scores).

    Parameters
    ----------
    {ranking}

    Returns
    -------
    dict of str to float

    Examples
    --------
    >>> systems_below([("b",), ("a", "c"), ("d",)])
    {'b': 3.0, 'a': 1.0, 'c': 1.0, 'd': 0.0}
    """
    sizes = [len(group) for group in ranking]
    total = sum(sizes)
    # systems below = total - (systems above) - (own tie group)
    return {s: float(total - (position - 1) - sizes[tier - 1]) for s, position, tier in walk_tiers(ranking)}


# ---------------------------------------------------------------------- tie-breaks
def tie_break_methods(tie_break: Any) -> tuple[str, ...]:
    """The ``tie_break`` option as a tuple of method names (the names are not checked here).

    Parameters
    ----------
    tie_break : str, sequence of str or None

    Returns
    -------
    tuple of str
        Empty for None.

    Raises
    ------
    InvalidOptionError
        If `tie_break` is an empty sequence, or neither None, a string nor a sequence.

    Examples
    --------
    >>> tie_break_methods("mean"), tie_break_methods(None)
    (('mean',), ())
    """
    if tie_break is None:
        return ()
    if isinstance(tie_break, str):
        return (tie_break,)
    if isinstance(tie_break, Sequence):
        methods = tuple(tie_break)
        if not methods:
            raise InvalidOptionError("tie_break must name at least one method, or be None")
        return methods
    raise InvalidOptionError(f"tie_break must be None, 'mean', 'lexicographic' or a sequence of them, got {tie_break!r}")


def apply_tie_break(
    ranking: tuple[tuple[str, ...], ...], methods: Sequence[str], lb: Leaderboard | None
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """Split the tie groups of `ranking` by each method of `methods` in turn.

    ``"mean"`` orders tied systems by :func:`mean_key` (systems still within SCORE_TOL stay
    tied); any other method (``"lexicographic"``) orders them by label.

    Parameters
    ----------
    ranking : tuple of tuple of str
        Tie groups, best first.
    methods : sequence of str
        Tie-break methods, applied in order.
    lb : Leaderboard or None
        The scores for ``"mean"``.

    Returns
    -------
    (tuple of tuple of str, tuple of tuple of str)
        The new tie groups, and the groups that were split (as they were before the split).

    Raises
    ------
    InvalidOptionError
        If ``"mean"`` is asked and `lb` is None.

    Examples
    --------
    >>> apply_tie_break((("b", "a"), ("c",)), ("lexicographic",), None)
    ((('a',), ('b',), ('c',)), (('b', 'a'),))
    """
    split: list[tuple[str, ...]] = []
    for method in methods:
        key: dict[str, float]
        if method == "mean":
            if lb is None:
                raise InvalidOptionError("tie_break='mean' needs the Leaderboard's scores")
            key = mean_key(lb)
        else:
            key = {}
        new: list[tuple[str, ...]] = []
        for group in ranking:
            if len(group) == 1:
                new.append(group)
                continue
            if method == "mean":
                parts = tiers_from_scores(list(group), [key[s] for s in group], tol=SCORE_TOL)
            else:  # lexicographic: by system label
                parts = tuple((s,) for s in sorted(group))
            if len(parts) > 1:
                split.append(group)
            new.extend(parts)
        ranking = tuple(new)
    return ranking, tuple(split)


def mean_key(lb: Leaderboard) -> dict[str, float]:
    """Weighted mean of oriented scores over the tasks each system is scored on.

    Parameters
    ----------
    lb : Leaderboard

    Returns
    -------
    dict of str to float
        System -> mean, ``-inf`` for a system scored only on zero-weight tasks.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> mean_key(cs.Leaderboard(pd.DataFrame({"qa": [0.5, 1.0], "nli": [1.0, None]}, index=["a", "b"])))
    {'a': 0.75, 'b': 1.0}
    """
    values = lb.values
    w = lb.weight_array
    ok = ~np.isnan(values)
    filled = np.where(ok, values, 0.0)
    exponent = 0
    with np.errstate(over="ignore", invalid="ignore"):
        num = filled @ w
    if not np.all(np.isfinite(num)):  # scores near 1e308: average them divided by a power of two
        exponent = math.frexp(float(np.abs(filled).max()))[1]
        w = w / float(w.max())
        with np.errstate(under="ignore"):
            num = np.ldexp(filled, -exponent) @ w
    den = ok.astype(np.float64) @ w
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        mean = np.where(den > 0, num / np.where(den > 0, den, 1.0), -np.inf)
        if exponent:
            low = np.where(ok, values, np.inf).min(axis=1)
            high = np.where(ok, values, -np.inf).max(axis=1)
            mean = np.where(den > 0, np.clip(np.ldexp(mean, exponent), low, high), -np.inf)
    return dict(zip(lb.systems, mean.tolist()))
