"""The configured pulp solver: HiGHS (through highspy) by default, CBC or any pulp solver by name.

PuLP 4 ships no CBC and never should the package rely on PuLP's default solver, so
:func:`make_solver` always names a backend and raises :class:`SolverUnavailableError`
with an install hint when it cannot be used.
"""

from __future__ import annotations

import functools
import warnings

import pulp

from .status import SolverUnavailableError

__all__ = ["make_solver", "available_backends", "backend_name", "check_available", "BACKENDS"]

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
    """
    key = name.lower()
    if key == "cbc" and BACKENDS["cbc"] not in _available() and "COIN_CMD" in _available():
        return "COIN_CMD"
    if key in BACKENDS:
        return BACKENDS[key]
    if name in pulp.listSolvers():
        return name
    raise SolverUnavailableError(
        f"unknown solver {name!r}; use one of {', '.join(BACKENDS)} or a pulp solver name "
        f"({', '.join(pulp.listSolvers())})"
    )


@functools.cache
def _available() -> frozenset[str]:
    return frozenset(pulp.listSolvers(onlyAvailable=True))


def check_available(name: str) -> str:
    """The pulp class name of `name` if that solver can run here, else :class:`SolverUnavailableError`.

    HiGHS is available when highspy imports (the package solves with it directly); any other
    solver when pulp lists it as available. The error says how to get the solver.
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
    """Short names of the backends usable on this machine, HiGHS first."""
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
    gap_abs : float, optional
        Stop when incumbent and bound are within this (used with integral objectives).
    gap_rel : float, optional
        Relative gap (0 makes the absolute gap the only stopping rule).

    Raises
    ------
    SolverUnavailableError
        The backend is unknown or not installed, with an install hint.
    """
    cls_name = check_available(name)
    options: dict = {"msg": bool(verbose)}
    if time_limit is not None:
        options["timeLimit"] = float(time_limit)
    if cls_name == "HiGHS":
        return pulp.HiGHS(mip=mip, threads=threads, gapAbs=gap_abs, gapRel=gap_rel, **options)
    if cls_name == "PULP_CBC_CMD":
        with warnings.catch_warnings():  # PuLP 3.3 announces its removal in PuLP 4; we fall back to COIN_CMD there
            warnings.simplefilter("ignore", DeprecationWarning)
            return pulp.PULP_CBC_CMD(mip=mip, threads=threads, gapAbs=gap_abs, gapRel=gap_rel, **options)
    if cls_name == "COIN_CMD":
        return pulp.COIN_CMD(mip=mip, threads=threads, gapAbs=gap_abs, gapRel=gap_rel, **options)
    return pulp.getSolver(cls_name, **options)
