"""Kemeny consensus with ties: the weak order closest to the tasks, as an integer program with lazy transitivity.

Input is two plain matrices: ``wins[i, j]``, the total task weight on which item ``i`` is
strictly above ``j``, and the symmetric ``ties[i, j]``, the weight on which they tie (a
task missing either item counts for neither). Output is a frozen
:class:`WeakOrderingOutcome` of item indices; this module knows no labels and no pandas.

Objective (Kemeny and Snell [1]_, halved so that a full strict disagreement costs 1, as in
:mod:`solvers.linear_ordering`). A consensus weak order pays, per unordered pair
``{i, j}``:

- ``i`` strictly above ``j``: ``wins[j, i] + ties[i, j] / 2``,
- ``i`` tied with ``j``: ``(wins[i, j] + wins[j, i]) / 2``,
- ``j`` strictly above ``i``: ``wins[i, j] + ties[i, j] / 2``.

With ``P = wins + ties / 2`` the strict answers cost the usual Kemeny ``P[j, i]`` and
``P[i, j]``; only the tied answer is new. Tying a pair is its strictly cheapest answer exactly when
its tied weight exceeds its margin, ``ties[i, j] > |wins[i, j] - wins[j, i]|``.

Why ties in the consensus only pay when tasks tie. Take a group ``B`` of a weak order, and
replace it by a linear order of its items or by the reverse order (pairs with one item
outside ``B`` keep their answer). Over the pairs inside ``B`` the two orders cost, together,
``sum (wins[i, j] + wins[j, i] + ties[i, j]) = 2 * (tie cost of B) + (tied weight in B)``.
Their average is the tie cost plus half the tied weight, so one of them costs at most
that. With no tied votes every group can be broken this way at no loss: the optimum is a
linear order and equals the strict Kemeny optimum; in general the strict optimum exceeds
the weak one by at most half the tied weight inside the optimal groups.

Model. Binary ``a[i, j]`` = "``i`` weakly above ``j``" for ordered pairs ``i != j``; the
states ``(a[i, j], a[j, i])`` = (1, 0), (1, 1), (0, 1) are ``i > j``, a tie and ``j > i``.
With ``c>``, ``c=``, ``c<`` the three costs above, a pair costs ``alpha + beta * a[i, j] +
gamma * a[j, i]`` with ``alpha = c> + c< - c=``, ``beta = c= - c<``, ``gamma = c= - c>``.
Rows: completeness ``a[i, j] + a[j, i] >= 1`` (all, at once) and transitivity ``a[i, j] +
a[j, k] - a[i, k] <= 1`` for ordered triples, added lazily: solve, scan every triple
(vectorized, :func:`violated_transitivity`), add the violated ones, solve again. A
relaxation's optimum that violates no transitivity row is a weak order, hence optimal
for the full problem. Up to 12 items every row is added at once. Larger inputs first run
LP rounds (the LP relaxation with violated rows added) so that the MIP starts with the
rows that matter, then MIP rounds.

Exactness. When all weights are multiples of a common step ``s`` (counts, or rational
weights with denominators up to 10**6), every cost is a multiple of ``unit = s / 2``; the
MIP runs with a relative gap of 0 and an absolute gap of ``unit / 2``, and bounds are
rounded up to the lattice, so "optimal" is exact. Otherwise optimality holds up to
``1e-9`` of the total weight.

Incumbents. A linear order is turned into the best weak order that keeps it (consecutive
groups, dynamic programming over cut points), then improved by moving single items to
another group or a new one. Starts: `initial` (e.g. the strict Kemeny optimum), the Borda
order of ``P``, and each intransitive MIP solution, read as an order by net "above"
counts. The incumbent is the MIP start of every solve.

References
----------
.. [1] Kemeny, Snell, *Mathematical Models in the Social Sciences*, Ginn, 1962. Used: their
   distance between weak orders (per pair: 0 when both agree, 1 when one ties what the
   other orders, 2 when they order it oppositely), halved and summed over tasks with
   their weights, is the objective.
.. [2] Emond, Mason, "A new rank correlation coefficient with application to the
   consensus ranking problem", J. Multi-Criteria Decision Analysis 11(1):17-28, 2002
   (doi:10.1002/mcda.313). Used: the consensus ranking problem with ties as minimizing
   the Kemeny-Snell distance, and their result that this is equivalent to maximizing the
   correlation tau_x they define; so for complete rankings the optimum here also
   maximizes the weighted mean tau_x. Their branch and bound is not used.
.. [3] Amodio, D'Ambrosio, Siciliano, "Accurate algorithms for identifying the median
   ranking when dealing with weak and partial rankings under the Kemeny axiomatic
   approach", European J. Operational Research 249(2):667-676, 2016
   (doi:10.1016/j.ejor.2015.08.048). Used: only the problem statement (the median weak
   order under the Kemeny-Snell distance); not their algorithms.
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .brute_force import check_wins_ties
from .model import LinearModel
from .status import SolverError, SolveStatus, clean

__all__ = ["WeakOrderingOutcome", "solve_weak_ordering", "violated_transitivity", "weak_order_cost"]

logger = logging.getLogger(__name__)

Groups = tuple[tuple[int, ...], ...]

#: Inputs up to this size get every transitivity row at once (12 * 11 * 10 = 1320 rows).
ALL_ROWS_UP_TO = 12

#: HiGHS options of the MIP solves: optimality is decided by the absolute gap below the
#: objective's lattice step, never by HiGHS's default relative gap.
_HIGHS_MIP_OPTIONS = {"mip_rel_gap": 0.0}

_MAX_LP_ROUNDS = 50


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class WeakOrderingOutcome:
    """The best weak order found, its cost, a proven lower bound, and solve statistics.

    Attributes
    ----------
    groups : tuple of tuple of int
        Groups of tied items, best group first, items ascending within a group.
    objective : float
        Cost of `groups`, recomputed from the inputs by :func:`weak_order_cost`.
    lower_bound : float
        Proven lower bound on the optimal cost (equal to `objective` when optimal).
    status : SolveStatus
        ``OPTIMAL`` or ``TIME_LIMIT``.
    iterations : int
        LP and MIP solves performed.
    constraints_added : int
        Transitivity rows added to the model.
    seconds : float
        Wall-clock time.
    unit : float or None
        The objective's lattice step (every weak order costs a multiple of it), or None
        when the weights have no common step (optimality then holds up to a tolerance).

    Examples
    --------
    >>> res = solve_weak_ordering([[0, 1], [0, 0]], [[0, 3], [3, 0]])
    >>> res.groups, res.objective, res.optimal, res.gap, res.unit
    (((0, 1),), 0.5, True, 0.0, 0.5)
    """

    groups: Groups
    objective: float
    lower_bound: float
    status: SolveStatus
    iterations: int
    constraints_added: int
    seconds: float
    unit: float | None = None

    @property
    def optimal(self) -> bool:
        """Whether `groups` is proven optimal."""
        return self.status is SolveStatus.OPTIMAL

    @property
    def gap(self) -> float:
        """``objective - lower_bound`` (0 once proven optimal)."""
        return max(0.0, self.objective - self.lower_bound)


# --------------------------------------------------------------------------- costs
def _levels(groups: Sequence[Sequence[int]], n: int, what: str) -> NDArray[np.int64]:
    """Level (0 = best group) of each item; ValueError unless `groups` is a weak order of ``0..n-1``."""
    level = np.full(n, -1, dtype=np.int64)
    for g, group in enumerate(groups):
        items = None if isinstance(group, (str, bytes)) or not hasattr(group, "__iter__") else list(group)
        if not items:
            raise ValueError(f"{what} must be a sequence of non-empty groups of items, got group {group!r}")
        for x in items:
            if not isinstance(x, (int, np.integer)) or isinstance(x, bool) or not 0 <= x < n:
                raise ValueError(f"{what}: {x!r} is not an item index in 0..{n - 1}")
            if level[x] >= 0:
                raise ValueError(f"{what}: item {x} appears twice")
            level[x] = g
    missing = np.nonzero(level < 0)[0]
    if len(missing):
        raise ValueError(f"{what} must hold every item 0..{n - 1}; missing {missing.tolist()}")
    return level


def _groups(level: NDArray[np.int64]) -> Groups:
    """The weak order of `level` (any integers, smaller is better) as groups."""
    values = np.unique(level)
    return tuple(tuple(int(x) for x in np.nonzero(level == v)[0]) for v in values.tolist())


def weak_order_cost(wins: ArrayLike, ties: ArrayLike, groups: Sequence[Sequence[int]]) -> float:
    """Kemeny-Snell cost of a weak order: strict pairs against the tasks, tied pairs half their wins.

    For each pair ``{i, j}``: ``wins[j, i] + ties[i, j] / 2`` when ``i`` is in an earlier
    group than ``j``, ``(wins[i, j] + wins[j, i]) / 2`` when they share a group.

    Parameters
    ----------
    wins : array_like (n, n)
        ``wins[i, j]``: total task weight on which ``i`` is strictly above ``j``.
    ties : array_like (n, n)
        Symmetric; ``ties[i, j]``: total task weight on which ``i`` and ``j`` tie.
    groups : sequence of sequence of int
        A weak order of ``0..n-1``: groups of tied items, best first.

    Returns
    -------
    float
        The cost (``0.0``, never ``-0.0``, when nothing is paid).

    Raises
    ------
    ValueError
        Invalid `wins` or `ties`, or `groups` is not a weak order of all items.

    Examples
    --------
    >>> wins, ties = [[0, 1, 4], [0, 0, 4], [0, 0, 0]], [[0, 3, 0], [3, 0, 0], [0, 0, 0]]
    >>> weak_order_cost(wins, ties, [[0, 1], [2]]), weak_order_cost(wins, ties, [[0], [1], [2]])
    (0.5, 1.5)
    """
    w, t = check_wins_ties(wins, ties)
    level = _levels(groups, w.shape[0], "groups")
    above = level[:, None] < level[None, :]  # i in an earlier group than j
    tied = (level[:, None] == level[None, :]) & ~np.eye(len(level), dtype=bool)
    value = float((w.T * above).sum() + (t * above).sum() / 2 + (w * tied).sum() / 2)
    return 0.0 if value == 0 else value


def violated_transitivity(above: ArrayLike, *, eps: float = 1e-6, limit: int | None = None) -> NDArray[np.int64]:
    """Ordered triples ``(i, j, k)`` with ``above[i, j] + above[j, k] - above[i, k] > 1 + eps``.

    Parameters
    ----------
    above : array_like (n, n)
        ``above[i, j]``: how much ``i`` is weakly above ``j`` (0/1 or an LP value); the
        diagonal is ignored.
    eps : float, default=1e-6
        A row must be exceeded by more than `eps`.
    limit : int, optional
        Return at most this many, the most violated first.

    Returns
    -------
    ndarray of int64 (k, 3)
        The triples, most violated first (ties in index order).

    Examples
    --------
    >>> a = np.array([[1, 1, 0], [0, 1, 1], [1, 1, 1]])   # 0 > 1, 1 tied with 2, 2 > 0
    >>> violated_transitivity(a).tolist()
    [[0, 1, 2], [1, 2, 0]]
    """
    m = np.array(above, dtype=np.float64)
    n = m.shape[0]
    np.fill_diagonal(m, 1.0)  # then no triple with a repeated item is ever violated
    found = []
    for j in range(n):  # n^2 numpy work per middle item
        excess = m[:, j, None] + m[None, j, :] - m - 1.0
        i, k = np.nonzero(excess > eps)
        if len(i):
            found.append(np.column_stack([i, np.full(len(i), j), k, excess[i, k]]))
    if not found:
        return np.zeros((0, 3), dtype=np.int64)
    rows = np.concatenate(found)
    rows = rows[np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0], -rows[:, 3]))]
    return rows[:limit, :3].astype(np.int64)


# --------------------------------------------------------------------------- heuristics
@dataclass
class _Costs:
    """The three costs of every ordered pair, and the float tolerance of comparisons."""

    strict: NDArray[np.float64]  # strict[i, j]: cost of i strictly above j (= P[j, i])
    tie: NDArray[np.float64]  # tie[i, j]: cost of tying i and j (symmetric)
    tol: float

    def of(self, level: NDArray[np.int64]) -> float:
        """Cost of the weak order given by levels."""
        above = level[:, None] < level[None, :]
        tied = np.triu(level[:, None] == level[None, :], 1)
        return float((self.strict * above).sum() + (self.tie * tied).sum())


def _bucket(order: Sequence[int] | NDArray[np.integer], c: _Costs) -> NDArray[np.int64]:
    """The best weak order whose groups are consecutive runs of `order` (levels per item).

    Cutting `order` into runs, a pair in one run pays ``tie`` instead of ``strict``; with
    ``D = tie - strict`` above the diagonal, a run ``[s, e)`` adds the sum of ``D`` over
    its square, and ``f[e] = min_s f[s] + run(s, e)`` over cut points.
    """
    idx = np.asarray(order, dtype=np.int64)
    n = len(idx)
    d = np.triu(c.tie[np.ix_(idx, idx)] - c.strict[np.ix_(idx, idx)], 1)
    s = np.zeros((n + 1, n + 1))
    s[1:, 1:] = d.cumsum(0).cumsum(1)  # s[a, b]: sum of d[:a, :b]
    best, cut = np.zeros(n + 1), np.zeros(n + 1, dtype=np.int64)
    for e in range(1, n + 1):
        starts = np.arange(e)
        run = s[e, e] - s[starts, e] - s[e, starts] + s[starts, starts]
        total = best[:e] + run
        cut[e] = int(np.argmin(total))
        best[e] = total[cut[e]]
    level = np.empty(n, dtype=np.int64)
    e, g = n, 0
    while e > 0:
        level[idx[cut[e] : e]] = -g
        e, g = cut[e], g + 1
    return level + g - 1


def _improve(level: NDArray[np.int64], c: _Costs, *, deadline: float | None, sweeps: int = 50) -> NDArray[np.int64]:
    """Local search: move one item to another group or into a new group of its own, while it pays."""
    level = np.unique(level, return_inverse=True)[1].reshape(-1).astype(np.int64)
    n = len(level)
    for _ in range(sweeps):
        moved = False
        for x in range(n):
            if deadline is not None and time.perf_counter() > deadline:
                return level
            others = np.arange(n) != x
            values, rank = np.unique(level[others], return_inverse=True)
            k = len(values)
            up = np.bincount(rank, c.strict[others, x], k)  # others above x, by group
            tie = np.bincount(rank, c.tie[x, others], k)
            down = np.bincount(rank, c.strict[x, others], k)  # x above others
            u = np.concatenate([[0.0], np.cumsum(up)])  # u[g]: groups before g above x
            dn = np.concatenate([[0.0], np.cumsum(down)])
            join = u[:k] + tie + (dn[k] - dn[1:])  # x joins group g
            alone = u + (dn[k] - dn)  # x alone, just before group g (g = k: last)
            rest, mine = level[others], level[x]
            now = float(c.strict[others, x] @ (rest < mine) + c.tie[x, others] @ (rest == mine) + c.strict[x, others] @ (rest > mine))
            g_join, g_alone = int(np.argmin(join)) if k else 0, int(np.argmin(alone))
            if k and join[g_join] <= alone[g_alone] and join[g_join] < now - c.tol:
                level[x] = values[g_join]
            elif alone[g_alone] < now - c.tol:
                shifted = np.where(level >= (values[g_alone] if g_alone < k else level.max() + 1), level + 1, level)
                shifted[x] = values[g_alone] if g_alone < k else level.max() + 1
                level = shifted
            else:
                continue
            level = np.unique(level, return_inverse=True)[1].reshape(-1).astype(np.int64)
            moved = True
        if not moved:
            break
    return level


def _order_by(score: NDArray[np.float64]) -> NDArray[np.int64]:
    """Items by decreasing score, ties by index."""
    return np.lexsort((np.arange(len(score)), -score))


def _weak_order_of(a: NDArray[np.float64], c: _Costs, deadline: float | None) -> NDArray[np.int64]:
    """A weak order from a 0/1 "weakly above" matrix (itself, when it is one; else repaired)."""
    n = a.shape[0]
    strictly = (a > 0.5) & ~(a.T > 0.5)
    level = strictly.sum(axis=0)  # how many items are strictly above each item
    rebuilt = level[:, None] <= level[None, :]
    if np.array_equal(rebuilt | np.eye(n, dtype=bool), (a > 0.5) | np.eye(n, dtype=bool)):
        return level.astype(np.int64)
    net = (a > 0.5).sum(axis=1) - (a > 0.5).sum(axis=0)
    return _improve(_bucket(_order_by(net.astype(np.float64)), c), c, deadline=deadline)


# --------------------------------------------------------------------------- model
class _Model:
    """The MIP on a :class:`LinearModel`: one column per ordered pair, rows added lazily."""

    def __init__(self, c: _Costs, backend: str, verbose: bool) -> None:
        n = c.strict.shape[0]
        self.n = n
        self.col = np.full((n, n), -1, dtype=np.int64)
        iu, ju = np.triu_indices(n, 1)
        self.col[iu, ju] = np.arange(len(iu))
        self.col[ju, iu] = len(iu) + np.arange(len(iu))
        gt, lt, eq = c.strict[iu, ju], c.strict[ju, iu], c.tie[iu, ju]  # i > j, j > i, tied
        self.const = float((gt + lt - eq).sum())  # alpha summed over pairs
        self.model = LinearModel(backend=backend, verbose=verbose)
        # a[i, j] (i < j) costs beta = c= - c<, a[j, i] costs gamma = c= - c>
        self.model.add_columns(np.zeros(2 * len(iu)), np.ones(2 * len(iu)), np.concatenate([eq - lt, eq - gt]))
        # completeness: every pair is ordered one way, or tied (both ways)
        m = len(iu)
        self.model.add_rows(
            np.ones(m), np.full(m, np.inf), 2 * np.arange(m), np.column_stack([self.col[iu, ju], self.col[ju, iu]]).ravel(),
            np.ones(2 * m),
        )
        self.seen: set[int] = set()
        self.added = 0

    def add(self, triples: NDArray[np.int64]) -> int:
        """Transitivity ``a[i, j] + a[j, k] - a[i, k] <= 1`` for each new triple; returns how many were new."""
        codes = (triples[:, 0] * self.n + triples[:, 1]) * self.n + triples[:, 2]
        fresh = np.array([code not in self.seen for code in codes.tolist()], dtype=bool)
        new = triples[fresh]
        self.seen.update(codes[fresh].tolist())
        if len(new):
            i, j, k = new.T
            index = np.column_stack([self.col[i, j], self.col[j, k], self.col[i, k]]).ravel()
            value = np.tile([1.0, 1.0, -1.0], len(new))
            self.model.add_rows(np.full(len(new), -np.inf), np.ones(len(new)), 3 * np.arange(len(new)), index, value)
            self.added += len(new)
        return len(new)

    def x_of(self, level: NDArray[np.int64]) -> NDArray[np.float64]:
        """The columns of a weak order."""
        iu, ju = np.triu_indices(self.n, 1)
        return np.concatenate([level[iu] <= level[ju], level[ju] <= level[iu]]).astype(np.float64)

    def above(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The columns as an n x n "weakly above" matrix (diagonal 1)."""
        a = np.ones((self.n, self.n))
        off = self.col >= 0
        a[off] = x[self.col[off]]
        return a


