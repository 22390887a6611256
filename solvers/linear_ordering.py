"""Kemeny consensus as a linear-ordering integer program, with lazy 3-cycle cuts.

Input is a plain cost matrix: ``costs[i, j]`` is paid when ``j`` is placed above ``i``
(for Kemeny consensus, the task weight preferring ``i`` to ``j``: wins + ties / 2).
Output is a frozen :class:`LinearOrderingOutcome` of item indices; this module knows
no labels and no pandas.

How it is solved (each step is exact; the heuristics only speed up the proof):

1. **Decomposition** (:func:`majority_components`). Strongly connected components of the
   strict majority relation, in a topological order, so that no item of a later component
   beats an item of an earlier one. Moving a later item that sits directly above an
   earlier item one step down changes the cost by ``-margin <= 0``; bubbling all such
   pairs gives an order that respects the components and costs no more, so the optimal
   *value* is the sum of the components' optima plus a constant. From an optimal order
   every such swap costs exactly 0, i.e. exchanges two majority-*tied* items: every
   optimal order is a component-respecting optimal order with adjacent tied items
   swapped. That is how :func:`solve_linear_ordering` checks uniqueness and enumerates
   all optima across components.
2. **Incumbent**: the better of the Borda (row sums) and Copeland (majority wins minus
   losses) orders, improved by insertion local search.
3. **LP phase**: one variable per pair ``i < j`` (``y_ij = 1``: ``i`` above ``j``; the
   reverse order is ``1 - y_ij``, so "exactly one direction per pair" needs no
   constraint); solve the LP relaxation, add the most violated 3-cycle inequalities
   (vectorized search over all triples), drop rows with all their slack left once the LP
   grows, repeat. The LP value is a proven lower bound,
   re-derived from the duals by independent arithmetic (a Lagrangian bound). Often the
   LP optimum is already a linear order, and then it is optimal.
4. **MIP phase**: binary variables, the incumbent as MIP start (HiGHS), absolute gap of
   half the objective's lattice step; integer solutions with 3-cycles get those cuts
   added and are re-solved with the *remaining* time, until the bound meets the incumbent.

References
----------
.. [1] Colombo et al., "What are the best systems? New perspectives on NLP benchmarking",
   NeurIPS 2022, sec. 3.1 (Kemeny consensus, NP-hard in general).
.. [2] Grotschel, Junger, Reinelt, "A cutting plane algorithm for the linear ordering
   problem", Operations Research 32(6), 1984 (3-dicycle inequalities).
.. [3] Conitzer, Davenport, Kalagnanam, "Improved bounds for computing Kemeny rankings",
   AAAI 2006 (the ILP and the majority-graph decomposition).
"""

from __future__ import annotations

import itertools
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from .brute_force import MAX_BRUTE_FORCE, brute_force_linear_ordering
from .model import LinearModel, ModelSolution
from .status import SolverError, SolveStatus

__all__ = [
    "LinearOrderingOutcome",
    "SolveProgress",
    "solve_linear_ordering",
    "ordering_cost",
    "majority_components",
    "objective_unit",
    "heuristic_order",
    "improve_order",
    "violated_cycles",
]

logger = logging.getLogger(__name__)

Method = Literal["auto", "ilp", "brute_force"]

#: HiGHS options for the MIP phase: the incumbent comes from our own search, so HiGHS's
#: primal heuristics are off; mip_rel_gap 0 because optimality is decided by the absolute
#: gap below the objective's lattice step. No strong branching (pscost_minreliable 0) and
#: no restarts: measured on pure-noise Gumbel leaderboards (N = 80, 100), these halve the
#: time to the proof (see docs/kemeny.md).
_HIGHS_MIP_OPTIONS: dict[str, Any] = {
    "mip_rel_gap": 0.0,
    "mip_heuristic_effort": 0.0,
    "mip_pscost_minreliable": 0,
    "mip_allow_restart": False,
}


#: LP relaxations with more rows than this are solved by HiGHS's interior point method.
_IPM_ROWS = 2000
#: Most violated 3-cycles added per LP round, per item of the component.
_CUTS_PER_ITEM = 25
#: 3-cycle rows with (nearly) all their slack left at the LP optimum are dropped once the LP
#: has more than _PURGE_MIN_ROWS rows per item (they come back if violated again): it keeps
#: the LPs of pure-noise leaderboards 3-5x smaller (N = 150: LP phase 79 s -> 15 s).
_PURGE_SLACK: float | None = 0.999
_PURGE_MIN_ROWS = 10


# --------------------------------------------------------------------------- results
@dataclass(frozen=True, slots=True)
class SolveProgress:
    """A progress report, passed to the ``progress`` callback after each solve round.

    ``component`` is the 0-based index of the component being solved (in ranking order),
    ``size`` its number of items, ``round`` the LP/MIP solves so far and ``cuts`` the
    3-cycle constraints added so far. ``incumbent`` and ``bound`` are for the whole
    problem (all components), so ``incumbent - bound`` is the current proven gap; during
    the ``"unique"`` and ``"enumerate"`` stages they stay at the proven optimum.
    """

    stage: str
    component: int
    n_components: int
    size: int
    round: int
    cuts: int
    incumbent: float
    bound: float
    elapsed: float

    @property
    def gap(self) -> float:
        """``incumbent - bound`` (0 once proven optimal)."""
        return max(0.0, self.incumbent - self.bound)


@dataclass(frozen=True, slots=True)
class LinearOrderingOutcome:
    """The best order found, its cost, a proven lower bound, and solve statistics.

    Attributes
    ----------
    order : tuple of int
        Item indices, best first.
    objective : float
        Cost of `order`, recomputed from the matrix with :func:`ordering_cost`.
    lower_bound : float
        Proven lower bound on the optimal cost (equal to `objective` when optimal).
    status : SolveStatus
        ``OPTIMAL`` or ``TIME_LIMIT``.
    method : str
        ``"ilp:<backend>"`` when an integer program was solved, ``"brute_force"`` when
        every component was small enough to enumerate, ``"decomposition"`` when every
        component is a single item (the majority relation is already a ranking).
    unique : bool or None
        Whether `order` is the only optimal order; None when not checked (not asked,
        not optimal, or out of time).
    optima : tuple of tuple of int
        All optimal orders (lexicographic), when enumeration was asked; else ``()``.
    optima_truncated : bool
        More optimal orders exist than the enumeration cap.
    components : tuple of tuple of int
        Members of each decomposition component, in the order they are ranked.
    constraints_added : int
        3-cycle constraints added lazily (over all components and re-solves).
    iterations : int
        LP and MIP solves performed.
    seconds : float
        Wall-clock time.
    unit : float or None
        Lattice step of the objective (every order costs ``objective + k * unit``), or
        None when the costs are not commensurable.
    """

    order: tuple[int, ...]
    objective: float
    lower_bound: float
    status: SolveStatus
    method: str
    unique: bool | None
    optima: tuple[tuple[int, ...], ...]
    optima_truncated: bool
    components: tuple[tuple[int, ...], ...]
    constraints_added: int
    iterations: int
    seconds: float
    unit: float | None

    @property
    def optimal(self) -> bool:
        """Whether `order` is proven optimal."""
        return self.status is SolveStatus.OPTIMAL

    @property
    def gap(self) -> float:
        """``objective - lower_bound``."""
        return max(0.0, self.objective - self.lower_bound)


