"""Copeland and Minimax under missing scores: possible and necessary winners, exactly.

Copeland (wins minus losses by weighted majority, :func:`consensus.rules.copeland`) and
Minimax (the smallest worst defeat, :func:`consensus.rules.minimax`, each variant) over the
positions model. Deciding a possible Copeland winner is NP-complete (Xia and Conitzer 2011),
so each system goes through the cheapest step that settles it:

1. **The system first wherever it is missing.** Raising a system on a task only changes its
   own comparisons, in its favour, so that completion loses nothing (for possible winners; for
   a rival asking whether it can pass the system, the system goes last).
2. **Pairwise bounds, exact arithmetic.** Each pair's weighted margin ranges over
   ``F +- W`` (``F`` the margin on the tasks both are scored on, ``W`` the weight of the tasks
   where one of them is missing), and the weight of the tasks one of them wins over ``A`` to
   ``A + W``; so every pair's best and worst outcome, and every defeat's smallest and largest
   size, are known. Copeland: a system is impossible when one rival's worst score beats its
   best, or a set of rivals' worst results against the systems outside the set (their games
   among themselves add up to 0) beat the set's size times its best. Minimax: when one
   rival's largest possible worst defeat stays below the system's smallest. The same bounds
   skip the rivals that can never catch a system (necessary winners).
3. **A greedy completion** (every other missing cell last, tied), then for Copeland a local
   search from it (one rival's missing cell moved at a time, to where it most lowers the
   largest lead of a rival): a witness when the system ends first alone (``"greedy
   completion"``, ``"local search"``).
4. **Integer programs with constraint generation**
   (:mod:`solvers.completion_majority`): the completion best for the system against the rivals
   modelled so far, checked by computing every score on it; a rival not modelled that gets
   ahead is added and the program solved again. For the necessary winners, one small program
   per rival the bounds leave open (the rival first, the system modelled alone: exact).

Margins are compared in units of the weights' common measure (``u``: 1 for unit weights, the
greatest common divisor of rational weights), so a margin is either 0 or at least ``u``; with
weights that have no common measure (up to 1e-9 relative, denominators up to 10^6) the
integer programs are not run and such systems stay undecided (``decided_by`` says why).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import reduce
from math import gcd
from typing import Any

import numpy as np

from .._docstrings import fill_doc
from ._docs import SECTIONS
from ._possible_borda import (
    BestPosition,
    SearchAnswer,
    counted,
    generated,
    necessary_by_programs,
)

__all__ = ["MajorityBoard", "copeland_best_position", "majority_necessary", "majority_search", "minimax_position",
           "weight_unit"]


#: The integer programs count weights in units: at most this many units per weight, so that
#: the solver's tolerances (about 1e-7) separate a margin of one unit from a tie.
MAX_UNITS = 10_000


def weight_unit(weights: np.ndarray) -> float | None:
    """The largest ``u`` of which every weight is a whole multiple (at most :data:`MAX_UNITS` of them).

    Parameters
    ----------
    weights : numpy.ndarray
        One nonnegative weight per task.

    Returns
    -------
    float or None
        None when the weights have no such common measure (e.g. ``sqrt(2)`` and 1, or weights
        with many decimals): the integer programs are then not run.

    Examples
    --------
    >>> weight_unit(np.array([1.0, 2.0, 0.5])), weight_unit(np.array([0.2718281828, 0.3141592653]))
    (0.5, None)
    """
    fracs = [Fraction(float(w)).limit_denominator(10**6) for w in weights]
    if any(abs(float(f) - float(w)) > 1e-9 * max(1.0, abs(float(w))) for f, w in zip(fracs, weights)):
        return None
    den = reduce(lambda a, b: a * b // gcd(a, b), (f.denominator for f in fracs), 1)
    num = reduce(gcd, (int(f * den) for f in fracs), 0)
    if not num:
        return None
    unit = Fraction(num, den)
    if max(fracs) / unit > MAX_UNITS:
        return None
    return float(unit)


def _margins(values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Margins on the tasks both systems are scored on, and the weight of the others, per pair."""
    v = values
    both = ~np.isnan(v[:, None, :]) & ~np.isnan(v[None, :, :])
    with np.errstate(invalid="ignore"):
        sign = np.where(both, np.sign(v[:, None, :] - v[None, :, :]), 0.0)
    fixed = sign @ weights
    free = (~both).astype(np.float64) @ weights
    return fixed, free


