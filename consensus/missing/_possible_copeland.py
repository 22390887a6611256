"""Copeland under missing scores: possible and necessary winners, exactly.

Copeland (wins minus losses by weighted majority, :func:`consensus.rules.copeland`) over the
positions model. Deciding a possible Copeland winner is NP-complete (Xia and Conitzer 2011),
so each system goes through the cheapest step that settles it:

1. **The system first wherever it is missing.** Raising a system on a task only changes its
   own comparisons, in its favour, so that completion loses nothing (for possible winners; for
   a rival asking whether it can pass the system, the system goes last).
2. **Pairwise bounds, exact arithmetic.** Each pair's weighted margin ranges over
   ``F +- (the weight of the tasks where one of them is missing)``, ``F`` the margin on the
   tasks both are scored on; so the best and worst outcome of every pair are known. A system
   is impossible when one rival's worst score beats its best, or a set of rivals' summed
   worst scores (their games among themselves add up to 0) beat the set's size times its
   best; a rival can never pass the system when its best score minus the system's worst
   stays at or below 0 (the necessary winners).
3. **A greedy completion** (every other missing cell last, tied), then a local search from it
   (one rival's missing cell moved at a time, to where it most lowers the largest lead of a
   rival): a witness when the system ends first alone (``"greedy completion"``, ``"local
   search"``).
4. **Integer programs with constraint generation**
   (:func:`solvers.completion_copeland.best_copeland_completion`): the completion best for
   the system against the rivals modelled so far, checked by computing every Copeland score
   on it; a rival not modelled that gets ahead is added and the program solved again. For the
   necessary winners, one small program per rival the bounds leave open (the rival first, the
   system modelled alone: exact).

Margins are compared in units of the weights' common measure (``u``: 1 for unit weights, the
greatest common divisor of rational weights), so a margin is either 0 or at least ``u``; with
weights that have no common measure (up to 1e-9 relative, denominators up to 10^6) the
integer programs are not run and such systems stay undecided (``decided_by`` says why).
"""

from __future__ import annotations

from fractions import Fraction
from functools import reduce
from math import gcd

import numpy as np

from ._possible_borda import BordaSearch, generated

__all__ = ["copeland_bounds", "copeland_necessary", "copeland_scores", "copeland_search", "weight_unit"]


