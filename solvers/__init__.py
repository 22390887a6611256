"""Optimization layer: the LP and ILP models of the package, on HiGHS (highspy) or a pulp solver.

Plain numpy arrays and Python values in, frozen result dataclasses out; this package
knows nothing of pandas, labels or the command line. Every model is posed on
:class:`solvers.model.LinearModel`, the one layer that talks to highspy and pulp (its
back-ends :mod:`solvers.model_highs` and :mod:`solvers.model_pulp`).

The names below are imported on first use (PEP 562), so that a numpy-only module of this
package (:mod:`solvers.ordering_costs`, :mod:`solvers.ordering_exact`) loads neither pulp nor
highspy: a pairwise comparison needs no solver.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # what type checkers and IDEs see
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

_HOMES = {
    "LinearModel": "model", "ModelSolution": "model", "SolveStatus": "status", "SolverError": "status",
    "SolverUnavailableError": "status", "available_backends": "backends", "make_solver": "backends",
}


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        value = getattr(importlib.import_module(f"{__name__}.{_HOMES[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
