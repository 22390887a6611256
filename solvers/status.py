"""Solve status and outcome shared by every model of the solver layer."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import pulp

__all__ = ["SolveStatus", "SolverError", "SolverUnavailableError", "PulpStatus", "status_from_pulp", "clean"]


class SolveStatus(Enum):
    """How a solve ended.

    ``OPTIMAL``: proven optimal. ``TIME_LIMIT``: a limit stopped the proof; the incumbent
    is feasible and the reported bound says how far from optimal it can be.
    ``INFEASIBLE``: proven that no solution exists. ``NOT_SOLVED``: the solver failed or
    stopped without any solution; callers turn it into an error.
    """

    OPTIMAL = "optimal"
    TIME_LIMIT = "time_limit"
    INFEASIBLE = "infeasible"
    NOT_SOLVED = "not_solved"

    def __str__(self) -> str:
        return self.value


class SolverError(RuntimeError):
    """A solver stopped without a usable answer (the user-facing layer adds context)."""

    def __init__(self, message: str, status: SolveStatus = SolveStatus.NOT_SOLVED) -> None:
        self.status = status
        super().__init__(message)


class SolverUnavailableError(SolverError, ImportError):
    """The named solver backend is not installed or not usable."""


@dataclass(frozen=True, slots=True)
class PulpStatus:
    """The two status codes of a solved pulp problem, mapped to a SolveStatus."""

    status: SolveStatus
    pulp_status: str
    pulp_sol_status: str

    @property
    def has_solution(self) -> bool:
        return self.status in (SolveStatus.OPTIMAL, SolveStatus.TIME_LIMIT)


def status_from_pulp(prob: pulp.LpProblem) -> PulpStatus:
    """Map ``prob.status`` and ``prob.sol_status`` to a :class:`SolveStatus`.

    Measured with pulp 3.3.2 + highspy 1.15: on a HiGHS time limit pulp still reports
    ``prob.status == 1`` ("Optimal") with ``prob.sol_status == 2`` (an incumbent, not
    proven), so only ``sol_status == 1`` becomes OPTIMAL.
    """
    st, sol = prob.status, prob.sol_status
    names = (pulp.LpStatus.get(st, str(st)), pulp.LpSolution.get(sol, str(sol)))
    if sol == pulp.LpSolutionOptimal:
        status = SolveStatus.OPTIMAL
    elif sol == pulp.LpSolutionIntegerFeasible:
        status = SolveStatus.TIME_LIMIT
    elif st == pulp.LpStatusInfeasible or sol == pulp.LpSolutionInfeasible:
        status = SolveStatus.INFEASIBLE
    else:
        status = SolveStatus.NOT_SOLVED
    return PulpStatus(status, names[0], names[1])


def clean(value: float, *, integral: bool = False, tol: float = 1e-6) -> float:
    """Remove solver noise: ``-0.0`` becomes ``0.0``; with `integral`, round within `tol`."""
    if value is None or not math.isfinite(value):
        return value
    if integral and abs(value - round(value)) <= tol:
        value = float(round(value))
    return 0.0 if value == 0 else float(value)

