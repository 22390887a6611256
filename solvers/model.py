"""One thin model layer for every LP and MIP of the package: HiGHS (highspy) or a pulp solver.

A :class:`LinearModel` holds columns (bounds, costs, integrality) and rows
``lower <= A x <= upper`` given as numpy arrays, and solves them with one of two back-ends:

- ``"highs"`` (the default, :mod:`solvers.model_highs`): a live ``highspy.Highs`` object,
  changed in place. Rows can be added and deleted between solves and each solve
  warm-starts from the last basis, which is what the Kemeny cutting-plane loop and the
  lazy rival rows of the weight LPs need. The thread policy (:data:`THREADS`) is
  described there.
- any other name (``"cbc"``, ``"glpk"``, ...; :mod:`solvers.model_pulp`): a pulp problem
  rebuilt from the arrays at each solve, through the few pulp calls that PuLP 3.3 and
  PuLP 4 share. PuLP 4 ships no CBC; :func:`solvers.backends.make_solver` says how to get
  one.

This module checks the arrays and hands them on; :data:`THREADS`, :func:`new_highs`,
:func:`highs_version`, :func:`pulp_status` and :class:`ModelSolution` are importable from
here too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .backends import backend_name
from .model_highs import THREADS, _HighsImpl, highs_version, new_highs
from .model_pulp import _PulpImpl, pulp_status
from .status import ModelSolution, SolveStatus

__all__ = ["THREADS", "LinearModel", "ModelSolution", "dense_rows", "highs_version", "new_highs", "pulp_status"]

FloatArray = NDArray[np.float64]
Sense = Literal["min", "max"]


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


def _check_sense(sense: str) -> None:
    if sense not in ("min", "max"):
        raise ValueError(f"sense must be 'min' or 'max', got {sense!r}")


def dense_rows(matrix: ArrayLike) -> tuple[NDArray[np.int32], NDArray[np.int32], FloatArray]:
    """A dense block of rows in compressed-row form: its nonzeros, row by row.

    Parameters
    ----------
    matrix : array_like (n_rows, n_cols)
        The rows; a 1-d array is one row.

    Returns
    -------
    starts : ndarray of int32 (n_rows,)
        Position in `index` and `value` of each row's first nonzero.
    index : ndarray of int32
        Column of each nonzero.
    value : ndarray of float64
        The nonzeros.

    Examples
    --------
    >>> starts, index, value = dense_rows([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]])
    >>> starts.tolist(), index.tolist(), value.tolist()
    ([0, 2], [0, 2, 1], [1.0, 2.0, 3.0])
    """
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
    sense : {"min", "max"}, default="min"
        Minimize or maximize.
    verbose : bool, default=False
        Show the solver's log.
    threads : int, optional
        HiGHS threads; None keeps :data:`THREADS` (see :mod:`solvers.model_highs`). Passed
        on to pulp solvers that take it.

    Raises
    ------
    ValueError
        `sense` is neither ``"min"`` nor ``"max"``.
    SolverUnavailableError
        `backend` is unknown (or, for HiGHS, highspy is missing).

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
        _check_sense(sense)
        self.backend = backend
        self.sense: Sense = sense
        self.verbose = bool(verbose)
        self.threads = threads
        self.is_highs = backend_name(backend) == "HiGHS"
        self._impl: _HighsImpl | _PulpImpl = _HighsImpl(self) if self.is_highs else _PulpImpl(self)
        self._pending: list[tuple[float, float, float, bool]] = []  # columns of add_column not yet sent

    def _sync(self) -> None:
        """Send the columns of :meth:`add_column` to the back-end in one call."""
        if not self._pending:
            return
        lower, upper, cost, kept = (np.array(part) for part in zip(*self._pending))
        self._impl.add_columns(lower, upper, cost, kept.astype(bool))
        self._pending = []  # only once the back-end has them (a failed call keeps them, and says so)

    # ---- structure
    @property
    def n_cols(self) -> int:
        """Number of columns (variables) in the model."""
        return self._impl.n_cols + len(self._pending)

    @property
    def n_rows(self) -> int:
        """Number of rows (constraints) in the model."""
        return self._impl.n_rows

    def add_columns(self, lower: ArrayLike, upper: ArrayLike, cost: ArrayLike, *, continuous: bool = False) -> None:
        """Append columns.

        Parameters
        ----------
        lower, upper : array_like (k,)
            Column bounds; ``-inf`` / ``+inf`` for none.
        cost : array_like (k,)
            Objective coefficients; their number sets `k`.
        continuous : bool, default=False
            Keep these columns continuous in a MIP (:meth:`set_integer`): a margin or a
            weighted score beside the integer columns.

        Raises
        ------
        ValueError
            `lower` or `upper` does not hold `k` values.

        Examples
        --------
        >>> m = LinearModel()
        >>> m.add_columns([0.0, 0.0], [1.0, np.inf], [1.0, -1.0])
        >>> m.n_cols
        2
        """
        cost = np.asarray(cost, dtype=np.float64).reshape(-1)
        n = cost.shape[0]
        self._sync()
        self._impl.add_columns(_as_f64(lower, n, "lower"), _as_f64(upper, n, "upper"), cost, bool(continuous))

    def add_column(self, lower: float, upper: float, cost: float = 0.0, *, continuous: bool = False) -> int:
        """Append one column and return its index; the back-end gets it with the next call that needs it.

        A model built one variable at a time (the completion programs: tens of thousands of
        columns) would otherwise pay one back-end call per column.

        Parameters
        ----------
        lower, upper : float
            Bounds; ``-inf`` / ``+inf`` for none.
        cost : float, default=0.0
            Objective coefficient.
        continuous : bool, default=False
            As in :meth:`add_columns`.

        Returns
        -------
        int
            The column's index.

        Examples
        --------
        >>> m = LinearModel()
        >>> [m.add_column(0.0, 1.0), m.add_column(0.0, np.inf, 1.0, continuous=True)]
        [0, 1]
        >>> m.n_cols
        2
        """
        self._pending.append((float(lower), float(upper), float(cost), bool(continuous)))
        return self.n_cols - 1

    def add_rows(self, lower: ArrayLike, upper: ArrayLike, starts: ArrayLike, index: ArrayLike, value: ArrayLike) -> None:
        """Append rows ``lower <= A x <= upper``, ``A`` in compressed-row form (see :func:`dense_rows`).

        Parameters
        ----------
        lower, upper : array_like (k,)
            Row bounds; ``-inf`` / ``+inf`` for an open side. No rows: nothing happens.
        starts : array_like of int (k,)
            Position in `index` and `value` of each row's first nonzero.
        index : array_like of int
            Column of each nonzero.
        value : array_like of float
            The nonzeros; finite.

        Raises
        ------
        ValueError
            The arrays do not fit together, or a coefficient is not finite.

        Examples
        --------
        >>> m = LinearModel()
        >>> m.add_columns([0.0, 0.0], [1.0, 1.0], [1.0, 1.0])
        >>> m.add_rows([1.0], [np.inf], *dense_rows([[1.0, 1.0]]))    # x0 + x1 >= 1
        >>> m.n_rows
        1
        """
        lower = np.asarray(lower, dtype=np.float64).reshape(-1)
        n = lower.shape[0]
        if n == 0:
            return
        upper = _as_f64(upper, n, "upper")
        self._sync()
        self._impl.add_rows(lower, upper, *_csr(starts, index, value, n))

    def delete_rows(self, rows: ArrayLike) -> None:
        """Delete rows; later rows move up.

        Parameters
        ----------
        rows : array_like of int
            Positions of the rows to delete (repeats are ignored).

        Examples
        --------
        >>> m = LinearModel()
        >>> m.add_columns([0.0], [1.0], [1.0])
        >>> m.add_rows([0.0, 0.5], [1.0, 1.0], *dense_rows([[1.0], [1.0]]))
        >>> m.delete_rows([0, 0])
        >>> m.n_rows
        1
        """
        idx = np.unique(np.asarray(rows, dtype=np.int64))
        if len(idx):
            self._sync()
            self._impl.delete_rows(idx)

    def set_sense(self, sense: Sense) -> None:
        """Minimize or maximize from now on.

        Parameters
        ----------
        sense : {"min", "max"}

        Raises
        ------
        ValueError
            `sense` is neither ``"min"`` nor ``"max"``.
        """
        _check_sense(sense)
        self.sense = sense
        self._impl.apply_sense()

    def set_integer(self, integer: bool) -> None:
        """Make every column integer or continuous.

        Parameters
        ----------
        integer : bool
            True: a MIP (columns added later are integer too), except the columns added with
            ``continuous=True``; False: an LP.
        """
        self._sync()
        self._impl.set_integer(bool(integer))

    def forget_basis(self) -> None:
        """Make the next solve start from scratch instead of warm from the last basis."""
        self._impl.forget_basis()

    def clear(self) -> None:
        """Remove every column and row (the back-end object is kept)."""
        self._pending = []
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
            Seconds for this solve; zero or less returns ``NOT_SOLVED`` at once.
        mip_start : array, optional
            A feasible point handed to the MIP solver as its first incumbent.
        gap_abs : float, optional
            Absolute MIP gap at which the solver may stop and report optimal.
        highs_options : mapping, optional
            Extra HiGHS options (ignored by pulp back-ends).
        on_dual_bound : callable, optional
            Called with the MIP's dual bound during the search (HiGHS only; at most once a
            second).

        Returns
        -------
        ModelSolution
            Status, point, row duals (LPs), objective, the MIP's dual bound and timing.

        Raises
        ------
        SolverError
            The solver failed (its own reason in the message).
        ValueError
            `mip_start` does not hold one value per column.

        Examples
        --------
        >>> m = LinearModel()
        >>> m.add_columns([0.0], [np.inf], [1.0])
        >>> m.add_rows([2.0], [np.inf], *dense_rows([[1.0]]))       # min x s.t. x >= 2
        >>> sol = m.solve()
        >>> sol.status.value, sol.objective, sol.row_duals.tolist()
        ('optimal', 2.0, [1.0])
        """
        if time_limit is not None and not time_limit > 0:
            return ModelSolution(SolveStatus.NOT_SOLVED, None, None, None, None, 0.0, "no time left", True)
        self._sync()
        start = None if mip_start is None else _as_f64(mip_start, self.n_cols, "mip_start")
        return self._impl.solve(time_limit, start, gap_abs, dict(highs_options or {}), on_dual_bound)
