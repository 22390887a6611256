"""Borda under missing scores: possible and necessary winners and rank ranges, exactly.

Borda (averaged ties) is not decided by one completion per system: a rival's position on a task
moves the others' points, and deciding a possible winner is NP-complete in general (Xia and
Conitzer 2011). The package answers it in four steps, cheapest first:

1. **Pairwise bounds, closed form.** For every pair, the largest and smallest difference of
   Borda scores over all completions (:func:`solvers.completion_borda.borda_pair_bounds`).
   They decide the *necessary* winners outright (first under every completion iff no rival
   can get ahead), and they prove a system *impossible* when one rival is ahead under every
   completion (that rival is named).
2. **A greedy completion**: the system first on every task it misses, every missing rival
   last, tied. When the system is first there alone, that is its witness.
3. **The best weighting of the rivals** (:func:`solvers.completion_borda.borda_mixture`): a
   weighting whose smallest weighted lead over every completion is positive proves the system
   impossible (closed form per task, re-checked in exact integers by
   :func:`weighted_bound_exact`); when none does, one task column per task from the column
   generation, picked by a small integer program, is tried as the witness.
4. **An integer program with constraint generation** for the rest
   (:func:`solvers.completion_borda.best_borda_completion`): it models the rivals the last
   completion let through, finds the completion best for the system against them, and runs
   the rule on it; a rival it did not model that still gets ahead is added and the program
   solved again. Modelling fewer rivals only relaxes the question, so a program that
   proves no completion can beat the modelled rivals proves the system impossible.

"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .._docstrings import fill_doc
from ..board._leaderboard import Leaderboard
from ..rules.spec import SCORE_TOL
from ._docs import SECTIONS

__all__ = ["SearchAnswer", "borda_search", "counted", "generated", "necessary_by_programs"]


@dataclass(frozen=True)
class SearchAnswer:
    """One system's answer (Borda, Copeland, Minimax): possible, strict, the witness and how it was decided."""

    possible: bool | None
    possible_strict: bool | None
    witness: np.ndarray | None  # oriented completed scores
    beaten_by: tuple[int, ...]
    decided_by: str  # "pairwise bound", "greedy completion", "integer program", or the solver's status
    programs: int
    margin: float | None = None  # an impossible or undecided system's last program: its best margin over the
    bound: float | None = None  # rivals it modelled, and the solver's proven upper bound on it
    #: a search asked to defer its integer programs (``defer=True``) and still undecided: ``resume(time_limit)``
    #: runs them and returns the answer (``decided_by`` is ``"deferred"`` until then)
    resume: Callable[[float | None], SearchAnswer] | None = field(default=None, repr=False, compare=False)


