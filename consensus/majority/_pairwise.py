"""Weighted pairwise matrices: how much task weight prefers each system to each other.

``wins[i, j]`` is the total weight of the tasks where system ``i`` scores strictly
better than system ``j``, counting only tasks where both are scored (the R operator
of Rofin et al. 2023, eq. 1). ``ties[i, j]`` is the weight of the tasks where both
are scored and tie, and ``counts[i, j]`` the number of tasks comparing them directly.
So ``wins[i, j] + wins[j, i] + ties[i, j]`` is the weight of the tasks both are scored on.

Majority decisions are exact. The float matrices are sums of weights and can lose a small
weight next to a huge one (1e12 + 1e-12 is 1e12 in floats), so every matrix also carries
its margins ``wins[i, j] - wins[j, i]`` exactly (:attr:`PairwiseMatrix.exact_margins`): from
scores, each task weight read as the rational it stands for
(:func:`solvers.ordering_exact.as_rational`: 0.1 is 1/10, 1/3 is 1/3, other floats their
exact binary value) and summed in integers; for a matrix given as floats, the entries
read the same way, with a margin within ``2**-44`` of the pair's own ``wins[i, j] +
wins[j, i]`` taken as float rounding of a tie. Ties never enter any pair's tolerance.
:attr:`PairwiseMatrix.majority` holds the signs; the majority graph, Condorcet winners,
the majority rules and Kemeny all read them.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Literal

import numpy as np
import pandas as pd

from solvers.ordering_costs import PAIR_RTOL
from solvers.ordering_exact import INT64_BOUND, as_rational, exact_margins

from .._docstrings import fill_doc
from ..arguments import name_list
from ..board._docs import SECTIONS as BOARD_SECTIONS
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, LeaderboardError, UnknownSystemError
from ..io._limits import check_square_matrices

__all__ = ["PairwiseMatrix", "pairwise"]

def _check_cells(name: str, values: object, labels: tuple[str, ...], *, symmetric: bool = False) -> np.ndarray:
    """`values` as an n x n float array of finite, non-negative weights (symmetric, zero
    diagonal when `symmetric`); LeaderboardError naming the argument and the cell otherwise."""
    n = len(labels)
    array = np.asarray(values, dtype=np.float64)
    if array.shape != (n, n):
        raise LeaderboardError(f"from_array: {name} must be {n} x {n} like wins, got shape {array.shape}")

    def cell(i: int, j: int) -> str:
        return f"{name}[{labels[i]!r}, {labels[j]!r}] = {float(array[i, j])!r} (row {i}, column {j})"

    bad = np.argwhere(~np.isfinite(array) | (array < 0))
    if len(bad):
        i, j = (int(x) for x in bad[0])
        raise LeaderboardError(f"from_array: {cell(i, j)}; {name} must hold finite, non-negative weights")
    if symmetric:
        off = np.argwhere((array != array.T) | np.diag(np.diag(array) != 0))
        if len(off):
            i, j = (int(x) for x in off[0])
            what = (
                "must be 0 on the diagonal"
                if i == j
                else f"differs from {name}[{labels[j]!r}, {labels[i]!r}] = {float(array[j, i])!r}"
            )
            raise LeaderboardError(f"from_array: {cell(i, j)} {what}; {name} must be symmetric with a zero diagonal")
    return array


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64, copy=True)
    array[array == 0] = 0.0  # no -0.0
    array.flags.writeable = False
    return array


def _float_signs(wins: np.ndarray) -> np.ndarray:
    """``sign(wins - wins.T)``, 0 within :func:`~solvers.ordering_costs.pair_tol`, in blocks of rows
    (a few N x N float temporaries would be 200 MB each at 5,000 systems)."""
    n = wins.shape[0]
    signs = np.empty((n, n), dtype=np.int8)
    step = max(1, (1 << 20) // max(n, 1))
    for a in range(0, n, step):
        rows, cols = wins[a : a + step], wins[:, a : a + step].T
        diff = rows - cols
        tol = PAIR_RTOL * (np.abs(rows) + np.abs(cols))  # pair_tol, for these rows
        signs[a : a + step] = np.where(np.abs(diff) <= tol, 0, np.sign(diff))
    return signs


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
    weight_scale : float
        The float matrices are in units of the task weights times this: 1.0 unless the
        weights were near the top of the float64 range (then a power of 2 below 1, see
        :func:`pairwise`).

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
    weight_scale: float = 1.0
    _index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    _exact: tuple[np.ndarray, int] | None = field(default=None, repr=False, compare=False)
    _cache: dict[str, object] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        n = len(self.systems)
        for name in ("wins", "ties", "counts"):
            arr = getattr(self, name)
            if np.shape(arr) != (n, n):
                raise LeaderboardError(f"pairwise {name} must be {n} x {n}, got shape {np.shape(arr)}")
            object.__setattr__(self, name, _frozen(arr))
        if not np.all(np.isfinite(self.wins)):
            raise LeaderboardError("pairwise wins must be finite (the weights overflowed float64?)")
        self._index.update({s: i for i, s in enumerate(self.systems)})
        if self._exact is not None:
            exact = self._exact[0]
            signs = (exact > 0).astype(np.int8) - (exact < 0).astype(np.int8)
        else:  # floats: a margin within float rounding of the pair's own wins is a tie
            signs = _float_signs(self.wins)
        np.fill_diagonal(signs, 0)
        signs.flags.writeable = False
        self._cache["majority"] = signs

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
            Tie weights (default zeros): finite, >= 0, symmetric, zero diagonal.
        counts : ndarray (n, n), optional
            Number of tasks comparing each pair (default: 1 where
            ``wins + wins.T + ties > 0``, else 0): finite and >= 0.
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
            diagonal, or does not match the number of `systems`; if `ties` / `counts`
            have the wrong shape or a negative or non-finite entry, or `ties` is not
            symmetric or has a non-zero diagonal. The message names the argument and the
            cell (``ties['a', 'b']``).

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
        labels = tuple(systems) if systems is not None else tuple(f"s{i}" for i in range(n))
        if len(labels) != n:
            raise LeaderboardError(f"{len(labels)} system labels for a {n} x {n} matrix")
        _check_cells("wins", wins, labels)
        if np.any(np.diag(wins) != 0):
            raise LeaderboardError("a pairwise matrix must have a zero diagonal")
        if ties is None:
            ties = np.zeros((n, n))
        else:
            ties = _check_cells("ties", ties, labels, symmetric=True)
        if counts is None:
            counts = ((wins + wins.T + ties) > 0).astype(np.float64)
        else:
            counts = _check_cells("counts", counts, labels)
        return cls(labels, wins, ties, counts, source=source)

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
    def majority(self) -> np.ndarray:
        """Exact majority signs: ``1`` where the row system beats the column system, ``-1``
        where it loses, ``0`` for a majority tie (and the diagonal); int8, read-only.

        The sign of the exact margin (:attr:`exact_margins`), never a float comparison against
        a tolerance scaled by other pairs: a huge tied task cannot hide a small margin.

        Examples
        --------
        >>> PairwiseMatrix.from_array([[0, 2], [1, 0]]).majority.tolist()
        [[0, 1], [-1, 0]]
        """
        return self._cache["majority"]  # type: ignore[return-value]

    @property
    def exact_margins(self) -> np.ndarray:
        """``wins - wins.T`` exactly, as :class:`fractions.Fraction` (an object array).

        From scores: the sums of the task weights read as rationals
        (:func:`solvers.ordering_exact.as_rational`), tied tasks cancelling exactly. For a
        matrix given as floats: the entries read the same way, a margin within float
        rounding of the pair's own ``wins[i, j] + wins[j, i]`` being 0. The signs are
        :attr:`majority`; :func:`consensus.kemeny` optimizes on the same values, kept as
        integers over one denominator (int64 when they fit), without building Fractions.

        Examples
        --------
        >>> p = PairwiseMatrix.from_array([[0, 0.3], [0.1, 0]])
        >>> p.exact_margins[0, 1]
        Fraction(1, 5)
        """
        cached = self._cache.get("exact_margins")
        if cached is None:
            ints, denominator = self._exact_ints()
            # one Fraction per distinct value (unit weights give at most 2 * n_tasks + 1 values)
            low, high = (int(ints.min()), int(ints.max())) if ints.size else (0, 0)
            if ints.dtype != object and high - low <= 2**16:  # a table indexed by value
                distinct, inverse = np.arange(low, high + 1), ints - low
            else:
                distinct, inverse = np.unique(ints, return_inverse=True)
            fractions = np.empty(len(distinct), dtype=object)
            fractions[:] = [Fraction(int(v), denominator) for v in distinct.tolist()]
            cached = fractions[inverse.ravel()].reshape(ints.shape)
            cached.flags.writeable = False
            self._cache["exact_margins"] = cached
        return cached  # type: ignore[return-value]

    def _exact_ints(self) -> tuple[np.ndarray, int]:
        """Exact margins as integers over one denominator: int64 when they fit below 2**62,
        else Python ints (dtype object); read-only. What :func:`consensus.kemeny` passes to the
        solver (``margins=``), with no n**2 Fractions."""
        cached = self._cache.get("exact_ints")
        if cached is None:
            if self._exact is not None:
                ints, denominator = self._exact
            else:
                ints, denominator = exact_margins(self.wins)  # per-pair rounding of ties, as `majority`
                ints[self.majority == 0] = 0
            ints = ints.view()
            ints.flags.writeable = False
            cached = self._cache["exact_ints"] = (ints, denominator)
        return cached  # type: ignore[return-value]

    @property
    def tol(self) -> float:
        """The largest float margin of a majority-tied pair (0.0 when ties are exact).

        Kept for code comparing the float :attr:`margins`: ``margins > tol`` reproduces
        :attr:`majority` unless a decided margin is smaller than float rounding elsewhere.
        Majority decisions use :attr:`majority` (exact), not this.
        """
        tied = self.majority == 0
        return float(np.abs(self.margins)[tied].max(initial=0.0))

    @fill_doc(BOARD_SECTIONS)
    def index(self, system: str) -> int:
        """Row of `system`; raises :class:`UnknownSystemError` naming close labels.

        Parameters
        ----------
        {system}

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
            Systems to keep, each at most once.

        Returns
        -------
        PairwiseMatrix
            ``wins``, ``ties`` and ``counts`` restricted to `systems`; ``tie_tol`` and
            ``source`` kept.

        Raises
        ------
        UnknownSystemError
            If a name is not a system of the matrix.
        InvalidOptionError
            If `systems` names a system twice, or is not a list of names.

        Examples
        --------
        >>> p = PairwiseMatrix.from_array([[0, 2, 1], [1, 0, 2], [2, 1, 0]], systems=["a", "b", "c"])
        >>> p.select(["c", "a"]).wins.tolist()
        [[0.0, 2.0], [1.0, 0.0]]
        """
        systems = name_list(systems, "systems", kind="system names")
        rows = [self.index(s) for s in systems]
        repeated = sorted({s for k, s in enumerate(systems) if rows.index(rows[k]) != k})
        if repeated:
            shown = ", ".join(map(repr, repeated))
            raise InvalidOptionError(f"systems lists {shown} more than once; name each system once")
        grid = np.ix_(rows, rows)
        exact = None if self._exact is None else (self._exact[0][grid], self._exact[1])
        return PairwiseMatrix(
            tuple(systems), self.wins[grid], self.ties[grid], self.counts[grid], self.tie_tol, self.source,
            self.weight_scale, _exact=exact,
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
        missing counts for neither. The margins are also summed exactly
        (:attr:`PairwiseMatrix.exact_margins`, :attr:`PairwiseMatrix.majority`).

    Notes
    -----
    Weights so large that a sum of them could overflow float64 (a total over about 2**1000,
    e.g. weights of 1e308) are divided by a power of two first, in the float matrices and
    the exact margins alike: the majority relation and the Kemeny ranking are scale-free,
    and every number of the matrix is then in those units (the ratios are unchanged).

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
    return data._memoized(("pairwise", float(tie_tol)), lambda: _count_pairs(data, float(tie_tol)))


def _count_pairs(
    data: Leaderboard, tie_tol: float, beats: Callable[[int], np.ndarray] | None = None, source: str = "scores"
) -> PairwiseMatrix:
    """:func:`pairwise` of a checked leaderboard (computed once per board and `tie_tol`).

    `beats(j)`, when given, replaces the comparison of task ``j``'s scores: a bool n x n array,
    ``[a, b]`` where ``a`` beats ``b`` (only where both are scored); pairs scored on the task
    that neither beats count as tied (:func:`consensus.noise.significance_pairwise`)."""
    values = data.values
    weights = data.weight_array
    n = values.shape[0]
    check_square_matrices(n, "pairwise", "the pairwise comparison")
    ok = (~np.isnan(values)).astype(np.float64)
    wins = np.zeros((n, n))
    ties = np.zeros((n, n))
    shift = _overflow_shift(weights, n)
    exact = _ExactSum(weights)
    # Tasks sharing a weight are counted together in integers (fast), then scaled once.
    for w in np.unique(weights):
        cols = np.nonzero(weights == w)[0]
        beat = np.zeros((n, n), dtype=np.int32)
        with np.errstate(invalid="ignore"):
            for j in cols:
                v = np.ascontiguousarray(values[:, j])  # a strided column makes outer() ~10x slower
                if beats is not None:
                    scored = ~np.isnan(v)
                    beat += beats(int(j)) & scored[:, None] & scored[None, :]
                elif tie_tol == 0:
                    beat += np.greater.outer(v, v)  # NaN compares False: missing never wins
                else:
                    beat += np.subtract.outer(v, v) > tie_tol
        both = ok[:, cols] @ ok[:, cols].T  # tasks where both are scored
        scaled = math.ldexp(float(w), -shift)
        wins += scaled * beat
        ties += scaled * (both - _with_transpose(np.add, beat))  # exact small integers either way
        exact.add(float(w), beat)
    counts = ok @ ok.T
    np.fill_diagonal(ties, 0.0)
    np.fill_diagonal(counts, 0.0)
    margins, denominator = exact.result()
    return PairwiseMatrix(
        data.systems, wins, ties, counts, float(tie_tol), source, math.ldexp(1.0, -shift),
        _exact=(margins, denominator << shift),
    )


def _overflow_shift(weights: np.ndarray, n: int) -> int:
    """k such that sums of ``weights * 2**-k`` over tasks and pairs stay far below float64's
    largest value (0 unless the weights are near it)."""
    top = float(weights.max(initial=0.0))
    if top == 0:
        return 0
    exponent = math.frexp(top)[1] + (len(weights) * max(n, 1) ** 2).bit_length()
    return max(0, exponent - 1000)


_TILE = 256


def _with_transpose(op: np.ufunc, a: np.ndarray) -> np.ndarray:
    """``op(a, a.T)`` tile by tile (a whole strided transpose is about 3x slower at n = 2,000)."""
    out = np.empty_like(a)
    n = a.shape[0]
    for i in range(0, n, _TILE):
        for j in range(0, n, _TILE):
            op(a[i : i + _TILE, j : j + _TILE], a[j : j + _TILE, i : i + _TILE].T, out=out[i : i + _TILE, j : j + _TILE])
    return out


class _ExactSum:
    """Exact margins ``sum_t w_t (beat_t - beat_t.T)`` in integers: every weight read as a
    rational (:func:`as_rational`) over one common denominator.

    In one int64 array when the integer weights sum to less than 2**62 (then no partial sum
    can overflow; equal, integer and simple rational weights), else in 31-bit limbs (int64
    arrays), recombined into Python ints once.
    """

    _LIMB = 31

    def __init__(self, weights: np.ndarray) -> None:
        distinct, counts = np.unique(weights, return_counts=True)
        self.rational = {w: as_rational(w) for w in distinct.tolist()}
        self.denominator = functools.reduce(math.lcm, (r.denominator for r in self.rational.values()), 1)
        self.numerators = {w: int(r * self.denominator) for w, r in self.rational.items()}
        total = sum(abs(self.numerators[w]) * c for w, c in zip(distinct.tolist(), counts.tolist()))
        self.wide = total >= INT64_BOUND
        largest = max(self.numerators.values(), default=0)
        self.n_limbs = max(1, -(-largest.bit_length() // self._LIMB)) if self.wide else 1
        self.limbs: list[np.ndarray] = []

    def add(self, weight: float, beat: np.ndarray) -> None:
        """Add the tasks of one `weight` (`beat[i, j]`: how many of them ``i`` wins over ``j``).

        Only ``sum_t w_t beat_t`` is accumulated (no transpose per weight); :meth:`result`
        subtracts its transpose once.
        """
        numerator = self.numerators[weight]
        # int64 before any product: numpy 1.x casts np.int64(small) * int32 array to int32
        beat = beat.astype(np.int64, copy=False)
        if not self.limbs:
            self.limbs = [np.zeros(beat.shape, dtype=np.int64) for _ in range(self.n_limbs)]
        if not self.wide:  # entries stay within the sum of |numerators| over the tasks < 2**62
            if numerator:
                self.limbs[0] += np.int64(numerator) * beat
            return
        for k in range(self.n_limbs):
            part = (numerator >> (self._LIMB * k)) & ((1 << self._LIMB) - 1)
            if part:
                self.limbs[k] += np.int64(part) * beat  # < 2**31 * n_tasks: no int64 overflow

    def result(self) -> tuple[np.ndarray, int]:
        """The exact margins (int64, or Python ints when they may not fit) and their denominator."""
        if not self.limbs:
            return np.zeros((0, 0), dtype=np.int64), 1
        if not self.wide:  # entries in [0, 2**62): the difference cannot overflow
            return _with_transpose(np.subtract, self.limbs[0]), self.denominator
        total = self.limbs[0].astype(object)
        for k in range(1, self.n_limbs):
            if self.limbs[k].any():
                total = total + self.limbs[k].astype(object) * (1 << (self._LIMB * k))
        return total - total.T, self.denominator
