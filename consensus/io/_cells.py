"""Reading score cells: numbers, missing markers, composite cells such as ``"85.1/99.8"``.

:meth:`consensus.Leaderboard.from_frame` reads every column through :func:`parse_column`;
what counts as missing is :data:`MISSING_MARKERS`; empty systems and tasks are dropped by
:func:`drop_unscored` only when asked.
"""

from __future__ import annotations

import datetime
import math
import re
import warnings
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from ..errors import (
    CompositeScoreError,
    EmptyLabelError,
    EmptySystemError,
    EmptyTaskError,
    LeaderboardError,
    NonFiniteScoreError,
    NonNumericScoreError,
)
from ._labels import normalize_name

__all__ = ["parse_number", "column_getter", "check_instances", "label_codes", "numeric_scores", "exact_numbers", "MISSING_MARKERS", "composite_name", "is_missing_cell", "parse_column", "drop_unscored"]

#: Cell texts that mean "not evaluated" (compared after stripping whitespace, case-insensitive).
MISSING_MARKERS: tuple[str, ...] = ("", "-", "\u2013", "\u2014", "nan", "na", "n/a", "none", "null")

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_HALF = re.compile(rf"^\s*{_NUMBER}\s*$")


def composite_name(task: str, part: int) -> str:
    """Name of one part of a split composite task: ``TASK[part]``.

    Parameters
    ----------
    task : str
        Name of the composite task (the column whose cells read ``"93.9/91.8"``).
    part : int
        1-based position of the metric inside the cell.

    Returns
    -------
    str
        ``f"{task}[{part}]"``.

    Examples
    --------
    >>> composite_name("glue", 2)
    'glue[2]'
    """
    return f"{task}[{part}]"


def drop_unscored(values: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """Drop the tasks, then the systems, that have no score at all.

    Tasks (columns) with no score are dropped first; systems (rows) are then checked on the
    remaining tasks. Each non-empty note is also emitted as a ``UserWarning``. This is the
    ``drop_empty=True`` option of :meth:`consensus.Leaderboard.from_frame`.

    Parameters
    ----------
    values : pandas.DataFrame
        Parsed float scores, systems x tasks, NaN where missing.

    Returns
    -------
    (pandas.DataFrame, list of str)
        The frame without empty tasks and systems (unchanged when nothing is empty), and one
        note per kind of drop naming what was dropped (empty when nothing was).

    Warns
    -----
    UserWarning
        One per note, naming the dropped tasks or systems.

    Examples
    --------
    >>> import warnings
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.7, None, 0.6], "nli": [None, None, None]}, index=["a", "b", "c"])
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     kept, notes = drop_unscored(frame)
    >>> list(kept.index), list(kept.columns)
    (['a', 'c'], ['qa'])
    >>> notes
    ["dropped task(s) with no score: 'nli'", "dropped system(s) with no score: 'b'"]
    """
    notes = []
    present = values.notna()
    empty_tasks = [t for t in values.columns if not present[t].any()]
    if empty_tasks:
        values = values.drop(columns=empty_tasks)
        notes.append("dropped task(s) with no score: " + ", ".join(repr(t) for t in empty_tasks))
    present = values.notna()
    empty_systems = [s for s in values.index if not present.loc[s].any()]
    if empty_systems:
        values = values.drop(index=empty_systems)
        notes.append("dropped system(s) with no score: " + ", ".join(repr(s) for s in empty_systems))
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=4)
    return values, notes


def is_missing_cell(value: object) -> bool:
    """Whether a raw cell means "not evaluated".

    Missing cells are ``None``, ``pd.NA``, ``pd.NaT``, a float NaN, and text that is one of
    :data:`MISSING_MARKERS` after stripping whitespace and lower-casing.

    Parameters
    ----------
    value : object
        One cell as read (number, text, None, ...).

    Returns
    -------
    bool
        True when the cell is a missing score.

    Examples
    --------
    >>> is_missing_cell(" N/A "), is_missing_cell(float("nan")), is_missing_cell("0"), is_missing_cell(0.0)
    (True, True, False, False)
    """
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, str) and value.strip().lower() in MISSING_MARKERS:
        return True
    return False


#: Cell types pandas would turn into numbers but that are not scores (True -> 1.0, a date ->
#: nanoseconds, 1+2j -> 1.0): refused as non-numeric.
_NOT_SCORES = (bool, np.bool_, complex, np.complexfloating, datetime.date, datetime.time, datetime.timedelta, np.datetime64, np.timedelta64)


