"""The nearest task weighting at which one system stops being ahead of another: the stability-radius LPs.

Input: a reference weighting ``r`` (the leaderboard's official weights, summing to 1) and a
row ``d`` of per-task advantages of one system over another (point differences of a linear
rule, or the +1/0/-1 majority relation), with ``d @ r > 0``: the first is ahead. The LP finds
the admissible weighting ``w`` (``w >= 0``, ``sum w = 1``, optional user constraints
``lower <= A w <= upper``) closest to ``r`` with ``d @ w <= 0``: the two tie or swap.

- L1: ``min sum_k u_k`` s.t. ``u_k >= w_k - r_k``, ``u_k >= r_k - w_k``;
- L-infinity: ``min t`` s.t. ``t >= w_k - r_k``, ``t >= r_k - w_k``.

:class:`RadiusLP` keeps one model and swaps the ``d`` row between solves (HiGHS warm-starts
from the last basis), for the many pairs of ``consensus.weight_sensitivity``.
:func:`radius_lower_bounds` gives, without a solver, bounds no admissible weighting can beat
(used to skip pairs that cannot be the nearest):

- L1: ``2 (d @ r) / (max d - min d)``, since ``d @ (w - r) = (d - c) @ (w - r)`` for any ``c``
  (``w - r`` sums to 0) and ``|d_k - c| <= (max d - min d) / 2`` at the midpoint ``c``;
- L-infinity: ``(d @ r) / ||d - median(d)||_1``, from the same identity with Hoelder's
  inequality.

Only numpy arrays cross this module's boundary.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .model import LinearModel, dense_rows
from .status import SolverError, SolveStatus
from .weights_inputs import WeightConstraints, _check_constraints

__all__ = ["Norm", "RadiusLP", "RadiusSolution", "radius_lower_bounds"]

Norm = Literal["l1", "linf"]
FloatArray = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class RadiusSolution:
    """One radius LP's answer.

    Attributes
    ----------
    status : SolveStatus
        ``OPTIMAL``, or ``INFEASIBLE`` (no admissible weighting lets the pair tie).
    distance : float
        The optimum (``inf`` when infeasible), recomputed from `weights`.
    weights : ndarray or None
        The nearest weighting (noise below 1e-12 set to 0, renormalized to sum 1).
    seconds : float
        Time in the solver.
    """

    status: SolveStatus
    distance: float
    weights: FloatArray | None
    seconds: float


def radius_lower_bounds(D: ArrayLike, reference: ArrayLike, norm: Norm) -> FloatArray:
    """Solver-free lower bounds on the radius of every row of `D` (see the module notes).

    Parameters
    ----------
    D : array (n_pairs, n_tasks)
        Advantage rows; ``D @ reference`` is each pair's current gap (> 0 to be meaningful).
    reference : array (n_tasks,)
        The reference weighting.
    norm : {"l1", "linf"}

    Returns
    -------
    ndarray (n_pairs,)
        ``0`` where the gap is not positive; ``inf`` where the row is constant (no weighting
        changes that pair's gap).

    Examples
    --------
    >>> radius_lower_bounds([[1.0, -1.0]], [0.75, 0.25], "l1").tolist()   # gap 0.5, range 2
    [0.5]
    """
    D = np.atleast_2d(np.asarray(D, dtype=np.float64))
    r = np.asarray(reference, dtype=np.float64)
    gap = np.maximum(D @ r, 0.0)
    if norm == "l1":
        spread = D.max(axis=1) - D.min(axis=1)
        scale = spread / 2.0
    else:
        scale = np.abs(D - np.median(D, axis=1, keepdims=True)).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(gap <= 0, 0.0, np.where(scale > 0, gap / np.where(scale > 0, scale, 1.0), np.inf))
    return out


def norm_distance(w: ArrayLike, r: ArrayLike, norm: Norm) -> float:
    """``||w - r||`` in the L1 or L-infinity norm.

    Parameters
    ----------
    w, r : array (n_tasks,)
    norm : {"l1", "linf"}

    Returns
    -------
    float

    Examples
    --------
    >>> norm_distance([0.5, 0.5], [1.0, 0.0], "l1"), norm_distance([0.5, 0.5], [1.0, 0.0], "linf")
    (1.0, 0.5)
    """
    diff = np.abs(np.asarray(w, dtype=np.float64) - np.asarray(r, dtype=np.float64))
    return float(diff.sum() if norm == "l1" else diff.max())


class RadiusLP:
    """The nearest admissible weighting to a reference at which a given pair ties: one reused model.

    Parameters
    ----------
    reference : array (n_tasks,)
        Non-negative, summing to 1.
    norm : {"l1", "linf"}
    constraints : WeightConstraints, optional
    backend : str, default="highs"
        ``"highs"`` or a pulp solver name.

    Examples
    --------
    >>> lp = RadiusLP(np.array([0.5, 0.5]), "l1")
    >>> sol = lp.solve(np.array([3.0, -1.0]))        # ahead by 1 at r; ties at w = (0.25, 0.75)
    >>> sol.status.value, round(sol.distance, 9), sol.weights.round(9).tolist()
    ('optimal', 0.5, [0.25, 0.75])
    """

    def __init__(
        self, reference: ArrayLike, norm: Norm, constraints: WeightConstraints | None = None, backend: str = "highs"
    ) -> None:
        if norm not in ("l1", "linf"):
            raise ValueError(f"norm must be 'l1' or 'linf', got {norm!r}")
        r = np.asarray(reference, dtype=np.float64).reshape(-1)
        if not np.isfinite(r).all() or (r < 0).any() or abs(r.sum() - 1.0) > 1e-9:
            raise ValueError("reference must be finite, non-negative and sum to 1")
        n = r.shape[0]
        self.n_tasks = n
        self.reference = r
        self.norm: Norm = norm
        self.backend = backend
        cons = _check_constraints(constraints, n)
        m = LinearModel(backend=backend, sense="min")
        m.add_columns(np.zeros(n), np.full(n, np.inf), np.zeros(n))  # w
        eye = np.eye(n)
        if norm == "l1":
            m.add_columns(np.zeros(n), np.full(n, np.inf), np.ones(n))  # u_k >= |w_k - r_k|
            m.add_rows(-r, np.full(n, np.inf), *dense_rows(np.hstack([-eye, eye])))  # u - w >= -r
            m.add_rows(r, np.full(n, np.inf), *dense_rows(np.hstack([eye, eye])))  # u + w >= r
            width = 2 * n
        else:
            m.add_columns([0.0], [np.inf], [1.0])  # t >= |w_k - r_k|
            ones = np.ones((n, 1))
            m.add_rows(-r, np.full(n, np.inf), *dense_rows(np.hstack([-eye, ones])))
            m.add_rows(r, np.full(n, np.inf), *dense_rows(np.hstack([eye, ones])))
            width = n + 1
        self._width = width
        m.add_rows([1.0], [1.0], *dense_rows(self._wide(np.ones((1, n)))))
        if cons.n_rows:
            m.add_rows(cons.lower, cons.upper, *dense_rows(self._wide(cons.matrix)))
        self._model = m
        self._has_pair_row = False

    def _wide(self, w_part: FloatArray) -> FloatArray:
        out = np.zeros((w_part.shape[0], self._width))
        out[:, : self.n_tasks] = w_part
        return out

    def solve(self, d: ArrayLike, threshold: float = 0.0) -> RadiusSolution:
        """The nearest admissible weighting with ``d @ w <= threshold``.

        Parameters
        ----------
        d : array (n_tasks,)
            The pair's advantage row (finite).
        threshold : float, default=0.0
            ``0``: tie or swap; a small negative value asks for a strict swap.

        Returns
        -------
        RadiusSolution

        Raises
        ------
        ValueError
            `d` has the wrong length or is not finite.
        SolverError
            The solver stopped without an answer.
        """
        d = np.asarray(d, dtype=np.float64).reshape(-1)
        if d.shape != (self.n_tasks,) or not np.isfinite(d).all():
            raise ValueError(f"d must hold {self.n_tasks} finite values")
        m = self._model
        if self._has_pair_row:
            m.delete_rows([m.n_rows - 1])
        m.add_rows([-np.inf], [float(threshold)], *dense_rows(self._wide(d[None, :])))
        self._has_pair_row = True
        start = time.perf_counter()
        sol = m.solve()
        if sol.status is SolveStatus.INFEASIBLE:
            return RadiusSolution(SolveStatus.INFEASIBLE, math.inf, None, sol.seconds)
        if sol.status is not SolveStatus.OPTIMAL or sol.x is None:
            raise SolverError(f"{self.backend} stopped on the radius LP with status {sol.status}", sol.status)
        w = np.asarray(sol.x[: self.n_tasks], dtype=np.float64).copy()
        w[np.abs(w) < 1e-12] = 0.0
        w = np.maximum(w, 0.0)
        w /= w.sum()
        return RadiusSolution(SolveStatus.OPTIMAL, norm_distance(w, self.reference, self.norm), w, time.perf_counter() - start)
