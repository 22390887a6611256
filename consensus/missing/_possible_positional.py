"""Positional rules under missing scores: possible and necessary winners, exactly.

Plurality, Dowdall, top ten, Eurovision, rank complement, a user's scoring vector, and Borda with
``ties="min"`` / ``"max"`` (:mod:`consensus.rules.positional`) over the positions model. A
system's points on a task depend on the systems strictly ahead of it and those tied with it, so
a rival's position moves the others' points, as under Borda; deciding a possible winner is
NP-complete for most scoring vectors when the votes are partial orders (Xia and Conitzer 2011;
Betzler and Dorn 2010; plurality is polynomial there). Each system goes through the cheapest step
that settles it:

1. **The system first wherever it is missing** (raising a system on a task only moves the
   systems it passes down one position, which never earns them points), the other missing
   cells last, tied: a witness when the system ends first alone (``"greedy completion"``).
2. **Per-system bounds, exact**: on each task a system's points range over a table indexed by
   (systems ahead, systems tied), each count moving only with the task's missing cells; the
   sums of the per-task extremes bound each score. A rival whose smallest score beats the
   system's largest is ahead under every completion (``"pairwise bound"``, the rival named);
   a rival whose largest score stays below the system's smallest never ties it (skipped by the
   necessary-winner search).
3. **Integer programs with constraint generation**
   (:func:`solvers.completion_positional.best_positional_completion`): the completion best for
   the system against the rivals modelled so far, the rule run on it, a rival not modelled that
   still gets ahead added, as for Borda. Necessary winners: for each rival the bounds leave
   open, one small program with that rival favoured and the system modelled alone (exact).

Scores within the rules' relative tolerance of each other tie (:func:`tolerance`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .._docstrings import fill_doc
from ..rules.positional import position_points, scoring_vector
from ..rules.spec import SCORE_TOL
from ._docs import SECTIONS
from ._possible_borda import (
    BestPosition,
    SearchAnswer,
    _greedy,
    counted,
    deferred,
    generated,
    necessary_by_programs,
    shared,
)

if TYPE_CHECKING:
    from solvers.completion_borda import CompletionOutcome

__all__ = ["POSITIONAL_RULES", "PositionalBoard", "positional_best_position", "positional_necessary",
           "positional_search"]

#: The positional rules decided here (Borda with averaged ties has its own, linear model).
POSITIONAL_RULES = ("plurality", "dowdall", "scoring", "rank_complement", "top_ten", "eurovision", "borda")


@dataclass(frozen=True)
class PositionalBoard:
    """A board with holes under one scoring vector, and each system's score bounds over its completions.

    ``low[i]`` / ``high[i]``: the smallest and largest score system ``i`` can get (each task's
    extreme points summed: exact per system, not jointly reachable).
    """

    values: np.ndarray
    weights: np.ndarray
    points: np.ndarray
    ties: str
    low: np.ndarray
    high: np.ndarray

    @classmethod
    @fill_doc(SECTIONS)
    def of(cls, values: np.ndarray, weights: np.ndarray, rule: str, ties: str = "average",
           vector: object = None) -> PositionalBoard:
        """The board's scoring vector and bounds.

        Parameters
        ----------
        {values}
        {weights}
        rule : str
            A positional rule (:data:`POSITIONAL_RULES`).
        ties : {{"average", "min", "max"}}, default="average"
            The rule's points of tied systems.
        vector : sequence of float, optional
            ``"scoring"``: the points of positions 1, 2, ...

        Returns
        -------
        PositionalBoard
        """
        return cls.with_points(values, weights, scoring_vector(rule, values.shape[0], vector), ties)  # type: ignore[arg-type]

    @classmethod
    def with_points(cls, values: np.ndarray, weights: np.ndarray, points: np.ndarray, ties: str = "average"
                    ) -> PositionalBoard:
        """The board under the scoring vector `points` (positions 1..n, non-increasing).

        Parameters
        ----------
        values : numpy.ndarray
        weights : numpy.ndarray
        points : numpy.ndarray
        ties : {"average", "min", "max"}, default="average"

        Returns
        -------
        PositionalBoard
        """
        n = values.shape[0]
        low, high = np.zeros(n), np.zeros(n)
        for t in range(values.shape[1]):
            lo, hi = _task_extremes(values[:, t], points, ties)
            low += weights[t] * lo
            high += weights[t] * hi
        return cls(values, weights, points, ties, low, high)

    def scores(self, completed: np.ndarray) -> np.ndarray:
        """The rule's scores of a complete oriented board (systems x tasks, no NaN).

        Parameters
        ----------
        completed : numpy.ndarray

        Returns
        -------
        numpy.ndarray
        """
        return position_points(self.points, completed, self.ties) @ self.weights

    @property
    def tol(self) -> float:
        """Scores within it tie: the rules' relative tolerance at the largest possible score."""
        return tolerance(self.weights, self.points)

    def reversed(self) -> PositionalBoard:
        """The board with every task read the other way round and the vector ``-points[::-1]``
        (``"min"`` and ``"max"`` ties swapped): every score negated, so its best positions are this
        board's worst.

        Returns
        -------
        PositionalBoard
        """
        swap = {"min": "max", "max": "min"}.get(self.ties, self.ties)
        return PositionalBoard.with_points(-self.values, self.weights, -self.points[::-1], swap)

    def solve(self, target: int, rivals: np.ndarray, time_limit: float | None, cap: float | None = None
              ) -> CompletionOutcome:
        """The integer program best for `target` against `rivals`.

        Parameters
        ----------
        target : int
        rivals : numpy.ndarray of bool
        time_limit : float or None
        cap : float, optional
            The largest margin sought; by default half of the top position's points on the lightest task.

        Returns
        -------
        solvers.completion_borda.CompletionOutcome
        """
        from solvers.completion_positional import best_positional_completion

        if cap is None:  # half of the top position's points on the lightest task, as Borda's program: a
            # margin at the problem's own scale (a cap near the solver's tolerances misled HiGHS's presolve)
            positive = self.weights[self.weights > 0]
            lightest = float(positive.min()) if positive.size else 1.0
            cap = max(4.0 * self.tol, lightest * float(np.abs(self.points).max(initial=1.0)) / 2.0)
        return best_positional_completion(self.values, self.weights, target, rivals, self.points, self.ties,
                                          cap=cap, time_limit=time_limit)


