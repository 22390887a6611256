"""Who can still win? Possible and necessary winners over every completion of the missing scores.

A *completion* gives every missing cell a value. Two models, as the rule asks:

- ``"bounds"`` (score rules: the mean): a missing cell takes any value between its task's
  bounds, given by ``bounds={task: (low, high)}`` in the task's own units or, by default, the
  task's observed minimum and maximum (so a missing cell can at best tie the task's best
  score, never beat it: pass wider bounds, e.g. a metric's natural range, to allow that);
- ``"positions"`` (rank rules: the Condorcet winner): only a cell's position among the task's
  scores matters, and a missing cell may take any position, ties included (the
  compatible-permutation model of Himmi et al., here as a set, not a probability).

A system is a *possible* winner when it is first (alone or tied) under some completion, a
*necessary* winner when it is first under every completion (Konczak and Lang 2005; Xia and
Conitzer 2011); the strict variants ask for first alone.

Both rules here are decided exactly by one completion each, because every pairwise comparison
they rest on involves two systems' own cells only, and each cell moves one system's standing
monotonically: the completion that fills the system's own missing cells with their best values
and every rival's with their worst is, at once, the best one for the system against every
rival (so if the system is not first there, it is first nowhere), and the reverse completion
is the worst against every rival. The means of those completions come from two runs of the
rule (every missing cell at its best, every one at its worst), the Condorcet margins from one
row of weighted majority margins per system, both compared with the rules' tie tolerance; the
first completion is the witness, run through the rule itself before it is returned. Borda
(:mod:`._possible_borda`), Copeland and Minimax (:mod:`._possible_majority`) need integer
programs; Kemeny (:mod:`._possible_kemeny`) gets certified bounds from the majority structure at
any size and an exact enumeration on small boards; the other positional rules are not covered
yet.

References
----------
.. [1] Konczak and Lang, "Voting procedures with incomplete preferences", IJCAI-05
   workshop on advances in preference handling, 2005.
.. [2] Xia and Conitzer, "Determining possible and necessary winners given partial orders",
   JAIR 41, 2011.
.. [3] Himmi et al., "Towards more robust NLP system evaluation: handling missing scores in
   benchmarks", 2023 (compatible permutations).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_flag, check_seconds
from ..board._leaderboard import Leaderboard
from ..errors import DegenerateTaskWarning, InvalidOptionError, UnknownTaskError
from ..results.possible import PossibleWinners, RankRanges
from ..rules.spec import SCORE_TOL
from ._docs import SECTIONS
from ._preparation import Prepared, with_scores

__all__ = ["POSSIBLE_RULES", "RANGE_RULES", "SEARCHED_RULES", "possible_winners", "rank_ranges"]

#: ``analyze`` asks who can still win under Borda and Copeland (bounds, searches, then integer
#: programs) up to :data:`POSSIBLE_SEARCH_SYSTEMS` systems, each program stopped after
#: :data:`POSSIBLE_SEARCH_SECONDS` and each rule after :data:`POSSIBLE_SEARCH_BUDGET` seconds in
#: all (the systems left are counted undecided). Above it even the bounds and greedy completions
#: of every system (about n^2 each) pass the budget: Copeland took 10 s at 350 x 8.
POSSIBLE_SEARCH_SYSTEMS = 100
POSSIBLE_SEARCH_SECONDS = 0.2
POSSIBLE_SEARCH_BUDGET = 3.0
#: ``consensus possible`` searches the cells that can change who can win (a search per cell and
#: position) by default only up to this many systems.
PIVOTAL_SEARCH_SYSTEMS = 20

#: Appended to ``decided_by`` of the systems left undecided once the total ``budget`` was spent.
BUDGET_SPENT = "; the total budget was spent"

#: The rules :func:`possible_winners` decides, and the completion model of each.
POSSIBLE_RULES: Mapping[str, str] = {"mean": "bounds", "normalized_mean": "bounds", "condorcet": "positions",
                                     "borda": "positions", "copeland": "positions", "minimax": "positions",
                                     "kemeny": "positions", "plurality": "positions", "dowdall": "positions",
                                     "scoring": "positions", "rank_complement": "positions", "top_ten": "positions",
                                     "eurovision": "positions"}
#: The rules decided by searches and integer programs (the others in closed form or by bounds).
SEARCHED_RULES = ("borda", "copeland", "minimax", "plurality", "dowdall", "scoring", "rank_complement", "top_ten",
                  "eurovision")


@fill_doc(SECTIONS)
def possible_winners(
    data: Leaderboard | Prepared,
    rule: str = "mean",
    *,
    bounds: Mapping[str, tuple[float, float]] | None = None,
    time_limit: float | None = None,
    rule_options: Mapping[str, Any] | None = None,
    budget: float | None = None,
    pivotal: bool = True,
) -> PossibleWinners:
    """Who can still be first, and who is first whatever the missing scores turn out to hold.

    Parameters
    ----------
    data : Leaderboard or Prepared
        The scores (prepared data: its leaderboard; no system is set aside here, the question
        is what each could still reach).
    rule : str, default "mean"
        One of :data:`POSSIBLE_RULES`. ``"mean"``: the weighted mean of the oriented scores, ``"normalized_mean"``: the
        Open LLM Leaderboard's mean of scores rescaled per task from a fixed baseline to a
        fixed maximum (both ``"bounds"`` model: each system's score moves only with its own
        cells, monotonically, clipping included); ``"condorcet"``: the weighted-majority
        Condorcet winner, ``"borda"`` (averaged ties), ``"copeland"`` (wins minus losses by
        weighted majority), ``"minimax"`` (the smallest worst defeat) and ``"kemeny"`` (first
        in some optimal Kemeny ranking; alone: in every one; :mod:`._possible_kemeny`: bounds
        from the majority structure at any size, enumeration on small boards, the rest None
        with ``decided_by`` saying why); ``"plurality"``, ``"dowdall"``, ``"scoring"``,
        ``"rank_complement"``, ``"top_ten"``, ``"eurovision"`` (and ``"borda"`` with ``ties``
        ``"min"`` or ``"max"``; :mod:`._possible_positional`): the ``"positions"`` model.
    bounds : mapping task -> (low, high), optional
        ``"mean"`` and ``"normalized_mean"``: the values a missing cell of each task may
        take, in the task's own units; other tasks use their observed minimum and maximum.
    time_limit : float, optional
        The rules of :data:`SEARCHED_RULES` (Borda, Copeland, Minimax, the positional rules):
        seconds for each system's integer programs together (their builds included; each round
        of constraint generation gets what the earlier ones left, and the necessary-winner
        programs of a system share another such limit); a system whose search stops there
        undecided has `possible` None and its solver status in ``decided_by`` (all but Borda
        with averaged ties: `necessary` None likewise). None (the default): no limit.
    rule_options : mapping, optional
        The rule's own options: ``"normalized_mean"``: ``baseline``, ``maximum`` and
        ``clip`` (:func:`consensus.rules.normalized_mean`); ``"copeland"``, ``"minimax"``:
        ``variant``; the positional rules: ``ties`` (``"average"``, ``"min"``, ``"max"``), and
        ``vector`` for ``"scoring"``. The rule's defaults otherwise.
    budget : float, optional
        The rules of :data:`SEARCHED_RULES`: seconds for the whole call. The systems are
        searched in turn and each integer program gets at most the budget left (and at most
        `time_limit`); once it is spent, no more programs are built or solved, so only the bounds and
        greedy completions still decide (the others are undecided and say so), and the
        pivotal cells' searches stop (what the known witnesses leave open is in
        ``pivotal_undecided``). A program's build checks it between the board's tasks, so
        the call overruns it by about one task's share of a build, plus HiGHS's own stop.
        None (the default): no total.
    pivotal : bool, default=True
        The rules of :data:`SEARCHED_RULES`: find the missing cells that can still
        change who can win (``pivotal``; :mod:`._pivotal_search`): a search on the board with
        the cell fixed, for each possible winner, missing cell and position class its known
        witnesses do not settle, within `time_limit` and `budget`. Often several times the
        cost of the possible winners themselves; False leaves ``pivotal`` None. The mean, the
        normalized mean and the Condorcet winner give the pivotal cells in closed form,
        always; ``"kemeny"`` does not compute them (``pivotal`` None).

    Returns
    -------
    PossibleWinners
        Per system, possible / necessary (strict and not), a witness completion for each
        possible winner and the rivals that beat each impossible one in its best completion.

    Raises
    ------
    InvalidOptionError
        An unknown rule, a `time_limit` that is not a positive number of seconds, `bounds`
        with a rule of the positions model, a bound that is not a
        finite (low, high) pair with low <= high, or a task with no scored system and no
        bounds (``"mean"``), or `rule_options` that the rule does not take (a bad value is
        refused by the rule itself, naming the option).
    {bounds_unknown_task}

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7], "nli": [0.6, None, 0.5]}, index=["a", "b", "c"])
    >>> res = cs.missing.possible_winners(cs.Leaderboard.from_frame(frame))
    >>> res.possible_winners, res.necessary_winners, dict(res.beaten_by)  # b's nli lies in [0.5, 0.6]
    (('a',), ('a',), {'b': ('a',), 'c': ('a', 'b')})
    >>> wide = cs.missing.possible_winners(cs.Leaderboard.from_frame(frame), bounds={"nli": (0.0, 1.0)})
    >>> wide.possible_winners, wide.necessary_winners, dict(wide.witnesses["b"])   # nli may be anywhere in [0, 1]
    (('a', 'b'), (), {'b|nli': 1.0})
    """
    lb, model, time_limit, options = _checked("possible_winners", POSSIBLE_RULES, data, rule, bounds, time_limit,
                                              rule_options)
    if budget is not None:
        budget = check_seconds(budget, "budget")
    pivotal = check_flag(pivotal, "pivotal")
    if rule in SEARCHED_RULES:
        return _searched(lb, rule, time_limit, options, budget, pivotal)
    top, bottom, used = _extremes(lb, model, bounds)
    if rule == "kemeny":
        return _kemeny_possible(lb, top, bottom)
    holes = lb.missing.to_numpy()
    values = lb.scores.to_numpy(dtype=np.float64)  # in each task's own units (lb.values is oriented)
    possible: list[bool] = []
    possible_strict: list[bool] = []
    necessary: list[bool] = []
    necessary_strict: list[bool] = []
    witnesses: dict[str, dict[str, float]] = {}
    beaten_by: dict[str, tuple[str, ...]] = {}
    if model == "bounds":  # separable: every system's best and worst score, from two runs of the rule
        high = _run(lb, rule, np.where(holes, top, values), options)[0].scores.to_numpy(dtype=np.float64)
        low = _run(lb, rule, np.where(holes, bottom, values), options)[0].scores.to_numpy(dtype=np.float64)
    else:  # every pair's weighted majority margin in the first system's best and worst completion
        sign = np.where([t in lb.lower_is_better for t in lb.tasks], -1.0, 1.0)
        up, down = sign * np.where(holes, top, values), sign * np.where(holes, bottom, values)
        w = np.asarray(lb.weight_array, dtype=np.float64)
        thr = 1e-9 * max(1.0, float(w.sum()))
    for i, system in enumerate(lb.systems):
        mine = np.zeros_like(holes)
        mine[i] = True
        others = np.arange(lb.n_systems) != i
        if model == "bounds":
            best_scores, worst_scores = low.copy(), high.copy()
            best_scores[i], worst_scores[i] = high[i], low[i]
            best_first, worst_first = _first(lb.systems, best_scores), _first(lb.systems, worst_scores)
        else:  # first = the Condorcet winner: beats every rival strictly (one row at a time: n x T memory)
            best_margin = (np.sign(up[i] - down) * w).sum(axis=1)
            worst_margin = (np.sign(down[i] - up) * w).sum(axis=1)
            best_first = (system,) if (best_margin[others] > thr).all() else ()
            worst_first = (system,) if (worst_margin[others] > thr).all() else ()
        possible.append(system in best_first)
        possible_strict.append(best_first == (system,))
        necessary.append(system in worst_first)
        necessary_strict.append(worst_first == (system,))
        if possible[-1]:  # every missing cell of the completion that makes it first
            filled = np.where(holes & mine, top, bottom)
            witnesses[system] = {f"{s}|{t}": float(filled[j, k]) for j, s in enumerate(lb.systems)
                                 for k, t in enumerate(lb.tasks) if holes[j, k]}
            check = _run(lb, rule, np.where(holes, filled, values), options)[0].winners  # the witness, through the rule
            if system not in check or (possible_strict[-1] and check != (system,)):
                raise RuntimeError(f"possible_winners: the witness of {system!r} does not make it first")
        elif model == "bounds":  # the rivals still ahead in its best completion
            beaten_by[system] = tuple(lb.systems[k] for k in np.flatnonzero(best_scores > best_scores[i]) if k != i)
        else:  # the rivals it does not beat strictly by weighted majority in its best completion
            beaten_by[system] = tuple(lb.systems[k] for k in np.flatnonzero(others & (best_margin <= thr)))
    return PossibleWinners(
        rule=rule, model=model, systems=lb.systems, possible=tuple(possible), possible_strict=tuple(possible_strict),
        necessary=tuple(necessary), necessary_strict=tuple(necessary_strict), witnesses=witnesses, beaten_by=beaten_by,
        n_missing_cells=int(holes.sum()), bounds=used,
        pivotal=_pivotal(lb, rule, top, bottom, [s for s, p in zip(lb.systems, possible) if p], options),
        rule_options=dict(options),
    )


def _kemeny_possible(lb: Leaderboard, top: np.ndarray, bottom: np.ndarray) -> PossibleWinners:
    """possible_winners under Kemeny (:mod:`._possible_kemeny`), every witness re-checked by the exact
    solver: the optimum with the system forced first equals the optimum."""
    from ..exact._kemeny import kemeny
    from ..majority._pairwise import pairwise
    from ._possible_kemeny import kemeny_verdicts

    values = np.array(lb.values, dtype=np.float64)
    sign = np.where([t in lb.lower_is_better for t in lb.tasks], -1.0, 1.0)
    holes = np.isnan(values)
    w = np.asarray(lb.weight_array, dtype=np.float64)
    verdicts = kemeny_verdicts(values, w, np.where(holes, sign * top, values), np.where(holes, sign * bottom, values))
    witnesses: dict[str, dict[str, float]] = {}
    beaten_by: dict[str, tuple[str, ...]] = {}
    tol = 1e-9 * max(1.0, float(w.sum()) * lb.n_systems ** 2)
    for i, (system, v) in enumerate(zip(lb.systems, verdicts)):
        if v.possible and v.witness is not None:
            frame = pd.DataFrame(sign * v.witness, index=pd.Index(lb.systems, dtype=object),
                                 columns=pd.Index(lb.tasks, dtype=object))
            with warnings.catch_warnings():  # a completion can make a task constant: already said of the scores
                warnings.simplefilter("ignore", DegenerateTaskWarning)
                completed = with_scores(lb, frame)
                margins = np.delete(pairwise(completed).majority[i], i)  # exact signs of its margins
                if v.decided_by.startswith("condorcet bounds"):  # a (weak) Condorcet winner there: first in an optimum
                    ok = bool((margins >= 0).all() and (not v.witness_alone or (margins > 0).all()))
                else:  # enumeration (small boards): the optimum with it forced first equals the optimum
                    best = kemeny(completed, min_coverage=0)
                    rest = kemeny(completed.select(systems=[s for s in lb.systems if s != system]), min_coverage=0)
                    forced = float(pairwise(completed).preferences[:, i].sum()) + rest.objective
                    ok = best.optimal and rest.optimal and forced <= best.objective + tol
            if not ok:
                raise RuntimeError(f"possible_winners: the witness of {system!r} does not make it a Kemeny winner")
            witnesses[system] = _raw_cells(lb, v.witness)
        elif v.possible is False:
            beaten_by[system] = tuple(lb.systems[k] for k in v.beaten_by)
    return PossibleWinners(
        rule="kemeny", model="positions", systems=lb.systems, possible=tuple(v.possible for v in verdicts),
        possible_strict=tuple(v.possible_strict for v in verdicts), necessary=tuple(v.necessary for v in verdicts),
        necessary_strict=tuple(v.necessary_strict for v in verdicts), witnesses=witnesses, beaten_by=beaten_by,
        n_missing_cells=int(holes.sum()), decided_by=tuple(v.decided_by for v in verdicts),
    )


def _first(systems: tuple[str, ...], scores: np.ndarray) -> tuple[str, ...]:
    """The systems of the first tie group of `scores`, grouped as the rules group them."""
    from ..rules.spec import tiers

    return tiers(systems, scores)[0]


def _pivotal(lb: Leaderboard, rule: str, top: np.ndarray, bottom: np.ndarray,
             winners: list[str], options: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    """Per missing cell that can change the possible winners, the possible winners it can knock out.

    Fixing a cell only removes completions, so it can only shrink the set of possible winners.
    A possible winner ``i`` stays possible whatever one cell holds iff it is still first in its
    best completion with that cell at its worst for ``i``: its own cell at the task's worst
    value (bounds) or below every scored system (positions), a rival's at the best (bounds) or
    above ``i`` (positions; no change when ``i``'s own cell on that task is missing, since it
    can still be placed above). The means and the Condorcet winner change in closed form: a
    mean by the cell's weighted span (of its normalized values under ``normalized_mean``, whose
    normalization is fixed per task), a majority margin by twice the task's weight.
    """
    holes = lb.missing.to_numpy()
    w = np.asarray(lb.weight_array, dtype=np.float64)
    raw = lb.scores.to_numpy(dtype=np.float64)
    low_better = np.array([t in lb.lower_is_better for t in lb.tasks])
    sign = np.where(low_better, -1.0, 1.0)
    out: dict[str, list[str]] = {}
    rows, cols = np.nonzero(holes)
    if rule == "normalized_mean":  # each cell's contribution, normalized (oriented): fixed per task
        high = _run(lb, rule, np.where(holes, top, raw), options)[0].details["normalized"].to_numpy(dtype=np.float64)
        low = _run(lb, rule, np.where(holes, bottom, raw), options)[0].details["normalized"].to_numpy(dtype=np.float64)
    else:
        high, low = sign * np.where(holes, top, raw), sign * np.where(holes, bottom, raw)
    span = np.abs(high - low)[rows, cols] * w[cols] / w.sum()  # the mean's move per cell
    thr = 1e-9 * max(1.0, float(w.sum()))
    for system in winners:
        i = lb.systems.index(system)
        mine = np.zeros_like(holes)
        mine[i] = True
        own = rows == i
        if rule != "condorcet":
            scores = np.where(mine, high, low) @ w / w.sum()  # its best completion: own cells high, the rest low
            rivals = np.delete(scores, i)
            top_rival = float(rivals.max(initial=-np.inf))

            def ahead(a: np.ndarray, b: np.ndarray) -> np.ndarray:  # a strictly above b, as the rules' tiers
                return a - b > SCORE_TOL * np.maximum(1.0, np.maximum(np.abs(a), np.abs(b)))

            drops = np.where(own, ahead(np.full(len(rows), top_rival), scores[i] - span),
                             ahead(scores[rows] + span, np.full(len(rows), scores[i])))
        else:
            best = sign * np.where(holes & mine, top, np.where(holes, bottom, raw))  # oriented
            margins = (np.sign(best[i] - best) * w).sum(axis=1)  # i's weighted majority margin over each rival
            others = np.arange(lb.n_systems) != i
            scored = ~holes  # own cell below every scored rival: each such margin falls by 2 w
            worst_own = np.array([(margins[others & scored[:, c]] - 2.0 * w[c]).min(initial=np.inf)
                                  for c in range(lb.n_tasks)])
            worst_own = np.minimum(worst_own, margins[others].min(initial=np.inf))
            drops = np.where(own, worst_own[cols] <= thr,
                             ~holes[i, cols] & (margins[rows] - 2.0 * w[cols] <= thr))
        for j, k in zip(rows[drops], cols[drops]):
            out.setdefault(f"{lb.systems[j]}|{lb.tasks[k]}", []).append(system)
    return {cell: tuple(v) for cell, v in sorted(out.items())}


def _extremes(lb: Leaderboard, model: str, bounds: Mapping[str, tuple[float, float]] | None
              ) -> tuple[np.ndarray, np.ndarray, dict[str, tuple[float, float]] | None]:
    """Per cell, the best and the worst value a missing cell of its task may take (raw units)."""
    raw = lb.scores.to_numpy(dtype=np.float64)
    low_better = np.array([t in lb.lower_is_better for t in lb.tasks])
    given = dict(bounds or {})
    for t in given:
        if t not in lb.tasks:
            raise UnknownTaskError(t, lb.tasks, "bounds")
    lo = np.empty(lb.n_tasks)
    hi = np.empty(lb.n_tasks)
    used: dict[str, tuple[float, float]] = {}
    for k, t in enumerate(lb.tasks):
        scored = raw[:, k][~np.isnan(raw[:, k])]
        if t in given:
            pair = given[t]
            try:
                low, high = (float(x) for x in pair)
            except (TypeError, ValueError):
                raise InvalidOptionError(f"bounds of task {t!r} must be a (low, high) pair of numbers, got {pair!r}") from None
            if not (np.isfinite(low) and np.isfinite(high)) or low > high:
                raise InvalidOptionError(f"bounds of task {t!r} must be finite with low <= high, got {pair!r}")
        elif scored.size:
            low, high = float(scored.min()), float(scored.max())
            if model == "positions":  # strictly outside every score: any position, first or last
                low, high = float(np.nextafter(low, -np.inf)), float(np.nextafter(high, np.inf))
        elif model == "positions":
            low, high = 0.0, 1.0
        else:
            raise InvalidOptionError(f"possible_winners: task {t!r} has no scored system; give its bounds=(low, high)")
        lo[k], hi[k] = low, high
        used[t] = (low, high)
    best = np.where(low_better, lo, hi)
    worst = np.where(low_better, hi, lo)
    shape = (lb.n_systems, lb.n_tasks)
    return np.broadcast_to(best, shape), np.broadcast_to(worst, shape), (used if model == "bounds" else None)


def _run(lb: Leaderboard, rule: str, values: np.ndarray, options: Mapping[str, Any] | None = None
         ) -> tuple[Any, Leaderboard]:
    """The rule on `lb` with every cell of `values` (a completion, every system ranked), and the completed board."""
    from ..rules import rank

    frame = pd.DataFrame(values, index=pd.Index(lb.systems, dtype=object), columns=pd.Index(lb.tasks, dtype=object))
    completed = with_scores(lb, frame)
    with warnings.catch_warnings():  # a completion can make a task constant: already said of the scores
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return rank(completed, rule, min_coverage=0, **dict(options or {})), completed


def _raw_cells(lb: Leaderboard, oriented: np.ndarray) -> dict[str, float]:
    """The missing cells of a completion given in oriented scores, in each task's own units."""
    holes = lb.missing.to_numpy()
    low_better = np.array([t in lb.lower_is_better for t in lb.tasks])
    raw = np.where(low_better, -oriented, oriented)
    return {f"{s}|{t}": float(raw[j, k]) for j, s in enumerate(lb.systems) for k, t in enumerate(lb.tasks) if holes[j, k]}


