"""Weighted pairwise matrices: how much task weight prefers each system to each other.

``wins[i, j]`` is the total weight of the tasks where system ``i`` scores strictly
better than system ``j``, counting only tasks where both are scored (the R operator
of Rofin et al. 2023, eq. 1). ``ties[i, j]`` is the weight of the tasks where both
are scored and tie, and ``counts[i, j]`` the number of tasks comparing them directly.
So ``wins[i, j] + wins[j, i] + ties[i, j]`` is the weight of the tasks both are scored on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

from .errors import InvalidOptionError, LeaderboardError, UnknownSystemError
from .leaderboard import Leaderboard

__all__ = ["PairwiseMatrix", "pairwise"]

def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64, copy=True)
    array[array == 0] = 0.0  # no -0.0
    array.flags.writeable = False
    return array


@dataclass(frozen=True, slots=True)
class PairwiseMatrix:
    """Pairwise preferences between systems.

    Attributes
    ----------
    systems : tuple of str
        Labels, in the order of the matrix rows.
    wins : ndarray (n, n)
        ``wins[i, j]``: weight of the tasks where ``i`` beats ``j`` (may be fractional
        for imputed matrices, see :func:`consensus.impute_pairwise`).
    ties : ndarray (n, n)
        Weight of the tasks where both are scored and tie (symmetric, zero diagonal).
    counts : ndarray (n, n)
        Number of tasks (or instances) comparing ``i`` and ``j`` directly.
    tie_tol : float
        Two scores within `tie_tol` of each other count as a tie (0: exact).
    source : str
        How the matrix was built ("scores", "imputed", "array").

    Examples
    --------
    >>> p = PairwiseMatrix.from_array([[0, 2], [1, 0]], systems=["a", "b"])
    >>> p.margins.tolist()
    [[0.0, 1.0], [-1.0, 0.0]]
    """

    systems: tuple[str, ...]
    wins: np.ndarray
    ties: np.ndarray
    counts: np.ndarray
    tie_tol: float = 0.0
    source: str = "scores"
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.systems)
        for name in ("wins", "ties", "counts"):
            arr = getattr(self, name)
            if np.shape(arr) != (n, n):
                raise LeaderboardError(f"pairwise {name} must be {n} x {n}, got shape {np.shape(arr)}")
            object.__setattr__(self, name, _frozen(arr))
        self._index.update({s: i for i, s in enumerate(self.systems)})

    @classmethod
    def from_array(
        cls,
        wins: Sequence[Sequence[float]] | np.ndarray,
        *,
        systems: Sequence[str] | None = None,
        ties: np.ndarray | None = None,
        counts: np.ndarray | None = None,
        source: str = "array",
    ) -> PairwiseMatrix:
        """Wrap a raw matrix (e.g. an imputed one). Diagonal must be 0, entries finite and >= 0.

        Parameters
        ----------
        wins : array-like (n, n)
            ``wins[i, j]``: weight of the tasks where system ``i`` beats system ``j``.
        systems : sequence of str, optional
            Labels of the rows (default ``s0``, ``s1``, ...).
        ties : ndarray (n, n), optional
            Tie weights (default zeros); not checked.
        counts : ndarray (n, n), optional
            Number of tasks comparing each pair (default: 1 where
            ``wins + wins.T + ties > 0``, else 0).
        source : str, default="array"
            Recorded in :attr:`source`.

        Returns
        -------
        PairwiseMatrix
            With ``tie_tol`` 0.

        Raises
        ------
        LeaderboardError
            If `wins` is not square, holds a negative or non-finite entry, has a non-zero
            diagonal, or does not match the number of `systems`; or `ties` / `counts`
            have the wrong shape.

        Examples
        --------
        >>> p = PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
        >>> p.systems, p.source, p.counts[0].tolist()
        (('a', 'b', 'c'), 'array', [0.0, 1.0, 1.0])
        """
        wins = np.asarray(wins, dtype=np.float64)
        if wins.ndim != 2 or wins.shape[0] != wins.shape[1]:
            raise LeaderboardError(f"a pairwise matrix must be square, got shape {wins.shape}")
        n = wins.shape[0]
        if not np.all(np.isfinite(wins)) or (wins < 0).any():
            raise LeaderboardError("a pairwise matrix must hold finite, non-negative weights")
        if np.any(np.diag(wins) != 0):
            raise LeaderboardError("a pairwise matrix must have a zero diagonal")
        labels = tuple(systems) if systems is not None else tuple(f"s{i}" for i in range(n))
        if len(labels) != n:
            raise LeaderboardError(f"{len(labels)} system labels for a {n} x {n} matrix")
        ties = np.zeros((n, n)) if ties is None else np.asarray(ties, dtype=np.float64)
        if counts is None:
            counts = ((wins + wins.T + ties) > 0).astype(np.float64)
        return cls(labels, wins, ties, np.asarray(counts, dtype=np.float64), source=source)

    # ------------------------------------------------------------------ views
    @property
    def n_systems(self) -> int:
        """Number of systems (rows)."""
        return len(self.systems)

    @property
    def margins(self) -> np.ndarray:
        """``wins - wins.T``: positive where the row system beats the column system."""
        return self.wins - self.wins.T

    @property
    def compared(self) -> np.ndarray:
        """Weight of the tasks where both systems are scored."""
        return self.wins + self.wins.T + self.ties

    @property
    def preferences(self) -> np.ndarray:
        """``wins + ties / 2``: the Kemeny cost matrix (a tie counts half for each side).

        Placing ``j`` above ``i`` disagrees with ``preferences[i, j]`` units of task weight.
        """
        return self.wins + self.ties / 2.0

    @property
    def tol(self) -> float:
        """Margins within this of 0 are majority ties (guards float sums of weights)."""
        scale = float(self.compared.max()) if self.n_systems else 0.0
        return 1e-9 * max(scale, 1.0)

    def index(self, system: str) -> int:
        """Row of `system`; raises :class:`UnknownSystemError` naming close labels.

        Parameters
        ----------
        system : str
            A system label.

        Returns
        -------
        int
            0-based row (and column) of `system` in the matrices.

        Raises
        ------
        UnknownSystemError
            If `system` is not in :attr:`systems`.

        Examples
        --------
        >>> PairwiseMatrix.from_array([[0, 2], [1, 0]], systems=["a", "b"]).index("b")
        1
        """
        try:
            return self._index[system]
        except KeyError:
            raise UnknownSystemError(system, self.systems) from None

    def to_frame(self, what: Literal["wins", "ties", "counts", "margins", "preferences"] = "wins") -> pd.DataFrame:
        """One of the matrices as a labelled frame.

        Parameters
        ----------
        what : {"wins", "ties", "counts", "margins", "preferences"}, default="wins"
            Which matrix (an attribute or property of the same name).

        Returns
        -------
        pandas.DataFrame
            A copy, systems x systems (row system against column system).

        Raises
        ------
        InvalidOptionError
            If `what` is not one of the five names.

        Examples
        --------
        >>> PairwiseMatrix.from_array([[0, 2], [1, 0]], systems=["a", "b"]).to_frame("margins")
             a    b
        a  0.0  1.0
        b -1.0  0.0
        """
        if what not in {"wins", "ties", "counts", "margins", "preferences"}:
            raise InvalidOptionError(f"unknown matrix {what!r}; use wins, ties, counts, margins or preferences")
        data = getattr(self, what)
        idx = pd.Index(self.systems, dtype=object)
        return pd.DataFrame(np.array(data), index=idx, columns=idx)

    def select(self, systems: Sequence[str]) -> PairwiseMatrix:
        """The sub-matrix of some systems, in the given order.

        Parameters
        ----------
        systems : sequence of str
            Systems to keep (repeats are not checked).

        Returns
        -------
        PairwiseMatrix
            ``wins``, ``ties`` and ``counts`` restricted to `systems`; ``tie_tol`` and
            ``source`` kept.

        Raises
        ------
        UnknownSystemError
            If a name is not a system of the matrix.

        Examples
        --------
        >>> p = PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
        >>> p.select(["c", "a"]).wins.tolist()
        [[0.0, 2.0], [1.0, 0.0]]
        """
        rows = [self.index(s) for s in systems]
        grid = np.ix_(rows, rows)
        return PairwiseMatrix(
            tuple(systems), self.wins[grid], self.ties[grid], self.counts[grid], self.tie_tol, self.source
        )


def pairwise(data: Leaderboard | PairwiseMatrix, *, tie_tol: float = 0.0) -> PairwiseMatrix:
    """The weighted pairwise matrix of a leaderboard.

    Vectorized over all pairs: one outer comparison per task, accumulated in integers
    for the tasks that share a weight; memory is a few n x n arrays.

    Parameters
    ----------
    data : Leaderboard or PairwiseMatrix
        A PairwiseMatrix is returned unchanged.
    tie_tol : float, default=0.0
        Scores within `tie_tol` count as tied (recorded in the result); ignored (and not
        checked) when `data` is a PairwiseMatrix.

    Returns
    -------
    PairwiseMatrix
        ``wins``, ``ties`` (weighted by :attr:`Leaderboard.weights`, not normalized) and
        ``counts`` (unweighted number of tasks both are scored on) over the oriented
        scores, systems in table order, ``source="scores"``. A task where either system is
        missing counts for neither.

    Raises
    ------
    InvalidOptionError
        If `data` is neither a Leaderboard nor a PairwiseMatrix, or `tie_tol` is negative
        or not finite.

    Examples
    --------
    >>> import consensus as cs
    >>> p = pairwise(cs.datasets.load_example("votenrank-toy"))
    >>> p.to_frame("wins").astype(int)
       A  B  C  D
    A  0  2  2  2
    B  3  0  3  3
    C  3  2  0  3
    D  3  2  2  0
    """
    if isinstance(data, PairwiseMatrix):
        return data
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"expected a Leaderboard or PairwiseMatrix, got {type(data).__name__}")
    if not np.isfinite(tie_tol) or tie_tol < 0:
        raise InvalidOptionError(f"tie_tol must be finite and >= 0, got {tie_tol!r}")
    values = data.values
    weights = data.weights.to_numpy()
    n = values.shape[0]
    ok = (~np.isnan(values)).astype(np.float64)
    wins = np.zeros((n, n))
    ties = np.zeros((n, n))
    # Tasks sharing a weight are counted together in integers (fast), then scaled once.
    for w in np.unique(weights):
        cols = np.nonzero(weights == w)[0]
        beat = np.zeros((n, n), dtype=np.int32)
        with np.errstate(invalid="ignore"):
            for j in cols:
                v = values[:, j]
                if tie_tol == 0:
                    beat += np.greater.outer(v, v)  # NaN compares False: missing never wins
                else:
                    beat += np.subtract.outer(v, v) > tie_tol
        both = ok[:, cols] @ ok[:, cols].T  # tasks where both are scored
        wins += w * beat
        ties += w * (both - beat - beat.T)
    counts = ok @ ok.T
    np.fill_diagonal(ties, 0.0)
    np.fill_diagonal(counts, 0.0)
    return PairwiseMatrix(data.systems, wins, ties, counts, float(tie_tol), "scores")
