"""Proofs about the task-weight LPs: margin certificates, checked in exact arithmetic, and the LPs that find them.

By LP duality (the minimax theorem for the matrix game ``R``), the best smallest margin is
``eps* = min_y max_w y^T R w`` over rival mixes ``y``: a mix ``y`` whose blended advantage
``y^T R`` is ``<= 0`` on every task proves that no weighting gives a positive smallest
margin. A :class:`MarginCertificate` holds such a mix (and multipliers of the user
constraints); :func:`certificate_bound` checks it with :class:`fractions.Fraction`, no
solver involved. The certificates come from the row duals of a solved max-margin LP
(:func:`certificate_from_duals`), else from the dual LP (:func:`dual_certificate_lp`); a
Farkas certificate (:func:`constraints_farkas_lp`) proves the constraints contradictory.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from .model import LinearModel, dense_rows
from .status import SolverError, SolveStatus, clean
from .weights_inputs import (
    WEIGHT_NOISE,
    FloatArray,
    WeightConstraints,
    _check_constraints,
    _check_r,
    _stopped,
)

__all__ = [
    "GAP_TOL",
    "MarginCertificate",
    "certificate_bound",
    "certificate_from_duals",
    "constraints_farkas_lp",
    "dual_certificate_lp",
]

#: A dual-derived certificate is accepted when its bound is within this of the LP optimum.
GAP_TOL = 1e-7


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

    Examples
    --------
    >>> cert = certificate_bound(np.array([[1.0, -1.0], [-1.0, 1.0]]), [0.5, 0.5])
    >>> cert.advantage.tolist(), cert.bound, cert.constraints_only
    ([0.0, 0.0], 0.0, False)
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


def _frozen(arr: ArrayLike) -> FloatArray:
    out = np.array(arr, dtype=np.float64, copy=True)
    out[out == 0] = 0.0
    out.flags.writeable = False
    return out


def _check_multipliers(
    R: FloatArray, cons: WeightConstraints, rivals: ArrayLike, upper: ArrayLike | None, lower: ArrayLike | None
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The rival mix and the two multiplier vectors as arrays, checked (ValueError otherwise)."""
    n_rivals = R.shape[0]
    y = np.asarray(rivals, dtype=np.float64).reshape(-1)
    mu_u = np.zeros(cons.n_rows) if upper is None else np.asarray(upper, dtype=np.float64)
    mu_l = np.zeros(cons.n_rows) if lower is None else np.asarray(lower, dtype=np.float64)
    if y.shape != (n_rivals,):
        raise ValueError(f"rivals must have {n_rivals} entries, got {y.shape}")
    if mu_u.shape != (cons.n_rows,) or mu_l.shape != (cons.n_rows,):
        raise ValueError(f"multipliers must have {cons.n_rows} entries")
    for name, arr in (("rivals", y), ("upper_multipliers", mu_u), ("lower_multipliers", mu_l)):
        if not np.isfinite(arr).all() or (arr < 0).any():
            raise ValueError(f"{name} must be finite and >= 0")
    if ((mu_u > 0) & np.isinf(cons.upper)).any() or ((mu_l > 0) & np.isinf(cons.lower)).any():
        raise ValueError("a multiplier is set on an open (infinite) side of a constraint")
    return y, mu_u, mu_l


