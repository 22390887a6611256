"""Bookkeeping columns of leaderboard exports: numeric columns that are not tasks.

Exports carry the leaderboard's own summary next to the task scores: a rank, the overall
score, an average. Read as tasks they would vote on the ranking (a ``Rank`` column makes the
83rd system "beat" the 84th on one more task). :meth:`consensus.Leaderboard.from_frame` and
the readers exclude them with a note unless ``keep_columns=`` keeps them. A column is
bookkeeping when

1. its name, lower-cased and stripped of everything but letters, digits and ``#``, is one of
   :data:`BOOKKEEPING_NAMES` (``Rank``, ``#``, ``Score``, ``Overall``, ``Total``,
   ``Average``, ``Avg.``, ``Mean``, ``Mean-Rank``, ``Meta-Ave``, ``Macro-Avg``, ...); or
2. it holds integer ranks in row order: complete, at least 5 rows, integers starting at 1,
   never decreasing, never above the row number (``1, 2, 2, 4, ...``), and at least
   ``max(3, rows // 2)`` distinct values (a column of 1s is a task on which all tie); or
3. it is the row mean of the other task columns, within the rounding of the printed values,
   on every row where it and at least two other columns are scored (at least 3 such rows,
   and a rounding tolerance at most 2% of the column's range, so that a coincidence on a
   few coarsely printed rows does not count).

A column named in ``tasks=``, ``lower_is_better=``, ``weights=`` or ``groups=`` is never
treated as bookkeeping, and nothing is excluded if every column would be.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["BOOKKEEPING_NAMES", "bookkeeping_key", "bookkeeping_by_name", "bookkeeping_by_values"]

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


def bookkeeping_by_name(names: Sequence[str]) -> dict[str, str]:
    """The columns whose name marks them as bookkeeping, with the reason.

    Parameters
    ----------
    names : sequence of str
        Column names.

    Returns
    -------
    dict of str to str
        Column -> reason, in column order.

    Examples
    --------
    >>> bookkeeping_by_name(["Rank", "CoLA", "Avg."])
    {'Rank': 'named like a rank or aggregate', 'Avg.': 'named like a rank or aggregate'}
    """
    return {n: "named like a rank or aggregate" for n in names if bookkeeping_key(n) in BOOKKEEPING_NAMES}


def _is_rank_column(col: np.ndarray) -> bool:
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


def bookkeeping_by_values(columns: Mapping[str, np.ndarray]) -> dict[str, str]:
    """The columns whose values mark them as bookkeeping (row-order ranks, row means), with the reason.

    Parameters
    ----------
    columns : Mapping of str to numpy.ndarray
        Parsed float columns (NaN where missing), in column order, rows in file order.

    Returns
    -------
    dict of str to str
        Column -> reason, in column order.

    Examples
    --------
    >>> cols = {"pos": np.arange(1.0, 7.0), "qa": np.array([9.0, 8.2, 7.1, 7.3, 5.0, 1.2]),
    ...         "nli": np.array([5.0, 6.0, 5.1, 3.3, 1.0, 1.0]), "all": np.array([7.0, 7.1, 6.1, 5.3, 3.0, 1.1])}
    >>> bookkeeping_by_values(cols)
    {'pos': 'integer ranks 1, 2, 3, ... in row order', 'all': 'the row mean of the other columns'}
    """
    found = {n: "integer ranks 1, 2, 3, ... in row order" for n, c in columns.items() if len(c) >= 5 and _is_rank_column(c)}
    rest = [n for n in columns if n not in found]
    if len(rest) >= 3:
        values = np.column_stack([columns[n] for n in rest])
        present = ~np.isnan(values)
        sums, counts = np.nansum(values, axis=1), present.sum(axis=1)
        units = _half_units(values)
        top = np.sort(units)[::-1]
        for j, name in enumerate(rest):
            col = values[:, j]
            rows = present[:, j] & (counts > 2)  # the row mean of at least two other columns
            if rows.sum() < 3 or np.all(col[rows] == col[rows][0]):
                continue
            others = (sums[rows] - col[rows]) / (counts[rows] - 1)
            tol = units[j] + (top[1] if units[j] == top[0] else top[0]) + 1e-9
            spread = np.ptp(col[rows])
            if tol <= 0.02 * spread and np.all(np.abs(col[rows] - others) <= tol):
                found[name] = "the row mean of the other columns"
    return {n: found[n] for n in columns if n in found}
