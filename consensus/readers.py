"""Scores in from files: leaderboards (wide or long) and instance-level scores.

- :func:`read_table`: one file (CSV, TSV, Parquet, JSON) into a raw frame, text cells kept
  as text so that :meth:`Leaderboard.from_frame` sees composite cells and missing markers.
- :func:`frame_to_leaderboard`: a raw frame (wide or long) into a :class:`Leaderboard`,
  optionally renaming duplicate systems first (:func:`dedupe_systems`).
- :func:`read_leaderboard`: both steps; :func:`read_instances`: instance-level scores.

The CLI reads files with these same functions, so a file means the same thing to the API
and to the command line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .errors import InvalidOptionError, LeaderboardError, UnknownTaskError
from .instances import InstanceScores
from .labels import (
    DEDUPE_NOTE,
    LINES_ATTR,
    SOURCE_ATTR,
    Source,
    csv_lines,
    normalize_name,
    numbered,
)
from .leaderboard import Leaderboard

__all__ = [
    "DEDUPE_NOTE",
    "read_table",
    "dedupe_systems",
    "frame_to_leaderboard",
    "read_leaderboard",
    "apply_reading_options",
    "read_instances",
    "CHUNKED_FILE_BYTES",
    "DEFAULT_CHUNKSIZE",
]

#: Files larger than this are read in chunks of :data:`DEFAULT_CHUNKSIZE` rows by default.
CHUNKED_FILE_BYTES = 64 * 1024 * 1024
DEFAULT_CHUNKSIZE = 1_000_000


_FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet", ".json": "json"}


def _file_format(path: Path, format: str | None) -> str:
    if format is not None:
        if format not in {"csv", "tsv", "parquet", "json"}:
            raise LeaderboardError(f"unknown file format {format!r}; use csv, tsv, parquet or json")
        return format
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise LeaderboardError(
            f"cannot tell the format of {str(path)!r} from its extension; pass format='csv'|'tsv'|'parquet'|'json'"
        )
    return fmt


def read_table(path: str | Path, *, format: str | None = None, sep: str | None = None) -> pd.DataFrame:
    """Read a CSV/TSV/Parquet/JSON file into a raw frame (text cells kept as text).

    CSV and TSV cells are read as text, so composite cells and missing markers reach
    :meth:`Leaderboard.from_frame` untouched.

    Parameters
    ----------
    path : str or Path
        The file; its extension (``.csv``, ``.txt``, ``.tsv``, ``.parquet``, ``.pq``,
        ``.json``) picks the format unless `format` is given.
    format : {"csv", "tsv", "parquet", "json"}, optional
        The file format, overriding the extension.
    sep : str, optional
        Delimiter of a CSV/TSV file (default ``","`` for CSV, a tab for TSV); ignored for
        Parquet and JSON.

    Returns
    -------
    pandas.DataFrame
        The table as read, with a plain row-number index for CSV/TSV (every cell a string,
        pandas' default NA strings kept as text). Parquet and JSON files keep their stored
        types and index.

    Raises
    ------
    LeaderboardError
        If the file does not exist, is a directory, is empty, cannot be parsed, has an
        unknown format, or reads as a single column while its header holds another
        delimiter (the message names the `sep` to pass).
    ImportError
        If a Parquet file is read without pyarrow installed.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lb.csv")
    >>> _ = open(path, "w").write("model,glue,qa\\na,93.9/91.8,NA\\n")
    >>> read_table(path).to_dict("records")
    [{'model': 'a', 'glue': '93.9/91.8', 'qa': 'NA'}]
    """
    path = Path(path)
    if not path.exists():
        raise LeaderboardError(f"file not found: {str(path)!r}")
    if path.is_dir():
        raise LeaderboardError(f"{str(path)!r} is a directory, not a file")
    fmt = _file_format(path, format)
    if fmt in {"csv", "tsv"}:
        if path.stat().st_size == 0:
            raise LeaderboardError(f"file {str(path)!r} is empty")
        delimiter = sep or ("\t" if fmt == "tsv" else ",")
        try:
            frame = pd.read_csv(path, sep=delimiter, dtype=str, keep_default_na=False, skipinitialspace=True)
        except pd.errors.EmptyDataError:
            raise LeaderboardError(f"file {str(path)!r} is empty") from None
        except (pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise LeaderboardError(f"cannot parse {str(path)!r} as {fmt}: {str(exc).strip()}") from None
        lines = csv_lines(str(path), delimiter, len(frame))
        if lines is not None:
            frame.attrs[LINES_ATTR] = lines
        if frame.shape[1] <= 1:
            with path.open(encoding="utf-8", errors="replace") as fh:
                header = fh.readline()
            for name, char in ((";", ";"), ("tab", "\t"), (",", ","), ("|", "|")):
                if char != delimiter and char in header:
                    raise LeaderboardError(
                        f"file {str(path)!r} has a single column with the {fmt} delimiter; it looks "
                        f"{name}-separated: pass sep={char!r}"
                    )
        return frame
    if fmt == "parquet":
        try:
            return pd.read_parquet(path)
        except ImportError as exc:
            raise ImportError(
                "reading Parquet needs pyarrow: pip install 'leaderboard-consensus[parquet]'"
            ) from exc
        except Exception as exc:  # pyarrow raises its own error types
            raise LeaderboardError(f"cannot read {str(path)!r} as parquet: {exc}") from None
    try:
        return pd.read_json(path, dtype=False)
    except ValueError as exc:
        raise LeaderboardError(f"cannot read {str(path)!r} as json: {exc}") from None


def _system_column(frame: pd.DataFrame, index_col: str | None, path: str) -> str | None:
    """The column naming the systems of a wide frame: `index_col`, or the first column when the
    frame has a plain row-number index (CSV, a JSON list of records); None when the frame's own
    index already holds the names (Parquet or JSON written by pandas from an indexed frame)."""
    if frame.shape[1] == 0:
        raise LeaderboardError(f"file {path!r} has no columns" if path else "the table has no columns")
    if index_col is None:
        if not isinstance(frame.index, pd.RangeIndex):
            return None
        index_col = str(frame.columns[0])
    if index_col not in frame.columns:
        matches = [c for c in frame.columns if normalize_name(str(c)) == normalize_name(index_col)]
        if len(matches) != 1:
            raise UnknownTaskError(index_col, [str(c) for c in frame.columns], "index_col")
        index_col = matches[0]
    return index_col


def dedupe_systems(
    frame: pd.DataFrame, *, long: tuple[str, str, str] | None = None
) -> tuple[pd.DataFrame, list[str]]:
    """Rename repeated systems so that every row is kept: ``m`` -> ``m_1``, ``m_2``, ...

    Parameters
    ----------
    frame : pandas.DataFrame
        Wide: indexed by system (as :func:`frame_to_leaderboard` indexes it). Long: one row
        per (system, task) pair, with the columns named in `long`.
    long : (system, task, score), optional
        The columns of a long frame; there the k-th row of a repeated (system, task) pair
        goes to ``NAME_k``. Every row of a system with a repeated pair is renamed by its
        occurrence for its task (a task listed once goes to ``NAME_1``). If the system or
        task column is absent, the frame is returned unchanged.

    Returns
    -------
    (pandas.DataFrame, list of str)
        The frame (a copy when renamed) and the notes saying what was renamed (empty when
        nothing was).

    Examples
    --------
    >>> frame = pd.DataFrame({"qa": [0.1, 0.2, 0.3]}, index=["m", "n", "m"])
    >>> renamed, notes = dedupe_systems(frame)
    >>> list(renamed.index), notes
    (['m_1', 'n', 'm_2'], ['--dedupe renamed duplicate system(s) in file order: m -> m_1, m_2'])
    """
    if long is None:
        renamed, changes = numbered([str(s) for s in frame.index])
        if not changes:
            return frame, []
        out = frame.copy()
        out.index = pd.Index(renamed, dtype=object)
        return out, [f"{DEDUPE_NOTE} duplicate system(s) in file order: " + "; ".join(changes)]
    system, task, _ = long
    if system not in frame.columns or task not in frame.columns:
        return frame, []  # Leaderboard.from_long names the missing column
    keys = frame[[system, task]].astype(str)
    occurrence = keys.groupby([system, task], sort=False).cumcount() + 1
    repeated = keys.duplicated([system, task], keep=False)
    duplicated = set(keys.loc[repeated, system])
    if not duplicated:
        return frame, []
    out = frame.copy()
    is_dup = keys[system].isin(duplicated)
    out.loc[is_dup, system] = keys.loc[is_dup, system] + "_" + occurrence[is_dup].astype(str)
    return out, [f"{DEDUPE_NOTE} repeated system(s) by occurrence of each task: " + ", ".join(sorted(duplicated))]


def frame_to_leaderboard(
    frame: pd.DataFrame,
    *,
    index_col: str | None = None,
    long: tuple[str, str, str] | None = None,
    dedupe: bool = False,
    source: str = "",
    **options: Any,
) -> Leaderboard:
    """A raw table (as :func:`read_table` returns it) as a :class:`Leaderboard`.

    Parameters
    ----------
    frame : pandas.DataFrame
        Wide (one row per system) or long (one row per system-task pair, `long` given).
    index_col : str, optional
        Wide: the column of system names. Default: the first column, unless the frame's
        index already holds the names (it is not a plain row-number index).
    long : (system, task, score), optional
        Column names of a long table.
    dedupe : bool, default False
        Rename repeated systems ``NAME_1``, ``NAME_2``, ... (after name normalization)
        instead of refusing them; the leaderboard's :attr:`~Leaderboard.notes` say what was
        renamed.
    source : str, default ""
        The file name, for error messages.
    **options
        Passed to :meth:`Leaderboard.from_frame` / :meth:`Leaderboard.from_long`
        (``lower_is_better``, ``weights``, ``groups``, ``split_composite``,
        ``keep_columns``, ...). Bookkeeping columns (rank, average, ...) are excluded with
        a note unless ``keep_columns`` keeps them.

    Notes
    -----
    Error messages point into the file: a frame from :func:`read_table` carries the file
    line of each row, and the readers attach it (with the file column of each task) for
    :meth:`Leaderboard.from_frame`. Every problem is reported in one error
    (:class:`~consensus.errors.LeaderboardErrors` when there are several).

    Returns
    -------
    Leaderboard

    Raises
    ------
    LeaderboardError
        The table has no columns, or its scores do not form a valid leaderboard.
    UnknownTaskError
        `index_col` is not a column, a column named in `long` is absent, or an option
        names an unknown task.

    Examples
    --------
    >>> import pandas as pd
    >>> raw = pd.DataFrame({"model": ["a", "b"], "qa": ["0.7", "-"], "nli": ["0.5", "0.6"]})
    >>> frame_to_leaderboard(raw).scores
        qa  nli
    a  0.7  0.5
    b  NaN  0.6
    """
    notes: list[str] = []
    if long is not None:
        if dedupe:
            frame, notes = dedupe_systems(frame, long=long)
        system, task, score = long
        lb = Leaderboard.from_long(frame, system=system, task=task, score=score, **options)
        return lb.with_notes(notes)
    column = _system_column(frame, index_col, source)
    all_lines = frame.attrs.get(LINES_ATTR)
    lines = None
    if all_lines is not None and isinstance(frame.index, pd.RangeIndex) and len(all_lines) == len(frame):
        lines = tuple(all_lines)
    numbers = None
    if column is not None:
        numbers = tuple(k + 1 for k, c in enumerate(frame.columns) if c != column)
        frame = frame.set_index(column)
        frame.index.name = None
    frame = frame.copy()
    frame.attrs = {SOURCE_ATTR: Source(source, lines, numbers, None if column is None else str(column), index_col is not None)}
    return Leaderboard.from_frame(frame, dedupe=dedupe, **options)


def apply_reading_options(
    lb: Leaderboard,
    *,
    lower_is_better: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    groups: Mapping[str, Iterable[str]] | None = None,
    tasks: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
) -> Leaderboard:
    """`lb` as if it had been read with these options (how the CLI treats built-in examples).

    Parameters
    ----------
    lb : Leaderboard
    lower_is_better : iterable of str, default ()
        Tasks to treat as lower-is-better, in addition to those `lb` already has.
    weights : Mapping, optional
        Task weights replacing `lb`'s (unlisted tasks weigh 1); default: keep `lb`'s.
    groups : Mapping, optional
        Task groups replacing `lb`'s; default: keep `lb`'s.
    tasks : iterable of str, optional
        Keep only these tasks, in this order.
    exclude : iterable of str, default ()
        Drop these tasks.

    Returns
    -------
    Leaderboard
        `lb` itself when no option is given.

    Raises
    ------
    UnknownTaskError
        An option names a task `lb` does not have.
    NoTaskError
        Every task was excluded.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = apply_reading_options(cs.load_example("votenrank-toy"), exclude=["t5"], lower_is_better=["t1"])
    >>> lb.tasks, sorted(lb.lower_is_better)
    (('t1', 't2', 't3', 't4'), ['t1'])
    """
    lower = list(lower_is_better)
    exclude = list(exclude)
    if not (lower or weights or groups or tasks is not None or exclude):
        return lb
    tasks = None if tasks is None else list(tasks)
    kept = set(lb.tasks if tasks is None else tasks) - set(exclude)
    # what lb already carries is restricted to the tasks kept; what the caller gives is checked
    own_lower = {t for t in lb.lower_is_better if t in kept}
    if weights is None:
        weights = {t: float(w) for t, w in lb.weights.items() if t in kept}
    if groups is None:
        groups = {g: [t for t in ts if t in kept] for g, ts in lb.groups.items()}
        groups = {g: ts for g, ts in groups.items() if ts}
    return Leaderboard.from_frame(
        lb.scores,
        lower_is_better=sorted(own_lower | set(lower)),
        weights=weights,
        groups=groups,
        tasks=tasks,
        exclude=exclude,
        keep_columns=True,  # lb was read already: its tasks are tasks
    )


def read_leaderboard(
    path: str | Path,
    *,
    format: str | None = None,
    index_col: str | None = None,
    long: tuple[str, str, str] | None = None,
    sep: str | None = None,
    dedupe: bool = False,
    **options: Any,
) -> Leaderboard:
    """Read a leaderboard file: CSV, TSV, Parquet or JSON, wide or long.

    Parameters
    ----------
    path : str or Path
        The file; its extension picks the format unless `format` is given.
    format : {"csv", "tsv", "parquet", "json"}, optional
        The file format, overriding the extension.
    index_col : str, optional
        Column holding the system names (wide files); default the first column (or the
        frame's own index for Parquet/JSON files written from an indexed frame).
    long : (system, task, score), optional
        Column names of a long file (one row per system-task pair).
    sep : str, optional
        Delimiter of a CSV/TSV file.
    dedupe : bool, default False
        Rename repeated systems ``NAME_1``, ``NAME_2``, ... instead of refusing them.
    **options
        Passed to :meth:`Leaderboard.from_frame` (``lower_is_better``, ``weights``,
        ``split_composite``, ``exclude``, ``keep_columns``, ``drop_empty``, ...).

    Returns
    -------
    Leaderboard

    Raises
    ------
    LeaderboardError
        The file is missing, empty, unreadable, or its scores are invalid (subclasses name
        the system, task or cell at fault).
    UnknownTaskError
        `index_col` or a column named in `long` is absent, or an option names an unknown
        task.
    ImportError
        A Parquet file is read without pyarrow installed.

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "lb.csv")
    >>> _ = open(path, "w").write("model,qa,nli\\na,0.7,-\\nb,0.6,0.5\\n")
    >>> read_leaderboard(path).scores
        qa  nli
    a  0.7  NaN
    b  0.6  0.5
    """
    frame = read_table(path, format=format, sep=sep)
    return frame_to_leaderboard(frame, index_col=index_col, long=long, dedupe=dedupe, source=str(path), **options)


def read_instances(
    path: str | Path,
    *,
    system: str = "system",
    task: str = "task",
    instance: str = "instance",
    score: str = "score",
    lower_is_better: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    format: str | None = None,
    sep: str | None = None,
    chunksize: int | None = None,
) -> InstanceScores:
    """Read instance-level scores from a long CSV/TSV or Parquet file.

    Only the four named columns are read. Files larger than 64 MiB are read in chunks of one
    million rows (or `chunksize` rows when given), with system and task labels held as
    categoricals, so memory stays near the size of the final array (8 bytes per cell).

    Parameters
    ----------
    path : str or Path
        ``.csv``, ``.tsv``, ``.txt``, ``.parquet`` or ``.pq`` (or pass `format`).
    system, task, instance, score : str
        Column names.
    lower_is_better, weights
        As in :meth:`InstanceScores.from_long`.
    format : {"csv", "tsv", "parquet"}, optional
        The file format, overriding the extension.
    sep : str, optional
        Delimiter of a CSV/TSV file.
    chunksize : int, optional
        Rows per chunk; ``0`` reads the file at once.

    Returns
    -------
    InstanceScores
        Built by :meth:`InstanceScores.from_long` from the four columns.

    Raises
    ------
    LeaderboardError
        The file is missing, a directory, JSON, empty, unparsable, has no rows, or lacks
        one of the four columns; or the scores are invalid (:meth:`InstanceScores.from_long`
        lists the subclasses).
    InvalidOptionError
        `chunksize` is not a non-negative integer, or the four column names are not
        distinct.
    UnknownTaskError
        `lower_is_better` or `weights` name an unknown task.
    ImportError
        A Parquet file is read without pyarrow installed.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "inst.csv")
    >>> _ = open(path, "w").write("system,task,instance,score\\na,qa,1,0.5\\nb,qa,1,0.7\\nb,qa,2,0.1\\n")
    >>> read_instances(path)
    InstanceScores(2 systems x 1 tasks, 2 instances, 3 scores, 1 missing)
    """
    path = Path(path)
    if not path.exists():
        raise LeaderboardError(f"file not found: {str(path)!r}")
    if path.is_dir():
        raise LeaderboardError(f"{str(path)!r} is a directory, not a file")
    fmt = _file_format(path, format)
    if fmt == "json":
        raise LeaderboardError("instance-level scores are read from csv, tsv or parquet files, not json")
    if chunksize is not None and (int(chunksize) != chunksize or chunksize < 0):
        raise InvalidOptionError(f"chunksize must be a non-negative integer, got {chunksize!r}")
    size = path.stat().st_size
    if chunksize is None:
        chunksize = DEFAULT_CHUNKSIZE if size > CHUNKED_FILE_BYTES else 0
    columns = [system, task, instance, score]
    if len(set(columns)) != 4:
        raise InvalidOptionError(f"system, task, instance and score must be four different columns, got {columns}")
    if fmt in {"csv", "tsv"}:
        frame = _read_csv(path, columns, sep or ("\t" if fmt == "tsv" else ","), int(chunksize), size)
    else:
        frame = _read_parquet(path, columns, int(chunksize))
    return InstanceScores.from_long(
        frame,
        system=system,
        task=task,
        instance=instance,
        score=score,
        lower_is_better=lower_is_better,
        weights=weights,
    )


def _check_columns(found: Sequence[object], columns: Sequence[str], path: Path) -> None:
    missing = [c for c in columns if c not in set(map(str, found))]
    if missing:
        raise LeaderboardError(
            f"file {str(path)!r} has no column(s) {', '.join(repr(c) for c in missing)}; its columns are "
            f"{', '.join(repr(str(c)) for c in list(found)[:10])}; pass system=, task=, instance=, score="
        )


def _compact(frame: pd.DataFrame, columns: Sequence[str]) -> pd.DataFrame:
    """Labels as categoricals in first-appearance order (small), the other columns untouched."""
    labels = {}
    for c in columns[:2]:
        values = frame[c]
        labels[c] = pd.Categorical(values, categories=pd.unique(values.dropna()))
    return frame.assign(**labels)


def _concat(pieces: list[pd.DataFrame], columns: Sequence[str]) -> pd.DataFrame:
    if len(pieces) == 1:
        return pieces[0]
    from pandas.api.types import union_categoricals

    out = {}
    for c in columns:
        if isinstance(pieces[0][c].dtype, pd.CategoricalDtype):
            out[c] = pd.Series(union_categoricals([p[c] for p in pieces]))
        else:
            out[c] = pd.concat([p[c] for p in pieces], ignore_index=True)
    return pd.DataFrame(out)


def _read_csv(path: Path, columns: Sequence[str], sep: str, chunksize: int, size: int) -> pd.DataFrame:
    if size == 0:
        raise LeaderboardError(f"file {str(path)!r} is empty")
    try:
        header = pd.read_csv(path, sep=sep, nrows=0)
    except pd.errors.EmptyDataError:
        raise LeaderboardError(f"file {str(path)!r} is empty") from None
    _check_columns(header.columns, columns, path)
    label_types = {columns[0]: str, columns[1]: str}
    try:
        if chunksize:
            reader = pd.read_csv(path, sep=sep, usecols=list(columns), dtype=label_types, chunksize=chunksize)
            pieces = [_compact(chunk, columns) for chunk in reader]
        else:
            pieces = [pd.read_csv(path, sep=sep, usecols=list(columns), dtype=label_types)]
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as exc:
        raise LeaderboardError(f"cannot parse {str(path)!r}: {str(exc).strip()}") from None
    if not pieces:
        raise LeaderboardError(f"file {str(path)!r} has no rows")
    return _concat(pieces, columns)[list(columns)]


def _read_parquet(path: Path, columns: Sequence[str], chunksize: int) -> pd.DataFrame:
    try:
        import pyarrow.parquet as pq
    except ImportError as exc:  # pragma: no cover - pyarrow is a test dependency
        raise ImportError("reading Parquet needs pyarrow: pip install 'leaderboard-consensus[parquet]'") from exc
    try:
        handle = pq.ParquetFile(path)
    except Exception as exc:  # pyarrow raises its own error types
        raise LeaderboardError(f"cannot read {str(path)!r} as parquet: {exc}") from None
    _check_columns(handle.schema_arrow.names, columns, path)
    if chunksize:
        pieces = [
            _compact(batch.to_pandas(), columns)
            for batch in handle.iter_batches(batch_size=chunksize, columns=list(columns))
        ]
    else:
        pieces = [handle.read(columns=list(columns)).to_pandas()]
    if not pieces:
        raise LeaderboardError(f"file {str(path)!r} has no rows")
    return _concat(pieces, columns)[list(columns)]
