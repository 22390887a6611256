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

from .._docstrings import COMMON, fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import (
    InputTooLargeError,
    InvalidOptionError,
    LeaderboardError,
    UnknownTaskError,
)
from ..hints import option
from ._file_tables import existing_file, file_format, read_delimited, read_json_table
from ._instance_files import CHUNKED_FILE_BYTES, DEFAULT_CHUNKSIZE, read_instances
from ._labels import (
    DEDUPE_NOTE,
    LINES_ATTR,
    NOTES_ATTR,
    SOURCE_ATTR,
    Source,
    normalize_name,
    numbered,
)

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

def read_table(
    path: str | Path, *, format: str | None = None, sep: str | None = None, orient: str | None = None
) -> pd.DataFrame:
    """Read a CSV/TSV/Parquet/JSON file into a raw frame, exactly as the file says it.

    CSV and TSV cells are read as text, so composite cells and missing markers reach
    :meth:`Leaderboard.from_frame` untouched. Nothing is renamed, shifted or rounded: a
    repeated or blank header, or a row with more or fewer fields than the header, is an
    error naming its column or line, and JSON numbers and keys are read as Python's
    :mod:`json` reads them (:mod:`consensus.io._file_tables` has the rules).

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
    orient : {"columns", "index"}, optional
        For a JSON object of objects: whether the outer keys are tasks (``"columns"``, what
        ``DataFrame.to_json()`` writes, the default, stated in a note) or systems.

    Returns
    -------
    pandas.DataFrame
        The table as read, with a plain row-number index for CSV/TSV (every cell a string,
        pandas' default NA strings kept as text). Parquet files keep their stored types and
        index; JSON columns of numbers are float, other JSON values stay as parsed. Notes
        (a skipped comment line, the orientation of a JSON object) are in
        ``frame.attrs["consensus.read_notes"]``; :func:`frame_to_leaderboard` carries them
        to the leaderboard's :attr:`~Leaderboard.notes`.

    Raises
    ------
    LeaderboardError
        If the file does not exist, is a directory, cannot be read (permission), is empty,
        cannot be parsed, has a repeated or blank header, a row whose number of fields
        differs from the header's (naming the line), is not UTF-8, has an unknown format,
        or reads as a single column while its header holds another delimiter (the message
        names the `sep` to pass).
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
    path = existing_file(path, sep)
    fmt = file_format(path, format)
    if fmt in {"csv", "tsv"}:
        if path.stat().st_size == 0:
            raise LeaderboardError(f"file {str(path)!r} is empty")
        delimiter = sep or ("\t" if fmt == "tsv" else ",")
        table = read_delimited(path, delimiter)
        frame = table.frame
        frame.attrs[LINES_ATTR] = table.lines
        frame.attrs[NOTES_ATTR] = table.notes
        if frame.shape[1] <= 1:
            header = str(frame.columns[0]) if frame.shape[1] else ""
            for name, char in ((";", ";"), ("tab", "\t"), (",", ","), ("|", "|")):
                if char != delimiter and char in header:
                    raise LeaderboardError(
                        f"file {str(path)!r} has a single column with the {fmt} delimiter; it looks "
                        f"{name}-separated: pass " + option("sep", char)
                    )
        return frame
    if fmt == "parquet":
        _check_parquet_cells(path)
        try:
            return pd.read_parquet(path)
        except ImportError as exc:
            raise ImportError(
                "reading Parquet needs pyarrow: pip install 'leaderboard-consensus[parquet]'"
            ) from exc
        except PermissionError:
            raise LeaderboardError(f"cannot read {str(path)!r}: permission denied") from None
        except Exception as exc:  # pyarrow raises its own error types
            raise LeaderboardError(f"cannot read {str(path)!r} as parquet: {exc}") from None
    table = read_json_table(path, orient)
    frame = table.frame
    frame.attrs[NOTES_ATTR] = table.notes
    return frame


def _check_parquet_cells(path: Path) -> None:
    """Refuse a Parquet table of more cells than a CSV may hold (:func:`~consensus.io._limits.max_table_cells`),
    by the row and column counts of its own metadata, before pyarrow decodes it: its pages are
    compressed and run-length encoded, so a small file can hold a billion rows."""
    from ._limits import max_table_cells

    try:
        import pyarrow.parquet as pq

        meta = pq.read_metadata(path)
    except Exception:  # no pyarrow, or not Parquet: pd.read_parquet says which
        return
    cells, cap = int(meta.num_rows) * max(int(meta.num_columns), 1), max_table_cells()
    if cells > cap:
        raise InputTooLargeError(
            f"{str(path)!r} holds {cells:,} cells by its own metadata, more than {cap:,}: too large a table to read "
            "whole (instance-level scores: --instances reads them in chunks); raise the limit with --max-input-size")


def _system_column(frame: pd.DataFrame, index_col: str | None, path: str) -> str | None:
    """The column naming the systems of a wide frame: `index_col`, or the first column when the
    frame has a plain row-number index (CSV, a JSON list of records); None when the frame's own
    index already holds the names (Parquet or JSON written by pandas from an indexed frame)."""
    if frame.shape[1] == 0:
        raise LeaderboardError(f"file {path!r} has no columns" if path else "the table has no columns")
    if index_col is None:
        if not isinstance(frame.index, pd.RangeIndex):
            return None
        index_col = frame.columns[0]
        if pd.api.types.is_numeric_dtype(frame[index_col].dtype):
            raise LeaderboardError(
                f"the file{f' {path!r}' if path else ''} has no column of system names: its first column "
                f"{str(index_col)!r} holds numbers and the rows have no names (as DataFrame.to_json writes a frame "
                "in its records layout, or to_parquet a frame without an index); write the names as a column or "
                "the index, or pass " + option("index_col") + " naming the column of names"
            )
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
    notes: list[str] = list(frame.attrs.get(NOTES_ATTR) or ())
    if long is not None and (isinstance(long, str) or not isinstance(long, Sequence) or len(long) != 3):
        raise InvalidOptionError(f"long must name 3 columns (system, task, score), got {long!r}")
    if index_col is not None and not isinstance(index_col, str):
        raise InvalidOptionError(f"index_col must be a column name, got {index_col!r}")
    if long is not None:
        if dedupe:
            frame, dedupe_notes = dedupe_systems(frame, long=long)
            notes += dedupe_notes
        system, task, score = long
        lb = Leaderboard.from_long(frame, system=system, task=task, score=score, **options)
        return lb.with_notes(notes)
    read_notes = list(frame.attrs.get(NOTES_ATTR) or ())
    column = _system_column(frame, index_col, source)
    all_lines = frame.attrs.get(LINES_ATTR)
    lines = None
    if all_lines is not None and isinstance(frame.index, pd.RangeIndex) and len(all_lines) == len(frame):
        lines = tuple(all_lines)
    numbers = None
    if column is not None:
        numbers = tuple(k + 1 for k, c in enumerate(frame.columns) if c != column)
        index = pd.Index(frame[column], name=None)
        frame = frame.drop(columns=[column])  # set_index deletes the column block by block: 4 s at 20,000 columns
        frame.index = index
    frame = frame.copy()
    frame.attrs = {SOURCE_ATTR: Source(source, lines, numbers, None if column is None else str(column), index_col is not None)}
    lb = Leaderboard.from_frame(frame, dedupe=dedupe, **options)
    return lb.with_notes(read_notes) if read_notes else lb


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
        infer=False,  # lb was read already: its tasks and directions are as they are
    )


@fill_doc(COMMON)
def read_leaderboard(
    path: str | Path,
    *,
    format: str | None = None,
    index_col: str | None = None,
    long: tuple[str, str, str] | None = None,
    sep: str | None = None,
    orient: str | None = None,
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
    orient : {"columns", "index"}, optional
        For a JSON object of objects, whether its outer keys are tasks (the default, as
        ``DataFrame.to_json()`` writes it; stated in the notes) or systems.
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
    {parquet_import}

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
    frame = read_table(path, format=format, sep=sep, orient=orient)
    return frame_to_leaderboard(frame, index_col=index_col, long=long, dedupe=dedupe, source=str(path), **options)
