"""The HiGHS back-end of :class:`solvers.model.LinearModel`: one live ``highspy.Highs``, changed in place.

Rows can be added and deleted between solves and each solve warm-starts from the last
basis, which is what the Kemeny cutting-plane loop and the lazy rival rows of the weight
LPs need. Nothing else in the package imports ``highspy``.

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
from collections.abc import Callable
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from .status import ModelSolution, SolverError, SolverUnavailableError, SolveStatus

__all__ = ["THREADS", "highs_version", "new_highs"]

logger = logging.getLogger(__name__)

#: Options left at HiGHS's default when this HiGHS does not have them (the sub-MIP heuristic
#: switches came after HiGHS 1.7).
_OPTIONAL_OPTIONS = frozenset({"mip_heuristic_run_rins", "mip_heuristic_run_rens", "mip_heuristic_run_root_reduced_cost"})

#: The HiGHS ``threads`` option of every model the package builds: 0, HiGHS's default,
#: which reuses this thread's scheduler whatever its size (see the module docstring).
THREADS = 0

FloatArray = NDArray[np.float64]


class _Owner(Protocol):
    """The settings of the :class:`~solvers.model.LinearModel` this back-end serves, read at each call."""

    sense: Literal["min", "max"]
    verbose: bool
    threads: int | None


def _highspy() -> Any:
    try:
        import highspy
    except ImportError as exc:  # pragma: no cover - highspy is a dependency
        raise SolverUnavailableError("solver 'highs' needs highspy: pip install highspy") from exc
    return highspy


def highs_version() -> str:
    """The version of the HiGHS library behind highspy.

    Returns
    -------
    str
        ``"major.minor.patch"``, e.g. ``"1.16.0"``; ``"unknown"`` on a highspy too old to say.

    Raises
    ------
    SolverUnavailableError
        highspy is not installed.

    Examples
    --------
    >>> len(highs_version().split("."))
    3
    """
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

    Parameters
    ----------
    verbose : bool, default=False
        Let HiGHS print its log (and its banner).

    Returns
    -------
    highspy.Highs
        A new, empty HiGHS instance.

    Raises
    ------
    SolverUnavailableError
        highspy is not installed.

    Examples
    --------
    >>> h = new_highs()
    >>> h.getOptionValue("output_flag")[1]  # (status, value)
    False
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


def _clock_is_cumulative(h: Any) -> bool:
    """Whether this HiGHS compares ``time_limit`` with a run clock that keeps counting across
    runs (every 1.x release; HiGHS announced per-run clocks for 2.0, ERGO-Code/HiGHS#1477).

    A clock seen going backwards between runs also turns the offset off (see ``solve``).
    """
    try:
        return int(h.versionMajor()) < 2
    except (AttributeError, TypeError, ValueError):  # pragma: no cover - very old highspy
        return True


def _reset_thread_scheduler(hs: Any) -> bool:
    """Restart the calling thread's HiGHS scheduler; False if this highspy cannot."""
    reset = getattr(hs.Highs, "resetThreadScheduler", None)
    if reset is None:
        return False
    reset(True)  # blocking: wait until its worker threads have stopped
    return True


class _HighsImpl:
    """The HiGHS back-end: the model lives in ``self.h`` and is changed in place."""

    def __init__(self, owner: _Owner) -> None:
        self.owner = owner
        self.hs = _highspy()
        self.h = self._new()
        self.n_rows = 0
        self.cost = np.zeros(0)  # our copy of the objective, to check returned points
        self.integer = False
        self.continuous = np.zeros(0, dtype=bool)  # columns kept continuous in a MIP
        self.cumulative_clock = _clock_is_cumulative(self.h)

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

    def add_columns(self, lower: FloatArray, upper: FloatArray, cost: FloatArray, continuous: bool | NDArray[np.bool_]) -> None:
        n = len(cost)
        kept = np.broadcast_to(np.asarray(continuous, dtype=bool), (n,))
        inf = self.hs.kHighsInf
        lo = np.where(np.isfinite(lower), lower, -inf)
        hi = np.where(np.isfinite(upper), upper, inf)
        empty_i = np.zeros(0, dtype=np.int32)
        self._check(
            self.h.addCols(n, cost, lo, hi, 0, np.zeros(n, dtype=np.int32), empty_i, np.zeros(0)), "addCols"
        )
        if self.integer and not kept.all():
            self._integrality(np.arange(self.n_cols, self.n_cols + n)[~kept], True)
        self.cost = np.concatenate([self.cost, cost])
        self.continuous = np.concatenate([self.continuous, kept])

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
            self._integrality(np.flatnonzero(~self.continuous), integer)
            self.integer = integer

    def clear(self) -> None:
        self._check(self.h.clearModel(), "clearModel")
        self.apply_sense()
        self.n_rows = 0
        self.cost = np.zeros(0)
        self.integer = False
        self.continuous = np.zeros(0, dtype=bool)

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
        clock_before = h.getRunTime()
        limit = hs.kHighsInf
        if time_limit is not None:
            # HiGHS 1.x checks time_limit against its run clock, which keeps counting across
            # the runs of one Highs object (ERGO-Code/HiGHS#1331, #1477): without the offset,
            # a cutting-plane loop's later runs would stop at once, "out of time"
            limit = float(time_limit) + (clock_before if self.cumulative_clock else 0.0)
        self._set("time_limit", limit)
        if self.integer and gap_abs is not None:
            self._set("mip_abs_gap", float(gap_abs))
        for name, value in options.items():
            if name in _OPTIONAL_OPTIONS and self.h.setOptionValue(name, value) == self.hs.HighsStatus.kError:
                continue  # an option this (older) HiGHS does not have: its default stays
            self._set(name, value)
        if self.integer:
            # a MIP run would otherwise first try to repair the last LP's fractional solution
            # (a sub-MIP: 7 s of a 70 s pure-noise N = 100 solve) and let that, not our
            # incumbent, be its start
            h.clearSolver()
        begin = time.perf_counter()
        # HiGHS checks its time limit between nodes, and a long dive can overrun it by many
        # seconds (measured: a 25 s limit ending after 47 s on a pure-noise N = 100 MIP); the
        # MIP interrupt callback stops it at the deadline instead
        deadline = None if time_limit is None or not self.integer else begin + float(time_limit)
        uninstall = self._install_callbacks(
            mip_start if self.integer else None, on_dual_bound if self.integer else None, deadline
        )
        try:
            self._run()
        finally:
            uninstall()
        seconds = time.perf_counter() - begin
        if h.getRunTime() < clock_before:  # this HiGHS restarts its clock at each run
            self.cumulative_clock = False
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
                left = None if time_limit is None else max(float(time_limit) - seconds, 1e-3)  # the same budget
                return self.solve(left, None, gap_abs, options, on_dual_bound)
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
        self, start: FloatArray | None, report: Callable[[float], None] | None, deadline: float | None = None
    ) -> Callable[[], None]:
        """MIP start, dual-bound reports and the deadline, through whichever callback API this highspy has.

        The start goes in as a user solution at the MIP's first callback (highspy >= 1.8),
        else through ``setSolution`` (highspy 1.7). Reports come about once a second. Past
        `deadline` (a ``time.perf_counter()`` value) the MIP interrupt callback asks HiGHS to
        stop (status ``kInterrupt``, read as a time limit).
        Returns the function that removes what was installed.
        """
        hs, h = self.hs, self.h
        state = {"given": start is None, "last": 0.0}

        def forward(bound: float) -> None:
            now = time.perf_counter()
            if report is not None and now - state["last"] >= 1.0 and math.isfinite(bound):
                state["last"] = now
                report(float(bound))

        def interrupt(data_out: Any, data_in: Any) -> None:
            if report is not None:
                forward(data_out.mip_dual_bound)
            if deadline is not None and data_in is not None and time.perf_counter() > deadline:
                data_in.user_interrupt = True

        def give(data_in: Any) -> None:
            if not state["given"] and data_in is not None:
                data_in.setSolution(start)
                state["given"] = True

        kinds = getattr(getattr(hs, "cb", None), "HighsCallbackType", None)
        has_user = kinds is not None and hasattr(kinds, "kCallbackMipUserSolution")
        removers: list[Callable[[], None]] = []
        if hasattr(h, "cbMipInterrupt"):  # highspy >= 1.10: event subscriptions
            if report is not None or deadline is not None:

                def on_interrupt(e: Any) -> None:
                    interrupt(e.data_out, e.data_in)

                h.cbMipInterrupt.subscribe(on_interrupt)
                removers.append(lambda: h.cbMipInterrupt.unsubscribe(on_interrupt))
            if start is not None and has_user:

                def on_user(e: Any) -> None:
                    give(e.data_in)

                h.cbMipUserSolution.subscribe(on_user)
                removers.append(lambda: h.cbMipUserSolution.unsubscribe(on_user))
        elif kinds is not None and (report is not None or deadline is not None or (start is not None and has_user)):

            def callback(kind: Any, message: str, data_out: Any, data_in: Any, user_data: Any) -> None:
                if kind == kinds.kCallbackMipInterrupt:
                    interrupt(data_out, data_in)
                elif has_user and kind == kinds.kCallbackMipUserSolution:
                    give(data_in)

            h.setCallback(callback, None)
            wanted = [kinds.kCallbackMipInterrupt] if (report is not None or deadline is not None) else []
            wanted += [kinds.kCallbackMipUserSolution] if (start is not None and has_user) else []
            for kind in wanted:
                h.startCallback(kind)
            def stopper(k: Any) -> Callable[[], None]:
                return lambda: h.stopCallback(k)

            removers.extend(stopper(kind) for kind in wanted)
        if start is not None and not has_user:  # highspy 1.7
            sol = hs.HighsSolution()
            sol.col_value = start.tolist()
            sol.value_valid = True
            self._check(h.setSolution(sol), "setSolution")

        def uninstall() -> None:
            for remove in removers:
                remove()

        return uninstall
