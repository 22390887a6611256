"""The best completion of missing scores for one system under Borda: an integer program.

A board's tasks each rank their scored systems (a weak order, ties allowed); a *completion*
inserts every missing cell at some position of its task's order, tied with a scored group or
strictly between two (the positions model). Under Borda with averaged ties a system's points on
a task are the systems it beats plus half the systems it ties, so its weighted score is a sum
of pairwise relations, which makes the question linear in 0/1 relation variables.

:func:`best_borda_completion` finds, for a `target` system and a set of `rivals`, the completion
that either maximizes the target's smallest margin over the rivals (``objective="margin"``:
is the target first, or first alone, under some completion?) or minimizes the number of rivals
strictly ahead of it (``objective="count"``: its best position). Systems outside `rivals` are
not modelled (their scores are free): the result is a relaxation, exact for the rivals it
models, and the caller adds the rivals the returned completion lets through and solves again
(constraint generation).

The model is small because only the rivals' and the target's positions matter:

- a task's *boundary* groups are its scored tie groups that hold the target or a modelled
  rival; every missing system (but the target) chooses a *slot* among ``2 r + 1`` (above the
  first boundary, tied with it, strictly between it and the next, ..., below the last), as
  threshold binaries ``d[s] = [slot >= s]``;
- a modelled rival missing on the task sits at the bottom of its slot's region (below the
  unmodelled systems there: it beats fewer of them, and no modelled score changes); two
  modelled rivals in the same region form any weak order (relation binaries, transitivity
  added lazily when a solution breaks it);
- the target, when missing, is first on the task (that only helps it).

Points of the target and the rivals are then linear in the slot and relation variables.

References
----------
.. [1] Xia and Conitzer, "Determining possible and necessary winners given partial orders",
   JAIR 41, 2011 (Borda possible winner is NP-complete).
"""

from __future__ import annotations

import contextvars
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np
from numpy.typing import NDArray

from .model import LinearModel
from .status import SolveStatus

