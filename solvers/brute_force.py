"""Exhaustive reference for the linear-ordering (Kemeny) problem on at most 8 items.

Every permutation is scored in exact integer arithmetic (on the exact margins of
:func:`solvers.ordering_exact.exact_margins`), so the result is exact by construction and
lists *all* optimal orders. It is the reference the ILP of :mod:`solvers.linear_ordering` is tested
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

from .ordering_costs import ordering_cost
from .ordering_exact import exact_margins

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
        Every order of minimum exact cost, in lexicographic order.
    n_orders : int
        Number of orders scored (``n!``).
    tol : float
        The `tol` given for float margins (0.0: the default, a per-pair rounding
        tolerance, or exact margins given).

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


def _exact_order_values(above: NDArray[np.bool_], weights: list[int]) -> NDArray[np.object_] | NDArray[np.int64]:
    """``above @ weights`` exactly, for Python-int `weights` of any size.

    In int64 when the sums fit, else limb by limb (31-bit limbs, int64 products, Python
    ints only to recombine one value per order).
    """
    bound = sum(abs(w) for w in weights)
    if bound < 2**62:
        return above.astype(np.int64) @ np.array(weights, dtype=np.int64)
    limbs: list[NDArray[np.int64]] = []
    rest = list(weights)
    while any(rest):
        limbs.append(np.array([w & (2**31 - 1) for w in rest], dtype=np.int64))
        rest = [w >> 31 for w in rest]  # floor shift: the top limb carries the sign (-1 ... then 0)
        if all(w in (0, -1) for w in rest):
            limbs.append(np.array(rest, dtype=np.int64))
            break
    values = np.zeros(above.shape[0], dtype=object)
    matrix = above.astype(np.int64)
    for k, limb in enumerate(limbs):
        values = values + (matrix @ limb).astype(object) * (1 << (31 * k))
    return values


def brute_force_linear_ordering(
    costs: NDArray[np.float64] | list[list[float]],
    *,
    tol: float | None = None,
    max_n: int = MAX_BRUTE_FORCE,
    margins: NDArray[np.object_] | None = None,
) -> BruteForceOutcome:
    """Solve a linear-ordering problem by scoring all ``n!`` orders, in exact arithmetic.

    Orders are compared by their exact cost differences: sums of the exact margins
    ``costs[i, j] - costs[j, i]`` (:func:`solvers.ordering_exact.exact_margins`), as Python
    integers, so optima are exact whatever the range of the costs (1e-12 next to 1e12).

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``; for Kemeny consensus
        this is the pairwise preference matrix (wins + ties / 2).
    tol : float, optional
        Without `margins`: a pair whose float margin is within `tol` of 0 is a tie.
        Default: per pair, ``2**-44 * (costs[i, j] + costs[j, i])`` (float rounding of that
        pair's sums, never relative to other pairs).
    max_n : int, default=8
        Largest accepted size.
    margins : array_like (n, n), optional
        Exact margins (integers or :class:`fractions.Fraction`, any common positive
        scale), e.g. :attr:`consensus.PairwiseMatrix.exact_margins`; then `tol` is unused.

    Returns
    -------
    BruteForceOutcome
        The lexicographically smallest optimal order, its cost (a float, from `costs`), and
        all optimal orders (exactly the orders of minimum exact cost).

    Raises
    ------
    ValueError
        The matrix is not square, not finite, or larger than `max_n`; or bad `margins`.

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

    Exact margins decide where floats cannot: half of a tied 1e12 on each side, and a
    margin of 2**-40 that the float sum 5e11 + 2**-40 has lost.

    >>> from fractions import Fraction
    >>> tiny = Fraction(1, 2**40)
    >>> brute_force_linear_ordering([[0, 5e11], [5e11, 0]], margins=[[0, -tiny], [tiny, 0]]).order
    (1, 0)
    """
    matrix = _check_costs(costs)
    n = matrix.shape[0]
    if n > max_n:
        raise ValueError(f"brute force handles at most {max_n} items ({max_n}! orders), got {n}")
    exact, _ = exact_margins(matrix, margins=margins, tol=tol)
    if n == 0:
        return BruteForceOutcome((), 0.0, ((),), 1, 0.0 if tol is None else float(tol))
    orders = _permutations(n)
    position = np.argsort(orders, axis=1)
    iu, ju = np.triu_indices(n, 1)
    above = position[:, iu] < position[:, ju]  # i above j, for every pair i < j
    # i above j costs costs[j, i] = costs[i, j] + margin[j, i]: up to a constant, the sum
    # of margin[j, i] over the pairs placed i above j
    values = _exact_order_values(above, [int(exact[j, i]) for i, j in zip(iu.tolist(), ju.tolist())])
    best = min(values.tolist())
    hits = np.nonzero(values == best)[0]
    optima = tuple(tuple(int(x) for x in orders[r]) for r in hits)
    objective = ordering_cost(matrix, optima[0])
    return BruteForceOutcome(optima[0], objective, optima, len(orders), 0.0 if tol is None else float(tol))
