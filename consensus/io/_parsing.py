"""A raw systems x tasks frame read in one pass: names, options, cells, bookkeeping columns.

:func:`parse_frame` is what :meth:`consensus.Leaderboard.from_frame` builds from. It
normalizes names (:mod:`consensus.io._labels`), excludes bookkeeping columns
(:mod:`consensus.io._bookkeeping`), reads every cell (:func:`consensus.io._cells.parse_column`) and
collects every problem it finds before raising them together
(:func:`consensus.errors.raise_problems`): one problem raises its own error, several a
:class:`~consensus.errors.LeaderboardErrors` listing them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..board._validation import weight_value
from ..errors import (
    ConsensusError,
    DuplicateLabelError,
    EmptyLabelError,
    EmptySystemError,
    InvalidOptionError,
    InvalidWeightError,
    LeaderboardError,
    LongFormatError,
    NonFiniteScoreError,
    NoTaskError,
    TooFewSystemsError,
    UnknownTaskError,
    raise_problems,
)
from ..hints import hinted, named, option
from ._bookkeeping import aggregate_columns, duplicate_columns, is_rank_column
from ._cells import column_getter, composite_name, drop_unscored, parse_column
from ._columns import (
    MAX_DUPLICATE_COLUMNS,
    MAX_FIT_COLUMNS,
    ColumnReading,
    ReadingSummary,
    direction_reading,
    excluded_note,
    is_text_column,
    role_by_name,
    stderr_target,
)
from ._labels import DEDUPE_NOTE, SOURCE_ATTR, Source, normalize_name, numbered

__all__ = ["ParsedFrame", "parse_frame", "long_format_columns", "name_column"]



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
        What was done: renamed names, excluded columns, composite splits, dropped empty
        systems and tasks.
    reading : ReadingSummary
        How each column was read (:mod:`consensus.io._columns`).
    """

    values: pd.DataFrame
    lower_is_better: list[str]
    weights: dict[str, float]
    groups: dict[str, list[str]]
    notes: list[str]
    reading: ReadingSummary | None = None


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value)) or not str(value).strip()


def _shown_changes(changes: Sequence[tuple[str, str]], limit: int = 10) -> str:
    text = ", ".join(f"{old!r} -> {new!r}" for old, new in changes[:limit])
    return text + (f", ... ({len(changes)} in all)" if len(changes) > limit else "")


def long_format_columns(frame: pd.DataFrame) -> tuple[str, str, str] | None:
    """The (system, task, score) columns if a wide frame is really a long one, else None.

    A frame looks long when its index (the system names) repeats (at most half as many
    distinct names as rows, at least 4 rows), it has 2 or 3 columns, one of them holds
    repeated text (the task names) and another numbers (the scores).

    Parameters
    ----------
    frame : pandas.DataFrame
        Systems as the index (named after the system column when read from a file).

    Returns
    -------
    (str, str, str) or None

    Examples
    --------
    >>> frame = pd.DataFrame({"task": ["qa", "nli"] * 3, "score": ["1", "2", "3", "4", "5", "6"]},
    ...                      index=pd.Index(["a", "a", "b", "b", "c", "c"], name="model"))
    >>> long_format_columns(frame)
    ('model', 'task', 'score')
    """
    n = len(frame)
    if n < 4 or not 2 <= frame.shape[1] <= 3 or frame.index.nunique() > n / 2:
        return None
    task = score = None
    for name in frame.columns:
        col = frame[name]
        numbers = pd.to_numeric(col, errors="coerce").notna().mean()
        if numbers >= 0.5 and score is None:
            score = str(name)
        elif numbers == 0 and task is None and col.nunique() <= n / 2:
            task = str(name)
    if task is None or score is None:
        return None
    return str(frame.index.name or "system"), task, score


def _names(values: Any) -> list[Any]:
    if values is None:
        return []
    values = [values] if isinstance(values, str) else list(values)
    return [normalize_name(v) if isinstance(v, str) else v for v in values]