def _outcome(margin: np.ndarray, unit: float) -> np.ndarray:
    return np.where(np.abs(margin) < unit / 2, 0.0, np.sign(margin))


def _wins(values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pair: the weight of the tasks both are scored on that the first wins, their margin, and
    the weight of the other tasks (one of the two missing)."""
    v = values
    both = ~np.isnan(v[:, None, :]) & ~np.isnan(v[None, :, :])
    with np.errstate(invalid="ignore"):
        ahead = np.where(both, v[:, None, :] > v[None, :, :], False).astype(np.float64) @ weights
    fixed, free = _margins(values, weights)
    return ahead, fixed, free


@dataclass(frozen=True)
class MajorityBoard:
    """A board with holes under Copeland or Minimax, and the pairwise bounds of its completions.

    ``low`` / ``high``: Copeland, each pair's worst and best majority outcome (+1, 0, -1) for the
    row system; Minimax, the smallest and largest defeat of the column system by the row system
    (``variant``). ``step``: margins below half of it are ties (``unit`` when there is one).
    """

    values: np.ndarray
    weights: np.ndarray
    rule: str
    variant: str
    unit: float | None
    step: float
    low: np.ndarray
    high: np.ndarray

    @classmethod
    @fill_doc(SECTIONS)
    def of(cls, values: np.ndarray, weights: np.ndarray, rule: str, variant: str = "winning_votes") -> MajorityBoard:
        """The board's bounds (module notes, step 2).

        Parameters
        ----------
        {values}
        {weights}
        rule : {"copeland", "minimax"}
            The rule.
        variant : str, default="winning_votes"
            Minimax's measure of a defeat.

        Returns
        -------
        MajorityBoard
        """
        unit = weight_unit(weights)
        step = unit if unit is not None else 1e-9 * max(1.0, float(weights.sum()))
        ahead, fixed, free = _wins(values, weights)
        if rule == "copeland":
            low, high = _outcome(fixed - free, step), _outcome(fixed + free, step)
        elif variant == "margins":
            low, high = fixed - free, fixed + free
        elif variant == "pairwise_opposition":
            low, high = ahead, ahead + free
        else:  # winning votes: the tasks won, when the majority is won; else 0
            low = np.where(fixed - free >= step / 2, ahead, 0.0)
            high = np.where(fixed + free >= step / 2, ahead + free, 0.0)
        np.fill_diagonal(low, 0.0)
        np.fill_diagonal(high, 0.0)
        return cls(values, weights, rule, variant, unit, step, low, high)

    def scores(self, completed: np.ndarray) -> np.ndarray:
        """The rule's scores (higher is better) of a complete oriented board.

        Parameters
        ----------
        completed : numpy.ndarray
            Oriented scores, systems x tasks, no NaN.

        Returns
        -------
        numpy.ndarray
            Copeland: wins minus losses; Minimax: minus the worst defeat.
        """
        ahead, fixed, _ = _wins(completed, self.weights)
        if self.rule == "copeland":
            out = _outcome(fixed, self.step)
            np.fill_diagonal(out, 0.0)
            return out.sum(axis=1)
        if self.variant == "margins":
            against = fixed.copy()
        elif self.variant == "pairwise_opposition":
            against = ahead.copy()
        else:
            against = np.where(fixed >= self.step / 2, ahead, 0.0)
        np.fill_diagonal(against, -np.inf)
        worst = against.max(axis=0) if len(against) > 1 else np.zeros(len(against))
        return -np.where(np.isfinite(worst), worst, 0.0)

    def solve(self, target: int, rivals: np.ndarray, time_limit: float | None) -> Any:
        """The integer program best for `target` against `rivals` (first alone capped).

        Parameters
        ----------
        target : int
            The system favoured.
        rivals : numpy.ndarray of bool
            The rivals modelled.
        time_limit : float or None
            Seconds.

        Returns
        -------
        solvers.completion_borda.CompletionOutcome
        """
        from solvers.completion_majority import (
            best_copeland_completion,
            best_minimax_completion,
        )

        if self.unit is None:
            raise ValueError("integer programs need weights with a common measure")
        units = np.round(self.weights / self.unit)  # whole numbers: margins of one unit stand clear of ties
        if self.rule == "copeland":
            return best_copeland_completion(self.values, units, target, rivals, 1.0, cap=1.0, time_limit=time_limit)
        out = best_minimax_completion(self.values, units, target, rivals, 1.0, variant=self.variant,
                                      time_limit=time_limit)
        return replace(out, objective=None if out.objective is None else out.objective * self.unit,
                       bound=None if out.bound is None else out.bound * self.unit)

    @property
    def tol(self) -> float:
        """Score differences within it tie (scores move in whole units)."""
        return 0.5 if self.rule == "copeland" else self.step / 2


def _greedy(values: np.ndarray, target: int) -> np.ndarray:
    """The target first on every task it misses, every other missing cell last, tied."""
    out = values.copy()
    for t in range(values.shape[1]):
        col = values[:, t]
        scored = col[~np.isnan(col)]
        high, low = (scored.max() + 1.0, scored.min() - 1.0) if scored.size else (1.0, -1.0)
        holes = np.isnan(col)
        if holes[target]:
            out[target, t] = high
        holes[target] = False
        out[holes, t] = low
    return out


def _improve(values: np.ndarray, weights: np.ndarray, unit: float, target: int, start: np.ndarray,
             sweeps: int = 30) -> np.ndarray:
    """Local search from the completion `start`: move one rival's missing cell at a time.

    Each move puts one missing cell (not the target's) at the position, among its task's scored
    values, the gaps between them and both ends, that most lowers the largest lead of a rival
    over the target (then the number of rivals with that lead); margins are updated for the one
    system whose cell moved. Stops when the target leads every rival, when a sweep over the
    cells improves nothing, or after `sweeps` sweeps.
    """
    out_values = start.copy()
    holes = np.isnan(values)
    holes[target] = False
    cells = list(zip(*(a.tolist() for a in np.nonzero(holes))))
    margin = np.sign(out_values[:, None, :] - out_values[None, :, :]) @ weights
    outcome = _outcome(margin, unit)
    np.fill_diagonal(outcome, 0.0)
    score = outcome.sum(axis=1)
    keep = np.arange(len(score)) != target

    def worst_lead(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lead = scores[..., keep] - scores[..., [target]]
        top = lead.max(axis=-1)
        return top, (lead == top[..., None]).sum(axis=-1)

    lead, count = (float(x) for x in worst_lead(score))
    places = {}
    for t in range(values.shape[1]):
        scored = np.unique(values[~np.isnan(values[:, t]), t])
        places[t] = np.unique(np.concatenate([scored, (scored[1:] + scored[:-1]) / 2, [scored[0] - 1.0, scored[-1] + 1.0]]))
    for _ in range(sweeps):
        improved = False
        for y, t in cells:
            column = out_values[:, t]
            change = weights[t] * (np.sign(places[t][:, None] - column[None, :]) - np.sign(column[y] - column)[None, :])
            change[:, y] = 0.0
            row = margin[y][None, :] + change
            new = _outcome(row, unit)
            new[:, y] = 0.0
            gained = new - outcome[y][None, :]
            scores = score[None, :] - gained
            scores[:, y] = score[y] + gained.sum(axis=1)
            tops, counts = worst_lead(scores)
            pick = int(np.lexsort((counts, tops))[0])
            if (tops[pick], counts[pick]) < (lead, count):
                out_values[y, t] = places[t][pick]
                margin[y], margin[:, y] = row[pick], -row[pick]
                outcome[y], outcome[:, y] = new[pick], -new[pick]
                score = scores[pick].copy()
                lead, count = float(tops[pick]), float(counts[pick])
                improved = True
                if lead < 0:
                    return out_values
        if not improved:
            break
    return out_values


@fill_doc(SECTIONS)
def majority_search(board: MajorityBoard, target: int, time_limit: float | None) -> SearchAnswer:
    """Whether `target` is first (alone) under some completion of the board (module notes).

    Parameters
    ----------
    {board}
    {target}
    {time_limit}

    Returns
    -------
    {search_answer}
    """
    values, weights = board.values, board.weights
    if board.rule == "copeland":
        top = board.high[target].sum()  # the target's best score: every pair at its best at once (step 1)
        low = board.low.sum(axis=1)  # each rival's worst score
        always = tuple(int(k) for k in np.flatnonzero(low > top) if k != target)
        if always:
            return SearchAnswer(False, False, None, always, "pairwise bound", 0)
        # the rivals with the best worst scores, as a set: their games among themselves sum to 0,
        # so their scores sum to at least their worst outcomes against the systems outside
        order = [int(k) for k in np.argsort(-low, kind="stable") if k != target]
        inside = 0.0
        for size in range(1, len(order) + 1):
            k = order[size - 1]
            inside += board.low[k, order[:size - 1]].sum() + board.low[order[:size - 1], k].sum()
            if size >= 2 and low[order[:size]].sum() - inside > size * top:
                return SearchAnswer(False, False, None, tuple(order[:size]), "set bound", 0)
    else:
        least = board.low[:, target].max()  # the target's worst defeat is at least this
        most = np.where(np.eye(len(values), dtype=bool), -np.inf, board.high).max(axis=0)  # each rival's at most
        always = tuple(int(k) for k in np.flatnonzero(most < least - board.tol) if k != target)
        if always:
            return SearchAnswer(False, False, None, always, "pairwise bound", 0)
    completion = _greedy(values, target)
    attempts = 2 if board.rule == "copeland" else 1
    for attempt in range(attempts):  # the greedy completion, then (Copeland) a local search from it
        scores = board.scores(completion)
        if (scores[target] - np.delete(scores, target) > board.tol).all():
            return SearchAnswer(True, True, completion, (), ("greedy completion", "local search")[attempt], 0)
        if attempt + 1 < attempts:
            completion = _improve(values, weights, board.step, target, completion)
    if board.unit is None:
        return SearchAnswer(None, None, None, (), "weights without a common measure", 0)
    return generated(target, scores, board.tol, lambda modelled: board.solve(target, modelled, time_limit), board.scores)


@fill_doc(SECTIONS)
def copeland_best_position(board: MajorityBoard, target: int, time_limit: float | None) -> BestPosition:
    """1 + the fewest rivals strictly ahead of `target` under Copeland over every completion.

    As :func:`~consensus.missing._possible_borda.best_position` does for Borda: the rivals
    whose worst score beats the target's best are ahead under every completion (counted); the
    greedy completion and the local search from it give a position some completion reaches;
    when the two differ, integer programs minimize the number of rivals ahead among those that
    can be on either side (:func:`solvers.completion_majority.best_copeland_completion`,
    ``objective="count"``), adding the rivals a solution lets through (constraint generation:
    a program that models fewer rivals only relaxes the count, so its bound stays a bound).

    Parameters
    ----------
    {board}
    {target}
    {time_limit}

    Returns
    -------
    BestPosition
    """
    from solvers.completion_majority import best_copeland_completion

    values, weights = board.values, board.weights
    n = len(values)
    others = np.arange(n) != target
    top, low, high = board.high[target].sum(), board.low.sum(axis=1), board.high.sum(axis=1)
    bottom = board.low[target].sum()
    always = int((others & (low > top + board.tol)).sum())
    unsure = others & ~(low > top + board.tol) & (high > bottom + board.tol)
    greedy = _greedy(values, target)
    tried = [(greedy, "greedy completion"), (_improve(values, weights, board.step, target, greedy), "local search")]
    units = None if board.unit is None else np.round(weights / board.unit)
    return counted(
        target, tried, always, unsure, board.tol,
        None if units is None else
        lambda modelled: best_copeland_completion(values, units, target, modelled, 1.0, objective="count",
                                                  time_limit=time_limit),
        board.scores, "weights without a common measure",
    )


@fill_doc(SECTIONS)
def minimax_position(board: MajorityBoard, target: int, time_limit: float | None, end: str = "best") -> BestPosition:
    """Minimax: 1 + the fewest rivals strictly ahead of `target` (``end="best"``: its best position),
    or strictly behind it (``"worst"``: its worst position is ``n + 1`` minus that).

    Each system's worst defeat ranges between its smallest and largest possible value (the pairwise
    bounds of step 2), which count the rivals ahead (behind) under every completion and those that
    can be either side; the greedy completion (the target first, or for the worst end last, wherever
    it is missing) gives a count some completion reaches; when the two differ, integer programs
    (:func:`solvers.completion_majority.minimax_position_completion`) minimize the count among the
    rivals that can be either side, adding those a solution lets through (:func:`counted`).

    Parameters
    ----------
    {board}
    {target}
    {time_limit}
    end : {{"best", "worst"}}, default="best"

    Returns
    -------
    BestPosition
        ``"worst"``: ``found`` and ``lower`` count the rivals behind (the position is ``n + 1 -
        found``); the witness is a completion of the board.
    """
    from solvers.completion_majority import minimax_position_completion

    values, weights = board.values, board.weights
    n = len(values)
    off = ~np.eye(n, dtype=bool)
    low = np.where(off, board.low, -np.inf).max(axis=0)  # each system's smallest possible worst defeat
    high = np.where(off, board.high, -np.inf).max(axis=0)
    low, high = np.where(np.isfinite(low), low, 0.0), np.where(np.isfinite(high), high, 0.0)
    others = np.arange(n) != target
    sign = 1.0 if end == "best" else -1.0  # "ahead" in the scores given to counted: behind for the worst end
    if end == "best":
        surely = others & (high < low[target] - board.tol)
        unsure = others & ~surely & (low < high[target] - board.tol)
        witness = _greedy(values, target)
    else:
        surely = others & (low > high[target] + board.tol)
        unsure = others & ~surely & (high > low[target] + board.tol)
        witness = -_greedy(-values, target)  # the target last wherever it is missing, the others first

    def rescore(completed: np.ndarray) -> np.ndarray:
        return sign * board.scores(completed)

    units = None if board.unit is None else np.round(weights / board.unit)
    return counted(
        target, [(witness, "greedy completion")], int(surely.sum()), unsure, board.tol,
        None if units is None else
        lambda modelled: minimax_position_completion(values, units, target, modelled, 1.0, variant=board.variant,
                                                     end=end, time_limit=time_limit),
        rescore, "weights without a common measure",
    )


@fill_doc(SECTIONS)
def majority_necessary(board: MajorityBoard, target: int, time_limit: float | None
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
    n = len(board.values)

    def reaches(k: int) -> bool:
        if board.rule == "copeland":  # the most k can gain on the target (their own pair counted for both)
            return bool(board.high[k].sum() - board.low[target].sum() >= 0)
        others = np.arange(n) != k  # k's smallest worst defeat against the target's largest
        mine = np.arange(n) != target
        return bool(board.low[others, k].max(initial=-np.inf) <= board.high[mine, target].max(initial=-np.inf) + board.tol)

    if board.unit is None and any(reaches(k) for k in range(n) if k != target):
        return None, None, 0
    return necessary_by_programs(target, n, board.tol, reaches, lambda k, only: board.solve(k, only, time_limit),
                                 board.scores, board.rule)