# --------------------------------------------------------------------------- solve
def _lattice_unit(w: NDArray[np.float64], t: NDArray[np.float64]) -> float | None:
    """Half the largest common step of all weights (every weak order's cost is a multiple), or None."""
    values = np.unique(np.concatenate([w.ravel(), t.ravel()]))
    values = values[values > 0]
    if not len(values):
        return None
    fractions = []
    for v in values.tolist():
        f = Fraction(v).limit_denominator(10**6)
        if abs(float(f) - v) > 1e-12 * v:
            return None
        fractions.append(f)
    den = math.lcm(*(f.denominator for f in fractions))
    step = Fraction(math.gcd(*(f.numerator * (den // f.denominator) for f in fractions)), den)
    unit = float(step / 2)
    return unit if unit >= 1e-9 * float(w.sum() + t.sum() / 2) else None


def _initial_levels(initial: Sequence[int] | Sequence[Sequence[int]], n: int) -> NDArray[np.int64]:
    """`initial` (a linear order of items or a weak order of groups) as levels."""
    items = list(initial)
    if all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in items):
        items = [[x] for x in items]
    return _levels(cast("Sequence[Sequence[int]]", items), n, "initial")  # _levels checks the shape


def solve_weak_ordering(
    wins: ArrayLike,
    ties: ArrayLike,
    *,
    backend: str = "highs",
    time_limit: float | None = None,
    initial: Sequence[int] | Sequence[Sequence[int]] | None = None,
    verbose: bool = False,
) -> WeakOrderingOutcome:
    """Find a weak order of minimum Kemeny-Snell cost (Kemeny consensus with ties), with proof.

    See the module notes for the objective, the model and why the answer is exact.

    Parameters
    ----------
    wins : array_like (n, n)
        ``wins[i, j]``: total task weight on which ``i`` is strictly above ``j``.
    ties : array_like (n, n)
        Symmetric; ``ties[i, j]``: total task weight on which ``i`` and ``j`` tie.
    backend : str, default="highs"
        ``"highs"`` (highspy) or a pulp solver name (``"cbc"``, ...), see
        :class:`solvers.model.LinearModel`.
    time_limit : float, optional
        Seconds for the whole call. When it runs out, the best weak order found comes back
        with status ``TIME_LIMIT`` and the proven lower bound. Without a limit the outcome
        is ``OPTIMAL`` or :class:`SolverError` is raised.
    initial : sequence, optional
        A warm start: a linear order of all items (a sequence of ints, best first), such
        as the strict Kemeny optimum, or a weak order (a sequence of groups). It is
        improved by the heuristics and handed to the MIP as its first incumbent.
    verbose : bool, default=False
        Show the solver's log.

    Returns
    -------
    WeakOrderingOutcome

    Raises
    ------
    ValueError
        Invalid `wins` / `ties` (square, same shape, finite, non-negative, `ties`
        symmetric), `time_limit`, or `initial`.
    SolverError
        The solver failed, or (without `time_limit`) stopped before proving optimality.

    Examples
    --------
    Systems 0 and 1 tie on three of four tasks and 0 wins the fourth; both beat 2 on
    three tasks and lose on one. Tying 0 and 1 costs 0.5 (against 1.5 for ``0 > 1``).

    >>> wins = [[0, 1, 3], [0, 0, 3], [1, 1, 0]]
    >>> ties = [[0, 3, 0], [3, 0, 0], [0, 0, 0]]
    >>> res = solve_weak_ordering(wins, ties)
    >>> res.groups, res.objective, res.status.value
    (((0, 1), (2,)), 2.5, 'optimal')
    """
    start = time.perf_counter()
    w, t = check_wins_ties(wins, ties)
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    n = w.shape[0]
    given = None if initial is None else _initial_levels(initial, n)
    deadline = None if time_limit is None else start + float(time_limit)
    unit = _lattice_unit(w, t)
    scale = max(1.0, float(w.sum() + t.sum() / 2))
    c = _Costs(strict=(w + t / 2).T, tie=(w + w.T) / 2, tol=1e-12 * scale)
    gap_abs = unit / 2 if unit is not None else 1e-9 * scale

    def round_up(bound: float) -> float:
        return bound if unit is None else unit * math.ceil(bound / unit - 1e-6)

    def left() -> float | None:
        return None if deadline is None else deadline - time.perf_counter()

    best_level, best = np.zeros(n, dtype=np.int64), math.inf

    def offer(level: NDArray[np.int64]) -> None:
        nonlocal best_level, best
        value = c.of(level)
        if value < best - c.tol:
            best_level, best = level, value

    # incumbents: the warm start, and the Borda order of P, each bucketed and improved
    if given is not None:
        offer(given)
        offer(_improve(_bucket(_order_by(-given.astype(np.float64)), c), c, deadline=deadline))
    offer(_improve(_bucket(_order_by((c.strict.T - c.strict).sum(axis=1)), c), c, deadline=deadline))
    iu, ju = np.triu_indices(n, 1)
    bound = round_up(float(np.minimum(np.minimum(c.strict[iu, ju], c.strict[ju, iu]), c.tie[iu, ju]).sum()))
    iterations = 0
    model = None

    def proved() -> bool:
        return bound >= best - gap_abs

    if n >= 2 and not proved():
        model = _Model(c, backend, verbose)
        if n <= ALL_ROWS_UP_TO:
            model.add(np.array(list(itertools.permutations(range(n), 3)), dtype=np.int64).reshape(-1, 3))
        else:  # LP rounds: the relaxation, with the violated rows added, until none is left
            model.model.set_integer(False)
            for _ in range(_MAX_LP_ROUNDS):
                sol = model.model.solve(time_limit=left())
                iterations += 1
                if sol.status is not SolveStatus.OPTIMAL or sol.x is None:
                    break
                assert sol.objective is not None  # an OPTIMAL solve always carries its objective
                bound = max(bound, round_up(model.const + sol.objective - 1e-9 * scale))
                cuts = violated_transitivity(model.above(sol.x), limit=max(1000, 2 * n * n))
                logger.debug("weak ordering LP round %d: bound %.6g, %d violated rows", iterations, bound, len(cuts))
                if not len(cuts) and np.all(np.abs(sol.x - np.round(sol.x)) <= 1e-6):
                    offer(_weak_order_of(model.above(np.round(sol.x)), c, deadline))  # an integral optimum
                if proved() or not model.add(cuts):
                    break
        model.model.set_integer(True)
        while not proved() and (deadline is None or deadline - time.perf_counter() > 0):
            sol = model.model.solve(
                time_limit=left(), mip_start=model.x_of(best_level), gap_abs=gap_abs, highs_options=_HIGHS_MIP_OPTIONS
            )
            iterations += 1
            if sol.dual_bound is not None:
                bound = max(bound, round_up(model.const + sol.dual_bound - c.tol))
            elif sol.status is SolveStatus.OPTIMAL and sol.objective is not None:
                bound = max(bound, round_up(model.const + sol.objective - gap_abs))
            if sol.x is None:
                if sol.limit_reached:
                    break
                raise SolverError(f"{backend} stopped with status {sol.status.value!r} ({sol.detail})", sol.status)
            a = (model.above(np.clip(sol.x, 0.0, 1.0)) > 0.5).astype(np.float64)
            cuts = violated_transitivity(a, eps=0.5)
            offer(_weak_order_of(a, c, deadline))
            logger.debug("weak ordering MIP round %d: %s, best %.6g, bound %.6g, %d violated rows",
                         iterations, sol.status.value, best, bound, len(cuts))
            if not len(cuts) and sol.status is SolveStatus.OPTIMAL:
                bound = max(bound, best - (0.0 if unit is not None else gap_abs))  # the relaxation's optimum is a weak order
                break
            if sol.status is not SolveStatus.OPTIMAL or proved():
                break  # out of time, or the bound has met the incumbent
            if not model.add(cuts):
                raise SolverError(f"{backend} returned a point that violates rows of its own model")
    groups = _groups(best_level)
    objective = weak_order_cost(w, t, groups)  # independent arithmetic
    if abs(objective - best) > 1e-9 * scale:
        raise SolverError(f"weak ordering: cost {best!r} of the incumbent does not recompute ({objective!r})")
    status = SolveStatus.OPTIMAL if proved() else SolveStatus.TIME_LIMIT
    lower_bound = objective if status is SolveStatus.OPTIMAL else clean(min(objective, bound))
    if time_limit is None and status is not SolveStatus.OPTIMAL:
        raise SolverError(f"{backend} stopped before proving optimality (gap {objective - lower_bound:g})", status)
    logger.info("weak ordering: %d items, %s, cost %.6g, bound %.6g, %d rows, %d solves, %.3f s", n, status.value,
                objective, lower_bound, 0 if model is None else model.added, iterations, time.perf_counter() - start)
    return WeakOrderingOutcome(
        groups=groups,
        objective=objective,
        lower_bound=lower_bound,
        status=status,
        iterations=iterations,
        constraints_added=0 if model is None else model.added,
        seconds=time.perf_counter() - start,
        unit=unit,
    )
