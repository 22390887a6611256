"""What the task-weight LPs take: the R operator of one system against its rivals, and user constraints on the weights.

``R`` is rivals x tasks, with entries ``+1`` (the system scores strictly better on the
task), ``-1`` (worse) and ``0`` (tie, or either score missing): the R operator of Rofin et
al. 2023, eq. (1). A weighting ``w`` of the tasks (``w >= 0``, ``sum w = 1``, optionally
inside user constraints ``lower <= A w <= upper``, :class:`WeightConstraints`) gives the
system the weighted margin ``(R w)_j`` over rival ``j``. The LPs themselves are in
:mod:`solvers.weights_lp`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .status import SolverError, SolveStatus

__all__ = ["WEIGHT_NOISE", "WeightConstraints", "relation_matrix"]

FloatArray = NDArray[np.float64]

#: Weights below this (after the solve) are solver noise and become exactly 0.
WEIGHT_NOISE = 1e-12


def relation_matrix(values: ArrayLike, row: int) -> FloatArray:
    """``R(row, j, k)`` for every rival ``j != row`` (in index order) and task ``k``.

    ``+1`` where system `row` scores strictly higher than ``j`` on task ``k``, ``-1`` where
    lower, ``0`` on ties and where either score is NaN (Rofin et al. 2023, eq. 1).

    Parameters
    ----------
    values : array (n_systems, n_tasks)
        Oriented scores (higher is better), NaN where missing.
    row : int
        The system whose duels are described.

    Returns
    -------
    ndarray (n_systems - 1, n_tasks)
        Row ``j`` (for ``j < row``) or ``j - 1`` (for ``j > row``) describes rival ``j``.

    Raises
    ------
    ValueError
        `values` is not 2-d, or `row` is out of range.

    Examples
    --------
    >>> relation_matrix([[3.0, 1.0, np.nan], [2.0, 1.0, 5.0], [4.0, 0.0, 1.0]], 0).tolist()
    [[1.0, 0.0, 0.0], [-1.0, 1.0, 0.0]]
    """
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 2:
        raise ValueError(f"values must be a 2-d array, got shape {values.shape}")
    n = values.shape[0]
    if not 0 <= row < n:
        raise ValueError(f"row {row} out of range for {n} systems")
    rivals = np.delete(values, row, axis=0)
    with np.errstate(invalid="ignore"):
        diff = values[row][None, :] - rivals
    rel = np.sign(diff)
    rel[np.isnan(rel)] = 0.0
    rel[rel == 0] = 0.0  # no -0.0
    return rel


@dataclass(frozen=True, slots=True)
class WeightConstraints:
    """Linear constraints ``lower <= matrix @ w <= upper`` on the task weights ``w``.

    Every constraint of the user layer is one row: a per-task bound is a row with a single
    1, a group bound sums the group's columns, ``w_a >= w_b`` is the row ``e_a - e_b >= 0``,
    a fixed weight has ``lower == upper``. ``w >= 0`` and ``sum w = 1`` are always implied
    and are not rows here. ``lower > upper`` is allowed: it is a contradiction that the LPs
    report (with a Farkas certificate), not an input error.

    Parameters
    ----------
    matrix : array_like (n_rows, n_tasks)
        Finite coefficients; copied and made read-only.
    lower, upper : array_like (n_rows,)
        ``-inf`` / ``+inf`` for an open side.

    Attributes
    ----------
    matrix : ndarray (n_rows, n_tasks)
    lower, upper : ndarray (n_rows,)

    Raises
    ------
    ValueError
        The shapes disagree, a coefficient is not finite, or a bound is NaN, a lower
        bound ``+inf`` or an upper bound ``-inf``.

    Examples
    --------
    >>> c = WeightConstraints.from_rows(3, [({0: 1.0}, 0.2, np.inf), ({1: 1.0, 2: -1.0}, 0.0, np.inf)])
    >>> c.n_rows, c.violation(np.array([0.5, 0.3, 0.2]))
    (2, 0.0)
    >>> round(c.violation(np.array([0.1, 0.2, 0.7])), 12)
    0.5
    """

    matrix: FloatArray
    lower: FloatArray
    upper: FloatArray

    def __post_init__(self) -> None:
        matrix = np.array(self.matrix, dtype=np.float64, ndmin=2, copy=True)
        lower = np.array(self.lower, dtype=np.float64, ndmin=1, copy=True)
        upper = np.array(self.upper, dtype=np.float64, ndmin=1, copy=True)
        if matrix.ndim != 2 or lower.shape != (matrix.shape[0],) or upper.shape != (matrix.shape[0],):
            raise ValueError(
                f"constraint shapes disagree: matrix {matrix.shape}, lower {lower.shape}, upper {upper.shape}"
            )
        if not np.isfinite(matrix).all():
            raise ValueError("constraint coefficients must be finite")
        if np.isnan(lower).any() or np.isnan(upper).any() or (lower == np.inf).any() or (upper == -np.inf).any():
            raise ValueError("constraint bounds must not be NaN, a lower bound +inf or an upper bound -inf")
        for arr in (matrix, lower, upper):
            arr[arr == 0] = 0.0
            arr.flags.writeable = False
        object.__setattr__(self, "matrix", matrix)
        object.__setattr__(self, "lower", lower)
        object.__setattr__(self, "upper", upper)

    @classmethod
    def none(cls, n_tasks: int) -> WeightConstraints:
        """No constraint beyond the simplex.

        Parameters
        ----------
        n_tasks : int

        Returns
        -------
        WeightConstraints
            Zero rows over `n_tasks` tasks.

        Examples
        --------
        >>> WeightConstraints.none(3).n_rows
        0
        """
        return cls(np.zeros((0, n_tasks)), np.zeros(0), np.zeros(0))

    @classmethod
    def from_rows(
        cls, n_tasks: int, rows: Iterable[tuple[Mapping[int, float], float, float]]
    ) -> WeightConstraints:
        """Build from ``(coefficients, lower, upper)`` rows.

        Parameters
        ----------
        n_tasks : int
        rows : iterable of (mapping, float, float)
            ``({task index: coefficient}, lower, upper)``; repeated indices add up.

        Returns
        -------
        WeightConstraints

        Raises
        ------
        ValueError
            A task index is out of range, or the bounds are invalid (see the class).

        Examples
        --------
        >>> c = WeightConstraints.from_rows(2, [({0: 1.0, 1: -1.0}, 0.0, np.inf)])   # w0 >= w1
        >>> c.matrix.tolist(), c.lower.tolist(), c.upper.tolist()
        ([[1.0, -1.0]], [0.0], [inf])
        """
        rows = list(rows)
        matrix = np.zeros((len(rows), n_tasks))
        lower = np.empty(len(rows))
        upper = np.empty(len(rows))
        for i, (coefs, lo, hi) in enumerate(rows):
            for k, a in coefs.items():
                if not 0 <= int(k) < n_tasks:
                    raise ValueError(f"task index {k} out of range for {n_tasks} tasks")
                matrix[i, int(k)] += float(a)
            lower[i], upper[i] = float(lo), float(hi)
        return cls(matrix, lower, upper)

    @property
    def n_rows(self) -> int:
        """Number of constraint rows."""
        return int(self.matrix.shape[0])

    @property
    def n_tasks(self) -> int:
        """Number of tasks (columns) the rows are over."""
        return int(self.matrix.shape[1])

    def violation(self, weights: ArrayLike) -> float:
        """Largest violation of a row by `weights`.

        Parameters
        ----------
        weights : array_like (n_tasks,)

        Returns
        -------
        float
            ``max(0, lower - A w, A w - upper)`` over the rows; 0.0 when every row holds.

        Examples
        --------
        >>> c = WeightConstraints.from_rows(2, [({0: 1.0}, 0.0, 0.5)])
        >>> c.violation([0.75, 0.25])
        0.25
        """
        if self.n_rows == 0:
            return 0.0
        act = self.matrix @ np.asarray(weights, dtype=np.float64)
        worst = np.maximum(self.lower - act, act - self.upper)
        return float(max(0.0, worst.max()))


def _check_r(R: ArrayLike) -> FloatArray:
    R = np.asarray(R, dtype=np.float64)
    if R.ndim != 2 or R.shape[0] < 1 or R.shape[1] < 1:
        raise ValueError(f"R must be a non-empty 2-d array (rivals x tasks), got shape {R.shape}")
    if not np.isfinite(R).all():
        raise ValueError("R must be finite")
    return R


def _check_constraints(constraints: WeightConstraints | None, n_tasks: int) -> WeightConstraints:
    if constraints is None:
        return WeightConstraints.none(n_tasks)
    if constraints.n_tasks != n_tasks:
        raise ValueError(f"constraints are over {constraints.n_tasks} tasks, R over {n_tasks}")
    return constraints


def _stopped(backend: str, what: str, status: SolveStatus) -> SolverError:
    """The error for a weight LP that stopped without an optimum."""
    return SolverError(f"{backend} stopped on the {what} weight LP with status {status}", status)
