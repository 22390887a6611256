"""The ``solver=`` option of every solving function: a name that exists and can run here."""

from __future__ import annotations

from solvers.backends import backend_name, check_available
from solvers.status import SolverUnavailableError

from .errors import InvalidOptionError, SolverNotAvailableError

__all__ = ["check_solver"]


def check_solver(name: object) -> str:
    """Return `name` if it names a solver that can run here.

    Parameters
    ----------
    name : object
        The ``solver=`` value: a short name (``"highs"``, ``"cbc"``, any case) or a pulp
        solver class name (``"HiGHS"``, ``"GLPK_CMD"``, ...).

    Returns
    -------
    str
        `name`, unchanged.

    Raises
    ------
    InvalidOptionError
        `name` is not a string, or names no known solver (the message lists the known ones).
    SolverNotAvailableError
        The solver exists but is not installed here (the message says how to get it).

    Examples
    --------
    >>> check_solver("highs")
    'highs'
    """
    if not isinstance(name, str):
        raise InvalidOptionError(f"solver must be a name such as 'highs' or 'cbc', got {name!r}")
    try:
        backend_name(name)
    except SolverUnavailableError as exc:
        raise InvalidOptionError(str(exc)) from exc
    try:
        check_available(name)
    except SolverUnavailableError as exc:
        raise SolverNotAvailableError(str(exc)) from exc
    return name
