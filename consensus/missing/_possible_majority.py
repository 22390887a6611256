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
3. **A greedy completion** (every other missing cell last, tied): a witness when the system
   ends first alone (``"greedy completion"``).
4. **Copeland: each rival's least lead, jointly** (:func:`rival_leads`): a rival ahead under
   every completion proves the system impossible (``"rival bound"``, recounted by
   :func:`lead_checked`); one never behind rules out first alone. Then **an annealing search**
   from the greedy completion (:func:`_anneal`): a witness when the system ends first
   (``"local search"``).
5. **Integer programs with constraint generation**
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

import itertools
from collections.abc import Callable
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
    deferred,
    generated,
    necessary_by_programs,
    shared,
)

__all__ = ["MajorityBoard", "copeland_best_position", "lead_checked", "majority_necessary", "majority_search",
           "minimax_position", "rival_leads", "weight_unit"]


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


def _copeland_moved(margin: np.ndarray, outcome: np.ndarray, score: np.ndarray, column: np.ndarray, x: int,
                    values: np.ndarray, weight: float, step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Copeland with system `x`'s cell on one task (its scores `column`) moved to each of `values`:
    per value, ``x``'s new margins and outcomes against every system and every system's new score.
    Only ``x``'s pairs change, so this costs ``O(n)`` a value (the local search and
    :meth:`MajorityBoard.mover` share it; the annealing has it inline for one value)."""
    shift = weight * (np.sign(values[:, None] - column[None, :]) - np.sign(column[x] - column)[None, :])
    shift[:, x] = 0.0
    row = margin[x][None, :] + shift
    new = _outcome(row, step)
    new[:, x] = 0.0
    gained = new - outcome[x][None, :]
    scores = score[None, :] - gained
    scores[:, x] = score[x] + gained.sum(axis=1)
    return row, new, scores


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

    def mover(self, complete: np.ndarray) -> Callable[[int, int, np.ndarray], np.ndarray]:
        """The rule's scores of `complete` with one cell moved, each of several ways, in ``O(n)`` a way.

        Moving system ``x``'s cell on task ``t`` changes only ``x``'s pairs: its row of margins and
        of tasks won shifts by the task's weight where the order with each system changes, so the
        Copeland scores change by ``x``'s new outcomes, and each Minimax worst defeat is the larger
        of the old one without ``x``'s row (computed once per cell) and ``x``'s new defeat of it.
        Equal to :meth:`scores` on the moved board (a property test checks it).

        Parameters
        ----------
        complete : numpy.ndarray
            A complete oriented board (systems x tasks, no NaN).

        Returns
        -------
        callable
            ``moved(x, t, values)``: the scores (one row per value of `values`, one column per
            system) with ``complete[x, t]`` set to each value.
        """
        w, step = self.weights, self.step
        sign = np.sign(complete[:, None, :] - complete[None, :, :])
        margin = sign @ w
        ahead = (sign > 0).astype(np.float64) @ w
        if self.rule == "copeland":
            outcome = _outcome(margin, step)
            np.fill_diagonal(outcome, 0.0)
            score = outcome.sum(axis=1)
        else:
            against = (margin if self.variant == "margins" else ahead if self.variant == "pairwise_opposition"
                       else np.where(margin >= step / 2, ahead, 0.0)).copy()
            np.fill_diagonal(against, -np.inf)

        def moved(x: int, t: int, values: np.ndarray) -> np.ndarray:
            col, old = complete[:, t], complete[x, t]
            if self.rule == "copeland":
                return _copeland_moved(margin, outcome, score, col, x, values, w[t], step)[2]
            shift = w[t] * (np.sign(values[:, None] - col[None, :]) - np.sign(old - col)[None, :])
            shift[:, x] = 0.0
            row = margin[x][None, :] + shift  # x's margin over each system
            won = ahead[x][None, :] + w[t] * ((values[:, None] > col[None, :]).astype(np.float64)
                                              - (old > col)[None, :])
            lost = ahead[:, x][None, :] + w[t] * ((values[:, None] < col[None, :]).astype(np.float64)
                                               - (old < col)[None, :])
            if self.variant == "margins":
                by_x, of_x = row, -row  # x's defeat of each system, and each system's of x
            elif self.variant == "pairwise_opposition":
                by_x, of_x = won, lost
            else:
                by_x, of_x = np.where(row >= step / 2, won, 0.0), np.where(-row >= step / 2, lost, 0.0)
            rest = against.copy()
            rest[x] = -np.inf
            worst = np.maximum(rest.max(axis=0)[None, :], by_x)
            of_x[:, x] = -np.inf
            worst[:, x] = of_x.max(axis=1) if len(col) > 1 else -np.inf
            return -np.where(np.isfinite(worst), worst, 0.0)

        return moved

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
            row, new, scores = _copeland_moved(margin, outcome, score, column, y, places[t], weights[t], unit)
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


#: Up to this many of a system's missing cells on tasks the target is scored on, every choice of
#: them is tried (3 ** this many); beyond it, a lower bound (:func:`rival_leads`).
EXACT_CELLS = 6

TOP, TIED, BELOW = 0, 1, 2  # a cell above everything, tied with the target's score, just below it


def _combos(count: int) -> np.ndarray:
    """Every choice of `count` cells, each ``TOP``, ``TIED`` or ``BELOW`` (past
    :data:`EXACT_CELLS`: only all at the top, the bound's first part)."""
    if count > EXACT_CELLS:
        return np.full((1, count), TOP)
    return np.array(list(itertools.product((TOP, TIED, BELOW), repeat=count)), dtype=np.int64).reshape(3**count, count)


@fill_doc(SECTIONS)
def rival_leads(values: np.ndarray, units: np.ndarray, target: int) -> np.ndarray:
    """Copeland: each rival's smallest lead over `target` (score minus score) over every completion.

    The rival ``k`` and the target alone, every other system free: the lead ``C_k - C_target``
    is smallest with the target first and ``k`` last wherever they are missing (each pair's
    outcome only moves in the target's favour). What is left is a sum over the other systems
    ``l``, each term depending on ``l``'s own missing cells only (its pairs with ``k`` and with
    the target): ``l`` should beat ``k`` but not the target, so each of its cells on a task the
    target is scored on goes above everything, ties the target or goes just below it (any other
    place is no better on both counts), and where the target is missing just below it. Every
    such choice is tried per system, so the value is exact (it is the least lead), unless a
    system has more than :data:`EXACT_CELLS` such cells: its term is then bounded by its two
    parts apart (a lower bound; the value stays a bound). This is the pairwise bound of
    :func:`majority_search` (step 2) made joint: there, ``k`` and the target take their worst
    outcomes against each ``l`` separately, as if ``l`` could beat ``k`` and lose to the target
    at once on the same cells.

    Parameters
    ----------
    {values}
    units : numpy.ndarray
        Task weights as whole numbers (the weights over their common measure).
    {target}

    Returns
    -------
    numpy.ndarray
        Per system, its least lead over `target` (integers, as floats; NaN at `target`). A
        positive one: that rival is ahead under every completion; zero: never behind.

    Examples
    --------
    System 2 is ahead of system 1 under every completion, which the pairwise bounds do not show
    (apart, system 2 can fall to -1 and system 1 reach 0):

    >>> v = np.array([[np.nan, 2.0, 2.0], [0.0, 2.0, 1.0], [2.0, 0.0, 2.0], [np.nan, 2.0, np.nan]])
    >>> rival_leads(v, np.ones(3), 1)
    array([ 0., nan,  1., -3.])
    >>> board = MajorityBoard.of(v, np.ones(3), "copeland")
    >>> float(board.low[2].sum()), float(board.high[1].sum())
    (-1.0, 0.0)
    """
    n, n_tasks = values.shape
    miss = np.isnan(values)
    mine = values[target]
    with np.errstate(invalid="ignore"):  # the target first wherever it is missing, every rival last
        over = np.where(miss[target][None, :] | miss, 1.0, np.sign(mine[None, :] - values))
    leads = -2.0 * np.sign(over @ units)
    for other in range(n):
        if other == target:
            continue
        theirs = values[other]
        free = np.flatnonzero(miss[other] & ~miss[target])
        fixed = np.flatnonzero(~(miss[other] & ~miss[target]))
        combos = _combos(free.size)
        with np.errstate(invalid="ignore"):  # `other` against each rival: +1 ahead (a rival missing is last)
            ahead = np.where(miss[:, fixed] | miss[other, fixed][None, :], 1.0, np.sign(theirs[fixed][None, :] - values[:, fixed]))
            beaten = np.where(miss[target, fixed] | miss[other, fixed], 1.0, np.sign(mine[fixed] - theirs[fixed]))
            level = mine[free][None, :]
            below = np.where(miss[:, free] | (values[:, free] < level), 1.0, -1.0)  # just below the target
            tied = np.where(miss[:, free], 1.0, np.sign(level - values[:, free]))  # at the target's score
        # per free cell and choice, `other`'s weighted result against every rival (TOP, TIED, BELOW)
        per_cell = np.stack([np.ones_like(below), tied, below]).transpose(2, 0, 1) * units[free][:, None, None]
        margin = np.broadcast_to(ahead @ units[fixed], (len(combos), n)).copy()
        mine_margin = np.full(len(combos), float(beaten @ units[fixed]))
        for j in range(free.size):
            margin += per_cell[j][combos[:, j]]
        if free.size > EXACT_CELLS:  # the target's best result apart: a lower bound
            mine_margin += units[free].sum()
        else:
            mine_margin += (np.array([-1.0, 0.0, 1.0])[combos] * units[free]).sum(axis=1)
        term = (-np.sign(margin) - np.sign(mine_margin)[:, None]).min(axis=0)
        term[other] = 0.0
        leads += term
    leads[target] = np.nan
    return leads


@fill_doc(SECTIONS)
def lead_checked(values: np.ndarray, units: np.ndarray, target: int, rival: int) -> int:
    """:func:`rival_leads` of one rival recomputed cell by cell in integers (its certificate's check).

    Parameters
    ----------
    {values}
    units : numpy.ndarray
        Task weights as whole numbers.
    {target}
    rival : int
        The rival.

    Returns
    -------
    int
        The rival's least lead over `target`, or the same lower bound.
    """
    n, n_tasks = values.shape
    w = [int(round(float(x))) for x in units]
    cell = [[None if np.isnan(values[s, t]) else float(values[s, t]) for t in range(n_tasks)] for s in range(n)]

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    def rival_over(other: int, t: int, how: str | None) -> int:
        """The rival's result against `other` on task `t`, `other` placed by `how` where missing."""
        r, o, mine = cell[rival][t], cell[other][t], cell[target][t]
        if r is None:  # the rival last
            return -1
        if o is not None:
            return (r > o) - (r < o)
        if mine is None or how == "top":  # `other` above every score (just below a target first)
            return -1
        if how == "tied":
            return (r > mine) - (r < mine)
        return -1 if r < mine else 1  # just below the target

    def target_over(other: int, t: int, how: str | None) -> int:
        """The target's result against `other` on task `t` (the target first where missing)."""
        mine, theirs = cell[target][t], cell[other][t]
        if mine is None:
            return 1
        if theirs is None:
            return {"top": -1, "tied": 0}.get(how or "last", 1)
        return (mine > theirs) - (mine < theirs)

    lead = -2 * sign(sum(w[t] * target_over(rival, t, None) for t in range(n_tasks)))
    for other in range(n):
        if other in (target, rival):
            continue
        free = [t for t in range(n_tasks) if cell[other][t] is None and cell[target][t] is not None]
        rest = [t for t in range(n_tasks) if t not in free]
        exact = len(free) <= EXACT_CELLS
        base = sum(w[t] * rival_over(other, t, None) for t in rest)
        mine_base = sum(w[t] * target_over(other, t, None) for t in rest)
        best = None
        for choice in (itertools.product(("top", "tied", "below"), repeat=len(free)) if exact
                       else [("top",) * len(free)]):
            margin = base + sum(w[t] * rival_over(other, t, how) for t, how in zip(free, choice))
            mine_margin = mine_base + sum(w[t] * target_over(other, t, how if exact else "last")
                                          for t, how in zip(free, choice))
            value = sign(margin) - sign(mine_margin)
            best = value if best is None else min(best, value)
        lead += int(best if best is not None else 0)
    return lead


def _anneal(values: np.ndarray, weights: np.ndarray, unit: float, target: int, start: np.ndarray, strict: bool,
            steps: int = 3000, temperatures: tuple[float, ...] = (0.3, 0.15, 0.6)) -> tuple[np.ndarray, float]:
    """Copeland: directed annealing searches for a completion with `target` first (alone if `strict`),
    one from `start` per temperature until one succeeds (:func:`_anneal_once`).

    Returns
    -------
    completion : numpy.ndarray
        The completion of least cost met.
    cost : float
        Its cost; 0 when `target` is first (alone if `strict`).
    """
    best_out, best = start, np.inf
    for attempt, temperature in enumerate(temperatures):
        out, cost = _anneal_once(values, weights, unit, target, start, strict, steps, temperature, attempt)
        if cost < best:
            best_out, best = out, cost
        if best == 0.0:
            break
    return best_out, best


def _anneal_once(values: np.ndarray, weights: np.ndarray, unit: float, target: int, start: np.ndarray, strict: bool,
                 steps: int, temperature: float, attempt: int) -> tuple[np.ndarray, float]:
    """One directed annealing search for a completion with `target` first (alone if `strict`).

    Cost: the total excess of the rivals' scores over the target's (minus 1 when `strict`). Each
    step takes a rival still in the way, one rival it does not lose to, and one task where one of
    the two is missing and the first is not behind: the first's cell is moved just below the
    other's value, or the other's cell just above the first's (a third of the time: level with
    it, a tie on that task). The move is kept if the cost does not rise, or with probability
    ``exp(-rise / T)`` as ``T`` falls linearly from `temperature` to 0 over `steps` steps.
    Seeded by the target and `attempt`: deterministic. Returns as :func:`_anneal`.
    """
    rng = np.random.default_rng([target, 0xC0, attempt])
    n = len(values)
    out = start.copy()
    holes = np.isnan(values)
    holes[target] = False
    margin = np.sign(out[:, None, :] - out[None, :, :]) @ weights
    outcome = _outcome(margin, unit)
    np.fill_diagonal(outcome, 0.0)
    score = outcome.sum(axis=1)
    keep = np.arange(n) != target
    offset = 1.0 if strict else 0.0

    def cost(scores: np.ndarray) -> float:  # the target's own term is max(offset, 0) = offset: taken off
        return float(np.maximum(scores - scores[target] + offset, 0.0).sum()) - offset

    current = cost(score)
    best, best_out = current, out.copy()
    places = {}
    for t in range(values.shape[1]):
        scored = np.unique(values[~np.isnan(values[:, t]), t])
        places[t] = np.unique(np.concatenate([scored, (scored[1:] + scored[:-1]) / 2, [scored[0] - 1.0, scored[-1] + 1.0]]))
    for step in range(steps):
        if best == 0.0:
            break
        heat = temperature * (1.0 - step / steps) + 1e-3
        in_way = (keep & (score > score[target] - offset)).nonzero()[0]
        k = int(in_way[rng.integers(in_way.size)])
        against = (keep & (outcome[k] >= 0.0)).nonzero()[0]
        against = against[against != k]
        if not against.size:
            continue
        other = int(against[rng.integers(against.size)])
        tasks = ((holes[k] | holes[other]) & (out[k] >= out[other])).nonzero()[0]
        if not tasks.size:
            continue
        t = int(tasks[rng.integers(tasks.size)])
        spots = places[t]
        tie = rng.random() < 1.0 / 3.0  # a tie on the task, or the other ahead
        if holes[other, t] and (not holes[k, t] or rng.random() < 0.5):  # the other level with or just above k
            y, place = other, (out[k, t] if tie else
                               spots[min(int(np.searchsorted(spots, out[k, t], side="right")), len(spots) - 1)])
        else:  # k level with or just below the other
            y, place = k, out[other, t] if tie else spots[max(int(np.searchsorted(spots, out[other, t], side="left")) - 1, 0)]
        if place == out[y, t]:
            continue
        column = out[:, t]
        # _copeland_moved for one value, inline: this loop is the search's hot path (8% slower through it)
        change = weights[t] * (np.sign(place - column) - np.sign(column[y] - column))
        change[y] = 0.0
        row = margin[y] + change
        new = _outcome(row, unit)
        new[y] = 0.0
        gained = new - outcome[y]
        scores = score - gained
        scores[y] = score[y] + gained.sum()
        value = cost(scores)
        if value <= current or rng.random() < np.exp(-(value - current) / heat):
            out[y, t] = place
            margin[y], margin[:, y] = row, -row
            outcome[y], outcome[:, y] = new, -new
            score, current = scores, value
            if current < best:
                best, best_out = current, out.copy()
    return best_out, best


@fill_doc(SECTIONS)
def majority_search(board: MajorityBoard, target: int, time_limit: float | None, defer: bool = False) -> SearchAnswer:
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
    values = board.values
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
    scores = board.scores(completion)
    if (scores[target] - np.delete(scores, target) > board.tol).all():
        return SearchAnswer(True, True, completion, (), "greedy completion", 0)
    if board.unit is None:
        return SearchAnswer(None, None, None, (), "weights without a common measure", 0)
    if board.rule == "copeland":
        found, completion = _copeland_steps(board, target, completion, search=time_limit is None or time_limit > 0)
        if found is not None:
            return found
        scores = board.scores(completion)  # the rivals still ahead after the search are modelled first

    def programs(limit: float | None) -> SearchAnswer:
        left = shared(limit)
        return generated(target, scores, board.tol, lambda modelled: board.solve(target, modelled, left()), board.scores,
                         slack=board.tol)

    return deferred(programs) if defer else programs(time_limit)


def _copeland_steps(board: MajorityBoard, target: int, greedy: np.ndarray,
                    search: bool = True) -> tuple[SearchAnswer | None, np.ndarray]:
    """Copeland, step 4 of the module notes: the rivals' least leads (a rival always ahead
    proves the system impossible; one never behind, that it is never first alone), then the
    annealing search from the greedy completion. Neither when `search` is False (a total budget
    spent: each costs about n^2 per system, too much at hundreds of systems). Returns the
    answer (None: the integer programs decide) and the best completion met, from which the
    programs' constraint generation starts."""
    if not search:
        return None, greedy
    values = board.values
    units = np.round(board.weights / board.unit)
    leads = rival_leads(values, units, target)
    first = int(np.argmax(np.nan_to_num(leads, nan=-np.inf)))  # the rival with the largest least lead
    if leads[first] > 0:  # its certificate recounted (one rival suffices; each recount takes a while)
        if lead_checked(values, units, target, first) <= 0:
            raise RuntimeError(f"possible_winners: the least leads over system {target} do not recount")
        return SearchAnswer(False, False, None, (first,), "rival bound", 0), greedy
    strict = not bool(np.nanmax(leads, initial=-np.inf) >= 0)  # a rival never behind: first alone is out
    completion, cost = _anneal(values, board.weights, board.step, target, greedy, strict)
    if cost == 0.0:
        return SearchAnswer(True, strict, completion, (), "local search", 0), completion
    return None, completion

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
    left = shared(time_limit)  # the system's programs share its time limit
    return counted(
        target, tried, always, unsure, board.tol,
        None if units is None else
        lambda modelled: best_copeland_completion(values, units, target, modelled, 1.0, objective="count",
                                                  time_limit=left()),
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
    left = shared(time_limit)  # the system's programs share its time limit
    return counted(
        target, [(witness, "greedy completion")], int(surely.sum()), unsure, board.tol,
        None if units is None else
        lambda modelled: minimax_position_completion(values, units, target, modelled, 1.0, variant=board.variant,
                                                     end=end, time_limit=left()),
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
    left = shared(time_limit)
    return necessary_by_programs(target, n, board.tol, reaches, lambda k, only: board.solve(k, only, left()),
                                 board.scores, board.rule)