def _exact_blend(R: FloatArray, y: FloatArray) -> tuple[FloatArray, list[int] | None, int, list[Fraction]]:
    """``c = R^T y`` exactly, for the mix `y` normalized to sum 1.

    The floats ``y_i`` are dyadic rationals; over their common denominator they are
    integers ``N_i``, and ``c_k = c_num_k / total`` with ``c_num_k = sum_i N_i R_ik``. Returns
    the stored mix, ``c_num`` (None when ``R`` is not integral: then ``c`` holds the
    Fractions), ``total`` and ``c`` (empty when ``c_num`` is given).
    """
    n_rivals, n_tasks = R.shape
    if y.sum() > 0:
        y = y / y.sum()  # the stored mix; it is normalized once more, exactly, below
    support = np.nonzero(y)[0]
    if not len(support):
        return np.zeros(n_rivals), [0] * n_tasks, 1, []
    ratios = [float(v).as_integer_ratio() for v in y[support]]
    denom = max(d for _, d in ratios)  # powers of two: the largest is a common multiple
    nums = [n * (denom // d) for n, d in ratios]
    total = sum(nums)
    rows = R[support]
    if np.array_equal(rows, np.round(rows)) and np.abs(rows).max() < 2**52:
        ints = rows.astype(np.int64).T.tolist()  # per task: the integer column over the support
        return y, [sum(n * r for n, r in zip(nums, col) if r) for col in ints], total, []
    fr = [_fractions(r) for r in rows.tolist()]
    c = [sum((nums[i] * fr[i][k] for i in range(len(nums))), Fraction(0)) / total for k in range(n_tasks)]
    return y, None, total, c


def _constraint_terms(
    cons: WeightConstraints, mu_u: FloatArray, mu_l: FloatArray, active: Iterable[int]
) -> tuple[list[Fraction], Fraction]:
    """``d = A^T (mu_u - mu_l)`` and ``mu_u . upper - mu_l . lower`` over the `active` rows, exactly."""
    d = [Fraction(0)] * cons.n_tasks
    const = Fraction(0)
    for i in active:
        net = Fraction(float(mu_u[i])) - Fraction(float(mu_l[i]))
        for k in np.nonzero(cons.matrix[i])[0].tolist():
            d[k] += net * Fraction(float(cons.matrix[i, k]))
        if mu_u[i] > 0:
            const += Fraction(float(mu_u[i])) * Fraction(float(cons.upper[i]))
        if mu_l[i] > 0:
            const -= Fraction(float(mu_l[i])) * Fraction(float(cons.lower[i]))
    return d, const


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
        See :func:`~solvers.weights_inputs.relation_matrix`.
    rivals : array (n_rivals,)
        Non-negative; normalized to sum 1 here (all zero: a constraints-only proof).
    constraints : WeightConstraints, optional
        The user constraints the multipliers refer to; default none.
    upper_multipliers, lower_multipliers : array (n_rows,), optional
        Non-negative multipliers of ``A w <= upper`` and ``A w >= lower``; default zero.

    Returns
    -------
    MarginCertificate
        The normalized mix, the multipliers, and the exact bound.

    Raises
    ------
    ValueError
        Negative or non-finite entries, wrong lengths, or a multiplier on an open
        (infinite) side.

    Examples
    --------
    >>> R = np.array([[1.0, -1.0], [-1.0, 1.0]])          # two rivals, two tasks
    >>> certificate_bound(R, [0.5, 0.5]).bound            # the even blend ties on both tasks
    0.0
    >>> certificate_bound(R, [1.0, 0.0]).bound            # rival 0 alone: task 0 is still won
    1.0
    """
    R = _check_r(R)
    cons = _check_constraints(constraints, R.shape[1])
    y, mu_u, mu_l = _check_multipliers(R, cons, rivals, upper_multipliers, lower_multipliers)
    y_out, c_num, total, c = _exact_blend(R, y)
    active = np.nonzero((mu_u > 0) | (mu_l > 0))[0]
    if c_num is not None and len(active) == 0:
        # the common case (no constraint multipliers): one Fraction, correctly rounded floats
        offset = Fraction(max(c_num), total)
        bound = offset
        advantage = np.array([x / total for x in c_num], dtype=np.float64)
    else:
        if c_num is not None:
            c = [Fraction(x, total) for x in c_num]
        d, const = _constraint_terms(cons, mu_u, mu_l, active.tolist())
        offset = max(ck - dk for ck, dk in zip(c, d))
        bound = offset + const
        advantage = np.array([float(v) for v in c])
    return MarginCertificate(
        rivals=_frozen(y_out),
        upper_multipliers=_frozen(mu_u),
        lower_multipliers=_frozen(mu_l),
        advantage=_frozen(advantage),
        offset=clean(float(offset)),
        bound=clean(float(bound)),
        bound_exact=bound,
    )


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

    Parameters
    ----------
    R : ndarray (n_rivals, n_tasks)
    rival_duals : ndarray (n_rivals,)
        Duals of the rival rows (0 for rows not in the model).
    row_duals : ndarray (n_rows,)
        Duals of the user-constraint rows.
    constraints : WeightConstraints

    Returns
    -------
    MarginCertificate or None
        None when the duals are unusable (the caller then solves the dual LP).

    Raises
    ------
    ValueError
        The duals do not fit `R` or `constraints` (see :func:`certificate_bound`).

    Examples
    --------
    >>> R = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> cert = certificate_from_duals(R, np.array([-0.5, -0.5]), np.zeros(0), WeightConstraints.none(2))
    >>> cert.rivals.tolist(), cert.bound
    ([0.5, 0.5], 0.0)
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

    Parameters
    ----------
    R : array (n_rivals, n_tasks)
    constraints : WeightConstraints, optional
    backend : str, default="highs"
        ``"highs"`` or a :func:`solvers.backends.make_solver` name.

    Returns
    -------
    MarginCertificate
        The optimal rival mix and multipliers, checked exactly.

    Raises
    ------
    ValueError
        `R` or `constraints` is malformed.
    SolverError
        The dual LP stopped without an optimum (e.g. contradictory constraints).

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
    assert sol.x is not None  # an OPTIMAL solve always carries its point
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

    Parameters
    ----------
    constraints : WeightConstraints
    backend : str, default="highs"
        ``"highs"`` or a :func:`solvers.backends.make_solver` name.
    slack : float, default=0.0
        Tolerance a weighting may miss each row by and still count as satisfying it.

    Returns
    -------
    MarginCertificate or None
        The Farkas proof (``rivals`` zero, ``bound < 0``); None when the constraints can
        be met (within `slack`), or there are no rows.

    Raises
    ------
    SolverError
        The Farkas LP stopped without an optimum.

    Examples
    --------
    >>> c = WeightConstraints.from_rows(2, [({0: 1.0}, 0.7, np.inf), ({1: 1.0}, 0.6, np.inf)])
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
    assert sol.x is not None and sol.objective is not None  # an OPTIMAL solve always carries both
    if float(sol.objective) >= 0:
        return None
    mu_u, mu_l = _multipliers(sol.x, 1, up, lo, cons.n_rows)
    dummy_r = np.zeros((1, n_tasks))
    cert = certificate_bound(dummy_r, [0.0], constraints=cons, upper_multipliers=mu_u, lower_multipliers=mu_l)
    total = sum(Fraction(float(v)) for v in np.concatenate([mu_u, mu_l]))
    return cert if cert.bound_exact < -Fraction(slack) * total else None


def _margin_certificate(
    R: FloatArray,
    rival_duals: FloatArray | None,
    user_duals: FloatArray | None,
    cons: WeightConstraints,
    objective: float,
    backend: str,
) -> tuple[MarginCertificate, int]:
    """The dual certificate of a solved max-margin LP, checked exactly; the dual LP if the duals fall short.

    Returns the certificate and the number of extra solves (0 or 1).
    """
    cert = None
    if rival_duals is not None:
        assert user_duals is not None  # _solve_weights sets both from the same row duals
        cert = certificate_from_duals(R, rival_duals, user_duals, cons)
    if cert is not None and cert.bound_exact <= Fraction(objective) + Fraction(GAP_TOL):
        return cert, 0
    cert = dual_certificate_lp(R, constraints=cons, backend=backend)
    if cert.bound_exact > Fraction(objective) + Fraction(GAP_TOL):
        raise SolverError(
            f"the dual certificate bounds the margin by {cert.bound:.3g}, above the LP optimum {objective:.3g}"
        )
    return cert, 1