def weight_unit(weights: np.ndarray) -> float | None:
    """The largest ``u`` of which every weight is a whole multiple, None when there is none.

    Parameters
    ----------
    weights : numpy.ndarray
        One positive weight per task.

    Returns
    -------
    float or None
    """
    fracs = [Fraction(float(w)).limit_denominator(10**6) for w in weights]
    if any(abs(float(f) - float(w)) > 1e-9 * max(1.0, abs(float(w))) for f, w in zip(fracs, weights)):
        return None
    den = reduce(lambda a, b: a * b // gcd(a, b), (f.denominator for f in fracs), 1)
    num = reduce(gcd, (int(f * den) for f in fracs), 0)
    return float(Fraction(num, den)) if num else None


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


def copeland_scores(values: np.ndarray, weights: np.ndarray, unit: float) -> np.ndarray:
    """Copeland scores (wins minus losses by weighted majority) of complete oriented `values`.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores, systems x tasks, no NaN.
    weights : numpy.ndarray
        One weight per task.
    unit : float
        Margins below half of it are ties.

    Returns
    -------
    numpy.ndarray
    """
    fixed, _ = _margins(values, weights)
    out = _outcome(fixed, unit)
    np.fill_diagonal(out, 0.0)
    return out.sum(axis=1)


def copeland_bounds(values: np.ndarray, weights: np.ndarray, unit: float) -> tuple[np.ndarray, np.ndarray]:
    """Every pair's best and worst majority outcome over all completions (+1, 0, -1).

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores, systems x tasks, NaN where missing.
    weights : numpy.ndarray
        One weight per task.
    unit : float
        The weights' common measure.

    Returns
    -------
    best, worst : numpy.ndarray
        ``best[i, j]``: the best outcome of ``i`` against ``j``; ``worst`` likewise (0 on the
        diagonal).
    """
    fixed, free = _margins(values, weights)
    best, worst = _outcome(fixed + free, unit), _outcome(fixed - free, unit)
    np.fill_diagonal(best, 0.0)
    np.fill_diagonal(worst, 0.0)
    return best, worst


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


def copeland_search(values: np.ndarray, weights: np.ndarray, unit: float | None, bounds: tuple[np.ndarray, np.ndarray],
                    target: int, time_limit: float | None) -> BordaSearch:
    """Whether `target` is first (alone) under some completion of oriented `values` under Copeland.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN where missing.
    weights : numpy.ndarray
        One weight per task.
    unit : float or None
        :func:`weight_unit` of the weights (None: no integer programs).
    bounds : (numpy.ndarray, numpy.ndarray)
        :func:`copeland_bounds` of `values`.
    target : int
        The system asked about.
    time_limit : float or None
        Seconds for each integer program.

    Returns
    -------
    BordaSearch
        Possible and possible strictly (None when undecided), the witness completion
        (oriented), the rivals in the way, and what decided it.
    """
    from solvers.completion_copeland import best_copeland_completion

    best, worst = bounds
    top = best[target].sum()  # the target's best score: every pair at its best at once (step 1)
    low = worst.sum(axis=1)  # each rival's worst score
    always = tuple(int(k) for k in np.flatnonzero(low > top) if k != target)
    if always:
        return BordaSearch(False, False, None, always, "pairwise bound", 0)
    # the rivals with the best worst scores, as a set: their games among themselves sum to 0, so
    # their scores sum to at least their worst outcomes against the systems outside the set
    order = [int(k) for k in np.argsort(-low, kind="stable") if k != target]
    inside = 0.0
    for size in range(1, len(order) + 1):
        k = order[size - 1]
        inside += worst[k, order[:size - 1]].sum() + worst[order[:size - 1], k].sum()
        if size >= 2 and low[order[:size]].sum() - inside > size * top:
            return BordaSearch(False, False, None, tuple(order[:size]), "set bound", 0)
    step = unit if unit is not None else 1e-9 * float(weights.sum())
    completion = _greedy(values, target)
    for attempt in range(2):  # the greedy completion, then a local search from it
        scores = copeland_scores(completion, weights, step)
        if (scores[target] - np.delete(scores, target) > 0).all():
            return BordaSearch(True, True, completion, (), ("greedy completion", "local search")[attempt], 0)
        if attempt == 0:
            completion = _improve(values, weights, step, target, completion)
    if unit is None:
        return BordaSearch(None, None, None, (), "weights without a common measure", 0)
    return generated(
        target, scores, 0.5,  # scores are whole numbers
        lambda modelled: best_copeland_completion(values, weights, target, modelled, unit, cap=1.0, time_limit=time_limit),
        lambda completed: copeland_scores(completed, weights, unit),
    )


def copeland_necessary(values: np.ndarray, weights: np.ndarray, unit: float | None, bounds: tuple[np.ndarray, np.ndarray],
                       target: int, time_limit: float | None) -> tuple[bool | None, bool | None, int]:
    """Whether `target` is first (alone) under every completion under Copeland.

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks, higher is better), NaN where missing.
    weights : numpy.ndarray
        One weight per task.
    unit : float or None
        :func:`weight_unit` of the weights (None: no integer programs).
    bounds : (numpy.ndarray, numpy.ndarray)
        :func:`copeland_bounds` of `values`.
    target : int
        The system asked about.
    time_limit : float or None
        Seconds for each integer program.

    Returns
    -------
    necessary, necessary_strict : bool or None
        None when a program stopped at its time limit before the answer was known.
    programs : int
        Integer programs solved.
    """
    from solvers.completion_copeland import best_copeland_completion
    from solvers.status import SolveStatus

    n = values.shape[0]
    best, worst = bounds
    necessary: bool | None = True
    strict: bool | None = True
    programs = 0
    only = np.zeros(n, dtype=bool)
    only[target] = True
    for k in range(n):
        if k == target:
            continue
        # the most k can gain on the target: its pairs at their best, the target's at their worst
        # (the pair of the two counted once for each side)
        gain = best[k].sum() - worst[target].sum()
        if gain < 0:
            continue  # k never reaches the target
        if unit is None:
            return None, None, programs
        out = best_copeland_completion(values, weights, k, only, unit, cap=1.0, time_limit=time_limit)
        programs += out.solves
        if out.status is not SolveStatus.OPTIMAL or out.values is None or out.objective is None:
            bound = out.bound
            if bound is None or bound > -0.5:  # k might still tie or pass the target
                strict = None if strict else strict
                if bound is None or bound > 0.5:
                    necessary = None if necessary else necessary
            continue
        scores = copeland_scores(out.values, weights, unit)
        if out.objective > 0.5:
            if scores[k] <= scores[target]:
                raise RuntimeError("possible_winners: a Copeland completion passing the target did not")
            return False, False, programs
        if out.objective > -0.5:
            if scores[k] < scores[target]:
                raise RuntimeError("possible_winners: a Copeland completion tying the target did not")
            strict = False
    return necessary, strict, programs