__all__ = ["CompletionOutcome", "MixtureOutcome", "best_borda_completion", "borda_mixture", "borda_pair_bounds", "borda_points",
           "borda_weighted_bound", "check_deadline", "program_end", "stopped_status"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class CompletionOutcome:
    """What :func:`best_borda_completion` found.

    Attributes
    ----------
    status : SolveStatus
        ``OPTIMAL`` (the objective is proven for the modelled rivals) or the solver's status.
    objective : float or None
        The best margin (``"margin"``) or the fewest modelled rivals strictly ahead
        (``"count"``) the solver found.
    bound : float or None
        The solver's proven bound on it (equal to `objective` when optimal).
    values : numpy.ndarray or None
        The completed oriented scores (systems x tasks, higher is better) of the solution.
    solves : int
        Integer programs solved (one plus one per round of transitivity cuts).
    """

    status: SolveStatus
    objective: float | None
    bound: float | None
    values: FloatArray | None
    solves: int


F = TypeVar("F", bound=Callable[..., CompletionOutcome])


def no_time_no_model(func: F) -> F:
    """A completion program called with ``time_limit <= 0`` returns ``TIME_LIMIT`` at once, without
    building its model (at 350 systems a build alone takes seconds: a spent budget must cost nothing);
    one whose time runs out while its model is built (:func:`check_deadline`, called between the
    build's tasks and stages) returns the same, so a build overruns its limit by one task's share at most.

    Parameters
    ----------
    func : callable
        A completion program taking ``time_limit=`` by keyword.

    Returns
    -------
    callable
        `func`, returning ``CompletionOutcome(TIME_LIMIT, None, None, None, 0)`` when no time is left.
    """

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> CompletionOutcome:
        limit = kwargs.get("time_limit")
        if limit is not None and limit <= 0:
            return CompletionOutcome(SolveStatus.TIME_LIMIT, None, None, None, 0)
        token = _DEADLINE.set(None if limit is None else time.perf_counter() + float(limit))
        try:
            return func(*args, **kwargs)
        except _Expired:
            return CompletionOutcome(SolveStatus.TIME_LIMIT, None, None, None, 0)
        finally:
            _DEADLINE.reset(token)

    return run  # type: ignore[return-value]


class _Expired(Exception):
    """The running completion program's time ran out before its first solve (its model unfinished)."""


def check_deadline() -> None:
    """Stop the completion program being built when its time is spent (before its first solve only:
    a solve's point and bound are never thrown away).

    Raises
    ------
    _Expired
        Past the deadline :func:`no_time_no_model` set; caught by it (``TIME_LIMIT``).
    """
    end = _DEADLINE.get()
    if end is not None and time.perf_counter() >= end:
        raise _Expired


#: The deadline of the completion program running (set by :func:`no_time_no_model` on entry).
_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar("completion_deadline", default=None)


def stopped_status(sol: Any) -> SolveStatus:
    """The status of a completion program's solve that gave no optimum: a time limit hit before
    any point (as between rounds of cuts, with little time left) is ``TIME_LIMIT``, not
    ``NOT_SOLVED``.

    Parameters
    ----------
    sol : solvers.status.ModelSolution
        The solve.

    Returns
    -------
    SolveStatus
    """
    return SolveStatus.TIME_LIMIT if sol.status is SolveStatus.NOT_SOLVED and sol.limit_reached else sol.status


def program_end(time_limit: float | None) -> float | None:
    """When the running completion program must stop: `time_limit` counted from its entry, so
    that building the model (seconds at 350 systems) uses the same time as solving it.

    Parameters
    ----------
    time_limit : float or None
        The program's seconds (None: no limit).

    Returns
    -------
    float or None
        A :func:`time.perf_counter` value, or None.
    """
    end = _DEADLINE.get()
    if end is not None or time_limit is None:
        return end
    return time.perf_counter() + float(time_limit)


def borda_points(values: FloatArray) -> FloatArray:
    """Borda points (averaged ties) of every system on every task of complete `values`, exact comparisons.

    Each column sorted once: a system in the run of equal values at sorted positions
    ``first .. last`` beats ``first`` systems and ties ``last - first`` others, so its points
    are ``(first + last) / 2``.

    Parameters
    ----------
    values : numpy.ndarray
        Scores (systems x tasks, higher is better), no NaN.

    Returns
    -------
    numpy.ndarray
        Points, the shape of `values`.

    Examples
    --------
    >>> borda_points(np.array([[2.0], [1.0], [2.0]])).ravel().tolist()
    [1.5, 0.0, 1.5]
    """
    n = values.shape[0]
    order = np.argsort(values, axis=0, kind="stable")
    ordered = np.take_along_axis(values, order, axis=0)
    starts = np.ones(values.shape, dtype=bool)
    starts[1:] = ordered[1:] != ordered[:-1]
    ends = np.ones(values.shape, dtype=bool)
    ends[:-1] = starts[1:]
    index = np.broadcast_to(np.arange(n)[:, None], values.shape)
    first = np.maximum.accumulate(np.where(starts, index, 0), axis=0)
    last = np.minimum.accumulate(np.where(ends, index, n)[::-1], axis=0)[::-1]
    points = np.empty(values.shape)
    np.put_along_axis(points, order, (first + last) / 2.0, axis=0)
    return points


def _scored_points(column: FloatArray, scored: NDArray[np.bool_]) -> FloatArray:
    """Borda points (averaged ties) of each scored system among the scored systems only (0 elsewhere)."""
    out = np.zeros(len(column))
    out[scored] = borda_points(column[scored][:, None])[:, 0]
    return out


def borda_pair_bounds(values: FloatArray, weights: FloatArray, target: int) -> FloatArray:
    """Per system ``k``, the largest ``score(k) - score(target)`` any completion gives (Borda, averaged ties).

    Exact in closed form: on each task the difference is a sum over the third systems of
    terms that each involve one missing cell at most, so every missing cell takes its best
    place independently (a missing `k` first, a missing target last, a missing third system
    between `k` and the target when `k` is ahead). Per task, with ``B`` the points among the
    scored systems and ``m`` the number of missing systems: both scored, ``B(k) - B(t)``
    plus ``m`` if `k` is ahead; `k` missing, ``n - 1 - B(t)``; the target missing,
    ``B(k) + m``; both missing, ``n - 1``. The smallest difference is ``-bounds(target=k)[t]``.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN for a missing cell.
    weights : numpy.ndarray
        One weight per task.
    target : int
        The system the differences are taken against.

    Returns
    -------
    numpy.ndarray
        One value per system (0 for the target itself).

    Examples
    --------
    >>> v = np.array([[1.0, np.nan], [0.0, 1.0], [np.nan, 0.0]])
    >>> borda_pair_bounds(v, np.ones(2), 0).tolist()   # at most: 1 ends 1 point ahead of 0, 2 ends 2 ahead
    [0.0, 1.0, 2.0]
    """
    n, n_tasks = values.shape
    out = np.zeros(n)
    for t in range(n_tasks):
        column = values[:, t]
        scored = ~np.isnan(column)
        m = int((~scored).sum())
        points = _scored_points(column, scored)
        if scored[target]:
            ahead = scored & (column > column[target])
            per = np.where(scored, points - points[target] + m * ahead, n - 1 - points[target])
        else:
            per = np.where(scored, points + m, n - 1.0)
        out += weights[t] * per
    out[target] = 0.0
    return out


class _Task:
    """One task's slots: its scored tie groups, the boundary groups and the missing systems."""

    def __init__(self, column: FloatArray, target: int, modelled: NDArray[np.bool_]) -> None:
        scored = ~np.isnan(column)
        self.n = len(column)
        self.groups = np.unique(column[scored])[::-1]  # group values, best first
        self.group_of = {int(j): int(np.searchsorted(-self.groups, -column[j])) for j in np.flatnonzero(scored)}
        self.size = np.array([int((column[scored] == g).sum()) for g in self.groups])
        self.below = np.concatenate([np.cumsum(self.size[::-1])[::-1][1:], [0]]) if len(self.groups) else np.zeros(0)
        keys = {self.group_of[j] for j in self.group_of if j == target or modelled[j]}
        self.boundary = sorted(keys)  # group indices, best first
        self.r = len(self.boundary)
        self.missing = [int(j) for j in np.flatnonzero(~scored) if j != target]
        self.target_missing = not scored[target]
        self.points = _scored_points(column, scored)

    def slot_base(self) -> FloatArray:
        """Points from the scored systems of a modelled missing system in each slot 0..2r."""
        base = np.zeros(2 * self.r + 1)
        for q in range(self.r + 1):  # even slot 2q: just above boundary q+1 (or last)
            base[2 * q] = self.below[self.boundary[q]] + self.size[self.boundary[q]] if q < self.r else 0.0
        for q in range(1, self.r + 1):  # odd slot 2q-1: tied with boundary q
            g = self.boundary[q - 1]
            base[2 * q - 1] = self.below[g] + 0.5 * self.size[g]
        return base


@no_time_no_model
def best_borda_completion(
    values: FloatArray,
    weights: FloatArray,
    target: int,
    rivals: NDArray[np.bool_],
    *,
    objective: Literal["margin", "count"] = "margin",
    tol: float = 0.0,
    big_m: FloatArray | None = None,
    time_limit: float | None = None,
    backend: str = "highs",
    cap: float | None = None,
) -> CompletionOutcome:
    """The completion best for `target` against the modelled `rivals` under Borda (averaged ties).

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
    objective : {"margin", "count"}, default="margin"
        Maximize ``min_k score(target) - score(k)`` over the rivals, or minimize the number
        of rivals with ``score(k) - score(target) > tol``.
    tol : float, default=0.0
        ``"count"``: the difference up to which a rival is not ahead.
    big_m : numpy.ndarray, optional
        ``"count"``: per system, an upper bound on ``score(k) - score(target)`` (see
        :func:`borda_pair_bounds`); required with ``"count"``.
    time_limit : float, optional
        Seconds for the whole search.
    backend : str, default="highs"
        The solver (:class:`~solvers.model.LinearModel`).
    cap : float, optional
        ``"margin"``: the largest margin sought. A margin past it is worth nothing more, so
        the solver stops pushing one rival far down at the others' expense; the returned
        objective is then the smaller of the best margin and `cap` (its sign is exact).

    Returns
    -------
    CompletionOutcome

    Examples
    --------
    >>> v = np.array([[2.0, np.nan], [1.0, 1.0], [0.0, 0.0]])
    >>> out = best_borda_completion(v, np.ones(2), 0, np.array([False, True, True]))
    >>> out.status.value, out.objective, bool(out.values[0, 1] > 1.0)   # 0 first on task 2: 4 points to 2 and 0
    ('optimal', 2.0, True)
    """
    n, n_tasks = values.shape
    modelled = np.asarray(rivals, dtype=bool).copy()
    modelled[target] = False
    tasks = [_Task(values[:, t], target, modelled) for t in range(n_tasks)]
    m = LinearModel(backend=backend, sense="max" if objective == "margin" else "min")
    score: dict[int, dict[int, float]] = {k: {} for k in [target, *np.flatnonzero(modelled).tolist()]}
    const = dict.fromkeys(score, 0.0)
    rows: list[tuple[float, float, dict[int, float]]] = []

    column = m.add_column

    def add(row: dict[int, float], lower: float, upper: float) -> None:
        rows.append((lower, upper, row))

    def gain(k: int, col: int, coef: float) -> None:
        score[k][col] = score[k].get(col, 0.0) + coef

    d_of: list[dict[int, list[int]]] = []
    pairs: list[list[tuple[int, int, int, int]]] = []  # per task: (j, x, a_jx, a_xj) of modelled missing pairs
    for t, task in enumerate(tasks):
        check_deadline()
        w = float(weights[t])
        d: dict[int, list[int]] = {}
        for x in task.missing:  # threshold binaries d[s] = [slot >= s], s = 1..2r
            d[x] = [column(0.0, 1.0) for _ in range(2 * task.r)]
            for s in range(1, 2 * task.r):
                add({d[x][s]: 1.0, d[x][s - 1]: -1.0}, -np.inf, 0.0)
        d_of.append(d)

        def thr(x: int, s: int, dx: dict[int, list[int]] = d, r: int = task.r) -> int | None:
            """The column of [slot_x >= s], None for s <= 0 (always 1) or s > 2r (always 0)."""
            return dx[x][s - 1] if 1 <= s <= 2 * r else None

        # scored boundary systems: the target and modelled rivals scored here
        for k in score:
            if k in task.group_of:
                q = task.boundary.index(task.group_of[k]) + 1
                const[k] += w * task.points[k]
                if task.target_missing and k != target:
                    pass  # the target is first here: k gets nothing from it
                for x in task.missing:  # x strictly below k's group (slot >= 2q) or tied with it (2q - 1)
                    below, tied = thr(x, 2 * q), thr(x, 2 * q - 1)
                    if below is not None:
                        gain(k, below, 0.5 * w)
                    if tied is not None:
                        gain(k, tied, 0.5 * w)
            elif k == target:  # missing target: first, beats every other system
                const[k] += w * (task.n - 1)
        # modelled rivals missing here: points from the scored systems by slot, and from the other missing
        base = task.slot_base()
        in_task = [x for x in task.missing if modelled[x]]
        for j in in_task:
            const[j] += w * base[0]
            for s in range(1, 2 * task.r + 1):
                gain(j, d[j][s - 1], w * (base[s] - base[s - 1]))
        task_pairs: list[tuple[int, int, int, int]] = []
        for j in in_task:
            for x in task.missing:
                if x == j or (modelled[x] and x < j):
                    continue
                if modelled[x]:  # two modelled: a weak order inside a shared region
                    a_jx, a_xj = column(0.0, 1.0), column(0.0, 1.0)
                    add({a_jx: 1.0, a_xj: 1.0}, -np.inf, 1.0)
                    for s in range(1, 2 * task.r + 1):  # slot order forces the relation
                        add({a_jx: 1.0, d[x][s - 1]: -1.0, d[j][s - 1]: 1.0}, 0.0, np.inf)
                        add({a_xj: 1.0, d[j][s - 1]: -1.0, d[x][s - 1]: 1.0}, 0.0, np.inf)
                    for q in range(1, task.r + 1):  # both tied with boundary q: tied together
                        s = 2 * q - 1
                        row = {a_jx: 1.0, a_xj: 1.0}
                        for z in (j, x):
                            row[d[z][s - 1]] = row.get(d[z][s - 1], 0.0) + 1.0
                            if s < 2 * task.r:
                                row[d[z][s]] = row.get(d[z][s], 0.0) - 1.0
                        add(row, -np.inf, 2.0)
                    # rel(j, x) = 1/2 + (a_jx - a_xj) / 2, and the reverse
                    const[j] += 0.5 * w
                    const[x] += 0.5 * w
                    gain(j, a_jx, 0.5 * w)
                    gain(j, a_xj, -0.5 * w)
                    gain(x, a_xj, 0.5 * w)
                    gain(x, a_jx, -0.5 * w)
                    task_pairs.append((j, x, a_jx, a_xj))
                else:  # x unmodelled: above j inside a shared region; j above x only when its slot is higher
                    a_jx = column(0.0, 1.0, continuous=True)
                    for s in range(1, 2 * task.r + 1):
                        add({a_jx: 1.0, d[x][s - 1]: -1.0, d[j][s - 1]: 1.0}, 0.0, np.inf)
                    gain(j, a_jx, w)
                    for q in range(1, task.r + 1):  # tied with the same boundary group: half a point
                        s = 2 * q - 1
                        tie = column(0.0, 1.0, continuous=True)
                        row = {tie: 1.0}
                        for z in (j, x):
                            row[d[z][s - 1]] = row.get(d[z][s - 1], 0.0) - 1.0
                            if s < 2 * task.r:
                                row[d[z][s]] = row.get(d[z][s], 0.0) + 1.0
                        add(row, -1.0, np.inf)
                        gain(j, tie, 0.5 * w)
        pairs.append(task_pairs)

    rivals_list = [k for k in score if k != target]
    if objective == "margin":
        z = column(-np.inf, np.inf if cap is None else float(cap), 1.0, continuous=True)
        for k in rivals_list:  # z <= score(target) - score(k)
            row = {z: 1.0}
            for col, c in score[target].items():
                row[col] = row.get(col, 0.0) - c
            for col, c in score[k].items():
                row[col] = row.get(col, 0.0) + c
            add(row, -np.inf, const[target] - const[k])
    else:
        if big_m is None:
            raise ValueError("objective='count' needs big_m")
        for k in rivals_list:  # score(k) - score(target) - M_k u_k <= tol
            u = column(0.0, 1.0, 1.0)
            row = {u: -max(float(big_m[k]) - tol, 0.0)}
            for col, c in score[k].items():
                row[col] = row.get(col, 0.0) + c
            for col, c in score[target].items():
                row[col] = row.get(col, 0.0) - c
            add(row, -np.inf, tol - const[k] + const[target])
    if not rivals_list:  # nothing to beat
        m.add_columns([0.0], [0.0], [0.0])
    check_deadline()
    _flush(m, rows)
    m.set_integer(True)
    solves = 0
    end = program_end(time_limit)  # the build counts
    while True:
        solves += 1
        left = None if end is None else max(end - time.perf_counter(), 0.0)
        sol = m.solve(time_limit=left, gap_abs=1e-9 * max(1.0, float(np.abs(weights).sum()) * n),
                      highs_options={"mip_rel_gap": 0.0})
        if sol.x is None or sol.status is not SolveStatus.OPTIMAL:
            return CompletionOutcome(stopped_status(sol), sol.objective, sol.dual_bound, None, solves)
        point = np.round(sol.x)
        cuts = _transitivity_cuts(point, pairs)
        if not cuts:
            break
        rows = cuts
        _flush(m, rows)
    objective_value = float(sol.objective) if sol.objective is not None else None
    if not rivals_list:
        objective_value = float("inf") if objective == "margin" else 0.0
    completed = _completion(values, tasks, d_of, pairs, point, modelled, target)
    return CompletionOutcome(SolveStatus.OPTIMAL, objective_value, sol.dual_bound, completed, solves)


def _flush(m: LinearModel, rows: list[tuple[float, float, dict[int, float]]]) -> None:
    if not rows:
        return
    lower = np.array([r[0] for r in rows])
    upper = np.array([r[1] for r in rows])
    starts: list[int] = []
    index: list[int] = []
    value: list[float] = []
    for _, _, row in rows:
        starts.append(len(index))
        index.extend(row.keys())
        value.extend(row.values())
    m.add_rows(lower, upper, np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32), np.array(value))


