"""Instance-level scores in from files: one long CSV/TSV or Parquet file, read in chunks.

The same rules as the leaderboard readers (:mod:`consensus.io._file_tables`): names and instance
ids as written, a repeated header or a row with the wrong number of fields an error naming it.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

import pandas as pd

from .._docstrings import COMMON, fill_doc
from ..board._instances import InstanceScores
from ..errors import InvalidOptionError, LeaderboardError
from ._file_tables import (
    csv_error,
    decode_error,
    existing_file,
    file_format,
    header_fields,
    open_binary,
    open_text,
)
from ._opening import bounded_lines

__all__ = ["read_instances", "ragged_lines", "CHUNKED_FILE_BYTES", "DEFAULT_CHUNKSIZE"]

#: Files larger than this are read in chunks of :data:`DEFAULT_CHUNKSIZE` rows by default.
CHUNKED_FILE_BYTES = 64 * 1024 * 1024
DEFAULT_CHUNKSIZE = 1_000_000



@fill_doc(COMMON)
def read_instances(
    path: str | Path | Sequence[str | Path],
    *,
    system: str | None = "system",
    task: str | None = "task",
    instance: str = "instance",
    score: str = "score",
    lower_is_better: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    format: str | None = None,
    sep: str | None = None,
    chunksize: int | None = None,
    progress: Callable[..., None] | None = None,
) -> InstanceScores:
    """Read instance-level scores from a long CSV/TSV or Parquet file, or from many of them.

    Only the four named columns are read. Files larger than 64 MiB are read in chunks of one
    million rows (or `chunksize` rows when given), with system and task labels held as
    categoricals, so memory stays near the size of the final array (8 bytes per cell).

    A directory, a glob (``"logs/*.parquet"``) or a list of files (one per model or one per
    task) is read by :func:`consensus.io._instance_sets.read_instance_files`: items aligned by
    (task, instance) across files, a model missing an item missing there, the scores written
    straight into the array without building the long table.

    Parameters
    ----------
    path : str, Path or list of them
        ``.csv``, ``.tsv``, ``.txt``, ``.parquet`` or ``.pq`` (or pass `format`); or a
        directory, glob or list of such files.
    system, task, instance, score : str
        Column names. With many files, ``system=None`` (``task=None``) takes each file's name
        as its system (task).
    lower_is_better, weights
        As in :meth:`InstanceScores.from_long`.
    format : {"csv", "tsv", "parquet"}, optional
        The file format, overriding the extension.
    sep : str, optional
        Delimiter of a CSV/TSV file.
    chunksize : int, optional
        Rows per chunk; ``0`` reads the file at once.
    progress : callable, optional
        Many files: called with a short text after each file (see :func:`read_instance_files`).

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
    {parquet_import}

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "inst.csv")
    >>> _ = open(path, "w").write("system,task,instance,score\\na,qa,1,0.5\\nb,qa,1,0.7\\nb,qa,2,0.1\\n")
    >>> read_instances(path)
    InstanceScores(2 systems x 1 tasks, 2 instances, 3 scores, 1 missing)
    """
    from ._instance_sets import is_many

    if is_many(path):
        if format is not None or chunksize is not None:
            raise InvalidOptionError("format= and chunksize= apply to one file; many files are read by their extension")
        from ._instance_sets import read_instance_files

        return read_instance_files(
            path, system=system, task=task, instance=instance, score=score, lower_is_better=lower_is_better,
            weights=weights, sep=sep, progress=progress,
        )
    path = existing_file(path, sep)  # type: ignore[arg-type]
    if not all(isinstance(c, str) for c in (system, task, instance, score)):
        raise InvalidOptionError(f"system, task, instance and score must be column names, got {[system, task, instance, score]!r}")
    assert system is not None and task is not None  # all four checked to be str just above
    fmt = file_format(path, format)
    if fmt == "json":
        raise LeaderboardError("instance-level scores are read from csv, tsv or parquet files, not json")
    if chunksize is not None and (isinstance(chunksize, bool) or not isinstance(chunksize, int) or chunksize < 0):
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
    """The four columns of an instance-level CSV/TSV, read by the leaderboard reader's rules:
    names and instance ids as text exactly as written (``NA`` is a name, ``01`` is not ``1``),
    a repeated or blank header or a row with the wrong number of fields an error naming it."""
    if size == 0:
        raise LeaderboardError(f"file {str(path)!r} is empty")
    header, header_line = header_fields(path, sep)
    _check_columns(header, columns, path)
    if len(sep) == 1:
        bad = ragged_lines(path, sep, len(header))
        if bad:
            shown = "; ".join(f"line {line} has {n}" for line, n in bad)
            raise LeaderboardError(
                f"{str(path)!r}: the header (line {header_line}) has {len(header)} fields but {shown}; "
                "quote fields that contain the delimiter, or fix the row"
            )
    text = {c: str for c in columns}
    options = dict(sep=sep, usecols=list(columns), dtype=text, keep_default_na=False, na_filter=False,
                   encoding="utf-8-sig", compression=None)
    try:
        with open_binary(path) as fh:  # decompressed by the package: bounded as every input is
            if chunksize:
                pieces = [_compact(chunk, columns) for chunk in pd.read_csv(fh, chunksize=chunksize, **options)]
            else:
                pieces = [pd.read_csv(fh, **options)]
    except UnicodeDecodeError as exc:
        raise LeaderboardError(
            f"{str(path)!r} is not UTF-8 text (byte {exc.object[exc.start:exc.start + 1]!r}); re-save it as UTF-8"
        ) from None
    except (pd.errors.ParserError, ValueError) as exc:
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


def ragged_lines(path: str | Path, delimiter: str, width: int, *, limit: int = 5) -> list[tuple[int, int]]:
    """``(line, fields)`` of the first records whose number of fields is not `width`.

    A file without quote characters is checked by counting delimiters per line with numpy
    (fast enough for instance-level logs of hundreds of millions of rows, block by block);
    a file with quotes record by record with :mod:`csv` (a quoted field may hold the
    delimiter or a newline). Blank lines are skipped, as every reader here does.

    Parameters
    ----------
    path : str or Path
    delimiter : str
        A single character.
    width : int
        The number of fields of the header.
    limit : int, default 5
        Stop after this many bad records.

    Returns
    -------
    list of (int, int)
        Empty when every record has `width` fields.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "inst.csv")
    >>> _ = open(path, "w").write("system,task,instance,score\\na,qa,1,0.5\\nb,qa,1\\n\\nc,qa,1,0.5,9\\n")
    >>> ragged_lines(path, ",", 4)
    [(3, 3), (5, 5)]
    """
    import numpy as np

    path = Path(path)
    sep, quote = ord(delimiter), ord('"')
    bad: list[tuple[int, int]] = []
    with open_binary(path) as fh:
        line_no, carry, header_seen = 0, b"", False
        while len(bad) < limit:
            block = fh.read(1 << 24)
            if not block and not carry:
                break
            data = carry + block
            if quote in data:
                return _ragged_by_csv(path, delimiter, width, limit)
            if block:
                cut = data.rfind(b"\n") + 1
                if cut == 0:
                    carry = data
                    continue
                data, carry = data[:cut], data[cut:]
            else:
                data, carry = data + b"\n", b""
            arr = np.frombuffer(data, dtype=np.uint8)
            ends = np.flatnonzero(arr == 10)
            starts = np.concatenate(([0], ends[:-1] + 1))
            at = np.searchsorted(np.flatnonzero(arr == sep), ends)
            counts = np.diff(np.concatenate(([0], at))) + 1
            length = ends - starts - (arr[np.maximum(ends - 1, 0)] == 13).astype(np.int64) * (ends > starts)
            real = length > 0
            numbers = line_no + 1 + np.arange(len(ends))
            line_no += len(ends)
            counts, numbers = counts[real], numbers[real]
            if not header_seen and len(counts):
                counts, numbers, header_seen = counts[1:], numbers[1:], True
            wrong = np.flatnonzero(counts != width)
            bad.extend((int(numbers[i]), int(counts[i])) for i in wrong[: limit - len(bad)])
    return bad


def _ragged_by_csv(path: Path, delimiter: str, width: int, limit: int) -> list[tuple[int, int]]:
    bad: list[tuple[int, int]] = []
    with open_text(path) as fh:
        reader = csv.reader(bounded_lines(fh, path), delimiter=delimiter)
        line, header_seen = 1, False
        try:
            for fields in reader:
                start, line = line, reader.line_num + 1
                if not fields or fields == [""]:
                    continue
                if not header_seen:
                    header_seen = True
                    continue
                if len(fields) != width:
                    bad.append((start, len(fields)))
                    if len(bad) >= limit:
                        break
        except UnicodeDecodeError as exc:
            raise decode_error(path, line, exc) from None
        except csv.Error as exc:
            raise csv_error(path, line, exc) from None
    return bad
