"""Who can still be the Kemeny winner: certified bounds from the majority structure, exact
enumeration on small boards.

A system is a *Kemeny winner* of a complete board when it is first in some optimal Kemeny
ranking (a co-winner), and *alone* when it is first in every optimal ranking. Deciding possible
Kemeny winners is hard in general (the Kemeny winner itself is), so the answer has four parts,
each exact where it applies and ``decided_by`` says which one decided each system:

1. **Condorcet bounds** (any size, closed form). In a system's best completion (its own missing
   cells first, every rival's last) each of its pairwise majority margins is at its largest at
   once, because a pair's margin depends only on the two systems' own cells. If it beats or ties
   every rival there, it is a weak Condorcet winner of that completion, and moving it to the
   top of any ranking never costs, so it is first in some optimal ranking: *possible* (alone
   when it beats every rival strictly: a Condorcet winner is first in every optimal ranking).
   In its worst completion the margins are at their smallest: beating or tying every rival
   there makes it a Kemeny winner of every completion (*necessary*; alone when strictly).
2. **Negative net margin** (any size). A system first in an optimal ranking cannot gain by
   moving to the bottom, so its net majority margin over all rivals (the sum of its margins)
   is at least 0. In its best completion every margin is at its largest at once: if the sum is
   negative even there, it is never first; the rivals it loses to there are in its way.
3. **Necessary dominance** (any size). ``r`` *necessarily beats* ``x`` when ``r``'s margin over
   ``x`` is positive in every completion (in ``r``'s worst one). The smallest *dominant* set ``D``
   of that relation (every member necessarily beats every non-member) is found by closing each
   system under "must come along" and taking the smallest closure (dominant sets of an
   antisymmetric relation are nested). In every completion ``D`` is a dominant set of the
   strict majority relation, and every optimal Kemeny ranking puts all of ``D`` above every
   non-member (moving ``D``'s members above the rest, in their order, reverses only pairs the
   majority orders that way, each a strict gain). So a system outside ``D`` is *never* first:
   impossible, with ``D`` as the rivals in its way.
4. **Enumeration** (at most :data:`EXACT_SYSTEMS` systems and :data:`EXACT_WORK` steps): every completion of the missing cells by position (each cell at any position
   among its task's scores, ties included, and in any order with the task's other missing
   cells), each solved exactly by a dynamic program over subsets (``F(S) = min_x [A_x(S) +
   F(S - x)]``, ``A_x(S)`` the weight preferring the others of ``S`` to ``x``; the co-winners
   are the minimizers at the full set). The witness is the first completion found.

A system none of them decides has ``possible`` (or ``necessary``) None, and ``decided_by``
says why. Every witness is re-checked on its completed board by the package's exact Kemeny
solver: the optimum with the system forced first (its cost above every rival plus the optimum
of the others) equals the unconstrained optimum.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

__all__ = ["EXACT_WORK", "EXACT_SYSTEMS", "KemenyVerdict", "kemeny_verdicts", "kemeny_co_winners"]

#: Enumeration decides what the Condorcet bounds and dominance leave open up to this many systems ...
EXACT_SYSTEMS = 8
#: ... and this much work: completions x n x 2**n steps of the dynamic program (about 2 s).
EXACT_WORK = 20_000_000


@dataclass(frozen=True)
class KemenyVerdict:
    """One system's answer: possible / necessary (each None when undecided), alone or not, a witness
    (oriented completed scores) for a possible winner (``witness_alone``: it is first alone there),
    the rivals in the way of an impossible one."""

    possible: bool | None
    possible_strict: bool | None
    necessary: bool | None
    necessary_strict: bool | None
    witness: np.ndarray | None
    beaten_by: tuple[int, ...]
    decided_by: str
    witness_alone: bool = False


def _margins(up: np.ndarray, down: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``m[i, k]``: the weighted majority margin of ``i`` over ``k`` with ``i``'s cells at `up` and
    ``k``'s at `down` (oriented; a pair's margin depends on those two rows only)."""
    n = up.shape[0]
    out = np.zeros((n, n))
    for i in range(n):
        out[i] = (np.sign(up[i][None, :] - down) * w).sum(axis=1)
    np.fill_diagonal(out, 0.0)
    return out


def _smallest_dominant(beats: np.ndarray) -> np.ndarray:
    """The smallest dominant set of the antisymmetric relation `beats` (bool mask): every member
    beats every non-member."""
    n = beats.shape[0]
    best = np.ones(n, dtype=bool)
    for x in range(n):
        inside = np.zeros(n, dtype=bool)
        inside[x] = True
        while True:  # a member that does not beat t brings t in
            grown = inside | (~beats[inside]).any(axis=0)
            if (grown == inside).all():
                break
            inside = grown
        if inside.sum() < best.sum():
            best = inside
    return best