def _relation(x: FloatArray, task_pairs: list[tuple[int, int, int, int]]) -> dict[tuple[int, int], int]:
    """(j, k) -> 1 when j is strictly above k among the modelled missing of one task."""
    out: dict[tuple[int, int], int] = {}
    for j, k, a_jk, a_kj in task_pairs:
        out[j, k] = int(x[a_jk] > 0.5)
        out[k, j] = int(x[a_kj] > 0.5)
    return out


def _transitivity_cuts(x: FloatArray, pairs: list[list[tuple[int, int, int, int]]]) -> list[tuple[float, float, dict[int, float]]]:
    """Rows cutting off the triples of one task whose relations are not a weak order."""
    cuts: list[tuple[float, float, dict[int, float]]] = []
    for task_pairs in pairs:
        if len(task_pairs) < 3:
            continue
        rel = _relation(x, task_pairs)
        col = {}
        for j, k, a_jk, a_kj in task_pairs:
            col[j, k], col[k, j] = a_jk, a_kj
        members = sorted({j for j, _ in rel})
        for a in members:
            for b in members:
                for c in members:
                    if len({a, b, c}) < 3:
                        continue
                    if rel[a, b] and rel[b, c] and not rel[a, c]:  # a > b > c needs a > c
                        cuts.append((-np.inf, 1.0, {col[a, b]: 1.0, col[b, c]: 1.0, col[a, c]: -1.0}))
                    elif rel[a, c] and not rel[a, b] and not rel[b, c]:  # a > c needs a > b or b > c
                        cuts.append((0.0, np.inf, {col[a, b]: 1.0, col[b, c]: 1.0, col[a, c]: -1.0}))
    return cuts