def tolerance(weights: np.ndarray, points: np.ndarray) -> float:
    """How far apart two scores may be and still tie: the rules' relative tolerance at the largest
    possible score (every weight times the best position's points).

    Parameters
    ----------
    weights : numpy.ndarray
    points : numpy.ndarray

    Returns
    -------
    float
    """
    return SCORE_TOL * max(1.0, float(np.abs(weights).sum()) * float(np.abs(points).max(initial=0.0)))


def _task_extremes(column: np.ndarray, points: np.ndarray, ties: str) -> tuple[np.ndarray, np.ndarray]:
    """Per system, its fewest and most points on one task over every completion of the task.

    A system's points depend on (a, c): the systems strictly ahead, and those tied with it, itself
    included. A place (A, g, free) reaches (A + j, g + k) for every j + k <= free: the `free` other
    missing cells each go ahead, into the tie or behind. Every scored group is one place (its
    systems share the answer); a missing system can be tied with any group or alone in any gap,
    the other m - 1 missing cells free. The points of every (a, c) are one table, each place a
    triangle of it (vectorized: 350 systems x 12 tasks with a third missing in well under a second).
    """
    n = len(column)
    holes = np.isnan(column)
    m = int(holes.sum())
    a = np.arange(n)[:, None]
    c = np.arange(n + 1)[None, :]
    valid = (c >= 1) & (a + c <= n)
    cum = np.concatenate(([0.0], np.cumsum(points)))
    last = np.clip(a + c - 1, 0, n - 1)
    if ties == "min":
        table = np.broadcast_to(points[:, None], (n, n + 1)).astype(np.float64)
    elif ties == "max":
        table = points[last]
    else:
        table = (cum[np.clip(a + c, 0, n)] - cum[a]) / np.maximum(c, 1)
    table = np.where(valid, table, np.nan)
    tri = np.add.outer(np.arange(m + 1), np.arange(m + 1))  # j + k

    def extremes(places: list[tuple[int, int, int]]) -> tuple[float, float]:
        """Over places (scored ahead, group size, other missing cells free): every (a, c) reachable."""
        low, high = np.inf, -np.inf
        for first, size, free in places:
            block = table[first : first + free + 1, size : size + free + 1]
            reach = block[tri[: block.shape[0], : block.shape[1]] <= free]
            reach = reach[~np.isnan(reach)]
            if reach.size:
                low, high = min(low, float(reach.min())), max(high, float(reach.max()))
        return low, high

    scored = np.sort(column[~holes])[::-1]
    levels, sizes = np.unique(-scored, return_counts=True)  # the scored groups, best first
    above = np.concatenate(([0], np.cumsum(sizes)))  # scored systems ahead of group j (and of gap j)
    lo, hi = np.zeros(n), np.zeros(n)
    if m:
        anywhere = [(int(above[j]), int(sizes[j]) + 1, m - 1) for j in range(len(sizes))]  # tied with group j
        anywhere += [(int(above[j]), 1, m - 1) for j in range(len(sizes) + 1)]  # alone (or with missing ones) in gap j
        lo[holes], hi[holes] = extremes(anywhere)
    group = np.searchsorted(levels, -column[~holes])
    per_group = [extremes([(int(above[j]), int(sizes[j]), m)]) for j in range(len(sizes))]
    lo[~holes] = [per_group[j][0] for j in group]
    hi[~holes] = [per_group[j][1] for j in group]
    return lo, hi


