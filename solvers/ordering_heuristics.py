"""Good linear orders fast: the initial rankings and local searches behind the Kemeny incumbent.

None of this proves anything; :mod:`solvers.linear_ordering` uses these orders as MIP
starts and to close the gap from above, and the bounds come from the LP and MIP.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .ordering_costs import _as_costs, _default_tol, ordering_cost

__all__ = ["heuristic_order", "improve_order"]


def heuristic_order(costs: ArrayLike, *, tol: float | None = None) -> tuple[tuple[int, ...], float]:
    """A good order fast: the better of Borda and Copeland orders, then insertion local search.

    Borda ranks by row sums of `costs` (total preference); Copeland by strict majority
    wins minus losses (ties broken by Borda, then index). Both are computed here from the
    matrix, independently of any voting-rule module.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    tol : float, optional
        Margins within `tol` are majority ties, and a move must gain more than `tol`.
        Default ``1e-9 * max(1, max(costs + costs.T))``.

    Returns
    -------
    order : tuple of int
        Item indices, best first.
    cost : float
        Its cost (:func:`~solvers.ordering_costs.ordering_cost`).

    Raises
    ------
    ValueError
        The matrix is not square or not finite.

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

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    order : sequence of int
        The starting order, a permutation of ``0..n-1``.
    tol : float, optional
        A move must lower the cost by more than `tol`. Default
        ``1e-9 * max(1, max(costs + costs.T))``.

    Returns
    -------
    order : tuple of int
        The improved order.
    cost : float
        Its cost.

    Raises
    ------
    ValueError
        The matrix is not square or not finite, or `order` repeats or misses an item.
    IndexError
        `order` holds an index outside ``0..n-1``.

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
    """`order` with the item at position `source` moved to position `target`."""
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