def _typed_non_score(dtype: object) -> str | None:
    """What a column dtype holds when it is not scores (``"booleans"``, ``"dates"``, ...), else None."""
    if pd.api.types.is_bool_dtype(dtype):
        return "booleans"
    if pd.api.types.is_complex_dtype(dtype):
        return "complex numbers"
    if pd.api.types.is_datetime64_any_dtype(dtype) or isinstance(dtype, pd.PeriodDtype):
        return "dates"
    if pd.api.types.is_timedelta64_dtype(dtype):
        return "durations"
    return None


def _kind_of(cell: object) -> str:
    """What a cell of :data:`_NOT_SCORES` is, for the error message."""
    if isinstance(cell, (bool, np.bool_)):
        return "booleans"
    if isinstance(cell, (complex, np.complexfloating)):
        return "complex numbers"
    if isinstance(cell, (datetime.timedelta, np.timedelta64)):
        return "durations"
    if isinstance(cell, datetime.time):
        return "times of day"
    return "dates"


def exact_numbers(values: Sequence[object] | np.ndarray) -> np.ndarray:
    """The cells that are numbers, as floats parsed exactly as Python parses them; NaN elsewhere.

    Text is read by ``float`` (correctly rounded: ``"0.30"``, ``"3e-1"`` and ``"30e-2"`` are
    the same float, as in the file), after stripping whitespace; text with ``_`` (``1_000``)
    or with characters beyond ASCII (full-width ``１``, Arabic-Indic ``٣``, which ``float``
    would accept) is not a number here: :func:`parse_number`, the package's one rule for text
    numbers (cells, weights, options). Numbers (not booleans) are converted; anything else is NaN, for the
    caller to check. Large columns of text take one vectorized numpy conversion (numpy parses
    as Python does) and fall back to cell by cell only when a cell is not a number.

    Parameters
    ----------
    values : sequence or array of objects

    Returns
    -------
    numpy.ndarray
        float64, NaN where a cell is not a number.

    Examples
    --------
    >>> exact_numbers(["0.30", " 3e-1", "30e-2", "1_000", "x", 7, None, True]).tolist()
    [0.3, 0.3, 0.3, nan, nan, 7.0, nan, nan]
    """
    values = np.asarray(values, dtype=object)
    if len(values) > 10_000:
        try:
            text = values.astype(np.str_)
            parsed = text.astype(np.float64)
        except (ValueError, TypeError):
            pass
        else:
            is_text = np.fromiter((isinstance(v, str) and v.isascii() for v in values), dtype=bool, count=len(values))
            if is_text.all() and not (np.char.find(text, "_") >= 0).any():
                return parsed
    out = np.full(len(values), np.nan)
    for i, v in enumerate(values):
        if isinstance(v, str):
            number = parse_number(v)
            if number is not None:
                out[i] = number
        elif isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_)):
            out[i] = float(v)
    return out


def parse_number(text: str) -> float | None:
    """A number written as text, by the package's one rule, or None when it is not one.

    ASCII only and without ``_``, then as ``float`` reads it (surrounding whitespace, signs,
    exponents, ``inf``/``nan`` words included; the callers decide what those mean): ``1_0`` and
    ``１`` (full-width) or ``٣`` (Arabic-Indic), which Python's ``float`` accepts, are refused
    here, the same for cells, ``--weights`` and ``--option`` values.

    Parameters
    ----------
    text : str

    Returns
    -------
    float or None

    Examples
    --------
    >>> parse_number(" 3e-1"), parse_number("1_0"), parse_number("\uff11"), parse_number("x")
    (0.3, None, None, None)
    """
    if not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _half(text: str) -> float | None:
    """One half of a composite cell: its number, NaN for a missing marker, None otherwise."""
    if text.strip().lower() in MISSING_MARKERS:
        return math.nan
    return float(text) if _HALF.match(text) else None


def _composite(cell: object) -> tuple[float, float] | None:
    """``(first, second)`` of a composite cell (NaN for a missing half), None if not composite."""
    text = str(cell)
    if text.count("/") != 1:
        return None
    first, second = (_half(part) for part in text.split("/"))
    if first is None or second is None:
        return None
    return first, second


