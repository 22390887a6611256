"""The rows of instance-level files, decoded chunk by chunk: labels, item ids and scores as arrays.

Parquet chunks are decoded in Arrow (labels dictionary-encoded there, numbers read without
copies), CSV/TSV chunks from text as :func:`consensus.read_instances` reads them. The next
chunks are decoded while the current one is coded: local Parquet files of one schema by pyarrow's
dataset scanner on its own threads (:func:`parquet_scan`), the others by one background thread
(:func:`_prefetched`, :func:`_files_ahead`). Item ids
are coded by :class:`_ItemCodes`. Shared by the in-process item blocks
(:mod:`consensus.missing._item_blocks`) and the Dask ones (:mod:`consensus.missing._dask_sums`).
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..errors import LeaderboardError
from ..io._cells import label_codes, normalized_labels, numeric_scores
from ..io._instance_sets import _Items
from ._instance_source import InstanceSource
from ._source_files import _SEPARATORS, _check_file, _limits, _missing_columns, _opened

__all__ = ["decoded", "parquet_scan", "source_columns", "label_columns", "file_stem", "CHUNK_ROWS", "PREFETCH"]

#: Chunks decoded ahead of their coding, by a background thread.
PREFETCH = 8
#: Threads decoding files ahead. One: pyarrow's per-file work holds the GIL often enough that a second
#: thread made reading 2,000 small Parquet files slower, not faster (measured).
READERS = 1
#: Files given to pyarrow's scanner at a time (:func:`parquet_scan`).
SCAN_WINDOW = 512
#: Files up to this size are decoded whole by :func:`_files_ahead` (larger ones chunk by chunk).
AHEAD_FILE_BYTES = 16 * 1024**2
#: Rows per chunk of a file.
CHUNK_ROWS = 1 << 20


def _compact(codes: np.ndarray, *, constant: bool = False) -> np.ndarray:
    """Codes in the smallest unsigned dtype that holds them; with `constant`, one code when every
    row has the same (a file of one model), which :meth:`_Chunk.system_codes` broadcasts."""
    if not len(codes):
        return codes
    if constant and len(codes) > 1 and int(codes.min()) == int(codes.max()):
        codes = codes[:1]
    top = int(codes.max())
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return codes.astype(dtype)
    return codes


def _compact_scores(scores: np.ndarray) -> np.ndarray:
    small = scores.astype(np.float32)
    same = (small == scores) | np.isnan(scores)
    return small if bool(same.all()) else scores


#: Instance ids that are whole numbers in ``[0, 2**40)`` are coded by one int64 key per row.
_ID_BITS = 40


class _ItemCodes:
    """Global item codes in order of first appearance: (task, instance id) -> code.

    Each id is put in its canonical form first (:func:`canonical_ids`), so that one id is one
    item whatever file, chunk or type it comes in: whole numbers in ``[0, 2**40)`` (ints, and
    floats such as ``1.0``) are looked up as numbers, those below :data:`_TABLE_IDS` in a table
    per task, larger ones by an int64 key ``task << 40 | id``; every other id (text, negative,
    fractional or huge numbers) per task by value, as :func:`consensus.read_instances` compares
    them (``1`` and ``"1"`` are two items; ``1`` and ``1.0`` one).
    """

    def __init__(self) -> None:
        self.keys = pd.Index(np.zeros(0, dtype=np.int64))
        self.key_codes = np.zeros(0, dtype=np.int64)
        self.other: dict[int, tuple[_Items, np.ndarray]] = {}
        # small whole-number ids: a flat table of codes, one segment per task (see _table_codes)
        self.table = np.zeros(0, dtype=np.int64)
        self.base = np.zeros(0, dtype=np.int64)
        self.capacity: dict[int, int] = {}
        self.task_of_item: list[int] = []
        self.instance_of_item: list[object] = []

    @property
    def count(self) -> int:
        return len(self.task_of_item)

    def _new(self, tasks: np.ndarray, ids: list[object]) -> np.ndarray:
        first = self.count
        self.task_of_item.extend(tasks.tolist())
        self.instance_of_item.extend(ids)
        return np.arange(first, self.count, dtype=np.int64)

    def codes(self, task_of_row: np.ndarray, ids: np.ndarray | pd.Series) -> np.ndarray:
        """The item code of each row (new items coded in order of appearance)."""
        whole, other = canonical_ids(ids)
        small = (whole >= 0) & (whole < _TABLE_IDS)
        if small.all():
            return self._table_codes(task_of_row, whole)
        out = np.empty(len(whole), dtype=np.int64)
        if small.any():
            out[small] = self._table_codes(task_of_row[small], whole[small])
        big = whole >= _TABLE_IDS
        if big.any():
            out[big] = self._key_codes(task_of_row[big], whole[big])
        if other is not None:
            rest = whole < 0
            out[rest] = self._value_codes(task_of_row[rest], pd.Series(other, dtype=object))
        return out

    def _key_codes(self, task_of_row: np.ndarray, whole: np.ndarray) -> np.ndarray:
        keys = (task_of_row << _ID_BITS) | whole
        found = self.keys.get_indexer(keys)
        if (found < 0).any():
            new = pd.unique(keys[found < 0])
            codes = self._new(new >> _ID_BITS, (new & ((1 << _ID_BITS) - 1)).tolist())
            self.keys = self.keys.append(pd.Index(new))
            self.key_codes = np.concatenate([self.key_codes, codes])
            found = self.keys.get_indexer(keys)
        return self.key_codes[found]

    def _value_codes(self, task_of_row: np.ndarray, series: pd.Series) -> np.ndarray:
        out = np.empty(len(series), dtype=np.int64)
        for t in np.unique(task_of_row).tolist():
            mask = task_of_row == t
            known, codes = self.other.get(t, (_Items(), np.zeros(0, dtype=np.int64)))
            before = len(known.index)
            known.add(series[mask])
            if len(known.index) > before:
                added = list(known.index[before:])
                codes = np.concatenate([codes, self._new(np.full(len(added), t), added)])
            self.other[t] = (known, codes)
            out[mask] = codes[known.positions(series[mask])]
        return out

    def _table_codes(self, task_of_row: np.ndarray, whole: np.ndarray) -> np.ndarray:
        """Codes of ids below :data:`_TABLE_IDS`: one flat table, a segment per task, slot ``id``
        of task ``t`` at ``base[t] + id`` holding its code (-1: not seen yet)."""
        if not len(whole):
            return np.zeros(0, dtype=np.int64)
        top = int(whole.max()) + 1
        for t in np.flatnonzero(np.bincount(task_of_row)).tolist():
            if self.capacity.get(t, 0) < top:
                self._grow(t, max(top, 2 * self.capacity.get(t, 0)))
        keys = self.base[task_of_row] + whole
        found = self.table[keys]
        unseen = np.flatnonzero(found < 0)
        if len(unseen):
            _, first = np.unique(keys[unseen], return_index=True)
            rows = unseen[np.sort(first)]  # the first row of each new item, in order of appearance
            self.table[keys[rows]] = self._new(task_of_row[rows], whole[rows].tolist())
            found = self.table[keys]
        return found

    def _grow(self, task: int, size: int) -> None:
        """Give `task` a segment of `size` slots at the end of the table (its old slots copied)."""
        start = len(self.table)
        table = np.full(start + size, -1, dtype=np.int64)
        table[:start] = self.table
        if task in self.capacity:
            old = int(self.base[task])
            table[start : start + self.capacity[task]] = self.table[old : old + self.capacity[task]]
            table[old : old + self.capacity[task]] = -1  # no longer used
        if len(self.base) <= task:
            self.base = np.concatenate([self.base, np.zeros(task + 1 - len(self.base), dtype=np.int64)])
        self.base[task] = start
        self.table, self.capacity[task] = table, size


#: Whole-number ids below this are looked up in a table per task (ids of a benchmark's items are
#: small: 0 .. items - 1); larger ones by hash. A task's table holds 8 bytes per id up to the
#: largest id seen (at most 8 MB), twice that while it grows.
_TABLE_IDS = 1 << 20


def canonical_ids(ids: np.ndarray | pd.Series) -> tuple[np.ndarray, np.ndarray | None]:
    """Instance ids in one form per value: whole numbers as int64, every other id as itself.

    Parameters
    ----------
    ids : numpy.ndarray or pandas.Series
        One id per row, none missing.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray or None)
        Per row the id as an int64 when it is a whole number in ``[0, 2**40)`` (an int, or a
        float such as ``1.0``; not a bool), else -1; and the other rows' ids (objects, in row
        order), or None when there are none.

    Examples
    --------
    >>> whole, other = canonical_ids(np.array([3, 1.0, 1.5, -2], dtype=object))
    >>> whole.tolist(), other.tolist()
    ([3, 1, -1, -1], [1.5, -2])
    """
    values = ids.to_numpy() if isinstance(ids, pd.Series) else np.asarray(ids)
    kind = values.dtype.kind
    if kind in "iu":
        whole = values.astype(np.int64) if kind == "i" or len(values) == 0 or values.max() < 1 << 62 else None
        if whole is not None and (not len(whole) or (whole.min() >= 0 and whole.max() < 1 << _ID_BITS)):
            return whole, None
        fits = (values >= 0) & (values < 1 << _ID_BITS)
    elif kind == "f":
        fits = np.isfinite(values) & (values >= 0) & (values < 1 << _ID_BITS) & (values == np.floor(values))
        if fits.all():
            return values.astype(np.int64), None
    elif kind == "O" and pd.api.types.infer_dtype(values, skipna=False) in ("string", "bytes", "empty"):
        return np.full(len(values), -1, dtype=np.int64), values
    else:  # objects of several types: id by id
        fits = np.fromiter((_is_whole(x) for x in values), dtype=bool, count=len(values))
    whole = np.full(len(values), -1, dtype=np.int64)
    if fits.any():
        whole[fits] = np.array([int(x) for x in values[fits].tolist()], dtype=np.int64)
    rest = values[~fits]
    return whole, (rest.astype(object) if len(rest) else None)


def _is_whole(x: object) -> bool:
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (int, float, np.integer, np.floating)):
        return False
    return bool(np.isfinite(x)) and bool(0 <= x < 1 << _ID_BITS) and float(x) == int(x)


def _arrow_labels(column: Any, kind: str, *, first: bool = False) -> tuple[np.ndarray, tuple[str, ...]]:
    """:func:`~consensus.io._cells.label_codes` of an Arrow column (dictionary-encoded in Arrow). A
    dictionary column is a categorical (the used categories in category order), unless `first`: a
    text column that the Parquet reader kept dictionary-encoded (labels in order of first appearance)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    if pa.types.is_dictionary(column.type):
        codes = column.indices.to_numpy(zero_copy_only=False)
        if column.null_count:
            codes = np.where(np.asarray(column.is_null()), -1, codes)
        codes = codes.astype(np.int64)
        if first and len(column.dictionary) <= 16:  # few labels (a file of one model): where each first shows
            at = [(int(np.argmax(codes == k)), k) for k in range(len(column.dictionary)) if (codes == k).any()]
            used = np.array([k for _, k in sorted(at)], dtype=np.int64)
        else:
            valid = codes[codes >= 0]
            used = pd.unique(valid) if first else np.unique(valid)
        remap = np.full(len(column.dictionary) + 1, -1, dtype=np.int64)
        remap[used] = np.arange(len(used))
        uniques = [column.dictionary[int(i)].as_py() for i in used]
        return normalized_labels(np.where(codes >= 0, remap[codes], -1), uniques, kind)
    encoded = pc.dictionary_encode(column, null_encoding="mask")
    codes = encoded.indices.to_numpy(zero_copy_only=False)
    if encoded.null_count:
        codes = np.where(np.asarray(encoded.is_null()), -1, codes)
    return normalized_labels(np.asarray(codes, dtype=np.int64), encoded.dictionary.to_pylist(), kind)


