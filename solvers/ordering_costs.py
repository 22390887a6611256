"""The cost arithmetic of the linear-ordering (Kemeny) problem: order costs, the objective's lattice, the majority decomposition.

Input is a plain cost matrix: ``costs[i, j]`` is paid when ``j`` is placed above ``i``
(for Kemeny consensus, the task weight preferring ``i`` to ``j``: wins + ties / 2). Every
function here is exact numpy arithmetic, with no solver; :mod:`solvers.linear_ordering`
builds on them, and :mod:`solvers.ordering_exact` holds the exact margins.

Ties. A float margin within ``2**-44`` of the pair's *own* ``costs[i, j] + costs[j, i]`` is
float rounding of a tie (:func:`pair_tol`); no tolerance relative to the largest entry is
used, so a huge tie elsewhere never swallows a pair.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["majority_components", "objective_unit", "ordering_cost", "pair_tol"]

#: A float margin within this share of the pair's own ``costs[i, j] + costs[j, i]`` is a tie
#: (float rounding of sums of weights; about 2**9 roundings of 2**-53 each).
PAIR_RTOL = 2.0**-44


def _as_costs(costs: ArrayLike) -> NDArray[np.float64]:
    """A float copy of a square, finite cost matrix with a zero diagonal (ValueError otherwise)."""
    matrix = np.array(costs, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
        raise ValueError(f"the cost matrix must be square, got shape {matrix.shape}")
    if not np.all(np.isfinite(matrix)):
        raise ValueError("the cost matrix must be finite")
    np.fill_diagonal(matrix, 0.0)
    return matrix


def _default_tol(costs: NDArray[np.float64]) -> float:
    """``2**-44 * max(costs + costs.T)``: float rounding, for heuristics comparing order costs.

    Not a tie tolerance: majority ties are decided pair by pair (:func:`pair_tol`) or exactly.
    """
    scale = float((costs + costs.T).max()) if costs.size else 0.0
    return PAIR_RTOL * max(scale, 0.0)


def pair_tol(costs: NDArray[np.float64]) -> NDArray[np.float64]:
    """Per pair, the float margin that is still a tie: ``2**-44 * (|costs[i, j]| + |costs[j, i]|)``.

    Float rounding of that pair's own sums of weights; no other pair (and no tied weight,
    when `costs` are wins) enters it.

    Parameters
    ----------
    costs : ndarray (n, n)
        Float costs (or wins).

    Returns
    -------
    ndarray (n, n)
        Symmetric tolerances.

    Examples
    --------
    >>> float(pair_tol(np.array([[0.0, 1.0], [3.0, 0.0]]))[0, 1]) == 4 * 2.0**-44
    True
    """
    size = np.abs(costs)
    return PAIR_RTOL * (size + size.T)


def ordering_cost(costs: ArrayLike, order: Sequence[int]) -> float:
    """Cost of an order: the sum of ``costs[j, i]`` over pairs with ``i`` placed above ``j``.

    For Kemeny consensus with ``costs`` = pairwise preferences, this is the total weighted
    Kendall disagreement between the order and the tasks.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    order : sequence of int
        A permutation of ``0..n-1``, best first.

    Returns
    -------
    float
        The cost (``0.0``, never ``-0.0``, when nothing is paid).

    Raises
    ------
    ValueError
        `order` is not a permutation of ``0..n-1``.

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
    with denominators up to 10**6.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    tol : float, optional
        Margins within `tol` of 0 are ties and left out. Default: per pair,
        ``2**-44 * (costs[i, j] + costs[j, i])`` (float rounding of that pair only).

    Returns
    -------
    float or None
        The step; None when every margin is a tie or the margins are not commensurable.

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
    iu, ju = np.triu_indices(matrix.shape[0], 1)
    margins = np.abs(matrix[iu, ju] - matrix[ju, iu])
    limit = pair_tol(matrix)[iu, ju] if tol is None else tol
    margins = margins[margins > limit]
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


def _trivial_bound(costs: NDArray[np.float64]) -> float:
    """Each pair costs at least its smaller side."""
    iu, ju = np.triu_indices(costs.shape[0], 1)
    return float(np.minimum(costs[iu, ju], costs[ju, iu]).sum())


def majority_components(
    costs: ArrayLike, *, tol: float | None = None, margins: ArrayLike | tuple[np.ndarray, int] | None = None
) -> list[list[int]]:
    """Strongly connected components of the strict majority relation, in a topological order.

    ``i`` beats ``j`` when its margin ``costs[i, j] - costs[j, i]`` is positive: exactly, given
    `margins`, else when it exceeds `tol`. The components are returned
    so that no member of a later component beats a member of an earlier one (ties between
    components are possible); among incomparable components the one holding the smallest
    index comes first. Every Kemeny-optimal *value* is attained by an order that ranks
    the components in this order (see :mod:`solvers.linear_ordering`).

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    tol : float, optional
        Margins within `tol` are ties. Default: per pair, ``2**-44 * (costs[i, j] + costs[j, i])``
        (float rounding of that pair's sums; never relative to other pairs).
    margins : array_like (n, n) or (ndarray, int), optional
        Exact margins (integers or fractions), or a ``(numerators, denominator)`` pair as
        :func:`solvers.ordering_exact.exact_margins` returns; their signs decide.

    Returns
    -------
    list of list of int
        The members of each component, in increasing index order.

    Raises
    ------
    ValueError
        The matrix is not square or not finite.

    Examples
    --------
    >>> cycle_then_loser = [[0, 2, 1, 3], [1, 0, 2, 3], [2, 1, 0, 3], [0, 0, 0, 0]]
    >>> majority_components(cycle_then_loser)
    [[0, 1, 2], [3]]
    """
    matrix = _as_costs(costs)
    n = matrix.shape[0]
    if n == 0:
        return []
    if margins is not None:
        if isinstance(margins, tuple) and len(margins) == 2 and isinstance(margins[0], np.ndarray):
            margins = margins[0]  # (numerators, denominator): a positive denominator keeps the signs
        beats = np.asarray(np.asarray(margins) > 0, dtype=bool)  # int64 stays vectorized
        if beats.shape != (n, n):
            raise ValueError(f"margins must be {n} x {n}, got shape {beats.shape}")
    else:
        beats = (matrix - matrix.T) > (pair_tol(matrix) if tol is None else tol)
    from scipy.sparse import (
        csr_matrix,  # here: the pairwise comparison imports this module, not scipy
    )
    from scipy.sparse.csgraph import connected_components

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
        successors = np.nonzero(edges[c])[0]
        indegree[successors] -= 1  # vectorized: O(count) numpy, not O(count) Python, per component
        for d in successors[indegree[successors] == 0].tolist():
            ready.append((members[d][0], d))
        ready.sort()
    return [members[c] for c in order]
