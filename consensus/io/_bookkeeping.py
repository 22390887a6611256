"""Columns of leaderboard exports that are not tasks, found by their names and values.

Exports carry the leaderboard's own summary next to the task scores: a rank, the overall
score, an average, the same benchmark on a second scale. Read as tasks they would vote on
the ranking (a ``Rank`` column makes the 83rd system "beat" the 84th on one more task; a
benchmark repeated on a 0-1 scale votes twice). The reading step (:mod:`consensus.io._columns`,
run by :meth:`consensus.Leaderboard.from_frame` and every reader) uses:

- :data:`BOOKKEEPING_NAMES`: names of ranks and aggregates (``Rank``, ``#``, ``Score``,
  ``Overall``, ``Total``, ``Average``, ``Avg.``, ``Mean``, ``Mean-Rank``, ``Meta-Ave``,
  ``Macro-Avg``, ...), compared as :func:`bookkeeping_key` reduces them;
- :func:`is_rank_column`: integer ranks in row order: complete, at least 5 rows, integers
  starting at 1, never decreasing, never above the row number (``1, 2, 2, 4, ...``), and at
  least ``max(3, rows // 2)`` distinct values (a column of 1s is a task on which all tie);
- :func:`duplicate_columns`: the same ranking on another scale;
- :func:`aggregate_columns`: the row mean of the other columns within the rounding of the
  printed values (on every row where it and at least two other columns are scored, at least
  3 such rows, and a rounding tolerance at most 2% of the column's range, so that a
  coincidence on a few coarsely printed rows does not count), or the mean, sum or a
  non-negative weighted sum of a subset of them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["BOOKKEEPING_NAMES", "bookkeeping_key", "is_rank_column", "duplicate_columns", "aggregate_columns", "AggregateFit"]

#: Column names (as :func:`bookkeeping_key` reduces them) that are the export's own summary.
BOOKKEEPING_NAMES: frozenset[str] = frozenset(
    {
        "#", "rank", "ranking", "rankings", "position", "pos", "place", "standing",
        "score", "scores", "overall", "overallscore", "overallrank", "total", "totalscore",
        "finalscore", "aggregate", "aggregatescore",
        "average", "averagescore", "averagerank", "avg", "avgscore", "avgrank",
        "mean", "meanscore", "meanrank", "median", "medianrank",
        "metaave", "metaavg", "metaaverage", "macroavg", "macroaverage", "microavg", "microaverage",
    }
)

_NOT_KEY = re.compile(r"[^a-z0-9#]+")


def bookkeeping_key(name: str) -> str:
    """A column name reduced for matching: lower case, only letters, digits and ``#``.

    Parameters
    ----------
    name : str
        The column name.

    Returns
    -------
    str

    Examples
    --------
    >>> bookkeeping_key("Meta-Ave."), bookkeeping_key("Mean Rank ↓"), bookkeeping_key(" # ")
    ('metaave', 'meanrank', '#')
    """
    return _NOT_KEY.sub("", name.lower())


def is_rank_column(col: np.ndarray) -> bool:
    """Whether a complete column holds integer ranks 1, 2, 3, ... in row order (see the module's rule 2).

    Parameters
    ----------
    col : numpy.ndarray
        Parsed floats, NaN where missing, rows in file order.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_rank_column(np.array([1.0, 2, 2, 4, 5])), is_rank_column(np.array([1.0, 1, 1, 1, 1]))
    (True, False)
    """
    n = len(col)
    if n < 5 or np.isnan(col).any() or not np.all(col == np.round(col)):
        return False
    rows = np.arange(1, n + 1)
    # a rank column tells the rows apart: a constant or mostly tied column is a (degenerate) task
    distinct = len(np.unique(col)) >= max(3, n // 2)
    return bool(distinct and col[0] == 1 and np.all(np.diff(col) >= 0) and np.all(col <= rows) and np.all(col >= 1))


def _half_units(values: np.ndarray) -> np.ndarray:
    """Per column, half the unit of the last printed decimal (values rounded to at most 6
    decimals), else 1e-9."""
    units = np.full(values.shape[1], 1e-9)
    todo = np.ones(values.shape[1], dtype=bool)
    for d in range(7):
        with np.errstate(over="ignore", invalid="ignore"):  # scores near 1.7e308: inf, then NaN (not ok)
            scaled = values * 10.0**d
            off = np.abs(scaled - np.round(scaled))
        ok = todo & ~np.any(off >= 1e-6 * max(1.0, 10.0 ** (d - 6)), axis=0)  # NaN compares False
        units[ok] = 0.5 * 10.0**-d
        todo &= ~ok
    return units


def _concordant(a: np.ndarray, b: np.ndarray) -> bool:
    """No pair strictly ordered one way by `a` and the other way by `b` (ties allowed in either)."""
    order = np.lexsort((b, a))  # by a, then b
    a_s, b_s = a[order], b[order]
    # for strictly increasing a, b must never strictly decrease: compare each b with the max b of lower a groups
    _, starts = np.unique(a_s, return_index=True)
    best = -np.inf
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(a_s)
        group = b_s[start:end]
        if group.min() < best:
            return False
        best = max(best, group.max())
    return True


def duplicate_columns(columns: Mapping[str, np.ndarray]) -> dict[str, tuple[str, str]]:
    """Columns that repeat an earlier column on another scale, with the column kept and the reason.

    Parameters
    ----------
    columns : Mapping of str to numpy.ndarray
        Parsed float columns (NaN where missing), in column order.

    Returns
    -------
    dict of str to (str, str)
        Repeated column -> (the earlier column kept, reason).

    Examples
    --------
    >>> x = np.array([71.2, 64.0, 55.3, 40.1, 33.3, 12.0])
    >>> duplicate_columns({"ifeval": x, "qa": x[::-1].copy(), "ifeval raw": np.round(x / 100, 4)})
    {'ifeval raw': ('ifeval', 'the same ranking as ifeval on another scale (affine within rounding)')}
    """
    names = list(columns)
    if len(names) < 2:
        return {}
    values = np.column_stack([np.asarray(columns[n], dtype=np.float64) for n in names])
    if values.shape[0] < 2:  # no rows (a header alone) or one: nothing to compare
        return {}
    values[np.isinf(values)] = np.nan  # an infinite score is read as missing (or refused) later
    units = _half_units(values)
    present = ~np.isnan(values)
    # screen with one correlation matrix of the rank-transformed columns (holes at the column mean)
    ranks = pd.DataFrame(values).rank().to_numpy()
    counts = np.maximum(present.sum(axis=0), 1)
    means = np.where(present, ranks, 0.0).sum(axis=0) / counts
    filled = np.where(present, ranks, means)
    filled = filled - filled.mean(axis=0)
    norms = np.sqrt((filled**2).sum(axis=0))
    norms[norms == 0] = np.inf
    unit = filled / norms
    corr = unit.T @ unit
    found: dict[str, tuple[str, str]] = {}
    for j in range(len(names)):
        if names[j] in found:
            continue
        for k in np.nonzero(corr[j, j + 1:] > 0.9)[0] + j + 1:
            if names[k] in found:
                continue
            both = present[:, j] & present[:, k]
            a, b = values[both, j], values[both, k]
            if both.sum() < 5 or len(np.unique(a)) < 3 or len(np.unique(b)) < 3 or not _concordant(a, b):
                continue
            slope, intercept = np.polyfit(a, b, 1)
            if slope <= 0:
                continue
            residual = np.abs(b - (slope * a + intercept)).max()
            affine = residual <= units[k] + slope * units[j] + 1e-9 * max(1.0, np.abs(b).max())
            strong = both.sum() >= 10 and np.corrcoef(a, b)[0, 1] >= 0.99
            if affine or strong:
                how = "affine within rounding" if affine else f"correlation {np.corrcoef(a, b)[0, 1]:.4f}"
                found[names[k]] = (names[j], f"the same ranking as {names[j]} on another scale ({how})")
    return found


@dataclass(frozen=True)
class AggregateFit:
    """A column found to be (or to look like) a combination of other columns."""

    of: tuple[str, ...]
    kind: str  # "mean", "sum", "weighted"
    certain: bool
    rows: int


def _fits(y: np.ndarray, combo: np.ndarray, tol: np.ndarray | float) -> bool:
    return bool(np.all(np.abs(y - combo) <= tol))


def aggregate_columns(columns: Mapping[str, np.ndarray], *, fit: bool = True) -> dict[str, AggregateFit]:
    """Columns that are the mean, sum or a non-negative combination of other columns.

    Parameters
    ----------
    columns : Mapping of str to numpy.ndarray
        Parsed float columns (NaN where missing), in column order, duplicates already removed.
    fit : bool, default True
        Also try the non-negative least-squares fit (skipped beyond :data:`MAX_FIT_COLUMNS`
        columns by the caller).

    Returns
    -------
    dict of str to AggregateFit
        ``certain`` False for a fit that is only weak evidence (kept as a task, mentioned).

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> cols = {f"t{k}": np.round(rng.uniform(0, 100, 12), 2) for k in range(4)}
    >>> cols["avg"] = np.round((cols["t0"] + cols["t1"] + cols["t2"]) / 3, 2)
    >>> found = aggregate_columns(cols)
    >>> list(found), found["avg"].of, found["avg"].kind
    (['avg'], ('t0', 't1', 't2'), 'mean')
    """
    names = list(columns)
    if len(names) < 3:
        return {}
    values = np.column_stack([np.asarray(columns[n], dtype=np.float64) for n in names])
    values[np.isinf(values)] = np.nan  # an infinite score is read as missing (or refused) later
    present = ~np.isnan(values)
    units = _half_units(values)
    found: dict[str, AggregateFit] = {}
    # 1. the row mean of all the other columns, holes allowed (a leaderboard average over what is scored)
    sums, counts = np.nansum(values, axis=1), present.sum(axis=1)
    top = np.sort(units)[::-1]
    for j, name in enumerate(names):
        col = values[:, j]
        rows = present[:, j] & (counts > 2)
        if rows.sum() < 3 or np.all(col[rows] == col[rows][0]):
            continue
        others = (sums[rows] - col[rows]) / (counts[rows] - 1)
        tol = units[j] + (top[1] if units[j] == top[0] else top[0]) + 1e-9
        if tol <= 0.02 * np.ptp(col[rows]) and _fits(col[rows], others, tol):
            found[name] = AggregateFit(tuple(n for n in names if n != name), "mean", True, int(rows.sum()))
    if not fit:
        return found
    from scipy.optimize import nnls

    # 2. a subset: non-negative least squares on the rows where every column is scored
    rest = [j for j, n in enumerate(names) if n not in found]
    for j in rest:
        others = [k for k in rest if k != j and names[k] not in found]
        if len(others) < 2:
            continue
        rows = present[:, j] & present[:, others].all(axis=1)
        n_rows = int(rows.sum())
        y = values[rows, j]
        if n_rows < 5 or np.ptp(y) == 0 or units[j] > 0.02 * np.ptp(y):
            continue
        x = values[np.ix_(rows, others)]
        w, _ = nnls(x, y)
        support = [others[i] for i in np.nonzero(w > 1e-6)[0]]
        ws = w[w > 1e-6]

        def fit_tol(cols: list[int], weights: np.ndarray) -> float:
            return float(units[j] + units[cols] @ np.maximum(weights, 1.0 / len(cols)) + 1e-9)

        if len(support) < 2 or not _fits(y, values[np.ix_(rows, support)] @ ws, fit_tol(support, ws)):
            continue
        # drop the columns that only absorb rounding noise: the smallest contribution first, while the fit holds
        while len(support) > 2:
            spread = np.ptp(values[np.ix_(rows, support)], axis=0) * ws
            trial = [c for k, c in enumerate(support) if k != int(np.argmin(spread))]
            tw, _ = nnls(values[np.ix_(rows, trial)], y)
            if np.any(tw <= 1e-6) or not _fits(y, values[np.ix_(rows, trial)] @ tw, fit_tol(trial, tw)):
                break
            support, ws = trial, tw
        sub = values[np.ix_(rows, support)]
        mean_tol = units[j] + units[support].mean() + 1e-9
        if _fits(y, sub.mean(axis=1), mean_tol):
            kind, certain = "mean", True
        elif _fits(y, sub.sum(axis=1), units[j] + units[support].sum() + 1e-9):
            kind, certain = "sum", True
        else:
            kind, certain = "weighted", n_rows >= 3 * len(support)
        found[names[j]] = AggregateFit(tuple(names[k] for k in support), kind, certain, n_rows)
    return {n: found[n] for n in names if n in found}
