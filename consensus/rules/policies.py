"""The steps of the rule pipeline around a rule's core: missing scores, group weighting, tie-breaks.

Each is applied by :func:`consensus.rules.engine.run_rule` when the matching shared option
is given (``missing``, ``weighting="groups"`` / ``group_weights``, ``tie_break``); see
``docs/rules.md`` for the decisions taken where the papers are silent.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..coverage import comparability, set_aside
from ..errors import InvalidOptionError, InvalidWeightError, MissingScoreError
from ..leaderboard import Leaderboard
from ..missing_policies import apply_policy, policy_record
from ..results import tiers_from_scores
from ..results.base import walk_tiers
from .spec import (
    SCORE_TOL,
    RuleSpec,
    quiet,
)

__all__ = [
    "policies_for",
    "missing_record",
    "apply_missing",
    "drop_low_coverage",
    "check_group_option",
    "group_weight_values",
    "group_weighted",
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


missing_record = policy_record  # the record of what a missing-score policy did (one definition)

#: What ``missing="impute"`` does, by rule kind (the ``treatment`` of the record).
_IMPUTE_TREATMENT = {
    "positional": "expected points over the complete rankings compatible with each task "
    "(imputation by compatible permutations)",
    "iterative": "expected positions / pairwise preferences over the complete rankings compatible with "
    "each task (imputation by compatible permutations)",
    "majority": "imputed pairwise matrix (impute_pairwise: imputation by compatible permutations)",
    "exact": "imputed pairwise matrix (impute_pairwise: imputation by compatible permutations)",
}


def apply_missing(spec: RuleSpec, lb: Leaderboard, policy: str | None) -> tuple[Leaderboard, dict[str, Any], bool]:
    """Apply the missing-score policy `policy` of rule `spec` to `lb`.

    Parameters
    ----------
    spec : RuleSpec
        The rule (whether it imputes, or compares pairs on shared tasks).
    lb : Leaderboard
    policy : {None, "drop_tasks", "drop_systems", "impute", "median"}
        The ``missing`` option.

    Returns
    -------
    (Leaderboard, dict, bool)
        The leaderboard to rank (`lb`, a selection of it, or `lb` with the missing scores
        filled by their task's median), the record of what was done
        (:func:`missing_record`), and whether the rule must impute (by compatible
        permutations).

    Raises
    ------
    InvalidOptionError
        If ``"impute"`` is given to a rule that cannot impute (the score baselines),
        ``"drop_tasks"`` would drop every task, or ``"drop_systems"`` would leave fewer than
        two systems.
    MissingScoreError
        If scores are missing, `policy` is None and the rule needs complete scores.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> lb = cs.Leaderboard(pd.DataFrame({"qa": [0.9, 0.5], "nli": [0.6, None]}, index=["a", "b"]))
    >>> new, record, impute = apply_missing(RuleSpec("borda", "positional", None), lb, "drop_tasks")
    >>> new.tasks, record["dropped_tasks"], impute
    (('qa',), ('nli',), False)
    >>> new, record, impute = apply_missing(RuleSpec("mean", "score", None), lb, "median")
    >>> new.scores["nli"].tolist(), record["n_filled_cells"], record["medians"]
    ([0.6, 0.6], 1, {'nli': 0.6})
    """
    n_cells = int(np.isnan(lb.values).sum())  # missing_cells() only for the error message
    if policy == "impute" and not spec.impute:
        raise InvalidOptionError(
            f"rule {spec.name!r} cannot use missing='impute': imputation by compatible permutations "
            "gives positions and pairwise preferences, not the numbers a score baseline averages; "
            "pass missing='median', 'drop_tasks' or 'drop_systems'"
        )
    if not n_cells:
        return (*apply_policy(lb, policy, f"rule {spec.name!r}"), False)
    if policy is None:
        if not spec.pairwise_missing:
            raise MissingScoreError(spec.name, lb.missing_cells(), policies_for(spec))
        return lb, missing_record(None, n_cells, "pairwise: each pair compared on the tasks both are scored on"), False
    if policy == "impute":
        return lb, missing_record(policy, n_cells, _IMPUTE_TREATMENT[spec.kind]), True
    alternatives = "'median' or 'impute'" if spec.impute else "'median'"
    new, record = apply_policy(lb, policy, f"rule {spec.name!r}", alternatives=alternatives)
    return new, record, False


# ---------------------------------------------------------------------- coverage
def drop_low_coverage(lb: Leaderboard, threshold: float | None) -> tuple[Leaderboard, dict[str, Any] | None]:
    """Set aside the systems a ranking does not cover (:func:`consensus.coverage.set_aside`).

    Systems compared with no rival are always set aside; systems whose coverage (the smaller
    of the share of the task weight scored and the share of rivals compared with) is below
    `threshold` too (None: the default rule, half, unless that leaves fewer than 2 systems).
    A task that only set-aside systems scored is dropped with them. This adds the record a
    rule's result keeps.

    Parameters
    ----------
    lb : Leaderboard
    threshold : float or None
        In [0, 1]; a system at exactly `threshold` is kept. None: the default rule.

    Returns
    -------
    (Leaderboard, dict or None)
        The leaderboard to rank, and ``details["min_coverage"]`` of the result (None when
        the default rule set nothing aside): ``threshold`` (None for the default),
        ``dropped`` (the systems), ``coverage`` (system -> coverage of each one set aside),
        ``dropped_tasks`` and ``note`` (the sentence(s) naming them).

    Raises
    ------
    InvalidOptionError
        If fewer than two systems reach a given `threshold`, or `threshold` is not in [0, 1].

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, 0.7], "nli": [0.6, 0.4, None]}, index=["a", "b", "c"])
    >>> new, info = drop_low_coverage(cs.Leaderboard.from_frame(frame), 0.75)
    >>> new.systems, info["dropped"], info["coverage"]
    (('a', 'b'), ('c',), {'c': 0.5})
    """
    new = quiet(lambda: set_aside(lb, threshold))
    if new is lb and threshold is None:
        return lb, None
    kept, tasks = set(new.systems), set(new.tasks)
    low = tuple(s for s in lb.systems if s not in kept)
    coverage = comparability(lb)["coverage"] if low else None
    added = new.notes[len(lb.notes):] if new is not lb else ()
    return new, {
        "threshold": None if threshold is None else float(threshold),
        "dropped": low,
        "coverage": {s: float(coverage[s]) for s in low} if coverage is not None else {},  # None iff not low
        "dropped_tasks": tuple(t for t in lb.tasks if t not in tasks),
        "note": "; ".join(added) if added else f"min_coverage={threshold:g}: every system is kept",
    }


# ---------------------------------------------------------------------- groups
def check_group_option(lb: Leaderboard, option: str) -> Mapping[str, tuple[str, ...]]:
    """Return the task groups of `lb`, checking that they cover every task.

    Parameters
    ----------
    lb : Leaderboard
    option : str
        The option that needs groups (``"two_step"``, ...), for the message.

    Returns
    -------
    Mapping[str, tuple[str, ...]]
        ``lb.groups``.

    Raises
    ------
    InvalidOptionError
        If `lb` has no groups, or a task is in none.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> lb = cs.Leaderboard(pd.DataFrame({"qa": [0.9, 0.5], "mt": [0.3, 0.4]}, index=["a", "b"]))
    >>> dict(check_group_option(lb.with_groups({"nlu": ["qa"], "gen": ["mt"]}), "two_step"))
    {'nlu': ('qa',), 'gen': ('mt',)}
    """
    groups = lb.groups
    if not groups:
        raise InvalidOptionError(
            f"{option} needs task groups: build the leaderboard with groups={{...}} "
            "(Leaderboard.from_frame) or call lb.with_groups({...})"
        )
    covered = {t for ts in groups.values() for t in ts}
    loose = [t for t in lb.tasks if t not in covered]
    if loose:
        raise InvalidOptionError(
            f"{option} needs every task in a group; task(s) {', '.join(repr(t) for t in loose[:5])}"
            f"{', ...' if len(loose) > 5 else ''} are in none: add them to a group (a group may hold one task)"
        )
    return groups


def group_weight_values(groups: Mapping[str, Sequence[str]], group_weights: Mapping[str, float] | None) -> dict[str, float]:
    """Weight of every group: the given ones checked, the others 1.

    Parameters
    ----------
    groups : Mapping[str, Sequence[str]]
        Group -> tasks.
    group_weights : Mapping[str, float] or None
        The ``group_weights`` option.

    Returns
    -------
    dict of str to float
        Group -> weight, in the order of `groups`.

    Raises
    ------
    InvalidOptionError
        If a weight names an unknown group, is not a number, not finite or negative, or if
        every group weight is zero.

    Examples
    --------
    >>> group_weight_values({"nlu": ["qa"], "gen": ["mt"]}, {"gen": 2})
    {'nlu': 1.0, 'gen': 2.0}
    """
    values = {g: 1.0 for g in groups}
    for g, w in (group_weights or {}).items():
        if g not in groups:
            close = difflib.get_close_matches(str(g), list(groups), n=3)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else f"; groups: {', '.join(repr(k) for k in groups)}"
            raise InvalidOptionError(f"group_weights names unknown group {g!r}{hint}")
        try:
            value = float(w)
        except (TypeError, ValueError):
            raise InvalidOptionError(f"weight of group {g!r} is not a number: {w!r}") from None
        if not np.isfinite(value) or value < 0:
            raise InvalidOptionError(f"weight of group {g!r} must be finite and >= 0, got {w!r}")
        values[g] = value
    if not any(v > 0 for v in values.values()):
        raise InvalidOptionError("every group weight is zero; give at least one group a positive weight")
    return values


def group_weighted(lb: Leaderboard, group_weights: Mapping[str, float] | None) -> Leaderboard:
    """`lb` with task weights rescaled so that each group's tasks sum to the group's weight.

    Within a group the tasks keep their relative weights (``weighting="groups"``).

    Parameters
    ----------
    lb : Leaderboard
        Must have groups covering every task.
    group_weights : Mapping[str, float] or None
        Group -> weight; unlisted groups weigh 1.

    Returns
    -------
    Leaderboard

    Raises
    ------
    InvalidOptionError
        If the groups are missing or incomplete (:func:`check_group_option`), a group
        weight is bad (:func:`group_weight_values`), or every task ends with weight 0.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> lb = cs.Leaderboard(pd.DataFrame({"qa": [0.9, 0.5], "nli": [0.6, 0.8], "mt": [0.3, 0.4]}, index=["a", "b"]))
    >>> group_weighted(lb.with_groups({"nlu": ["qa", "nli"], "gen": ["mt"]}), None).weights.tolist()
    [0.5, 0.5, 1.0]
    """
    groups = check_group_option(lb, "weighting='groups'")
    gw = group_weight_values(groups, group_weights)
    w = lb.weights
    new: dict[str, float] = {}
    for g, ts in groups.items():
        total = float(w[list(ts)].sum())
        for t in ts:
            new[t] = gw[g] * float(w[t]) / total if total > 0 else 0.0
    if not any(v > 0 for v in new.values()):
        raise InvalidOptionError("group weighting leaves every task with weight 0")
    return quiet(lambda: lb.with_weights(new))


def systems_below(ranking: Sequence[Sequence[str]]) -> dict[str, float]:
    """Per system, the number of systems ranked strictly below it (two-step group scores).

    Parameters
    ----------
    ranking : sequence of sequence of str
        Tie groups, best first.

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