def _scores(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Borda scores (averaged ties) of complete oriented `values` (:func:`solvers.completion_borda.borda_points`)."""
    from solvers.completion_borda import borda_points

    return borda_points(values) @ weights


@fill_doc(SECTIONS)
def pair_bounds(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """The largest Borda score of each system minus that of each other over every completion.

    Parameters
    ----------
    {values}
    {weights}

    Returns
    -------
    numpy.ndarray
        ``upper[k, i]``: the largest ``score(k) - score(i)`` (closed form,
        :func:`solvers.completion_borda.borda_pair_bounds`, every pair of a task at once).
    """
    n = values.shape[0]
    upper = np.zeros((n, n))
    for t in range(values.shape[1]):  # the cases of borda_pair_bounds, every pair at once
        column = values[:, t]
        scored = ~np.isnan(column)
        m = float((~scored).sum())
        v = column[scored]
        points = np.zeros(n)
        points[scored] = _scores(v[:, None], np.ones(1))  # among the scored systems
        both = scored[:, None] & scored[None, :]
        ahead = np.zeros((n, n), dtype=bool)
        ahead[np.ix_(scored, scored)] = v[:, None] > v[None, :]
        per = np.where(both, points[:, None] - points[None, :] + m * ahead,
                       np.where(scored[None, :], n - 1.0 - points[None, :],  # k missing, i scored
                                np.where(scored[:, None], points[:, None] + m, n - 1.0)))  # i missing
        upper += float(weights[t]) * per
    np.fill_diagonal(upper, 0.0)
    return upper


def _greedy(values: np.ndarray, target: int, safe: np.ndarray | None = None) -> np.ndarray:
    """The target first on every task it misses; a missing `safe` rival (one that can never get ahead
    of the target) just below the target, where it takes points from the rivals below; every other
    missing cell last (tied)."""
    out = values.copy()
    for t in range(values.shape[1]):
        column = values[:, t]
        holes = np.isnan(column)
        scored = np.unique(column[~holes])
        high, low = (scored.max() + 1.0, scored.min() - 1.0) if scored.size else (1.0, -1.0)
        out[holes, t] = low
        if holes[target]:
            out[target, t] = high
        if safe is not None:
            mine = out[target, t]
            under = scored[scored < mine]
            out[holes & safe, t] = (mine + (under.max() if under.size else mine - 2.0)) / 2.0
    return out


def _improve(values: np.ndarray, weights: np.ndarray, target: int, completion: np.ndarray) -> np.ndarray:
    """Move whole rivals' missing cells from last place to just below the target, while each stays behind it.

    A missing cell just below the target instead of last takes a point from every system
    below the target on that task and from no one else (the target keeps its point), so
    every margin of the target improves but the moved rival's own; the move is kept when
    that rival still scores below the target. Rivals are tried from the lowest score up.
    """
    tol = tolerance(weights, values.shape[0])
    out = completion.copy()
    holes = np.isnan(values)

    def own(board: np.ndarray, k: int) -> float:  # k's Borda score on a complete board
        return float(((board < board[k]).sum(axis=0) + 0.5 * ((board == board[k]).sum(axis=0) - 1)) @ weights)

    for x in np.argsort(_scores(out, weights), kind="stable"):
        tasks = np.flatnonzero(holes[x] & ~holes[target])
        if x == target or not tasks.size:
            continue
        trial = out.copy()
        for t in tasks:
            mine = trial[target, t]
            column = np.delete(trial[:, t], x)
            under = column[column < mine]
            trial[x, t] = (mine + (under.max() if under.size else mine - 2.0)) / 2.0
        if own(trial, x) < own(trial, target) - tol:  # only the two scores the rule of the move needs
            out = trial
    return out


def _set_bound(values: np.ndarray, weights: np.ndarray, target: int, rivals: np.ndarray) -> float:
    """The smallest ``sum over rivals k of score(k) - score(target)`` over every completion (Borda, averaged ties).

    Exact in closed form: the rivals' pairs among themselves always share the same points, so
    on each task the target goes first when missing, a missing rival last, and every other
    missing system (an outsider, whose own score is not counted) at the one position that
    costs least: ``sum_k rel(k, x) - |K| rel(target, x)`` (``rel``: 1 ahead, 1/2 tied, 0
    behind) over the positions of the rivals and the target on the task. When this smallest
    sum exceeds the tie tolerance times the number of rivals, some rival is strictly ahead of
    the target under every completion: the target cannot be first.
    """
    K = np.flatnonzero(rivals)
    size = len(K)
    out = values.copy()
    for t in range(values.shape[1]):
        column = values[:, t]
        holes = np.isnan(column)
        scored = column[~holes]
        high, low = (scored.max() + 1.0, scored.min() - 1.0) if scored.size else (1.0, -1.0)
        if holes[target]:
            out[target, t] = high
        out[K[holes[K]], t] = low
        keys = np.unique(np.concatenate([out[K, t], [out[target, t]]]))
        edges = np.concatenate([[keys[0] - 1.0], keys, [keys[-1] + 1.0]])
        candidates = np.unique(np.concatenate([keys, (edges[:-1] + edges[1:]) / 2.0]))
        rel = lambda v, p: (v[:, None] > p[None, :]) + 0.5 * (v[:, None] == p[None, :])  # noqa: E731
        cost = rel(out[K, t], candidates).sum(axis=0) - size * rel(out[[target], t], candidates)[0]
        outsiders = holes.copy()
        outsiders[K] = False
        outsiders[target] = False
        out[outsiders, t] = candidates[int(np.argmin(cost))]
    rows = np.concatenate([K, [target]])
    v = out[rows]
    points = (v[:, None, :] > out[None, :, :]).sum(axis=1) + 0.5 * ((v[:, None, :] == out[None, :, :]).sum(axis=1) - 1)
    scores = points @ weights
    return float(scores[:-1].sum() - size * scores[-1])


@fill_doc(SECTIONS)
def weighted_bound_exact(values: np.ndarray, weights: np.ndarray, target: int, lam: np.ndarray) -> tuple[Fraction, np.ndarray]:
    """The certificate of a weighted bound re-derived in exact arithmetic, independently of the solver.

    `lam` is rounded to integers over ``2**20`` (the certificate is the rounded weighting,
    returned), the points are doubled so that every count is an integer, and on each task the
    smallest weighted sum is recounted pair by pair: the scored pairs as they stand, each
    missing system at the best of every position among the scored systems (counted by
    comparing with every scored system, not by running sums), each pair of missing systems at
    ``min(lam_x, lam_z)``. Only the task weights enter as fractions.

    Parameters
    ----------
    {values}
    {weights}
    {target}
    lam : numpy.ndarray
        One non-negative weight per system (the target's is ignored).

    Returns
    -------
    value : fractions.Fraction
        The smallest ``sum_k lam_k score(k) - (sum_k lam_k) score(target)`` over every
        completion, for the rounded weighting normalized to sum 1.
    weighting : numpy.ndarray
        The rounded weighting, normalized (floats).
    """
    scale = 1 << 20
    units = np.rint(np.clip(np.asarray(lam, dtype=np.float64), 0.0, None) * scale).astype(np.int64)
    units[target] = 0
    total_units = int(units.sum())
    if total_units == 0:
        return Fraction(0), np.zeros(len(units))
    coef = units.copy()
    coef[target] = -total_units
    total = Fraction(0)
    for t in range(values.shape[1]):
        column = values[:, t]
        scored = np.flatnonzero(~np.isnan(column))
        missing = np.flatnonzero(np.isnan(column))
        v = column[scored]
        doubled = 2 * (v[:, None] > v[None, :]).sum(axis=1) + (v[:, None] == v[None, :]).sum(axis=1) - 1
        cost = int(coef[scored] @ doubled)
        if len(missing):
            levels = np.unique(v)[::-1]
            # position p (0 .. len(levels)): strictly below levels[:p], strictly above the rest
            above = v[None, :] >= levels[:, None] if len(levels) else np.zeros((0, len(v)), dtype=bool)
            above = np.vstack([np.zeros((1, len(v)), dtype=bool), above]).astype(np.int64)
            theirs = above @ (2 * coef[scored])  # a scored system above x takes x's two half-points
            under = (1 - above).sum(axis=1)  # x takes two half-points from each scored system below
            for x in missing:
                cost += int((theirs + 2 * int(coef[x]) * under).min())
            ordered = sorted(int(c) for c in coef[missing])
            cost += sum(2 * c * (len(ordered) - 1 - i) for i, c in enumerate(ordered))
        total += Fraction(float(weights[t])) * cost
    return total / (2 * total_units), units / total_units


@fill_doc(SECTIONS)
def tolerance(weights: np.ndarray, n: int) -> float:
    """How far apart two Borda scores may be and still tie.

    Parameters
    ----------
    {weights}
    n : int
        Number of systems.

    Returns
    -------
    float
        The rules' relative :data:`~consensus.rules.spec.SCORE_TOL` at the largest possible
        score, ``W (n - 1)``.
    """
    return SCORE_TOL * max(1.0, float(np.abs(weights).sum()) * max(n - 1, 1))


@fill_doc(SECTIONS)
def borda_search(values: np.ndarray, weights: np.ndarray, upper: np.ndarray, target: int,
                 time_limit: float | None, defer: bool = False) -> SearchAnswer:
    """Whether `target` is first (alone) under some completion of oriented `values` under Borda.

    Parameters
    ----------
    {values}
    {weights}
    {upper}
    {target}
    {time_limit}
    {defer}

    Returns
    -------
    {search_answer}
    """
    from solvers.completion_borda import best_borda_completion

    n = values.shape[0]
    tol = tolerance(weights, n)
    always = tuple(int(k) for k in np.flatnonzero(-upper[target, :] > tol) if k != target)
    if always:  # a rival ahead under every completion
        return SearchAnswer(False, False, None, always, "pairwise bound", 0)
    safe = upper[:, target] <= tol
    safe[target] = False
    tried = [_greedy(values, target), _greedy(values, target, safe)]
    tried.append(_improve(values, weights, target, tried[-1]))
    for completion in tried:
        scores = _scores(completion, weights)
        margins = scores[target] - np.delete(scores, target)
        if margins.min(initial=np.inf) > tol:
            return SearchAnswer(True, True, completion, (), "greedy completion", 0)
    scores = _scores(tried[0], weights)
    ahead = [int(k) for k in np.argsort(-scores, kind="stable") if k != target and scores[k] > scores[target] + tol]
    sizes = sorted({2**e for e in range(len(ahead).bit_length()) if 2**e <= len(ahead)} | {len(ahead)} - {0})
    for size in sizes:  # the rivals ahead in the greedy completion, best first: does one of them always lead?
        group = np.zeros(n, dtype=bool)
        group[ahead[:size]] = True
        if _set_bound(values, weights, target, group) > tol * size:
            return SearchAnswer(False, False, None, tuple(ahead[:size]), "set bound", 0)
    began = time.perf_counter()
    mixed = _mixture(values, weights, upper, target, tol, time_limit)
    if mixed is not None:
        return mixed

    def programs(limit: float | None) -> SearchAnswer:
        left = shared(limit)
        return generated(
            target, _scores(tried[-1], weights), tol,
            # a margin past a few ties' worth buys nothing: the cap keeps the program from trading the
            # unmodelled rivals' standing for one modelled rival's
            lambda modelled: best_borda_completion(values, weights, target, modelled, objective="margin",
                                                   time_limit=left(), cap=float(weights[weights > 0].min(initial=1.0)) / 2.0),
            lambda completed: _scores(completed, weights),
            lambda completed: _improve(values, weights, target, completed),
        )

    return deferred(programs) if defer else programs(_left(time_limit, began))


def deferred(programs: Callable[[float | None], SearchAnswer]) -> SearchAnswer:
    """A search's answer before its integer programs: undecided, with `programs` to resume it.

    Parameters
    ----------
    programs : callable
        ``programs(time_limit)``: the search's last step.

    Returns
    -------
    SearchAnswer
        ``decided_by="deferred"``, ``resume=programs``.
    """
    return SearchAnswer(None, None, None, (), "deferred", 0, resume=programs)


def _mixture(values: np.ndarray, weights: np.ndarray, upper: np.ndarray, target: int, tol: float,
             time_limit: float | None) -> SearchAnswer | None:
    """Step 3 of :func:`borda_search`: the best weighting of the rivals (a proof the target cannot be first,
    re-checked exactly), else a completion built from its columns (a witness); None when neither decides."""
    from solvers.completion_borda import borda_mixture

    reach = upper[:, target] > -tol  # the rivals that can tie or pass the target
    reach[target] = False
    out = borda_mixture(values, weights, target, reach, time_limit=time_limit, stop_above=2.0 * tol, accept=tol)
    exact: Fraction | None = None
    if out.bound > tol:
        exact, lam = weighted_bound_exact(values, weights, target, out.rival_weights)
        if exact > tol:  # under every completion the weighted rivals lead on average: one leads
            support = np.flatnonzero(lam > 0)
            rivals = tuple(int(k) for k in support[np.argsort(-lam[support], kind="stable")])
            return SearchAnswer(False, False, None, rivals, "weighted bound", out.solves)
    if out.values is None:
        return None
    scores = _scores(out.values, weights)
    gaps = scores[target] - np.delete(scores, target)
    if gaps.min(initial=np.inf) > tol:
        return SearchAnswer(True, True, out.values, (), "combined completion", out.solves)
    if gaps.min(initial=np.inf) >= -tol and out.bound > -tol:  # first, tied; alone never, if the bound holds exactly
        if exact is None:
            exact, _ = weighted_bound_exact(values, weights, target, out.rival_weights)
        if exact > -tol:
            return SearchAnswer(True, False, out.values, (), "combined completion", out.solves)
    return None


@fill_doc(SECTIONS)
def generated(target: int, scores: np.ndarray, tol: float, solve: Callable[[np.ndarray], Any],
              rescore: Callable[[np.ndarray], np.ndarray], polish: Callable[[np.ndarray], np.ndarray] | None = None,
              slack: float | None = None) -> SearchAnswer:
    """Constraint generation over the rivals: model those in the way, solve, add any that got through.

    Parameters
    ----------
    {target}
    scores : numpy.ndarray
        The rule's scores on a first completion: the rivals at or above the target are modelled first.
    tol : float
        Scores within `tol` tie.
    solve : callable
        ``solve(modelled)``: a :class:`~solvers.completion_borda.CompletionOutcome` maximizing
        the target's smallest margin over the `modelled` rivals (a relaxation: the others are free).
    rescore : callable
        ``rescore(values)``: the rule's scores of the completion `values` (after `polish`).
    polish : callable, optional
        ``polish(values)``: the completion kept (e.g. improved greedily); the solver's by default.
    slack : float, optional
        A program's margin within it of 0 is a tie. Default ``1000 * tol``: scores in floats (Borda,
        the positional rules), where the solver's own tolerances (about 1e-6 of the scores' scale)
        exceed the rule's. Rules whose scores move in whole units (Copeland, Minimax: ``tol`` is
        half a unit) pass `tol`: a margin of one unit is then strict.

    Returns
    -------
    SearchAnswer
    """
    from solvers.status import SolveStatus

    n = len(scores)
    modelled = np.zeros(n, dtype=bool)
    others = np.delete(np.arange(n), target)
    programs = 0
    while True:
        modelled |= scores >= scores[target] - tol
        modelled[target] = False
        out = solve(modelled)
        programs += out.solves
        if out.bound is not None and out.bound < -tol:  # proven even when the search stopped early
            return SearchAnswer(False, False, None, tuple(np.flatnonzero(modelled).tolist()), "integer program", programs,
                                out.objective, out.bound)
        if out.status is not SolveStatus.OPTIMAL or out.values is None or out.objective is None:
            return SearchAnswer(None, None, None, (), out.status.value, programs, out.objective, out.bound)
        if out.objective < -tol:  # even the modelled rivals alone keep it from first place
            return SearchAnswer(False, False, None, tuple(np.flatnonzero(modelled).tolist()), "integer program", programs,
                                out.objective, out.bound)
        # every modelled rival at least this far behind; a margin within the solver's own tolerances
        # of 0 (its slack: about 1e-6 of the scores' scale, 1000 times the tie tolerance) is a tie
        slack = 1e3 * tol if slack is None else slack
        promise = out.objective if out.objective > slack else min(out.objective, 0.0)
        completion = out.values if polish is None else polish(out.values)
        scores = rescore(completion)
        if (scores[target] - scores[modelled] < promise - tol).any():  # polishing lost a modelled rival: undo it
            completion = out.values
            scores = rescore(completion)
            if (scores[target] - scores[modelled] < promise - tol).any():  # floats cannot hold the positions
                return SearchAnswer(None, None, None, (), "completion not representable in floats", programs)
        gap = scores[target] - scores[others]
        strict_wanted = out.objective > slack
        blocking = others[(gap <= tol) if strict_wanted else (gap < -tol)]
        if not (blocking[~modelled[blocking]]).size:
            return SearchAnswer(bool((gap >= -tol).all()), bool((gap > tol).all()), completion, (), "integer program",
                               programs)
        modelled[blocking] = True


def necessary_by_programs(target: int, n: int, tol: float, reaches: Callable[[int], bool],
                          solve: Callable[[int, np.ndarray], Any], rescore: Callable[[np.ndarray], np.ndarray],
                          rule: str) -> tuple[bool | None, bool | None, int]:
    """Whether `target` is first (alone) under every completion: for each rival that `reaches` it, one
    program favouring that rival with the target modelled alone (exact for the pair).

    Parameters
    ----------
    target : int
    n : int
        Number of systems.
    tol : float
        Scores within `tol` tie.
    reaches : callable
        ``reaches(k)``: whether the bounds leave rival `k` able to tie or pass the target.
    solve : callable
        ``solve(k, only)``: the completion best for `k` against the systems flagged in `only`.
    rescore : callable
        The rule's scores of a completion.
    rule : str
        For messages.

    Returns
    -------
    necessary, necessary_strict : bool or None
        None when a program stopped at its time limit before the answer was known.
    programs : int
        Integer programs solved.
    """
    from solvers.status import SolveStatus

    necessary: bool | None = True
    strict: bool | None = True
    programs = 0
    only = np.zeros(n, dtype=bool)
    only[target] = True
    for k in range(n):
        if k == target or not reaches(k):
            continue  # k never ties or passes the target
        out = solve(k, only)
        programs += out.solves
        if out.status is not SolveStatus.OPTIMAL or out.values is None or out.objective is None:
            bound = out.bound
            if bound is None or bound > -tol:  # k might still tie or pass the target
                strict = None if strict else strict
                if bound is None or bound > tol:
                    necessary = None if necessary else necessary
            continue
        scores = rescore(out.values)
        if out.objective > tol:
            if scores[k] <= scores[target] + tol:
                raise RuntimeError(f"possible_winners: a {rule} completion passing the target did not")
            return False, False, programs
        if out.objective > -tol:
            if scores[k] < scores[target] - tol:
                raise RuntimeError(f"possible_winners: a {rule} completion tying the target did not")
            strict = False
    return necessary, strict, programs


def board_arrays(lb: Leaderboard) -> tuple[np.ndarray, np.ndarray]:
    """The oriented scores and the task weights of a leaderboard.

    Parameters
    ----------
    lb : Leaderboard

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        Oriented scores (systems x tasks, NaN where missing) and one weight per task.
    """
    return np.array(lb.values, dtype=np.float64), np.asarray(lb.weight_array, dtype=np.float64)


@dataclass(frozen=True)
class BestPosition:
    """The best position of one system under Borda over every completion, as far as the search went."""

    found: int  # 1 + rivals strictly ahead in the best completion found (a real one: `witness`)
    lower: int  # a proven lower bound on the best position (equal to `found` when decided)
    witness: np.ndarray  # oriented completed scores
    decided_by: str
    programs: int


@fill_doc(SECTIONS)
def best_position(values: np.ndarray, weights: np.ndarray, upper: np.ndarray, target: int,
                  time_limit: float | None) -> BestPosition:
    """1 + the fewest rivals strictly ahead of `target` under some completion of oriented `values` (Borda).

    Rivals ahead under every completion (pairwise bound) are counted; the greedy completions
    give an upper bound; when they do not meet the count, an integer program minimizes the
    number of rivals ahead among those that could be either side, with constraint generation
    as in :func:`borda_search`.

    Parameters
    ----------
    {values}
    {weights}
    {upper}
    {target}
    {time_limit}

    Returns
    -------
    BestPosition
    """
    from solvers.completion_borda import best_borda_completion

    n = values.shape[0]
    tol = tolerance(weights, n)
    others = np.arange(n) != target
    always = int((others & (-upper[target, :] > tol)).sum())
    unsure = others & (-upper[target, :] <= tol) & (upper[:, target] > tol)
    safe = others & (upper[:, target] <= tol)
    tried = [_greedy(values, target), _greedy(values, target, safe)]
    tried.append(_improve(values, weights, target, tried[-1]))
    named = [(c, "greedy completion") for c in tried]
    more = 0  # unsure rivals proven ahead under every completion besides the `always` ones
    began = time.perf_counter()
    if unsure.any():
        completion, more = _mixture_position(values, weights, upper, target, unsure, tol, time_limit)
        if completion is not None:
            named.append((completion, "combined completion"))
    left = shared(_left(time_limit, began))
    return counted(
        target, named, always, unsure, tol,
        lambda modelled: best_borda_completion(values, weights, target, modelled, objective="count", tol=tol,
                                               big_m=upper[:, target], time_limit=left()),
        lambda completed: _scores(completed, weights), more=more,
    )


def shared(time_limit: float | None) -> Callable[[], float | None]:
    """The seconds left of `time_limit` from now: one system's programs share it, each round of
    constraint generation getting what the earlier ones (and the builds) left.

    Parameters
    ----------
    time_limit : float or None
        Seconds for all of them (None: no limit).

    Returns
    -------
    callable
        ``left()``: seconds left, at least 0 (a program given 0 returns at once, unbuilt), or None.
    """
    if time_limit is None:
        return lambda: None
    end = time.perf_counter() + float(time_limit)
    return lambda: max(end - time.perf_counter(), 0.0)


def _left(time_limit: float | None, began: float) -> float | None:
    """What is left of a system's `time_limit` (seconds) since `began`: the weighting's time counts."""
    return None if time_limit is None else max(time_limit - (time.perf_counter() - began), 0.0)


def _mixture_position(values: np.ndarray, weights: np.ndarray, upper: np.ndarray, target: int, unsure: np.ndarray,
                      tol: float, time_limit: float | None) -> tuple[np.ndarray | None, int]:
    """The weighting of the unsure rivals for a best position: a completion leaving few of them ahead
    (one column per task, fewest ahead), and 1 when a weighting proves one of them always ahead
    (re-checked exactly), else 0."""
    from solvers.completion_borda import borda_mixture

    out = borda_mixture(values, weights, target, unsure, time_limit=time_limit, stop_above=2.0 * tol, accept=-tol,
                        big_m=upper[:, target])
    proven = 0
    if out.bound > tol and weighted_bound_exact(values, weights, target, out.rival_weights)[0] > tol:
        proven = 1
    return out.values, proven


def counted(target: int, tried: list[tuple[np.ndarray, str]], always: int, unsure: np.ndarray, tol: float,
            solve: Callable[[np.ndarray], Any] | None, rescore: Callable[[np.ndarray], np.ndarray],
            unsolved: str = "", more: int = 0) -> BestPosition:
    """A best position (Borda, Copeland, Minimax, the positional rules): the best of real completions,
    then constraint generation: model the rivals that may be either side and are ahead in the best
    completion so far, minimize those ahead, add any that a solution lets through.

    Parameters
    ----------
    target : int
        The system.
    tried : list of (numpy.ndarray, str)
        Completions (oriented, complete) and what made each (``"greedy completion"``, ...): the
        best is kept, and decides when it meets `always`.
    always : int
        Rivals ahead under every completion (not modelled: counted).
    unsure : numpy.ndarray of bool
        Rivals that may end on either side.
    tol : float
        Scores within `tol` tie.
    solve : callable or None
        ``solve(modelled)``: a :class:`~solvers.completion_borda.CompletionOutcome` minimizing
        the modelled rivals strictly ahead (a relaxation: the others are free). None: no program
        can be posed (`unsolved` says why); the best completion and the bound `always` are returned.
    rescore : callable
        ``rescore(values)``: the rule's scores of a complete board.
    unsolved : str, optional
        Why `solve` is None.
    more : int, default=0
        Unsure rivals proven ahead under every completion (Borda's weighted bound): the best
        position is at least ``1 + always + more``.

    Returns
    -------
    BestPosition
        Optimal when a real completion meets the program's count (a lower bound); else the
        best completion found and the solver's bound.
    """
    from solvers.status import SolveStatus

    counts = [int((scores - scores[target] > tol).sum()) for scores in (rescore(c) for c, _ in tried)]
    best = int(np.argmin(counts))
    found, (witness, how) = 1 + counts[best], tried[best]
    if counts[best] == always + more:
        return BestPosition(found, found, witness, how if not more else f"{how}; weighted bound", 0)
    if solve is None:
        return BestPosition(found, 1 + always + more, witness, unsolved, 0)
    scores = rescore(witness)
    modelled = (scores - scores[target] > tol) & unsure
    programs = 0
    while True:
        out = solve(modelled)
        programs += out.solves
        if out.status is not SolveStatus.OPTIMAL or out.values is None or out.objective is None:
            lower = 1 + always + (int(np.ceil(out.bound - 1e-6)) if out.bound is not None else 0)
            return BestPosition(found, min(max(lower, 1 + always + more), found), witness, out.status.value, programs)
        scores = rescore(out.values)
        ahead = scores - scores[target] > tol
        if 1 + int(ahead.sum()) < found:
            found, witness = 1 + int(ahead.sum()), out.values
        extra = ahead & unsure & ~modelled
        if not extra.any():  # a real completion meets the modelled count, a lower bound: optimal
            return BestPosition(found, found, witness, "integer program", programs)
        modelled |= extra
