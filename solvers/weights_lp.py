"""The task-weight LPs behind ``consensus.condorcet_weights``: can one row win every duel?

Input is the matrix ``R`` of one system against its rivals, rivals x tasks, with entries
``+1`` (the system scores strictly better on the task), ``-1`` (worse) and ``0`` (tie, or
either score missing): the R operator of Rofin et al. 2023, eq. (1). A weighting ``w`` of the
tasks (``w >= 0``, ``sum w = 1``, optionally inside user constraints ``lo <= A w <= hi``)
gives the system the weighted margin ``(R w)_j`` over rival ``j``.

Three LPs over that polytope, each posed once on :class:`solvers.model.LinearModel`
(HiGHS through highspy by default, or a pulp solver by name):

- :func:`max_margin_lp`: maximize ``eps`` subject to ``R w >= eps``, the smallest weighted
  margin. Always solvable when the constraints are, so "no weights exist" is an answer
  (``eps* <= 0``), not an infeasible model.
- :func:`nearest_weights_lp`: minimize ``||w - r||_1`` subject to ``R w >= threshold``.
- :func:`optimize_weights_lp`: minimize or maximize ``c . w`` subject to ``R w >= threshold``.

Proofs are :class:`MarginCertificate` objects, built from the LP duals and checked in exact
rational arithmetic by :func:`certificate_bound`, which needs no solver. By LP duality
(the minimax theorem for the matrix game ``R``), ``eps* = min_y max_w y^T R w`` over rival
mixes ``y``: a mix ``y`` whose blended advantage ``y^T R`` is ``<= 0`` on every task proves
that no weighting gives a positive smallest margin.

:class:`HighsWeightsLP` solves the same model on one reused HiGHS object, adding rival rows
lazily (constraint generation); it is the fast path for the thousands of small LPs of
``consensus.prospective`` and is cross-checked against the eager models in the tests.

Only integer indices and numpy arrays cross this module's boundary: no labels, no pandas.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, section 3.2 and eq. (1).
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .model import LinearModel, dense_rows
from .status import SolverError, SolveStatus

__all__ = [
    "relation_matrix",
    "WeightConstraints",
    "MarginCertificate",
    "WeightsLPResult",
    "certificate_bound",
    "certificate_from_duals",
    "max_margin_shortcut",
    "max_margin_lp",
    "nearest_weights_lp",
    "optimize_weights_lp",
    "dual_certificate_lp",
    "constraints_farkas_lp",
    "HighsWeightsLP",
]

FloatArray = NDArray[np.float64]

#: Weights below this (after the solve) are solver noise and become exactly 0.
WEIGHT_NOISE = 1e-12
#: A rival row is added by constraint generation when it is violated by more than this.
CUT_TOL = 1e-12
#: A dual-derived certificate is accepted when its bound is within this of the LP optimum.
GAP_TOL = 1e-7


# ---------------------------------------------------------------------- the R operator
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


# ---------------------------------------------------------------------- user constraints
@dataclass(frozen=True, slots=True)
class WeightConstraints:
    """Linear constraints ``lower <= matrix @ w <= upper`` on the task weights ``w``.

    Every constraint of the user layer is one row: a per-task bound is a row with a single
    1, a group bound sums the group's columns, ``w_a >= w_b`` is the row ``e_a - e_b >= 0``,
    a fixed weight has ``lower == upper``. ``w >= 0`` and ``sum w = 1`` are always implied
    and are not rows here. ``lower > upper`` is allowed: it is a contradiction that the LPs
    report (with a Farkas certificate), not an input error.

    Attributes
    ----------
    matrix : ndarray (n_rows, n_tasks)
    lower, upper : ndarray (n_rows,)
        ``-inf`` / ``+inf`` for an open side.

    Examples
    --------
    >>> c = WeightConstraints.from_rows(3, [({0: 1.0}, 0.2, math.inf), ({1: 1.0, 2: -1.0}, 0.0, math.inf)])
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
        """No constraint beyond the simplex."""
        return cls(np.zeros((0, n_tasks)), np.zeros(0), np.zeros(0))

    @classmethod
    def from_rows(
        cls, n_tasks: int, rows: Iterable[tuple[Mapping[int, float], float, float]]
    ) -> WeightConstraints:
        """Build from ``(coefficients {task index: coef}, lower, upper)`` rows."""
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
        return int(self.matrix.shape[0])

    @property
    def n_tasks(self) -> int:
        return int(self.matrix.shape[1])

    def violation(self, weights: ArrayLike) -> float:
        """Largest violation of a row by `weights` (0.0 when every row holds)."""
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