class _Budget:
    """The seconds left of a total `budget` (None: none); :meth:`limit` is one program's limit."""

    def __init__(self, budget: float | None, time_limit: float | None) -> None:
        import time

        self.clock = time.perf_counter
        self.deadline = None if budget is None else self.clock() + budget
        self.time_limit = time_limit
        self.spent = False

    def over(self) -> bool:
        """Whether the budget is spent (then also :attr:`spent`)."""
        if self.deadline is not None and self.clock() >= self.deadline:
            self.spent = True
        return self.spent

    def limit(self) -> float | None:
        if self.deadline is None:
            return self.time_limit
        left = self.deadline - self.clock()
        if left <= 0:
            self.spent = True
        left = max(left, 0.0)  # spent: 0, and the programs return at once, unbuilt
        return left if self.time_limit is None else min(self.time_limit, left)


def _searched(lb: Leaderboard, rule: str, time_limit: float | None, options: Mapping[str, Any],
              budget: float | None = None, pivotal: bool = True) -> PossibleWinners:
    """possible_winners under Borda, Copeland or Minimax: bounds, a greedy completion, then integer programs."""
    from ._pivotal_search import searched_pivotal
    from ._possible_borda import (
        _improve,
        _scores,
        board_arrays,
        borda_search,
        pair_bounds,
        tolerance,
    )
    from ._possible_majority import MajorityBoard, majority_necessary, majority_search
    from ._possible_majority import _improve as majority_improve
    from ._possible_positional import (
        PositionalBoard,
        positional_necessary,
        positional_search,
    )

    values, weights = board_arrays(lb)
    n = lb.n_systems
    necessary: list[bool | None] = []
    necessary_strict: list[bool | None] = []
    kind = ("borda" if rule == "borda" and options.get("ties", "average") == "average"
            else "majority" if rule in ("copeland", "minimax") else "positional")
    board: Any
    if kind == "borda":  # averaged ties: points linear in the pairwise relations (its own model)
        upper = pair_bounds(values, weights)  # upper[k, i]: the most k can score above i
        tol = tolerance(weights, n)
        necessary = [bool((upper[:, i] <= tol).all()) for i in range(n)]
        necessary_strict = [bool((np.delete(upper[:, i], i) < -tol).all()) for i in range(n)]
    elif kind == "majority":
        board = MajorityBoard.of(values, weights, rule, str(options.get("variant", "winning_votes")))
    else:
        board = PositionalBoard.of(values, weights, rule, str(options.get("ties", "average")), options.get("vector"))
    possible: list[bool | None] = []
    possible_strict: list[bool | None] = []
    witnesses: dict[str, dict[str, float]] = {}
    beaten_by: dict[str, tuple[str, ...]] = {}
    decided_by: list[str] = []
    programs = 0
    clock = _Budget(budget, time_limit)
    found_witness: dict[int, np.ndarray] = {}
    program_bounds: dict[str, tuple[float | None, float | None]] = {}
    # under a total budget, every system's bounds and searches first, then the integer programs of
    # those still open while the budget lasts (programs are the costly step, and seldom decide more)
    defer = budget is not None
    answers, cut = [], []  # cut: the budget ran out before or during the system's own steps
    for i in range(n):
        answers.append(borda_search(values, weights, upper, i, clock.limit(), defer) if kind == "borda"
                       else majority_search(board, i, clock.limit(), defer) if kind == "majority"
                       else positional_search(board, i, clock.limit(), defer))
        cut.append(clock.over())
    for i, found in enumerate(answers):
        if found.resume is not None:
            answers[i] = found.resume(clock.limit())
            cut[i] = clock.over()  # the budget ran out before or during this system's programs
    for i, system in enumerate(lb.systems):
        found = answers[i]
        programs += found.programs
        if found.margin is not None or found.bound is not None:
            program_bounds[system] = (found.margin, found.bound)
        possible.append(found.possible)
        possible_strict.append(found.possible_strict)
        decided_by.append(found.decided_by + (BUDGET_SPENT if cut[i] and found.possible is None else ""))
        if found.witness is not None and found.possible:
            board_i = with_scores(lb, pd.DataFrame(np.where([t in lb.lower_is_better for t in lb.tasks],
                                                            -found.witness, found.witness),
                                                   index=pd.Index(lb.systems, dtype=object),
                                                   columns=pd.Index(lb.tasks, dtype=object)))
            check, _ = _run(board_i, rule, board_i.scores.to_numpy(dtype=np.float64), options)
            if system not in check.winners or (found.possible_strict and check.winners != (system,)):
                raise RuntimeError(f"possible_winners: the witness of {system!r} does not make it first under {rule}")
            witnesses[system] = _raw_cells(lb, found.witness)
            found_witness[i] = found.witness
        elif found.possible is False:
            beaten_by[system] = tuple(lb.systems[k] for k in found.beaten_by)
    if kind != "borda":  # necessary winners are possible ones, and none beside a system first alone somewhere
        for i in range(n):
            if possible[i] is False or any(possible_strict[j] for j in range(n) if j != i):
                necessary.append(False)
                necessary_strict.append(False)
                continue
            first, alone, solved = (majority_necessary(board, i, clock.limit()) if kind == "majority"
                                    else positional_necessary(board, i, clock.limit()))
            programs += solved
            necessary.append(first)
            necessary_strict.append(alone)
    if not pivotal:
        cells = None
    elif kind == "positional":
        ties, vector = str(options.get("ties", "average")), options.get("vector")
        cells = searched_pivotal(
            values, weights, found_witness, board.scores,
            lambda fixed, k: positional_search(PositionalBoard.of(fixed, weights, rule, ties, vector), k, clock.limit()),
            board.tol, borda=False, repair=None, spent=clock.over)
    elif rule == "borda":
        cells = searched_pivotal(
            values, weights, found_witness, lambda c: _scores(c, weights),
            lambda fixed, k: borda_search(fixed, weights, pair_bounds(fixed, weights), k, clock.limit()),
            tolerance(weights, n), borda=True, repair=lambda fixed, start, k: _improve(fixed, weights, k, start),
            spent=clock.over)
    else:
        variant = str(options.get("variant", "winning_votes"))
        cells = searched_pivotal(
            values, weights, found_witness, board.scores,
            lambda fixed, k: majority_search(MajorityBoard.of(fixed, weights, rule, variant), k, clock.limit()),
            board.tol, borda=False,
            repair=(lambda fixed, start, k: majority_improve(fixed, weights, board.step, k, start))
            if rule == "copeland" else None,  # the local search of the Copeland possible-winner search
            spent=clock.over, mover=board.mover)
    programs += cells.programs if cells is not None else 0

    def named(found: dict[tuple[int, int], list[int]] | None) -> dict[str, tuple[str, ...]] | None:
        if found is None:
            return None
        return {f"{lb.systems[x]}|{lb.tasks[t]}": tuple(lb.systems[w] for w in sorted(ws))
                for (x, t), ws in sorted(found.items())}

    return PossibleWinners(
        rule=rule, model="positions", systems=lb.systems, possible=tuple(possible),
        possible_strict=tuple(possible_strict), necessary=tuple(necessary), necessary_strict=tuple(necessary_strict),
        witnesses=witnesses, beaten_by=beaten_by, n_missing_cells=int(lb.missing.to_numpy().sum()),
        decided_by=tuple(decided_by), programs=programs, rule_options=dict(options),
        pivotal=named(None if cells is None else cells.pivotal),
        pivotal_undecided=named(None if cells is None else cells.undecided), program_bounds=program_bounds,
    )