# --------------------------------------------------------------------------- helpers
def _as_costs(costs: ArrayLike) -> NDArray[np.float64]:
    matrix = np.array(costs, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"the cost matrix must be square, got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("the cost matrix must be finite")
    np.fill_diagonal(matrix, 0.0)
    return matrix


def _default_tol(costs: NDArray[np.float64]) -> float:
    """``1e-9 * max(1, max(costs + costs.T))``: the tolerance of PairwiseMatrix.tol."""
    scale = float((costs + costs.T).max()) if costs.size else 0.0
    return 1e-9 * max(scale, 1.0)


def ordering_cost(costs: ArrayLike, order: Sequence[int]) -> float:
    """Cost of an order: the sum of ``costs[j, i]`` over pairs with ``i`` placed above ``j``.

    For Kemeny consensus with ``costs`` = pairwise preferences, this is the total weighted
    Kendall disagreement between the order and the tasks.

    Examples
    --------
    >>> ordering_cost([[0, 2, 1], [1, 0, 2], [2, 1, 0]], [0, 1, 2])
    4.0
    """
    matrix = np.asarray(costs, dtype=np.float64)
    idx = np.asarray(order, dtype=np.int64)
    n = matrix.shape[0]
    if idx.shape != (n,) or not np.array_equal(np.sort(idx), np.arange(n)):
        raise ValueError(f"order must be a permutation of 0..{n - 1}, got {list(order)!r}")
    position = np.empty(n, dtype=np.int64)
    position[idx] = np.arange(n)
    above = position[:, None] < position[None, :]  # above[i, j]: i placed above j
    value = float((matrix.T * above).sum())  # i above j pays costs[j, i]
    return 0.0 if value == 0 else value


def objective_unit(costs: ArrayLike, *, tol: float | None = None) -> float | None:
    """The lattice step of order costs: the gcd of the pairwise margins, or None.

    Two orders differ by a set of reversed pairs, and reversing ``{i, j}`` changes the
    cost by ``costs[i, j] - costs[j, i]``, so all costs lie on ``c0 + unit * Z``. A bound
    above ``c0 - unit`` therefore proves ``c0`` optimal. Margins are tried as rationals
    with denominators up to 10**6; None when they are not commensurable.

    Examples
    --------
    >>> objective_unit([[0, 3, 1], [1, 0, 2], [2, 1, 0]])
    1.0
    >>> objective_unit([[0, 1.5], [0.5, 0]])
    1.0
    >>> objective_unit([[0, 0.6, 0.2], [0.2, 0, 0.6], [0.6, 0.2, 0]])
    0.4
    """
    matrix = np.asarray(costs, dtype=np.float64)
    if tol is None:
        tol = _default_tol(matrix)
    iu, ju = np.triu_indices(matrix.shape[0], 1)
    margins = np.abs(matrix[iu, ju] - matrix[ju, iu])
    margins = margins[margins > tol]
    if margins.size == 0:
        return None
    for denominator in _DENOMINATORS:
        scaled = margins * denominator
        rounded = np.round(scaled)
        if scaled.max() > 2**52:
            break
        if np.all(np.abs(scaled - rounded) <= np.maximum(1e-6, 1e-12 * scaled)):
            g = int(np.gcd.reduce(rounded.astype(np.int64)))
            return g / denominator
    return None


_DENOMINATORS: tuple[int, ...] = tuple(
    sorted({a * 10**p for a in (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 24, 32, 64) for p in range(7)})
)


def _round_up(bound: float, base: float, unit: float | None) -> float:
    """The smallest lattice value ``base + k * unit`` at or above `bound` (bound itself if no lattice)."""
    if unit is None or not math.isfinite(bound):
        return bound
    return base + unit * math.ceil((bound - base) / unit - 1e-6)


def heuristic_order(costs: ArrayLike, *, tol: float | None = None) -> tuple[tuple[int, ...], float]:
    """A good order fast: the better of Borda and Copeland orders, then insertion local search.

    Borda ranks by row sums of `costs` (total preference); Copeland by strict majority
    wins minus losses (ties broken by Borda, then index). Both are computed here from the
    matrix, independently of any voting-rule module.

    Returns
    -------
    order, cost : tuple of int, float

    Examples
    --------
    >>> heuristic_order([[0, 3, 3], [0, 0, 2], [0, 1, 0]])
    ((0, 1, 2), 1.0)
    """
    matrix = _as_costs(costs)
    if tol is None:
        tol = _default_tol(matrix)
    n = matrix.shape[0]
    borda = matrix.sum(axis=1)
    margins = matrix - matrix.T
    copeland = (margins > tol).sum(axis=1) - (margins < -tol).sum(axis=1)
    index = np.arange(n)
    starts = [np.lexsort((index, -borda)), np.lexsort((index, -borda, -copeland))]
    best: tuple[tuple[int, ...], float] | None = None
    for start in starts:
        order, value = improve_order(matrix, start, tol=tol)
        if best is None or value < best[1] - tol:
            best = (order, value)
    assert best is not None
    return best


def improve_order(
    costs: ArrayLike, order: Sequence[int], *, tol: float | None = None
) -> tuple[tuple[int, ...], float]:
    """Insertion local search: move one item to its best position while that lowers the cost.

    Each sweep tries every item at every other position (cumulative sums of margins, so a
    sweep costs O(n^2)); it stops at an order no single move improves by more than `tol`.

    Examples
    --------
    >>> improve_order([[0, 3, 3], [0, 0, 2], [0, 1, 0]], [2, 1, 0])
    ((0, 1, 2), 1.0)
    """
    matrix = _as_costs(costs)
    if tol is None:
        tol = _default_tol(matrix)
    margins = matrix - matrix.T
    current = np.array(order, dtype=np.int64)
    n = len(current)
    improved = True
    while improved:
        improved = False
        for p in range(n):
            item = current[p]
            row = margins[item, current]
            # moving up to q < p puts item above current[q..p-1]: cost change -sum margins
            up = -np.cumsum(row[:p][::-1]) if p > 0 else np.zeros(0)
            # moving down to q > p puts item below current[p+1..q]: cost change +sum margins
            down = np.cumsum(row[p + 1 :]) if p < n - 1 else np.zeros(0)
            best_up = float(up.min()) if up.size else 0.0
            best_down = float(down.min()) if down.size else 0.0
            if min(best_up, best_down) < -tol:
                target = p - 1 - int(np.argmin(up)) if best_up <= best_down else p + 1 + int(np.argmin(down))
                current = np.insert(np.delete(current, p), target, item)
                improved = True
    result = tuple(int(x) for x in current)
    return result, ordering_cost(matrix, result)


def _insertion_deltas(margins: NDArray[np.float64], order: NDArray[np.int64]) -> list[tuple[float, int, int]]:
    """``(cost change, from position, to position)`` of every single-item move."""
    n = len(order)
    moves: list[tuple[float, int, int]] = []
    for p in range(n):
        row = margins[order[p], order]
        if p > 0:
            up = -np.cumsum(row[:p][::-1])
            moves.extend((float(d), p, p - 1 - t) for t, d in enumerate(up))
        if p < n - 1:
            down = np.cumsum(row[p + 1 :])
            moves.extend((float(d), p, p + 1 + t) for t, d in enumerate(down))
    return moves


def _moved(order: Sequence[int], source: int, target: int) -> tuple[int, ...]:
    items = list(order)
    item = items.pop(source)
    items.insert(target, item)
    return tuple(items)


def _perturbation_search(
    costs: NDArray[np.float64],
    order: tuple[int, ...],
    value: float,
    *,
    iterations: int,
    seed: int,
    deadline: float | None,
    tol: float,
) -> tuple[tuple[int, ...], float]:
    """Iterated local search: reverse a few short segments, re-optimize, keep if not worse."""
    rng = np.random.default_rng(seed)
    n = len(order)
    if n < 4:
        return order, value
    best, best_value = order, value
    current, current_value = order, value
    for _ in range(iterations):
        if deadline is not None and time.perf_counter() > deadline:
            break
        trial = np.array(current)
        for _ in range(3):
            start = int(rng.integers(n - 1))
            stop = min(n, start + int(rng.integers(2, 8)))
            trial[start:stop] = trial[start:stop][::-1]
        candidate, candidate_value = improve_order(costs, trial, tol=tol)
        if candidate_value <= current_value + tol:
            current, current_value = candidate, candidate_value
            if candidate_value < best_value - tol:
                best, best_value = candidate, candidate_value
    return best, best_value


def violated_cycles(above: ArrayLike, *, eps: float = 1e-6, limit: int | None = None) -> NDArray[np.int64]:
    """3-cycles ``a -> b -> c -> a`` with ``above[a,b] + above[b,c] + above[c,a] > 2 + eps``.

    `above` is an n x n matrix with ``above + above.T = 1`` off the diagonal (a linear
    order, a tournament, or a fractional LP point). Each cycle is listed once, with its
    smallest item first; the most violated come first (ties in index order).

    Returns
    -------
    ndarray (k, 3)
        Rows ``(a, b, c)``.

    Examples
    --------
    >>> tournament = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])  # 0 > 1 > 2 > 0
    >>> violated_cycles(tournament).tolist()
    [[0, 1, 2]]
    """
    matrix = np.asarray(above, dtype=np.float64)
    n = matrix.shape[0]
    found: list[NDArray[np.float64]] = []
    for a in range(n - 2):
        rest = matrix[a + 1 :, a + 1 :]
        # slack[b, c] = above[a, b] + above[b, c] + above[c, a] - 2 over b, c > a (diagonal: -1)
        slack = matrix[a, a + 1 :, None] + rest + matrix[a + 1 :, a][None, :] - 2.0
        bs, cs = np.nonzero(slack > eps)
        if len(bs):
            found.append(np.column_stack([np.full(len(bs), a), bs + a + 1, cs + a + 1, slack[bs, cs]]))
    if not found:
        return np.zeros((0, 3), dtype=np.int64)
    rows = np.concatenate(found)
    rows = rows[np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0], -rows[:, 3]))]
    if limit is not None:
        rows = rows[:limit]
    return rows[:, :3].astype(np.int64)