# ---------------------------------------------------------------------- certificates
@dataclass(frozen=True, slots=True)
class MarginCertificate:
    """A proof, checkable without a solver, that no admissible weighting wins by more than `bound`.

    The claim: every ``w >= 0`` with ``sum w = 1`` and ``lower <= A w <= upper`` has
    ``min_j (R w)_j <= y^T R w <= bound``. The proof (:func:`certificate_bound`): put
    ``c = R^T y``, ``d = A^T (mu_upper - mu_lower)``, ``offset = max_k (c_k - d_k)``; then
    ``c . w <= (offset + d) . w = offset + (mu_upper - mu_lower) . A w
    <= offset + mu_upper . upper - mu_lower . lower = bound``.
    Without constraints this is just ``bound = max_k (y^T R)_k``: a blend of rivals that is
    never worse than the system on any task when ``bound <= 0``.

    With ``rivals`` all zero (``c = 0``) the same arithmetic proves ``0 <= bound`` for every
    admissible ``w``; so ``bound < 0`` proves the constraints themselves are contradictory.

    Attributes
    ----------
    rivals : ndarray (n_rivals,)
        The mix ``y``: ``>= 0``, summing to 1 (or all zero for a constraints-only proof).
    upper_multipliers, lower_multipliers : ndarray (n_rows,)
        ``>= 0``; zero on open sides.
    advantage : ndarray (n_tasks,)
        ``y^T R``: the system's advantage over the blend on each task.
    offset : float
        ``max_k (c_k - d_k)``.
    bound : float
        The proven bound (the nearest float to the exact rational `bound_exact`).
    bound_exact : Fraction
        Computed in rational arithmetic from the float entries above.
    """

    rivals: FloatArray
    upper_multipliers: FloatArray
    lower_multipliers: FloatArray
    advantage: FloatArray
    offset: float
    bound: float
    bound_exact: Fraction = field(repr=False)

    @property
    def constraints_only(self) -> bool:
        """True when the proof is about the constraints alone (no rival mix)."""
        return not bool(np.any(self.rivals > 0))


def _fractions(values: Iterable[float]) -> list[Fraction]:
    return [Fraction(float(v)) for v in values]