def _arrow_scores(column: Any, t_codes: np.ndarray, t_labels: tuple[str, ...], s_codes: np.ndarray,
                  s_labels: tuple[str, ...]) -> np.ndarray:
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_floating(column.type) or pa.types.is_integer(column.type):
        return np.asarray(pc.cast(column, pa.float64()).to_numpy(zero_copy_only=False), dtype=np.float64)
    return numeric_scores(column.to_pandas(), t_codes, t_labels, s_codes, s_labels)


def _arrow_ids(column: Any) -> np.ndarray | pd.Series:
    import pyarrow as pa

    if pa.types.is_integer(column.type) or pa.types.is_floating(column.type):
        if column.null_count == 0:
            return np.asarray(column.to_numpy(zero_copy_only=False))
    return pd.Series(column.to_pandas(), dtype=object)


def source_columns(source: InstanceSource) -> list[str]:
    """The columns to read: the source's four, less a system or task taken from the file name.

    Parameters
    ----------
    source : InstanceSource

    Returns
    -------
    list of str
    """
    return [c for c in (source.system, source.task, source.instance, source.score) if c is not None]


def label_columns(source: InstanceSource) -> tuple[str, ...]:
    """The system and task columns of `source` (those not taken from file names).

    Parameters
    ----------
    source : InstanceSource

    Returns
    -------
    tuple of str
    """
    return tuple(c for c in (source.system, source.task) if c is not None)