def majority_components(costs: ArrayLike, *, tol: float | None = None) -> list[list[int]]:
    """Strongly connected components of the strict majority relation, in a topological order.

    ``i`` beats ``j`` when ``costs[i, j] - costs[j, i] > tol``. The components are returned
    so that no member of a later component beats a member of an earlier one (ties between
    components are possible); among incomparable components the one holding the smallest
    index comes first. Every Kemeny-optimal *value* is attained by an order that ranks
    the components in this order (see the module notes).

    Examples
    --------
    >>> cycle_then_loser = [[0, 2, 1, 3], [1, 0, 2, 3], [2, 1, 0, 3], [0, 0, 0, 0]]
    >>> majority_components(cycle_then_loser)
    [[0, 1, 2], [3]]
    """
    matrix = _as_costs(costs)
    if tol is None:
        tol = _default_tol(matrix)
    n = matrix.shape[0]
    if n == 0:
        return []
    beats = (matrix - matrix.T) > tol
    count, labels = connected_components(csr_matrix(beats), directed=True, connection="strong")
    members = [np.nonzero(labels == c)[0].tolist() for c in range(count)]
    edges = np.zeros((count, count), dtype=bool)
    rows, cols = np.nonzero(beats)
    edges[labels[rows], labels[cols]] = True
    np.fill_diagonal(edges, False)
    indegree = edges.sum(axis=0)
    ready = sorted((members[c][0], c) for c in range(count) if indegree[c] == 0)
    order: list[int] = []
    while ready:
        _, c = ready.pop(0)
        order.append(c)
        for d in np.nonzero(edges[c])[0]:
            indegree[d] -= 1
            if indegree[d] == 0:
                ready.append((members[d][0], int(d)))
        ready.sort()
    return [members[c] for c in order]


# --------------------------------------------------------------------------- the model
@dataclass
class _MipResult:
    status: SolveStatus
    above: NDArray[np.float64] | None  # rounded solution as an above-matrix
    value: float | None  # objective of that (possibly cyclic) solution
    dual_bound: float | None  # solver-proven bound for the current model (HiGHS only)