def _completion(
    values: FloatArray,
    tasks: list[_Task],
    d_of: list[dict[int, list[int]]],
    pairs: list[list[tuple[int, int, int, int]]],
    x: FloatArray,
    modelled: NDArray[np.bool_],
    target: int,
) -> FloatArray:
    """The oriented scores of the solution: every missing cell at a value that realizes its slot."""
    out = values.copy()
    for t, task in enumerate(tasks):
        g = task.groups
        span = float(g[0] - g[-1]) if len(g) > 1 else 1.0
        # a step that moves the scores' magnitude (1 beside 1e300 would vanish in rounding)
        span = max(span if span > 0 else 1.0, 1e-6 * float(np.abs(g).max(initial=0.0)))
        rel = _relation(x, pairs[t])
        if task.target_missing:
            out[target, t] = (g[0] if len(g) else 0.0) + 2.0 * span
        regions: dict[int, list[int]] = {}
        for j in task.missing:
            slot = int(sum(x[c] > 0.5 for c in d_of[t][j]))
            if slot % 2:  # tied with boundary group (slot + 1) / 2
                out[j, t] = g[task.boundary[(slot - 1) // 2]]
            else:
                regions.setdefault(slot // 2, []).append(j)
        for q, members in regions.items():  # the bottom of the region: just above boundary q + 1
            if not len(g):
                low, high = -1.0, 1.0
            elif q < task.r:
                below = task.boundary[q]
                low = float(g[below])
                high = float(g[below - 1]) if below > 0 else float(g[0]) + span
            else:
                low, high = float(g[-1]) - span, float(g[-1])
            mod = [j for j in members if modelled[j]]
            level = {j: sum(rel.get((j, k), 0) == 0 and rel.get((k, j), 0) == 1 for k in mod) for j in mod}
            # a modelled system's level: how many of the region's modelled systems are above it
            top = max(level.values(), default=-1) + 1
            steps = top + 2
            for j in members:
                rank_from_bottom = (top - level[j]) if modelled[j] else top + 1
                out[j, t] = low + (high - low) * rank_from_bottom / (steps + 1)
    return out


@dataclass(frozen=True)
class MixtureOutcome:
    """What :func:`borda_mixture` found: a weighting of the rivals and, maybe, a completion.

    Attributes
    ----------
    rival_weights : numpy.ndarray
        ``lam``: one non-negative weight per system summing to 1 (0 for the target and the
        rivals not considered), the best weighting found.
    bound : float
        ``borda_weighted_bound(values, weights, target, rival_weights)[0]``: under every
        completion, ``sum_k lam_k (score(k) - score(target)) >= bound``.
    lp_bound : float or None
        The master LP's value when its column generation converged: no weighting proves more
        (``bound == lp_bound`` then, up to rounding). None when the time ran out first.
    values : numpy.ndarray or None
        The completion the small integer program built from one generated column per task
        (the best for the target it found), or None.
    solves : int
        Linear and integer programs solved.
    """

    rival_weights: FloatArray
    bound: float
    lp_bound: float | None
    values: FloatArray | None
    solves: int


def borda_weighted_bound(values: FloatArray, weights: FloatArray, target: int, lam: FloatArray,
                         ) -> tuple[float, FloatArray]:
    """The smallest ``sum_k lam_k score(k) - (sum_k lam_k) score(target)`` over every completion (Borda, averaged ties).

    The weighted sum is a sum over the pairs of systems on each task, and each pair's share
    takes its smallest value independently of the others: a missing system ``x`` at the
    position among the task's scored systems that costs least,
    ``min_s A(s) + lam_x B(s)`` (``A``: the weights of the scored systems above the
    position, ``B``: the scored systems below it; the target counts with weight
    ``-sum(lam)``; a tie with a scored group costs the mean of its two sides, never less),
    and two missing systems in the order that costs ``min(lam_x, lam_z)``. The independent
    choices fit together in one completion (a missing system of larger weight never sits
    higher: the positions are taken lowest among the equally good), so the value is the
    minimum, not only a bound. With ``lam = e_k`` it is the pair bound of
    :func:`borda_pair_bounds` (negated); with uniform weights on a set, the set bound.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN for a missing cell.
    weights : numpy.ndarray
        One weight per task.
    target : int
        The system compared against the weighted rivals.
    lam : numpy.ndarray
        One non-negative weight per system (the target's is ignored).

    Returns
    -------
    value : float
        The smallest weighted sum.
    completion : numpy.ndarray
        A completion attaining it (floats permitting: equal or adjacent group values can
        merge positions; the caller scores it).

    Examples
    --------
    >>> v = np.array([[1.0, np.nan], [0.0, 1.0], [np.nan, 0.0]])
    >>> value, _ = borda_weighted_bound(v, np.ones(2), 0, np.array([0.0, 1.0, 0.0]))
    >>> value, float(-borda_pair_bounds(v, np.ones(2), 1)[0])   # rival 1 ends at least 3 points behind system 0
    (-3.0, -3.0)
    """
    lam = np.asarray(lam, dtype=np.float64).copy()
    lam[target] = -(lam.sum() - lam[target])
    total = 0.0
    out = values.copy()
    for t in range(values.shape[1]):
        column = values[:, t]
        scored = np.flatnonzero(~np.isnan(column))
        missing = np.flatnonzero(np.isnan(column))
        groups = np.unique(column[scored])[::-1]  # best first
        of = np.searchsorted(-groups, -column[scored])
        size = np.bincount(of, minlength=len(groups)).astype(np.float64)
        weight = np.bincount(of, weights=lam[scored], minlength=len(groups))
        below = size.sum() - np.cumsum(size)
        among = float(lam[scored] @ (below[of] + 0.5 * (size[of] - 1.0)))
        above_w = np.concatenate([[0.0], np.cumsum(weight)])  # A(s): gap s lies below groups 0..s-1
        below_n = size.sum() - np.concatenate([[0.0], np.cumsum(size)])  # B(s)
        cost = above_w[None, :] + lam[missing, None] * below_n[None, :]
        gap = cost.shape[1] - 1 - np.argmin(cost[:, ::-1], axis=1)  # the lowest of the best gaps
        pairs = np.sort(lam[missing])
        total += float(weights[t]) * (among + float(cost.min(axis=1, initial=np.inf).sum() if len(missing) else 0.0)
                                      + float(pairs @ (len(pairs) - 1.0 - np.arange(len(pairs)))))
        if len(groups):
            span = max(float(groups[0] - groups[-1]), 1.0)
            high = np.concatenate([[groups[0] + span], groups])
            low = np.concatenate([groups, [groups[-1] - span]])
        else:
            high, low = np.array([1.0]), np.array([-1.0])
        for s in np.unique(gap):
            members = missing[gap == s]
            members = members[np.argsort(-lam[members], kind="stable")]  # the heaviest lowest
            steps = np.arange(1, len(members) + 1) / (len(members) + 1.0)
            out[members, t] = low[s] + (high[s] - low[s]) * steps
    return total, out


def borda_mixture(values: FloatArray, weights: FloatArray, target: int, rivals: NDArray[np.bool_], *,
                  time_limit: float | None = None, stop_above: float = np.inf, accept: float = 0.0,
                  big_m: FloatArray | None = None) -> MixtureOutcome:
    """The best weighting of the `rivals` against `target`, by column generation; then a completion built from its columns.

    The question "is the target first under some completion?" asks for one completion with
    every ``score(k) - score(target) <= 0``. Its relaxation to mixtures, task by task, is
    the linear program (a Dantzig-Wolfe master with one block per task) whose dual is
    ``max over lam of borda_weighted_bound(lam)``: cuts ``pi_t <= sum_k lam_k d_k(column)``
    for the task columns generated so far, each new column the closed-form minimizer of
    :func:`borda_weighted_bound` at the current ``lam``. A weighting with a positive value
    proves the target behind some rival under every completion (stopped as soon as the
    value exceeds `stop_above`). When none can, a small integer program picks one generated
    column per task to minimize the largest rival's lead: a real completion, often the
    target's witness where the full program stalls.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN for a missing cell.
    weights : numpy.ndarray
        One weight per task.
    target : int
        The system.
    rivals : numpy.ndarray of bool
        The rivals weighted (for a possible winner those that can tie or pass the target; for a
        best position those that can end on either side); the target's flag is ignored.
    time_limit : float, optional
        Seconds for the whole search.
    stop_above : float, default=inf
        Stop the column generation once a weighting's value exceeds it.
    accept : float, default=0.0
        Stop at once, without the integer program, when the completion made of each task's
        column of largest share in the master's mixture keeps every weighted rival more than
        `accept` behind (tried after every round whose mixture does).
    big_m : numpy.ndarray, optional
        Per system, its largest lead over the target (:func:`borda_pair_bounds`): the integer
        program then picks the columns leaving the fewest weighted rivals more than ``-accept``
        ahead (a best position) instead of the smallest largest lead.

    Returns
    -------
    MixtureOutcome

    Examples
    --------
    >>> v = np.array([[2.0, np.nan], [1.0, 1.0], [0.0, 0.0]])
    >>> out = borda_mixture(v, np.ones(2), 0, np.array([False, True, True]))
    >>> bool(out.values[0, 1] > 1.0), out.rival_weights.tolist()   # system 0 first on task 2, 2 points ahead of 1
    (True, [0.0, 0.5, 0.5])
    """
    n, n_tasks = values.shape
    end = None if time_limit is None else time.perf_counter() + float(time_limit)
    cand = np.flatnonzero(np.asarray(rivals, dtype=bool) & (np.arange(n) != target))
    nc = len(cand)
    lam = np.zeros(n)
    if nc == 0:
        return MixtureOutcome(lam, 0.0, 0.0, None, 0)
    lam[cand] = 1.0 / nc
    # dual master: max sum_t pi_t, lam on the simplex, pi_t <= sum_k lam_k d_k for each task column
    m = LinearModel(sense="max")
    m.add_columns(np.zeros(nc), np.full(nc, np.inf), np.zeros(nc))
    m.add_columns(np.full(n_tasks, -np.inf), np.full(n_tasks, np.inf), np.ones(n_tasks), continuous=True)
    m.add_rows([1.0], [1.0], np.array([0]), np.arange(nc), np.ones(nc))
    columns: list[tuple[int, FloatArray, FloatArray]] = []  # (task, column values, d over cand)
    best = (-np.inf, lam.copy())
    lp_bound = None
    solves = 0
    pi: FloatArray | None = None  # the master's last values per task (none yet: every column goes in)
    while True:
        value, completion = borda_weighted_bound(values, weights, target, lam)
        if value > best[0]:
            best = (value, lam.copy())
        if value > stop_above:
            break
        cuts = []
        for t in range(n_tasks):
            points = borda_points(completion[:, [t]])[:, 0]
            d = float(weights[t]) * (points[cand] - points[target])
            if pi is None or d @ lam[cand] < pi[t] - 1e-9 * max(1.0, abs(pi[t])):
                cuts.append((t, completion[:, t].copy(), d))
        if not cuts and pi is not None:  # no task column prices out: the master is optimal
            lp_bound = float(pi.sum())
            break
        if end is not None and time.perf_counter() >= end:
            break
        starts: list[int] = []
        index: list[int] = []
        coef: list[float] = []
        for t, _, d in cuts:
            starts.append(len(index))
            index.extend([*range(nc), nc + t])
            coef.extend([*(-d).tolist(), 1.0])
        m.add_rows(np.full(len(cuts), -np.inf), np.zeros(len(cuts)), np.array(starts), np.array(index), np.array(coef))
        columns.extend(cuts)
        sol = m.solve(time_limit=None if end is None else end - time.perf_counter())
        solves += 1
        if sol.status is not SolveStatus.OPTIMAL or sol.x is None:
            break
        if sol.row_duals is not None and sol.objective is not None and sol.objective < -accept:
            # a mixture keeps every rival behind: each task's column of largest share in it is a
            # real completion, and often already one that does
            rounded = _largest_shares(values, columns, np.abs(sol.row_duals[1:]), n_tasks)
            if rounded is not None and rounded[1].max() < -accept:
                return MixtureOutcome(best[1], float(best[0]), lp_bound, rounded[0], solves)
        lam = np.zeros(n)
        lam[cand] = np.clip(sol.x[:nc], 0.0, None)
        lam[cand] /= max(lam[cand].sum(), 1e-300)
        pi = sol.x[nc:]
    value, lam = best
    picked = None
    if value <= stop_above and columns and (end is None or time.perf_counter() < end):
        picked = _pick_columns(values, cand, columns, n_tasks, None if end is None else end - time.perf_counter(),
                               None if big_m is None else (np.asarray(big_m, dtype=np.float64)[cand], -accept))
        solves += 1
    return MixtureOutcome(lam, float(value), lp_bound, picked, solves)


def _largest_shares(values: FloatArray, columns: list[tuple[int, FloatArray, FloatArray]], shares: FloatArray,
                    n_tasks: int) -> tuple[FloatArray, FloatArray] | None:
    """Each task's column of largest share in a mixture, and the rivals' leads it gives (None: a task has no column)."""
    best = np.full(n_tasks, -1)
    for j, (t, _, _) in enumerate(columns):
        if best[t] < 0 or shares[j] > shares[best[t]]:
            best[t] = j
    if (best < 0).any():
        return None
    out = values.copy()
    for t, j in enumerate(best):
        out[:, t] = columns[j][1]
    return out, np.sum([columns[j][2] for j in best], axis=0)


def _pick_columns(values: FloatArray, cand: NDArray[np.int64], columns: list[tuple[int, FloatArray, FloatArray]],
                  n_tasks: int, time_limit: float | None, count: tuple[FloatArray, float] | None = None,
                  ) -> FloatArray | None:
    """One generated column per task minimizing the largest lead of a rival over the target, or with
    ``count = (big_m, tol)`` the rivals more than `tol` ahead (an integer program)."""
    nc, k = len(cand), len(columns)
    m = LinearModel(sense="min")
    m.add_columns(np.zeros(k), np.ones(k), np.zeros(k))
    if count is None:
        m.add_columns([-np.inf], [np.inf], [1.0], continuous=True)  # eta: the largest lead
        link = [[-1.0]] * nc
        bound = np.zeros(nc)
    else:  # u_k = 1 when rival k may be ahead: lead_k <= tol + (big_m_k - tol) u_k
        m.add_columns(np.zeros(nc), np.ones(nc), np.ones(nc))
        link = [[-max(float(count[0][i]) - count[1], 0.0)] for i in range(nc)]
        bound = np.full(nc, count[1])
    d = np.array([c[2] for c in columns])  # k x nc
    task = np.array([c[0] for c in columns])
    rows = [(np.flatnonzero(d[:, i]).tolist() + [k + (0 if count is None else i)], d[d[:, i] != 0, i].tolist() + link[i])
            for i in range(nc)]
    rows += [(np.flatnonzero(task == t).tolist(), [1.0] * int((task == t).sum())) for t in range(n_tasks)]
    starts = np.cumsum([0] + [len(r[0]) for r in rows[:-1]])
    lower = np.concatenate([np.full(nc, -np.inf), np.ones(n_tasks)])
    upper = np.concatenate([bound, np.ones(n_tasks)])
    m.add_rows(lower, upper, starts, np.concatenate([r[0] for r in rows]).astype(np.int32),
               np.concatenate([r[1] for r in rows]))
    m.set_integer(True)
    sol = m.solve(time_limit=time_limit)
    if sol.x is None:
        return None
    out = values.copy()
    for t in range(n_tasks):
        own = np.flatnonzero(task == t)
        out[:, t] = columns[int(own[np.argmax(sol.x[own])])][1]
    return out
