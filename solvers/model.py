"""One thin model layer for every LP and MIP of the package: HiGHS (highspy) or a pulp solver.

A :class:`LinearModel` holds columns (bounds, costs, integrality) and rows
``lower <= A x <= upper`` given as numpy arrays, and solves them with one of two back-ends:

- ``"highs"`` (the default): a live ``highspy.Highs`` object, changed in place. Rows can be
  added and deleted between solves and each solve warm-starts from the last basis, which is
  what the Kemeny cutting-plane loop and the lazy rival rows of the weight LPs need.
- any other name (``"cbc"``, ``"glpk"``, ...): a pulp problem rebuilt from the arrays at each
  solve, through the few pulp calls that PuLP 3.3 and PuLP 4 share (:func:`_pulp_variable`,
  :func:`pulp_status`). PuLP 4 ships no CBC; :func:`solvers.backends.make_solver` says how
  to get one.

Nothing else in the package imports ``highspy``, and only this module and
:mod:`solvers.backends` import ``pulp``.

Thread policy (one place, :data:`THREADS`)
------------------------------------------
HiGHS keeps one task scheduler per calling thread, created with the ``threads`` option of
the first run on that thread; since HiGHS 1.16 a later run that asks for another count
fails ("Option 'threads' is set to 1 but global scheduler has already been initialized
to use 2 threads"). A run that leaves ``threads`` at 0 (HiGHS's default) uses whatever
scheduler the thread has, so it can never fail that way. Every model of the package
therefore leaves ``threads`` at 0 unless the caller asks for a count. Measured on the
Kemeny benchmark (docs/kemeny.md: 1 thread against the default of 2, no difference beyond
noise): the LPs are solved by serial simplex and the MIP phase by HiGHS's mostly serial
branch and bound, so a fixed count gains nothing.
When a caller does ask for a count that this thread's scheduler does not have, the
scheduler of *this thread only* is restarted (``Highs.resetThreadScheduler``: no other
solve can be running on this thread, and other threads have their own schedulers) and the
run repeated once, with a log message; on a highspy without that call the solve fails
with HiGHS's own reason and the hint to leave ``threads`` unset. Each Dask task on a
worker thread thus runs its own HiGHS without touching the others.

Every ``run()`` returns a ``HighsStatus`` that is checked: ``kError`` becomes a
:class:`~solvers.status.SolverError` carrying HiGHS's own log line (the run is repeated
once with the log captured to a temporary file, only on that error path).
"""

from __future__ import annotations

import logging
import math
import os
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .backends import backend_name, make_solver
from .status import SolverError, SolverUnavailableError, SolveStatus

__all__ = ["LinearModel", "ModelSolution", "THREADS", "dense_rows", "new_highs", "pulp_status", "highs_version"]

logger = logging.getLogger(__name__)

#: The HiGHS ``threads`` option of every model the package builds: 0, HiGHS's default,
#: which reuses this thread's scheduler whatever its size (see the module docstring).
THREADS = 0

FloatArray = NDArray[np.float64]
Sense = Literal["min", "max"]


@dataclass(frozen=True, slots=True)
class ModelSolution:
    """What one solve of a :class:`LinearModel` gave.

    ``x`` is None when the solver handed back no primal point. ``row_duals`` (LPs only)
    follow the solver's sign convention: callers that build certificates from them check
    the signs themselves. ``dual_bound`` is the MIP's proven bound on the optimum (HiGHS,
    and PuLP 4 solvers that report one), in the model's own objective.
    """

    status: SolveStatus
    x: FloatArray | None
    row_duals: FloatArray | None
    objective: float | None
    dual_bound: float | None
    seconds: float
    detail: str  # the solver's own wording of how it stopped
    limit_reached: bool = False  # a time or iteration limit stopped the solve (point or not)


def _as_f64(values: ArrayLike, n: int, what: str) -> FloatArray:
    out = np.asarray(values, dtype=np.float64).reshape(-1)
    if out.shape != (n,):
        raise ValueError(f"{what} must hold {n} values, got {out.shape[0]}")
    return out