def _labels(raw: Sequence[object], kind: str, source: Source, problems: list[ConsensusError],
            frame: pd.DataFrame | None = None) -> tuple[list[str], list[tuple[str, str]]]:
    """Normalized names (empty ones reported, and shown as ``(row 5)``), and what changed; `frame`
    (for system names) offers a column that could hold the names instead."""
    names, changed = [], []
    suggested: list[str | None] = []
    for i, value in enumerate(raw):
        if _blank(value):
            where = f" ({source.row(i)})" if kind == "system" and source.lines is not None else ""
            if kind == "task" or source.system_column is None:
                hint = f"give every {kind} a name"
            elif source.chosen:
                hint = f"system names come from column {source.system_column!r} (index_col); give every system a name"
            else:
                if not suggested:
                    suggested.append(None if frame is None else name_column(frame, complete=True))
                hint = (f"system names come from the first column ({source.system_column!r}); pass "
                        + (option("index_col", suggested[0]) + " (every row has a name there, all different)"
                           if suggested[0] else option("index_col") + " to take them from another column")
                        + ", or give every system a name")
            problems.append(EmptyLabelError(kind, i, where=where, hint=hint))
            names.append(f"({source.row(i) if kind == 'system' else source.column(i)})")
            continue
        name = normalize_name(str(value))
        if name != str(value).strip():
            changed.append((str(value), name))
        names.append(name)
    return names, changed


def _duplicates(names: list[str], raw: Sequence[object], kind: str, source: Source) -> DuplicateLabelError | None:
    seen: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        seen.setdefault(name, []).append(i)
    dups = {n: rows for n, rows in seen.items() if len(rows) > 1}
    if not dups:
        return None
    details = []
    for name, rows in list(dups.items())[:5]:
        originals = list(dict.fromkeys(str(raw[i]) for i in rows))
        where = source.rows(rows) if kind == "system" else ", ".join(source.column(j) for j in rows[:5])
        details.append(f"{name!r} at {where}" + (f" (from {', '.join(map(repr, originals))})" if len(originals) > 1 else ""))
    return DuplicateLabelError(kind, list(dups), detail=" [" + "; ".join(details) + "]")


