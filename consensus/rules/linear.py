"""Rules whose score is linear in the task weights: their per-task points, and a re-run of the rule.

A positional rule gives each system points on each task from its position there (Borda: the
number of systems below it), and a system's score is ``sum_k w_k points[m, k]``; the mean
gives ``sum_k w_k x[m, k] / sum_k w_k``. Once the points are fixed, who wins under a weighting
``w`` is a question of linear inequalities in ``w``: that is what :func:`consensus.winning_weights`
and :func:`consensus.weight_sensitivity` solve. This module computes the points exactly as the
rules do (:func:`linear_points`) and re-runs the rule itself on a weighting
(:func:`rule_scores`), which is how every weighting those functions return is checked.

Decisions
---------
- Points are fixed per task: a positional rule's points on task ``k`` depend only on the
  scores on task ``k`` (and its tie rule), never on the weights; so removing a task is the
  same as giving it weight 0, and the score stays linear.
- ``missing="impute"`` keeps linearity: the expected points over the compatible complete
  rankings of each task (Himmi et al.) are fixed per task too.
- ``normalize`` (mean only) rescales each task's oriented scores before the mean:
  ``"minmax"`` to [0, 1] (best 1, worst 0; a constant task is all 0), ``"zscore"`` to mean 0
  and standard deviation 1 (population; a constant task is all 0). The weighted mean of
  normalized scores is then ordinary ``mean`` on the normalized leaderboard, and is
  re-checked that way.
- Iterative rules (threshold, baldwin), majority rules, Kemeny and the geometric mean are not
  linear in the weights and are refused here with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..hints import hinted, option
from ..results import RuleResult
from .imputed import expected_points
from .positional import check_ties, position_points, scoring_vector
from .registry import RULES, rank
from .spec import quiet

__all__ = ["LINEAR_RULES", "LinearPoints", "linear_points", "rule_result", "rule_scores", "normalized_leaderboard"]

#: The rules whose score is linear in the task weights once the per-task points are fixed: the
#: rules declared ``linear=True`` (:mod:`.declaration`), in documentation order.
LINEAR_RULES: tuple[str, ...] = tuple(name for name, declared in RULES.items() if declared.linear)
_POSITIONAL = tuple(name for name in LINEAR_RULES if RULES[name].spec.kind == "positional")
_NORMALIZE = (None, "minmax", "zscore")
_NOT_LINEAR = {name: declared.not_linear for name, declared in RULES.items() if not declared.linear}


@dataclass(frozen=True)
class LinearPoints:
    """The per-task points of a linear rule on one (treated) leaderboard.

    Attributes
    ----------
    rule : str
    options : Mapping[str, Any]
        The rule's own options as used (``ties``, ``vector``, ``normalize``) and ``missing``.
    lb : Leaderboard
        The leaderboard the points are for (normalized for ``mean`` with ``normalize``;
        holes kept with ``missing="impute"``).
    points : numpy.ndarray
        Systems x tasks: the score of system ``m`` under weights ``w`` (summing to 1) is
        ``points[m] @ w``. Read-only.
    """

    rule: str
    options: Mapping[str, Any]
    lb: Leaderboard
    points: np.ndarray = field(repr=False)

    def scores(self, weights: np.ndarray) -> np.ndarray:
        """``points @ w`` for weights `weights` normalized to sum 1 (the rule's scores, up to scale).

        Parameters
        ----------
        weights : numpy.ndarray
            One non-negative weight per task.

        Returns
        -------
        numpy.ndarray
            One score per system.
        """
        w = np.asarray(weights, dtype=np.float64)
        return self.points @ (w / w.sum())


def check_linear_rule(rule: object, context: str) -> str:
    """Check that `rule` names a rule whose score is linear in the task weights.

    Parameters
    ----------
    rule : object
        The rule name as given.
    context : str
        The function name, for the message.

    Returns
    -------
    str
        `rule`.

    Raises
    ------
    InvalidOptionError
        Not a linear rule; the message says why and what to use instead.

    Examples
    --------
    >>> check_linear_rule("borda", "winning_weights")
    'borda'
    """
    if isinstance(rule, str) and rule in LINEAR_RULES:
        return rule
    if isinstance(rule, str) and rule in _NOT_LINEAR:
        raise InvalidOptionError(f"{context}: rule {rule!r} is not linear in the task weights: {_NOT_LINEAR[rule]}")
    raise InvalidOptionError(f"{context}: unknown rule {rule!r}; the linear rules are {', '.join(LINEAR_RULES)}")


def normalized_leaderboard(lb: Leaderboard, how: str | None) -> Leaderboard:
    """The leaderboard with each task's oriented scores rescaled (all tasks higher-is-better then).

    Parameters
    ----------
    lb : Leaderboard
    how : {None, "minmax", "zscore"}
        None returns `lb`. ``"minmax"``: ``(x - min) / (max - min)``; ``"zscore"``:
        ``(x - mean) / std`` (population std); on the oriented scores, missing scores kept
        missing; a task whose scored values are all equal becomes all 0.

    Returns
    -------
    Leaderboard
        Same systems, tasks, weights and groups.

    Raises
    ------
    InvalidOptionError
        `how` is not one of the choices.

    Examples
    --------
    >>> import pandas as pd
    >>> lb = Leaderboard.from_frame(pd.DataFrame({"acc": [0.5, 0.75, 1.0], "err": [3.0, 1.0, 2.0]},
    ...                             index=["a", "b", "c"]), lower_is_better=["err"])
    >>> normalized_leaderboard(lb, "minmax").scores.to_dict(orient="list")
    {'acc': [0.0, 0.5, 1.0], 'err': [0.0, 1.0, 0.5]}
    """
    if how not in _NORMALIZE:
        raise InvalidOptionError(f"normalize must be None, 'minmax' or 'zscore', got {how!r}")
    if how is None:
        return lb
    v = lb.values
    out = np.full_like(v, np.nan)
    for k in range(v.shape[1]):
        x = v[:, k]
        ok = ~np.isnan(x)
        if not ok.any():
            continue
        xs = x[ok]
        if how == "minmax":
            span = xs.max() - xs.min()
            out[ok, k] = (xs - xs.min()) / span if span > 0 else 0.0
        else:
            sd = xs.std()
            out[ok, k] = (xs - xs.mean()) / sd if sd > 0 else 0.0
    frame = pd.DataFrame(out, index=list(lb.systems), columns=list(lb.tasks))
    return quiet(lambda: Leaderboard.from_frame(frame, weights=dict(lb.weights), groups=dict(lb.groups)))


def rule_options(rule: str, options: Mapping[str, Any], context: str) -> dict[str, Any]:
    """Check the rule's own options for the linear analysis; returns them with defaults filled.

    Parameters
    ----------
    rule : str
        A linear rule.
    options : Mapping[str, Any]
        ``ties`` (positional rules, default ``"average"``), ``vector`` (``"scoring"`` only),
        ``normalize`` (``"mean"`` only, default None).
    context : str
        The function name, for messages.

    Returns
    -------
    dict

    Raises
    ------
    InvalidOptionError
        An option the rule does not take, or a bad value.

    Examples
    --------
    >>> rule_options("borda", {}, "winning_weights")
    {'ties': 'average'}
    """
    allowed = ("normalize",) if rule == "mean" else ("ties", "vector") if rule == "scoring" else ("ties",)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise InvalidOptionError(f"{context}: rule {rule!r} takes the options {', '.join(allowed)}; not {', '.join(unknown)}")
    if rule == "mean":
        how = options.get("normalize")
        if how not in _NORMALIZE:
            raise InvalidOptionError(f"{context}: normalize must be None, 'minmax' or 'zscore', got {how!r}")
        return {"normalize": how}
    out: dict[str, Any] = {"ties": check_ties(options.get("ties", "average"), rule)}
    if rule == "scoring":
        out["vector"] = options.get("vector")
    return out


def linear_points(lb: Leaderboard, rule: str, options: Mapping[str, Any], impute: bool) -> LinearPoints:
    """The per-task points of linear rule `rule` on `lb` (already treated for missing scores).

    Parameters
    ----------
    lb : Leaderboard
        Complete scores, unless `impute`.
    rule : str
        A rule of :data:`LINEAR_RULES`.
    options : Mapping[str, Any]
        From :func:`rule_options`.
    impute : bool
        Positional rules only: the expected points over the compatible complete rankings of
        each task (``missing="impute"``).

    Returns
    -------
    LinearPoints

    Raises
    ------
    InvalidOptionError
        Missing scores without `impute`, or `impute` with the mean.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> p = linear_points(toy, "borda", {"ties": "average"}, False)
    >>> p.points.sum(axis=1).tolist()          # the Borda scores of Vote'n'Rank appendix A.1
    [6.0, 9.0, 8.0, 7.0]
    """
    if rule == "mean":
        if impute:
            raise InvalidOptionError(hinted("rule 'mean' cannot use {}; use 'median', 'drop_tasks' or 'drop_systems'",
                                            option("missing", "impute")))
        lb = normalized_leaderboard(lb, options.get("normalize"))
    if not impute and lb.has_missing:
        cell = lb.missing_cells()[0]
        raise InvalidOptionError(hinted(
            "rule {!r} needs complete scores, and {!r} has none on {!r}: pass {}, {} or {}", rule, cell[0], cell[1],
            *(option("missing", p) for p in ("median", "drop_tasks", "drop_systems")),
        ) + ("" if rule == "mean" else hinted(" (or {}: expected points over the compatible rankings)",
                                              option("missing", "impute"))))
    if rule == "mean":
        points = np.array(lb.values, dtype=np.float64)
    else:
        c = scoring_vector(rule, lb.n_systems, options.get("vector"))
        ties = options["ties"]
        points = expected_points(lb, c, ties) if impute else position_points(c, lb.values, ties)
    points = np.ascontiguousarray(points, dtype=np.float64)
    points.setflags(write=False)
    used = dict(options)
    used["missing"] = "impute" if impute else None
    return LinearPoints(rule, used, lb, points)


def rule_result(lp: LinearPoints, weights: np.ndarray) -> RuleResult:
    """Run the rule itself (:func:`consensus.rank`) on ``lp.lb`` with `weights`.

    Tasks of weight 0 stay on the leaderboard with weight 0 (for these rules the same as
    removing them, and a system scored only on removed tasks is not an error).

    Parameters
    ----------
    lp : LinearPoints
    weights : numpy.ndarray
        One non-negative weight per task of ``lp.lb``, not all 0.

    Returns
    -------
    RuleResult

    Examples
    --------
    >>> import consensus as cs
    >>> p = linear_points(cs.load_example("votenrank-toy"), "borda", {"ties": "average"}, False)
    >>> rule_result(p, np.array([0, 0, 1.0, 0, 0])).winners
    ('B',)
    """
    w = np.asarray(weights, dtype=np.float64)
    sub = lp.lb.with_weights({t: float(x) for t, x in zip(lp.lb.tasks, w)})
    opts = {k: v for k, v in lp.options.items() if k not in ("normalize", "missing") and v is not None}
    if lp.options.get("missing") == "impute":
        opts["missing"] = "impute"
    opts["min_coverage"] = 0  # the systems were chosen by the caller; new weights must not set any aside
    return rank(sub, lp.rule, **opts)


def rule_scores(lp: LinearPoints, weights: np.ndarray) -> np.ndarray:
    """The rule's own scores on ``lp.lb`` with `weights` (:func:`rule_result`), per system.

    The independent check of every weighting :func:`consensus.winning_weights` and
    :func:`consensus.weight_sensitivity` return: not ``points @ w``, but the rule's own
    pipeline on the reweighted leaderboard.

    Parameters
    ----------
    lp : LinearPoints
    weights : numpy.ndarray
        One non-negative weight per task of ``lp.lb``, not all 0.

    Returns
    -------
    numpy.ndarray
        The rule's score per system of ``lp.lb``, for weights normalized to sum 1 (the mean:
        the weighted mean; positional rules: the weighted points).

    Examples
    --------
    >>> import consensus as cs
    >>> p = linear_points(cs.load_example("votenrank-toy"), "borda", {"ties": "average"}, False)
    >>> rule_scores(p, np.array([1.0, 0, 0, 0, 0])).tolist()
    [3.0, 2.0, 1.0, 0.0]
    """
    w = np.asarray(weights, dtype=np.float64)
    result = rule_result(lp, w)
    scores = result.scores.reindex(list(lp.lb.systems)).to_numpy(dtype=np.float64)
    if lp.rule == "mean":
        return scores
    return scores / float(w[w > 0].sum())
