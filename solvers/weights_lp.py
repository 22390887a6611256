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

The pieces live in sibling modules and are importable from here too:

- :mod:`solvers.weights_inputs`: :func:`relation_matrix` and :class:`WeightConstraints`.
- :mod:`solvers.weights_certificates`: :class:`MarginCertificate` proofs, checked in exact
  rational arithmetic by :func:`certificate_bound` (no solver), and the LPs that find them
  (:func:`certificate_from_duals`, :func:`dual_certificate_lp`, :func:`constraints_farkas_lp`).
- :mod:`solvers.weights_model`: the one model description of the three LPs,
  :class:`WeightsLPResult` and :func:`max_margin_shortcut`.
- :mod:`solvers.weights_batch`: :class:`HighsWeightsLP`, the same model on one reused HiGHS
  object with rival rows added lazily (constraint generation), the fast path for the
  thousands of small LPs of ``consensus.prospective``.

Only integer indices and numpy arrays cross this module's boundary: no labels, no pandas.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, section 3.2 and eq. (1).
"""

from __future__ import annotations

import math
import time

import numpy as np
from numpy.typing import ArrayLike

from .model import LinearModel
from .status import SolverError, SolveStatus
from .weights_batch import HighsWeightsLP
from .weights_certificates import (
    GAP_TOL,
    MarginCertificate,
    certificate_bound,
    certificate_from_duals,
    constraints_farkas_lp,
    dual_certificate_lp,
)
from .weights_inputs import (
    WEIGHT_NOISE,
    WeightConstraints,
    _check_constraints,
    _check_r,
    _stopped,
    relation_matrix,
)
from .weights_model import (
    CUT_TOL,
    Mode,
    WeightsLPResult,
    _check_threshold_inputs,
    _max_margin_result,
    _solve_weights,
    _threshold_result,
    _WeightsModel,
    max_margin_shortcut,
)

__all__ = [
    "CUT_TOL",
    "GAP_TOL",
    "WEIGHT_NOISE",
    "HighsWeightsLP",
    "MarginCertificate",
    "WeightConstraints",
    "WeightsLPResult",
    "certificate_bound",
    "certificate_from_duals",
    "constraints_farkas_lp",
    "dual_certificate_lp",
    "max_margin_lp",
    "max_margin_shortcut",
    "nearest_weights_lp",
    "optimize_weights_lp",
    "relation_matrix",
]


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
    ValueError
        `R` or `constraints` is malformed.
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
        return _contradiction(R, cons, backend, slack, method, start, solved.solver_seconds)
    if solved.status is not SolveStatus.OPTIMAL:
        raise _stopped(backend, "margin", solved.status)
    return _max_margin_result(R, solved, cons, method, backend, start)


def _contradiction(
    R: np.ndarray, cons: WeightConstraints, backend: str, slack: float, method: str, start: float, solver_seconds: float
) -> WeightsLPResult:
    """The INFEASIBLE result of a max-margin LP whose constraints are contradictory, with its Farkas proof."""
    n_rivals = R.shape[0]
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
        time.perf_counter() - start, solver_seconds,
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

    Parameters
    ----------
    R : array (n_rivals, n_tasks)
        See :func:`relation_matrix`.
    reference : array_like (n_tasks,)
        The weighting to stay close to.
    threshold : float
        Every margin must be at least this.
    constraints : WeightConstraints, optional
    backend : str, default="highs"
        ``"highs"`` or a :func:`solvers.backends.make_solver` name.

    Returns
    -------
    WeightsLPResult
        ``OPTIMAL`` with the weights and their L1 distance to `reference`; ``INFEASIBLE``
        (no weights) when no admissible weighting reaches `threshold`.

    Raises
    ------
    ValueError
        Malformed `R`, `reference`, `threshold` or `constraints`.
    SolverError
        The solver stopped without an answer.

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

    Parameters
    ----------
    R : array (n_rivals, n_tasks)
        See :func:`relation_matrix`.
    coefs : array_like (n_tasks,)
        The linear objective.
    maximize : bool
        Maximize (True) or minimize (False).
    threshold : float
        Every margin must be at least this.
    constraints : WeightConstraints, optional
    backend : str, default="highs"
        ``"highs"`` or a :func:`solvers.backends.make_solver` name.

    Returns
    -------
    WeightsLPResult
        ``OPTIMAL`` with the weights and ``coefs . weights``; ``INFEASIBLE`` (no weights)
        when no admissible weighting reaches `threshold`.

    Raises
    ------
    ValueError
        Malformed `R`, `coefs`, `threshold` or `constraints`.
    SolverError
        The solver stopped without an answer.

    Examples
    --------
    >>> R = np.array([[1.0, -1.0, 1.0]])
    >>> res = optimize_weights_lp(R, [0.0, 1.0, 0.0], maximize=True, threshold=0.0)
    >>> res.objective                          # task 1 may take half the weight, no more
    0.5
    """
    return _threshold_lp(R, "linear", threshold, constraints, backend, coefs=coefs, maximize=maximize)


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