def _check_known(names: Iterable[Any], known: Sequence[str], context: str, problems: list[ConsensusError]) -> None:
    have = set(known)
    for name in names:
        if name not in have:
            problems.append(UnknownTaskError(name, known, context))


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
    keep_columns: Iterable[str] | bool | None = None,
    dedupe: bool = False,
    higher_is_better: Iterable[str] = (),
    infer: bool = True,
) -> ParsedFrame:
    """Read a systems x tasks frame cell by cell (the options are those of ``Leaderboard.from_frame``).

    Every problem is collected before anything is raised: empty and duplicate names, names
    in options that are not columns, non-numeric and composite cells in every column,
    infinite scores, systems and tasks without a score, too few systems. Positions in the
    messages are 1-based; when the frame came from a file (the readers attach a
    :class:`~consensus.io._labels.Source`), they are the file's lines and columns.

    Parameters
    ----------
    frame : pandas.DataFrame
        Systems as the index, tasks as columns; cells are numbers, missing markers
        (:data:`~consensus.io._cells.MISSING_MARKERS`) or, with `split_composite`, composite cells.
    lower_is_better, weights, groups, split_composite, drop_empty, tasks, exclude, keep_columns, dedupe
    higher_is_better, infer
        See :meth:`consensus.Leaderboard.from_frame`.

    Returns
    -------
    ParsedFrame

    Raises
    ------
    LeaderboardError
        Not a DataFrame; :class:`~consensus.errors.LongFormatError` when the frame looks
        like a long table; the single problem found (its own class: ``EmptyLabelError``,
        ``DuplicateLabelError``, ``NonNumericScoreError``, ``CompositeScoreError``,
        ``NonFiniteScoreError``, ``EmptySystemError``, ``NoTaskError``,
        ``TooFewSystemsError``, ``InvalidWeightError``, ...) or a
        :class:`~consensus.errors.LeaderboardErrors` listing several.
    UnknownTaskError
        The single problem is a task named in an option that is not a column.

    Examples
    --------
    >>> parsed = parse_frame(pd.DataFrame({"qa": ["0.5/0.7", "-/0.8"]}, index=["a", "b"]), split_composite=True)
    >>> parsed.values.columns.tolist(), parsed.weights
    (['qa[1]', 'qa[2]'], {'qa[1]': 0.5, 'qa[2]': 0.5})
    """
    if not isinstance(frame, pd.DataFrame):
        raise LeaderboardError(f"expected a pandas DataFrame, got {type(frame).__name__}")
    source = frame.attrs.get(SOURCE_ATTR)
    if not isinstance(source, Source) or (source.lines is not None and len(source.lines) != len(frame)):
        source = Source()
    guess = long_format_columns(frame)
    if guess is not None:
        raise LongFormatError(source.system_column or guess[0], guess[1], guess[2])
    problems: list[ConsensusError] = []
    notes: list[str] = []
    raw_systems, raw_columns = list(frame.index), list(frame.columns)
    systems, sys_changed = _labels(raw_systems, "system", source, problems, frame)
    columns, col_changed = _labels(raw_columns, "task", source, problems)
    all_columns = list(columns)
    if sys_changed or col_changed:
        notes.append("normalized whitespace in names: " + _shown_changes(sys_changed + col_changed))
    if dedupe:
        systems, changes = numbered(systems)
        if changes:
            notes.append(f"{DEDUPE_NOTE} duplicate system(s) in file order: " + "; ".join(changes))
    for names, raw, kind in ((systems, raw_systems, "system"), (columns, raw_columns, "task")):
        dup = _duplicates(names, raw, kind, source)
        if dup is not None:
            problems.append(dup)

    exclude = _names(exclude)
    _check_known(exclude, columns, "exclude", problems)
    chosen = None if tasks is None else _names(tasks)
    if chosen is not None:
        _check_known(chosen, columns, "tasks", problems)
    keep_all = keep_columns is True
    keep = [] if keep_columns in (None, False, True) else _names(keep_columns)
    _check_known(keep, columns, "keep_columns", problems)
    if isinstance(lower_is_better, Mapping):
        lower_map = {normalize_name(t) if isinstance(t, str) else t: bool(f) for t, f in lower_is_better.items()}
        lower_named, lower_names = list(lower_map), [t for t, f in lower_map.items() if f]
    else:
        lower_named = lower_names = _names(lower_is_better)
    user_weights = {normalize_name(t) if isinstance(t, str) else t: w for t, w in (weights or {}).items()}
    user_groups = {str(g): _names(ts) for g, ts in (groups or {}).items()}
    position = {name: j for j, name in enumerate(columns)}
    selected = [c for c in (chosen if chosen is not None else columns) if c in position and c not in set(exclude)]
    named = set(chosen or ()) | set(lower_named) | set(user_weights) | {t for ts in user_groups.values() for t in ts}
    higher_named = _names(higher_is_better)
    for context, names in (("lower_is_better", lower_named), ("higher_is_better", higher_named),
                          ("weights", list(user_weights))):
        _check_known(names, selected, context, problems)
    for g, ts in user_groups.items():
        _check_known(ts, selected, f"group {g!r}", problems)

    protected = named | set(keep) | set(higher_named)
    infer_roles = infer and not keep_all
    by_name: dict[str, tuple[str, str]] = {}
    column = column_getter(frame)
    if infer_roles:
        for c in selected:
            if c in protected:
                continue
            found = role_by_name(c)
            if found is None and is_text_column(column(position[c])):
                found = ("metadata", "text, not numbers")
            if found is not None:
                by_name[c] = found
        if len(by_name) == len(selected):  # never every column: then they are read as tasks
            by_name = {}
    parsed: dict[str, list[np.ndarray]] = {}
    failed = False
    stderr_values: dict[str, np.ndarray] = {}
    for task in selected:
        if task in by_name and by_name[task][0] != "stderr":
            continue
        j = position[task]

        def where(rows: Sequence[int], j: int = j) -> str:
            at = source.rows(rows) if len(rows) <= 5 else f"{len(rows)} {'lines' if source.lines else 'rows'}"
            return f" ({source.column(j)}; {at})"

        if task in by_name:  # a standard error: read if it reads, never a task
            try:
                stderr_values[task] = parse_column(column(j), task, systems, False, where=where)[0]
            except LeaderboardError:
                by_name[task] = ("metadata", "named like a standard error, but not numbers")
            continue
        try:
            parsed[task] = parse_column(column(j), task, systems, split_composite, where=where)
        except LeaderboardError as exc:
            problems.append(exc)
            failed = True
    by_values: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    suspects: dict[str, str] = {}
    skipped: list[str] = []
    if infer_roles and not failed:
        by_values, suspects, skipped = _roles_by_values(parsed, protected)
    excluded = {c: (r[0], r[1], ()) for c, r in by_name.items()} | by_values
    if any(r[0] != "stderr" for r in excluded.values()):
        notes.append(excluded_note({c: r[:2] for c, r in excluded.items() if r[0] != "stderr"}))
    columns = [t for t in selected if t in parsed and t not in excluded]

    renamed: dict[str, list[str]] = {}
    splits: list[str] = []
    values_by_name: dict[str, np.ndarray] = {}
    for task in columns:
        parts = parsed[task]
        names = [task] if len(parts) == 1 else [composite_name(task, k + 1) for k in range(len(parts))]
        if len(parts) > 1:
            clash = [n for n in names if n in position]
            if clash:
                problems.append(DuplicateLabelError("task", clash))
            splits.append(f"{task!r} into {', '.join(repr(n) for n in names)}")
        values_by_name.update(zip(names, parts))
        renamed[task] = names
    if splits:  # one note for all of them: "split composite task(s) 'a' into 'a[1]', 'a[2]'; 'b' into ..."
        notes.append(f"split composite task{'s' if len(splits) > 1 else ''} " + "; ".join(splits))
    new_tasks = [name for task in columns for name in renamed[task]]
    values = pd.DataFrame(values_by_name, index=pd.Index(systems, dtype=object), columns=pd.Index(new_tasks, dtype=object))
    if infer:  # an infinite score (a failed perplexity, a division by zero in an export) measures nothing
        infinite = _infinite_as_missing(values)
        if infinite:
            values = values.where(~np.isinf(values.to_numpy(dtype=np.float64)))
            notes.append(hinted("read infinite scores as missing (the missing-score policy decides): {}; pass {} to "
                                "refuse them instead", infinite, option("infer", False)))
    _check_values(values, drop_empty=drop_empty, failed=failed, problems=problems)
    if not new_tasks and not failed:
        problems.append(NoTaskError("every column was excluded" if raw_columns else ""))

    new_weights: dict[str, float] = {}
    for task, w in user_weights.items():
        try:
            w = weight_value(w, task)
        except InvalidWeightError as exc:
            problems.append(exc)
            continue
        for name in renamed.get(task, []):
            new_weights[name] = w / len(renamed[task])
    if (problems or infer) and source.system_column is not None and not source.chosen:
        # names that are all numbers (a rank column first) beside a column of text: the names are elsewhere
        hint = _numeric_names_problem(frame, source.system_column)
        problems = problems if hint is None else [hint, *problems]
    raise_problems(problems)
    for task in columns:
        if len(renamed[task]) > 1 and task not in user_weights:
            for name in renamed[task]:
                new_weights[name] = 1.0 / len(renamed[task])
    lower_set, higher_set = set(lower_names), set(higher_named)
    conflict = sorted(lower_set & higher_set)
    if conflict:
        raise InvalidOptionError(f"task(s) {', '.join(map(repr, conflict))} named in both lower_is_better and higher_is_better")
    directions: dict[str, tuple[str, str, tuple[str, str] | None, bool]] = {}
    for task in columns:
        given = task in higher_set or task in set(lower_named)  # lower_named: lower_is_better's keys, True or False
        directions[task] = direction_reading(task, lower=task in lower_set, given=given, infer=infer)
    lower_names = [t for t in columns if directions[t][3]]
    reading = _reading_summary(
        columns=all_columns, selected=selected, excluded=excluded, directions=directions,
        suspects=suspects, skipped=skipped, stderr_values=stderr_values, systems=systems, tasks=columns,
        exclude=exclude, chosen=chosen, infer=infer,
    )
    new_lower = [name for task in lower_names for name in renamed.get(task, [])]
    new_groups = {g: [name for t in ts for name in renamed.get(t, [])] for g, ts in user_groups.items()}
    new_groups = {g: ts for g, ts in new_groups.items() if ts or not user_groups[g]}

    if drop_empty:
        values, dropped_notes = drop_unscored(values)
        notes.extend(dropped_notes)
        kept_columns = set(values.columns)
        new_lower = [t for t in new_lower if t in kept_columns]
        new_weights = {t: w for t, w in new_weights.items() if t in kept_columns}
        new_groups = {g: [t for t in ts if t in kept_columns] for g, ts in new_groups.items()}
        new_groups = {g: ts for g, ts in new_groups.items() if ts}
    return ParsedFrame(values, new_lower, new_weights, new_groups, notes, reading)