def kemeny_co_winners(preferences: np.ndarray, tol: float) -> tuple[np.ndarray, float]:
    """The systems first in some optimal Kemeny ranking, and the optimum, by a dynamic program
    over subsets (at most :data:`EXACT_SYSTEMS` systems).

    Parameters
    ----------
    preferences : ndarray (n, n)
        ``preferences[i, j]``: the weight preferring ``i`` to ``j`` (a tied task half).
    tol : float
        Costs within `tol` are equal.

    Returns
    -------
    (ndarray of bool (n,), float)
    """
    n = preferences.shape[0]
    full = (1 << n) - 1
    cost = np.zeros(1 << n)
    masks = np.arange(1 << n)
    members = ((masks[:, None] >> np.arange(n)[None, :]) & 1).astype(np.float64)
    above = (members @ preferences).T  # above[x, S]: the weight preferring the members of S to x
    rows = above.tolist()  # Python lists: scalar indexing in the loop is several times faster than numpy's
    table = cost.tolist()
    for mask in range(1, full + 1):
        best = float("inf")
        m = mask
        while m:
            low = m & -m
            x = low.bit_length() - 1
            rest = mask ^ low
            value = rows[x][rest] + table[rest]
            if value < best:
                best = value
            m ^= low
        table[mask] = best
    first = np.array([rows[x][full ^ (1 << x)] + table[full ^ (1 << x)] <= table[full] + tol for x in range(n)])
    return first, float(table[full])


def _slots(values: np.ndarray, holes: np.ndarray) -> list[np.ndarray]:
    """Per task, the values a missing cell may take: every distinct score (a tie) and, in every gap
    below, between and above them, as many distinct values as the task has missing cells (so the
    missing cells of a task can take any weak order among themselves too)."""
    out = []
    for k in range(values.shape[1]):
        scored = np.unique(values[~holes[:, k], k])
        gaps = int(holes[:, k].sum())
        if not gaps:
            out.append(np.array([]))
            continue
        if scored.size == 0:
            out.append(np.arange(gaps, dtype=np.float64))
            continue
        span = float(scored[-1] - scored[0]) or 1.0
        edges = np.concatenate([[scored[0] - span], scored, [scored[-1] + span]])
        cands = list(scored)
        for a, b in zip(edges[:-1], edges[1:]):
            cands += list(a + (b - a) * (np.arange(1, gaps + 1) / (gaps + 1)))
        out.append(np.unique(np.array(cands, dtype=np.float64)))
    return out


def _completions(values: np.ndarray, holes: np.ndarray) -> tuple[int, Iterator[np.ndarray]]:
    """The number of completions by position and an iterator over them (oriented scores)."""
    slots = _slots(values, holes)
    cells = [(int(j), int(k)) for j, k in np.argwhere(holes)]
    count = 1
    for _, k in cells:
        count *= len(slots[k])

    def run() -> Iterator[np.ndarray]:
        for choice in itertools.product(*(slots[k] for _, k in cells)):
            filled = values.copy()
            for (j, k), v in zip(cells, choice):
                filled[j, k] = v
            yield filled

    return count, run()


def _preferences(values: np.ndarray, w: np.ndarray) -> np.ndarray:
    """wins + ties / 2 of a complete oriented board."""
    diff = values[:, None, :] - values[None, :, :]
    return ((diff > 0) * w).sum(axis=2) + 0.5 * ((diff == 0) * w).sum(axis=2)