def _csr(starts: ArrayLike, index: ArrayLike, value: ArrayLike, n_rows: int) -> tuple[NDArray[np.int32], NDArray[np.int32], FloatArray]:
    s = np.asarray(starts, dtype=np.int32).reshape(-1)
    i = np.asarray(index, dtype=np.int32).reshape(-1)
    v = np.asarray(value, dtype=np.float64).reshape(-1)
    if s.shape != (n_rows,) or i.shape != v.shape:
        raise ValueError("rows need one start per row and as many indices as values")
    if not np.isfinite(v).all():
        raise ValueError("row coefficients must be finite")
    return s, i, v


def dense_rows(matrix: ArrayLike) -> tuple[NDArray[np.int32], NDArray[np.int32], FloatArray]:
    """A dense block of rows as ``(starts, index, value)`` (its nonzeros, row by row)."""
    dense = np.atleast_2d(np.asarray(matrix, dtype=np.float64))
    rows, cols = np.nonzero(dense)
    starts = np.searchsorted(rows, np.arange(dense.shape[0])).astype(np.int32)
    return starts, cols.astype(np.int32), dense[rows, cols]


class LinearModel:
    """An LP or MIP ``min/max cost . x`` s.t. ``row_lower <= A x <= row_upper``, ``lower <= x <= upper``.

    Parameters
    ----------
    backend : str, default="highs"
        ``"highs"`` (highspy, changed in place) or any :func:`solvers.backends.make_solver`
        name (a pulp problem rebuilt at each solve).
    sense : {"min", "max"}
    verbose : bool, default=False
        Show the solver's log.
    threads : int, optional
        HiGHS threads; None keeps :data:`THREADS` (see the module docstring). Passed on to
        pulp solvers that take it.

    Examples
    --------
    >>> m = LinearModel(sense="max")
    >>> m.add_columns(np.zeros(2), np.full(2, np.inf), np.array([1.0, 2.0]))
    >>> m.add_rows(np.array([-np.inf]), np.array([4.0]), *dense_rows([[1.0, 1.0]]))
    >>> sol = m.solve()
    >>> sol.status.value, sol.x.tolist(), sol.objective
    ('optimal', [0.0, 4.0], 8.0)
    """

    def __init__(
        self, *, backend: str = "highs", sense: Sense = "min", verbose: bool = False, threads: int | None = None
    ) -> None:
        if sense not in ("min", "max"):
            raise ValueError(f"sense must be 'min' or 'max', got {sense!r}")
        self.backend = backend
        self.sense: Sense = sense
        self.verbose = bool(verbose)
        self.threads = threads
        self.is_highs = backend_name(backend) == "HiGHS"
        self._impl: _HighsImpl | _PulpImpl = _HighsImpl(self) if self.is_highs else _PulpImpl(self)

    # ---- structure
    @property
    def n_cols(self) -> int:
        return self._impl.n_cols

    @property
    def n_rows(self) -> int:
        return self._impl.n_rows

    def add_columns(self, lower: ArrayLike, upper: ArrayLike, cost: ArrayLike) -> None:
        """Append columns with these bounds (``+-inf`` for none) and objective coefficients."""
        cost = np.asarray(cost, dtype=np.float64).reshape(-1)
        n = cost.shape[0]
        self._impl.add_columns(_as_f64(lower, n, "lower"), _as_f64(upper, n, "upper"), cost)

    def add_rows(self, lower: ArrayLike, upper: ArrayLike, starts: ArrayLike, index: ArrayLike, value: ArrayLike) -> None:
        """Append rows ``lower <= A x <= upper``, ``A`` in compressed-row form."""
        lower = np.asarray(lower, dtype=np.float64).reshape(-1)
        n = lower.shape[0]
        if n == 0:
            return
        upper = _as_f64(upper, n, "upper")
        self._impl.add_rows(lower, upper, *_csr(starts, index, value, n))

    def delete_rows(self, rows: ArrayLike) -> None:
        """Delete the rows at these positions (later rows move up)."""
        idx = np.unique(np.asarray(rows, dtype=np.int64))
        if len(idx):
            self._impl.delete_rows(idx)

    def set_sense(self, sense: Sense) -> None:
        """Minimize or maximize from now on."""
        if sense not in ("min", "max"):
            raise ValueError(f"sense must be 'min' or 'max', got {sense!r}")
        self.sense = sense
        self._impl.apply_sense()

    def set_integer(self, integer: bool) -> None:
        """Make every column integer (True) or continuous (False)."""
        self._impl.set_integer(bool(integer))

    def forget_basis(self) -> None:
        """Make the next solve start from scratch instead of warm from the last basis."""
        self._impl.forget_basis()

    def clear(self) -> None:
        """Remove every column and row (the back-end object is kept)."""
        self._impl.clear()

    # ---- solve
    def solve(
        self,
        *,
        time_limit: float | None = None,
        mip_start: ArrayLike | None = None,
        gap_abs: float | None = None,
        highs_options: Mapping[str, Any] | None = None,
        on_dual_bound: Callable[[float], None] | None = None,
    ) -> ModelSolution:
        """Solve; never raises for infeasibility or a time limit (see ``status``).

        Parameters
        ----------
        time_limit : float, optional
            Seconds for this solve.
        mip_start : array, optional
            A feasible point handed to the MIP solver as its first incumbent.
        gap_abs : float, optional
            Absolute MIP gap at which the solver may stop and report optimal.
        highs_options : mapping, optional
            Extra HiGHS options (ignored by pulp back-ends).
        on_dual_bound : callable, optional
            Called with the MIP's dual bound during the search (HiGHS only; at most once a
            second).

        Raises
        ------
        SolverError
            The solver failed (its own reason in the message).
        """
        if time_limit is not None and not time_limit > 0:
            return ModelSolution(SolveStatus.NOT_SOLVED, None, None, None, None, 0.0, "no time left", True)
        start = None if mip_start is None else _as_f64(mip_start, self.n_cols, "mip_start")
        return self._impl.solve(time_limit, start, gap_abs, dict(highs_options or {}), on_dual_bound)


