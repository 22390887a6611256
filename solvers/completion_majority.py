"""The best completion of missing scores for one system under Copeland or Minimax: integer programs.

The positions model of :mod:`solvers.completion_borda` (every missing cell inserted at some
position of its task's weak order, tied with a scored group or strictly between two), asked
of the majority rules. For every pair ``(a, z)`` that involves the target or a modelled rival,
the weight of the tasks where ``a`` is ahead (``ahead[a, z]``) and where ``z`` is
(``behind[a, z]``) are linear in the slot and relation variables of the Borda model; the
weighted margin is ``ahead - behind``, and each pair's majority outcome is a pair of binaries
(``a`` beats ``z``, ``z`` beats ``a``) tied to the sign of the margin in both directions,
with margins that are multiples of a unit ``u`` (the weights' common measure), so a margin
``> 0`` is ``>= u``.

- :func:`best_copeland_completion` maximizes ``min_k score(target) - score(k)`` over the
  modelled rivals (Copeland: wins minus losses).
- :func:`best_minimax_completion` maximizes ``min_k worst(k) - worst(target)`` (Minimax: a
  system's worst defeat, by ``variant``); each modelled rival picks the rival that defeats it
  (selection binaries).

The systems outside `rivals` are placed like the Borda model's unmodelled ones (above a
modelled rival inside a shared region, which only weakens the rival) and their own standing
is free, so each program is a relaxation in the target's favour, exact for the modelled
rivals: the caller runs the rule on the returned completion and adds the rivals it lets
through (constraint generation).

References
----------
.. [1] Xia and Conitzer, "Determining possible and necessary winners given partial orders",
   JAIR 41, 2011 (Copeland possible winner is NP-complete).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from .completion_borda import (
    CompletionOutcome,
    _completion,
    _flush,
    _Task,
    _transitivity_cuts,
    check_deadline,
    no_time_no_model,
    program_end,
    stopped_status,
)
from .model import LinearModel
from .status import SolveStatus

__all__ = ["best_copeland_completion", "best_minimax_completion", "minimax_position_completion"]

FloatArray = NDArray[np.float64]
Row = tuple[float, float, dict[int, float]]
Linear = tuple[dict[int, float], float]  # columns -> coefficient, constant


@dataclass
class _PairModel:
    """The model's columns and rows so far, and the linear weight of each pair's tasks won."""

    m: LinearModel
    active: list[int]
    tasks: list[_Task]
    rows: list[Row] = field(default_factory=list)
    ahead: dict[tuple[int, int], Linear] = field(default_factory=dict)
    behind: dict[tuple[int, int], Linear] = field(default_factory=dict)
    d_of: list[dict[int, list[int]]] = field(default_factory=list)
    relation_pairs: list[list[tuple[int, int, int, int]]] = field(default_factory=list)
    #: per task, each pair's ([a ahead of z], [z ahead of a]) on that task (the positional rules' counts)
    per_task: list[dict[tuple[int, int], tuple[Linear, Linear]]] = field(default_factory=list)

    @property
    def n(self) -> int:
        """Systems on the board."""
        return self.tasks[0].n if self.tasks else 0

    def column(self, lower: float, upper: float, cost: float = 0.0, continuous: bool = False) -> int:
        return self.m.add_column(lower, upper, cost, continuous=continuous)

    def margin(self, pair: tuple[int, int]) -> Linear:
        """``ahead - behind`` of `pair`."""
        return _combine((self.ahead[pair], 1.0), (self.behind[pair], -1.0))


def _combine(*parts: tuple[Linear, float]) -> Linear:
    terms: dict[int, float] = {}
    constant = 0.0
    for (cols, c0), k in parts:
        for col, c in cols.items():
            terms[col] = terms.get(col, 0.0) + k * c
        constant += k * c0
    return terms, constant


def _build(values: FloatArray, weights: FloatArray, target: int, rivals: NDArray[np.bool_], backend: str) -> _PairModel:
    """Slots, relations and each needed pair's ``ahead`` / ``behind`` weights (module notes)."""
    n, n_tasks = values.shape
    modelled = np.asarray(rivals, dtype=bool).copy()
    modelled[target] = False
    active = [target, *np.flatnonzero(modelled).tolist()]
    in_active = np.zeros(n, dtype=bool)
    in_active[active] = True
    pm = _PairModel(LinearModel(backend=backend, sense="max"), active,
                    [_Task(values[:, t], target, modelled) for t in range(n_tasks)])
    pairs = [(a, z) for a in active for z in range(n) if z != a and not (in_active[z] and z < a)]
    parts: dict[tuple[int, int], list[tuple[Linear, float]]] = {p: [] for p in pairs}
    against: dict[tuple[int, int], list[tuple[Linear, float]]] = {p: [] for p in pairs}
    one: Linear = ({}, 1.0)
    for t, task in enumerate(pm.tasks):
        check_deadline()
        w = float(weights[t])
        col_t = values[:, t]
        d: dict[int, list[int]] = {}
        for x in task.missing:  # threshold binaries d[s] = [slot >= s], s = 1..2r
            d[x] = [pm.column(0.0, 1.0) for _ in range(2 * task.r)]
            for s in range(1, 2 * task.r):
                pm.rows.append((-np.inf, 0.0, {d[x][s]: 1.0, d[x][s - 1]: -1.0}))
        pm.d_of.append(d)

        def thr(x: int, s: int, dx: dict[int, list[int]] = d, r: int = task.r) -> Linear:
            """[slot_x >= s]."""
            if s <= 0:
                return {}, 1.0
            if s > 2 * r:
                return {}, 0.0
            return {dx[x][s - 1]: 1.0}, 0.0

        boundary_index = {g: q + 1 for q, g in enumerate(task.boundary)}
        task_pairs: list[tuple[int, int, int, int]] = []
        relations: dict[tuple[int, int], tuple[Linear, Linear]] = {}
        for a, z in pairs:
            a_miss, z_miss = bool(np.isnan(col_t[a])), bool(np.isnan(col_t[z]))
            win: Linear
            loss: Linear
            if not a_miss and not z_miss:
                win, loss = ({}, float(col_t[a] > col_t[z])), ({}, float(col_t[a] < col_t[z]))
            elif a == target and a_miss:  # the target first wherever it is missing
                win, loss = one, ({}, 0.0)
            elif z == target and z_miss:
                win, loss = ({}, 0.0), one
            elif not a_miss:  # a scored (its group a boundary q), z missing: a ahead when z's slot >= 2q
                q = boundary_index[task.group_of[a]]
                win, loss = thr(z, 2 * q), _combine((one, 1.0), (thr(z, 2 * q - 1), -1.0))
            elif not z_miss:  # a missing (modelled), z scored
                g = task.group_of[z]
                if g in boundary_index:
                    q = boundary_index[g]
                    win, loss = _combine((one, 1.0), (thr(a, 2 * q - 1), -1.0)), thr(a, 2 * q)
                else:  # z inside region k, above a modelled a at the bottom of that region
                    k = sum(1 for b in task.boundary if b < g)
                    win, loss = _combine((one, 1.0), (thr(a, 2 * k), -1.0)), thr(a, 2 * k)
            elif in_active[z]:  # two modelled rivals missing: a weak order inside a shared region
                a_az, a_za = pm.column(0.0, 1.0), pm.column(0.0, 1.0)
                pm.rows.append((-np.inf, 1.0, {a_az: 1.0, a_za: 1.0}))
                for s in range(1, 2 * task.r + 1):  # slot order forces the relation
                    pm.rows.append((0.0, np.inf, {a_az: 1.0, d[z][s - 1]: -1.0, d[a][s - 1]: 1.0}))
                    pm.rows.append((0.0, np.inf, {a_za: 1.0, d[a][s - 1]: -1.0, d[z][s - 1]: 1.0}))
                for q in range(1, task.r + 1):  # both tied with boundary q: tied together
                    s = 2 * q - 1
                    row = {a_az: 1.0, a_za: 1.0}
                    for y in (a, z):
                        row[d[y][s - 1]] = row.get(d[y][s - 1], 0.0) + 1.0
                        if s < 2 * task.r:
                            row[d[y][s]] = row.get(d[y][s], 0.0) - 1.0
                    pm.rows.append((-np.inf, 2.0, row))
                win, loss = ({a_az: 1.0}, 0.0), ({a_za: 1.0}, 0.0)
                task_pairs.append((a, z, a_az, a_za))
            else:  # a modelled missing, z unmodelled missing: a at the bottom of a shared region
                # a ahead at least as the slots say, behind at most: never better for a's rivals
                up = pm.column(0.0, 1.0, continuous=True)
                down = pm.column(0.0, 1.0, continuous=True)
                pm.rows.append((-np.inf, 1.0, {up: 1.0, down: 1.0}))
                for s in range(1, 2 * task.r + 1):  # a's slot above z's: ahead
                    pm.rows.append((0.0, np.inf, {up: 1.0, d[z][s - 1]: -1.0, d[a][s - 1]: 1.0}))
                for q in range(1, task.r + 1):  # both tied with boundary q: not behind
                    s = 2 * q - 1
                    row = {down: 1.0}
                    for y in (a, z):
                        row[d[y][s - 1]] = row.get(d[y][s - 1], 0.0) + 1.0
                        if s < 2 * task.r:
                            row[d[y][s]] = row.get(d[y][s], 0.0) - 1.0
                    pm.rows.append((-np.inf, 2.0, row))
                win, loss = ({up: 1.0}, 0.0), ({down: 1.0}, 0.0)
            parts[a, z].append((win, w))
            against[a, z].append((loss, w))
            relations[a, z] = (win, loss)
        pm.relation_pairs.append(task_pairs)
        pm.per_task.append(relations)
    for pair in pairs:
        pm.ahead[pair] = _combine(*parts[pair])
        pm.behind[pair] = _combine(*against[pair])
    return pm


