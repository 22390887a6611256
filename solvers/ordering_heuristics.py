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


def heuristic_order(
    costs: ArrayLike, *, tol: float | None = None, deadline: float | None = None
) -> tuple[tuple[int, ...], float]:
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
        Default ``2**-44 * max(costs + costs.T)`` (float rounding only).
    deadline : float, optional
        A ``time.perf_counter()`` value: the local search stops there (the first start
        gets at most half of the time left, the second the rest) and the best order
        reached so far is returned. The two starting orders are always evaluated, so an
        order comes back even when the deadline has already passed.

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
    for k, start in enumerate(starts):
        # with a deadline, each start gets an equal share of the time still left
        share = None if deadline is None else time.perf_counter() + (deadline - time.perf_counter()) / (len(starts) - k)
        order = _local_search(margins, start, tol, share)
        value = ordering_cost(matrix, order)
        if best is None or value < best[1] - tol:
            best = (order, value)
    assert best is not None
    return best


def improve_order(
    costs: ArrayLike, order: Sequence[int], *, tol: float | None = None, deadline: float | None = None
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
        ``2**-44 * max(costs + costs.T)`` (float rounding only).
    deadline : float, optional
        A ``time.perf_counter()`` value: the search stops there and returns the order
        reached (no worse than `order`, possibly not yet a local optimum).

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
    result = _local_search(matrix - matrix.T, order, tol, deadline)
    return result, ordering_cost(matrix, result)


def _local_search(
    margins: NDArray[np.float64], order: Sequence[int] | NDArray[np.int64], tol: float, deadline: float | None
) -> tuple[int, ...]:
    """The sweeps of :func:`improve_order` on precomputed margins (no copy, no validation, no cost)."""
    current = np.array(order, dtype=np.int64)
    n = len(current)
    clock = time.perf_counter
    accumulate, largest, smallest = np.add.accumulate, np.maximum.reduce, np.minimum.reduce
    improved = True
    while improved:
        improved = False
        for p in range(n):
            if deadline is not None and clock() > deadline:
                improved = False
                break
            item = current[p]
            row = margins[item].take(current)
            # moving up to q < p puts item above current[q..p-1]: cost change -sum margins,
            # i.e. minus these cumulative sums (the best move up has the largest)
            up = accumulate(row[p - 1 :: -1]) if p > 0 else None
            # moving down to q > p puts item below current[p+1..q]: cost change +sum margins
            down = accumulate(row[p + 1 :]) if p < n - 1 else None
            best_up = -largest(up) if up is not None else 0.0
            best_down = smallest(down) if down is not None else 0.0
            if min(best_up, best_down) < -tol:
                if best_up <= best_down:
                    target = p - 1 - int(up.argmax())  # type: ignore[union-attr]
                    current[target + 1 : p + 1] = current[target:p].copy()
                else:
                    target = p + 1 + int(down.argmin())  # type: ignore[union-attr]
                    current[p:target] = current[p + 1 : target + 1].copy()
                current[target] = item
                improved = True
    return tuple(current.tolist())


def _insertion_deltas(
    margins: NDArray[np.float64], order: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
    """Cost change, from position and to position of every single-item move (three arrays).

    Vectorized over all ``n (n - 1)`` moves with the same additions, in the same order,
    as :func:`improve_order` (cumulative sums away from the item's position; the leading
    zeros of the masked rows add nothing), so the deltas agree with it bit for bit.
    """
    order = np.asarray(order, dtype=np.int64)
    n = len(order)
    if n < 2:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0), empty, empty
    m = margins[np.ix_(order, order)]
    col = np.arange(n)
    below = col[None, :] > col[:, None]  # q > p
    # down[p, q] (q > p): sum of m[p, p+1..q], added from p + 1 on
    down = np.cumsum(np.where(below, m, 0.0), axis=1)
    # up[p, q] (q < p): -sum of m[p, q..p-1], added from p - 1 down to q
    up = -np.cumsum(np.where(below.T, m, 0.0)[:, ::-1], axis=1)[:, ::-1]
    deltas = np.where(below, down, up)
    sources, targets = np.nonzero(~np.eye(n, dtype=bool))
    return deltas[sources, targets], sources.astype(np.int64), targets.astype(np.int64)


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
    """Iterated local search: move 2 to 7 random items to random places, re-optimize by insertion,
    keep the result if not worse (Schiavinotto and Stutzle 2004 perturb by random insertions
    too). Segment reversals were the perturbation before: on pure-noise boards of 100 systems
    they left the incumbent one or two lattice steps above the optimum (seeds 1, 101), and
    HiGHS then ran out of time proving a bound it had already reached."""
    rng = np.random.default_rng(seed)
    n = len(order)
    if n < 4:
        return order, value
    best, best_value = order, value
    current, current_value = order, value
    margins = costs - costs.T
    for _ in range(iterations):
        if deadline is not None and time.perf_counter() > deadline:
            break
        trial = list(current)
        for _ in range(int(rng.integers(2, 8))):
            source, target = (int(k) for k in rng.integers(n, size=2))
            trial.insert(target, trial.pop(source))
        candidate = _local_search(margins, trial, tol, deadline)
        candidate_value = ordering_cost(costs, candidate)
        if candidate_value <= current_value + tol:
            current, current_value = candidate, candidate_value
            if candidate_value < best_value - tol:
                best, best_value = candidate, candidate_value
    return best, best_value
