"""The task-weight LPs for many systems of one leaderboard, on one reused HiGHS model (constraint generation).

The fast path for the thousands of small LPs of ``consensus.prospective``; it poses the
same model as the eager functions of :mod:`solvers.weights_lp` (:class:`_WeightsModel`),
only with rival rows added lazily, and is cross-checked against them in the tests.
"""

from __future__ import annotations

import time

from numpy.typing import ArrayLike

from .model import LinearModel
from .status import SolverError, SolveStatus
from .weights_inputs import (
    FloatArray,
    WeightConstraints,
    _check_constraints,
    _check_r,
    _stopped,
)
from .weights_model import (
    Mode,
    WeightsLPResult,
    _check_threshold_inputs,
    _max_margin_result,
    _solve_weights,
    _Solved,
    _threshold_result,
    _WeightsModel,
    max_margin_shortcut,
)

__all__ = ["HighsWeightsLP"]


class HighsWeightsLP:
    """The task-weight LPs for many systems of one leaderboard, on one reused HiGHS model.

    For each system the model is cleared and rebuilt from numpy arrays (no Python loop over
    coefficients), and the rival rows are added lazily: start with the rivals that look most
    dangerous, solve, add the rows the solution violates, re-solve warm, until every rival
    row holds. A basic optimum needs at most ``n_tasks + 1`` tight rows, so the models stay
    small however many rivals there are. The dual certificate uses the duals of the rows
    present: a mix over a subset of rivals is a mix over all of them. It is the same model
    description as :func:`~solvers.weights_lp.max_margin_lp` (:class:`_WeightsModel`), only
    with lazy rows.

    Parameters
    ----------
    n_tasks : int
    constraints : WeightConstraints, optional
        Shared by every LP of the batch; check them first with
        :func:`~solvers.weights_certificates.constraints_farkas_lp` (an infeasible model
        raises :class:`SolverError` here).
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

    Raises
    ------
    ValueError
        `constraints` are over another number of tasks.
    SolverUnavailableError
        highspy is not installed.

    Examples
    --------
    >>> lp = HighsWeightsLP(3)
    >>> res = lp.max_margin([[1.0, -1.0, 1.0], [-1.0, 1.0, 1.0]], shortcut=False)
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
        """Maximize the smallest weighted margin, as :func:`~solvers.weights_lp.max_margin_lp`.

        Parameters
        ----------
        R : array (n_rivals, n_tasks)
            See :func:`~solvers.weights_inputs.relation_matrix`.
        shortcut : bool, default=True
            Use :func:`~solvers.weights_model.max_margin_shortcut` when the batch has no
            constraints.

        Returns
        -------
        WeightsLPResult
            ``OPTIMAL`` with weights, margins and the dual certificate (``method="highspy"``).

        Raises
        ------
        ValueError
            `R` is malformed or has another number of tasks than the batch.
        SolverError
            The batch's constraints are contradictory, the solver failed, or no
            certificate could be confirmed.

        Examples
        --------
        >>> HighsWeightsLP(2).max_margin([[1.0, -1.0], [-1.0, 1.0]]).objective
        0.0
        """
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
        result = _max_margin_result(R, solved, self.constraints, "highspy", "highs", start)
        self.n_solves += result.n_solves - solved.n_solves  # a dual LP solved for the certificate
        return result

    def nearest(self, R: ArrayLike, reference: ArrayLike, *, threshold: float) -> WeightsLPResult:
        """The admissible weighting closest to `reference`, as :func:`~solvers.weights_lp.nearest_weights_lp`.

        Parameters
        ----------
        R : array (n_rivals, n_tasks)
        reference : array_like (n_tasks,)
            The weighting to stay close to (L1 distance).
        threshold : float
            Every margin must be at least this.

        Returns
        -------
        WeightsLPResult
            ``OPTIMAL`` with weights and their L1 distance to `reference`, or
            ``INFEASIBLE`` (no weights) when no admissible weighting reaches `threshold`.

        Raises
        ------
        ValueError
            Malformed `R`, `reference` or `threshold`.
        SolverError
            The solver stopped without an answer.

        Examples
        --------
        >>> res = HighsWeightsLP(3).nearest([[1.0, -1.0, 0.0]], [0.2, 0.5, 0.3], threshold=0.1)
        >>> res.weights.round(6).tolist()
        [0.4, 0.3, 0.3]
        """
        start = time.perf_counter()
        R = _check_r(R)
        ref, _ = _check_threshold_inputs("nearest", self.n_tasks, threshold, reference, None)
        assert ref is not None  # set for mode "nearest"
        solved = self._solve(R, "nearest", threshold=threshold, reference=ref, first=R @ ref)
        return _threshold_result(R, solved, "nearest", ref, None, "highspy", "highs", start)

    def optimize(self, R: ArrayLike, coefs: ArrayLike, *, maximize: bool, threshold: float) -> WeightsLPResult:
        """Minimize or maximize ``coefs . w``, as :func:`~solvers.weights_lp.optimize_weights_lp`.

        Parameters
        ----------
        R : array (n_rivals, n_tasks)
        coefs : array_like (n_tasks,)
            The linear objective.
        maximize : bool
            Maximize (True) or minimize (False).
        threshold : float
            Every margin must be at least this.

        Returns
        -------
        WeightsLPResult
            ``OPTIMAL`` with weights and ``coefs . weights``, or ``INFEASIBLE``.

        Raises
        ------
        ValueError
            Malformed `R`, `coefs` or `threshold`.
        SolverError
            The solver stopped without an answer.

        Examples
        --------
        >>> lp = HighsWeightsLP(3)
        >>> lp.optimize([[1.0, -1.0, 1.0]], [0.0, 1.0, 0.0], maximize=True, threshold=0.0).objective
        0.5
        """
        start = time.perf_counter()
        R = _check_r(R)
        _, c = _check_threshold_inputs("linear", self.n_tasks, threshold, None, coefs)
        solved = self._solve(R, "linear", threshold=threshold, coefs=c, maximize=maximize)
        return _threshold_result(R, solved, "linear", None, c, "highspy", "highs", start)