#: Column names that say a column holds the systems' names, in order of preference (compared
#: lower-cased, without spaces and underscores).
_NAME_HEADERS = ("model", "system", "method", "submission", "name", "modelname", "systemname", "evalname", "team")


def name_column(frame: pd.DataFrame, *, complete: bool = False) -> str | None:
    """The text column of `frame` that most likely holds the systems' names, for ``index_col=``.

    A column named like names (``Model``, ``System``, ``Name``, ...) first, then one whose
    values are all different and not links.

    Parameters
    ----------
    frame : DataFrame
        The table as read (systems in the index, every other column a column).
    complete : bool, default=False
        Only a column where every row has a name and the names are all different.

    Returns
    -------
    str or None
        None when no text column qualifies.

    Examples
    --------
    >>> frame = pd.DataFrame({"Name": ["", "team 2"], "Model": ["m1", "m2"], "qa": [1, 2]}, index=["", "x"])
    >>> name_column(frame), name_column(frame, complete=True)
    ('Model', 'Model')
    """
    positions = [j for j in range(frame.shape[1]) if is_text_column(frame.iloc[:, j])]
    cells = {str(frame.columns[j]): pd.Series(frame.iloc[:, j].to_numpy(dtype=object)).map(
        lambda v: "" if _blank(v) else str(v).strip()) for j in positions}

    def key(name: str) -> str:
        return normalize_name(name).lower().replace(" ", "").replace("_", "")

    if complete:
        cells = {c: v for c, v in cells.items() if (v != "").all() and v.is_unique}
    named = sorted((_NAME_HEADERS.index(key(c)), c) for c in cells if key(c) in _NAME_HEADERS)
    unique = [c for c, v in cells.items() if v.is_unique and not v.str.match(r"(?i)https?://").any()]
    found = [c for _, c in named] + unique + ([] if complete else list(cells))
    return found[0] if found else None


