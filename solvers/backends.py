"""The configured pulp solver: HiGHS (through highspy) by default, CBC or any pulp solver by name.

PuLP 4 ships no CBC and never should the package rely on PuLP's default solver, so
:func:`make_solver` always names a backend and raises :class:`SolverUnavailableError`
with an install hint when it cannot be used.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from typing import TYPE_CHECKING, Any

from .status import SolverUnavailableError

if TYPE_CHECKING:
    import pulp


def _pulp() -> Any:
    """pulp, imported on first use (about 0.1 s, and it loads highspy): code that only names a
    backend, such as the rules' registry, does not pay for it."""
    return importlib.import_module("pulp")

__all__ = ["BACKENDS", "available_backends", "backend_name", "check_available", "make_solver"]

#: Short names accepted everywhere, mapped to pulp solver class names.
BACKENDS: dict[str, str] = {
    "highs": "HiGHS",
    "cbc": "PULP_CBC_CMD",
    "glpk": "GLPK_CMD",
    "gurobi": "GUROBI",
    "cplex": "CPLEX_PY",
    "scip": "SCIP_PY",
    "copt": "COPT",
    "mosek": "MOSEK",
    "xpress": "XPRESS_PY",
}

_HINTS = {
    "highs": "pip install highspy",
    "cbc": "CBC ships with PuLP 3 only; pip install 'pulp<4' or use solver='highs'",
    "glpk": "install GLPK (e.g. apt-get install glpk-utils)",
}


def backend_name(name: str) -> str:
    """The pulp class name of a backend given by short name (``"highs"``) or pulp name (``"HiGHS"``).

    ``"cbc"`` is PuLP 3's bundled CBC when present, else ``COIN_CMD`` (a CBC on the PATH, PuLP 4).

    Parameters
    ----------
    name : str
        A short name of :data:`BACKENDS` (any case) or a pulp solver class name.

    Returns
    -------
    str
        The pulp solver class name (the solver need not be installed).

    Raises
    ------
    SolverUnavailableError
        `name` is neither a short name nor a pulp solver.

    Examples
    --------
    >>> backend_name("highs"), backend_name("GLPK"), backend_name("HiGHS")
    ('HiGHS', 'GLPK_CMD', 'HiGHS')
    """
    key = name.lower()
    if key == "cbc" and BACKENDS["cbc"] not in _available() and "COIN_CMD" in _available():
        return "COIN_CMD"
    if key in BACKENDS:
        return BACKENDS[key]
    if name in _pulp().listSolvers():
        return name
    raise SolverUnavailableError(
        f"unknown solver {name!r}; use one of {', '.join(BACKENDS)} or a pulp solver name "
        f"({', '.join(_pulp().listSolvers())})"
    )


@functools.cache
def _available() -> frozenset[str]:
    return frozenset(_pulp().listSolvers(onlyAvailable=True))


def check_available(name: str) -> str:
    """The pulp class name of `name` if that solver can run here.

    HiGHS is available when highspy imports (the package solves with it directly); any other
    solver when pulp lists it as available.

    Parameters
    ----------
    name : str
        A short name (``"highs"``, ``"cbc"``, ...) or a pulp solver class name.

    Returns
    -------
    str
        The pulp solver class name.

    Raises
    ------
    SolverUnavailableError
        The solver is unknown or cannot run here; the message says how to get it.

    Examples
    --------
    >>> check_available("highs")
    'HiGHS'
    """
    cls_name = backend_name(name)
    if cls_name == "HiGHS":
        try:
            import highspy  # noqa: F401
        except ImportError as exc:
            raise SolverUnavailableError(f"solver {name!r} is not available here (pip install highspy)") from exc
        return cls_name
    if cls_name not in _available():
        hint = _HINTS.get(name.lower(), "install it, or use solver='highs'")
        raise SolverUnavailableError(f"solver {name!r} is not available here ({hint})")
    return cls_name


def available_backends() -> list[str]:
    """Short names of the backends usable on this machine, HiGHS first.

    Returns
    -------
    list of str
        Keys of :data:`BACKENDS` whose solver pulp lists as available.

    Examples
    --------
    >>> available_backends()[0]
    'highs'
    """
    have = _available()
    return [short for short in BACKENDS if backend_name(short) in have]


def make_solver(
    name: str = "highs",
    *,
    time_limit: float | None = None,
    verbose: bool = False,
    mip: bool = True,
    threads: int | None = None,
    gap_abs: float | None = None,
    gap_rel: float | None = None,
) -> pulp.LpSolver:
    """A configured pulp solver.

    Parameters
    ----------
    name : str, default="highs"
        ``"highs"``, ``"cbc"``, ... or any pulp solver class name.
    time_limit : float, optional
        Seconds; None means no limit.
    verbose : bool, default=False
        Show the solver log.
    mip : bool, default=True
        Solve as a MIP (False: the LP relaxation).
    threads : int, optional
        Solver threads; None leaves the solver's default.
    gap_abs : float, optional
        Stop when incumbent and bound are within this (used with integral objectives).
    gap_rel : float, optional
        Relative gap (0 makes the absolute gap the only stopping rule).

    Returns
    -------
    pulp.LpSolver
        The solver, ready for ``prob.solve(solver)``.

    Raises
    ------
    SolverUnavailableError
        The backend is unknown or not installed, with an install hint.

    Examples
    --------
    >>> make_solver("highs", time_limit=10).name
    'HiGHS'
    """
    cls_name = check_available(name)
    options: dict = {"msg": bool(verbose)}
    if time_limit is not None:
        options["timeLimit"] = float(time_limit)
    if cls_name == "HiGHS":
        return _pulp().HiGHS(mip=mip, threads=threads, gapAbs=gap_abs, gapRel=gap_rel, **options)
    if cls_name == "PULP_CBC_CMD":
        with warnings.catch_warnings():  # PuLP 3.3 announces its removal in PuLP 4; we fall back to COIN_CMD there
            warnings.simplefilter("ignore", DeprecationWarning)
            return _pulp().PULP_CBC_CMD(mip=mip, threads=threads, gapAbs=gap_abs, gapRel=gap_rel, **options)
    if cls_name == "COIN_CMD":
        return _pulp().COIN_CMD(mip=mip, threads=threads, gapAbs=gap_abs, gapRel=gap_rel, **options)
    return _pulp().getSolver(cls_name, **options)