def _outcomes(pm: _PairModel, unit: float, big: float) -> dict[tuple[int, int], tuple[Linear, Linear]]:
    """Per modelled pair ``(a, z)``: [a beats z] and [z beats a] by weighted majority, as columns or constants."""
    out: dict[tuple[int, int], tuple[Linear, Linear]] = {}
    for i, pair in enumerate(pm.ahead):
        if i % 512 == 0:
            check_deadline()
        terms, c0 = pm.margin(pair)
        if not terms:
            out[pair] = (({}, float(c0 >= unit / 2)), ({}, float(c0 <= -unit / 2)))
            continue
        win, loss = pm.column(0.0, 1.0), pm.column(0.0, 1.0)
        pm.rows.append((-np.inf, 1.0, {win: 1.0, loss: 1.0}))
        pm.rows.append((unit - big - c0, np.inf, {**terms, win: -big}))      # win => D >= u
        pm.rows.append((-np.inf, -unit + big - c0, {**terms, loss: big}))    # loss => D <= -u
        pm.rows.append((-np.inf, unit / 2 - c0, {**terms, win: -big}))       # no win => D <= u/2
        pm.rows.append((-unit / 2 - c0, np.inf, {**terms, loss: big}))       # no loss => D >= -u/2
        out[pair] = (({win: 1.0}, 0.0), ({loss: 1.0}, 0.0))
    return out