#: The rules :func:`rank_ranges` decides, and the completion model of each.
RANGE_RULES: Mapping[str, str] = {"mean": "bounds", "normalized_mean": "bounds", "borda": "positions",
                                  "copeland": "positions", "minimax": "positions", "plurality": "positions", "dowdall": "positions",
                                  "scoring": "positions", "rank_complement": "positions", "top_ten": "positions",
                                  "eurovision": "positions"}


@fill_doc(SECTIONS)
def rank_ranges(
    data: Leaderboard | Prepared,
    rule: str = "mean",
    *,
    bounds: Mapping[str, tuple[float, float]] | None = None,
    time_limit: float | None = None,
    rule_options: Mapping[str, Any] | None = None,
) -> RankRanges:
    """Each system's best and worst position over every completion of the missing scores.

    Parameters
    ----------
    data : Leaderboard or Prepared
        The scores (no system is set aside: the question is what each could still reach).
    rule : str, default="mean"
        One of :data:`RANGE_RULES`. ``"mean"``, ``"normalized_mean"`` (``"bounds"`` model): exact in closed form, one completion per end (the
        system's own missing cells at their best and every rival's at its worst, and the
        reverse). ``"borda"``, ``"copeland"`` and the other positional rules (``"positions"``
        model): bounds, greedy completions (Copeland: and a local search), then integer
        programs minimizing the rivals ahead (the worst end on the reversed board, every task
        read the other way round, which negates Borda's and Copeland's scores, and a scoring
        vector's under the vector ``-points[::-1]``; ``"minimax"``: each end its own program).
    bounds : mapping task -> (low, high), optional
        ``"mean"`` only, as in :func:`possible_winners`.
    time_limit : float, optional
        The positions model: seconds for each end of each system (its programs together, their
        builds included); a system whose programs stop there gets its best-found positions and
        proven bounds, with `exact` False.
    rule_options : mapping, optional
        As in :func:`possible_winners` (``"normalized_mean"``'s options; ``"copeland"``'s
        ``variant``, whose two values order the systems the same; the positional rules'
        ``ties`` and ``"scoring"``'s ``vector``).

    Returns
    -------
    RankRanges

    Raises
    ------
    InvalidOptionError
        An unknown rule, a bad `time_limit`, or `bounds` as in :func:`possible_winners`.
    {bounds_unknown_task}

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7], "nli": [0.6, None, 0.5]}, index=["a", "b", "c"])
    >>> res = cs.missing.rank_ranges(cs.Leaderboard.from_frame(frame), bounds={"nli": (0.0, 1.0)})
    >>> list(zip(res.systems, res.best, res.worst))   # b: first with nli above 0.7, last below 0.6
    [('a', 1, 2), ('b', 1, 3), ('c', 2, 3)]
    """
    lb, model, time_limit, options = _checked("rank_ranges", RANGE_RULES, data, rule, bounds, time_limit, rule_options)
    from ..rules import rank

    median = rank(lb, rule, missing="median", min_coverage=0, **options)
    median_position = tuple(_positions(median.ranking, lb.systems)[0])
    if model == "bounds":
        return _mean_ranges(lb, rule, options, bounds, median_position)
    return _searched_ranges(lb, rule, time_limit, median_position, options)