def column_getter(frame: pd.DataFrame) -> Callable[[int], pd.Series]:
    """A function giving column `j` of `frame` as a Series.

    For a wide table of text cells (a file as read: one object block) each column is sliced
    from one array made once: pandas' own column access on a single block costs time in
    proportion to its width, which made reading n columns cost n^2.

    Parameters
    ----------
    frame : pandas.DataFrame

    Returns
    -------
    callable
        ``column(j) -> pandas.Series`` (named, with the frame's index).

    Examples
    --------
    >>> column = column_getter(pd.DataFrame({"qa": ["1", "2"]}, index=["a", "b"]))
    >>> column(0).tolist()
    ['1', '2']
    """
    if frame.shape[1] < 1000 or not all(pd.api.types.is_object_dtype(t) for t in frame.dtypes):
        return lambda j: frame.iloc[:, j]
    cells = frame.to_numpy(dtype=object)
    return lambda j: pd.Series(cells[:, j], index=frame.index, name=frame.columns[j], dtype=object, copy=False)


def parse_column(
    column: pd.Series,
    task: str,
    systems: list[str],
    split_composite: bool,
    *,
    where: Callable[[Sequence[int]], str] | None = None,
) -> list[np.ndarray]:
    """Parse one column into one float array (or two for a split composite task).

    A numeric column is returned as floats (NaN where missing). In any other column, every
    cell must be a number, numeric text, a missing cell (:func:`is_missing_cell`) or, when
    no cell is a plain number, a composite cell ``"A/B"``; missing cells become NaN. A
    composite cell may miss a half (``"-/99.8"``, ``"NaN/99.8"``, ``"/99.8"``, ``"99.8/"``,
    ``"-/-"``): that half is a missing score.

    Parameters
    ----------
    column : pandas.Series
        The raw cells of one task, in the order of `systems`.
    task : str
        Name of the task, for error messages.
    systems : list of str
        System names of the rows, for error messages.
    split_composite : bool
        Whether composite cells (``"93.9/91.8"``) are split into two arrays instead of
        raising.
    where : callable, optional
        Row positions (0-based) of the bad cells -> text shown after the task name in an
        error (``" (column 3 'qa'; lines 4, 9)"``).

    Returns
    -------
    list of numpy.ndarray
        A single float array over `systems`, or two (first and second metric) for a
        composite column split with `split_composite`.

    Raises
    ------
    NonNumericScoreError
        If the column has a boolean dtype, or a cell is neither a number, a missing marker
        nor a composite cell (a ``bool`` cell the text parser cannot read counts as
        non-numeric); names the task and the systems at fault.
    CompositeScoreError
        If a cell is composite and `split_composite` is false.
    LeaderboardError
        If composite cells are mixed with single numbers in the same column.

    Examples
    --------
    >>> import pandas as pd
    >>> [a.tolist() for a in parse_column(pd.Series(["0.5", "-", "0.7"]), "qa", ["a", "b", "c"], False)]
    [[0.5, nan, 0.7]]
    >>> cells = pd.Series(["93.9/91.8", "-/92.5"])
    >>> [a.tolist() for a in parse_column(cells, "glue", ["x", "y"], split_composite=True)]
    [[93.9, nan], [91.8, 92.5]]
    """
    def at(rows: Sequence[int]) -> str:
        return where(rows) if where is not None else ""

    kind = _typed_non_score(column.dtype)
    if kind is not None:
        rows = [i for i in range(len(column)) if not is_missing_cell(column.iloc[i])] or [0]
        raise NonNumericScoreError(task, [systems[i] for i in rows], column.iloc[rows[0]], where=at(rows), kind=kind)
    if pd.api.types.is_numeric_dtype(column.dtype):
        return [column.to_numpy(dtype=np.float64, na_value=np.nan)]
    raw = column.to_list()
    n = len(raw)
    typed = [i for i, cell in enumerate(raw) if isinstance(cell, _NOT_SCORES)]
    if typed:
        raise NonNumericScoreError(
            task, [systems[i] for i in typed], raw[typed[0]], where=at(typed), kind=_kind_of(raw[typed[0]])
        )
    numeric = exact_numbers(raw)
    out = numeric.copy()
    parts = [np.full(n, np.nan), np.full(n, np.nan)]
    composite_rows: list[int] = []
    bad_rows: list[int] = []
    plain_rows = np.nonzero(~np.isnan(numeric))[0].tolist()
    for i in np.nonzero(np.isnan(numeric))[0].tolist():  # only cells that are not plain numbers
        cell = raw[i]
        if is_missing_cell(cell):
            continue
        halves = None if isinstance(cell, bool) else _composite(cell)
        if halves is None:
            bad_rows.append(i)
            continue
        composite_rows.append(i)
        parts[0][i], parts[1][i] = halves
    if bad_rows:
        text_column = not plain_rows and not composite_rows
        raise NonNumericScoreError(
            task, [systems[i] for i in bad_rows], raw[bad_rows[0]], where=at(bad_rows), text_column=text_column
        )
    if composite_rows:
        if not split_composite:
            raise CompositeScoreError(
                task, [systems[i] for i in composite_rows], raw[composite_rows[0]], where=at(composite_rows)
            )
        if plain_rows:
            i = plain_rows[0]
            raise LeaderboardError(
                f"task {task!r}{at(plain_rows)} mixes composite cells (e.g. {raw[composite_rows[0]]!r}) with a "
                f"single number for system {systems[i]!r} ({raw[i]!r}); cannot tell which metric it is"
            )
        return parts
    return [out]


