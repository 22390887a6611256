"""Many instance-level files at once: one per model or one per task, aligned by (task, instance).

Evaluation harnesses write one log per model (or per task). :func:`read_instance_files` reads
a directory, a glob or a list of such files (Parquet or CSV/TSV, mixed is fine) into one
:class:`~consensus.InstanceScores` without building the long table of every row: a first pass
reads only the label and id columns of each file and fixes the systems, the tasks and the
instances of each task (all in order of first appearance over the files in sorted path
order, as :meth:`InstanceScores.from_long` on their concatenation would); a second pass reads
each file again, chunk by chunk, and writes its scores straight into the systems x instances
array. Memory is that array (8 bytes per cell) plus one chunk.

Items are aligned by (task, instance id) across files: a model missing an item is missing
there (NaN), never an error. A (system, task, instance) given twice, in one file or in two, is
a :class:`~consensus.errors.DuplicateInstanceError`. Instance ids of CSV files are text as
written (``01`` is not ``1``); Parquet ids keep their type.
"""

from __future__ import annotations

import glob as globmod
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..board._instances import InstanceScores
from ..errors import DuplicateInstanceError, InvalidOptionError, LeaderboardError
from ._cells import label_codes, numeric_scores
from ._file_tables import existing_file, file_format, header_fields
from ._opening import COMPRESSIONS, open_binary

__all__ = ["read_instance_files", "instance_paths", "is_many"]

#: Rows per chunk of the second pass.
CHUNK_ROWS = 1 << 20
_SUFFIXES = (".parquet", ".pq", ".csv", ".tsv", ".txt") + tuple(
    f"{text}{packed}" for text in (".csv", ".tsv", ".txt") for _, suffixes in COMPRESSIONS.values() for packed in suffixes)

Progress = Callable[..., None]


def is_many(path: object) -> bool:
    """Whether `path` names several files: a directory, a glob pattern or a list of paths.

    Parameters
    ----------
    path : object

    Returns
    -------
    bool

    Examples
    --------
    >>> is_many("logs/*.parquet"), is_many(["a.csv", "b.csv"]), is_many("scores.csv")
    (True, True, False)
    """
    if isinstance(path, (list, tuple)):
        return True
    if isinstance(path, (str, Path)):
        text = str(path)
        return Path(text).is_dir() or any(ch in text for ch in "*?[")
    return False


def instance_paths(path: str | Path | Sequence[str | Path]) -> list[Path]:
    """The files a directory, glob or list names, sorted (the order rows are read in).

    Parameters
    ----------
    path : str, Path or list of them
        A directory (its ``*.parquet``, ``*.pq``, ``*.csv``, ``*.tsv``, ``*.txt`` files, the
        text ones optionally compressed: ``.gz``, ``.bz2``, ``.xz``, ``.zst``, ``.zip``), a glob
        pattern, or a list of files.

    Returns
    -------
    list of Path

    Raises
    ------
    LeaderboardError
        Nothing matches, or a listed file does not exist.
    InvalidOptionError
        A list holds something else than paths.
    """
    if isinstance(path, (list, tuple)):
        bad = [p for p in path if not isinstance(p, (str, Path))]
        if bad:
            raise InvalidOptionError(f"a list of instance files must hold paths, got {bad[0]!r}")
        files = [Path(p) for p in path]
        for f in files:
            if not f.is_file():
                raise LeaderboardError(f"file not found: {str(f)!r}")
        if not files:
            raise LeaderboardError("the list of instance files is empty")
        return files
    text = str(path)
    if Path(text).is_dir():
        files = sorted(p for p in Path(text).iterdir() if p.is_file() and p.name.lower().endswith(_SUFFIXES))
        if not files:
            raise LeaderboardError(f"directory {text!r} has no Parquet or CSV files ({', '.join(_SUFFIXES[:5])}, "
                                   "the text ones optionally compressed)")
        return files
    files = sorted(Path(p) for p in globmod.glob(text) if Path(p).is_file())
    if not files:
        raise LeaderboardError(f"no file matches {text!r}")
    return files