def _row(lower: float, upper: float, *parts: tuple[Linear, float]) -> Row:
    """``lower <= sum(k * expr) <= upper``, the constants moved to the bounds."""
    terms, c0 = _combine(*parts)
    return (lower - c0, upper - c0, terms)


def _solve(pm: _PairModel, values: FloatArray, target: int, rivals: NDArray[np.bool_], cap: float,
           time_limit: float | None, rounds_gap: float, highs: dict[str, float] | None = None) -> CompletionOutcome:
    """Solve (transitivity cuts added while a solution breaks one) and read the completion. `highs`:
    more HiGHS options (e.g. tighter feasibility tolerances)."""
    check_deadline()
    _flush(pm.m, pm.rows)
    pm.m.set_integer(True)
    solves = 0
    end = program_end(time_limit)  # the build counts
    while True:
        solves += 1
        left = None if end is None else max(end - time.perf_counter(), 0.0)
        sol = pm.m.solve(time_limit=left, gap_abs=rounds_gap, highs_options={"mip_rel_gap": 0.0, **(highs or {})})
        if sol.x is None or sol.status is not SolveStatus.OPTIMAL or sol.objective is None:
            return CompletionOutcome(stopped_status(sol), sol.objective, sol.dual_bound, None, solves)
        point = np.round(sol.x)
        cuts = _transitivity_cuts(point, pm.relation_pairs)
        if not cuts:
            break
        _flush(pm.m, cuts)
    modelled = np.asarray(rivals, dtype=bool).copy()
    modelled[target] = False
    objective = float(cap) if len(pm.active) == 1 else float(sol.objective)
    completed = _completion(values, pm.tasks, pm.d_of, pm.relation_pairs, point, modelled, target)
    return CompletionOutcome(SolveStatus.OPTIMAL, objective, sol.dual_bound, completed, solves)