# --------------------------------------------------------------------------- HiGHS
def _highspy() -> Any:
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - highspy is a dependency
        raise SolverUnavailableError("solver 'highs' needs highspy: pip install highspy") from exc
    return highspy


def highs_version() -> str:
    """The version of the HiGHS library behind highspy, e.g. ``"1.16.0"``."""
    h = new_highs()
    try:
        return f"{h.versionMajor()}.{h.versionMinor()}.{h.versionPatch()}"
    except AttributeError:  # pragma: no cover - very old highspy
        return "unknown"


_BANNER_LOCK = threading.Lock()
_banner_shown = False


def new_highs(verbose: bool = False) -> Any:
    """A ``highspy.Highs`` with its output set by `verbose`.

    HiGHS prints a two-line banner on standard output when the first ``Highs`` of a process
    is made, before any option can silence it; it would corrupt a JSON or CSV report written
    to standard output. So the first construction of a quiet one runs with file descriptor 1
    pointed at ``/dev/null`` (once per process, under a lock).
    """
    global _banner_shown
    hs = _highspy()
    if verbose or _banner_shown:
        h = hs.Highs()
    else:
        with _BANNER_LOCK:
            sys.stdout.flush()
            saved = os.dup(1)
            devnull = os.open(os.devnull, os.O_WRONLY)
            try:
                os.dup2(devnull, 1)
                h = hs.Highs()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
                os.close(devnull)
            _banner_shown = True
    h.setOptionValue("output_flag", bool(verbose))
    return h


def _reset_thread_scheduler(hs: Any) -> bool:
    """Restart the calling thread's HiGHS scheduler; False if this highspy cannot."""
    reset = getattr(hs.Highs, "resetThreadScheduler", None)
    if reset is None:
        return False
    reset(True)  # blocking: wait until its worker threads have stopped
    return True