def _chunks(path: Path, columns: list[str], fmt: str, sep: str | None) -> Iterator[pd.DataFrame]:
    """The named columns of one file, chunk by chunk; CSV cells as text, exactly as written."""
    if fmt == "parquet":
        import pyarrow.parquet as pq

        try:
            handle = pq.ParquetFile(path)
        except Exception as exc:  # pyarrow raises its own error types
            raise LeaderboardError(f"cannot read {str(path)!r} as parquet: {exc}") from None
        _check(handle.schema_arrow.names, columns, path)
        for batch in handle.iter_batches(batch_size=CHUNK_ROWS, columns=columns):
            yield batch.to_pandas()
        return
    delimiter = sep or ("\t" if fmt == "tsv" else ",")
    header, _ = header_fields(path, delimiter)
    _check(header, columns, path)
    try:
        with open_binary(path) as fh:  # decompressed by the package: bounded as every input is
            yield from pd.read_csv(fh, sep=delimiter, usecols=columns, dtype=str, keep_default_na=False,
                                   na_filter=False, encoding="utf-8-sig", chunksize=CHUNK_ROWS, compression=None)
    except (pd.errors.ParserError, ValueError, UnicodeDecodeError) as exc:
        raise LeaderboardError(f"cannot parse {str(path)!r}: {str(exc).strip()}") from None


def _check(found: Iterable[object], columns: Sequence[str], path: Path) -> None:
    names = set(map(str, found))
    missing = [c for c in columns if c not in names]
    if missing:
        raise LeaderboardError(
            f"file {str(path)!r} has no column(s) {', '.join(map(repr, missing))}; pass system=, task=, "
            "instance=, score= (system=None / task=None: the file name is the system / task)"
        )


class _Order:
    """Labels in order of first appearance, across files."""

    def __init__(self) -> None:
        self.index: dict[Any, int] = {}

    def codes(self, labels: Sequence[Any]) -> np.ndarray:
        return np.array([self.index.setdefault(x, len(self.index)) for x in labels], dtype=np.int64)

    @property
    def labels(self) -> tuple[Any, ...]:
        return tuple(self.index)


class _Items:
    """The instance ids of one task in order of first appearance, looked up by hash (vectorized)."""

    def __init__(self) -> None:
        self.index = pd.Index([], dtype=object)

    def add(self, ids: pd.Series) -> None:
        unique = pd.unique(ids)
        if len(self.index):
            unique = unique[self.index.get_indexer(unique) < 0]
        if len(unique):
            self.index = self.index.append(pd.Index(unique, dtype=object, tupleize_cols=False))

    def positions(self, ids: pd.Series) -> np.ndarray:
        return self.index.get_indexer(pd.Index(ids, dtype=object, tupleize_cols=False))


def _labels(chunk: pd.DataFrame, column: str | None, stem: str, kind: str) -> tuple[np.ndarray, tuple[str, ...]]:
    """Per-row codes into the chunk's labels (normalized as from_long does); the file stem without a column."""
    if column is None:
        return np.zeros(len(chunk), dtype=np.int64), (stem,)
    codes, labels = label_codes(chunk[column], kind)
    return np.asarray(codes, dtype=np.int64), labels


