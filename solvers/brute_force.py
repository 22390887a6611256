"""Exhaustive references for Kemeny consensus on at most 8 items: linear orders and weak orders.

Every permutation is scored in exact integer arithmetic (on the exact margins of
:func:`solvers.ordering_exact.exact_margins`), so the result is exact by construction and
lists *all* optimal orders. It is the reference the ILP of :mod:`solvers.linear_ordering` is tested
against, and it solves tiny inputs (``method="brute_force"``) or tiny components.

The arithmetic here is deliberately independent of the ILP code: costs of all ``n!``
orders come from one matrix product over the pair indicators.

:func:`brute_force_weak_ordering` does the same for the Kemeny consensus *with ties* of
:mod:`solvers.weak_ordering`: it scores every weak order (ordered set partition; the
Fubini numbers 1, 3, 13, 75, 541, 4683, 47293, 545835 for ``n = 1..8``) in exact integer
arithmetic, from the pair indicators "strictly above" and "strictly below".
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .ordering_costs import ordering_cost
from .ordering_exact import exact_margins

__all__ = [
    "MAX_BRUTE_FORCE",
    "BruteForceOutcome",
    "BruteForceWeakOutcome",
    "all_order_costs",
    "brute_force_linear_ordering",
    "brute_force_weak_ordering",
    "check_wins_ties",
]

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
    margins: ArrayLike | None = None,
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


# --------------------------------------------------------------------------- weak orders
def check_wins_ties(wins: ArrayLike, ties: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Validate the pairwise weights of a Kemeny consensus with ties; float copies, zero diagonals.

    Parameters
    ----------
    wins : array_like (n, n)
        ``wins[i, j]``: total task weight on which ``i`` is strictly above ``j``.
    ties : array_like (n, n)
        ``ties[i, j] = ties[j, i]``: total task weight on which ``i`` and ``j`` tie.

    Returns
    -------
    wins, ties : ndarray (n, n)
        Float copies with zero diagonals (the diagonal is never used).

    Raises
    ------
    ValueError
        `wins` is not square, `ties` has another shape, an entry is not finite or is
        negative, or `ties` is not symmetric; the message names the first offending entry.

    Examples
    --------
    >>> w, t = check_wins_ties([[0, 2], [1, 0]], [[0, 1], [1, 0]])
    >>> w.tolist(), t.tolist()
    ([[0.0, 2.0], [1.0, 0.0]], [[0.0, 1.0], [1.0, 0.0]])
    """
    w = np.array(wins, dtype=np.float64)
    t = np.array(ties, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    if t.shape != w.shape:
        raise ValueError(f"ties must have the shape of wins {w.shape}, got {t.shape}")
    for name, m in (("wins", w), ("ties", t)):
        bad = np.argwhere(~np.isfinite(m))
        if len(bad):
            i, j = bad[0].tolist()
            raise ValueError(f"{name} must be finite: {name}[{i}, {j}] is {m[i, j]}")
        bad = np.argwhere(m < 0)
        if len(bad):
            i, j = bad[0].tolist()
            raise ValueError(f"{name} must be non-negative: {name}[{i}, {j}] = {m[i, j]:g}")
    bad = np.argwhere(t != t.T)
    if len(bad):
        i, j = bad[0].tolist()
        raise ValueError(f"ties must be symmetric: ties[{i}, {j}] = {t[i, j]:g} but ties[{j}, {i}] = {t[j, i]:g}")
    np.fill_diagonal(w, 0.0)
    np.fill_diagonal(t, 0.0)
    return w, t


@dataclass(frozen=True, slots=True)
class BruteForceWeakOutcome:
    """All optimal weak orders of a small Kemeny consensus with ties.

    Attributes
    ----------
    groups : tuple of tuple of int
        The first optimal weak order (in the order of `optima`): groups of tied items,
        best group first, items ascending within a group.
    objective : float
        Its Kemeny-Snell cost (the exact optimum, rounded once to a float).
    optima : tuple of tuple of tuple of int
        Every weak order of minimum exact cost, sorted (as tuples of groups).
    n_orders : int
        Number of weak orders scored (the Fubini number of ``n``).

    Examples
    --------
    >>> res = brute_force_weak_ordering([[0, 1], [0, 0]], [[0, 3], [3, 0]])
    >>> res.groups, res.objective, res.n_orders, res.unique
    (((0, 1),), 0.5, 3, True)
    """

    groups: tuple[tuple[int, ...], ...]
    objective: float
    optima: tuple[tuple[tuple[int, ...], ...], ...]
    n_orders: int

    @property
    def unique(self) -> bool:
        """Whether exactly one weak order is optimal."""
        return len(self.optima) == 1


def _set_partitions(n: int) -> list[list[int]]:
    """Every set partition of ``range(n)`` as a restricted growth string (block of each item)."""
    found: list[list[int]] = []

    def grow(prefix: list[int], blocks: int) -> None:
        if len(prefix) == n:
            found.append(list(prefix))
            return
        for b in range(blocks + 1):  # an existing block, or a new one
            prefix.append(b)
            grow(prefix, max(blocks, b + 1))
            prefix.pop()

    grow([], 0)
    return found


@functools.cache
def _weak_order_levels(n: int) -> NDArray[np.int8]:
    """Every weak order of ``range(n)`` as a row of levels (0 = best group; read-only).

    A weak order is a set partition with its ``k`` blocks ordered: each restricted growth
    string, relabelled by each of the ``k!`` permutations of its block labels.
    """
    parts = [np.zeros((1, 0), dtype=np.int8)]  # n == 0: the empty weak order
    by_blocks: dict[int, list[list[int]]] = {}
    for rgs in _set_partitions(n) if n else []:
        by_blocks.setdefault(max(rgs) + 1, []).append(rgs)
    for k, strings in sorted(by_blocks.items()):
        labels = np.array(list(itertools.permutations(range(k))), dtype=np.int8)
        parts.append(labels[:, np.array(strings)].reshape(-1, n))  # (k!, partitions, n) -> rows
    levels = np.concatenate(parts[1:] if n else parts)
    levels.flags.writeable = False
    return levels


def _rational(value: float) -> Fraction:
    """`value` as a fraction: the nearest one with denominator <= 10**6 when within 1e-12 of
    it (relative; float sums of task weights such as 0.1), else the float's exact value."""
    near = Fraction(value).limit_denominator(10**6)
    return near if abs(float(near) - value) <= 1e-12 * abs(value) else Fraction(value)


def _exact_scale(w: NDArray[np.float64], t: NDArray[np.float64]) -> tuple[list[list[int]], list[list[int]], int]:
    """`w` and `t` as Python integers over one common denominator (:func:`_rational` of each
    entry, times `den`); integer-valued inputs keep ``den == 1``."""
    fw = [[_rational(v) for v in row] for row in w.tolist()]
    ft = [[_rational(v) for v in row] for row in t.tolist()]
    den = math.lcm(1, *(f.denominator for m in (fw, ft) for row in m for f in row))
    to_int = lambda m: [[int(f * den) for f in row] for row in m]  # noqa: E731
    return to_int(fw), to_int(ft), den


def brute_force_weak_ordering(wins: ArrayLike, ties: ArrayLike) -> BruteForceWeakOutcome:
    """Kemeny consensus with ties by scoring every weak order of ``n <= 8`` items, exactly.

    A weak order costs, per pair ``{i, j}``: ``wins[j, i] + ties[i, j] / 2`` with ``i``
    strictly above ``j``, ``(wins[i, j] + wins[j, i]) / 2`` with the two tied (the
    Kemeny-Snell distance, halved; see :mod:`solvers.weak_ordering`). Costs are compared as
    exact integers: twice the cost over the common denominator of all inputs, each read
    as a fraction (integers as they are; 0.30000000000000004 as 3/10, a float within
    1e-12 of a fraction with denominator up to 10**6; other floats exactly).

    Parameters
    ----------
    wins : array_like (n, n)
        ``wins[i, j]``: total task weight on which ``i`` is strictly above ``j``.
    ties : array_like (n, n)
        Symmetric; ``ties[i, j]``: total task weight on which ``i`` and ``j`` tie.

    Returns
    -------
    BruteForceWeakOutcome
        The first optimal weak order, the optimum, all optimal weak orders and the
        number scored.

    Raises
    ------
    ValueError
        Invalid `wins` / `ties` (:func:`check_wins_ties`), or more than 8 items.

    References
    ----------
    .. [1] Kemeny, Snell, *Mathematical Models in the Social Sciences*, Ginn, 1962
       (the distance between weak orders).

    Examples
    --------
    Items 0 and 1 tie on three tasks and 0 wins one: tying them costs 0.5, while
    ``0 > 1`` costs 1.5 (half of each tie). Item 2 loses to both on every task.

    >>> wins = [[0, 1, 4], [0, 0, 4], [0, 0, 0]]
    >>> ties = [[0, 3, 0], [3, 0, 0], [0, 0, 0]]
    >>> res = brute_force_weak_ordering(wins, ties)
    >>> res.groups, res.objective, res.n_orders
    (((0, 1), (2,)), 0.5, 13)
    """
    w, t = check_wins_ties(wins, ties)
    n = w.shape[0]
    if n > MAX_BRUTE_FORCE:
        raise ValueError(f"brute force handles at most {MAX_BRUTE_FORCE} items (545835 weak orders), got {n}")
    levels = _weak_order_levels(n)
    iu, ju = np.triu_indices(n, 1)
    wi, ti, den = _exact_scale(w, t)
    # twice the cost of each state of the pair i < j, in units of 1 / den
    above = [2 * wi[j][i] + ti[i][j] for i, j in zip(iu.tolist(), ju.tolist())]  # i strictly above j
    below = [2 * wi[i][j] + ti[i][j] for i, j in zip(iu.tolist(), ju.tolist())]  # j strictly above i
    tied = [wi[i][j] + wi[j][i] for i, j in zip(iu.tolist(), ju.tolist())]
    # cost = sum of the tied costs + the change of each pair that is not tied
    steps = [a - c for a, c in zip(above, tied)] + [b - c for b, c in zip(below, tied)]
    values: NDArray[np.int64] | NDArray[np.object_]
    if sum(abs(x) for x in steps) < 2**62:  # int64, one pair at a time (no big indicator matrix)
        values = np.zeros(len(levels), dtype=np.int64)
        for p, (i, j) in enumerate(zip(iu.tolist(), ju.tolist())):
            values += np.where(levels[:, i] < levels[:, j], steps[p], 0)
            values += np.where(levels[:, i] > levels[:, j], steps[len(iu) + p], 0)
    else:
        li, lj = levels[:, iu], levels[:, ju]
        values = _exact_order_values(np.hstack([li < lj, li > lj]), steps)
    best = min(values.tolist())
    optima = sorted(
        tuple(tuple(int(x) for x in np.nonzero(row == g)[0]) for g in range(int(row.max(initial=-1)) + 1))
        for row in levels[np.nonzero(values == best)[0]]
    )
    objective = float(Fraction(best + sum(tied), 2 * den))
    return BruteForceWeakOutcome(optima[0], objective, tuple(optima), len(levels))
