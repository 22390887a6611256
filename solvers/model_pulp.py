"""The pulp back-end of :class:`solvers.model.LinearModel`: a pulp problem rebuilt from the arrays at each solve.

It serves every backend name other than HiGHS (``"cbc"``, ``"glpk"``, ...), through the few
pulp calls that PuLP 3.3 and PuLP 4 share (:func:`_pulp_variable`, :func:`pulp_status`).
PuLP 4 ships no CBC; :func:`solvers.backends.make_solver` says how to get one. Only this
module and :mod:`solvers.backends` import ``pulp``.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Callable
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from .backends import make_solver
from .status import ModelSolution, SolverError, SolveStatus

__all__ = ["pulp_status"]

FloatArray = NDArray[np.float64]


class _Owner(Protocol):
    """The settings of the :class:`~solvers.model.LinearModel` this back-end serves, read at each solve."""

    backend: str
    sense: Literal["min", "max"]
    verbose: bool
    threads: int | None


def _pulp_variable(prob: Any, name: str, lower: float | None, upper: float | None, cat: str) -> Any:
    """A variable of `prob`: ``prob.add_variable`` (PuLP >= 3.3.1, the only way in PuLP 4) or ``LpVariable``."""
    import pulp

    if hasattr(prob, "add_variable"):
        return prob.add_variable(name, lowBound=lower, upBound=upper, cat=cat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.LpVariable(name, lowBound=lower, upBound=upper, cat=cat)


def pulp_status(prob: Any, returned: Any) -> tuple[SolveStatus, str]:
    """Map a pulp solve to a :class:`SolveStatus`.

    PuLP 3 with HiGHS/CBC reports ``status == 1`` ("Optimal") on a time limit with
    ``sol_status == 2`` (an incumbent, not proven), so only ``sol_status == 1`` is optimal.
    PuLP 4 returns an ``LpSolveStats``: ``status`` says why the solver stopped and
    ``has_solution`` whether a point came back; a gap-limit stop is optimal within the
    absolute gap the caller set.

    Parameters
    ----------
    prob : pulp.LpProblem
        The solved problem (PuLP 3 reads ``prob.status`` and ``prob.sol_status``).
    returned : object
        What ``prob.solve`` returned: an ``LpSolveStats`` on PuLP 4, a status code on PuLP 3.

    Returns
    -------
    status : SolveStatus
        ``OPTIMAL``, ``TIME_LIMIT`` (an unproven incumbent), ``INFEASIBLE`` or ``NOT_SOLVED``.
    detail : str
        pulp's own names of how it stopped, e.g. ``"Optimal/Optimal Solution Found"``.

    Examples
    --------
    >>> import pulp
    >>> prob = pulp.LpProblem("p", pulp.LpMinimize)
    >>> prob += _pulp_variable(prob, "x", 1.0, None, pulp.LpContinuous)   # min x, x >= 1
    >>> status, detail = pulp_status(prob, prob.solve(make_solver("highs")))
    >>> status.value
    'optimal'
    """
    import pulp

    if hasattr(returned, "has_solution"):  # PuLP 4
        name = getattr(returned.status, "name", str(returned.status))
        if not returned.has_solution:
            return (SolveStatus.INFEASIBLE if name == "Infeasible" else SolveStatus.NOT_SOLVED), name
        if name in ("Optimal", "GapLimit"):
            return SolveStatus.OPTIMAL, name
        return SolveStatus.TIME_LIMIT, name
    st, sol = prob.status, getattr(prob, "sol_status", None)
    name = f"{pulp.LpStatus.get(st, st)}/{pulp.LpSolution.get(sol, sol)}"
    if sol == pulp.LpSolutionOptimal:
        return SolveStatus.OPTIMAL, name
    if sol == pulp.LpSolutionIntegerFeasible:
        return SolveStatus.TIME_LIMIT, name
    if st == pulp.LpStatusInfeasible or sol == pulp.LpSolutionInfeasible:
        return SolveStatus.INFEASIBLE, name
    return SolveStatus.NOT_SOLVED, name


class _PulpImpl:
    """The pulp back-end: the model is kept as arrays and posed anew at each solve."""

    def __init__(self, owner: _Owner) -> None:
        self.owner = owner
        self.clear()

    def apply_sense(self) -> None:
        pass  # read at each solve

    def forget_basis(self) -> None:
        pass  # every solve starts from scratch

    def clear(self) -> None:
        self.lower = np.zeros(0)
        self.upper = np.zeros(0)
        self.cost = np.zeros(0)
        self.continuous = np.zeros(0, dtype=bool)  # columns kept continuous in a MIP
        self.rows: list[tuple[float, float, NDArray[np.int32], FloatArray]] = []
        self.integer = False

    @property
    def n_cols(self) -> int:
        return len(self.cost)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    def add_columns(self, lower: FloatArray, upper: FloatArray, cost: FloatArray, continuous: bool | NDArray[np.bool_]) -> None:
        self.continuous = np.concatenate([self.continuous, np.broadcast_to(np.asarray(continuous, dtype=bool), (len(cost),))])
        self.lower = np.concatenate([self.lower, lower])
        self.upper = np.concatenate([self.upper, upper])
        self.cost = np.concatenate([self.cost, cost])

    def add_rows(self, lower: FloatArray, upper: FloatArray, starts: Any, index: Any, value: Any) -> None:
        ends = np.append(starts[1:], len(index))
        for r in range(len(lower)):
            a, b = int(starts[r]), int(ends[r])
            self.rows.append((float(lower[r]), float(upper[r]), index[a:b].copy(), value[a:b].copy()))

    def delete_rows(self, rows: NDArray[np.int64]) -> None:
        drop = set(rows.tolist())
        self.rows = [row for k, row in enumerate(self.rows) if k not in drop]

    def set_integer(self, integer: bool) -> None:
        self.integer = integer

    def _problem(self) -> tuple[Any, list[Any], list[list[Any]]]:
        """The pulp problem of the arrays: the problem, its columns, and each row's stored sides."""
        import pulp

        prob = pulp.LpProblem("model", pulp.LpMaximize if self.owner.sense == "max" else pulp.LpMinimize)
        cols = [
            _pulp_variable(
                prob, f"x{k}", lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None,
                pulp.LpInteger if self.integer and not kept else pulp.LpContinuous,
            )
            for k, (lo, hi, kept) in enumerate(zip(self.lower.tolist(), self.upper.tolist(), self.continuous.tolist()))
        ]
        # every column in the objective, zeros too, so that the solver sees (and returns) it
        prob += pulp.lpSum(c * cols[k] for k, c in enumerate(self.cost.tolist()))
        parts: list[list[Any]] = []
        for r, (lo, hi, idx, val) in enumerate(self.rows):
            expr = pulp.lpSum(c * cols[k] for k, c in zip(idx.tolist(), val.tolist()))
            if lo == hi:
                sides = [(expr == lo, f"e{r}")]
            else:
                sides = ([(expr >= lo, f"l{r}")] if math.isfinite(lo) else []) + (
                    [(expr <= hi, f"u{r}")] if math.isfinite(hi) else []
                )
            stored = []
            for constraint, name in sides:
                kept = prob.addConstraint(constraint, name=name)
                # PuLP 4 returns the stored constraint; PuLP 3 stores the object it was given
                stored.append(kept if kept is not None else constraint)
            parts.append(stored)
        return prob, cols, parts

    def _point(self, cols: list[Any], parts: list[list[Any]]) -> tuple[FloatArray, FloatArray | None]:
        """The solved point (a column left out by the writer takes its value closest to 0) and the LP row duals."""
        values = [v.varValue for v in cols]
        # a column that appears nowhere (no cost, no row) may be left out by the writer:
        # any value within its bounds is optimal, take the one closest to 0
        values = [min(max(0.0, lo), hi) if v is None else v for v, lo, hi in zip(values, self.lower, self.upper)]
        x = np.array(values, dtype=np.float64)
        duals = None
        if not self.integer:
            pis = [[c.pi for c in sides] for sides in parts]
            if all(p is not None for sides in pis for p in sides):
                duals = np.array([sum(sides) for sides in pis], dtype=np.float64)
        return x, duals

    def solve(
        self,
        time_limit: float | None,
        mip_start: FloatArray | None,
        gap_abs: float | None,
        options: dict[str, Any],
        on_dual_bound: Callable[[float], None] | None,
    ) -> ModelSolution:
        import pulp

        owner = self.owner
        prob, cols, parts = self._problem()
        solver = make_solver(
            owner.backend, time_limit=time_limit, verbose=owner.verbose, mip=self.integer,
            threads=owner.threads, gap_abs=gap_abs if self.integer else None, gap_rel=0.0 if self.integer else None,
        )
        if self.integer and mip_start is not None:
            for v, value in zip(cols, mip_start.tolist()):
                v.setInitialValue(value)
            if hasattr(solver, "optionsDict"):
                solver.optionsDict["warmStart"] = True
        begin = time.perf_counter()
        try:
            returned = prob.solve(solver)
        except pulp.PulpSolverError as exc:
            raise SolverError(f"{owner.backend} failed: {exc}") from exc
        seconds = time.perf_counter() - begin
        status, detail = pulp_status(prob, returned)
        x = duals = objective = None
        if status in (SolveStatus.OPTIMAL, SolveStatus.TIME_LIMIT):
            x, duals = self._point(cols, parts)
            objective = float(self.cost @ x)
        bound = getattr(returned, "best_bound", None)
        bound = float(bound) if bound is not None and self.integer and math.isfinite(bound) else None
        # a limit stopped it: the solver says so, or it stopped unsolved with a time limit set
        limited = "limit" in detail.lower() or (status is SolveStatus.NOT_SOLVED and time_limit is not None)
        return ModelSolution(status, x, duals, objective, bound, seconds, detail, limited)
