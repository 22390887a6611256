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
   possible (Borda: the moved cell's task rescored in closed form, every class of every cell
   of the task at once, each system's new score read from five ranges of the task's sorted
   scores: :class:`_BordaTask`; Copeland and Minimax: only the moved system's row of margins
   changes, so every class is rescored in ``O(n)``:
   :meth:`~._possible_majority.MajorityBoard.mover`).
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


class _RangeMax:
    """Maxima of ``values[a:b]`` for many ranges at once (a sparse table: ``n log n`` to build,
    two lookups a range; ``-inf`` for an empty range)."""

    def __init__(self, values: np.ndarray) -> None:
        n = len(values)
        levels = max(int(n).bit_length(), 1)
        table = np.full((levels, n), -np.inf)  # table[k, i] = max(values[i : i + 2^k]), -inf past the end
        table[0] = values
        for k in range(1, levels):
            half = 1 << (k - 1)
            table[k, : n - half] = np.maximum(table[k - 1, : n - half], table[k - 1, half:])
        self.table = table

    def __call__(self, start: np.ndarray, stop: np.ndarray) -> np.ndarray:
        size = stop - start
        some = size > 0
        k = np.zeros(size.shape, dtype=np.int64)
        k[some] = np.frexp(size[some].astype(np.float64))[1] - 1  # 2^k <= size < 2^(k + 1)
        a = np.where(some, start, 0)
        b = np.where(some, stop - np.left_shift(1, k), 0)  # the two windows of 2^k cover [a, stop)
        out = np.maximum(self.table[k, a], self.table[k, b])
        return np.where(some, out, -np.inf)


class _BordaTask:
    """One completion's task sorted for moving a single cell (:meth:`first`).

    A system ``y`` gets ``g(v, c_y)`` points from the system moved to ``v`` (``c_y`` its own
    score; ``g`` is 1 below, 1/2 tied, 0 above); moving it from ``old`` up to ``v`` takes 1/2
    from the systems tied with ``old`` or with ``v`` and 1 from those strictly between, and
    moving it down gives the same back, so each system's new score is its old one plus the
    change of its range of the sorted scores; the largest new score is the largest of seven
    ranges (each shifted by its change) and the moved system's own.
    """

    def __init__(self, complete: np.ndarray, scores: np.ndarray, t: int, weight: float) -> None:
        col = complete[:, t]
        order = np.argsort(col, kind="stable")
        self.position = np.empty_like(order)
        self.position[order] = np.arange(len(col))
        self.col, self.sorted, self.scores, self.weight = col, col[order], scores, weight
        self.range_max = _RangeMax(scores[order])

    def first(self, x: int | np.ndarray, values: np.ndarray, winner: int, tol: float) -> np.ndarray:
        """Per value of `values`: is `winner` first (alone or tied) once the cell of system ``x``
        (one per value, or one for all) is moved there?"""
        cs, w = self.sorted, self.weight
        x = np.broadcast_to(np.asarray(x, dtype=np.int64), values.shape)
        old, px = self.col[x], self.position[x]
        lo, hi = np.minimum(values, old), np.maximum(values, old)
        up = np.sign(old - values)  # what the range between gains: 1 when the cell moves down
        i1, i2 = np.searchsorted(cs, lo, "left"), np.searchsorted(cs, lo, "right")
        i3, i4 = np.searchsorted(cs, hi, "left"), np.searchsorted(cs, hi, "right")
        # six ranges of the sorted scores: below both ends, above them, the tie groups at both ends
        # split around x itself (which sits at `old`; a move that stays puts both ends on one
        # group and changes nothing), and the range strictly between
        in1, in3 = (i1 <= px) & (px < i2), (i3 <= px) & (px < i4)
        starts = np.concatenate([np.zeros_like(i1), i4, i1, np.where(in1, px + 1, i2), i3, np.where(in3, px + 1, i4), i2])
        stops = np.concatenate([i1, np.full_like(i4, len(cs)), np.where(in1, px, i2), i2, np.where(in3, px, i4), i4, i3])
        part = self.range_max(starts, stops).reshape(7, -1)
        half = 0.5 * w * up
        best = np.maximum.reduce([part[0], part[1], np.maximum(part[2], part[3]) + half,
                                  np.maximum(part[4], part[5]) + half, part[6] + w * up])
        # the moved system's own points: the systems below its value, half those tied (not itself)
        def own(v: np.ndarray) -> np.ndarray:
            below = np.searchsorted(cs, v, "left")
            return below + 0.5 * (np.searchsorted(cs, v, "right") - below)

        moved = self.scores[x] + w * (own(values) - (values > old) - 0.5 * (values == old) - own(old) + 0.5)
        best = np.maximum(best, moved)
        c = self.col[winner]
        gain = (values < c) + 0.5 * (values == c) - (old < c) - 0.5 * (old == c)
        mine = np.where(x == winner, moved, self.scores[winner] + w * gain)
        return mine >= best - tol


