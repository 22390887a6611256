"""The ``solver=`` option of every solving function, and the solver layer's errors in the package's terms.

The solver layer knows nothing of the package: it raises ``solvers.SolverUnavailableError``
and ``solvers.SolverError``. This module is the boundary where they become
:class:`~consensus.errors.SolverNotAvailableError` (with the solvers that can run here) and
:class:`~consensus.errors.SolveFailedError` (with what was being solved), each raised
``from`` the solver layer's error.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from solvers.backends import available_backends, backend_name, check_available
from solvers.status import SolverError, SolverUnavailableError

from ..errors import SolveFailedError, SolverNotAvailableError, UnknownSolverError

__all__ = ["available_solvers", "check_solver", "solver_errors", "solver_not_available"]


def available_solvers() -> tuple[str, ...]:
    """Short names of the solvers that can run here, HiGHS first.

    Returns
    -------
    tuple of str
        Names accepted by ``solver=`` (``"highs"``, ``"cbc"``, ...).

    Examples
    --------
    >>> available_solvers()[0]
    'highs'
    """
    return tuple(available_backends())


def solver_not_available(
    problem: SolverUnavailableError | str, solver: object, *, unknown: bool = False
) -> SolverNotAvailableError:
    """The package's error for the solver layer's `problem`: its message, then the solvers available here.

    Parameters
    ----------
    problem : solvers.SolverUnavailableError or str
        What the solver layer raised (or the message of a problem found here).
    solver : object
        The ``solver=`` value (kept as the attribute ``solver``).
    unknown : bool, default=False
        `solver` names no solver at all: an :class:`UnknownSolverError` (also an
        ``InvalidOptionError``).

    Returns
    -------
    SolverNotAvailableError
        To be raised ``from`` the solver layer's error.

    Examples
    --------
    >>> from solvers.status import SolverUnavailableError
    >>> err = solver_not_available(SolverUnavailableError("solver 'glpk' is not available here"), "glpk")
    >>> str(err).startswith("solver 'glpk' is not available here; solvers available here: 'highs'")
    True
    """
    available = available_solvers()
    listed = ", ".join(repr(s) for s in available) if available else "none (pip install highspy)"
    cls = UnknownSolverError if unknown else SolverNotAvailableError
    return cls(f"{problem}; solvers available here: {listed}", solver=solver, available=available)


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
    UnknownSolverError
        `name` is not a string, or names no known solver (a :class:`SolverNotAvailableError`
        and an ``InvalidOptionError``; the message lists the known solvers and those
        available here).
    SolverNotAvailableError
        The solver exists but is not installed here (the message says how to get it, and
        which solvers are available here).

    Examples
    --------
    >>> check_solver("highs")
    'highs'
    """
    if not isinstance(name, str):
        problem = f"solver must be a name such as 'highs' or 'cbc', got {name!r}"
        raise solver_not_available(problem, name, unknown=True)
    try:
        backend_name(name)
    except SolverUnavailableError as exc:
        raise solver_not_available(exc, name, unknown=True) from exc
    try:
        check_available(name)
    except SolverUnavailableError as exc:
        raise solver_not_available(exc, name) from exc
    return name


@contextmanager
def solver_errors(context: str, solver: object) -> Iterator[None]:
    """Translate the solver layer's errors raised inside the block into the package's.

    Parameters
    ----------
    context : str
        What is being solved (``"Condorcet weights of 'a'"``), put first in a
        :class:`SolveFailedError` message.
    solver : object
        The ``solver=`` value, for a :class:`SolverNotAvailableError`.

    Yields
    ------
    None
        The block runs once.

    Raises
    ------
    SolverNotAvailableError
        For a ``solvers.SolverUnavailableError`` (message kept, solvers available here added).
    SolveFailedError
        For any other ``solvers.SolverError``: ``"{context}: {message}"``.

    Examples
    --------
    >>> from solvers.status import SolverError
    >>> try:
    ...     with solver_errors("Condorcet weights of 'a'", "highs"):
    ...         raise SolverError("HiGHS stopped")
    ... except SolveFailedError as err:
    ...     print(err)
    Condorcet weights of 'a': HiGHS stopped
    """
    try:
        yield
    except SolverUnavailableError as exc:
        raise solver_not_available(exc, solver) from exc
    except SolverError as exc:
        raise SolveFailedError(f"{context}: {exc}") from exc
