"""The best completion of missing scores for one system under a positional rule: an integer program.

The positions model of :mod:`solvers.completion_borda` (every missing cell inserted at some
position of its task's weak order, tied with a scored group or strictly between two), asked of
any scoring vector ``s`` (points for positions 1..n, non-increasing: plurality, Dowdall, top
ten, ...). On each task a system's points depend on two counts: the systems strictly ahead of it
(``a``) and those tied with it, itself included (``c``): with ``ties="average"`` the mean of
``s[a] .. s[a + c - 1]``, ``"min"`` the best of them (``s[a]``), ``"max"`` the worst
(``s[a + c - 1]``). Unlike Borda's these points are not linear in the pairwise relations, so:

- the slots, relations and per-task pairwise indicators ``[y ahead of x]`` are those of the
  Copeland / Minimax model (:func:`solvers.completion_majority._build`, its WLOG placements
  included: the target first wherever it is missing, a modelled rival at the bottom of its
  region, the other systems free), which makes ``a`` and ``c`` of the target and of every
  modelled rival linear expressions per task;
- each such (system, task) picks one value of ``(a, c)`` (``a`` alone for ``"min"``, ``a + c``
  for ``"max"``) among those its expressions can reach, by binaries summing to one and tied to
  the expressions by equalities; its points are the table's value at the pick. Exact, and small
  when few systems are modelled (constraint generation adds the rest).

The program maximizes ``min_k score(target) - score(k)`` over the modelled rivals, capped (a
larger margin buys nothing). Rivals outside `rivals` are free (their scores are not bounded), so
the program is a relaxation, exact for the rivals it models; the caller runs the rule on the
returned completion and adds the rivals it lets through.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from .completion_borda import CompletionOutcome, no_time_no_model
from .completion_majority import Linear, _build, _combine, _PairModel, _solve

__all__ = ["best_positional_completion", "tie_points"]

FloatArray = NDArray[np.float64]


def tie_points(points: FloatArray, ahead: int, tied: int, ties: str) -> float:
    """The points of a system with `ahead` systems strictly ahead of it and `tied` tied with it (itself included).

    Parameters
    ----------
    points : numpy.ndarray
        Points for positions 1..n, non-increasing.
    ahead : int
    tied : int
        At least 1.
    ties : {"average", "min", "max"}

    Returns
    -------
    float

    Examples
    --------
    >>> tie_points(np.array([3.0, 2.0, 1.0, 0.0]), 1, 2, "average"), tie_points(np.array([3.0, 2.0, 1.0, 0.0]), 1, 2, "max")
    (1.5, 1.0)
    """
    if ties == "min":
        return float(points[ahead])
    if ties == "max":
        return float(points[ahead + tied - 1])
    return float(points[ahead : ahead + tied].mean())


def _range(expr: Linear) -> tuple[int, int]:
    """The smallest and largest value of a linear expression of 0/1 columns (its integer hull)."""
    terms, constant = expr
    low = constant + sum(min(0.0, c) for c in terms.values())
    high = constant + sum(max(0.0, c) for c in terms.values())
    return int(np.ceil(low - 1e-9)), int(np.floor(high + 1e-9))


@no_time_no_model
def best_positional_completion(
    values: FloatArray,
    weights: FloatArray,
    target: int,
    rivals: NDArray[np.bool_],
    points: FloatArray,
    ties: str = "average",
    *,
    cap: float = 1.0,
    objective: str = "margin",
    time_limit: float | None = None,
    backend: str = "highs",
) -> CompletionOutcome:
    """The completion best for `target` against the modelled `rivals` under the scoring vector `points`.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN for a missing cell.
    weights : numpy.ndarray
        One weight per task.
    target : int
        The system the completion favours.
    rivals : numpy.ndarray of bool
        The rivals modelled (one flag per system; the target's is ignored).
    points : numpy.ndarray
        Points for positions 1..n (n systems), non-increasing.
    ties : {"average", "min", "max"}, default="average"
        Points of tied systems (module notes).
    cap : float, default=1.0
        The largest margin sought.
    objective : {"margin", "count"}, default="margin"
        Maximize ``min_k score(target) - score(k)`` over the modelled rivals, or minimize the
        number of them strictly ahead of the target (its best position among them).
    time_limit : float, optional
        Seconds for the whole search.
    backend : str, default="highs"
        The solver (:class:`~solvers.model.LinearModel`).

    Returns
    -------
    CompletionOutcome
        ``objective``: the best ``min_k score(target) - score(k)`` over the modelled rivals, at
        most `cap` (``"count"``: the fewest modelled rivals strictly ahead); ``bound``: the
        solver's proven bound on it.

    Examples
    --------
    >>> v = np.array([[1.0, np.nan], [0.0, 1.0], [np.nan, 0.0]])   # plurality: a task's first gets 1 point
    >>> out = best_positional_completion(v, np.ones(2), 1, np.array([True, False, True]), np.array([1.0, 0.0, 0.0]))
    >>> out.status.value, out.objective   # 1 first on task 1; 0 and 2 tied first on task 0: half a point each
    ('optimal', 0.5)
    """
    n, n_tasks = values.shape
    points = np.asarray(points, dtype=np.float64)
    pm = _build(values, weights, target, rivals, backend)
    total: dict[int, list[tuple[Linear, float]]] = {x: [] for x in pm.active}
    for t, relations in enumerate(pm.per_task):
        w = float(weights[t])
        for x in pm.active:
            ahead_parts: list[tuple[Linear, float]] = []
            tied_parts: list[tuple[Linear, float]] = [(({}, 1.0), 1.0)]  # itself
            for (a, z), (win, loss) in relations.items():
                if x not in (a, z):
                    continue
                mine, theirs = (win, loss) if a == x else (loss, win)  # [x ahead of y], [y ahead of x]
                ahead_parts.append((theirs, 1.0))
                tied_parts += [(({}, 1.0), 1.0), (mine, -1.0), (theirs, -1.0)]
            ahead, tied = _combine(*ahead_parts), _combine(*tied_parts)
            score_terms = _picks(pm, ahead, tied, points, ties, n)
            total[x].append(((score_terms, 0.0), w))
    score = {x: _combine(*parts) for x, parts in total.items()}
    if objective == "count":  # ahead[k] = 1 unless score(k) <= score(target); maximize -count
        spread = float(np.abs(weights).sum()) * float(points.max() - points.min()) + 1.0
        for k in pm.active[1:]:
            passes = pm.column(0.0, 1.0, -1.0)
            terms, constant = _combine((score[k], 1.0), (score[target], -1.0))
            pm.rows.append((-np.inf, -constant, {**terms, passes: -spread}))
        out = _solve(pm, values, target, rivals, 0.0, time_limit, 1e-6, highs=FEASIBILITY)  # whole counts
        return CompletionOutcome(out.status, None if out.objective is None else -float(np.round(out.objective)) + 0.0,
                                 None if out.bound is None else -float(out.bound), out.values, out.solves)
    worst = pm.column(-np.inf, float(cap), 1.0, continuous=True)
    for k in pm.active[1:]:  # worst <= score(target) - score(k)
        terms, constant = _combine((score[target], 1.0), (score[k], -1.0))
        pm.rows.append((-np.inf, constant, {**{c: -v for c, v in terms.items()}, worst: 1.0}))
    # scores are sums of fractions (Dowdall's 1/99 - 1/100 apart): feasibility tolerances far below
    # HiGHS's defaults (1e-6 on a MIP row), so that a margin the program promises is a margin the rule sees
    return _solve(pm, values, target, rivals, cap, time_limit, _gap(weights, points), highs=FEASIBILITY)


def _gap(weights: FloatArray, points: FloatArray) -> float:
    """The absolute MIP gap: a tenth of the rules' tie tolerance at the largest possible score."""
    return 1e-10 * max(1.0, float(np.abs(weights).sum()) * float(np.abs(points).max(initial=0.0)))


#: HiGHS tolerances of the positional programs (the smallest HiGHS takes).
FEASIBILITY = {"mip_feasibility_tolerance": 1e-10, "primal_feasibility_tolerance": 1e-10}


def _picks(pm: _PairModel, ahead: Linear, tied: Linear, points: FloatArray, ties: str, n: int) -> dict[int, float]:
    """One (system, task): binaries picking its counts among the values its expressions reach, summing
    to one and tied to the expressions by equalities; returns its points on the task as columns ->
    points. (Merging the picks past the vector's last change into one binary, tied by inequalities,
    weakens the relaxation: plurality on 20 x 10 took 48 s instead of 34, measured.)"""
    a_lo, a_hi = _range(ahead)
    c_lo, c_hi = _range(tied)
    a_lo, c_lo = max(a_lo, 0), max(c_lo, 1)
    a_hi = min(a_hi, n - 1)
    if ties == "max":  # the last position held, e = a + c - 1, is all that matters
        key = _combine((ahead, 1.0), (tied, 1.0), (({}, -1.0), 1.0))
        inside: list[tuple[int, int]] = [(e, 0) for e in range(a_lo + c_lo - 1, min(a_hi + c_hi - 1, n - 1) + 1)]
    elif ties == "min":
        key = ahead
        inside = [(a, 0) for a in range(a_lo, a_hi + 1)]
    else:
        key = ahead
        inside = [(a, c) for a in range(a_lo, a_hi + 1) for c in range(c_lo, min(c_hi, n - a) + 1)]
    cols = [pm.column(0.0, 1.0) for _ in inside]
    pm.rows.append((1.0, 1.0, dict.fromkeys(cols, 1.0)))
    pm.rows.append(_equal(key, 0.0, {col: float(k) for col, (k, _) in zip(cols, inside)}))
    if ties == "average":
        pm.rows.append(_equal(tied, 0.0, {col: float(c) for col, (_, c) in zip(cols, inside)}))
    value = {col: float(points[k]) if ties != "average" else tie_points(points, k, c, ties)
             for col, (k, c) in zip(cols, inside)}
    return {col: v for col, v in value.items() if v}


def _equal(expr: Linear, shift: float, picked: dict[int, float]) -> tuple[float, float, dict[int, float]]:
    """The row ``expr + shift == sum(value * pick)``."""
    terms, constant = expr
    row = dict(terms)
    for col, value in picked.items():
        row[col] = row.get(col, 0.0) - value
    return (-(constant + shift), -(constant + shift), row)