def certificate_bound(
    R: ArrayLike,
    rivals: ArrayLike,
    *,
    constraints: WeightConstraints | None = None,
    upper_multipliers: ArrayLike | None = None,
    lower_multipliers: ArrayLike | None = None,
) -> MarginCertificate:
    """Check a rival mix (and constraint multipliers) in exact arithmetic and return its bound.

    Every float is read as the exact rational it stores, the mix is normalized exactly, and
    the bound of :class:`MarginCertificate` is computed with :class:`fractions.Fraction`
    (integers when ``R`` is integral). No solver is involved.

    Parameters
    ----------
    R : array (n_rivals, n_tasks)
    rivals : array (n_rivals,)
        Non-negative; normalized to sum 1 here (all zero: a constraints-only proof).
    constraints : WeightConstraints, optional
    upper_multipliers, lower_multipliers : array (n_rows,), optional
        Non-negative multipliers of ``A w <= upper`` and ``A w >= lower``; default zero.

    Raises
    ------
    ValueError
        Negative or non-finite entries, or a multiplier on an open (infinite) side.

    Examples
    --------
    >>> R = np.array([[1.0, -1.0], [-1.0, 1.0]])          # two rivals, two tasks
    >>> certificate_bound(R, [0.5, 0.5]).bound            # the even blend ties on both tasks
    0.0
    >>> certificate_bound(R, [1.0, 0.0]).bound            # rival 0 alone: task 0 is still won
    1.0
    """
    R = _check_r(R)
    n_rivals, n_tasks = R.shape
    cons = _check_constraints(constraints, n_tasks)
    y = np.asarray(rivals, dtype=np.float64).reshape(-1)
    mu_u = np.zeros(cons.n_rows) if upper_multipliers is None else np.asarray(upper_multipliers, dtype=np.float64)
    mu_l = np.zeros(cons.n_rows) if lower_multipliers is None else np.asarray(lower_multipliers, dtype=np.float64)
    if y.shape != (n_rivals,):
        raise ValueError(f"rivals must have {n_rivals} entries, got {y.shape}")
    if mu_u.shape != (cons.n_rows,) or mu_l.shape != (cons.n_rows,):
        raise ValueError(f"multipliers must have {cons.n_rows} entries")
    for name, arr in (("rivals", y), ("upper_multipliers", mu_u), ("lower_multipliers", mu_l)):
        if not np.isfinite(arr).all() or (arr < 0).any():
            raise ValueError(f"{name} must be finite and >= 0")
    if ((mu_u > 0) & np.isinf(cons.upper)).any() or ((mu_l > 0) & np.isinf(cons.lower)).any():
        raise ValueError("a multiplier is set on an open (infinite) side of a constraint")

    # c = R^T y, exactly: the floats y_i are dyadic rationals; over their common denominator
    # they are integers N_i, and c_k = c_num_k / total with c_num_k = sum_i N_i R_ik.
    if y.sum() > 0:
        y = y / y.sum()  # the stored mix; it is normalized once more, exactly, below
    support = np.nonzero(y)[0]
    total = 1
    c_num: list[int] | None = None
    c: list[Fraction]
    if len(support):
        ratios = [float(v).as_integer_ratio() for v in y[support]]
        denom = max(d for _, d in ratios)  # powers of two: the largest is a common multiple
        nums = [n * (denom // d) for n, d in ratios]
        total = sum(nums)
        rows = R[support]
        if np.array_equal(rows, np.round(rows)) and np.abs(rows).max() < 2**52:
            ints = rows.astype(np.int64).T.tolist()  # per task: the integer column over the support
            c_num = [sum(n * r for n, r in zip(nums, col) if r) for col in ints]
            c = []  # built lazily below
        else:
            fr = [_fractions(r) for r in rows.tolist()]
            c = [sum((nums[i] * fr[i][k] for i in range(len(nums))), Fraction(0)) / total for k in range(n_tasks)]
        y_out = y
    else:
        c_num = [0] * n_tasks
        c = []
        y_out = np.zeros(n_rivals)

    active = np.nonzero((mu_u > 0) | (mu_l > 0))[0]
    if c_num is not None and len(active) == 0:
        # the common case (no constraint multipliers): one Fraction, correctly rounded floats
        offset = Fraction(max(c_num), total)
        bound = offset
        advantage = np.array([x / total for x in c_num], dtype=np.float64)
    else:
        if c_num is not None:
            c = [Fraction(x, total) for x in c_num]
        d = [Fraction(0)] * n_tasks
        const = Fraction(0)
        for i in active.tolist():
            net = Fraction(float(mu_u[i])) - Fraction(float(mu_l[i]))
            for k in np.nonzero(cons.matrix[i])[0].tolist():
                d[k] += net * Fraction(float(cons.matrix[i, k]))
            if mu_u[i] > 0:
                const += Fraction(float(mu_u[i])) * Fraction(float(cons.upper[i]))
            if mu_l[i] > 0:
                const -= Fraction(float(mu_l[i])) * Fraction(float(cons.lower[i]))
        offset = max(ck - dk for ck, dk in zip(c, d))
        bound = offset + const
        advantage = np.array([float(v) for v in c])
    return MarginCertificate(
        rivals=_frozen(y_out),
        upper_multipliers=_frozen(mu_u),
        lower_multipliers=_frozen(mu_l),
        advantage=_frozen(advantage),
        offset=_clean(float(offset)),
        bound=_clean(float(bound)),
        bound_exact=bound,
    )


def _frozen(arr: ArrayLike) -> FloatArray:
    out = np.array(arr, dtype=np.float64, copy=True)
    out[out == 0] = 0.0
    out.flags.writeable = False
    return out


def _clean(value: float) -> float:
    return 0.0 if value == 0 else float(value)


def certificate_from_duals(
    R: FloatArray,
    rival_duals: FloatArray,
    row_duals: FloatArray,
    constraints: WeightConstraints,
) -> MarginCertificate | None:
    """Turn the row duals of a max-margin LP into a checked :class:`MarginCertificate`.

    Solvers disagree on dual signs (pulp flips HiGHS's signs for maximization), but the
    duals ``y`` of the rival rows always sum to +-1 (the dual constraint of the free
    variable ``eps``); that sum fixes the sign convention for the constraint rows too.
    Tiny negatives are clipped, ``y`` is renormalized, and the bound is recomputed exactly.
    Returns None when the duals are unusable (the caller then solves the dual LP).
    """
    total = float(np.sum(rival_duals))
    if not math.isfinite(total) or abs(total) < 0.5:
        return None
    sigma = 1.0 if total > 0 else -1.0
    y = np.maximum(sigma * np.asarray(rival_duals, dtype=np.float64), 0.0)
    if y.sum() <= 0:
        return None
    y[y < WEIGHT_NOISE * y.max()] = 0.0
    pi = sigma * np.asarray(row_duals, dtype=np.float64)
    mu_l = np.where(np.isfinite(constraints.lower), np.maximum(pi, 0.0), 0.0)
    mu_u = np.where(np.isfinite(constraints.upper), np.maximum(-pi, 0.0), 0.0)
    return certificate_bound(R, y, constraints=constraints, upper_multipliers=mu_u, lower_multipliers=mu_l)


# ---------------------------------------------------------------------- results
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


def _clean_weights(raw: Sequence[float | None], n_tasks: int) -> FloatArray:
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
    the certificate. Otherwise returns None.

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


# ---------------------------------------------------------------------- the models
Mode = Literal["margin", "nearest", "linear"]


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
        m.add_columns(np.zeros(n), np.full(n, np.inf), coefs if mode == "linear" else np.zeros(n))
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


def _margin_certificate(
    R: FloatArray, solved: _Solved, cons: WeightConstraints, objective: float, backend: str
) -> tuple[MarginCertificate, int]:
    """The dual certificate of a solved max-margin LP, checked exactly; the dual LP if the duals fall short."""
    cert = None
    if solved.rival_duals is not None:
        cert = certificate_from_duals(R, solved.rival_duals, solved.user_duals, cons)
    if cert is not None and cert.bound_exact <= Fraction(objective) + Fraction(GAP_TOL):
        return cert, 0
    cert = dual_certificate_lp(R, constraints=cons, backend=backend)
    if cert.bound_exact > Fraction(objective) + Fraction(GAP_TOL):
        raise SolverError(
            f"the dual certificate bounds the margin by {cert.bound:.3g}, above the LP optimum {objective:.3g}"
        )
    return cert, 1


def _stopped(backend: str, what: str, status: SolveStatus) -> SolverError:
    return SolverError(f"{backend} stopped on the {what} weight LP with status {status}", status)


def max_margin_lp(
    R: ArrayLike,
    *,
    constraints: WeightConstraints | None = None,
    backend: str = "highs",
    shortcut: bool = True,
    slack: float = 0.0,
) -> WeightsLPResult:
    """Maximize the smallest weighted margin ``min_j (R w)_j`` over admissible weightings.

    The model (HiGHS unless `backend` names a pulp solver)::

        max eps  s.t.  R w >= eps 1,  sum w = 1,  w >= 0,  lower <= A w <= upper

    It is feasible whenever the constraints are, so a system that can never win gets
    ``eps* <= 0`` and a certificate, not an infeasible model. The certificate comes from the
    row duals (sign-normalized, checked exactly); if they do not prove ``eps* <= objective``
    within ``GAP_TOL``, the dual LP is solved explicitly (:func:`dual_certificate_lp`).

    Parameters
    ----------
    R : array (n_rivals, n_tasks)
        See :func:`relation_matrix`.
    constraints : WeightConstraints, optional
    backend : str, default="highs"
        ``"highs"`` or a :func:`solvers.backends.make_solver` name.
    shortcut : bool, default=True
        Use :func:`max_margin_shortcut` when there are no constraints.
    slack : float, default=0.0
        Passed to :func:`constraints_farkas_lp` when the constraints look contradictory.

    Returns
    -------
    WeightsLPResult
        ``OPTIMAL`` with weights, margins and the dual certificate; or ``INFEASIBLE`` when
        the constraints are contradictory, with a Farkas certificate (``bound < 0``).

    Raises
    ------
    SolverError
        The solver failed, or no certificate could be confirmed.

    Examples
    --------
    >>> R = np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]])
    >>> res = max_margin_lp(R, shortcut=False)
    >>> res.objective, res.weights.tolist(), res.certificate.bound
    (1.0, [0.0, 0.0, 1.0], 1.0)
    """
    start = time.perf_counter()
    R = _check_r(R)
    n_rivals, n_tasks = R.shape
    cons = _check_constraints(constraints, n_tasks)
    if shortcut and cons.n_rows == 0:
        quick = max_margin_shortcut(R)
        if quick is not None:
            return quick
    wm = _WeightsModel(LinearModel(backend=backend), n_tasks, cons)
    solved = _solve_weights(wm, R, "margin", lazy=False, initial_rows=n_rivals)
    method = f"lp:{backend}"
    if solved.status is SolveStatus.INFEASIBLE:
        farkas = constraints_farkas_lp(cons, backend=backend, slack=slack)
        if farkas is None:
            raise SolverError(
                f"{backend} reports the weight constraints infeasible, but no Farkas certificate "
                f"confirms it beyond {slack:g} (the constraints are contradictory only within "
                "solver tolerance; loosen or tighten them)",
                SolveStatus.INFEASIBLE,
            )
        cert = certificate_bound(
            R, np.zeros(n_rivals), constraints=cons,
            upper_multipliers=farkas.upper_multipliers, lower_multipliers=farkas.lower_multipliers,
        )
        return WeightsLPResult(
            SolveStatus.INFEASIBLE, None, math.nan, None, cert, method, 2, n_rivals,
            time.perf_counter() - start, solved.solver_seconds,
        )
    if solved.status is not SolveStatus.OPTIMAL:
        raise _stopped(backend, "margin", solved.status)
    weights = _clean_weights(solved.x[:n_tasks].tolist(), n_tasks)
    objective = float(solved.x[n_tasks])
    cert, extra = _margin_certificate(R, solved, cons, objective, backend)
    return WeightsLPResult(
        SolveStatus.OPTIMAL, weights, _clean(objective), _margins(R, weights), cert, method, solved.n_solves + extra,
        n_rivals, time.perf_counter() - start, solved.solver_seconds,
    )


def nearest_weights_lp(
    R: ArrayLike,
    reference: ArrayLike,
    *,
    threshold: float,
    constraints: WeightConstraints | None = None,
    backend: str = "highs",
) -> WeightsLPResult:
    """The admissible weighting closest to `reference` in L1 with every margin ``>= threshold``.

    The model: ``min sum_k d_k`` s.t. ``d_k >= w_k - r_k``, ``d_k >= r_k - w_k``,
    ``R w >= threshold``, ``sum w = 1``, ``w >= 0``, ``lower <= A w <= upper``.

    Returns ``INFEASIBLE`` (no weights) when no admissible weighting reaches `threshold`.

    Examples
    --------
    >>> R = np.array([[1.0, -1.0, 0.0]])
    >>> res = nearest_weights_lp(R, [0.2, 0.5, 0.3], threshold=0.1)
    >>> res.weights.round(6).tolist(), round(res.objective, 6)   # move 0.2 from task 1 to task 0
    ([0.4, 0.3, 0.3], 0.4)
    """
    return _threshold_lp(R, "nearest", threshold, constraints, backend, reference=reference)


def optimize_weights_lp(
    R: ArrayLike,
    coefs: ArrayLike,
    *,
    maximize: bool,
    threshold: float,
    constraints: WeightConstraints | None = None,
    backend: str = "highs",
) -> WeightsLPResult:
    """Minimize or maximize ``coefs . w`` over admissible weightings with every margin ``>= threshold``.

    Examples
    --------
    >>> R = np.array([[1.0, -1.0, 1.0]])
    >>> res = optimize_weights_lp(R, [0.0, 1.0, 0.0], maximize=True, threshold=0.0)
    >>> res.objective                          # task 1 may take half the weight, no more
    0.5
    """
    return _threshold_lp(R, "linear", threshold, constraints, backend, coefs=coefs, maximize=maximize)


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
    n_rivals, n_tasks = R.shape
    if solved.status is SolveStatus.INFEASIBLE:
        return WeightsLPResult(
            SolveStatus.INFEASIBLE, None, math.nan, None, None, method, solved.n_solves, solved.n_rows,
            time.perf_counter() - start, solved.solver_seconds,
        )
    if solved.status is not SolveStatus.OPTIMAL:
        raise _stopped(backend, mode, solved.status)
    weights = _clean_weights(solved.x[:n_tasks].tolist(), n_tasks)
    objective = float(np.abs(weights - ref).sum()) if mode == "nearest" else float(c @ weights)
    return WeightsLPResult(
        SolveStatus.OPTIMAL, weights, _clean(objective), _margins(R, weights), None, method, solved.n_solves,
        solved.n_rows, time.perf_counter() - start, solved.solver_seconds,
    )


def _threshold_lp(
    R: ArrayLike,
    mode: Mode,
    threshold: float,
    constraints: WeightConstraints | None,
    backend: str,
    *,
    reference: ArrayLike | None = None,
    coefs: ArrayLike | None = None,
    maximize: bool = False,
) -> WeightsLPResult:
    start = time.perf_counter()
    R = _check_r(R)
    n_rivals, n_tasks = R.shape
    cons = _check_constraints(constraints, n_tasks)
    ref, c = _check_threshold_inputs(mode, n_tasks, threshold, reference, coefs)
    wm = _WeightsModel(LinearModel(backend=backend), n_tasks, cons)
    solved = _solve_weights(
        wm, R, mode, lazy=False, initial_rows=n_rivals, threshold=threshold, reference=ref, coefs=c, maximize=maximize
    )
    return _threshold_result(R, solved, mode, ref, c, f"lp:{backend}", backend, start)


def _multiplier_columns(model: LinearModel, cons: WeightConstraints) -> tuple[list[int], list[int]]:
    """Columns ``mu_i >= 0`` for the finite upper sides and ``nu_i >= 0`` for the finite lower
    sides of the user rows, costed ``upper_i`` and ``-lower_i``; returns their row indices."""
    up = [i for i in range(cons.n_rows) if math.isfinite(cons.upper[i])]
    lo = [i for i in range(cons.n_rows) if math.isfinite(cons.lower[i])]
    if up:
        model.add_columns(np.zeros(len(up)), np.full(len(up), np.inf), cons.upper[up])
    if lo:
        model.add_columns(np.zeros(len(lo)), np.full(len(lo), np.inf), -cons.lower[lo])
    return up, lo


def _multipliers(x: FloatArray, first: int, up: list[int], lo: list[int], n_rows: int) -> tuple[FloatArray, FloatArray]:
    mu_u = np.zeros(n_rows)
    mu_l = np.zeros(n_rows)
    mu_u[up] = np.maximum(x[first : first + len(up)], 0.0)
    mu_l[lo] = np.maximum(x[first + len(up) : first + len(up) + len(lo)], 0.0)
    return mu_u, mu_l


def dual_certificate_lp(
    R: ArrayLike, *, constraints: WeightConstraints | None = None, backend: str = "highs"
) -> MarginCertificate:
    """Solve the dual of the max-margin LP explicitly; its solution is the certificate.

    ``min offset + mu_u . upper - mu_l . lower`` s.t. ``offset + (A^T (mu_u - mu_l))_k >=
    (R^T y)_k`` for every task, ``sum y = 1``, ``y, mu >= 0``. Its optimum equals ``eps*``
    (LP duality); without constraints it is ``min_y max_k (y^T R)_k``, the value of the
    matrix game. Requires feasible constraints (otherwise the dual is unbounded).

    Examples
    --------
    >>> R = np.array([[1.0, -1.0], [-1.0, 1.0], [0.0, -1.0]])
    >>> cert = dual_certificate_lp(R)                # no weighting keeps every margin above -1/3
    >>> cert.bound_exact.limit_denominator(1000), cert.rivals.round(6).tolist()
    (Fraction(-1, 3), [0.0, 0.333333, 0.666667])
    """
    R = _check_r(R)
    n_rivals, n_tasks = R.shape
    cons = _check_constraints(constraints, n_tasks)
    model = LinearModel(backend=backend)
    # columns: y (the rival mix), the free offset, then the user-row multipliers
    model.add_columns(np.zeros(n_rivals), np.full(n_rivals, np.inf), np.zeros(n_rivals))
    model.add_columns([-np.inf], [np.inf], [1.0])
    up, lo = _multiplier_columns(model, cons)
    # task k: the offset plus the constraint terms cover the blend's advantage on k
    block = np.hstack([-R.T, np.ones((n_tasks, 1)), cons.matrix[up].T, -cons.matrix[lo].T])
    model.add_rows(np.zeros(n_tasks), np.full(n_tasks, np.inf), *dense_rows(block))
    # the rival blend is a probability mix
    mix = np.zeros((1, model.n_cols))
    mix[0, :n_rivals] = 1.0
    model.add_rows([1.0], [1.0], *dense_rows(mix))
    sol = model.solve()
    if sol.status is not SolveStatus.OPTIMAL:
        raise _stopped(backend, "dual", sol.status)
    yv = np.maximum(sol.x[:n_rivals], 0.0)
    yv[yv < WEIGHT_NOISE * max(yv.max(), 1e-300)] = 0.0
    mu_u, mu_l = _multipliers(sol.x, n_rivals + 1, up, lo, cons.n_rows)
    return certificate_bound(R, yv, constraints=cons, upper_multipliers=mu_u, lower_multipliers=mu_l)


def constraints_farkas_lp(
    constraints: WeightConstraints, *, backend: str = "highs", slack: float = 0.0
) -> MarginCertificate | None:
    """A Farkas certificate that no weighting satisfies `constraints`, or None if one does.

    Solves ``min offset + mu_u . upper - mu_l . lower`` s.t. ``offset + (A^T (mu_u -
    mu_l))_k >= 0`` for every task and ``sum mu = 1``. Any feasible ``w`` would give
    ``0 <= bound`` (see :class:`MarginCertificate` with no rivals), so an optimum below 0,
    confirmed exactly, proves the constraints contradictory. More: a weighting that misses
    every row by at most `slack` gives ``-slack * sum(mu) <= bound``, so the certificate is
    returned only when ``bound < -slack * sum(mu)`` (exactly): the constraints are then
    contradictory even within `slack`.

    Examples
    --------
    >>> c = WeightConstraints.from_rows(2, [({0: 1.0}, 0.7, math.inf), ({1: 1.0}, 0.6, math.inf)])
    >>> cert = constraints_farkas_lp(c)
    >>> cert.bound < 0, cert.lower_multipliers.tolist()
    (True, [0.5, 0.5])
    """
    n_tasks = constraints.n_tasks
    if constraints.n_rows == 0:
        return None
    cons = constraints
    model = LinearModel(backend=backend)
    model.add_columns([-np.inf], [np.inf], [1.0])  # the free offset
    up, lo = _multiplier_columns(model, cons)
    if not up and not lo:
        return None
    # task k: the combined rows leave a non-negative slack on w_k
    block = np.hstack([np.ones((n_tasks, 1)), cons.matrix[up].T, -cons.matrix[lo].T])
    model.add_rows(np.zeros(n_tasks), np.full(n_tasks, np.inf), *dense_rows(block))
    # the multipliers are normalized (the certificate is a direction)
    norm = np.ones((1, model.n_cols))
    norm[0, 0] = 0.0
    model.add_rows([1.0], [1.0], *dense_rows(norm))
    sol = model.solve()
    if sol.status is not SolveStatus.OPTIMAL:
        raise _stopped(backend, "Farkas", sol.status)
    if float(sol.objective) >= 0:
        return None
    mu_u, mu_l = _multipliers(sol.x, 1, up, lo, cons.n_rows)
    dummy_r = np.zeros((1, n_tasks))
    cert = certificate_bound(dummy_r, [0.0], constraints=cons, upper_multipliers=mu_u, lower_multipliers=mu_l)
    total = sum(Fraction(float(v)) for v in np.concatenate([mu_u, mu_l]))
    return cert if cert.bound_exact < -Fraction(slack) * total else None


# ---------------------------------------------------------------------- the batch path
class HighsWeightsLP:
    """The LPs of this module for many systems of one leaderboard, on one reused HiGHS model.

    For each system the model is cleared and rebuilt from numpy arrays (no Python loop over
    coefficients), and the rival rows are added lazily: start with the rivals that look most
    dangerous, solve, add the rows the solution violates, re-solve warm, until every rival
    row holds. A basic optimum needs at most ``n_tasks + 1`` tight rows, so the models stay
    small however many rivals there are. The dual certificate uses the duals of the rows
    present: a mix over a subset of rivals is a mix over all of them. It is the same model
    description as :func:`max_margin_lp` (:class:`_WeightsModel`), only with lazy rows.

    Parameters
    ----------
    n_tasks : int
    constraints : WeightConstraints, optional
        Shared by every LP of the batch; check them first with :func:`constraints_farkas_lp`
        (an infeasible model raises :class:`SolverError` here).
    initial_rows : int, optional
        Rival rows to start with (default ``n_tasks + 8``).

    Attributes
    ----------
    n_solves : int
        Solver runs so far (each constraint-generation round counts).
    n_lps : int
        LPs posed so far (one per call).
    solver_seconds : float
        Time spent inside the solver.

    Examples
    --------
    >>> lp = HighsWeightsLP(3)
    >>> res = lp.max_margin(np.array([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]]), shortcut=False)
    >>> res.objective, res.weights.tolist()
    (1.0, [0.0, 0.0, 1.0])
    """

    def __init__(
        self,
        n_tasks: int,
        constraints: WeightConstraints | None = None,
        *,
        initial_rows: int | None = None,
    ) -> None:
        self.n_tasks = int(n_tasks)
        self.constraints = _check_constraints(constraints, self.n_tasks)
        self.initial_rows = int(initial_rows) if initial_rows is not None else self.n_tasks + 8
        self.n_solves = 0
        self.n_lps = 0
        self.solver_seconds = 0.0
        self._wm = _WeightsModel(LinearModel(backend="highs"), self.n_tasks, self.constraints)

    def _solve(self, R: FloatArray, mode: Mode, **kwargs: object) -> _Solved:
        if R.shape[1] != self.n_tasks:
            raise ValueError(f"R has {R.shape[1]} tasks, the batch {self.n_tasks}")
        self.n_lps += 1
        solved = _solve_weights(self._wm, R, mode, lazy=True, initial_rows=self.initial_rows, **kwargs)  # type: ignore[arg-type]
        self.n_solves += solved.n_solves
        self.solver_seconds += solved.solver_seconds
        return solved

    def max_margin(self, R: ArrayLike, *, shortcut: bool = True) -> WeightsLPResult:
        """As :func:`max_margin_lp` (the batch's constraints must be feasible)."""
        start = time.perf_counter()
        R = _check_r(R)
        if shortcut and self.constraints.n_rows == 0:
            quick = max_margin_shortcut(R)
            if quick is not None:
                return quick
        solved = self._solve(R, "margin")
        if solved.status is SolveStatus.INFEASIBLE:
            raise SolverError("the weight constraints of this batch are contradictory", SolveStatus.INFEASIBLE)
        if solved.status is not SolveStatus.OPTIMAL:
            raise _stopped("highs", "margin", solved.status)
        weights = _clean_weights(solved.x[: self.n_tasks].tolist(), self.n_tasks)
        objective = float(solved.x[self.n_tasks])
        cert, extra = _margin_certificate(R, solved, self.constraints, objective, "highs")
        self.n_solves += extra
        return WeightsLPResult(
            SolveStatus.OPTIMAL, weights, _clean(objective), _margins(R, weights), cert, "highspy",
            solved.n_solves + extra, solved.n_rows, time.perf_counter() - start, solved.solver_seconds,
        )

    def nearest(self, R: ArrayLike, reference: ArrayLike, *, threshold: float) -> WeightsLPResult:
        """As :func:`nearest_weights_lp`."""
        start = time.perf_counter()
        R = _check_r(R)
        ref, _ = _check_threshold_inputs("nearest", self.n_tasks, threshold, reference, None)
        solved = self._solve(R, "nearest", threshold=threshold, reference=ref, first=R @ ref)
        return _threshold_result(R, solved, "nearest", ref, None, "highspy", "highs", start)

    def optimize(self, R: ArrayLike, coefs: ArrayLike, *, maximize: bool, threshold: float) -> WeightsLPResult:
        """As :func:`optimize_weights_lp`."""
        start = time.perf_counter()
        R = _check_r(R)
        _, c = _check_threshold_inputs("linear", self.n_tasks, threshold, None, coefs)
        solved = self._solve(R, "linear", threshold=threshold, coefs=c, maximize=maximize)
        return _threshold_result(R, solved, "linear", None, c, "highspy", "highs", start)
