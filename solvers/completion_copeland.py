"""The best completion of missing scores for one system under Copeland: an integer program.

The positions model of :mod:`solvers.completion_borda` (every missing cell inserted at some
position of its task's weak order, tied with a scored group or strictly between two), asked
of Copeland: a system's score is the number of rivals it beats by weighted majority minus the
number that beat it. On each task the contribution to the weighted margin ``D[a, z]`` of a pair
is ``+w`` (``a`` ahead), ``0`` (tied) or ``-w``, linear in the slot and relation variables of
the Borda model; each modelled pair's majority outcome is a pair of binaries (``a`` beats
``z``, ``z`` beats ``a``) tied to the sign of ``D[a, z]`` in both directions, with margins
that are multiples of a unit ``u`` (the weights' common measure), so ``D > 0`` means
``D >= u``.

:func:`best_copeland_completion` maximizes ``min_k score(target) - score(k)`` over the
modelled `rivals` (capped). It models the pairs of the target and of every modelled rival with
every system; the systems outside `rivals` are placed like the Borda model's unmodelled ones
(above a modelled rival inside a shared region, which only lowers the rival) and their own
scores are free, so the result is a relaxation in the target's favour, exact for the modelled
rivals: the caller runs the rule on the returned completion and adds the rivals it lets
through (constraint generation).

References
----------
.. [1] Xia and Conitzer, "Determining possible and necessary winners given partial orders",
   JAIR 41, 2011 (Copeland possible winner is NP-complete).
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from .completion_borda import (
    CompletionOutcome,
    _completion,
    _flush,
    _Task,
    _transitivity_cuts,
)
from .model import LinearModel
from .status import SolveStatus

__all__ = ["best_copeland_completion"]

FloatArray = NDArray[np.float64]
Row = tuple[float, float, dict[int, float]]


def best_copeland_completion(
    values: FloatArray,
    weights: FloatArray,
    target: int,
    rivals: NDArray[np.bool_],
    unit: float,
    *,
    cap: float = 1.0,
    time_limit: float | None = None,
    backend: str = "highs",
) -> CompletionOutcome:
    """The completion best for `target` against the modelled `rivals` under Copeland (wins minus losses).

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN for a missing cell.
    weights : numpy.ndarray
        One weight per task, each a multiple of `unit`.
    target : int
        The system the completion favours.
    rivals : numpy.ndarray of bool
        The rivals modelled (one flag per system; the target's is ignored).
    unit : float
        A common measure of the weights: every nonzero margin is at least `unit`.
    cap : float, default=1.0
        The largest margin sought (1: first alone; a larger one is worth nothing more).
    time_limit : float, optional
        Seconds for the whole search.
    backend : str, default="highs"
        The solver (:class:`~solvers.model.LinearModel`).

    Returns
    -------
    CompletionOutcome
        ``objective``: the best ``min_k score(target) - score(k)`` over the modelled rivals,
        at most `cap`; ``bound``: the solver's proven bound on it.

    Examples
    --------
    >>> v = np.array([[1.0, np.nan, 0.0], [0.0, 1.0, 1.0], [np.nan, 0.0, 2.0]])
    >>> out = best_copeland_completion(v, np.ones(3), 0, np.array([False, True, True]), 1.0)
    >>> out.status.value, out.objective   # 0 first on task 2: it beats 1 and 2 two tasks to one
    ('optimal', 1.0)
    """
    n, n_tasks = values.shape
    modelled = np.asarray(rivals, dtype=bool).copy()
    modelled[target] = False
    active = [target, *np.flatnonzero(modelled).tolist()]
    in_active = np.zeros(n, dtype=bool)
    in_active[active] = True
    tasks = [_Task(values[:, t], target, modelled) for t in range(n_tasks)]
    m = LinearModel(backend=backend, sense="max")
    rows: list[Row] = []
    # D[a, z] for a active, z any other system (a < z when both are active): constant + columns
    margin: dict[tuple[int, int], dict[int, float]] = {}
    const: dict[tuple[int, int], float] = {}
    for a in active:
        for z in range(n):
            if z != a and not (in_active[z] and z < a):
                margin[a, z], const[a, z] = {}, 0.0

    def column(lower: float, upper: float, cost: float = 0.0, continuous: bool = False) -> int:
        m.add_columns([lower], [upper], [cost], continuous=continuous)
        return m.n_cols - 1

    def add_to(pair: tuple[int, int], terms: dict[int, float], constant: float, sign: float) -> None:
        for col, c in terms.items():
            margin[pair][col] = margin[pair].get(col, 0.0) + sign * c
        const[pair] += sign * constant

    relation_pairs: list[list[tuple[int, int, int, int]]] = []
    d_of: list[dict[int, list[int]]] = []
    for t, task in enumerate(tasks):
        w = float(weights[t])
        col_t = values[:, t]
        d: dict[int, list[int]] = {}
        for x in task.missing:  # threshold binaries d[s] = [slot >= s], s = 1..2r
            d[x] = [column(0.0, 1.0) for _ in range(2 * task.r)]
            for s in range(1, 2 * task.r):
                rows.append((-np.inf, 0.0, {d[x][s]: 1.0, d[x][s - 1]: -1.0}))
        d_of.append(d)

        def thr(x: int, s: int, dx: dict[int, list[int]] = d, r: int = task.r) -> tuple[dict[int, float], float]:
            """[slot_x >= s] as (columns, constant)."""
            if s <= 0:
                return {}, 1.0
            if s > 2 * r:
                return {}, 0.0
            return {dx[x][s - 1]: 1.0}, 0.0

        def lin(*parts: tuple[tuple[dict[int, float], float], float]) -> tuple[dict[int, float], float]:
            terms: dict[int, float] = {}
            constant = 0.0
            for (cols, c0), k in parts:
                for col, c in cols.items():
                    terms[col] = terms.get(col, 0.0) + k * c
                constant += k * c0
            return terms, constant

        boundary_index = {g: q + 1 for q, g in enumerate(task.boundary)}
        task_pairs: list[tuple[int, int, int, int]] = []
        for (a, z) in margin:
            a_miss, z_miss = np.isnan(col_t[a]), np.isnan(col_t[z])
            if not a_miss and not z_miss:
                const[a, z] += w * float(np.sign(col_t[a] - col_t[z]))
            elif a == target and a_miss:
                const[a, z] += w
            elif z == target and z_miss:
                const[a, z] -= w
            elif not a_miss:  # a scored (a boundary group), z missing: +w when z's slot >= 2q, -w when <= 2q - 2
                q = boundary_index[task.group_of[a]]
                add_to((a, z), *lin((thr(z, 2 * q), w), (thr(z, 2 * q - 1), w)), 1.0)
                const[a, z] -= w
            elif not z_miss:  # a missing (modelled), z scored
                g = task.group_of[z]
                if g in boundary_index:
                    q = boundary_index[g]
                    add_to((a, z), *lin((thr(a, 2 * q - 1), -w), (thr(a, 2 * q), -w)), 1.0)
                    const[a, z] += w
                else:  # z inside region k, above a modelled a at the bottom of that region
                    k = sum(1 for b in task.boundary if b < g)
                    add_to((a, z), *lin((thr(a, 2 * k), -2.0 * w)), 1.0)
                    const[a, z] += w
            elif in_active[z]:  # two modelled rivals missing: a weak order inside a shared region
                a_az, a_za = column(0.0, 1.0), column(0.0, 1.0)
                rows.append((-np.inf, 1.0, {a_az: 1.0, a_za: 1.0}))
                for s in range(1, 2 * task.r + 1):  # slot order forces the relation
                    rows.append((0.0, np.inf, {a_az: 1.0, d[z][s - 1]: -1.0, d[a][s - 1]: 1.0}))
                    rows.append((0.0, np.inf, {a_za: 1.0, d[a][s - 1]: -1.0, d[z][s - 1]: 1.0}))
                for q in range(1, task.r + 1):  # both tied with boundary q: tied together
                    s = 2 * q - 1
                    row = {a_az: 1.0, a_za: 1.0}
                    for y in (a, z):
                        row[d[y][s - 1]] = row.get(d[y][s - 1], 0.0) + 1.0
                        if s < 2 * task.r:
                            row[d[y][s]] = row.get(d[y][s], 0.0) - 1.0
                    rows.append((-np.inf, 2.0, row))
                add_to((a, z), {a_az: w, a_za: -w}, 0.0, 1.0)
                task_pairs.append((a, z, a_az, a_za))
            else:  # a modelled missing, z unmodelled missing: a at the bottom of a shared region
                e = column(-1.0, 1.0, continuous=True)  # +1 a ahead, 0 tied, -1 behind; at least the truth
                for s in range(1, 2 * task.r + 1):  # a's slot above z's: e = 1
                    rows.append((-1.0, np.inf, {e: 1.0, d[z][s - 1]: -2.0, d[a][s - 1]: 2.0}))
                for q in range(1, task.r + 1):  # both tied with boundary q: e >= 0
                    s = 2 * q - 1
                    row = {e: 1.0}
                    for y in (a, z):
                        row[d[y][s - 1]] = row.get(d[y][s - 1], 0.0) - 1.0
                        if s < 2 * task.r:
                            row[d[y][s]] = row.get(d[y][s], 0.0) + 1.0
                    rows.append((-2.0, np.inf, row))
                add_to((a, z), {e: w}, 0.0, 1.0)
        relation_pairs.append(task_pairs)

    # each pair's majority outcome: win (D >= u), loss (D <= -u) or tie (D = 0), in both directions
    big = float(np.abs(weights).sum()) + unit
    score: dict[int, dict[int, float]] = {k: {} for k in active}
    score_const = dict.fromkeys(active, 0.0)
    for (a, z), terms in margin.items():
        c0 = const[a, z]
        if not terms:
            outcome = 0.0 if abs(c0) < unit / 2 else float(np.sign(c0))
            score_const[a] += outcome
            if z in score:
                score_const[z] -= outcome
            continue
        win, loss = column(0.0, 1.0), column(0.0, 1.0)
        rows.append((-np.inf, 1.0, {win: 1.0, loss: 1.0}))
        rows.append((unit - big - c0, np.inf, {**terms, win: -big}))            # win => D >= u
        rows.append((-np.inf, -unit + big - c0, {**terms, loss: big}))          # loss => D <= -u
        rows.append((-np.inf, unit / 2 - c0, {**terms, win: -big}))             # no win => D <= u/2
        rows.append((-unit / 2 - c0, np.inf, {**terms, loss: big}))             # no loss => D >= -u/2
        for k, sign in ((a, 1.0), (z, -1.0)):
            if k in score:
                score[k][win] = score[k].get(win, 0.0) + sign
                score[k][loss] = score[k].get(loss, 0.0) - sign
    worst = column(-np.inf, float(cap), 1.0, continuous=True)
    for k in active[1:]:  # worst <= score(target) - score(k)
        row = {worst: 1.0}
        for col, c in score[target].items():
            row[col] = row.get(col, 0.0) - c
        for col, c in score[k].items():
            row[col] = row.get(col, 0.0) + c
        rows.append((-np.inf, score_const[target] - score_const[k], row))
    _flush(m, rows)
    m.set_integer(True)
    solves = 0
    end = None if time_limit is None else time.perf_counter() + float(time_limit)
    while True:
        solves += 1
        left = None if end is None else end - time.perf_counter()
        sol = m.solve(time_limit=left, gap_abs=1e-6, highs_options={"mip_rel_gap": 0.0})
        if sol.x is None or sol.status is not SolveStatus.OPTIMAL:
            return CompletionOutcome(sol.status, sol.objective, sol.dual_bound, None, solves)
        point = np.round(sol.x)
        cuts = _transitivity_cuts(point, relation_pairs)
        if not cuts:
            break
        _flush(m, cuts)
    objective = float(cap) if len(active) == 1 or sol.objective is None else float(np.round(sol.objective))
    completed = _completion(values, tasks, d_of, relation_pairs, point, modelled, target)
    return CompletionOutcome(SolveStatus.OPTIMAL, objective, sol.dual_bound, completed, solves)
