"""The textbook linear-ordering ILP, built in full and solved once: a cross-check and a baseline.

One binary ``x[i, j]`` per ordered pair (``1``: ``i`` placed above ``j``), exactly one
direction per pair, and *every* 3-cycle inequality written out up front (Grötschel, Jünger
and Reinelt 1984; Conitzer, Davenport and Kalagnanam 2006). No decomposition, no heuristic,
no start, no lazy cuts: the whole model goes to the solver in one call. That makes it
deliberately independent of :mod:`solvers.linear_ordering` (it imports none of its model
or search code), so the two can check each other, and it is the naive baseline the
benchmarks compare against. The model has ``n (n - 1)`` columns and
``n (n - 1) / 2 + n (n - 1) (n - 2) / 3`` rows, about ``n**3 / 3``: :data:`MAX_NAIVE` bounds
``n``.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .model import LinearModel
from .ordering_costs import _as_costs, ordering_cost
from .status import SolverError, SolveStatus

__all__ = ["MAX_NAIVE", "NaiveOutcome", "solve_naive_ilp"]

#: Largest number of items accepted: 120 items give 14,280 columns and 568,820 rows.
MAX_NAIVE = 120

#: Costs that are multiples of ``1 / d`` for one of these ``d`` get the exact absolute gap
#: ``0.5 / d`` (integers: task counts; halves: ties counted half; quarters, eighths).
_DENOMINATORS = (1, 2, 4, 8)

#: Otherwise the absolute gap is this share of the largest possible objective ...
_RELATIVE_GAP = 1e-9

#: ... and the costs are scaled so that the largest possible objective is this: HiGHS
#: prunes a node whose bound is within its ``mip_feasibility_tolerance`` (1e-6, absolute)
#: of the incumbent when the objective is not integral, so 1e-6 must be 1e-9 of the scale.
_SCALED_OBJECTIVE = 1e3


@dataclass(frozen=True, slots=True)
class NaiveOutcome:
    """What the full ILP gave.

    Attributes
    ----------
    order : tuple of int or None
        Item indices, best first; None when a time limit stopped the solver before it
        found any order.
    objective : float
        Cost of `order`, recomputed with :func:`solvers.ordering_costs.ordering_cost`
        (``inf`` when `order` is None).
    lower_bound : float
        Proven lower bound on the optimal cost: equal to `objective` when ``OPTIMAL`` on
        costs with a lattice (see :func:`solve_naive_ilp`), else the solver's dual bound
        (at worst the trivial bound, the sum over pairs of the cheaper direction).
    status : SolveStatus
        ``OPTIMAL`` or ``TIME_LIMIT``.
    seconds : float
        Wall-clock time, building the model included.
    n_rows : int
        Rows of the model: one per pair and two per triple.

    Examples
    --------
    >>> res = solve_naive_ilp([[0, 1], [3, 0]])
    >>> res.order, res.objective, res.lower_bound, res.status.value, res.n_rows
    ((1, 0), 1.0, 1.0, 'optimal', 1)
    """

    order: tuple[int, ...] | None
    objective: float
    lower_bound: float
    status: SolveStatus
    seconds: float
    n_rows: int

    @property
    def optimal(self) -> bool:
        """Whether `order` is proven optimal."""
        return self.status is SolveStatus.OPTIMAL


def _check_costs(costs: ArrayLike) -> NDArray[np.float64]:
    """A float copy of a square, finite cost matrix of at most :data:`MAX_NAIVE` items, diagonal zeroed."""
    matrix = _as_costs(costs)
    n = matrix.shape[0]
    if n > MAX_NAIVE:
        raise ValueError(
            f"the naive ILP writes all {n * (n - 1) * (n - 2) // 3} 3-cycle rows for {n} items and accepts at "
            f"most {MAX_NAIVE}; use solvers.linear_ordering.solve_linear_ordering, which adds them lazily"
        )
    return matrix


def _lattice_step(costs: NDArray[np.float64]) -> float | None:
    """``1 / d`` when every cost is an exact multiple of it (:data:`_DENOMINATORS`), else None.

    Every order's cost is then a multiple of ``1 / d`` too, so a bound within less than
    ``1 / d`` of an order's cost proves that order optimal.
    """
    for d in _DENOMINATORS:
        scaled = costs * d
        if np.abs(scaled).max(initial=0.0) < 2.0**52 and np.array_equal(scaled, np.round(scaled)):
            return 1.0 / d
    return None


def _columns(n: int) -> NDArray[np.int64]:
    """``col[i, j]``: the column of ``x[i, j]`` (row-major over ordered pairs; -1 on the diagonal)."""
    col = np.full((n, n), -1, dtype=np.int64)
    off = ~np.eye(n, dtype=bool)
    col[off] = np.arange(n * (n - 1))
    return col


def _build(model: LinearModel, costs: NDArray[np.float64]) -> None:
    """Columns, the pair equalities and all 3-cycle inequalities, vectorized."""
    n = costs.shape[0]
    col = _columns(n)
    above_i, above_j = np.nonzero(col >= 0)  # row-major: the column order
    # x[i, j] = 1 (i above j) pays costs[j, i]
    model.add_columns(np.zeros(n * (n - 1)), np.ones(n * (n - 1)), costs[above_j, above_i])
    model.set_integer(True)
    # exactly one direction per pair: x[i, j] + x[j, i] = 1
    iu, ju = np.triu_indices(n, 1)
    pairs = np.stack([col[iu, ju], col[ju, iu]], axis=1).reshape(-1)
    ones = np.ones(len(iu))
    model.add_rows(ones, ones, np.arange(len(iu)) * 2, pairs, np.ones(len(pairs)))
    # no 3-cycle, both orientations of every triple i < j < k:
    # x[i, j] + x[j, k] + x[k, i] <= 2 and x[i, k] + x[k, j] + x[j, i] <= 2
    idx = np.arange(n)
    i, j, k = np.nonzero((idx[:, None, None] < idx[None, :, None]) & (idx[None, :, None] < idx[None, None, :]))
    forward = np.stack([col[i, j], col[j, k], col[k, i]], axis=1)
    backward = np.stack([col[i, k], col[k, j], col[j, i]], axis=1)
    cycles = np.concatenate([forward, backward]).reshape(-1)
    m = 2 * len(i)
    model.add_rows(np.full(m, -np.inf), np.full(m, 2.0), np.arange(m) * 3, cycles, np.ones(3 * m))


def _order_from(x: NDArray[np.float64], n: int) -> tuple[int, ...]:
    """The order a 0/1 point encodes: items by how many others they are above (a check, not a repair)."""
    above = np.zeros((n, n), dtype=bool)
    above[~np.eye(n, dtype=bool)] = x > 0.5
    wins = above.sum(axis=1)
    order = tuple(int(v) for v in np.argsort(-wins, kind="stable"))
    position = np.empty(n, dtype=np.int64)
    position[list(order)] = np.arange(n)
    if not np.array_equal(above, position[:, None] < position[None, :]):
        raise SolverError("the solver returned a point that is not a linear order")
    return order


def solve_naive_ilp(
    costs: ArrayLike, *, backend: str = "highs", time_limit: float | None = None, verbose: bool = False
) -> NaiveOutcome:
    """Solve a linear-ordering (Kemeny) problem as one full ILP, with every 3-cycle row.

    The textbook model: binary ``x[i, j]`` (``i`` placed above ``j``) for every ordered
    pair, minimizing ``sum costs[j, i] * x[i, j]`` subject to ``x[i, j] + x[j, i] = 1``
    for every pair and ``x[i, j] + x[j, k] + x[k, i] <= 2`` for every triple in both
    orientations. It is built with numpy and solved once, with no decomposition,
    heuristic, start or lazy cuts, so it shares no code path with
    :func:`solvers.linear_ordering.solve_linear_ordering` beyond the solver wrapper
    :class:`solvers.model.LinearModel`.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i`` (for Kemeny consensus,
        the pairwise preferences); the diagonal is ignored.
    backend : str, default="highs"
        ``"highs"`` (highspy) or another :func:`solvers.backends.make_solver` name.
    time_limit : float, optional
        Seconds for the solver (building the model is not counted against it). Without
        it the outcome is ``OPTIMAL`` or :class:`SolverError` is raised.
    verbose : bool, default=False
        Show the solver's log.

    Returns
    -------
    NaiveOutcome
        The order (None if a time limit left none), its recomputed cost, a lower bound,
        the status, the wall time and the number of rows.

    Raises
    ------
    ValueError
        The matrix is not square, not finite, or has more than :data:`MAX_NAIVE` items.
    SolverError
        The solver failed, stopped without a limit, or returned a point that is not a
        linear order.

    See Also
    --------
    solvers.linear_ordering.solve_linear_ordering : the package's exact solver.
    solvers.brute_force.brute_force_linear_ordering : exhaustive, for n <= 8.

    Notes
    -----
    Exactness. The relative MIP gap is 0. When every cost is a multiple of ``1 / d`` for
    ``d`` in 1, 2, 4, 8 (task counts, ties counted half), every order costs a multiple of
    ``1 / d``, so the absolute gap is ``0.5 / d``: a dual bound that close proves the
    incumbent optimal, and `lower_bound` is reported equal to `objective`. Other costs
    are scaled so that the largest possible objective (the sum over pairs of the larger
    absolute cost) is 1e3, with an absolute gap of 1e-6: HiGHS cannot close a gap below its
    ``mip_feasibility_tolerance`` (1e-6, absolute) on a non-integral objective, and this
    makes ``OPTIMAL`` mean optimal up to ``1e-9`` of that largest objective. `lower_bound`
    is then the solver's dual bound, scaled back.

    Size. ``n (n - 1)`` columns and about ``n**3 / 3`` rows of three nonzeros each;
    memory and LP time grow with ``n**3``, hence :data:`MAX_NAIVE`.

    References
    ----------
    .. [1] M. Grötschel, M. Jünger, G. Reinelt, "A cutting plane algorithm for the linear
       ordering problem", Operations Research 32(6), 1984.
    .. [2] V. Conitzer, A. Davenport, J. Kalagnanam, "Improved bounds for computing
       Kemeny rankings", AAAI 2006.

    Examples
    --------
    Item 0 beats 1 and 2, item 1 beats 2 (each by a majority): the order is ``(0, 1, 2)``
    and it disagrees with ``costs[1, 0] + costs[2, 0] + costs[2, 1] = 2`` units.

    >>> res = solve_naive_ilp([[0, 2, 3], [1, 0, 2], [0, 1, 0]])
    >>> res.order, res.objective, res.lower_bound, res.status.value, res.n_rows
    ((0, 1, 2), 2.0, 2.0, 'optimal', 5)
    """
    begin = time.perf_counter()
    matrix = _check_costs(costs)
    if time_limit is not None and math.isnan(float(time_limit)):
        raise ValueError("time_limit must be a number of seconds or None, got nan")
    n = matrix.shape[0]
    iu, ju = np.triu_indices(n, 1)
    trivial = float(np.minimum(matrix[iu, ju], matrix[ju, iu]).sum())
    if n <= 1:  # nothing to order: no model
        return NaiveOutcome(tuple(range(n)), 0.0, 0.0, SolveStatus.OPTIMAL, time.perf_counter() - begin, 0)
    step = _lattice_step(matrix)
    factor, gap_abs = 1.0, (0.5 * step if step is not None else 0.0)
    if step is None:  # then some cost is not 0: an all-zero matrix is on the integer lattice
        size = np.abs(matrix)
        factor = _SCALED_OBJECTIVE / float(np.maximum(size[iu, ju], size[ju, iu]).sum())
        gap_abs = _RELATIVE_GAP * _SCALED_OBJECTIVE
    model = LinearModel(backend=backend, verbose=verbose)
    _build(model, matrix * factor)
    sol = model.solve(time_limit=time_limit, gap_abs=gap_abs, highs_options={"mip_rel_gap": 0.0})
    dual = None if sol.dual_bound is None else sol.dual_bound / factor
    if sol.status is SolveStatus.NOT_SOLVED and sol.limit_reached and time_limit is not None:
        bound = trivial if dual is None else max(trivial, dual)
        return NaiveOutcome(None, math.inf, bound, SolveStatus.TIME_LIMIT, time.perf_counter() - begin, model.n_rows)
    if sol.status not in (SolveStatus.OPTIMAL, SolveStatus.TIME_LIMIT) or sol.x is None:
        raise SolverError(f"naive ILP on {n} items: the solver stopped with status {sol.status.value!r} ({sol.detail})")
    if sol.status is SolveStatus.TIME_LIMIT and time_limit is None:
        raise SolverError(f"naive ILP on {n} items: the solver stopped before proving optimality ({sol.detail})")
    order = _order_from(sol.x, n)
    objective = ordering_cost(matrix, order)
    if sol.status is SolveStatus.OPTIMAL and step is not None:
        bound = objective  # within half a lattice step of an order's cost: that cost is optimal
    else:
        bound = min(objective, trivial if dual is None else max(trivial, dual))
    return NaiveOutcome(order, objective, bound, sol.status, time.perf_counter() - begin, model.n_rows)
