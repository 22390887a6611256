"""Optimization layer: LP/ILP models built with pulp (HiGHS by default).

Plain numpy arrays and Python values in, frozen result dataclasses out; this package
knows nothing of pandas, labels or the command line.
"""

from .backends import available_backends, make_solver
from .status import SolveStatus, SolverError, SolverUnavailableError

__all__ = ["SolveStatus", "SolverError", "SolverUnavailableError", "available_backends", "make_solver"]