def file_stem(path: str) -> str:
    """A file's name without its directory and its extension.

    Parameters
    ----------
    path : str
        A path or URL.

    Returns
    -------
    str

    Examples
    --------
    >>> file_stem("logs/model-a.csv.gz"), file_stem("s3://bucket/m.parquet")
    ('model-a', 'm')
    """
    from ..io._instance_sets import _stem

    return _stem(Path(path.rsplit("/", 1)[-1]))


def decoded(frame: Any, source: InstanceSource, path: str) -> tuple[
        np.ndarray, tuple[str, ...], np.ndarray, tuple[str, ...], np.ndarray | pd.Series, np.ndarray]:
    """The rows of one chunk: system codes and labels, task codes and labels, instance ids (as
    read: :func:`canonical_ids` gives their one form per value), float scores.

    Parameters
    ----------
    frame : pandas.DataFrame or pyarrow.RecordBatch
        The source's four columns.
    source : InstanceSource
    path : str
        The file, for messages.

    Returns
    -------
    tuple
        ``(system codes, systems, task codes, tasks, ids, scores)``.

    Raises
    ------
    LeaderboardError
        A missing label or instance id, a score that is not a number (as
        :func:`consensus.read_instances`).
    """
    system, task, instance, score = source.system, source.task, source.instance, source.score
    arrow = not isinstance(frame, pd.DataFrame)
    n_rows = frame.num_rows if arrow else len(frame)

    first = _text_columns(frame) if arrow else frozenset()

    def labels(column: str | None, kind: str) -> tuple[np.ndarray, tuple[str, ...]]:
        if column is None:  # the file's name
            return np.zeros(n_rows, dtype=np.int64), (file_stem(path),)
        if arrow:
            return _arrow_labels(frame.column(column), kind, first=column in first)
        return label_codes(frame[column], kind)

    s_codes, s_labels = labels(system, "system")
    t_codes, t_labels = labels(task, "task")
    ids: np.ndarray | pd.Series = _arrow_ids(frame.column(instance)) if arrow else frame[instance]
    missing = np.asarray(pd.isna(ids))  # None, NaN (a float id column's NaN too)
    if missing.any():
        raise LeaderboardError(f"{path!r}: an instance id is missing (row {int(np.argmax(missing))})")
    if arrow:
        scores = _arrow_scores(frame.column(score), t_codes, t_labels, s_codes, s_labels)
    else:
        scores = numeric_scores(frame[score], t_codes, t_labels, s_codes, s_labels)
    return s_codes, s_labels, t_codes, t_labels, ids, scores


