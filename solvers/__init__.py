"""Optimization layer: the LP and ILP models of the package, on HiGHS (highspy) or a pulp solver.

Plain numpy arrays and Python values in, frozen result dataclasses out; this package
knows nothing of pandas, labels or the command line. Every model is posed on
:class:`solvers.model.LinearModel`, the one layer that talks to highspy and pulp (its
back-ends :mod:`solvers.model_highs` and :mod:`solvers.model_pulp`).
"""

from .backends import available_backends, make_solver
from .model import LinearModel, ModelSolution
from .status import SolverError, SolverUnavailableError, SolveStatus

__all__ = [
    "LinearModel",
    "ModelSolution",
    "SolveStatus",
    "SolverError",
    "SolverUnavailableError",
    "available_backends",
    "make_solver",
]