def _stem(path: Path) -> str:
    name = path.name
    for suffix in sorted(_SUFFIXES, key=len, reverse=True):
        if name.lower().endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def read_instance_files(
    path: str | Path | Sequence[str | Path],
    *,
    system: str | None = "system",
    task: str | None = "task",
    instance: str = "instance",
    score: str = "score",
    lower_is_better: Iterable[str] = (),
    weights: Mapping[str, float] | None = None,
    sep: str | None = None,
    progress: Progress | None = None,
) -> InstanceScores:
    """Read instance-level scores from many files (one per model or per task) into one InstanceScores.

    Parameters
    ----------
    path : str, Path or list of them
        A directory, a glob (``"logs/*.parquet"``) or a list of files (see
        :func:`instance_paths`); Parquet and CSV/TSV may be mixed.
    system : str or None, default="system"
        The system column; None: each file's name (without extension) is its system (one
        file per model, no model column).
    task : str or None, default="task"
        The task column; None: each file's name is its task (one file per task).
    instance, score : str
        The instance id and score columns.
    lower_is_better, weights
        As in :meth:`InstanceScores.from_long`.
    sep : str, optional
        Delimiter of the CSV files (default: by extension).
    progress : callable, optional
        Called after each file of each pass with one text, ``"reading ids 3/2000 files"`` or
        ``"reading scores 3/2000 files"``; the CLI shows it as a progress line.

    Returns
    -------
    InstanceScores
        Equal to :meth:`InstanceScores.from_long` on the files' rows concatenated in sorted
        path order.

    Raises
    ------
    LeaderboardError
        No file matches, a file lacks a column or cannot be parsed.
    DuplicateInstanceError
        A (system, task, instance) given twice, in one file or across files.
    InvalidOptionError
        Both `system` and `task` are None, or a column name is not a string.
    NonNumericScoreError, EmptyTaskError, EmptySystemError, UnknownTaskError, InvalidWeightError
        As :meth:`InstanceScores.from_long`.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = open(os.path.join(folder, "model-a.csv"), "w").write("task,instance,score\\nqa,1,1\\nqa,2,0\\n")
    >>> _ = open(os.path.join(folder, "model-b.csv"), "w").write("task,instance,score\\nqa,2,1\\nqa,3,1\\n")
    >>> res = read_instance_files(folder, system=None)
    >>> res.systems, res.task_frame("qa").to_dict(orient="list")
    (('model-a', 'model-b'), {'1': [1.0, nan], '2': [0.0, 1.0], '3': [nan, 1.0]})
    """
    if system is None and task is None:
        raise InvalidOptionError("system=None and task=None together: a file names a system or a task, not both")
    for name, value in (("instance", instance), ("score", score), ("system", system), ("task", task)):
        if value is not None and not isinstance(value, str):
            raise InvalidOptionError(f"{name} must be a column name, got {value!r}")
    files = instance_paths(path)
    formats = [file_format(existing_file(f, sep), None) for f in files]
    for f, fmt in zip(files, formats):
        if fmt == "json":
            raise LeaderboardError(f"{str(f)!r}: instance-level scores are read from csv, tsv or parquet files, not json")
    id_columns = [c for c in (system, task, instance) if c is not None]
    systems, tasks = _Order(), _Order()
    items: list[_Items] = []  # per task: its instance ids in order of first appearance
    for n, (f, fmt) in enumerate(zip(files, formats)):
        for chunk in _chunks(f, id_columns, fmt, sep):
            _, sys_labels = _labels(chunk, system, _stem(f), "system")
            t_codes, t_labels = _labels(chunk, task, _stem(f), "task")
            systems.codes(sys_labels)
            global_t = tasks.codes(t_labels)
            while len(items) < len(tasks.index):
                items.append(_Items())
            ids = chunk[instance]
            if ids.isna().any():
                raise LeaderboardError(f"{str(f)!r}: an instance id is missing (row {int(np.argmax(ids.isna()))})")
            for local, t in enumerate(global_t.tolist()):
                items[t].add(ids[t_codes == local])
        if progress is not None:
            progress(f"reading ids {n + 1}/{len(files)} files")
    sizes = np.array([len(o.index) for o in items], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    n_sys, n_cols = len(systems.index), int(offsets[-1])
    values = np.full((n_sys, n_cols), np.nan)
    seen = np.zeros((n_sys, n_cols), dtype=bool)
    columns = id_columns + [score]
    for n, (f, fmt) in enumerate(zip(files, formats)):
        for chunk in _chunks(f, columns, fmt, sep):
            s_codes, s_labels = _labels(chunk, system, _stem(f), "system")
            t_codes, t_labels = _labels(chunk, task, _stem(f), "task")
            rows = systems.codes(s_labels)[s_codes]
            task_of_row = tasks.codes(t_labels)[t_codes]
            cols = np.empty(len(chunk), dtype=np.int64)
            ids = chunk[instance]
            for t in np.unique(task_of_row).tolist():
                mask = task_of_row == t
                cols[mask] = offsets[t] + items[t].positions(ids[mask])
            scores = numeric_scores(chunk[score], t_codes, t_labels, s_codes, s_labels)
            _check_duplicates(seen, rows, cols, systems.labels, tasks.labels, offsets, items)
            seen[rows, cols] = True
            values[rows, cols] = scores
        if progress is not None:
            progress(f"reading scores {n + 1}/{len(files)} files")
    del seen
    instances = [list(o.index) for o in items]
    return InstanceScores(
        values, systems=systems.labels, tasks=tasks.labels, offsets=offsets, instances=instances,
        lower_is_better=lower_is_better, weights=weights, copy=False,
    )


def _check_duplicates(
    seen: np.ndarray, rows: np.ndarray, cols: np.ndarray, systems: Sequence[str], tasks: Sequence[str],
    offsets: np.ndarray, items: Sequence[_Items],
) -> None:
    """A cell given twice (earlier, or twice in this chunk) is a DuplicateInstanceError naming it."""
    flat = rows * seen.shape[1] + cols
    again = seen[rows, cols]
    if not again.any():
        unique, counts = np.unique(flat, return_counts=True)
        if (counts == 1).all():
            return
        cell = int(unique[np.argmax(counts > 1)])
    else:
        cell = int(flat[np.argmax(again)])
    r, c = divmod(cell, seen.shape[1])
    t = int(np.searchsorted(offsets, c, side="right") - 1)
    instance = items[t].index[c - offsets[t]]
    raise DuplicateInstanceError(systems[r], tasks[t], [instance])
