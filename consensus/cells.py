"""Reading score cells: numbers, missing markers, composite cells such as ``"85.1/99.8"``.

:meth:`consensus.Leaderboard.from_frame` reads every column through :func:`parse_column`;
what counts as missing is :data:`MISSING_MARKERS`; empty systems and tasks are dropped by
:func:`drop_unscored` only when asked.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .errors import (
    CompositeScoreError,
    DuplicateLabelError,
    EmptyLabelError,
    EmptySystemError,
    EmptyTaskError,
    LeaderboardError,
    NonFiniteScoreError,
    NonNumericScoreError,
    NoTaskError,
    UnknownTaskError,
)
from .validation import check_labels, check_task_names, label_text, weight_value

__all__ = ["ParsedFrame", "parse_frame", "check_instances", "label_codes", "numeric_scores", "MISSING_MARKERS", "composite_name", "is_missing_cell", "parse_column", "drop_unscored"]

#: Cell texts that mean "not evaluated" (compared after stripping whitespace, case-insensitive).
MISSING_MARKERS: tuple[str, ...] = ("", "-", "\u2013", "\u2014", "nan", "na", "n/a", "none", "null")

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_COMPOSITE = re.compile(rf"^\s*({_NUMBER})\s*/\s*({_NUMBER})\s*$")


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


def parse_column(column: pd.Series, task: str, systems: list[str], split_composite: bool) -> list[np.ndarray]:
    """Parse one column into one float array (or two for a split composite task).

    A numeric column is returned as floats (NaN where missing). In any other column, every
    cell must be a number, numeric text, a missing cell (:func:`is_missing_cell`) or, when
    no cell is a plain number, a composite cell ``"A/B"``; missing cells become NaN.

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
    >>> cells = pd.Series(["93.9/91.8", "92.0/92.5"])
    >>> [a.tolist() for a in parse_column(cells, "glue", ["x", "y"], split_composite=True)]
    [[93.9, 92.0], [91.8, 92.5]]
    """
    if pd.api.types.is_bool_dtype(column.dtype):
        raise NonNumericScoreError(task, systems[:1], column.iloc[0])
    if pd.api.types.is_numeric_dtype(column.dtype):
        return [column.to_numpy(dtype=np.float64, na_value=np.nan)]
    raw = column.to_list()
    n = len(raw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numeric = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    out = numeric.copy()
    parts = [np.full(n, np.nan), np.full(n, np.nan)]
    composite_rows: list[int] = []
    bad_rows: list[int] = []
    plain_rows = np.nonzero(~np.isnan(numeric))[0].tolist()
    for i in np.nonzero(np.isnan(numeric))[0].tolist():  # only cells that are not plain numbers
        cell = raw[i]
        if is_missing_cell(cell):
            continue
        if isinstance(cell, bool):
            bad_rows.append(i)
            continue
        match = _COMPOSITE.match(str(cell))
        if match:
            composite_rows.append(i)
            parts[0][i], parts[1][i] = float(match.group(1)), float(match.group(2))
            continue
        bad_rows.append(i)
    if bad_rows:
        raise NonNumericScoreError(task, [systems[i] for i in bad_rows], raw[bad_rows[0]])
    if composite_rows:
        if not split_composite:
            raise CompositeScoreError(task, [systems[i] for i in composite_rows], raw[composite_rows[0]])
        if plain_rows:
            i = plain_rows[0]
            raise LeaderboardError(
                f"task {task!r} mixes composite cells (e.g. {raw[composite_rows[0]]!r}) with a single "
                f"number for system {systems[i]!r} ({raw[i]!r}); cannot tell which metric it is"
            )
        return parts
    return [out]




def check_instances(
    values: np.ndarray,
    systems: tuple[str, ...],
    tasks: tuple[str, ...],
    offsets: np.ndarray,
    instances: Sequence[pd.Index],
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
        if not per_column[a:b].any():
            raise EmptyTaskError(tasks[t])
        in_task = empty[(empty >= a) & (empty < b)] - a
        raise EmptyTaskError(tasks[t], instances[t].take(in_task).tolist())
    empty_rows = np.nonzero(~present.any(axis=1))[0]
    if len(empty_rows):
        raise EmptySystemError([systems[i] for i in empty_rows])


def label_codes(column: pd.Series, kind: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Integer codes and string labels of a label column (systems or tasks of a long frame).

    Labels come in first-appearance order, or in the order of the used categories for a
    categorical column; they are stripped text, and labels equal as text (``1`` and ``"1"``)
    are merged.

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
    if (codes < 0).any():
        raise EmptyLabelError(kind, int(np.argmax(codes < 0)))
    labels = [str(u).strip() for u in uniques]
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
    if pd.api.types.is_bool_dtype(dtype):
        raise NonNumericScoreError(tasks[task_codes[0]], [systems[sys_codes[0]]], column.iloc[0])
    if pd.api.types.is_numeric_dtype(dtype):
        return column.to_numpy(dtype=np.float64, na_value=np.nan)
    numeric = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
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




@dataclass(frozen=True)
class ParsedFrame:
    """A raw score table read cell by cell: what :meth:`consensus.Leaderboard.from_frame` builds from.

    Attributes
    ----------
    values : pandas.DataFrame
        Float scores, NaN where missing; composite tasks split into ``task[1]``, ``task[2]``.
    lower_is_better : list of str
    weights : dict of str to float
        The weights given, carried over to split tasks (a split task's weight is shared
        equally by its parts).
    groups : dict of str to list of str
    notes : list of str
        What was done: composite splits, dropped empty systems and tasks.
    """

    values: pd.DataFrame
    lower_is_better: list[str]
    weights: dict[str, float]
    groups: dict[str, list[str]]
    notes: list[str]


def parse_frame(
    frame: pd.DataFrame,
    *,
    lower_is_better: Iterable[str] | Mapping[str, bool] = (),
    weights: Mapping[str, float] | None = None,
    groups: Mapping[str, Iterable[str]] | None = None,
    split_composite: bool = False,
    drop_empty: bool = False,
    tasks: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
) -> ParsedFrame:
    """Read a systems x tasks frame cell by cell (the options are those of ``Leaderboard.from_frame``).

    Parameters
    ----------
    frame : pandas.DataFrame
        Systems as the index, tasks as columns; cells are numbers, missing markers
        (:data:`MISSING_MARKERS`) or, with `split_composite`, composite cells.
    lower_is_better, weights, groups, split_composite, drop_empty, tasks, exclude
        See :meth:`consensus.Leaderboard.from_frame`.

    Returns
    -------
    ParsedFrame

    Raises
    ------
    LeaderboardError
        Not a DataFrame, or its cells cannot be read (the subclass names the cell).
    UnknownTaskError
        A task named in an option is not a column.
    NoTaskError
        Every column was excluded.
    DuplicateLabelError
        Duplicate labels, or a split composite task's part name is already a column.

    Examples
    --------
    >>> parsed = parse_frame(pd.DataFrame({"qa": ["0.5/0.7", "0.6/0.8"]}, index=["a", "b"]), split_composite=True)
    >>> parsed.values.columns.tolist(), parsed.weights
    (['qa[1]', 'qa[2]'], {'qa[1]': 0.5, 'qa[2]': 0.5})
    """
    if not isinstance(frame, pd.DataFrame):
        raise LeaderboardError(f"expected a pandas DataFrame, got {type(frame).__name__}")
    systems = [label_text(s, "system", i) for i, s in enumerate(frame.index)]
    columns = [label_text(c, "task", i) for i, c in enumerate(frame.columns)]
    check_labels(tuple(systems), "system")
    check_labels(tuple(columns), "task")
    frame = frame.copy()
    frame.index = pd.Index(systems, dtype=object)
    frame.columns = pd.Index(columns, dtype=object)
    exclude = list(exclude)
    for name in exclude:
        if name not in columns:
            raise UnknownTaskError(name, columns, "exclude")
    if tasks is not None:
        tasks = list(tasks)
        for name in tasks:
            if name not in columns:
                raise UnknownTaskError(name, columns, "tasks")
        columns = tasks
    columns = [c for c in columns if c not in set(exclude)]
    if not columns:
        raise NoTaskError("every column was excluded")

    if isinstance(lower_is_better, Mapping):
        lower_names = [t for t, flag in lower_is_better.items() if flag]
        check_task_names(lower_is_better.keys(), columns, "lower_is_better")
    else:
        lower_names = list(check_task_names(lower_is_better, columns, "lower_is_better"))
    user_weights = dict(weights or {})
    check_task_names(user_weights.keys(), columns, "weights")
    user_groups = {str(g): list(ts) for g, ts in (groups or {}).items()}
    for g, ts in user_groups.items():
        check_task_names(ts, columns, f"group {g!r}")

    parsed: dict[str, np.ndarray] = {}
    renamed: dict[str, list[str]] = {}
    notes: list[str] = []
    for task in columns:
        parts = parse_column(frame[task], task, systems, split_composite)
        if len(parts) == 1:
            parsed[task] = parts[0]
            renamed[task] = [task]
        else:
            names = [composite_name(task, k + 1) for k in range(len(parts))]
            for name in names:
                if name in columns:
                    raise DuplicateLabelError("task", [name])
            parsed.update(zip(names, parts))
            renamed[task] = names
            notes.append(f"split composite task {task!r} into {', '.join(repr(n) for n in names)}")

    new_tasks = [name for task in columns for name in renamed[task]]
    values = pd.DataFrame(parsed, index=pd.Index(systems, dtype=object), columns=new_tasks)
    new_lower = [name for task in lower_names for name in renamed[task]]
    new_weights: dict[str, float] = {}
    for task, w in user_weights.items():
        w = weight_value(w, task)
        for name in renamed[task]:
            new_weights[name] = w / len(renamed[task])
    for task in columns:
        if len(renamed[task]) > 1 and task not in user_weights:
            for name in renamed[task]:
                new_weights[name] = 1.0 / len(renamed[task])
    new_groups = {g: [name for t in ts for name in renamed[t]] for g, ts in user_groups.items()}

    if drop_empty:
        values, dropped_notes = drop_unscored(values)
        notes.extend(dropped_notes)
        kept = set(values.columns)
        new_lower = [t for t in new_lower if t in kept]
        new_weights = {t: w for t, w in new_weights.items() if t in kept}
        new_groups = {g: [t for t in ts if t in kept] for g, ts in new_groups.items()}
        new_groups = {g: ts for g, ts in new_groups.items() if ts}
    return ParsedFrame(values, new_lower, new_weights, new_groups, notes)