def _numeric_names_problem(frame: pd.DataFrame, column: str) -> LeaderboardError | None:
    """A problem saying that the default system column holds numbers (a rank), naming the text
    columns that could hold the names; None when the names are not all numbers."""
    names = [str(s) for s in frame.index]
    if not names or not all(s.strip().lstrip("-").replace(".", "", 1).isdigit() for s in names):
        return None
    text = [str(frame.columns[j]) for j in range(frame.shape[1]) if is_text_column(frame.iloc[:, j])]
    if not text:
        return None
    pick = name_column(frame)
    return LeaderboardError(
        f"system names come from the first column {column!r}, which holds numbers "
        f"({', '.join(names[:3])}, ...); pass " + option("index_col", pick) + " to take the names from it"
        + (f" (text columns: {', '.join(map(repr, text[:6]))})" if len(text) > 1 else "")
    )


def _infinite_as_missing(values: pd.DataFrame) -> str:
    """Where the infinite scores are, for the note (at most 5 tasks, 3 systems each), or ""."""
    array = values.to_numpy(dtype=np.float64)
    bad = np.isinf(array)
    parts = []
    for j in np.nonzero(bad.any(axis=0))[0]:
        rows = np.nonzero(bad[:, j])[0]
        shown = ", ".join(repr(str(values.index[i])) for i in rows[:3]) + (f" and {len(rows) - 3} more" if len(rows) > 3 else "")
        parts.append(f"task {str(values.columns[j])!r}: {shown}")
    return "; ".join(parts[:5]) + (f"; and {len(parts) - 5} more tasks" if len(parts) > 5 else "")


def _check_values(values: pd.DataFrame, *, drop_empty: bool, failed: bool, problems: list[ConsensusError]) -> None:
    """Infinite scores, systems and tasks without a score, too few systems (as problems)."""
    array = values.to_numpy(dtype=np.float64)
    systems, tasks = list(values.index), list(values.columns)
    for j in np.nonzero(np.isinf(array).any(axis=0))[0]:
        rows = np.nonzero(np.isinf(array[:, j]))[0]
        problems.append(NonFiniteScoreError(tasks[j], [systems[i] for i in rows], float(array[rows[0], j])))
    present = ~np.isnan(array)
    if not drop_empty:
        if not failed:
            empty_rows = np.nonzero(~present.any(axis=1))[0]
            if len(empty_rows) and array.shape[1]:
                problems.append(EmptySystemError([systems[i] for i in empty_rows]))
        empty_cols = [tasks[j] for j in np.nonzero(~present.any(axis=0))[0]]
        if empty_cols:
            problems.append(LeaderboardError(
                f"task(s) {', '.join(repr(t) for t in empty_cols[:10])} have no score for any system; "
                "remove them or pass " + option("drop_empty", True)
            ))
    if len(systems) < 2:
        problems.append(TooFewSystemsError(len(systems)))