@no_time_no_model
def best_copeland_completion(
    values: FloatArray,
    weights: FloatArray,
    target: int,
    rivals: NDArray[np.bool_],
    unit: float,
    *,
    cap: float = 1.0,
    objective: str = "margin",
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
        ``objective``: the best ``min_k score(target) - score(k)`` over the modelled rivals,
        at most `cap` (``"count"``: the fewest modelled rivals strictly ahead); ``bound``: the
        solver's proven bound on it.

    Examples
    --------
    >>> v = np.array([[1.0, np.nan, 0.0], [0.0, 1.0, 1.0], [np.nan, 0.0, 2.0]])
    >>> out = best_copeland_completion(v, np.ones(3), 0, np.array([False, True, True]), 1.0)
    >>> out.status.value, out.objective   # 0 first on task 2: it beats 1 and 2 two tasks to one
    ('optimal', 1.0)
    """
    pm = _build(values, weights, target, rivals, backend)
    outcome = _outcomes(pm, unit, float(np.abs(weights).sum()) + unit)
    score: dict[int, list[tuple[Linear, float]]] = {k: [] for k in pm.active}
    for (a, z), (win, loss) in outcome.items():
        for k, sign in ((a, 1.0), (z, -1.0)):
            if k in score:
                score[k] += [(win, sign), (loss, -sign)]
    if objective == "count":  # ahead[k] = 1 unless score(k) - score(target) <= 0 (whole numbers); max -count
        spread = 2.0 * (values.shape[0] - 1)
        for k in pm.active[1:]:
            ahead = pm.column(0.0, 1.0, -1.0)
            pm.rows.append(_row(-np.inf, 0.0, *score[k], *((e, -s) for e, s in score[target]),
                                (({ahead: 1.0}, 0.0), -spread)))
        out = _solve(pm, values, target, rivals, 0.0, time_limit, 1e-6)
        return CompletionOutcome(out.status, None if out.objective is None else -float(np.round(out.objective)) + 0.0,
                                 None if out.bound is None else -float(out.bound), out.values, out.solves)
    worst = pm.column(-np.inf, float(cap), 1.0, continuous=True)
    for k in pm.active[1:]:  # worst <= score(target) - score(k)
        pm.rows.append(_row(-np.inf, 0.0, (({worst: 1.0}, 0.0), 1.0), *((e, -s) for e, s in score[target]),
                            *score[k]))
    out = _solve(pm, values, target, rivals, cap, time_limit, 1e-6)
    if out.objective is not None and out.values is not None:
        return CompletionOutcome(out.status, float(np.round(out.objective)), out.bound, out.values, out.solves)
    return out


def _defeat_of(pm: _PairModel, outcome: dict[tuple[int, int], tuple[Linear, Linear]], variant: str, by: int,
               of: int) -> tuple[Linear, Linear | None]:
    """The defeat of `of` by `by` (Minimax's `variant`) as a linear expression, and [by beats of]
    (winning votes: the defeat counts only then; None for the other variants)."""
    pair, flip = ((of, by), False) if (of, by) in pm.ahead else ((by, of), True)
    won = pm.behind[pair] if not flip else pm.ahead[pair]  # the weight of the tasks `by` wins
    margin = _combine((pm.margin(pair), -1.0 if not flip else 1.0))
    beats = outcome[pair][1] if not flip else outcome[pair][0]
    if variant == "margins":
        return margin, None
    if variant == "pairwise_opposition":
        return won, None
    return won, beats


def _worst_at_most(pm: _PairModel, outcome: dict[tuple[int, int], tuple[Linear, Linear]], variant: str, big: float,
                   of: int, level: Linear) -> None:
    """Rows: every defeat of `of` is at most `level` (its worst defeat is)."""
    for y in range(pm.n):
        if y == of:
            continue
        expr, beats = _defeat_of(pm, outcome, variant, y, of)
        if beats is None:
            pm.rows.append(_row(-np.inf, 0.0, (expr, 1.0), (level, -1.0)))
        else:  # counted only when y beats it: expr - big (1 - beats) <= level
            pm.rows.append(_row(-np.inf, big, (expr, 1.0), (beats, big), (level, -1.0)))


def _worst_at_least(pm: _PairModel, outcome: dict[tuple[int, int], tuple[Linear, Linear]], variant: str, big: float,
                    of: int, level: Linear, instead: tuple[int, ...] = ()) -> None:
    """Rows: some defeat of `of` is at least `level` (its worst defeat is), by selection binaries
    (winning votes: or it is unbeaten and `level` <= 0); a column of `instead` set to 1 also does."""
    picks = list(instead)
    for z in range(pm.n):
        if z == of:
            continue
        u = pm.column(0.0, 1.0)
        picks.append(u)
        expr, beats = _defeat_of(pm, outcome, variant, z, of)
        pm.rows.append(_row(-big, np.inf, (expr, 1.0), (level, -1.0), (({u: 1.0}, 0.0), -big)))  # >= level - big (1 - u)
        if beats is not None:
            pm.rows.append(_row(-np.inf, 0.0, (({u: 1.0}, 0.0), 1.0), (beats, -1.0)))  # only a defeat counts
    if variant == "winning_votes":
        u = pm.column(0.0, 1.0)
        picks.append(u)
        pm.rows.append(_row(-big, np.inf, (level, -1.0), (({u: 1.0}, 0.0), -big)))
    pm.rows.append((1.0, np.inf, dict.fromkeys(picks, 1.0)))


@no_time_no_model
def minimax_position_completion(
    values: FloatArray,
    weights: FloatArray,
    target: int,
    rivals: NDArray[np.bool_],
    unit: float,
    *,
    variant: str = "winning_votes",
    end: str = "best",
    time_limit: float | None = None,
    backend: str = "highs",
) -> CompletionOutcome:
    """The fewest modelled rivals strictly ahead of (``end="best"``) or strictly behind (``"worst"``) `target` under Minimax.

    ``"best"`` is the target-favouring model of :func:`best_minimax_completion`: a rival is not
    ahead when some defeat of it is at least the target's worst defeat. ``"worst"`` builds the
    same model on the board read the other way round (`values` negated), which places the target
    last wherever it is missing and the modelled rivals at the top of their regions, and reads
    every pair's tasks won the other way round: the model of the completions worst for the
    target. A rival is not behind when every defeat of it is at most the target's worst defeat,
    itself at most the defeat it picks (selection binaries). Minimax has no symmetry that would
    turn one end into the other (Borda's and Copeland's scores negate on the reversed board).

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN for a missing cell.
    weights : numpy.ndarray
        One weight per task, each a multiple of `unit`.
    target : int
    rivals : numpy.ndarray of bool
        The rivals modelled (one flag per system; the target's is ignored).
    unit : float
        A common measure of the weights.
    variant : {"winning_votes", "margins", "pairwise_opposition"}, default="winning_votes"
    end : {"best", "worst"}, default="best"
    time_limit : float, optional
    backend : str, default="highs"

    Returns
    -------
    CompletionOutcome
        ``objective``: the fewest modelled rivals strictly ahead (behind); ``bound``: the
        solver's proven lower bound on it; ``values``: the completion, in the orientation of
        `values`.

    Examples
    --------
    >>> v = np.array([[1.0, np.nan, 0.0], [0.0, 1.0, 1.0], [np.nan, 0.0, 2.0]])
    >>> best = minimax_position_completion(v, np.ones(3), 0, np.array([False, True, True]), 1.0)
    >>> worst = minimax_position_completion(v, np.ones(3), 0, np.array([False, True, True]), 1.0, end="worst")
    >>> best.objective, worst.objective   # 0 can be first; at worst both rivals tie or pass it
    (0.0, 0.0)
    """
    total = float(np.abs(weights).sum())
    big = 4.0 * total + 4.0 * unit
    reverse = end == "worst"
    pm = _build(-values if reverse else values, weights, target, rivals, backend)
    if reverse:  # the pairs' tasks won, read on the board itself
        pm.ahead, pm.behind = pm.behind, pm.ahead
    outcome = _outcomes(pm, unit, total + unit)
    mine = pm.column(-total, total, 0.0, continuous=True)  # the target's worst defeat
    one: Linear = ({mine: 1.0}, 0.0)
    if not reverse:  # at least each defeat of the target (the program keeps it as small as it can)
        _worst_at_most(pm, outcome, variant, big, target, one)
    else:  # at most the defeat it picks (the program makes it as large as it can)
        _worst_at_least(pm, outcome, variant, big, target, one)
    for x in pm.active[1:]:
        counted = pm.column(0.0, 1.0, -1.0)  # ahead (best) or behind (worst) of the target: minimized
        if not reverse:  # not ahead: some defeat of x at least the target's worst (or counted)
            _worst_at_least(pm, outcome, variant, big, x, one, instead=(counted,))
        else:  # not behind: every defeat of x at most the target's worst (or counted)
            _worst_at_most(pm, outcome, variant, big, x, ({mine: 1.0, counted: big}, 0.0))
    out = _solve(pm, -values if reverse else values, target, rivals, 0.0, time_limit, 1e-6)
    return CompletionOutcome(out.status, None if out.objective is None else -float(np.round(out.objective)) + 0.0,
                             None if out.bound is None else -float(out.bound),
                             None if out.values is None else (-out.values if reverse else out.values), out.solves)


@no_time_no_model
def best_minimax_completion(
    values: FloatArray,
    weights: FloatArray,
    target: int,
    rivals: NDArray[np.bool_],
    unit: float,
    *,
    variant: str = "winning_votes",
    cap: float | None = None,
    time_limit: float | None = None,
    backend: str = "highs",
) -> CompletionOutcome:
    """The completion best for `target` against the modelled `rivals` under Minimax.

    A system's worst defeat is the largest, over its rivals, of: the weight of the tasks the
    rival wins when it beats the system by majority, else 0 (``"winning_votes"``); the
    margin (``"margins"``); the weight of the tasks the rival wins (``"pairwise_opposition"``).
    The smallest worst defeat wins.

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
        A common measure of the weights.
    variant : {"winning_votes", "margins", "pairwise_opposition"}, default="winning_votes"
        The measure of a defeat, as :func:`consensus.rules.minimax`.
    cap : float, optional
        The largest margin sought; default `unit` (first alone).
    time_limit : float, optional
        Seconds for the whole search.
    backend : str, default="highs"
        The solver (:class:`~solvers.model.LinearModel`).

    Returns
    -------
    CompletionOutcome
        ``objective``: the best ``min_k worst(k) - worst(target)`` over the modelled rivals,
        at most `cap`; ``bound``: the solver's proven bound on it.

    Examples
    --------
    >>> v = np.array([[1.0, np.nan, 0.0], [0.0, 1.0, 1.0], [np.nan, 0.0, 2.0]])
    >>> out = best_minimax_completion(v, np.ones(3), 0, np.array([False, True, True]), 1.0)
    >>> out.status.value, out.objective   # 0 unbeaten: its worst defeat 0, each rival's 2
    ('optimal', 1.0)
    """
    cap = float(unit if cap is None else cap)
    total = float(np.abs(weights).sum())
    big = 2.0 * total + 2.0 * unit + abs(cap)
    pm = _build(values, weights, target, rivals, backend)
    outcome = _outcomes(pm, unit, total + unit)
    # the target's worst defeat: at least each rival's defeat of it
    mine = pm.column(0.0 if variant != "margins" else -total, total, 0.0, continuous=True)
    _worst_at_most(pm, outcome, variant, big, target, ({mine: 1.0}, 0.0))
    gap = pm.column(-np.inf, cap, 1.0, continuous=True)
    for x in pm.active[1:]:  # some rival defeats x by at least mine + gap
        _worst_at_least(pm, outcome, variant, big, x, ({mine: 1.0, gap: 1.0}, 0.0))
    out = _solve(pm, values, target, rivals, cap, time_limit, 1e-6 * max(1.0, total))
    if out.objective is not None and out.values is not None:  # the gap is a multiple of the unit
        return CompletionOutcome(out.status, float(np.round(out.objective / unit) * unit), out.bound, out.values,
                                 out.solves)
    return out
