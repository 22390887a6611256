"""Solve status and outcome shared by every model of the solver layer."""

from __future__ import annotations

import math
from enum import Enum

__all__ = ["SolveStatus", "SolverError", "SolverUnavailableError", "clean"]


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


def clean(value: float, *, integral: bool = False, tol: float = 1e-6) -> float:
    """Remove solver noise: ``-0.0`` becomes ``0.0``; with `integral`, round within `tol`."""
    if value is None or not math.isfinite(value):
        return value
    if integral and abs(value - round(value)) <= tol:
        value = float(round(value))
    return 0.0 if value == 0 else float(value)

