"""Solve status and outcome shared by every model of the solver layer."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
from numpy.typing import NDArray

__all__ = ["ModelSolution", "SolveStatus", "SolverError", "SolverUnavailableError", "clean"]


class SolveStatus(Enum):
    """How a solve ended.

    ``OPTIMAL``: proven optimal. ``TIME_LIMIT``: a limit stopped the proof; the incumbent
    is feasible and the reported bound says how far from optimal it can be.
    ``INFEASIBLE``: proven that no solution exists. ``NOT_SOLVED``: the solver failed or
    stopped without any solution; callers turn it into an error.

    Examples
    --------
    >>> SolveStatus("time_limit") is SolveStatus.TIME_LIMIT, str(SolveStatus.OPTIMAL)
    (True, 'optimal')
    """

    OPTIMAL = "optimal"
    TIME_LIMIT = "time_limit"
    INFEASIBLE = "infeasible"
    NOT_SOLVED = "not_solved"

    def __str__(self) -> str:
        return self.value


class SolverError(RuntimeError):
    """A solver stopped without a usable answer (the user-facing layer adds context).

    Parameters
    ----------
    message : str
        What went wrong, in the solver's own terms.
    status : SolveStatus, default=SolveStatus.NOT_SOLVED
        How the solve ended; kept as the ``status`` attribute.

    Examples
    --------
    >>> err = SolverError("HiGHS stopped", SolveStatus.TIME_LIMIT)
    >>> str(err), err.status.value
    ('HiGHS stopped', 'time_limit')
    """

    def __init__(self, message: str, status: SolveStatus = SolveStatus.NOT_SOLVED) -> None:
        self.status = status
        super().__init__(message)


class SolverUnavailableError(SolverError, ImportError):
    """The named solver backend is not installed or not usable.

    Parameters
    ----------
    message : str
        Which solver, and how to install it.
    status : SolveStatus, default=SolveStatus.NOT_SOLVED
        Kept as the ``status`` attribute.
    """


@dataclass(frozen=True, slots=True)
class ModelSolution:
    """What one solve of a :class:`~solvers.model.LinearModel` gave.

    Attributes
    ----------
    status : SolveStatus
        How the solve ended.
    x : ndarray or None
        The primal point; None when the solver handed back none.
    row_duals : ndarray or None
        LPs only, in the solver's sign convention: callers that build certificates from
        them check the signs themselves.
    objective : float or None
        The objective value of `x`.
    dual_bound : float or None
        The MIP's proven bound on the optimum (HiGHS, and PuLP 4 solvers that report one),
        in the model's own objective.
    seconds : float
        Time spent in the solver.
    detail : str
        The solver's own wording of how it stopped.
    limit_reached : bool, default=False
        A time or iteration limit stopped the solve (point or not).
    """

    status: SolveStatus
    x: NDArray[np.float64] | None
    row_duals: NDArray[np.float64] | None
    objective: float | None
    dual_bound: float | None
    seconds: float
    detail: str
    limit_reached: bool = False


def clean(value: float, *, integral: bool = False, tol: float = 1e-6) -> float:
    """Remove solver noise from a number.

    Parameters
    ----------
    value : float
        A solver's number; None and non-finite values are returned unchanged.
    integral : bool, default=False
        Round to the nearest integer when within `tol` of it.
    tol : float, default=1e-6
        Rounding tolerance for `integral`.

    Returns
    -------
    float
        ``-0.0`` becomes ``0.0``; with `integral`, a value within `tol` of an integer
        becomes that integer.

    Examples
    --------
    >>> clean(-0.0), clean(2.9999999, integral=True), clean(0.5, integral=True)
    (0.0, 3.0, 0.5)
    """
    if value is None or not math.isfinite(value):
        return value
    if integral and abs(value - round(value)) <= tol:
        value = float(round(value))
    return 0.0 if value == 0 else float(value)