def _prefetched(items: Iterator[Any], depth: int = PREFETCH) -> Iterator[Any]:
    """`items`, produced by a background thread up to `depth` ahead (file decoding releases the
    GIL: it overlaps the coding of the previous chunks). Errors are raised where the item would be."""
    import queue
    import threading

    box: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def put(message: tuple[str, Any]) -> bool:
        """Hand `message` over unless the consumer has stopped (then never block on a full queue)."""
        while not stop.is_set():
            try:
                box.put(message, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def produce() -> None:
        try:
            for item in items:
                if not put(("item", item)):
                    return
            put(("end", None))
        except BaseException as exc:  # carried to the consumer, raised there
            put(("error", exc))

    worker = threading.Thread(target=produce, name="consensus-read", daemon=True)
    worker.start()
    try:
        while True:
            kind, item = box.get()
            if kind == "end":
                return
            if kind == "error":
                raise item
            yield item
    finally:
        stop.set()
        worker.join()


#: Schema metadata key of a Parquet batch: its text label columns read dictionary-encoded.
_TEXT_COLUMNS = b"consensus.text_labels"


def _text_columns(batch: Any) -> frozenset[str]:
    """The label columns of a batch that are text read dictionary-encoded (see :func:`_frames`)."""
    meta = batch.schema.metadata or {}
    marked = meta.get(_TEXT_COLUMNS, b"").decode()
    return frozenset(marked.split(",")) if marked else frozenset()


def _files_ahead(files: list[tuple[str, str]], read: Any, budget: int, workers: int = READERS) -> Generator[Any, None, None] | None:
    """``read(path, fmt)`` of every file (a list of its chunks), in order, `workers` files decoded at
    once by threads, as many ahead as fit `budget` bytes of files; None when a file is larger than
    :data:`AHEAD_FILE_BYTES` or its size cannot be told (then one thread reads chunk by chunk)."""
    from concurrent.futures import ThreadPoolExecutor

    sizes = []
    for path, _ in files:
        if "://" in path or not os.path.isfile(path):
            return None
        size = os.path.getsize(path)
        if size > AHEAD_FILE_BYTES:
            return None
        sizes.append(size)

    def run() -> Generator[Any, None, None]:
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="consensus-read") as pool:
            pending: list[Any] = []
            held = 0
            k = 0
            try:
                while k < len(files) or pending:
                    while k < len(files) and (not pending or (held + sizes[k] <= budget and len(pending) < 4 * workers)):
                        pending.append((pool.submit(read, *files[k]), sizes[k]))
                        held += sizes[k]
                        k += 1
                    future, size = pending.pop(0)
                    held -= size
                    yield future.result()
            finally:
                for future, _ in pending:
                    future.cancel()

    return run()