class _HighsImpl:
    def __init__(self, owner: LinearModel) -> None:
        self.owner = owner
        self.hs = _highspy()
        self.h = self._new()
        self.n_rows = 0
        self.cost = np.zeros(0)  # our copy of the objective, to check returned points
        self.integer = False

    @property
    def n_cols(self) -> int:
        return len(self.cost)

    def _new(self) -> Any:
        h = new_highs(self.owner.verbose)
        if self.owner.sense == "max":
            h.changeObjectiveSense(self.hs.ObjSense.kMaximize)
        return h

    def forget_basis(self) -> None:
        self.h.clearSolver()

    def apply_sense(self) -> None:
        kind = self.hs.ObjSense.kMaximize if self.owner.sense == "max" else self.hs.ObjSense.kMinimize
        self._check(self.h.changeObjectiveSense(kind), "changeObjectiveSense")

    def add_columns(self, lower: FloatArray, upper: FloatArray, cost: FloatArray) -> None:
        n = len(cost)
        inf = self.hs.kHighsInf
        lo = np.where(np.isfinite(lower), lower, -inf)
        hi = np.where(np.isfinite(upper), upper, inf)
        empty_i = np.zeros(0, dtype=np.int32)
        self._check(
            self.h.addCols(n, cost, lo, hi, 0, np.zeros(n, dtype=np.int32), empty_i, np.zeros(0)), "addCols"
        )
        if self.integer:
            self._integrality(np.arange(self.n_cols, self.n_cols + n), True)
        self.cost = np.concatenate([self.cost, cost])

    def add_rows(self, lower: FloatArray, upper: FloatArray, starts: Any, index: Any, value: Any) -> None:
        inf = self.hs.kHighsInf
        lo = np.where(np.isfinite(lower), lower, -inf)
        hi = np.where(np.isfinite(upper), upper, inf)
        self._check(self.h.addRows(len(lo), lo, hi, len(value), starts, index, value), "addRows")
        self.n_rows += len(lo)

    def delete_rows(self, rows: NDArray[np.int64]) -> None:
        self._check(self.h.deleteRows(len(rows), rows.astype(np.int32)), "deleteRows")
        self.n_rows -= len(rows)

    def _integrality(self, cols: NDArray[Any], integer: bool) -> None:
        kind = self.hs.HighsVarType.kInteger if integer else self.hs.HighsVarType.kContinuous
        if len(cols):
            self._check(
                self.h.changeColsIntegrality(len(cols), cols.astype(np.int32), np.array([kind] * len(cols))),
                "changeColsIntegrality",
            )

    def set_integer(self, integer: bool) -> None:
        if integer != self.integer:
            self._integrality(np.arange(self.n_cols), integer)
            self.integer = integer

    def clear(self) -> None:
        self._check(self.h.clearModel(), "clearModel")
        self.apply_sense()
        self.n_rows = 0
        self.cost = np.zeros(0)
        self.integer = False

    def _check(self, status: Any, what: str) -> None:
        if status == self.hs.HighsStatus.kError:
            raise SolverError(f"HiGHS rejected {what} (status {status})")

    def _set(self, name: str, value: Any) -> None:
        if self.h.setOptionValue(name, value) == self.hs.HighsStatus.kError:
            raise SolverError(f"HiGHS has no option {name!r} accepting {value!r} (HiGHS {highs_version()})")

    def _captured_error(self) -> str:
        """Repeat the failed run with the log captured; return HiGHS's error lines."""
        fd, path = tempfile.mkstemp(prefix="highs-", suffix=".log")
        os.close(fd)
        try:
            self.h.setOptionValue("log_file", path)
            self.h.setOptionValue("log_to_console", False)
            self.h.setOptionValue("output_flag", True)
            self.h.run()
            with open(path, encoding="utf-8", errors="replace") as fh:
                lines = [ln.strip() for ln in fh if "error" in ln.lower()]
        finally:
            self.h.setOptionValue("output_flag", self.owner.verbose)
            self.h.setOptionValue("log_to_console", True)
            self.h.setOptionValue("log_file", "")
            os.unlink(path)
        return " ".join(lines) or "no reason logged"

    def _run(self) -> Any:
        status = self.h.run()
        if status != self.hs.HighsStatus.kError:
            return status
        reason = self._captured_error()
        if "scheduler" in reason and self.owner.threads and _reset_thread_scheduler(self.hs):
            # the caller asked for a thread count this thread's scheduler did not have: it was
            # restarted (nothing else runs on this thread); repeat the run
            logger.warning("HiGHS: restarted this thread's scheduler for threads=%s (%s)", self.owner.threads, reason)
            status = self.h.run()
            if status != self.hs.HighsStatus.kError:
                return status
            reason = self._captured_error()
        hint = ""
        if "scheduler" in reason:
            hint = "; leave threads unset (None) so every solve shares this thread's HiGHS scheduler"
        raise SolverError(f"HiGHS failed: {reason}{hint}")

    def solve(
        self,
        time_limit: float | None,
        mip_start: FloatArray | None,
        gap_abs: float | None,
        options: dict[str, Any],
        on_dual_bound: Callable[[float], None] | None,
    ) -> ModelSolution:
        hs, h = self.hs, self.h
        h.resetOptions()  # options are per solve
        self._set("output_flag", self.owner.verbose)
        self._set("threads", int(self.owner.threads) if self.owner.threads else THREADS)
        self._set("time_limit", float(time_limit) if time_limit is not None else hs.kHighsInf)
        if self.integer and gap_abs is not None:
            self._set("mip_abs_gap", float(gap_abs))
        for name, value in options.items():
            self._set(name, value)
        uninstall = self._install_callbacks(mip_start if self.integer else None, on_dual_bound if self.integer else None)
        begin = time.perf_counter()
        try:
            self._run()
        finally:
            uninstall()
        seconds = time.perf_counter() - begin
        model_status = h.getModelStatus()
        detail = h.modelStatusToString(model_status)
        info = h.getInfo()
        has_point = info.primal_solution_status == 2 if self.integer else h.getSolution().value_valid
        ms = hs.HighsModelStatus
        limited = model_status in (ms.kTimeLimit, ms.kIterationLimit, ms.kInterrupt)
        if model_status == ms.kOptimal:
            status = SolveStatus.OPTIMAL
        elif model_status == ms.kInfeasible:
            status = SolveStatus.INFEASIBLE
        elif limited and has_point:
            status = SolveStatus.TIME_LIMIT
        else:
            status = SolveStatus.NOT_SOLVED
        x = duals = objective = bound = None
        if status in (SolveStatus.OPTIMAL, SolveStatus.TIME_LIMIT):
            sol = h.getSolution()
            x = np.asarray(sol.col_value, dtype=np.float64)
            if self.integer and not self._point_matches(x, float(info.objective_function_value)):
                if mip_start is None:
                    raise SolverError("HiGHS returned a MIP solution whose objective is not the one it reports")
                # HiGHS 1.16 with presolve can hand back the MIP start instead of its optimum
                # when the start was given by setSolution: solve again without the start
                logger.info("HiGHS returned the MIP start instead of its solution; solving again without it")
                h.clearSolver()
                return self.solve(time_limit, None, gap_abs, options, on_dual_bound)
            if not self.integer and sol.dual_valid:
                duals = np.asarray(sol.row_dual, dtype=np.float64)
            objective = float(info.objective_function_value)
        if self.integer and math.isfinite(info.mip_dual_bound):
            bound = float(info.mip_dual_bound)
        return ModelSolution(status, x, duals, objective, bound, seconds, detail, limited)

    def _point_matches(self, x: FloatArray, objective: float) -> bool:
        """Whether `x` has the objective HiGHS reports (independent arithmetic on our copy of the costs)."""
        value = float(self.cost @ x)
        return abs(value - objective) <= 1e-6 * max(1.0, abs(objective))

    def _install_callbacks(
        self, start: FloatArray | None, report: Callable[[float], None] | None
    ) -> Callable[[], None]:
        """MIP start and dual-bound reports, through whichever callback API this highspy has.

        The start goes in as a user solution at the MIP's first callback (highspy >= 1.8),
        else through ``setSolution`` (highspy 1.7). Reports come about once a second.
        Returns the function that removes what was installed.
        """
        hs, h = self.hs, self.h
        state = {"given": start is None, "last": 0.0}

        def forward(bound: float) -> None:
            now = time.perf_counter()
            if report is not None and now - state["last"] >= 1.0 and math.isfinite(bound):
                state["last"] = now
                report(float(bound))

        def give(data_in: Any) -> None:
            if not state["given"] and data_in is not None:
                data_in.setSolution(start)
                state["given"] = True

        kinds = getattr(getattr(hs, "cb", None), "HighsCallbackType", None)
        has_user = kinds is not None and hasattr(kinds, "kCallbackMipUserSolution")
        removers: list[Callable[[], None]] = []
        if hasattr(h, "cbMipInterrupt"):  # highspy >= 1.10: event subscriptions
            if report is not None:
                on_interrupt = lambda e: forward(e.data_out.mip_dual_bound)  # noqa: E731
                h.cbMipInterrupt.subscribe(on_interrupt)
                removers.append(lambda: h.cbMipInterrupt.unsubscribe(on_interrupt))
            if start is not None and has_user:
                on_user = lambda e: give(e.data_in)  # noqa: E731
                h.cbMipUserSolution.subscribe(on_user)
                removers.append(lambda: h.cbMipUserSolution.unsubscribe(on_user))
        elif kinds is not None and (report is not None or (start is not None and has_user)):

            def callback(kind: Any, message: str, data_out: Any, data_in: Any, user_data: Any) -> None:
                if kind == kinds.kCallbackMipInterrupt:
                    forward(data_out.mip_dual_bound)
                elif has_user and kind == kinds.kCallbackMipUserSolution:
                    give(data_in)

            h.setCallback(callback, None)
            wanted = [kinds.kCallbackMipInterrupt] if report is not None else []
            wanted += [kinds.kCallbackMipUserSolution] if (start is not None and has_user) else []
            for kind in wanted:
                h.startCallback(kind)
            removers.extend(lambda k=kind: h.stopCallback(k) for kind in wanted)
        if start is not None and not has_user:  # highspy 1.7
            sol = hs.HighsSolution()
            sol.col_value = start.tolist()
            sol.value_valid = True
            self._check(h.setSolution(sol), "setSolution")

        def uninstall() -> None:
            for remove in removers:
                remove()

        return uninstall