def _witness_moved(witness: np.ndarray, scores: np.ndarray, weights: np.ndarray, winner: int, holes: np.ndarray,
                   per_task: dict[int, np.ndarray], tol: float) -> dict[tuple[int, int], np.ndarray]:
    """Borda: per missing cell, which of its classes keep `winner` first once the cell is moved
    there in its witness (:meth:`_BordaTask.first`, every cell of a task at once; the winner's
    own cells at their lowest class only, step 1 of the module notes)."""
    out: dict[tuple[int, int], np.ndarray] = {}
    for t in np.unique(holes[:, 1]).tolist() if len(holes) else []:
        xs = holes[holes[:, 1] == t, 0]
        options = [per_task[t][-1:] if x == winner else per_task[t] for x in xs.tolist()]
        sizes = np.array([len(o) for o in options])
        kept = _BordaTask(witness, scores, t, float(weights[t])).first(np.repeat(xs, sizes), np.concatenate(options),
                                                                      winner, tol)
        for x, part in zip(xs.tolist(), np.split(kept, np.cumsum(sizes)[:-1])):
            out[x, t] = part
    return out


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
    mover: Callable[[np.ndarray], Callable[[int, int, np.ndarray], np.ndarray]] | None = None,
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
        decide what they can: Borda's and `mover`'s in closed form; rescoring whole boards
        stops too).
    mover : callable, optional
        ``mover(complete)``: a function ``moved(x, t, values)`` giving the rule's scores of
        `complete` with cell ``(x, t)`` set to each of `values` (one row each), faster than
        rescoring each moved board (:meth:`~._possible_majority.MajorityBoard.mover`).

    Returns
    -------
    PivotalCells
    """
    out = PivotalCells()
    holes = np.argwhere(np.isnan(values))
    per_task = {int(t): classes(values[:, t]) for t in np.unique(holes[:, 1])} if len(holes) else {}
    for w, witness in winners.items():
        pool = [(witness, rescore(witness))]  # completions that make w first: the witness, then those the searches find
        sorted_tasks: dict[tuple[int, int], _BordaTask] = {}  # (pool entry, task), built once
        movers: dict[int, Callable[[int, int, np.ndarray], np.ndarray]] = {}  # per pool entry, built once
        by_witness = _witness_moved(witness, pool[0][1], weights, w, holes, per_task, tol) if borda else {}

        def kept_by_pool(x: int, t: int, options: np.ndarray) -> np.ndarray:
            kept = by_witness[x, t].copy() if (x, t) in by_witness else np.zeros(len(options), dtype=bool)
            for k, (complete, scores) in enumerate(pool):
                if kept.all():
                    break
                if borda:
                    if k == 0 and (x, t) in by_witness:
                        continue
                    if (k, t) not in sorted_tasks:
                        sorted_tasks[k, t] = _BordaTask(complete, scores, t, float(weights[t]))
                    kept[~kept] = sorted_tasks[k, t].first(x, options[~kept], w, tol)
                    continue
                if mover is not None:
                    if k not in movers:
                        movers[k] = mover(complete)
                    s = movers[k](x, t, options[~kept])
                    kept[~kept] = s[:, w] >= s.max(axis=1) - tol
                    continue
                for j in np.flatnonzero(~kept):
                    if spent is not None and spent():  # a whole board rescored per class: not past the budget
                        return kept
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