def _roles_by_values(
    parsed: Mapping[str, list[np.ndarray]], protected: set[str]
) -> tuple[dict[str, tuple[str, str, tuple[str, ...]]], dict[str, str], list[str]]:
    """Rank, duplicate and aggregate columns found by their values (:mod:`consensus.io._columns`),
    suspected aggregates kept as tasks (with what they look like), and the checks skipped."""
    singles = {t: parts[0] for t, parts in parsed.items() if len(parts) == 1}
    found: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    for name, col in singles.items():
        if name not in protected and len(col) >= 5 and is_rank_column(col):
            found[name] = ("rank", "integer ranks 1, 2, 3, ... in row order", ())
    rest = {n: c for n, c in singles.items() if n not in found}
    very_wide = len(rest) > MAX_DUPLICATE_COLUMNS
    for name, (kept, why) in ({} if very_wide else duplicate_columns(rest)).items():
        if name not in protected:
            found[name] = ("duplicate", why, (kept,))
    rest = {n: c for n, c in rest.items() if n not in found}
    wide = len(rest) > MAX_FIT_COLUMNS
    suspects: dict[str, str] = {}
    for name, fit in aggregate_columns(rest, fit=not wide).items():
        if name in protected:
            continue
        what = {"mean": "the mean", "sum": "the sum", "weighted": "a non-negative weighted sum"}[fit.kind]
        shown = ", ".join(fit.of[:6]) + (f" and {len(fit.of) - 6} more" if len(fit.of) > 6 else "")
        text = f"{what} of {shown} within print rounding ({fit.rows} rows)"
        if fit.certain:
            found[name] = ("aggregate", text, fit.of)
        else:
            suspects[name] = f"looks like an aggregate: {text}, too few rows to be sure"
    if len(found) == len(parsed):  # never every column
        return {}, suspects, []
    skipped = [
        f"aggregate fit skipped on {len(rest)} numeric columns (more than {MAX_FIT_COLUMNS}); the row-mean and "
        "duplicate tests ran"
    ] if wide and not very_wide else [
        f"aggregate fit and duplicate test skipped on {len(rest)} numeric columns (more than "
        f"{MAX_DUPLICATE_COLUMNS}: the duplicate test is quadratic in the columns); the row-mean test ran"
    ] if very_wide else []
    return {n: found[n] for n in parsed if n in found}, suspects, skipped


def _reading_summary(
    *,
    columns: Sequence[str],
    selected: Sequence[str],
    excluded: Mapping[str, tuple[str, str, tuple[str, ...]]],
    directions: Mapping[str, tuple[str, str, tuple[str, str] | None, bool]],
    suspects: Mapping[str, str],
    skipped: Sequence[str],
    stderr_values: Mapping[str, np.ndarray],
    systems: Sequence[str],
    tasks: Sequence[str],
    exclude: Sequence[str],
    chosen: Sequence[str] | None,
    infer: bool,
) -> ReadingSummary:
    """One :class:`~consensus.io._columns.ColumnReading` per column of the frame, in column order."""
    chosen_set, selected_set, exclude_set = set(chosen or ()), set(selected), set(exclude)
    readings: list[ColumnReading] = []
    stderr: dict[str, np.ndarray] = {}
    left: str | None = None
    for c in columns:
        if c in directions:
            way, source, override, _ = directions[c]
            note = suspects.get(c, "")
            undo = override if override is not None else (("exclude", c) if note else None)
            readings.append(ColumnReading(c, "task", direction=way, direction_source=source, override=undo, note=note))
            left = c
        elif c not in selected_set:
            why = (named("exclude", equals=True) if c in exclude_set
                   else "not in " + named("tasks", equals=True) if chosen is not None and c not in chosen_set else "")
            readings.append(ColumnReading(c, "excluded", why))
        elif c in excluded:
            role, why, of = excluded[c]
            if role == "stderr":
                target = stderr_target(c, tasks, left)
                if target is not None and c in stderr_values and target not in stderr:
                    stderr[target] = stderr_values[c]
                    of = (target,)
                else:
                    of = ()
            readings.append(ColumnReading(c, role, why, of=tuple(of), override=("keep_columns", c)))  # type: ignore[arg-type]
    frame = None
    if stderr:
        frame = pd.DataFrame({t: stderr[t] for t in tasks if t in stderr}, index=pd.Index(systems, dtype=object))
    return ReadingSummary(tuple(readings), inferred=infer, stderr=frame, skipped=tuple(skipped))
