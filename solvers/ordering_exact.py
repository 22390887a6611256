"""Exact margins for the linear-ordering (Kemeny) problem, and a cost matrix prepared for an exact solve.

Two orders differ only in the pairs they reverse, and reversing ``{i, j}`` changes the cost
by the *margin* ``costs[i, j] - costs[j, i]``. So every comparison of orders is a
comparison of sums of margins, and :func:`exact_margins` gives them exactly: as Python
integers over a common denominator, from exact margins when the caller has them
(:attr:`consensus.PairwiseMatrix.exact_margins`), else from the float entries, each read as
the rational it stands for (:func:`as_rational`), with a margin within ``2**-44`` of the
pair's own ``costs[i, j] + costs[j, i]`` taken for float rounding of a tie
(:func:`solvers.ordering_costs.pair_tol`). :class:`ExactCosts` adds what the solver needs:
the reduced costs (positive margins, so tied weight costs nothing), their scale, and
whether a float MIP can prove optimality on the exact lattice.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .ordering_costs import _as_costs, pair_tol

__all__ = ["MIP_RESOLUTION", "ExactCosts", "as_rational", "exact_margins", "exact_unit", "reduced_costs"]

#: :func:`as_rational` reads a float as a fraction with a denominator up to this.
MAX_DENOMINATOR = 10**6

#: :func:`as_rational` takes a simple fraction this many units in the last place from the float
#: (the rounding of a few operations, as in ``0.1 * 3``); a true margin of 1 + 2**-40 is 4096.
READ_ULPS = 8

_DYADIC_SHIFT = 30  # the fast path: entries that are multiples of 2**-30


def as_rational(x: float) -> Fraction:
    """The rational a float stands for.

    The fraction nearest to `x` with a denominator up to 10**6 when it lies within
    :data:`READ_ULPS` units in the last place of `x` (``0.1`` is 1/10, ``1 / 3`` is 1/3 and
    the computed ``0.1 * 3 == 0.30000000000000004`` is 3/10, so weights 0.1 + 0.2 tie with
    0.3), else the exact binary value of `x` (``1 + 2**-40``, 4096 units from 1, stays
    itself). A float that no simple fraction explains is taken at its exact value.

    Parameters
    ----------
    x : float
        A finite float.

    Returns
    -------
    fractions.Fraction

    Raises
    ------
    ValueError
        `x` is not finite.

    Examples
    --------
    >>> as_rational(0.1), as_rational(1 / 3), as_rational(0.5)
    (Fraction(1, 10), Fraction(1, 3), Fraction(1, 2))
    >>> as_rational(1 + 2**-40) == 1 + Fraction(1, 2**40)
    True
    >>> as_rational(0.1 * 3)
    Fraction(3, 10)
    """
    exact = Fraction(float(x))
    if exact.denominator <= MAX_DENOMINATOR:
        return exact
    near = exact.limit_denominator(MAX_DENOMINATOR)
    return near if abs(near - exact) <= READ_ULPS * Fraction(math.ulp(float(x))) else exact


def _lcm_of_denominators(values: Sequence[Fraction]) -> int:
    return functools.reduce(math.lcm, (v.denominator for v in values), 1)


def exact_margins(
    costs: ArrayLike, *, margins: ArrayLike | None = None, tol: float | None = None
) -> tuple[NDArray[np.object_], int]:
    """The margins ``costs[i, j] - costs[j, i]`` exactly, as Python integers over one denominator.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    margins : array_like (n, n), optional
        The exact margins when the caller knows them (Python or numpy integers,
        :class:`fractions.Fraction`, or floats read with :func:`as_rational`); antisymmetric.
        Then `costs` only fixes the size and `tol` is ignored.
    tol : float, optional
        Without `margins`: a float margin within `tol` of 0 is a tie (exactly 0). Default: per
        pair, ``2**-44 * (costs[i, j] + costs[j, i])`` (float rounding of that pair's sums).
        Every other margin is the difference of the entries read with :func:`as_rational`.

    Returns
    -------
    margins : ndarray (n, n) of Python int (dtype object)
        Antisymmetric, zero diagonal.
    denominator : int
        The exact margin of ``(i, j)`` is ``margins[i, j] / denominator``.

    Raises
    ------
    ValueError
        A malformed matrix, or `margins` of the wrong shape, not antisymmetric or not finite.

    Examples
    --------
    >>> m, d = exact_margins([[0, 0.3], [0.1 + 0.2, 0]])   # float rounding of a tie
    >>> m.tolist(), d
    ([[0, 0], [0, 0]], 1)
    >>> m, d = exact_margins([[0, 1 + 2**-40], [1, 0]])    # a true tiny margin
    >>> int(m[0, 1]), d
    (1, 1099511627776)
    """
    matrix = _as_costs(costs)
    n = matrix.shape[0]
    if margins is not None:
        return _given_margins(margins, n)
    diff = matrix - matrix.T
    tied = np.abs(diff) <= (pair_tol(matrix) if tol is None else float(tol))
    scaled = matrix * 2.0**_DYADIC_SHIFT
    if np.all(scaled == np.round(scaled)) and (np.abs(scaled).max(initial=0.0) < 2.0**61):
        ints = scaled.astype(np.int64)
        result = (ints - ints.T).astype(object)
        result[tied] = 0
        return _reduce(result, 2**_DYADIC_SHIFT)
    read: dict[tuple[int, int], Fraction] = {}
    rows, cols = np.nonzero(np.triu(~tied, 1))
    for i, j in zip(rows.tolist(), cols.tolist()):
        value = as_rational(matrix[i, j]) - as_rational(matrix[j, i])
        if (value > 0) != (diff[i, j] > 0) or value == 0:  # keep the sign the floats decided
            value = Fraction(float(matrix[i, j])) - Fraction(float(matrix[j, i]))
        read[i, j] = value
    denominator = _lcm_of_denominators(read.values())
    result = np.zeros((n, n), dtype=object)
    for (i, j), value in read.items():
        result[i, j] = int(value * denominator)
        result[j, i] = -result[i, j]
    return result, denominator


def _given_margins(margins: ArrayLike, n: int) -> tuple[NDArray[np.object_], int]:
    raw = np.asarray(margins, dtype=object)
    if raw.shape != (n, n):
        raise ValueError(f"margins must be {n} x {n}, got shape {raw.shape}")
    values = [[_exact_value(raw[i, j]) for j in range(n)] for i in range(n)]
    denominator = _lcm_of_denominators([v for row in values for v in row])
    result = np.zeros((n, n), dtype=object)
    for i in range(n):
        for j in range(n):
            if i != j:
                result[i, j] = int(values[i][j] * denominator)
    if np.any(result + result.T != 0):
        raise ValueError("margins must be antisymmetric: margins[i, j] == -margins[j, i]")
    return result, denominator


def _exact_value(x: object) -> Fraction:
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return x
    value = float(x)  # type: ignore[arg-type]
    if not math.isfinite(value):
        raise ValueError(f"margins must be finite, got {x!r}")
    return as_rational(value)


def _reduce(margins: NDArray[np.object_], denominator: int) -> tuple[NDArray[np.object_], int]:
    """Divide integer margins and their denominator by their common factor."""
    g = functools.reduce(math.gcd, margins.ravel().tolist(), denominator)
    if g > 1:
        margins = margins // g
        denominator //= g
    return margins, denominator


def exact_unit(margins: NDArray[np.object_], denominator: int) -> Fraction | None:
    """The exact lattice step of order costs: the gcd of the margins (None when every pair ties).

    Parameters
    ----------
    margins : ndarray of Python int
        Exact margins over `denominator` (:func:`exact_margins`).
    denominator : int

    Returns
    -------
    fractions.Fraction or None

    Examples
    --------
    >>> exact_unit(*exact_margins([[0, 0.6, 0.2], [0.2, 0, 0.6], [0.6, 0.2, 0]]))
    Fraction(2, 5)
    """
    g = functools.reduce(math.gcd, margins.ravel().tolist(), 0)
    return Fraction(g, denominator) if g else None


def reduced_costs(margins: NDArray[np.object_], denominator: int) -> NDArray[np.float64]:
    """``max(margin, 0)`` per pair as floats: the costs beyond each pair's unavoidable part.

    Every order costs ``sum over pairs of min(costs[i, j], costs[j, i])`` plus its cost in
    the reduced matrix, so both have the same optima; ties cost nothing in it, however
    large the tied weight.

    Parameters
    ----------
    margins : ndarray of Python int
        Exact margins over `denominator` (:func:`exact_margins`).
    denominator : int

    Returns
    -------
    ndarray (n, n)
        Each positive margin correctly rounded to a float; 0 elsewhere.

    Examples
    --------
    >>> reduced_costs(*exact_margins([[0, 2, 1], [1, 0, 2], [2, 1, 0]])).tolist()
    [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]]
    """
    n = margins.shape[0]
    out = np.zeros((n, n))
    rows, cols = np.nonzero(margins > 0)
    for i, j in zip(rows.tolist(), cols.tolist()):
        out[i, j] = int(margins[i, j]) / denominator  # Python int division rounds correctly
    return out


#: A float MIP proves lattice optimality only when the lattice step is at least this share of
#: the largest margin (about what HiGHS' tolerances resolve; integer weights up to 10**6 pass).
MIP_RESOLUTION = 1e-6


@dataclass(frozen=True)
class ExactCosts:
    """A cost matrix prepared for an exact solve: exact margins, and scaled reduced costs for the ILP.

    ``reduced`` is :func:`reduced_costs` times ``scale`` (a power of 2, so its largest entry
    lies in [1, 2)); every order costs ``base + (its reduced cost) / scale``.

    Attributes
    ----------
    margins : ndarray of Python int
        Exact margins over `denominator`.
    denominator : int
    reduced : ndarray (n, n)
        Scaled reduced costs (positive margins), what the heuristics and the ILP see.
    scale : float
        Power of 2 multiplying the reduced costs.
    base : float
        The unavoidable cost ``sum over pairs i < j of min(costs[i, j], costs[j, i])``.
    unit : Fraction or None
        Exact lattice step of order costs (cost units); None when every pair ties.
    mip_unit : float or None
        The step in scaled units when a float MIP can prove on it (at least
        :data:`MIP_RESOLUTION`), else None.
    tol : float
        Float tolerance for comparing order costs in scaled units: half the step when
        `mip_unit` is set (comparisons are then exact), else float rounding of a sum of
        ``n**2`` entries.
    """

    margins: NDArray[np.object_]
    denominator: int
    reduced: NDArray[np.float64]
    scale: float
    base: float
    unit: Fraction | None
    mip_unit: float | None
    tol: float

    @classmethod
    def of(cls, matrix: NDArray[np.float64], *, margins: ArrayLike | None = None, tol: float | None = None) -> ExactCosts:
        """Prepare `matrix` (validated costs).

        Parameters
        ----------
        matrix : ndarray (n, n)
            Finite costs with a zero diagonal.
        margins, tol
            As in :func:`exact_margins`.

        Returns
        -------
        ExactCosts

        Examples
        --------
        >>> prep = ExactCosts.of(np.array([[0.0, 2.0, 1.0], [1.0, 0.0, 2.0], [2.0, 1.0, 0.0]]))
        >>> prep.base, prep.unit, prep.mip_unit, prep.reduced.tolist()
        (3.0, Fraction(1, 1), 1.0, [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
        """
        exact, denominator = exact_margins(matrix, margins=margins, tol=tol)
        reduced = reduced_costs(exact, denominator)
        top = float(reduced.max(initial=0.0))
        scale = 1.0 if top == 0 else math.ldexp(1.0, 1 - math.frexp(top)[1])
        reduced = reduced * scale
        iu, ju = np.triu_indices(matrix.shape[0], 1)
        base = float(np.minimum(matrix[iu, ju], matrix[ju, iu]).sum())
        unit = exact_unit(exact, denominator)
        scaled_unit = None if unit is None else float(unit) * scale
        mip_unit = scaled_unit if scaled_unit is not None and scaled_unit >= MIP_RESOLUTION else None
        n = matrix.shape[0]
        float_tol = 0.5 * mip_unit if mip_unit is not None else max(1, n * n) * 2.0**-50
        return cls(exact, denominator, reduced, scale, base, unit, mip_unit, float_tol)

    @property
    def resolved(self) -> bool:
        """Whether a float MIP can prove exact optimality (or every pair ties)."""
        return self.unit is None or self.mip_unit is not None

    @property
    def tie_view(self) -> NDArray[np.float64]:
        """A 0/1 matrix whose margins are the exact majority signs: adjacent swaps of exactly
        tied items (and only those) look free in it, for the enumeration of optima."""
        return (self.margins > 0).astype(np.float64)

    def to_cost(self, reduced_value: float) -> float:
        """A value in scaled reduced units, in cost units.

        Parameters
        ----------
        reduced_value : float
            An order's cost (or a bound) on :attr:`reduced`.

        Returns
        -------
        float
            ``base + reduced_value / scale``.
        """
        return self.base + reduced_value / self.scale

    def block(self, members: Sequence[int]) -> NDArray[np.object_]:
        """The exact margins among `members`.

        Parameters
        ----------
        members : sequence of int
            Item indices.

        Returns
        -------
        ndarray of Python int
            Rows and columns in the order of `members`.
        """
        return self.margins[np.ix_(list(members), list(members))]

    def precision_note(self, sizes: Sequence[int]) -> str:
        """Why ILP components of these sizes are optimal only up to a tolerance.

        Parameters
        ----------
        sizes : sequence of int
            Sizes of the components solved by integer programming.

        Returns
        -------
        str
            One sentence for ``notes``.
        """
        step = "no common step" if self.unit is None else f"a common step of {float(self.unit):.3g}"
        largest = 0.0 if self.scale == 0 else float(self.reduced.max(initial=0.0)) / self.scale
        return (
            f"component(s) of {', '.join(map(str, sizes))} items were solved by floating-point integer "
            f"programming, but their margins have {step} against a largest margin of {largest:.3g} "
            f"(the solver resolves about {MIP_RESOLUTION:g} of it): the ranking is optimal to within "
            "about 1e-9 of the objective, not proven exactly optimal; components of at most 8 items "
            "are enumerated exactly"
        )