@fill_doc(SECTIONS)
def positional_search(board: PositionalBoard, target: int, time_limit: float | None, defer: bool = False) -> SearchAnswer:
    """Whether `target` is first (alone) under some completion of the board (module notes).

    Parameters
    ----------
    {board}
    {target}
    {time_limit}
    {defer}

    Returns
    -------
    {search_answer}
    """
    always = tuple(int(k) for k in np.flatnonzero(board.low > board.high[target] + board.tol) if k != target)
    if always:
        return SearchAnswer(False, False, None, always, "pairwise bound", 0)
    completion = _greedy(board.values, target)
    scores = board.scores(completion)
    if (scores[target] - np.delete(scores, target) > board.tol).all():
        return SearchAnswer(True, True, completion, (), "greedy completion", 0)

    def programs(limit: float | None) -> SearchAnswer:
        left = shared(limit)
        return generated(target, scores, board.tol, lambda modelled: board.solve(target, modelled, left()), board.scores)

    return deferred(programs) if defer else programs(time_limit)


@fill_doc(SECTIONS)
def positional_necessary(board: PositionalBoard, target: int, time_limit: float | None
                         ) -> tuple[bool | None, bool | None, int]:
    """Whether `target` is first (alone) under every completion of the board.

    Parameters
    ----------
    {board}
    {target}
    {time_limit}

    Returns
    -------
    necessary, necessary_strict : bool or None
        None when a program stopped at its time limit before the answer was known.
    programs : int
        Integer programs solved.
    """
    left = shared(time_limit)  # the system's programs share its time limit
    return necessary_by_programs(
        target, len(board.values), board.tol, lambda k: bool(board.high[k] >= board.low[target] - board.tol),
        lambda k, only: board.solve(k, only, left(), cap=float(board.high[k] - board.low[target]) + 1.0),
        board.scores, "positional")


@fill_doc(SECTIONS)
def positional_best_position(board: PositionalBoard, target: int, time_limit: float | None) -> BestPosition:
    """1 + the fewest rivals strictly ahead of `target` over every completion (its best position).

    As for Borda and Copeland: the rivals whose smallest score beats the target's largest are ahead
    under every completion (counted); the greedy completion gives a position a completion reaches;
    when the two differ, integer programs minimize the rivals ahead among those that can be on
    either side (``objective="count"``), adding the rivals a solution lets through. The worst
    position is the best one on :meth:`PositionalBoard.reversed`.

    Parameters
    ----------
    {board}
    {target}
    {time_limit}

    Returns
    -------
    BestPosition
    """
    from solvers.completion_positional import best_positional_completion

    n = len(board.values)
    others = np.arange(n) != target
    ahead_always = others & (board.low > board.high[target] + board.tol)
    always = int(ahead_always.sum())
    unsure = others & ~ahead_always & (board.high > board.low[target] + board.tol)
    left = shared(time_limit)  # the system's programs share its time limit
    return counted(
        target, [(_greedy(board.values, target), "greedy completion")], always, unsure, board.tol,
        lambda modelled: best_positional_completion(board.values, board.weights, target, modelled, board.points,
                                                    board.ties, objective="count", time_limit=left()),
        board.scores,
    )