def _checked(name: str, rules: Mapping[str, str], data: object, rule: str,
             bounds: Mapping[str, tuple[float, float]] | None, time_limit: float | None,
             rule_options: Mapping[str, Any] | None) -> tuple[Leaderboard, str, float | None, dict[str, Any]]:
    """The options of `name` (possible_winners or rank_ranges), checked once: board, model, time limit, rule options."""
    lb = data.leaderboard if isinstance(data, Prepared) else data
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"{name} needs a Leaderboard, got {type(data).__name__}")
    if rule not in rules:
        raise InvalidOptionError(
            f"{name}: rule must be one of {', '.join(map(repr, rules))}, got {rule!r} "
            "(the other rules are not covered yet)"
        )
    if bounds is not None and rules[rule] != "bounds":
        raise InvalidOptionError(f"{name}: bounds apply to score rules; rule {rule!r} only uses positions")
    options = dict(rule_options or {})
    allowed = {"normalized_mean": {"baseline", "maximum", "clip"}, "copeland": {"variant"},
               "minimax": {"variant"}, "scoring": {"ties", "vector"}}.get(rule, set())
    if rule in SEARCHED_RULES and rule not in ("copeland", "minimax", "scoring"):
        allowed = {"ties"}
    variants = {"copeland": ("wins_minus_losses", "wins_plus_half_ties"),
                "minimax": ("winning_votes", "margins", "pairwise_opposition")}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise InvalidOptionError(f"{name}: rule_options {', '.join(map(repr, unknown))} do not apply to rule {rule!r} "
                                 + (f"(it takes {', '.join(sorted(allowed))})" if allowed else "(it takes none here)"))
    if "ties" in options:  # the positional rules' own check
        from ..rules.positional import check_ties

        check_ties(options["ties"], rule)
    if "variant" in options and rule in variants and options["variant"] not in variants[rule]:
        raise InvalidOptionError(f"{name}: rule {rule!r} takes variant {' or '.join(map(repr, variants[rule]))}, "
                                 f"got {options['variant']!r}")
    return lb, rules[rule], check_seconds(time_limit, "time_limit"), options


