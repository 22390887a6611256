"""The one model description of the task-weight LPs, and how its solutions become results.

A :class:`_WeightsModel` poses any of the three LPs of :mod:`solvers.weights_lp` on a
:class:`~solvers.model.LinearModel`; :func:`_solve_weights` solves it with every rival row
at once (the eager functions) or with rival rows added lazily (constraint generation, the
batch class :class:`~solvers.weights_batch.HighsWeightsLP`). Both paths turn the solution
into a :class:`WeightsLPResult` with the same helpers, so they cannot drift apart.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .model import LinearModel, dense_rows
from .status import SolverError, SolveStatus, clean
from .weights_certificates import (
    MarginCertificate,
    _margin_certificate,
    certificate_bound,
)
from .weights_inputs import (
    WEIGHT_NOISE,
    FloatArray,
    WeightConstraints,
    _check_r,
    _stopped,
)

__all__ = ["CUT_TOL", "WeightsLPResult", "max_margin_shortcut"]

#: A rival row is added by constraint generation when it is violated by more than this.
CUT_TOL = 1e-12

Mode = Literal["margin", "nearest", "linear"]


@dataclass(frozen=True, slots=True)
class WeightsLPResult:
    """Outcome of one task-weight LP.

    Attributes
    ----------
    status : SolveStatus
        ``OPTIMAL``, or ``INFEASIBLE`` when the model has no solution (contradictory
        constraints, or a threshold above the best margin).
    weights : ndarray (n_tasks,) or None
        Cleaned (noise below 1e-12 set to 0, renormalized to sum 1).
    objective : float
        The LP optimum: ``eps*``, the L1 distance, or ``c . w`` (NaN when infeasible).
    margins : ndarray (n_rivals,) or None
        ``R @ weights``, recomputed in floating point.
    certificate : MarginCertificate or None
        Max-margin LP: the dual proof that ``eps* <= certificate.bound``. Infeasible
        constraints: the Farkas proof (``rivals`` zero, ``bound < 0``).
    method : str
        ``"lp:<backend>"``, ``"highspy"`` or ``"shortcut"``.
    n_solves : int
        Solver runs (constraint generation re-solves count).
    n_rows : int
        Rival rows in the final model.
    seconds, solver_seconds : float
        Wall time of the call, and the part spent inside the solver.

    Examples
    --------
    >>> res = max_margin_shortcut([[1.0, -1.0], [1.0, 0.0]])
    >>> res.status.value, res.margin, res.method
    ('optimal', 1.0, 'shortcut')
    """

    status: SolveStatus
    weights: FloatArray | None
    objective: float
    margins: FloatArray | None
    certificate: MarginCertificate | None
    method: str
    n_solves: int = 1
    n_rows: int = 0
    seconds: float = 0.0
    solver_seconds: float = 0.0

    @property
    def margin(self) -> float:
        """Smallest margin of the returned weights (NaN without weights)."""
        return float(self.margins.min()) if self.margins is not None else math.nan


def _clean_weights(raw: Sequence[float | None] | FloatArray, n_tasks: int) -> FloatArray:
    w = np.array([0.0 if v is None else float(v) for v in raw[:n_tasks]], dtype=np.float64)
    w[~np.isfinite(w)] = 0.0
    w[w < WEIGHT_NOISE] = 0.0
    total = w.sum()
    if total <= 0:
        raise SolverError("the solver returned an all-zero weighting")
    w = w / total
    w[w == 0] = 0.0
    w.flags.writeable = False
    return w


def _margins(R: FloatArray, w: FloatArray) -> FloatArray:
    m = R @ w
    m[m == 0] = 0.0
    m.flags.writeable = False
    return m


def max_margin_shortcut(R: ArrayLike) -> WeightsLPResult | None:
    """Decide the max-margin LP without a solver when ``R`` makes it obvious (no constraints).

    Margins lie in ``[-1, 1]``. A task the system wins against every rival (a column of
    +1) gives margin 1 with all weight on it: optimal. A rival that beats the system on every
    task (a row of -1) holds every weighting to margin -1: optimal too, with that rival as
    the certificate.

    Parameters
    ----------
    R : array (n_rivals, n_tasks)
        See :func:`~solvers.weights_inputs.relation_matrix`.

    Returns
    -------
    WeightsLPResult or None
        The optimum (``method="shortcut"``, no solver run), or None when ``R`` is not one
        of these two cases.

    Raises
    ------
    ValueError
        `R` is empty, not 2-d, or not finite.

    Examples
    --------
    >>> max_margin_shortcut([[1.0, -1.0], [1.0, 0.0]]).weights.tolist()
    [1.0, 0.0]
    >>> max_margin_shortcut([[1.0, -1.0], [-1.0, -1.0]]).certificate.rivals.tolist()
    [0.0, 1.0]
    """
    R = _check_r(R)
    n_rivals, n_tasks = R.shape
    lost = np.nonzero((R == -1.0).all(axis=1))[0]
    if len(lost):
        w = np.full(n_tasks, 1.0 / n_tasks)
        y = np.zeros(n_rivals)
        y[lost[0]] = 1.0
        cert = certificate_bound(R, y)
        return WeightsLPResult(SolveStatus.OPTIMAL, _clean_weights(w, n_tasks), -1.0, _margins(R, w), cert, "shortcut", 0)
    won = np.nonzero((R == 1.0).all(axis=0))[0]
    if len(won):
        w = np.zeros(n_tasks)
        w[won[0]] = 1.0
        y = np.zeros(n_rivals)
        y[0] = 1.0  # any mix proves eps* <= 1
        cert = certificate_bound(R, y)
        return WeightsLPResult(SolveStatus.OPTIMAL, _clean_weights(w, n_tasks), 1.0, _margins(R, w), cert, "shortcut", 0)
    return None


# ---------------------------------------------------------------------- the model
def _margin_sense(mode: Mode, maximize: bool) -> Literal["min", "max"]:
    return "max" if (mode == "margin" or (mode == "linear" and maximize)) else "min"


class _WeightsModel:
    """One task-weight LP on a :class:`~solvers.model.LinearModel`: the single description of
    the three LPs, solved with every rival row at once or with rival rows added lazily.

    Columns: ``w`` (n_tasks, >= 0), then ``eps`` (free, margin mode) or ``d`` (n_tasks, >= 0,
    nearest mode). Rows, in this order: the simplex row, the user rows, the nearest-mode
    distance rows, then rival rows in the order they were added.
    """

    def __init__(self, model: LinearModel, n_tasks: int, cons: WeightConstraints) -> None:
        self.model, self.n_tasks, self.cons = model, n_tasks, cons

    def build(self, mode: Mode, reference: FloatArray | None, coefs: FloatArray | None, maximize: bool) -> int:
        """Clear the model and pose everything but the rival rows; returns the number of rows."""
        m, n, cons = self.model, self.n_tasks, self.cons
        m.clear()
        m.set_sense(_margin_sense(mode, maximize))
        if mode == "linear":
            assert coefs is not None  # every linear-mode caller passes the checked coefs
            cost = coefs
        else:
            cost = np.zeros(n)
        m.add_columns(np.zeros(n), np.full(n, np.inf), cost)
        if mode == "margin":
            m.add_columns([-np.inf], [np.inf], [1.0])  # eps, maximized
        elif mode == "nearest":
            m.add_columns(np.zeros(n), np.full(n, np.inf), np.ones(n))  # d, summed
        # the weights form a probability vector
        m.add_rows([1.0], [1.0], *dense_rows(self._wide(np.ones((1, n)))))
        if cons.n_rows:
            # user row i: lower_i <= A_i . w <= upper_i
            m.add_rows(cons.lower, cons.upper, *dense_rows(self._wide(cons.matrix)))
        if mode == "nearest":
            ref = np.asarray(reference, dtype=np.float64)
            eye = np.eye(n)
            # d_k - w_k >= -r_k and d_k + w_k >= r_k: d_k >= |w_k - r_k|
            m.add_rows(-ref, np.full(n, np.inf), *dense_rows(np.hstack([-eye, eye])))
            m.add_rows(ref, np.full(n, np.inf), *dense_rows(np.hstack([eye, eye])))
        return m.n_rows

    def _wide(self, w_part: FloatArray) -> FloatArray:
        """Rows over ``w`` padded with zeros for the columns after it."""
        extra = self.model.n_cols - self.n_tasks
        return np.hstack([w_part, np.zeros((w_part.shape[0], extra))]) if extra else w_part

    def add_rivals(self, R: FloatArray, idx: NDArray[np.intp], mode: Mode, threshold: float) -> None:
        """Add the rows of the rivals `idx`."""
        block = R[idx]
        k = len(idx)
        if mode == "margin":
            # R_j w - eps >= 0: rival j is beaten by at least eps
            self.model.add_rows(np.zeros(k), np.full(k, np.inf), *dense_rows(np.hstack([block, -np.ones((k, 1))])))
        else:
            # R_j w >= threshold
            self.model.add_rows(np.full(k, float(threshold)), np.full(k, np.inf), *dense_rows(self._wide(block)))


@dataclass
class _Solved:
    status: SolveStatus
    x: FloatArray | None
    rival_duals: FloatArray | None  # one per rival of R (0 for rows never added)
    user_duals: FloatArray | None
    n_solves: int
    n_rows: int
    solver_seconds: float


def _solve_weights(
    wm: _WeightsModel,
    R: FloatArray,
    mode: Mode,
    *,
    lazy: bool,
    initial_rows: int,
    threshold: float = 0.0,
    reference: FloatArray | None = None,
    coefs: FloatArray | None = None,
    maximize: bool = False,
    first: FloatArray | None = None,
) -> _Solved:
    """Pose and solve; with `lazy`, start from the most dangerous rivals and add violated rows."""
    n_rivals, n_tasks = R.shape
    base_rows = wm.build(mode, reference, coefs, maximize)
    in_model = np.zeros(n_rivals, dtype=bool)
    order: list[int] = []
    if lazy:
        k0 = min(n_rivals, initial_rows)
        first_idx = np.argsort(first if first is not None else R.sum(axis=1), kind="stable")[:k0]
    else:
        first_idx = np.arange(n_rivals)
    wm.add_rivals(R, first_idx, mode, threshold)
    in_model[first_idx] = True
    order.extend(first_idx.tolist())
    batch = max(8, n_tasks)
    n_solves, seconds = 0, 0.0
    while True:
        sol = wm.model.solve()
        n_solves += 1
        seconds += sol.seconds
        if sol.status is not SolveStatus.OPTIMAL:
            return _Solved(sol.status, None, None, None, n_solves, len(order), seconds)
        x = sol.x
        assert x is not None  # an OPTIMAL solve always carries its point
        level = x[n_tasks] if mode == "margin" else float(threshold)
        margins = R @ x[:n_tasks]
        violated = np.nonzero((margins < level - CUT_TOL) & ~in_model)[0]
        if len(violated) == 0:
            break
        worst = violated[np.argsort(margins[violated], kind="stable")[:batch]]
        wm.add_rivals(R, worst, mode, threshold)
        in_model[worst] = True
        order.extend(worst.tolist())
    rival_duals = user_duals = None
    if sol.row_duals is not None:
        rival_duals = np.zeros(n_rivals)
        rival_duals[np.array(order, dtype=np.intp)] = sol.row_duals[base_rows:]
        user_duals = sol.row_duals[1 : 1 + wm.cons.n_rows]
    return _Solved(SolveStatus.OPTIMAL, x, rival_duals, user_duals, n_solves, len(order), seconds)


# ---------------------------------------------------------------------- results
def _max_margin_result(
    R: FloatArray, solved: _Solved, cons: WeightConstraints, method: str, backend: str, start: float
) -> WeightsLPResult:
    """The result of a solved (OPTIMAL) max-margin LP, with its checked dual certificate."""
    n_tasks = R.shape[1]
    assert solved.x is not None  # OPTIMAL: _solve_weights keeps the point
    weights = _clean_weights(solved.x[:n_tasks].tolist(), n_tasks)
    objective = float(solved.x[n_tasks])
    cert, extra = _margin_certificate(R, solved.rival_duals, solved.user_duals, cons, objective, backend)
    return WeightsLPResult(
        SolveStatus.OPTIMAL, weights, clean(objective), _margins(R, weights), cert, method, solved.n_solves + extra,
        solved.n_rows, time.perf_counter() - start, solved.solver_seconds,
    )


def _check_threshold_inputs(
    mode: Mode, n_tasks: int, threshold: float, reference: ArrayLike | None, coefs: ArrayLike | None
) -> tuple[FloatArray | None, FloatArray | None]:
    if not math.isfinite(threshold):
        raise ValueError(f"threshold must be finite, got {threshold!r}")
    ref = c = None
    if mode == "nearest":
        ref = np.asarray(reference, dtype=np.float64)
        if ref.shape != (n_tasks,) or not np.isfinite(ref).all():
            raise ValueError(f"reference must hold {n_tasks} finite weights")
    else:
        c = np.asarray(coefs, dtype=np.float64)
        if c.shape != (n_tasks,) or not np.isfinite(c).all():
            raise ValueError(f"coefs must hold {n_tasks} finite numbers")
    return ref, c


def _threshold_result(
    R: FloatArray, solved: _Solved, mode: Mode, ref: FloatArray | None, c: FloatArray | None,
    method: str, backend: str, start: float,
) -> WeightsLPResult:
    """The result of a nearest-weights or linear-objective LP (INFEASIBLE is an answer)."""
    n_tasks = R.shape[1]
    if solved.status is SolveStatus.INFEASIBLE:
        return WeightsLPResult(
            SolveStatus.INFEASIBLE, None, math.nan, None, None, method, solved.n_solves, solved.n_rows,
            time.perf_counter() - start, solved.solver_seconds,
        )
    if solved.status is not SolveStatus.OPTIMAL:
        raise _stopped(backend, mode, solved.status)
    assert solved.x is not None  # OPTIMAL: _solve_weights keeps the point
    weights = _clean_weights(solved.x[:n_tasks].tolist(), n_tasks)
    if mode == "nearest":
        assert ref is not None  # _check_threshold_inputs checked it for this mode
        objective = float(np.abs(weights - ref).sum())
    else:
        assert c is not None  # _check_threshold_inputs checked it for this mode
        objective = float(c @ weights)
    return WeightsLPResult(
        SolveStatus.OPTIMAL, weights, clean(objective), _margins(R, weights), None, method, solved.n_solves,
        solved.n_rows, time.perf_counter() - start, solved.solver_seconds,
    )