# --------------------------------------------------------------------------- pulp
def _pulp_variable(prob: Any, name: str, lower: float | None, upper: float | None, cat: str) -> Any:
    """A variable of `prob`: ``prob.add_variable`` (PuLP >= 3.3.1, the only way in PuLP 4) or ``LpVariable``."""
    import pulp

    if hasattr(prob, "add_variable"):
        return prob.add_variable(name, lowBound=lower, upBound=upper, cat=cat)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pulp.LpVariable(name, lowBound=lower, upBound=upper, cat=cat)


def pulp_status(prob: Any, returned: Any) -> tuple[SolveStatus, str]:
    """Map a pulp solve to a :class:`SolveStatus` (PuLP 3: ``prob.status``/``sol_status``; PuLP 4: the returned stats).

    PuLP 3 with HiGHS/CBC reports ``status == 1`` ("Optimal") on a time limit with
    ``sol_status == 2`` (an incumbent, not proven), so only ``sol_status == 1`` is optimal.
    PuLP 4 returns an ``LpSolveStats``: ``status`` says why the solver stopped and
    ``has_solution`` whether a point came back; a gap-limit stop is optimal within the
    absolute gap the caller set.
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
    def __init__(self, owner: LinearModel) -> None:
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
        self.rows: list[tuple[float, float, NDArray[np.int32], FloatArray]] = []
        self.integer = False

    @property
    def n_cols(self) -> int:
        return len(self.cost)

    @property
    def n_rows(self) -> int:
        return len(self.rows)

    def add_columns(self, lower: FloatArray, upper: FloatArray, cost: FloatArray) -> None:
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
        prob = pulp.LpProblem("model", pulp.LpMaximize if owner.sense == "max" else pulp.LpMinimize)
        cat = pulp.LpInteger if self.integer else pulp.LpContinuous
        cols = [
            _pulp_variable(
                prob, f"x{k}", lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None, cat
            )
            for k, (lo, hi) in enumerate(zip(self.lower.tolist(), self.upper.tolist()))
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
            values = [v.varValue for v in cols]
            # a column that appears nowhere (no cost, no row) may be left out by the writer:
            # any value within its bounds is optimal, take the one closest to 0
            values = [
                min(max(0.0, lo), hi) if v is None else v for v, lo, hi in zip(values, self.lower, self.upper)
            ]
            x = np.array(values, dtype=np.float64)
            objective = float(self.cost @ x)
            if not self.integer:
                pis = [[c.pi for c in sides] for sides in parts]
                if all(p is not None for sides in pis for p in sides):
                    duals = np.array([sum(sides) for sides in pis], dtype=np.float64)
        bound = getattr(returned, "best_bound", None)
        bound = float(bound) if bound is not None and self.integer and math.isfinite(bound) else None
        # a limit stopped it: the solver says so, or it stopped unsolved with a time limit set
        limited = "limit" in detail.lower() or (status is SolveStatus.NOT_SOLVED and time_limit is not None)
        return ModelSolution(status, x, duals, objective, bound, seconds, detail, limited)