def _positions(ranking: tuple[tuple[str, ...], ...], systems: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """Per system, 1 + the systems strictly ahead, and the systems ahead or tied (itself included)."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    seen = 0
    for group in ranking:
        for s in group:
            first[s], last[s] = seen + 1, seen + len(group)
        seen += len(group)
    return [first[s] for s in systems], [last[s] for s in systems]


def _mean_ranges(lb: Leaderboard, rule: str, options: Mapping[str, Any], bounds: Mapping[str, tuple[float, float]] | None,
                 median_position: tuple[int, ...]) -> RankRanges:
    """Score rules: a system's score moves only with its own cells, so two runs of the rule give every
    system's best and worst score, and each end is the ranking of one vector of them (the system at
    one extreme, every rival at the other), grouped into ties as the rules group them."""
    from ..rules.spec import tiers

    top, bottom, _ = _extremes(lb, "bounds", bounds)
    holes = lb.missing.to_numpy()
    values = lb.scores.to_numpy(dtype=np.float64)
    high = _run(lb, rule, np.where(holes, top, values), options)[0].scores.to_numpy(dtype=np.float64)
    low = _run(lb, rule, np.where(holes, bottom, values), options)[0].scores.to_numpy(dtype=np.float64)
    rows, cols = np.nonzero(holes)
    keys = [f"{lb.systems[j]}|{lb.tasks[k]}" for j, k in zip(rows, cols)]
    best: list[int] = []
    worst: list[int] = []
    witnesses: dict[str, dict[str, dict[str, float]]] = {}
    for i, system in enumerate(lb.systems):
        for end, (mine, theirs) in (("best", (high, low)), ("worst", (low, high))):
            scores = theirs.copy()
            scores[i] = mine[i]
            first, last = _positions(tiers(lb.systems, scores), lb.systems)
            (best if end == "best" else worst).append(first[i] if end == "best" else last[i])
        own = rows == i  # its own cells at one extreme, every other missing cell at the other
        up = np.where(own, top[rows, cols], bottom[rows, cols]).tolist()
        down = np.where(own, bottom[rows, cols], top[rows, cols]).tolist()
        witnesses[system] = {"best": dict(zip(keys, up)), "worst": dict(zip(keys, down))}
    n = lb.n_systems
    return RankRanges(rule=rule, model="bounds", systems=lb.systems, best=tuple(best), worst=tuple(worst),
                      best_bound=tuple(best), worst_bound=tuple(worst), exact=(True,) * n,
                      median_position=median_position, witnesses=witnesses, decided_by=("one completion",) * n)


def _best_position_search(rule: str, oriented: np.ndarray, weights: np.ndarray, time_limit: float | None,
                          options: Mapping[str, Any], reverse: bool) -> Callable[[int], Any]:
    """``search(i)``: system i's best position on the board `oriented` (a BestPosition), the board
    read the other way round when `reverse` (``oriented`` is then already negated)."""
    from ._possible_borda import best_position, pair_bounds
    from ._possible_majority import (
        MajorityBoard,
        copeland_best_position,
        minimax_position,
    )
    from ._possible_positional import PositionalBoard, positional_best_position

    if rule == "minimax":  # no symmetry: the worst end has its own program, on the board itself
        board_m = MajorityBoard.of(-oriented if reverse else oriented, weights, "minimax",
                                   str(options.get("variant", "winning_votes")))
        if not reverse:
            return lambda i: minimax_position(board_m, i, time_limit)

        def worst(i: int) -> Any:
            found = minimax_position(board_m, i, time_limit, end="worst")
            return dataclasses.replace(found, witness=-found.witness)  # in the reversed frame, as the caller reads it

        return worst
    if rule not in ("borda", "copeland") or options.get("ties", "average") != "average":
        ties, vector = str(options.get("ties", "average")), options.get("vector")
        positional = PositionalBoard.of(-oriented if reverse else oriented, weights, rule, ties, vector)
        positional = positional.reversed() if reverse else positional
        return lambda i: positional_best_position(positional, i, time_limit)
    if rule == "borda":
        upper = pair_bounds(oriented, weights)
        return lambda i: best_position(oriented, weights, upper, i, time_limit)
    board = MajorityBoard.of(oriented, weights, "copeland")
    return lambda i: copeland_best_position(board, i, time_limit)


def _searched_ranges(lb: Leaderboard, rule: str, time_limit: float | None, median_position: tuple[int, ...],
                     options: Mapping[str, Any]) -> RankRanges:
    """Borda, Copeland, Minimax and positional ranges: each end a best-position search, the worst on
    the reversed board (every task read the other way round negates Borda's and Copeland's scores,
    and a scoring vector's under the vector ``-points[::-1]``; Minimax's worst end is its own
    program, its witness handed over in the reversed frame)."""
    from ._possible_borda import board_arrays

    values, weights = board_arrays(lb)
    n = lb.n_systems
    search = [_best_position_search(rule, oriented, weights, time_limit, options, reverse)
              for oriented, reverse in ((values, False), (-values, True))]
    best, worst, best_bound, worst_bound, exact, decided_by = [], [], [], [], [], []
    witnesses: dict[str, dict[str, dict[str, float]]] = {}
    programs = 0
    for i, system in enumerate(lb.systems):
        high = search[0](i)
        low = search[1](i)  # the reversed board's best = our worst
        programs += high.programs + low.programs
        best.append(high.found)
        best_bound.append(high.lower)
        worst.append(n + 1 - low.found)
        worst_bound.append(n + 1 - low.lower)
        exact.append(high.found == high.lower and low.found == low.lower)
        decided_by.append(high.decided_by if high.decided_by == low.decided_by else f"{high.decided_by} / {low.decided_by}")
        witnesses[system] = {"best": _raw_cells(lb, high.witness), "worst": _raw_cells(lb, -low.witness)}
    return RankRanges(rule=rule, model="positions", systems=lb.systems, best=tuple(best), worst=tuple(worst),
                      best_bound=tuple(best_bound), worst_bound=tuple(worst_bound), exact=tuple(exact),
                      median_position=median_position, witnesses=witnesses, decided_by=tuple(decided_by),
                      programs=programs)