class _OrderingModel:
    """The model of one component: pair variables, lazily added rows, solves (:class:`LinearModel`)."""

    def __init__(
        self,
        costs: NDArray[np.float64],
        *,
        backend: str,
        verbose: bool,
        threads: int | None,
        counters: _Counters,
        on_mip_progress: Callable[[float], None] | None,
    ) -> None:
        n = costs.shape[0]
        self.n, self.costs, self.backend, self.verbose, self.threads = n, costs, backend, verbose, threads
        self.counters = counters
        self.on_mip_progress = on_mip_progress
        self.iu, self.ju = np.triu_indices(n, 1)
        self.n_pairs = len(self.iu)
        self.pair = np.full((n, n), -1, dtype=np.int64)
        self.pair[self.iu, self.ju] = np.arange(self.n_pairs)
        # y = 1 (i above j) pays costs[j, i]; y = 0 pays costs[i, j]
        self.coef = costs[self.ju, self.iu] - costs[self.iu, self.ju]
        self.const = float(costs[self.iu, self.ju].sum())
        self.model = LinearModel(backend=backend, verbose=verbose, threads=threads)
        # one variable per pair, in [0, 1]; the objective is the total disagreement up to
        # the constant sum of costs[i, j] over i < j
        self.model.add_columns(np.zeros(self.n_pairs), np.ones(self.n_pairs), self.coef)
        self.cycles: set[tuple[int, int, int]] = set()
        self.excluded: set[tuple[int, ...]] = set()  # orders cut off by no-goods
        self.rows: list[_Row] = []  # in the model's row order
        self.duals: NDArray[np.float64] | None = None  # of the last LP solve, one per row
        self.limit_reached = False  # the last LP solve stopped at its time limit
        self._row_matrix: tuple[csr_matrix, NDArray[np.float64]] | None = None

    # ---- rows
    def _literal(self, a: int, b: int) -> tuple[int, float, float]:
        """``x[a, b]`` ("a above b") as ``coef * y[pair] + offset``."""
        if a < b:
            return int(self.pair[a, b]), 1.0, 0.0
        return int(self.pair[b, a]), -1.0, 1.0

    def _row(self, terms: Sequence[tuple[int, int]], rhs: float, key: tuple[int, int, int] | None = None) -> _Row:
        """The row ``sum of x[a, b] over terms <= rhs`` (`key`: the 3-cycle it forbids, if any)."""
        index: list[int] = []
        coefs: list[float] = []
        for a, b in terms:
            k, c, offset = self._literal(a, b)
            index.append(k)
            coefs.append(c)
            rhs -= offset
        return _Row(index, coefs, rhs, key)

    def _push(self, rows: list[_Row]) -> None:
        """Append `rows` to the model (one call for the batch)."""
        if not rows:
            return
        lengths = [len(row.index) for row in rows]
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        index = [k for row in rows for k in row.index]
        value = [c for row in rows for c in row.coefs]
        self.model.add_rows(np.full(len(rows), -np.inf), [row.rhs for row in rows], starts, index, value)
        self.rows.extend(rows)
        self._row_matrix = None
        self.duals = None

    def add_cycles(self, triples: Iterable[Sequence[int]]) -> int:
        """Forbid each 3-cycle ``a -> b -> c -> a``; returns how many were new."""
        new: list[_Row] = []
        for triple in triples:
            a, b, c = (int(v) for v in triple)
            start = min(range(3), key=lambda t: (a, b, c)[t])
            key = tuple((a, b, c)[(start + t) % 3] for t in range(3))
            if key in self.cycles:
                continue
            self.cycles.add(key)  # type: ignore[arg-type]
            # no 3-cycle: x[a,b] + x[b,c] + x[c,a] <= 2
            new.append(self._row([(a, b), (b, c), (c, a)], 2.0, key))  # type: ignore[arg-type]
        self._push(new)
        self.counters.cuts += len(new)
        return len(new)

    def purge_slack_cycles(self, y: NDArray[np.float64], *, slack: float) -> int:
        """Drop 3-cycle rows with more than `slack` left at `y`; they may be added again later."""
        matrix, rhs = self.row_matrix()
        left = rhs - matrix @ y
        drop = [k for k, (row, room) in enumerate(zip(self.rows, left.tolist())) if row.key is not None and room > slack]
        if drop:
            for k in drop:
                self.cycles.discard(self.rows[k].key)  # type: ignore[arg-type]
            gone = set(drop)
            self.rows = [row for k, row in enumerate(self.rows) if k not in gone]
            self.model.delete_rows(drop)
            self._row_matrix = None
            self.duals = None
        return len(drop)

    def add_nogood(self, order: Sequence[int]) -> None:
        """Exclude exactly `order`: some adjacent pair of it must be reversed."""
        self.excluded.add(tuple(int(i) for i in order))
        pairs = [(order[k], order[k + 1]) for k in range(len(order) - 1)]
        # no-good: at most n - 2 of the n - 1 adjacent pairs keep their direction
        self._push([self._row(pairs, float(len(pairs) - 1))])

    # ---- conversions
    def above(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        matrix = np.zeros((self.n, self.n))
        matrix[self.iu, self.ju] = y
        matrix[self.ju, self.iu] = 1.0 - y
        return matrix

    def y_of_order(self, order: Sequence[int]) -> NDArray[np.float64]:
        position = np.empty(self.n, dtype=np.int64)
        position[np.asarray(order)] = np.arange(self.n)
        return (position[self.iu] < position[self.ju]).astype(np.float64)

    def _solve(self, **options: Any) -> ModelSolution:
        self.counters.iterations += 1
        return self.model.solve(**options)

    # ---- LP relaxation
    def row_matrix(self) -> tuple[csr_matrix, NDArray[np.float64]]:
        """The rows as a sparse matrix ``A`` and right-hand sides ``b`` (``A y <= b``)."""
        if self._row_matrix is None:
            data = [c for row in self.rows for c in row.coefs]
            cols = [k for row in self.rows for k in row.index]
            ptr = np.cumsum([0] + [len(row.index) for row in self.rows])
            shape = (len(self.rows), self.n_pairs)
            self._row_matrix = (csr_matrix((data, cols, ptr), shape=shape), np.array([row.rhs for row in self.rows]))
        return self._row_matrix

    def lagrangian_bound(self) -> float | None:
        """A lower bound re-derived from the row duals: valid for any multipliers >= 0.

        For ``min c.y s.t. A y <= b, 0 <= y <= 1`` and ``lam >= 0``:
        ``L(lam) = -lam.b + sum_j min(0, c_j + (A^T lam)_j) <= optimum``.
        """
        if self.duals is None or len(self.duals) != len(self.rows):
            return None
        matrix, rhs = self.row_matrix()
        best = -math.inf
        for sign in (-1.0, 1.0):  # solvers differ in the sign convention of row duals
            lam = np.maximum(sign * self.duals, 0.0)
            reduced = self.coef + matrix.T @ lam
            best = max(best, self.const - float(lam @ rhs) + float(np.minimum(reduced, 0.0).sum()))
        return best

    def solve_lp(self, time_limit: float | None) -> tuple[SolveStatus, NDArray[np.float64] | None, float | None]:
        """Solve the LP relaxation; returns status, solution, and a verified lower bound."""
        self.model.set_integer(False)
        # from scratch, not warm from the last basis: measured on pure noise (N = 80, seed 0),
        # warm starts led the cutting-plane loop through 205-222 LP rounds instead of 9-12
        # (each warm optimum is a vertex next to the last one, cutting off few new cycles)
        self.model.forget_basis()
        # interior point is faster than simplex from scratch on big LPs (crossover keeps a vertex)
        options = {"solver": "ipm"} if len(self.rows) > _IPM_ROWS else {}
        sol = self._solve(time_limit=time_limit, highs_options=options)
        self.limit_reached = sol.limit_reached
        self.duals = sol.row_duals
        y = np.clip(sol.x, 0.0, 1.0) if sol.x is not None else None
        bound = self.lagrangian_bound() if y is not None else None
        if bound is None and sol.status is SolveStatus.OPTIMAL and y is not None:
            bound = self.const + float(self.coef @ y)  # the solver's LP value (no duals)
        return sol.status, y, bound

    # ---- MIP
    def solve_mip(self, time_limit: float | None, *, start: Sequence[int] | None, gap_abs: float) -> _MipResult:
        self.model.set_integer(True)
        self.duals = None
        start_y = self.y_of_order(start) if start is not None else None
        sol = self._solve(
            time_limit=time_limit,
            mip_start=start_y,
            gap_abs=gap_abs,
            highs_options=_HIGHS_MIP_OPTIONS,
            on_dual_bound=(lambda b: self.on_mip_progress(self.const + b)) if self.on_mip_progress else None,
        )
        dual = self.const + sol.dual_bound if sol.dual_bound is not None else None
        if sol.x is None:
            return _MipResult(sol.status, None, None, dual)
        rounded = (np.clip(sol.x, 0.0, 1.0) > 0.5).astype(np.float64)
        return _MipResult(sol.status, self.above(rounded), self.const + float(self.coef @ rounded), dual)


@dataclass
class _Row:
    index: list[int]  # pair-variable indices
    coefs: list[float]
    rhs: float
    key: tuple[int, int, int] | None  # the 3-cycle it forbids; None for a no-good


@dataclass
class _Counters:
    cuts: int = 0
    iterations: int = 0


def _order_of(above: NDArray[np.float64]) -> tuple[int, ...]:
    """Items by decreasing number of items below them (a linear order when `above` is one)."""
    score = above.sum(axis=1)
    return tuple(int(x) for x in np.lexsort((np.arange(len(score)), -score)))


# --------------------------------------------------------------------------- component solve
@dataclass
class _Context:
    backend: str
    method: Method
    deadline: float | None
    verbose: bool
    threads: int | None
    tol: float
    unit: float | None
    seed: int
    counters: _Counters
    report: Callable[[str, int, float, float], None]

    def remaining(self) -> float | None:
        if self.deadline is None:
            return None
        return self.deadline - time.perf_counter()

    def out_of_time(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0.0

    def proves(self, bound: float, value: float) -> bool:
        """Whether a lower `bound` proves that no order beats `value`."""
        if self.unit is not None:
            return bound > value - self.unit * (1.0 - 1e-6)
        return bound >= value - max(self.tol, 1e-9 * max(1.0, abs(value)))

    def gap_abs(self) -> float:
        """Absolute MIP gap: half a lattice step (a bound above ``value - unit`` proves ``value``)."""
        return 0.5 * self.unit if self.unit is not None else max(self.tol, 1e-9)


@dataclass
class _Component:
    members: list[int]
    costs: NDArray[np.float64]
    order: tuple[int, ...]
    value: float
    bound: float
    status: SolveStatus
    kind: str  # "trivial", "brute_force", "ilp"
    model: _OrderingModel | None = None
    brute_optima: tuple[tuple[int, ...], ...] | None = None


def _trivial_bound(costs: NDArray[np.float64]) -> float:
    """Each pair costs at least its smaller side."""
    iu, ju = np.triu_indices(costs.shape[0], 1)
    return float(np.minimum(costs[iu, ju], costs[ju, iu]).sum())


def _solve_component(costs: NDArray[np.float64], index: int, ctx: _Context) -> _Component:
    n = costs.shape[0]
    members = list(range(n))
    if n == 1:
        return _Component(members, costs, (0,), 0.0, 0.0, SolveStatus.OPTIMAL, "trivial")
    use_ilp = ctx.method == "ilp" or n > MAX_BRUTE_FORCE
    if not use_ilp:
        bf = brute_force_linear_ordering(costs, tol=ctx.tol)
        return _Component(
            members, costs, bf.order, bf.objective, bf.objective, SolveStatus.OPTIMAL, "brute_force", brute_optima=bf.optima
        )
    order, value = heuristic_order(costs, tol=ctx.tol)
    bound = _round_up(_trivial_bound(costs), value, ctx.unit)
    comp = _Component(members, costs, order, value, bound, SolveStatus.TIME_LIMIT, "ilp")
    ctx.report("heuristic", index, value, bound)
    if ctx.proves(bound, value):
        comp.status, comp.bound = SolveStatus.OPTIMAL, value
        return comp
    model = _model_of(comp, index, ctx)
    _lp_phase(comp, index, ctx)
    if comp.status is not SolveStatus.OPTIMAL and not ctx.out_of_time():
        budget = 40 + 4 * n
        left = ctx.remaining()
        search_deadline = None if left is None else time.perf_counter() + 0.2 * left
        order, value = _perturbation_search(
            costs, comp.order, comp.value, iterations=budget, seed=ctx.seed, deadline=search_deadline, tol=ctx.tol
        )
        if value < comp.value - ctx.tol:
            comp.order, comp.value = order, value
            ctx.report("heuristic", index, comp.value, comp.bound)
        if ctx.proves(comp.bound, comp.value):
            comp.status, comp.bound = SolveStatus.OPTIMAL, comp.value
    if comp.status is not SolveStatus.OPTIMAL and not ctx.out_of_time():
        best = _mip_search(model, comp.order, comp.value, comp.bound, index, ctx, stage="mip")
        comp.order, comp.value, comp.bound, comp.status = best
    return comp


def _model_of(comp: _Component, index: int, ctx: _Context) -> _OrderingModel:
    """The component's ILP model, built on first use."""
    if comp.model is None:
        comp.model = _OrderingModel(
            comp.costs,
            backend=ctx.backend,
            verbose=ctx.verbose,
            threads=ctx.threads,
            counters=ctx.counters,
            on_mip_progress=lambda b: ctx.report(
                "mip", index, comp.value, max(comp.bound, _round_up(b, comp.value, ctx.unit))
            ),
        )
    return comp.model


def _lp_phase(comp: _Component, index: int, ctx: _Context) -> None:
    """Cutting planes on the LP relaxation until no 3-cycle is violated."""
    model = _model_of(comp, index, ctx)
    n = model.n
    per_round = max(100, _CUTS_PER_ITEM * n)
    while not ctx.out_of_time():
        status, y, lp_bound = model.solve_lp(ctx.remaining())
        if y is None:
            if status is SolveStatus.NOT_SOLVED and (ctx.out_of_time() or model.limit_reached):
                return  # the time limit stopped the LP before it had a point
            raise SolverError(f"the LP relaxation ended with status {status.value!r}", status)
        if lp_bound is not None:
            comp.bound = max(comp.bound, _round_up(lp_bound, comp.value, ctx.unit))
        above = model.above(y)
        order, value = improve_order(comp.costs, _order_of(above), tol=ctx.tol)
        if value < comp.value - ctx.tol:
            comp.order, comp.value = order, value
        ctx.report("lp", index, comp.value, comp.bound)
        if ctx.proves(comp.bound, comp.value):
            comp.status, comp.bound = SolveStatus.OPTIMAL, comp.value
            return
        if status is not SolveStatus.OPTIMAL:
            return  # time limit inside the LP
        cycles = violated_cycles(above, limit=per_round)
        if len(cycles) == 0:
            if np.all(np.abs(y - np.round(y)) <= 1e-6):
                # an integral LP optimum without 3-cycles is a linear order: optimal when the
                # verified bound agrees (up to the LP's own tolerances)
                exact = _order_of(np.round(above))
                exact_value = ordering_cost(comp.costs, exact)
                if exact_value < comp.value - ctx.tol:
                    comp.order, comp.value = exact, exact_value
                if comp.bound >= comp.value - 1e-6 * max(1.0, abs(comp.value)):
                    comp.status, comp.bound = SolveStatus.OPTIMAL, comp.value
                ctx.report("lp", index, comp.value, comp.bound)
            return
        if _PURGE_SLACK is not None and len(model.rows) > _PURGE_MIN_ROWS * n:
            model.purge_slack_cycles(y, slack=_PURGE_SLACK)
        model.add_cycles(cycles.tolist())


def _mip_search(
    model: _OrderingModel,
    order: tuple[int, ...] | None,
    value: float,
    bound: float,
    index: int,
    ctx: _Context,
    *,
    stage: str,
    stop_at: float | None = None,
) -> tuple[tuple[int, ...] | None, float, float, SolveStatus]:
    """Minimize over the current model (with its no-goods) by MIP + lazy 3-cycles.

    Returns the best valid order found (None if none), its cost (inf if none), a proven
    lower bound for the current model, and OPTIMAL when that bound meets the order.
    With `stop_at`, returns as soon as a valid order costing at most `stop_at` is found.
    """
    costs = model.costs
    while True:
        if order is not None and ctx.proves(bound, value):
            return order, value, value, SolveStatus.OPTIMAL
        if ctx.out_of_time():
            return order, value, bound, SolveStatus.TIME_LIMIT
        result = model.solve_mip(ctx.remaining(), start=order, gap_abs=ctx.gap_abs())
        if result.status is SolveStatus.INFEASIBLE:
            # the no-goods exclude every order: nothing better exists
            return order, value, math.inf, SolveStatus.OPTIMAL
        if result.dual_bound is not None:
            bound = max(bound, _round_up(result.dual_bound, value if order else result.dual_bound, ctx.unit))
        if result.status is SolveStatus.OPTIMAL and result.value is not None:
            # optimal for the relaxed model (up to the absolute gap): a valid bound
            base = value if order is not None else result.value
            bound = max(bound, _round_up(result.value - ctx.gap_abs(), base, ctx.unit))
        if result.above is not None:
            cycles = violated_cycles(result.above, eps=0.5)
            if len(cycles):
                model.add_cycles(cycles.tolist())
            raw = _order_of(result.above)
            for candidate in (raw, improve_order(costs, raw, tol=ctx.tol)[0]):
                candidate_value = ordering_cost(costs, candidate)
                if candidate not in model.excluded and (order is None or candidate_value < value - ctx.tol):
                    order, value = candidate, candidate_value
            if stop_at is not None and order is not None and value <= stop_at + ctx.tol:
                # as good as the known optimum of the unrestricted problem: optimal here too
                return order, value, value, SolveStatus.OPTIMAL
        ctx.report(stage, index, value if order is not None else math.inf, bound)
        if result.status is SolveStatus.NOT_SOLVED:
            if ctx.out_of_time():
                return order, value, bound, SolveStatus.TIME_LIMIT
            raise SolverError(f"{ctx.backend} stopped without a solution", result.status)
        if result.status is SolveStatus.TIME_LIMIT and ctx.out_of_time():
            return order, value, bound, SolveStatus.TIME_LIMIT
        if result.above is None:
            raise SolverError(f"{ctx.backend} returned no solution (status {result.status.value!r})", result.status)


# --------------------------------------------------------------------------- ties and optima
def _tied(margins: NDArray[np.float64], a: int, b: int, tol: float) -> bool:
    return abs(float(margins[a, b])) <= tol


def _tie_closure(
    seeds: Iterable[tuple[int, ...]], margins: NDArray[np.float64], tol: float, cap: int
) -> tuple[list[tuple[int, ...]], bool]:
    """All orders reachable by swapping adjacent majority-tied items (each swap costs 0).

    Returns at most `cap` orders and whether the closure is complete.
    """
    seen: dict[tuple[int, ...], None] = {}
    queue: deque[tuple[int, ...]] = deque()
    for seed in seeds:
        if seed in seen:
            continue
        if len(seen) >= cap:
            return list(seen), False
        seen[seed] = None
        queue.append(seed)
        while queue:
            current = queue.popleft()
            for k in range(len(current) - 1):
                if _tied(margins, current[k], current[k + 1], tol):
                    swapped = current[:k] + (current[k + 1], current[k]) + current[k + 2 :]
                    if swapped not in seen:
                        if len(seen) >= cap:
                            return list(seen), False
                        seen[swapped] = None
                        queue.append(swapped)
    return list(seen), True


def _best_other(costs: NDArray[np.float64], known: Iterable[tuple[int, ...]], exclude: set[tuple[int, ...]]) -> tuple[int, ...] | None:
    """The cheapest single-item move away from a known optimum that is not excluded."""
    margins = costs - costs.T
    best: tuple[float, tuple[int, ...]] | None = None
    for order in list(known)[-5:]:
        moves = sorted(_insertion_deltas(margins, np.asarray(order)))
        for delta, source, target in moves:
            candidate = _moved(order, source, target)
            if candidate not in exclude:
                if best is None or delta < best[0]:
                    best = (delta, candidate)
                break
    return None if best is None else best[1]


def _component_unique(comp: _Component, index: int, ctx: _Context) -> bool | None:
    """Whether the component's optimum is its only optimal order (None: out of time)."""
    n = len(comp.order)
    if n == 1:
        return True
    if comp.brute_optima is not None:
        return len(comp.brute_optima) == 1
    margins = comp.costs - comp.costs.T
    if any(_tied(margins, comp.order[k], comp.order[k + 1], ctx.tol) for k in range(n - 1)):
        return False
    if any(delta <= ctx.tol for delta, _, _ in _insertion_deltas(margins, np.asarray(comp.order))):
        return False  # a zero-cost move: another optimal order
    model = _model_of(comp, index, ctx)
    model.add_nogood(comp.order)
    start = _best_other(comp.costs, [comp.order], {comp.order})
    value = ordering_cost(comp.costs, start) if start is not None else math.inf
    order, value, bound, status = _mip_search(
        model, start, value, -math.inf, index, ctx, stage="unique", stop_at=comp.value
    )
    if order is not None and value <= comp.value + ctx.tol:
        return False
    if status is SolveStatus.OPTIMAL and bound > comp.value + ctx.tol:
        return True
    return None


def _component_optima(comp: _Component, index: int, ctx: _Context, cap: int) -> tuple[list[tuple[int, ...]], bool]:
    """Up to `cap` optimal orders of a component and whether that is all of them."""
    if comp.brute_optima is not None:
        return list(comp.brute_optima[:cap]), len(comp.brute_optima) <= cap
    if len(comp.order) == 1:
        return [comp.order], True
    margins = comp.costs - comp.costs.T
    found, complete = _tie_closure([comp.order], margins, ctx.tol, cap + 1)
    model = _model_of(comp, index, ctx)
    for order in found:
        model.add_nogood(order)
    while complete and len(found) <= cap:
        known = set(found)
        start = _best_other(comp.costs, found, known)
        value = ordering_cost(comp.costs, start) if start is not None else math.inf
        order, value, bound, status = _mip_search(
            model, start, value, -math.inf, index, ctx, stage="enumerate", stop_at=comp.value
        )
        if order is not None and value <= comp.value + ctx.tol:
            more, complete = _tie_closure([order], margins, ctx.tol, cap + 1 - len(found))
            for extra in more:
                if extra not in known:
                    found.append(extra)
                    known.add(extra)
                    model.add_nogood(extra)
            continue
        if status is SolveStatus.OPTIMAL and bound > comp.value + ctx.tol:
            return found[:cap], len(found) <= cap
        return found[:cap], False  # out of time
    return found[:cap], False


# --------------------------------------------------------------------------- entry point
def solve_linear_ordering(
    costs: ArrayLike,
    *,
    backend: str = "highs",
    method: Method = "auto",
    time_limit: float | None = None,
    decompose: bool = True,
    unique: bool = True,
    enumerate_optima: int = 0,
    progress: Callable[[SolveProgress], None] | None = None,
    verbose: bool = False,
    threads: int | None = None,
    tol: float | None = None,
    seed: int = 0,
) -> LinearOrderingOutcome:
    """Find an order of minimum total cost (Kemeny consensus), with proof of optimality.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``. For Kemeny consensus:
        the pairwise preference matrix (task weight preferring ``i`` to ``j``, ties
        counting half for each side).
    backend : str, default="highs"
        Solver name for :func:`solvers.backends.make_solver` (``"highs"``, ``"cbc"``, ...).
    method : {"auto", "ilp", "brute_force"}, default="auto"
        ``"auto"``: components of at most 8 items are enumerated, larger ones solved by
        ILP. ``"ilp"``: every component of 2+ items by ILP. ``"brute_force"``: all ``n!``
        orders of the whole matrix (``n <= 8``), no decomposition.
    time_limit : float, optional
        Seconds for the whole call. When it runs out the best order is returned with
        status ``TIME_LIMIT`` and a proven lower bound. Without a limit the outcome is
        ``OPTIMAL`` or :class:`SolverError` is raised.
    decompose : bool, default=True
        Solve the strongly connected components of the majority relation separately.
    unique : bool, default=True
        Check whether the optimal order is unique (may cost one more solve per component).
    enumerate_optima : int, default=0
        List up to this many optimal orders (0: none).
    progress : callable, optional
        Called with a :class:`SolveProgress` after each solve round.
    verbose : bool, default=False
        Show the solver logs.
    threads : int, optional
        Solver threads.
    tol : float, optional
        Margins within `tol` are majority ties and costs within `tol` are equal. Default
        ``1e-9 * max(1, max(costs + costs.T))``.
    seed : int, default=0
        Seed of the perturbation search (the result is deterministic for a given seed).

    Returns
    -------
    LinearOrderingOutcome

    Raises
    ------
    ValueError
        A malformed matrix, option, or brute force on more than 8 items.
    SolverError
        The solver failed, or (without `time_limit`) stopped before proving optimality.

    Examples
    --------
    >>> res = solve_linear_ordering([[0, 2, 1], [1, 0, 2], [2, 1, 0]], enumerate_optima=10)
    >>> res.objective, res.status.value, res.unique, res.optima
    (4.0, 'optimal', False, ((0, 1, 2), (1, 2, 0), (2, 0, 1)))
    """
    start_time = time.perf_counter()
    matrix = _as_costs(costs)
    n = matrix.shape[0]
    if method not in ("auto", "ilp", "brute_force"):
        raise ValueError(f"unknown method {method!r}; use 'auto', 'ilp' or 'brute_force'")
    if time_limit is not None and not (math.isfinite(time_limit) and time_limit > 0):
        raise ValueError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if int(enumerate_optima) != enumerate_optima or enumerate_optima < 0:
        raise ValueError(f"enumerate_optima must be an integer >= 0, got {enumerate_optima!r}")
    cap = int(enumerate_optima)
    if tol is None:
        tol = _default_tol(matrix)
    unit = objective_unit(matrix, tol=tol)
    deadline = None if time_limit is None else start_time + float(time_limit)
    counters = _Counters()
    margins = matrix - matrix.T

    if method == "brute_force":
        if n > MAX_BRUTE_FORCE:
            raise ValueError(f"brute force handles at most {MAX_BRUTE_FORCE} items, got {n}; use method='ilp'")
        bf = brute_force_linear_ordering(matrix, tol=tol)
        optima = bf.optima[:cap] if cap else ()
        return LinearOrderingOutcome(
            order=bf.order,
            objective=bf.objective,
            lower_bound=bf.objective,
            status=SolveStatus.OPTIMAL,
            method="brute_force",
            unique=bf.unique if (unique or cap) else None,
            optima=optima,
            optima_truncated=bool(cap) and len(bf.optima) > cap,
            components=(tuple(range(n)),),
            constraints_added=0,
            iterations=0,
            seconds=time.perf_counter() - start_time,
            unit=unit,
        )

    groups = majority_components(matrix, tol=tol) if decompose else [list(range(n))]
    rank_of = np.empty(n, dtype=np.int64)
    for g, members in enumerate(groups):
        rank_of[members] = g
    # constant cost of the pairs split between components, for component-respecting orders
    cross = float((matrix.T * (rank_of[:, None] < rank_of[None, :])).sum())
    comp_value = [0.0] * len(groups)
    comp_bound = [0.0] * len(groups)
    for g, members in enumerate(groups):
        if len(members) > 1:
            sub = matrix[np.ix_(members, members)]
            comp_bound[g] = _trivial_bound(sub)
            comp_value[g] = ordering_cost(sub, list(range(len(members))))

    def report(stage: str, g: int, value: float, bound: float) -> None:
        if stage not in ("unique", "enumerate"):
            comp_value[g] = min(comp_value[g], value)  # every reported value belongs to an order
            comp_bound[g] = max(comp_bound[g], bound)
        if progress is not None or logger.isEnabledFor(logging.DEBUG):
            info = SolveProgress(
                stage=stage,
                component=g,
                n_components=len(groups),
                size=len(groups[g]),
                round=counters.iterations,
                cuts=counters.cuts,
                incumbent=cross + sum(comp_value),
                bound=cross + sum(comp_bound),
                elapsed=time.perf_counter() - start_time,
            )
            logger.debug(
                "kemeny %s: component %d/%d (%d items), round %d, %d cuts, incumbent %.6g, bound %.6g, %.2f s",
                stage, info.component + 1, info.n_components, info.size, info.round, info.cuts,
                info.incumbent, info.bound, info.elapsed,
            )
            if progress is not None:
                progress(info)

    ctx = _Context(backend, method, deadline, verbose, threads, tol, unit, seed, counters, report)
    solved: list[_Component | None] = [None] * len(groups)
    for g in sorted(range(len(groups)), key=lambda g: (len(groups[g]), g)):  # small components first
        members = groups[g]
        sub = matrix[np.ix_(members, members)]
        comp = _solve_component(sub, g, ctx)
        comp.members = members
        comp_value[g], comp_bound[g] = comp.value, comp.bound
        solved[g] = comp
        logger.debug(
            "kemeny component %d/%d: %d items, %s, cost %.6g, bound %.6g",
            g + 1, len(groups), len(members), comp.status.value, comp.value, comp.bound,
        )
    components = [c for c in solved if c is not None]
    order = tuple(c.members[i] for c in components for i in c.order)
    objective = ordering_cost(matrix, order)
    status = SolveStatus.OPTIMAL if all(c.status is SolveStatus.OPTIMAL for c in components) else SolveStatus.TIME_LIMIT
    if status is SolveStatus.OPTIMAL:
        lower_bound = objective
    else:
        lower_bound = min(objective, _round_up(cross + sum(c.bound for c in components), objective, unit))
    if time_limit is None and status is not SolveStatus.OPTIMAL:
        raise SolverError(f"{backend} stopped before proving optimality (gap {objective - lower_bound:g})", status)

    is_unique: bool | None = None
    optima: tuple[tuple[int, ...], ...] = ()
    truncated = False
    if status is SolveStatus.OPTIMAL and (unique or cap):
        adjacent_tie = any(_tied(margins, order[k], order[k + 1], tol) for k in range(n - 1))
        if cap:
            per_component: list[list[tuple[int, ...]]] = []
            complete = True
            for g, comp in enumerate(components):
                local, done = _component_optima(comp, g, ctx, cap)
                per_component.append([tuple(comp.members[i] for i in o) for o in local])
                complete = complete and done
            seeds = (tuple(itertools.chain.from_iterable(parts)) for parts in itertools.product(*per_component))
            everything, closed = _tie_closure(seeds, margins, tol, cap + 1)
            complete = complete and closed and len(everything) <= cap
            everything = sorted(everything)
            optima = tuple(everything[:cap])
            truncated = not complete
            if complete:
                is_unique = len(everything) == 1
                order = everything[0]  # canonical: the lexicographically first optimal order
                objective = ordering_cost(matrix, order)
                lower_bound = objective
            elif len(everything) > 1:
                is_unique = False
        elif adjacent_tie:
            is_unique = False
        else:
            verdicts = [_component_unique(comp, g, ctx) for g, comp in enumerate(components)]
            if any(v is False for v in verdicts):
                is_unique = False
            elif all(v is True for v in verdicts):
                is_unique = True
        if not unique and not cap:
            is_unique = None
    kinds = {c.kind for c in components}
    logger.info(
        "kemeny: %d items in %d component(s), %s, cost %.6g, bound %.6g, %d cuts, %d solves, %.3f s",
        n, len(components), status.value, objective, lower_bound, counters.cuts, counters.iterations,
        time.perf_counter() - start_time,
    )
    return LinearOrderingOutcome(
        order=tuple(int(i) for i in order),
        objective=objective,
        lower_bound=lower_bound,
        status=status,
        method=f"ilp:{backend.lower()}" if "ilp" in kinds else ("brute_force" if "brute_force" in kinds else "decomposition"),
        unique=is_unique,
        optima=optima,
        optima_truncated=truncated,
        components=tuple(tuple(c.members) for c in components),
        constraints_added=counters.cuts,
        iterations=counters.iterations,
        seconds=time.perf_counter() - start_time,
        unit=unit,
    )
