"""What to evaluate next under Borda, Copeland and Minimax: the missing cells that can change who can win.

A missing cell is *pivotal* when fixing it at some value knocks a possible winner out (fixing a
cell only removes completions, so the set of possible winners can only shrink). Under the
positions model a cell's values fall into a few classes: tied with each scored group of its
task, or strictly between two of them (above the first, below the last); any value of a
class is as good as another, since the task's other missing cells stay free on both sides
of it. So a cell is pivotal for a possible winner ``w`` iff ``w`` is impossible on the board
with that cell fixed at some class, which is the question the searches already answer:

1. **Own cells: one class.** Raising ``w`` on a task only changes its own comparisons, in its
   favour, under all three rules; so ``w``'s own cell knocks it out iff it does at the
   bottom of its task.
2. **The witness, moved.** ``w``'s witness completion with the cell moved to the class is a
   completion of the fixed board: when ``w`` is still first there, the class keeps it
   possible (Borda: the moved cell's task rescored in closed form, every class at once).
3. **A local search** on the fixed board from the witness with the cell moved (Copeland: the
   possible-winner search's own, one missing cell moved at a time; Borda: rivals' cells moved
   just below the winner while they stay behind it; none for Minimax): a witness when it ends
   first.
4. **The search on the fixed board** (bounds, greedy completions, integer programs, as for
   the possible winners) for the classes the witness does not settle: impossible there
   means pivotal; a search that stops at its time limit leaves the pair undecided
   (``pivotal_undecided``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ._possible_borda import SearchAnswer

__all__ = ["PivotalCells", "classes", "searched_pivotal"]


@dataclass
class PivotalCells:
    """Per missing cell (``(system, task)`` indices), the possible winners it can knock out, proven
    (`pivotal`) or not decided within the time limit (`undecided`); the programs solved."""

    pivotal: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    undecided: dict[tuple[int, int], list[int]] = field(default_factory=dict)
    programs: int = 0


def classes(column: np.ndarray) -> np.ndarray:
    """One oriented value per class of a missing cell of the task `column` (NaN where missing):
    above the best score, tied with each score, strictly between two, below the worst; best first.

    Parameters
    ----------
    column : numpy.ndarray
        One task's oriented scores, NaN where missing.

    Returns
    -------
    numpy.ndarray
        ``2 g + 1`` values for ``g`` distinct scores (one value when none is scored).

    Examples
    --------
    >>> classes(np.array([2.0, np.nan, 1.0])).tolist()
    [3.0, 2.0, 1.5, 1.0, 0.0]
    """
    scored = np.unique(column[~np.isnan(column)])[::-1]
    if not scored.size:
        return np.zeros(1)
    with np.errstate(over="ignore"):  # scores near the float64 limit: an infinite span, the ends below
        span = float(scored[0] - scored[-1]) if scored.size > 1 else 1.0
    # a step that moves the scores' magnitude (1 beside 1e300 would vanish in rounding)
    span = max(span if span > 0 else 1.0, 1e-6 * float(np.abs(scored).max()))
    gaps = scored[:-1] / 2.0 + scored[1:] / 2.0  # halves first: no overflow near the float64 limit
    out = np.empty(2 * scored.size + 1)
    with np.errstate(over="ignore"):
        out[0], out[-1] = scored[0] + span, scored[-1] - span
    if not np.isfinite(out[0]):  # past the largest float: the next one up (infinite only above it)
        out[0] = np.nextafter(scored[0], np.inf)
    if not np.isfinite(out[-1]):
        out[-1] = np.nextafter(scored[-1], -np.inf)
    out[1::2] = scored
    out[2:-1:2] = gaps
    return out


def _borda_first(witness: np.ndarray, weights: np.ndarray, scores: np.ndarray, winner: int, cell: tuple[int, int],
                 values: np.ndarray, tol: float) -> np.ndarray:
    """Per value of `values`: is `winner` still first (alone or tied) under Borda once the cell is moved there?

    Only the cell's task changes: a system ``y`` gains a point from the moved system where it is
    now above it (half where tied) and loses the one it had; the moved system scores the
    systems now below it (half the ties).
    """
    x, t = cell
    col = witness[:, t]
    others = np.arange(len(col)) != x
    old = col[x]
    gain_old = (old < col) + 0.5 * (old == col)  # what each system got from x in the witness
    gain_new = (values[:, None] < col[None, :]) + 0.5 * (values[:, None] == col[None, :])
    moved = np.where(others[None, :], scores[None, :] + weights[t] * (gain_new - gain_old[None, :]), 0.0)
    own_old = ((col < old) + 0.5 * (col == old))[others].sum()
    own_new = ((col[None, others] < values[:, None]) + 0.5 * (col[None, others] == values[:, None])).sum(axis=1)
    moved[:, x] = scores[x] + weights[t] * (own_new - own_old)
    return moved[:, winner] >= moved.max(axis=1) - tol


def searched_pivotal(
    values: np.ndarray,
    weights: np.ndarray,
    winners: dict[int, np.ndarray],
    rescore: Callable[[np.ndarray], np.ndarray],
    search: Callable[[np.ndarray, int], SearchAnswer],
    tol: float,
    borda: bool,
    repair: Callable[[np.ndarray, np.ndarray, int], np.ndarray] | None = None,
    spent: Callable[[], bool] | None = None,
) -> PivotalCells:
    """The missing cells that can knock each possible winner out (module notes).

    Parameters
    ----------
    values : numpy.ndarray
        Oriented scores (systems x tasks), NaN where missing.
    weights : numpy.ndarray
        One weight per task.
    winners : dict of int to numpy.ndarray
        Every possible winner and its witness (a complete oriented board that makes it first).
    rescore : callable
        ``rescore(complete)``: the rule's scores of a complete oriented board.
    search : callable
        ``search(fixed, target)``: the possible-winner search of `target` on the board `fixed`
        (one more cell scored), within the time limit.
    tol : float
        Scores within `tol` tie.
    borda : bool
        The rule is Borda (the witness is moved in closed form).
    repair : callable, optional
        ``repair(fixed, start, target)``: a local search on the board `fixed` from the
        completion `start` (a known witness with the cell moved), tried before the search.
    spent : callable, optional
        ``spent()``: True once the caller's total budget is spent; the repairs and searches
        left are then skipped and their pairs reported undecided (the moved witnesses still
        decide what they can).

    Returns
    -------
    PivotalCells
    """
    out = PivotalCells()
    holes = np.argwhere(np.isnan(values))
    per_task = {int(t): classes(values[:, t]) for t in np.unique(holes[:, 1])} if len(holes) else {}
    for w, witness in winners.items():
        pool = [(witness, rescore(witness))]  # completions that make w first: the witness, then those the searches find

        def kept_by_pool(x: int, t: int, options: np.ndarray) -> np.ndarray:
            kept = np.zeros(len(options), dtype=bool)
            for complete, scores in pool:
                if kept.all():
                    break
                if borda:
                    kept[~kept] = _borda_first(complete, weights, scores, w, (x, t), options[~kept], tol)
                    continue
                for j in np.flatnonzero(~kept):
                    moved = complete.copy()
                    moved[x, t] = options[j]
                    s = rescore(moved)
                    kept[j] = s[w] >= s.max() - tol
            return kept

        for x, t in holes.tolist():
            options = per_task[t][-1:] if x == w else per_task[t]
            kept = kept_by_pool(x, t, options)
            unsettled = np.zeros(len(options), dtype=bool)  # classes whose search stopped undecided
            pivotal = False
            for j in np.flatnonzero(~kept):
                if kept[j]:  # a witness found for an earlier class covers this one too
                    continue
                if spent is not None and spent():  # the budget is spent: this class and the rest stay open
                    unsettled[j:] |= ~kept[j:]
                    break
                fixed = values.copy()
                fixed[x, t] = options[j]
                if repair is not None:  # the witness moved, then repaired by a local search
                    start = witness.copy()
                    start[x, t] = options[j]
                    repaired = repair(fixed, start, w)
                    s = rescore(repaired)
                    if s[w] >= s.max() - tol:
                        pool.append((repaired, s))
                        kept |= kept_by_pool(x, t, options)
                        continue
                found = search(fixed, w)
                out.programs += found.programs
                if found.possible is False:
                    pivotal = True
                    break
                unsettled[j] = found.possible is None
                if found.possible and found.witness is not None:
                    pool.append((found.witness, rescore(found.witness)))
                    kept |= kept_by_pool(x, t, options)  # earlier unsettled classes too
            if pivotal:
                out.pivotal.setdefault((x, t), []).append(w)
            elif (unsettled & ~kept).any():  # no class knocks it out for sure, and some class is open
                out.undecided.setdefault((x, t), []).append(w)
    return out