def check_instances(
    values: np.ndarray,
    systems: tuple[str, ...],
    tasks: tuple[str, ...],
    offsets: np.ndarray,
    instances: Sequence[pd.Index],
    *,
    empty_systems: bool = True,
    whole_tasks: bool = True,
) -> None:
    """Check an instance score array: finite, and no empty system, task or instance.

    Parameters
    ----------
    values : numpy.ndarray
        Float scores, systems x instance columns, NaN where missing.
    systems, tasks : tuple of str
        Row labels and task names, for the error messages.
    offsets : numpy.ndarray
        Column offsets of the tasks: task ``t`` holds columns ``offsets[t]:offsets[t + 1]``.
    instances : sequence of pandas.Index
        Instance ids of each task, for the error messages.

    empty_systems : bool, default=True
        Also refuse a system with no score (False: a part of the data, such as one Dask
        partition, where a system may have none).
    whole_tasks : bool, default=True
        False: `values` hold some of each task's instances (a block of items), so a task with
        no score here is reported by its instances (whether the whole task is empty is
        checked elsewhere).
    Raises
    ------
    NonFiniteScoreError
        If a score is infinite (names the first such task and its systems).
    EmptyTaskError
        If a task, or one of its instances, has no score for any system.
    EmptySystemError
        If a system has no score at all.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> values = np.array([[0.5, np.nan], [0.7, np.nan]])
    >>> try:
    ...     check_instances(values, ("a", "b"), ("qa",), np.array([0, 2]), [pd.Index(["i1", "i2"])])
    ... except EmptyTaskError as err:
    ...     print(err.task, err.instances)
    qa ('i2',)
    """
    inf = np.isinf(values)
    if inf.any():
        c = int(np.nonzero(inf.any(axis=0))[0][0])
        t = int(np.searchsorted(offsets, c, side="right") - 1)
        rows = np.nonzero(inf[:, c])[0]
        raise NonFiniteScoreError(tasks[t], [systems[i] for i in rows], float(values[rows[0], c]))
    present = ~np.isnan(values)
    per_column = present.any(axis=0)
    if not per_column.all():
        empty = np.nonzero(~per_column)[0]
        t = int(np.searchsorted(offsets, empty[0], side="right") - 1)
        a, b = offsets[t], offsets[t + 1]
        if whole_tasks and not per_column[a:b].any():
            raise EmptyTaskError(tasks[t])
        in_task = empty[(empty >= a) & (empty < b)] - a
        raise EmptyTaskError(tasks[t], instances[t].take(in_task).tolist())
    empty_rows = np.nonzero(~present.any(axis=1))[0] if empty_systems else ()
    if len(empty_rows):
        raise EmptySystemError([systems[i] for i in empty_rows])


