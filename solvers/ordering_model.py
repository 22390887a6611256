"""The linear-ordering ILP of one component, on a :class:`~solvers.model.LinearModel`, and its 3-cycle separation.

One variable per pair ``i < j`` (``y_ij = 1``: ``i`` above ``j``; the reverse order is
``1 - y_ij``, so "exactly one direction per pair" needs no constraint). Rows are added
lazily: 3-cycle inequalities found by :func:`violated_cycles` (Grotschel, Junger and
Reinelt 1984), and no-goods that exclude known orders. The model is solved as an LP
relaxation (with a lower bound re-derived from the duals) or as a MIP;
:mod:`solvers.ordering_search` drives the rounds.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.sparse import csr_matrix

from .model import LinearModel
from .status import ModelSolution, SolveStatus

__all__ = ["violated_cycles"]

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
    # no sub-MIP heuristics either (RINS / RENS / root reduced cost still ran at effort 0): on
    # pure noise, 16.8 s instead of 34.2 s (N = 80, seed 0), 4.9 instead of 8.3 (seed 1), 13.3
    # instead of 21.7 (N = 100, seed 2) (HiGHS >= 1.8 only; older: ignored)
    "mip_heuristic_run_rins": False,
    "mip_heuristic_run_rens": False,
    "mip_heuristic_run_root_reduced_cost": False,
}

#: LP relaxations with more rows than this are solved by HiGHS's interior point method.
_IPM_ROWS = 2000


def violated_cycles(above: ArrayLike, *, eps: float = 1e-6, limit: int | None = None) -> NDArray[np.int64]:
    """3-cycles ``a -> b -> c -> a`` with ``above[a,b] + above[b,c] + above[c,a] > 2 + eps``.

    Each cycle is listed once, with its smallest item first; the most violated come first
    (ties in index order).

    Parameters
    ----------
    above : array_like (n, n)
        ``above + above.T = 1`` off the diagonal: a linear order, a tournament, or a
        fractional LP point (``above[a, b]``: how much ``a`` is above ``b``).
    eps : float, default=1e-6
        A cycle must exceed 2 by more than `eps`.
    limit : int, optional
        Return at most this many (the most violated).

    Returns
    -------
    ndarray of int64 (k, 3)
        Rows ``(a, b, c)``.

    Examples
    --------
    >>> tournament = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])  # 0 > 1 > 2 > 0
    >>> violated_cycles(tournament).tolist()
    [[0, 1, 2]]
    """
    return _scan_cycles(np.asarray(above, dtype=np.float64), eps=eps, limit=limit, deadline=None)[0]


def _ranked(rows: NDArray[np.float64]) -> NDArray[np.float64]:
    """Rows ``(a, b, c, slack)`` by decreasing slack, then index order."""
    return rows[np.lexsort((rows[:, 2], rows[:, 1], rows[:, 0], -rows[:, 3]))]


def _scan_cycles(
    matrix: NDArray[np.float64], *, eps: float, limit: int | None, deadline: float | None
) -> tuple[NDArray[np.int64], bool]:
    """:func:`violated_cycles`, and whether every triple was scanned.

    The scan goes by smallest item ``a`` (``O(n^2)`` numpy work each, ``O(n^3)`` in all)
    and stops early, still exact, once `limit` cycles of the largest possible slack are
    held (later ones have a larger ``a`` and rank after them). It also stops at
    `deadline` (a ``time.perf_counter()`` value); then the cycles found so far come back
    with ``False`` (a partial list: an empty one does not mean "no violated cycle").
    With `limit`, at most a few times `limit` candidates are kept in memory.
    """
    n = matrix.shape[0]
    found: list[NDArray[np.float64]] = []
    held = 0
    complete = True
    # no slack can exceed the one of three entries equal to the largest (rounding is monotone)
    top = float(matrix.max()) if n else 0.0
    ceiling = (top + top) + top - 2.0
    for a in range(n - 2):
        if deadline is not None and time.perf_counter() > deadline:
            complete = False
            break
        rest = matrix[a + 1 :, a + 1 :]
        # slack[b, c] = above[a, b] + above[b, c] + above[c, a] - 2 over b, c > a (diagonal: -1)
        slack = matrix[a, a + 1 :, None] + rest + matrix[a + 1 :, a][None, :] - 2.0
        bs, cs = np.nonzero(slack > eps)
        if len(bs):
            found.append(np.column_stack([np.full(len(bs), a), bs + a + 1, cs + a + 1, slack[bs, cs]]))
            held += len(bs)
        if limit is not None and held > 2 * limit + 1000:
            best = _ranked(np.concatenate(found))[:limit]
            found, held = [best], len(best)
            if len(best) == limit and best[-1, 3] >= ceiling:
                break  # nothing later can rank among the first `limit`
    if not found:
        return np.zeros((0, 3), dtype=np.int64), complete
    rows = _ranked(np.concatenate(found))
    if limit is not None:
        rows = rows[:limit]
    return rows[:, :3].astype(np.int64), complete


def _order_of(above: NDArray[np.float64]) -> tuple[int, ...]:
    """Items by decreasing number of items below them (a linear order when `above` is one)."""
    score = above.sum(axis=1)
    return tuple(int(x) for x in np.lexsort((np.arange(len(score)), -score)))


@dataclass
class _MipResult:
    status: SolveStatus
    above: NDArray[np.float64] | None  # rounded solution as an above-matrix
    value: float | None  # objective of that (possibly cyclic) solution
    dual_bound: float | None  # solver-proven bound for the current model (HiGHS only)


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
        self.lp_seconds: float | None = None  # wall time of the last LP solved to optimality
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
        """Forbid each 3-cycle ``a -> b -> c -> a``; returns how many were new.

        Vectorized: each row is ``x[a,b] + x[b,c] + x[c,a] <= 2`` with the cycle rotated
        to start at its smallest item (its key), exactly as :meth:`_row` writes it.
        """
        arr = np.asarray(triples if isinstance(triples, np.ndarray) else list(triples), dtype=np.int64).reshape(-1, 3)
        if len(arr) == 0:
            return 0
        shift = np.argmin(arr, axis=1)
        keys = arr[np.arange(len(arr))[:, None], (shift[:, None] + np.arange(3)[None, :]) % 3]
        fresh: list[int] = []
        new_keys: list[tuple[int, int, int]] = []
        for k, key in enumerate(map(tuple, keys.tolist())):
            if key not in self.cycles:
                self.cycles.add(key)  # type: ignore[arg-type]
                fresh.append(k)
                new_keys.append(key)  # type: ignore[arg-type]
        if not fresh:
            return 0
        # the literals x[a,b], x[b,c], x[c,a] of each new row, from the *given* rotation
        # (the row is the same set of literals whatever the rotation)
        chosen = arr[fresh]
        heads = chosen
        tails = np.roll(chosen, -1, axis=1)
        low, high = np.minimum(heads, tails), np.maximum(heads, tails)
        index = self.pair[low, high]
        forward = heads < tails
        coefs = np.where(forward, 1.0, -1.0)
        rhs = 2.0 - (~forward).sum(axis=1).astype(np.float64)
        new = [
            _Row(i, c, r, key)
            for i, c, r, key in zip(index.tolist(), coefs.tolist(), rhs.tolist(), new_keys)
        ]
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

    def add_row(self, terms: Sequence[tuple[int, int]], rhs: float) -> _Row:
        """Add the row ``sum of x[a, b] over terms <= rhs``; returns it (for :meth:`drop_row`)."""
        row = self._row(terms, rhs)
        self._push([row])
        return row

    def drop_row(self, row: _Row) -> None:
        """Remove a row added by :meth:`add_row` (3-cycle rows added since stay)."""
        k = next(k for k, r in enumerate(self.rows) if r is row)
        del self.rows[k]
        self.model.delete_rows([k])
        self._row_matrix = None
        self.duals = None

    # ---- conversions
    def above(self, y: NDArray[np.float64]) -> NDArray[np.float64]:
        """The pair values `y` as an n x n above-matrix (``above + above.T = 1`` off the diagonal)."""
        matrix = np.zeros((self.n, self.n))
        matrix[self.iu, self.ju] = y
        matrix[self.ju, self.iu] = 1.0 - y
        return matrix

    def y_of_order(self, order: Sequence[int]) -> NDArray[np.float64]:
        """The pair values of a linear order."""
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
        if sol.status is SolveStatus.OPTIMAL:
            self.lp_seconds = sol.seconds
        self.duals = sol.row_duals
        y = np.clip(sol.x, 0.0, 1.0) if sol.x is not None else None
        bound = self.lagrangian_bound() if y is not None else None
        if bound is None and sol.status is SolveStatus.OPTIMAL and y is not None:
            bound = self.const + float(self.coef @ y)  # the solver's LP value (no duals)
        return sol.status, y, bound

    # ---- MIP
    def solve_mip(self, time_limit: float | None, *, start: Sequence[int] | None, gap_abs: float) -> _MipResult:
        """Solve as a MIP from the order `start`; the solution comes back rounded, as an above-matrix."""
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