def kemeny_verdicts(values: np.ndarray, w: np.ndarray, up: np.ndarray, down: np.ndarray) -> list[KemenyVerdict]:
    """Every system's verdict (see the module docstring).

    Parameters
    ----------
    values : ndarray (n, m)
        Oriented scores, NaN where missing.
    w : ndarray (m,)
        Task weights.
    up, down : ndarray (n, m)
        The board with every missing cell at its best (above every score of its task) and at
        its worst (below every score).

    Returns
    -------
    list of KemenyVerdict
    """
    n = values.shape[0]
    holes = np.isnan(values)
    thr = 1e-9 * max(1.0, float(w.sum()))
    others = ~np.eye(n, dtype=bool)
    best = _margins(up, down, w)   # best[i, k]: i's largest margin over k (all at once, in i's best completion)
    worst = _margins(down, up, w)  # worst[i, k]: i's smallest margin over k
    weak_best = np.array([(best[i][others[i]] >= -thr).all() for i in range(n)])
    strict_best = np.array([(best[i][others[i]] > thr).all() for i in range(n)])
    weak_worst = np.array([(worst[i][others[i]] >= -thr).all() for i in range(n)])
    strict_worst = np.array([(worst[i][others[i]] > thr).all() for i in range(n)])
    dominant = _smallest_dominant((worst > thr) & others)
    # first in an optimal ranking => moving it to the bottom cannot lower the disagreement => its net
    # margin over all rivals is >= 0; in its best completion every margin is at its largest at once
    net_negative = best.sum(axis=1) < -thr
    possible: list[bool | None] = []
    possible_strict: list[bool | None] = []
    necessary: list[bool | None] = []
    necessary_strict: list[bool | None] = []
    for i in range(n):
        rivals = others[i]
        p = True if weak_best[i] else (False if not dominant[i] or net_negative[i] else None)
        possible.append(p)
        possible_strict.append(True if strict_best[i] else (False if p is False else None))
        # another system first alone (a strict Condorcet winner) somewhere: i is not first there
        nec = True if weak_worst[i] else (False if p is False or strict_best[rivals].any() else None)
        necessary.append(nec)
        # another possible co-winner somewhere: i is not alone there
        necessary_strict.append(True if strict_worst[i] else (False if nec is False or weak_best[rivals].any() else None))
    witnesses: dict[int, np.ndarray] = {
        i: np.where(holes, np.where(np.arange(n)[:, None] == i, up, down), values) for i in range(n) if weak_best[i]
    }
    alone_there = {i: bool(strict_best[i]) for i in witnesses}
    label = ["condorcet bounds" if possible[i] else
             "necessary dominance" if possible[i] is False and not dominant[i] else
             "negative net margin" if possible[i] is False else "" for i in range(n)]
    open_ = [i for i in range(n) if None in (possible[i], possible_strict[i], necessary[i], necessary_strict[i])]
    if open_:
        count, completions = _completions(values, holes)
        if n > EXACT_SYSTEMS or count * n * 2**n > EXACT_WORK:
            why = (f"{n} systems" if n > EXACT_SYSTEMS else f"{count} completions") + \
                f" (enumeration up to {EXACT_SYSTEMS} systems and {EXACT_WORK:,} steps: completions x n x 2**n)"
            for i in open_:
                label[i] = (label[i] + "; " if label[i] else "") + "undecided: " + why
        else:
            ever, ever_alone = np.zeros(n, dtype=bool), np.zeros(n, dtype=bool)
            always, always_alone = np.ones(n, dtype=bool), np.ones(n, dtype=bool)
            for filled in completions:
                first, _ = kemeny_co_winners(_preferences(filled, w), thr)
                alone = first & (first.sum() == 1)
                for k in np.flatnonzero(first & ~ever).tolist():
                    if k not in witnesses:
                        witnesses[k], alone_there[k] = filled, bool(alone[k])
                ever |= first
                ever_alone |= alone
                always &= first
                always_alone &= alone
            for i in open_:
                for flags, found in ((possible, ever), (possible_strict, ever_alone), (necessary, always),
                                     (necessary_strict, always_alone)):
                    if flags[i] is None:
                        flags[i] = bool(found[i])
                label[i] = (label[i] + "; " if label[i] else "") + f"enumeration of every completion ({count})"
    members = tuple(int(k) for k in np.flatnonzero(dominant))
    in_the_way: dict[int, tuple[int, ...]] = {}
    for i in range(n):
        if possible[i] is False and not dominant[i]:
            in_the_way[i] = members
        elif possible[i] is False and net_negative[i]:  # the rivals it loses to even in its best completion
            in_the_way[i] = tuple(int(k) for k in np.flatnonzero(others[i] & (best[i] < -thr)))
        elif possible[i] is False:  # by enumeration: the Kemeny winners of its best completion
            best_case = np.where(holes, np.where(np.arange(n)[:, None] == i, up, down), values)
            in_the_way[i] = tuple(int(k) for k in np.flatnonzero(kemeny_co_winners(_preferences(best_case, w), thr)[0]))
    return [
        KemenyVerdict(possible[i], possible_strict[i], necessary[i], necessary_strict[i],
                      witnesses.get(i) if possible[i] else None, in_the_way.get(i, ()), label[i],
                      alone_there.get(i, False))
        for i in range(n)
    ]
