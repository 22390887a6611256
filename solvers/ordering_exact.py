"""Exact margins for the linear-ordering (Kemeny) problem, and a cost matrix prepared for an exact solve.

Two orders differ only in the pairs they reverse, and reversing ``{i, j}`` changes the cost
by the *margin* ``costs[i, j] - costs[j, i]``. So every comparison of orders is a
comparison of sums of margins, and :func:`exact_margins` gives them exactly: as integers
over a common denominator, from exact margins when the caller has them (a ``(numerators,
denominator)`` pair as :mod:`consensus.pairwise` keeps them, or
:attr:`consensus.PairwiseMatrix.exact_margins`), else from the float entries, each read as
the rational it stands for (:func:`as_rational`), with a margin within ``2**-44`` of the
pair's own ``costs[i, j] + costs[j, i]`` taken for float rounding of a tie
(:func:`solvers.ordering_costs.pair_tol`). :class:`ExactCosts` adds what the solver needs:
the reduced costs (positive margins, so tied weight costs nothing), their scale, and
whether a float MIP can prove optimality on the exact lattice.

Representation. The integers are an int64 numpy array (the denominator a Python int)
whenever every one of them is below :data:`INT64_BOUND` = 2**62 in magnitude, so that a sum
or difference of two cannot overflow; everything here is then vectorized numpy, reading
floats included (:func:`as_rational` by continued fractions in int64). Only values that do
not fit (weights from 1e-12 to 1e12 have a common denominator of 2**80 or more; so do float
matrices whose entries read as fractions with many different denominators, e.g. imputed
ones) fall back to Python ints in an object array, with the same results.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeGuard

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .ordering_costs import _as_costs, pair_tol

__all__ = ["MIP_RESOLUTION", "ExactCosts", "as_rational", "exact_margins", "exact_unit", "reduced_costs"]

#: :func:`as_rational` reads a float as a fraction with a denominator up to this.
MAX_DENOMINATOR = 10**6

#: :func:`as_rational` takes a simple fraction this many units in the last place from the float
#: (the rounding of a few operations, as in ``0.1 * 3``); a true margin of 1 + 2**-40 is 4096.
READ_ULPS = 8


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


#: Exact margins are kept in int64 while every value is below this, so that the sum or
#: difference of two of them (antisymmetry checks, ``x - x.T``) cannot overflow.
INT64_BOUND = 2**62

_ENTRY_BOUND = 2**61  # entries whose differences become margins: |difference| < INT64_BOUND
_FLOAT_INT = 2**53  # integers below this are floats exactly
# Floats with a denominator up to 2**19 <= MAX_DENOMINATOR < 2**20 are read as they are.
_READ_SHIFT = 19
# Magnitudes in [2**-10, 2**9) have an ulp u in [2**-62, 2**-44]; then READ_ULPS * u <= 2**-41
# is below 1 / (2 * MAX_DENOMINATOR**2) (Legendre: a fraction that close is a convergent)
# and half of 1 / MAX_DENOMINATOR**2 (no two such fractions are that close to one float).
_CF_LOW, _CF_HIGH = 2.0**-10, 2.0**9

ExactPair = tuple[NDArray[np.int64] | NDArray[np.object_], int]
#: A ``(numerators, denominator)`` pair as given: any integer dtype (or Python ints).
GivenPair = tuple[NDArray[np.integer] | NDArray[np.object_], int]


def _common_denominator(denominators: NDArray[np.int64]) -> int | None:
    """The lcm of positive int64 denominators, or None from :data:`INT64_BOUND` on. Each
    round at least doubles it, so there are at most 62 (vectorized) rounds, and no sort."""
    common, rest = 1, denominators.ravel()
    while True:
        rest = rest[common % rest != 0]
        if rest.size == 0:
            return common
        common = math.lcm(common, int(rest[0]))
        if common >= INT64_BOUND:
            return None


def _read_by_convergents(a: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """:func:`as_rational` of positive floats in ``[2**-10, 2**9)`` that are not multiples of 2**-19.

    ``a = whole + F / D`` with ``D = 1 / ulp(a)``, all in int64. A fraction with a denominator
    up to 10**6 within :data:`READ_ULPS` ulps of `a` is then unique and a convergent of
    ``F / D`` (see ``_CF_LOW``), hence the last convergent ``h / k`` with ``k <= 10**6``; it is
    that close iff the Euclidean remainder ``|k F - h D|`` is at most ``READ_ULPS * k``.
    """
    exponent = np.frexp(a)[1] - 1  # a in [2**e, 2**(e + 1))
    shift = (52 - exponent).astype(np.int64)  # ulp(a) = 2**-shift, shift in [44, 62]
    whole = np.floor(a)
    denominator = np.left_shift(np.int64(1), shift)
    exact = np.ldexp(a, shift).astype(np.int64)  # a = exact / denominator, exact < 2**53
    h, h_prev = np.zeros_like(exact), np.ones_like(exact)  # convergents h / k of F / D, from 0 / 1
    k, k_prev = np.ones_like(exact), np.zeros_like(exact)
    num, rem = denominator.copy(), np.ldexp(a - whole, shift).astype(np.int64)  # (D, F): F > 0
    active = np.arange(a.size)
    while active.size:
        q = num[active] // rem[active]
        grow = q <= (MAX_DENOMINATOR - k_prev[active]) // k[active]  # the next k stays <= 10**6
        go, q = active[grow], q[grow]
        h[go], h_prev[go] = q * h[go] + h_prev[go], h[go]
        k[go], k_prev[go] = q * k[go] + k_prev[go], k[go]
        num[go], rem[go] = rem[go], num[go] - q * rem[go]
        active = go[rem[go] > 0]
    near = rem <= READ_ULPS * k
    g = np.gcd(exact, denominator)
    numerators = np.where(near, whole.astype(np.int64) * k + h, exact // g)
    return numerators, np.where(near, k, denominator // g)


def _read_floats(values: NDArray[np.float64]) -> tuple[NDArray[np.int64], NDArray[np.int64]] | None:
    """:func:`as_rational` of every (finite) entry: int64 numerators and positive denominators,
    or None when one of them reaches :data:`INT64_BOUND`. Vectorized but for the magnitudes
    outside ``[2**-10, 2**9)`` that are neither integers nor multiples of 2**-19 (one
    :func:`as_rational` per distinct value)."""
    x = np.asarray(values, dtype=np.float64).ravel()
    a = np.abs(x)
    num = np.zeros(x.shape, dtype=np.int64)
    den = np.ones(x.shape, dtype=np.int64)
    integer = (a == np.floor(a)) & (a < INT64_BOUND)
    num[integer] = a[integer].astype(np.int64)
    with np.errstate(over="ignore"):
        scaled = a * 2.0**_READ_SHIFT  # inf from 2**1005 on: not dyadic below
    dyadic = ~integer & (scaled == np.floor(scaled)) & (scaled < INT64_BOUND)  # denominators 2..2**19
    top = np.int64(1) << _READ_SHIFT
    ints = scaled[dyadic].astype(np.int64)
    g = np.gcd(ints, top)
    num[dyadic], den[dyadic] = ints // g, top // g
    rest = ~(integer | dyadic)
    middle = rest & (a >= _CF_LOW) & (a < _CF_HIGH)
    if middle.any():
        num[middle], den[middle] = _read_by_convergents(a[middle])
    rest &= ~middle
    if rest.any():
        distinct, inverse = np.unique(a[rest], return_inverse=True)
        read = [as_rational(v) for v in distinct.tolist()]
        if any(r.numerator >= INT64_BOUND or r.denominator >= INT64_BOUND for r in read):
            return None
        num[rest] = np.array([r.numerator for r in read], dtype=np.int64)[inverse.ravel()]
        den[rest] = np.array([r.denominator for r in read], dtype=np.int64)[inverse.ravel()]
    return np.where(x < 0, -num, num).reshape(np.shape(values)), den.reshape(np.shape(values))


def exact_margins(
    costs: ArrayLike, *, margins: ArrayLike | GivenPair | None = None, tol: float | None = None
) -> ExactPair:
    """The margins ``costs[i, j] - costs[j, i]`` exactly, as integers over one denominator.

    Parameters
    ----------
    costs : array_like (n, n)
        ``costs[i, j]`` is paid when ``j`` is placed above ``i``.
    margins : array_like (n, n) or (ndarray, int), optional
        The exact margins when the caller knows them: an antisymmetric matrix (Python or
        numpy integers, :class:`fractions.Fraction`, or floats read with
        :func:`as_rational`), or a pair ``(numerators, denominator)`` of an integer matrix
        and a positive int (as returned here). Then `costs` only fixes the size and `tol`
        is ignored.
    tol : float, optional
        Without `margins`: a float margin within `tol` of 0 is a tie (exactly 0). Default: per
        pair, ``2**-44 * (costs[i, j] + costs[j, i])`` (float rounding of that pair's sums).
        Every other margin is the difference of the entries read with :func:`as_rational`.

    Returns
    -------
    margins : ndarray (n, n)
        Antisymmetric, zero diagonal: int64 when every value is below :data:`INT64_BOUND`,
        else Python ints (dtype object).
    denominator : int
        The exact margin of ``(i, j)`` is ``margins[i, j] / denominator``; margins and
        denominator have no common factor.

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
    >>> int(m[0, 1]), d, m.dtype
    (1, 1099511627776, dtype('int64'))
    >>> m, d = exact_margins([[0, 1e12 + 1], [1e-12, 0]])  # beyond int64: Python ints
    >>> m.dtype, d == 2**92
    (dtype('O'), True)
    """
    matrix = _as_costs(costs)
    n = matrix.shape[0]
    if margins is not None:
        return _given_margins(margins, n)
    diff = matrix - matrix.T
    tied = np.abs(diff) <= (pair_tol(matrix) if tol is None else float(tol))
    np.fill_diagonal(tied, True)
    fast = _float_margins(matrix, diff, tied)
    if fast is not None:
        return _reduce(*fast)
    read: dict[tuple[int, int], Fraction] = {}
    rows, cols = np.nonzero(np.triu(~tied, 1))
    for i, j in zip(rows.tolist(), cols.tolist()):
        value = as_rational(matrix[i, j]) - as_rational(matrix[j, i])
        if (value > 0) != (diff[i, j] > 0) or value == 0:  # keep the sign the floats decided
            value = Fraction(float(matrix[i, j])) - Fraction(float(matrix[j, i]))
        read[i, j] = value
    denominator = functools.reduce(math.lcm, (v.denominator for v in read.values()), 1)
    result = np.zeros((n, n), dtype=object)
    for (i, j), value in read.items():
        result[i, j] = int(value * denominator)
        result[j, i] = -result[i, j]
    return _reduce(result, denominator)


def _float_margins(
    matrix: NDArray[np.float64], diff: NDArray[np.float64], tied: NDArray[np.bool_]
) -> tuple[NDArray[np.int64], int] | None:
    """:func:`exact_margins` from floats in int64 (entries read by :func:`_read_floats`), or
    None when a value would reach :data:`INT64_BOUND`."""
    n = matrix.shape[0]
    used = ~tied  # symmetric, off the diagonal
    read = _read_floats(matrix[used])
    common = None if read is None else _common_denominator(read[1])
    if read is None or common is None:
        return None
    num, scale = read[0], common // read[1]
    if np.any(np.abs(num) > (_ENTRY_BOUND - 1) // scale):
        return None
    entries = np.zeros((n, n), dtype=np.int64)
    entries[used] = num * scale
    result = entries - entries.T  # 0 on tied pairs and the diagonal
    wrong = np.triu(used, 1) & ((result == 0) | ((result > 0) != (diff > 0)))
    if not wrong.any():
        return result, common
    # the reading lost the sign the floats decided: the exact binary difference (a power-of-2 denominator)
    rows, cols = np.nonzero(wrong)
    fixes = [Fraction(float(matrix[i, j])) - Fraction(float(matrix[j, i])) for i, j in zip(rows.tolist(), cols.tolist())]
    wider = functools.reduce(math.lcm, (f.denominator for f in fixes), common)
    if wider >= INT64_BOUND:
        return None
    factor = wider // common
    values = [int(f * wider) for f in fixes]
    if int(np.abs(result).max(initial=0)) * factor >= INT64_BOUND or max(map(abs, values)) >= INT64_BOUND:
        return None
    result = result * factor
    result[rows, cols] = values
    result[cols, rows] = [-v for v in values]
    return result, wider


def _is_pair(margins: object) -> TypeGuard[tuple[np.ndarray, int | np.integer]]:
    """Whether `margins` is a ``(numerators, denominator)`` pair (not a 2 x 2 nested sequence)."""
    return isinstance(margins, tuple) and len(margins) == 2 and isinstance(margins[0], np.ndarray) and (
        isinstance(margins[1], (int, np.integer)) and not isinstance(margins[1], (bool, np.bool_))
    )


def _given_margins(margins: ArrayLike | GivenPair, n: int) -> ExactPair:
    denominator = 1
    if _is_pair(margins):
        raw, denominator = np.asarray(margins[0]), int(margins[1])
        if denominator <= 0 or raw.dtype.kind not in "iuO":
            raise ValueError(f"exact margins must be integers over a positive int, got {raw.dtype} over {denominator}")
    else:
        raw = np.asarray(margins)
    if raw.shape != (n, n):
        raise ValueError(f"margins must be {n} x {n}, got shape {raw.shape}")
    if raw.dtype.kind == "f":
        if not np.all(np.isfinite(raw)):
            raise ValueError(f"margins must be finite, got {raw[~np.isfinite(raw)][0]!r}")
        read = _read_floats(raw)
        common = None if read is None else _common_denominator(read[1])
        if read is not None and common is not None and np.all(np.abs(read[0]) < INT64_BOUND // (common // read[1])):
            raw, denominator = read[0] * (common // read[1]), common
    if raw.dtype.kind not in "iub" and not _is_pair(margins):  # Fractions, Python ints, mixed
        values = [_exact_value(x) for x in raw.ravel().tolist()]
        denominator = functools.reduce(math.lcm, (v.denominator for v in values), 1)
        raw = np.array([int(v * denominator) for v in values], dtype=object).reshape(n, n)
    result = _as_int64(raw)
    if result is None:
        result = np.frompyfunc(int, 1, 1)(raw).astype(object)
    if np.any(np.diagonal(result) != 0):  # the diagonal is ignored
        result = result.copy()
        np.fill_diagonal(result, 0)
    if not _antisymmetric(result):
        raise ValueError("margins must be antisymmetric: margins[i, j] == -margins[j, i]")
    return _reduce(result, denominator)


def _antisymmetric(m: np.ndarray, tile: int = 128) -> bool:
    """``m == -m.T``, tile by tile for int64 (a whole strided transpose is several times slower)."""
    if m.dtype == object:
        return not np.any(m + m.T != 0)
    n = m.shape[0]
    return all(
        np.array_equal(m[i : i + tile, j : j + tile], -m[j : j + tile, i : i + tile].T)
        for i in range(0, n, tile)
        for j in range(i, n, tile)
    )


def _as_int64(values: np.ndarray) -> NDArray[np.int64] | None:
    """Integer `values` as int64 when every one lies strictly within +-:data:`INT64_BOUND`, else None."""
    if values.dtype.kind == "O":
        flat = values.ravel().tolist()
        if not all(isinstance(v, (int, np.integer)) and -INT64_BOUND < v < INT64_BOUND for v in flat):
            return None
        return np.array(flat, dtype=np.int64).reshape(values.shape)
    if values.size and values.dtype.kind in "iu" and not (-INT64_BOUND < int(values.min()) and int(values.max()) < INT64_BOUND):
        return None
    return values.astype(np.int64, copy=False)


def _exact_value(x: object) -> Fraction:
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    if isinstance(x, Fraction):
        return x
    value = float(x)  # type: ignore[arg-type]
    if not math.isfinite(value):
        raise ValueError(f"margins must be finite, got {x!r}")
    return as_rational(value)


def _gcd(margins: np.ndarray, start: int = 0) -> int:
    """gcd of `start` and every margin. A first slice often gives 1 (then the rest cannot change
    it) or a power of 2, which divides every margin iff their low bits are 0 (a cheap check)."""
    flat = margins.ravel()
    if margins.dtype == object:
        return functools.reduce(math.gcd, flat.tolist(), start)
    g = math.gcd(start, int(np.gcd.reduce(np.abs(flat[:4096]), initial=0)))
    rest = flat[4096:]
    if g == 1 or rest.size == 0 or (g & (g - 1) == 0 < g and not np.any(rest & (g - 1))):
        return g
    return math.gcd(g, int(np.gcd.reduce(np.abs(rest), initial=0)))


def _reduce(margins: np.ndarray, denominator: int) -> ExactPair:
    """Divide integer margins and their denominator by their common factor (int64 stays int64,
    Python ints that fit become int64)."""
    g = _gcd(margins, denominator)
    if g > 1:
        margins = margins // g
        denominator //= g
    ints = _as_int64(margins) if margins.dtype == object else None
    return (margins if ints is None else ints), denominator


def exact_unit(margins: np.ndarray, denominator: int) -> Fraction | None:
    """The exact lattice step of order costs: the gcd of the margins (None when every pair ties).

    Parameters
    ----------
    margins : ndarray of int64 or Python int
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
    g = _gcd(margins)
    return Fraction(g, denominator) if g else None


def reduced_costs(margins: np.ndarray, denominator: int) -> NDArray[np.float64]:
    """``max(margin, 0)`` per pair as floats: the costs beyond each pair's unavoidable part.

    Every order costs ``sum over pairs of min(costs[i, j], costs[j, i])`` plus its cost in
    the reduced matrix, so both have the same optima; ties cost nothing in it, however
    large the tied weight.

    Parameters
    ----------
    margins : ndarray of int64 or Python int
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
    out = np.zeros(margins.shape)
    positive = margins > 0
    if margins.dtype != object:
        # m / (odd * 2**s): m / odd is correctly rounded when odd is 1 (the int64 -> float64
        # cast rounds correctly) or m and odd are exact floats (below 2**53), and scaling by
        # 2**-s (s < 900) is exact: the result stays a normal float
        shift = (denominator & -denominator).bit_length() - 1
        odd = denominator >> shift
        if odd == 1 and shift < 900:
            np.maximum(margins, 0, out=out, casting="unsafe")  # into float64
            return np.ldexp(out, -shift, out=out) if shift else out
        if odd < _FLOAT_INT and shift < 900:
            small = positive & (margins < _FLOAT_INT)
            out = np.where(small, np.ldexp(margins / float(odd), -shift), 0.0)
            positive &= ~small
    rows, cols = np.nonzero(positive)
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
    margins : ndarray of int64 (or Python int)
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

    margins: NDArray[np.int64] | NDArray[np.object_]
    denominator: int
    reduced: NDArray[np.float64]
    scale: float
    base: float
    unit: Fraction | None
    mip_unit: float | None
    tol: float

    @classmethod
    def of(
        cls, matrix: NDArray[np.float64], *, margins: ArrayLike | GivenPair | None = None, tol: float | None = None
    ) -> ExactCosts:
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

    def block(self, members: Sequence[int]) -> NDArray[np.int64] | NDArray[np.object_]:
        """The exact margins among `members`.

        Parameters
        ----------
        members : sequence of int
            Item indices.

        Returns
        -------
        ndarray of int64 (or Python int)
            Rows and columns in the order of `members`, over :attr:`denominator`.
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