def parquet_scan(files: list[tuple[str, str]], columns: list[str], labels: tuple[str, ...],
                 budget: int) -> Generator[tuple[int, Any], None, None] | None:
    """Every chunk of `files` with its file's number, then ``(number, None)`` once that file is read,
    decoded by pyarrow's dataset scanner on its own threads (they hold no GIL, so the decoding runs
    beside the coding of the chunks already read: 2,000 small files of one model each in about 1.3 s,
    coding included, against 2.5 s with one decoding thread, measured once); in file order, as
    :func:`_frames` gives them (label columns marked the same way). None when it does not apply:
    some file is not a local Parquet file of at most :data:`AHEAD_FILE_BYTES`, a column is missing
    from a file or has another type than in the first file, or a file cannot be opened; the files
    are then read one by one (:func:`_frames`), which names the file at fault.

    Parameters
    ----------
    files : list of (path, format)
    columns : list of str
        The columns to read.
    labels : tuple of str
        The label columns among them (read from the dictionary pages when text).
    budget : int
        Bytes of files decoded ahead, at most (at least one file).

    Returns
    -------
    generator of (int, pyarrow.RecordBatch or None), or None
    """
    if not files or any(fmt != "parquet" or "://" in path or not os.path.isfile(path) for path, fmt in files):
        return None
    sizes = [os.path.getsize(path) for path, _ in files]
    if max(sizes) > AHEAD_FILE_BYTES or len({path for path, _ in files}) != len(files):
        return None
    import pyarrow as pa
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    try:
        first = pq.read_schema(files[0][0])
        if any(c not in first.names for c in columns):
            return None
        text = [c for c in labels if pa.types.is_string(first.field(c).type) or pa.types.is_large_string(first.field(c).type)]
        file_format = ds.ParquetFileFormat(read_options=ds.ParquetReadOptions(dictionary_columns=text))
        dataset = ds.dataset([path for path, _ in files], format=file_format)
        fragments = list(dataset.get_fragments())
        kinds = [[f.type for f in (fragment.physical_schema.field(c) for c in columns)] for fragment in fragments]
    except (OSError, KeyError, pa.ArrowException):  # a file pyarrow cannot open, a column missing
        return None
    where = {fragment.path: k for k, fragment in enumerate(fragments)}
    if len(fragments) != len(files) or len(where) != len(files) or any(k != kinds[0] for k in kinds):
        return None
    # the scanner decodes ahead of a slow consumer without a bound (measured: 1.3 GB more at 5,000 files
    # while rows were spilled), so it is given the files a window at a time, each within `budget`
    window = max(1, min(SCAN_WINDOW, budget // max(max(sizes), 1)))
    marked = {_TEXT_COLUMNS: ",".join(text).encode()}

    def batches() -> Iterator[Any]:
        for first in range(0, len(fragments), window):
            part = ds.FileSystemDataset(fragments[first : first + window], dataset.schema, file_format, dataset.filesystem)
            yield from part.scanner(columns=columns, use_threads=True, batch_size=CHUNK_ROWS, batch_readahead=2,
                                    fragment_readahead=4).scan_batches()

    def run() -> Generator[tuple[int, Any], None, None]:
        done = 0
        try:
            for tagged in batches():
                k = where[tagged.fragment.path]
                if k < done:  # pragma: no cover - the scanner yields the fragments in order
                    raise AssertionError(f"pyarrow scanned {files[k][0]!r} after a later file")
                while done < k:
                    yield done, None
                    done += 1
                if tagged.record_batch.num_rows:
                    yield k, tagged.record_batch.replace_schema_metadata(marked)
        except (OSError, pa.ArrowException) as exc:  # a file that opened but does not decode: read one by one, to name it
            for path, fmt in files[done:]:
                for _ in _frames(path, fmt, columns, labels=labels):
                    pass
            raise LeaderboardError(f"cannot read the Parquet files: {' '.join(str(exc).split())}") from None
        while done < len(files):
            yield done, None
            done += 1

    return run()


def _frames(path: str, fmt: str, columns: list[str], limits: tuple[int, bool] | None = None,
            labels: tuple[str, ...] = ()) -> Iterator[Any]:
    """The named columns of one file (local or fsspec URL), chunk by chunk: Arrow record batches of a
    Parquet file, pandas DataFrames of text cells of a CSV/TSV file. `limits`: the reading limits
    (:func:`consensus.missing._dask_sums._limits`; default this process's). `labels`: label columns,
    read from a Parquet file's dictionary pages when they are text (marked in the batches' schema
    metadata, so their labels keep the order of first appearance)."""
    import fsspec
    import pyarrow as pa

    limits = limits or _limits()
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            local = "://" not in path  # a local file opened directly: fsspec's layer costs as much as the decoding
            with (open(path, "rb") if local else fsspec.open(path, "rb")) as fh:
                try:
                    handle = pq.ParquetFile(fh)
                except Exception as exc:  # pyarrow raises its own error types
                    raise LeaderboardError(f"cannot read {path!r} as parquet: {' '.join(str(exc).split())}") from None
                schema = handle.schema_arrow
                missing = [c for c in columns if c not in schema.names]
                if missing:
                    raise LeaderboardError(_missing_columns(f"file {path!r}", missing, schema.names))
                text = [c for c in labels if pa.types.is_string(schema.field(c).type)
                        or pa.types.is_large_string(schema.field(c).type)]
                if text:  # decoded from the file's dictionary pages, not hashed again (footer not re-read)
                    handle = pq.ParquetFile(fh, read_dictionary=text, metadata=handle.metadata)
                marked = {_TEXT_COLUMNS: ",".join(text).encode()}
                batches = handle.iter_batches(batch_size=CHUNK_ROWS, columns=columns, use_threads=False)
                while True:
                    try:
                        batch = next(batches, None)
                    except (OSError, pa.ArrowException) as exc:  # a page that does not decode
                        raise LeaderboardError(f"cannot read {path!r} as parquet: {' '.join(str(exc).split())}") from None
                    if batch is None:
                        break
                    yield batch.replace_schema_metadata(marked)
            return
        _check_file(path, fmt, columns, limits)
        with _opened(path, limits) as fh:
            yield from pd.read_csv(fh, sep=_SEPARATORS[fmt], usecols=columns, dtype=str, keep_default_na=False,
                                   na_filter=False, chunksize=CHUNK_ROWS)
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise LeaderboardError(f"cannot parse {path!r}: {str(exc).strip()}") from None


