"""Exhaustive reference for the linear-ordering (Kemeny) problem on at most 8 items.

Every permutation is scored, so the result is exact by construction and lists *all*
optimal orders. It is the reference the ILP of :mod:`solvers.linear_ordering` is tested
against, and it solves tiny inputs (``method="brute_force"``) or tiny components.

The arithmetic here is deliberately independent of the ILP code: costs of all ``n!``
orders come from one matrix product over the pair indicators.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

__all__ = ["MAX_BRUTE_FORCE", "BruteForceOutcome", "all_order_costs", "brute_force_linear_ordering"]

#: Largest number of items the exhaustive search accepts (8! = 40320 orders).
MAX_BRUTE_FORCE = 8


@dataclass(frozen=True, slots=True)
class BruteForceOutcome:
    """All optimal orders of a small linear-ordering problem.

    Attributes
    ----------
    order : tuple of int
        The lexicographically smallest optimal order (item indices, best first).
    objective : float
        Its cost: the sum of ``costs[j, i]`` over pairs with ``i`` placed above ``j``.
    optima : tuple of tuple of int
        Every order whose cost is within `tol` of the minimum, in lexicographic order.
    n_orders : int
        Number of orders scored (``n!``).
    tol : float
        Two costs within `tol` count as equal.

    Examples
    --------
    >>> res = brute_force_linear_ordering([[0, 2], [1, 0]])
    >>> res.order, res.objective, res.n_orders, res.unique
    ((0, 1), 1.0, 2, True)
    """

    order: tuple[int, ...]
    objective: float
    optima: tuple[tuple[int, ...], ...]
    n_orders: int
    tol: float

    @property
    def unique(self) -> bool:
        """Whether exactly one order is optimal."""
        return len(self.optima) == 1


@functools.cache
def _permutations(n: int) -> NDArray[np.int64]:
    """All permutations of ``range(n)`` in lexicographic order, one per row (read-only)."""
    perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64).reshape(math.factorial(n), n)
    perms.flags.writeable = False
    return perms


def _check_costs(costs: NDArray[np.float64] | list[list[float]]) -> NDArray[np.float64]:
    matrix = np.asarray(costs, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"the cost matrix must be square, got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("the cost matrix must be finite")
    return matrix


def all_order_costs(costs: NDArray[np.float64], *, max_n: int = MAX_BRUTE_FORCE) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Every order of ``n <= max_n`` items and its cost.

    Parameters
    ----------
    costs : ndarray (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i`` (for Kemeny: the task
        weight preferring ``i`` to ``j``).
    max_n : int, default=8
        Refuse larger inputs (``n!`` orders are scored).

    Returns
    -------
    orders : ndarray (n!, n)
        Item indices, best first, in lexicographic order.
    values : ndarray (n!,)
        Cost of each order.

    Raises
    ------
    ValueError
        The matrix is not square, not finite, or larger than `max_n`.

    Examples
    --------
    >>> orders, values = all_order_costs(np.array([[0, 2], [1, 0]]))
    >>> orders.tolist(), values.tolist()
    ([[0, 1], [1, 0]], [1.0, 2.0])
    """
    matrix = _check_costs(costs)
    n = matrix.shape[0]
    if n > max_n:
        raise ValueError(f"brute force handles at most {max_n} items ({max_n}! orders), got {n}")
    if n == 0:
        return np.zeros((1, 0), dtype=np.int64), np.zeros(1)
    orders = _permutations(n)
    position = np.argsort(orders, axis=1)  # position[r, i]: rank of item i in order r
    iu, ju = np.triu_indices(n, 1)
    above = position[:, iu] < position[:, ju]  # i above j, for every pair i < j
    # i above j costs costs[j, i]; j above i costs costs[i, j]
    values = above @ (matrix[ju, iu] - matrix[iu, ju]) + matrix[iu, ju].sum()
    return orders, values


def brute_force_linear_ordering(
    costs: NDArray[np.float64] | list[list[float]], *, tol: float | None = None, max_n: int = MAX_BRUTE_FORCE
) -> BruteForceOutcome:
    """Solve a linear-ordering problem by scoring all ``n!`` orders.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``; for Kemeny consensus
        this is the pairwise preference matrix (wins + ties / 2).
    tol : float, optional
        Costs within `tol` of the minimum are optimal too. Default:
        ``1e-9 * max(1, max(costs + costs.T))``, the tolerance of
        :attr:`consensus.PairwiseMatrix.tol`.
    max_n : int, default=8
        Largest accepted size.

    Returns
    -------
    BruteForceOutcome
        The lexicographically smallest optimal order, its cost, and all optimal orders.

    Raises
    ------
    ValueError
        The matrix is not square, not finite, or larger than `max_n`.

    References
    ----------
    .. [1] Colombo et al., "What are the best systems? New perspectives on NLP
       benchmarking", NeurIPS 2022, sec. 3.1 (Kemeny consensus).

    Examples
    --------
    A 3-cycle where each preference is 2 against 1: three orders tie at cost 4.

    >>> cycle = [[0, 2, 1], [1, 0, 2], [2, 1, 0]]
    >>> res = brute_force_linear_ordering(cycle)
    >>> res.objective, res.optima
    (4.0, ((0, 1, 2), (1, 2, 0), (2, 0, 1)))
    """
    matrix = _check_costs(costs)
    if tol is None:
        scale = float((matrix + matrix.T).max()) if matrix.size else 0.0
        tol = 1e-9 * max(scale, 1.0)
    orders, values = all_order_costs(matrix, max_n=max_n)
    best = float(values.min())
    hits = np.nonzero(values <= best + tol)[0]
    optima = tuple(tuple(int(x) for x in orders[r]) for r in hits)
    objective = float(values[hits[0]])
    return BruteForceOutcome(optima[0], 0.0 if objective == 0 else objective, optima, len(values), float(tol))