def label_codes(column: pd.Series, kind: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Integer codes and string labels of a label column (systems or tasks of a long frame).

    Labels come in first-appearance order, or in the order of the used categories for a
    categorical column; they are text with whitespace normalized
    (:func:`~consensus.io._labels.normalize_name`), and labels equal as text (``1`` and ``"1"``,
    ``"a b"`` and ``"a  b"``) are merged.

    Parameters
    ----------
    column : pandas.Series
        The raw labels, one per row.
    kind : str
        ``"system"`` or ``"task"``, for the error message.

    Returns
    -------
    (numpy.ndarray, tuple of str)
        One int64 code per row, indexing the labels; the labels.

    Raises
    ------
    EmptyLabelError
        If a label is missing (NaN, None) or blank (names the first such row).

    Examples
    --------
    >>> import pandas as pd
    >>> codes, labels = label_codes(pd.Series(["b", "a", " b"]), "system")
    >>> codes.tolist(), labels
    ([0, 1, 0], ('b', 'a'))
    """
    if isinstance(column.dtype, pd.CategoricalDtype):
        used = column.cat.remove_unused_categories()
        codes, uniques = used.cat.codes.to_numpy(dtype=np.int64), used.cat.categories
    else:
        codes, uniques = pd.factorize(column, sort=False, use_na_sentinel=True)
    return normalized_labels(np.asarray(codes), list(uniques), kind)


def normalized_labels(codes: np.ndarray, uniques: Sequence[object], kind: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Codes and labels of :func:`label_codes` from raw codes (-1: missing) and raw distinct labels.

    Parameters
    ----------
    codes : numpy.ndarray
        One code per row into `uniques`, -1 where the label is missing.
    uniques : sequence
        The raw labels (any type: shown as text).
    kind : str
        ``"system"`` or ``"task"``, for the error message.

    Returns
    -------
    (numpy.ndarray, tuple of str)

    Raises
    ------
    EmptyLabelError
        If a label is missing or blank (names the first such row).

    Examples
    --------
    >>> import numpy as np
    >>> codes, labels = normalized_labels(np.array([0, 1, 2]), ["a", 1, "1"], "system")
    >>> codes.tolist(), labels
    ([0, 1, 1], ('a', '1'))
    """
    if (codes < 0).any():
        raise EmptyLabelError(kind, int(np.argmax(codes < 0)))
    labels = [normalize_name(str(u)) for u in uniques]
    for i, label in enumerate(labels):
        if not label:
            raise EmptyLabelError(kind, int(np.argmax(codes == i)))
    if len(set(labels)) != len(labels):  # e.g. 1 and "1": merge them, keeping first appearance
        merged, names = pd.factorize(pd.Index(labels), sort=False)
        return merged[codes].astype(np.int64), tuple(str(n) for n in names)
    return codes.astype(np.int64), tuple(labels)


def numeric_scores(
    column: pd.Series, task_codes: np.ndarray, tasks: tuple[str, ...], sys_codes: np.ndarray, systems: tuple[str, ...]
) -> np.ndarray:
    """The score column of a long frame as float64, NaN where missing.

    Numeric text is parsed; missing cells (None, NaN, :data:`MISSING_MARKERS`) become NaN.

    Parameters
    ----------
    column : pandas.Series
        The raw scores, one per row.
    task_codes, sys_codes : numpy.ndarray
        Task and system code of each row (see :func:`label_codes`), for error messages.
    tasks, systems : tuple of str
        Task and system labels the codes index.

    Returns
    -------
    numpy.ndarray
        One float per row.

    Raises
    ------
    NonNumericScoreError
        If the column is boolean, or a cell is neither a number nor a missing cell (names
        the task of the first bad cell and its systems).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> column = pd.Series(["0.5", "-", "0.7"])
    >>> numeric_scores(column, np.zeros(3, dtype=int), ("qa",), np.arange(3), ("a", "b", "c")).tolist()
    [0.5, nan, 0.7]
    """
    dtype = column.dtype
    kind = _typed_non_score(dtype)
    if kind is not None:
        raise NonNumericScoreError(tasks[task_codes[0]], [systems[sys_codes[0]]], column.iloc[0], kind=kind)
    if pd.api.types.is_numeric_dtype(dtype):
        return column.to_numpy(dtype=np.float64, na_value=np.nan)
    if pd.api.types.is_object_dtype(dtype):
        typed = column.map(lambda v: isinstance(v, _NOT_SCORES)).to_numpy(dtype=bool)
        if typed.any():
            row = int(np.argmax(typed))
            cell = column.iloc[row]
            raise NonNumericScoreError(tasks[task_codes[row]], [systems[sys_codes[row]]], cell, kind=_kind_of(cell))
    numeric = exact_numbers(column.to_numpy(dtype=object))
    raw_missing = column.isna().to_numpy()
    bad = np.isnan(numeric) & ~raw_missing
    if bad.any():
        text = column[bad].astype(str).str.strip().str.lower()

        really_bad = ~text.isin(MISSING_MARKERS).to_numpy()
        if really_bad.any():
            rows = np.nonzero(bad)[0][really_bad]
            t = task_codes[rows[0]]
            in_task = rows[task_codes[rows] == t]
            names = list(dict.fromkeys(systems[s] for s in sys_codes[in_task]))
            raise NonNumericScoreError(tasks[t], names, column.iloc[rows[0]])
    return numeric
