"""The pairwise sums of an :class:`~consensus.missing.InstanceSource` on Dask, by item blocks: every block a task.

:func:`dask_summed` gives what :func:`consensus.missing._imputation_sums.summed` gives for the same
scores in memory (``InstanceScores.from_long`` of the whole table), without holding the table
in one place and without a shuffle (a shuffle on (task, instance) moved every row as a
DataFrame row: 2,000 per-model files did not finish in 12 minutes). One graph, computed once:

1. **Read and cut** (one task per group of consecutive files, or of Dask DataFrame
   partitions; :data:`GROUPS_PER_THREAD` per worker thread). Each file is read chunk by chunk as in-process
   (:mod:`consensus.missing._source_rows`: labels in order of first appearance, whole-number
   ids as int64, scores parsed as :func:`consensus.read_instances` parses them; a ``.gz``
   text file through the package's bounded reader with the client's reading limits), and
   its rows are cut into ``B`` blocks by a hash of (task label, instance id): every score of
   one item lands in one block, whatever file holds it. Rows are kept compact: codes into
   the file's own labels, float32 scores where exact; packed for the way to their block
   (:func:`_packed_piece`: one system code per file and block, whole-number ids in the
   smallest unsigned dtype).
2. **Labels.** One small task merges every file's labels in file order (a Dask DataFrame's
   categorical columns sharing one list of categories: category order, as ``from_long`` of
   the concatenated table), checks the options against them (``lower_is_better``,
   ``weights``, the memory for the N x N sums) and gives each file its codes.
3. **Blocks.** One task per block gathers the block's rows from every group, codes its items
   and sums them with the in-process code (:func:`consensus.missing._item_blocks.sum_blocks`:
   dense sub-blocks that fit the memory setting, a repeated (system, task, instance) an error
   naming both files).
4. **Reduce.** The blocks' partial sums are added in a tree (:data:`SPLIT_EVERY` at a time)
   and finished on the client.

``B`` is at least :data:`BLOCKS_PER_THREAD` per worker thread, more when a block's rows (about 24 bytes each)
would exceed a quarter of the memory setting (Parquet row counts from the files' metadata,
text files counted as 16 bytes a row). The bytes moved between workers are the rows once
(step 1 to step 3) and one set of N x N sums per block. The sums equal the in-memory ones up
to the order of float additions (within ``1e-12``); counts are exact. Errors raised inside a
Dask task are carried back as they are (their ``__init__`` does not survive pickling), and every
task runs with glibc's heap thresholds of a plain process (:func:`_plain_heap`: Dask's nanny
sets them for small memory, which made reading 1.7x slower).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import functools
import itertools
import os
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..board._validation import check_task_names, check_weights
from ..errors import (
    ConsensusError,
    EmptySystemError,
    EmptyTaskError,
    InvalidOptionError,
    LeaderboardError,
    NoTaskError,
    TooFewSystemsError,
)
from ..io._cells import label_codes
from ..io._labels import normalize_name
from ..io._limits import check_square_matrices
from ._docs import SECTIONS
from ._instance_source import InstanceSource
from ._partial_sums import PartialSums, Summed
from ._source_files import (
    _SEPARATORS,
    _check_file,
    _limits,
    _missing_columns,
    _opened,
    _packed,
    source_files,
)
from ._source_rows import canonical_ids, label_columns, source_columns

__all__ = ["dask_summed", "source_frame", "SPLIT_EVERY"]

#: Partial sums added together per task of the reduction tree.
SPLIT_EVERY = 8
#: Groups of files read, and blocks summed, per worker thread (2,000 per-model files on 2 workers:
#: 10.1 s with 2 and 1, 12.8 s with 4 and 2; fewer, larger tasks move less between workers).
GROUPS_PER_THREAD = 2
BLOCKS_PER_THREAD = 1
_INSTALL = "summing an InstanceSource needs Dask: pip install 'leaderboard-consensus[dask]'"

F = TypeVar("F", bound=Callable[..., Any])


# ---------------------------------------------------------------------- errors across processes
class _Carried(Exception):
    """A package error raised inside a Dask task, in a form that pickles (class, message, attributes)."""

    def __init__(self, kind: type, message: str, attrs: dict[str, Any]) -> None:
        super().__init__(kind, message, attrs)

    def error(self) -> ConsensusError:
        kind, message, attrs = self.args
        try:
            err = kind.__new__(kind)
        except TypeError:  # InputTooLargeError: MemoryError's __new__ refuses a subclass called so
            err = Exception.__new__(kind)
        Exception.__init__(err, message)
        err.__dict__.update(attrs)
        return err


def _carry(func: F) -> F:
    """Run `func` in a Dask task: a :class:`ConsensusError` leaves it as a :class:`_Carried`; the
    task runs with glibc's heap thresholds of a plain process (:func:`_plain_heap`)."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            with _plain_heap():
                return func(*args, **kwargs)
        except ConsensusError as exc:
            raise _Carried(type(exc), str(exc), dict(exc.__dict__)) from None

    return run  # type: ignore[return-value]


# ---------------------------------------------------------------------- the workers' heap
#: glibc's ``mallopt`` parameters (malloc.h) and the values a task runs with: arrays up to 32 MiB
#: (glibc's largest mmap threshold) come from the heap, which keeps up to 256 MiB of free top.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_ROOMY = {_M_TRIM_THRESHOLD: 256 * 2**20, _M_MMAP_THRESHOLD: 32 * 2**20}
_heap_lock = threading.Lock()
_heap_users = 0


@functools.cache
def _libc() -> Any:
    """glibc, when this process runs on it and was started with ``MALLOC_TRIM_THRESHOLD_`` (else None)."""
    if not sys.platform.startswith("linux") or "MALLOC_TRIM_THRESHOLD_" not in os.environ:
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt.argtypes, libc.malloc_trim.argtypes = [ctypes.c_int, ctypes.c_int], [ctypes.c_size_t]
    except (OSError, AttributeError):  # not glibc (musl, ...)
        return None
    return libc


def _given_thresholds() -> dict[int, int]:
    """The thresholds the process was started with (glibc's default mmap threshold, 128 KiB, unless set)."""
    def read(name: str, default: int) -> int:
        try:
            return int(os.environ.get(name, default))
        except ValueError:
            return default

    return {_M_TRIM_THRESHOLD: read("MALLOC_TRIM_THRESHOLD_", 128 * 2**10),
            _M_MMAP_THRESHOLD: read("MALLOC_MMAP_THRESHOLD_", 128 * 2**10)}


@contextlib.contextmanager
def _plain_heap() -> Iterator[None]:
    """Run a task with the heap thresholds of a plain process, then give the memory back.

    Dask's nanny starts its workers with ``MALLOC_TRIM_THRESHOLD_=65536``, which fixes glibc's
    mmap threshold at 128 KiB: every numpy array above it is then mapped, zeroed and unmapped
    anew. Reading and cutting 500 per-model files took 1.42 s under it against 0.86 s in a
    plain process. Inside a task the thresholds are raised (:data:`_ROOMY`; process-wide, so counted
    across the worker's threads); when the last task leaves they are set back to the given ones
    and ``malloc_trim`` returns the free heap to the system, which is what the nanny's setting is
    for. Elsewhere (no such variable, not glibc) nothing changes.
    """
    global _heap_users
    libc = _libc()
    if libc is None:
        yield
        return
    with _heap_lock:
        _heap_users += 1
        if _heap_users == 1:
            for param, value in _ROOMY.items():
                libc.mallopt(param, value)
    try:
        yield
    finally:
        with _heap_lock:
            _heap_users -= 1
            if _heap_users == 0:
                for param, value in _given_thresholds().items():
                    libc.mallopt(param, value)
                libc.malloc_trim(0)


def _dask() -> tuple[Any, Any]:
    try:
        import dask
        import dask.dataframe as dd
    except ImportError as exc:
        raise ImportError(_INSTALL) from exc
    return dask, dd


def _dask_core() -> Any:
    """``dask`` without ``dask.dataframe`` (0.4 s to import; files do not need it)."""
    try:
        import dask
    except ImportError as exc:
        raise ImportError(_INSTALL) from exc
    return dask


def _is_dask_frame(data: object) -> bool:
    """Whether `data` is a Dask DataFrame (then ``dask.dataframe`` is imported already)."""
    import sys

    dd = sys.modules.get("dask.dataframe")
    return dd is not None and isinstance(data, dd.DataFrame)


def _compute(*collections: Any, scheduler: object) -> tuple[Any, ...]:
    """``dask.compute`` (Dask's default scheduler when `scheduler` is None), errors uncarried."""
    dask = _dask_core()
    try:
        if scheduler is None:
            return dask.compute(*collections)
        return dask.compute(*collections, scheduler=scheduler)
    except _Carried as carried:
        raise carried.error() from None


# ---------------------------------------------------------------------- the frame
@fill_doc(SECTIONS)
def source_frame(source: InstanceSource) -> Any:
    """The four columns of `source` as a Dask DataFrame (lazy: nothing but file headers is read).

    Parameters
    ----------
    source : InstanceSource
        A Dask DataFrame, or Parquet/CSV files: a directory (its ``*.parquet``, ``*.pq``,
        ``*.csv``, ``*.tsv`` files, optionally ``.gz`` for CSV/TSV, in sorted order), a
        glob (sorted matches), a list of paths (in the given order), or fsspec URLs.

    Returns
    -------
    dask.dataframe.DataFrame
        Columns system, task, instance, score (the source's names), in that order. CSV/TSV
        cells are text exactly as written (``NA`` is a name, ``01`` is not ``1``); their
        scores are parsed later, as :meth:`~consensus.InstanceScores.from_long` parses text.
        (Dask orders Parquet partitions by the natural sort order of their paths; labels
        follow :func:`source_files` order, see the module notes.)

    Raises
    ------
    LeaderboardError
        A file is missing, unreadable, of an unknown kind, or lacks one of the four columns
        (named); nothing matches a glob or directory; the DataFrame lacks a column.
    InvalidOptionError
        `source.data` is neither a Dask DataFrame nor paths.
    {no_dask}

    Examples
    --------
    >>> import os, tempfile, pytest
    >>> _ = pytest.importorskip("dask.dataframe")
    >>> path = os.path.join(tempfile.mkdtemp(), "qa.csv")
    >>> _ = open(path, "w").write("system,task,instance,score,extra\\na,qa,01,1,x\\nb,qa,01,NA,y\\n")
    >>> source_frame(InstanceSource(path)).compute().values.tolist()
    [['a', 'qa', '01', '1'], ['b', 'qa', '01', 'NA']]
    """
    return _read(source)[0]


def _read(source: InstanceSource) -> tuple[Any, list[tuple[str, str]] | None]:
    """:func:`source_frame` and :func:`source_files` (None for a Dask DataFrame)."""
    _, dd = _dask()
    columns = source_columns(source)
    data = source.data
    if isinstance(data, dd.DataFrame):
        missing = [c for c in columns if c not in data.columns]
        if missing:
            raise LeaderboardError(_missing_columns("the Dask DataFrame", missing, list(data.columns)))
        return data[columns], None
    if isinstance(data, pd.DataFrame):
        raise InvalidOptionError(
            "InstanceSource takes a Dask DataFrame or files; a pandas DataFrame is already in memory: "
            "use InstanceScores.from_long(frame) (or dask.dataframe.from_pandas)"
        )
    files = source_files(data)
    from concurrent.futures import ThreadPoolExecutor

    limits = _limits()
    with ThreadPoolExecutor(max_workers=min(16, len(files))) as pool:  # headers of remote files in parallel
        list(pool.map(lambda f: _check_file(f[0], f[1], columns, limits), files))
    frames = []
    for (fmt, packed), run in itertools.groupby(files, key=lambda f: (f[1], _packed(f[0]))):
        paths = [p for p, _ in run]
        if fmt == "parquet":
            frames.append(dd.read_parquet(paths, columns=columns))
        elif packed:  # one partition per file, through the bounded reader (not Dask's unbounded one)
            meta = pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
            frames.append(dd.from_map(_packed_csv, paths, meta=meta, sep=_SEPARATORS[fmt], columns=columns,
                                      limits=limits))
        else:
            frames.append(dd.read_csv(
                paths, sep=_SEPARATORS[fmt], usecols=columns, dtype={c: str for c in columns},
                keep_default_na=False, na_filter=False, encoding="utf-8-sig",
            ))
    frame = frames[0] if len(frames) == 1 else dd.concat(frames)
    return frame[columns], files


@_carry
def _packed_csv(path: str, sep: str, columns: list[str], limits: tuple[int, bool]) -> pd.DataFrame:
    """One compressed CSV/TSV file as one partition: the four columns, cells as text."""
    with _opened(path, limits) as fh:
        frame = pd.read_csv(fh, sep=sep, usecols=columns, dtype=str, keep_default_na=False, na_filter=False)
    return frame[columns].astype(object)


# ---------------------------------------------------------------------- labels
#: One file's or partition's labels of one column: (labels in order, category positions or None, categories or None).
_LabelInfo = tuple[tuple[str, ...], tuple[int, ...] | None, tuple[str, ...] | None]


def _column_labels(column: pd.Series, kind: str) -> _LabelInfo:
    _, labels = label_codes(column, kind)
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return labels, None, None
    categories = column.cat.categories
    used = column.cat.remove_unused_categories().cat.categories
    first: dict[str, int] = {}
    for label, position in zip(used, categories.get_indexer(used)):
        first.setdefault(normalize_name(str(label)), int(position))
    return labels, tuple(first[label] for label in labels), tuple(str(c) for c in categories)


def _merge_labels(infos: Sequence[_LabelInfo]) -> tuple[str, ...]:
    """Labels over partitions: category order when every partition is categorical with the same
    categories (as ``label_codes`` of their concatenation), else first appearance in partition order."""
    if infos and all(info[1] is not None for info in infos) and len({info[2] for info in infos}) == 1:
        position: dict[str, int] = {}
        for labels, positions, _ in infos:
            for label, at in zip(labels, positions or ()):
                position[label] = min(position.get(label, at), at)
        return tuple(sorted(position, key=position.__getitem__))
    return tuple(dict.fromkeys(label for info in infos for label in info[0]))


# ---------------------------------------------------------------------- map: rows cut into blocks
@dataclass
class _Piece:
    """The rows of one file (or partition) that fall in one block: codes into that file's labels."""

    systems: np.ndarray
    tasks: np.ndarray
    ids: np.ndarray  # whole numbers: int64, or the smallest unsigned dtype once packed (_packed_piece); else objects
    scores: np.ndarray


@dataclass
class _Rows:
    """The rows of a group of files (or partitions), cut into blocks by a hash of their item."""

    labels: list[tuple[_LabelInfo, _LabelInfo]]  # per file: systems, tasks
    pieces: list[list[_Piece | None]]  # per block, per file
    rows: int
    scored: set[str] = field(default_factory=set)  # tasks some row of these files scores


#: Mixes a task's hash into its items' hashes (the 64-bit golden ratio).
_MIX = np.uint64(0x9E3779B97F4A7C15)
#: Spreads a whole-number id over 64 bits (splitmix64's first multiplier).
_SPREAD = np.uint64(0xBF58476D1CE4E5B9)


def _canonical(ids: np.ndarray | pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """The ids in their one form per value (:func:`~consensus.missing._source_rows.canonical_ids`),
    as one array (int64, or objects when some id is not a whole number), and the hash of each."""
    whole, other = canonical_ids(ids)
    with np.errstate(over="ignore"):  # a whole number's hash: multiply and fold (splitmix64's finalizer step)
        hashed = whole.view(np.uint64) * _SPREAD
        hashed ^= hashed >> np.uint64(31)
    if other is None:
        return whole, hashed
    rest = whole < 0
    # other ids hash by their text: "1.5" and 1.5 land in one block, two items there
    hashed[rest] = pd.util.hash_array(np.array([str(x) for x in other], dtype=object))
    merged = whole.astype(object)
    merged[rest] = other
    return merged, hashed


def _blocks_of(hashed: np.ndarray, task_hash: np.ndarray, n_blocks: int) -> np.ndarray:
    """The block of each row: from the hash of its canonical id and its task label's, the same in
    every process."""
    dtype = np.min_scalar_type(max(n_blocks - 1, 0))  # small codes: the stable sort by block is a radix sort
    if n_blocks == 1:
        return np.zeros(len(hashed), dtype=dtype)
    with np.errstate(over="ignore"):
        mixed = hashed * _MIX + task_hash
    return (mixed % np.uint64(n_blocks)).astype(dtype)


def _cut(frames: Iterator[tuple[int, Any, Any]], source: InstanceSource, n_files: int, n_blocks: int) -> _Rows:
    """Read chunks ``(file index in the group, chunk, path)`` into rows per block (see :class:`_Rows`)."""
    from ..io._instance_sets import _Order
    from ._source_rows import _compact, _compact_scores, decoded

    orders = [(_Order(), _Order()) for _ in range(n_files)]
    infos: list[tuple[_LabelInfo, _LabelInfo] | None] = [None] * n_files
    parts: list[list[list[_Piece]]] = [[[] for _ in range(n_files)] for _ in range(n_blocks)]
    rows = 0
    scored: set[str] = set()
    for k, frame, where in frames:
        if isinstance(frame, pd.DataFrame) and where is None:  # a Dask partition: categorical labels kept
            infos[k] = (_column_labels(frame[source.system], "system"), _column_labels(frame[source.task], "task"))
        if not len(frame):
            continue
        s_codes, s_labels, t_codes, t_labels, ids, scores = decoded(frame, source, where or "a Dask partition")
        systems, tasks = orders[k]
        s_codes = systems.codes(s_labels)[s_codes]
        t_codes = tasks.codes(t_labels)[t_codes]
        scored.update(tasks.labels[t] for t in np.unique(t_codes[~np.isnan(scores)]).tolist())
        ids_array, hashed = _canonical(ids)
        task_hash = pd.util.hash_array(np.array(tasks.labels, dtype=object))
        block = _blocks_of(hashed, task_hash[t_codes], n_blocks)
        order = np.argsort(block, kind="stable")
        cuts = np.flatnonzero(np.diff(block[order])) + 1
        for part in np.split(order, cuts):
            if len(part):
                parts[int(block[part[0]])][k].append(_Piece(
                    _compact(s_codes[part]), _compact(t_codes[part]), ids_array[part], _compact_scores(scores[part])))
        rows += len(frame)
    labels = [info if info is not None else ((orders[k][0].labels, None, None), (orders[k][1].labels, None, None))
              for k, info in enumerate(infos)]
    pieces: list[list[_Piece | None]] = []
    for per_file in parts:
        merged: list[_Piece | None] = []
        for got in per_file:
            if not got:
                merged.append(None)
                continue
            if len(got) == 1:
                one = got[0]  # no copy: packed as it is
                merged.append(_packed_piece(one.systems, one.tasks, one.ids, one.scores))
                continue
            ids_all = np.concatenate([g.ids for g in got]) if len({g.ids.dtype for g in got}) == 1 else \
                np.concatenate([g.ids.astype(object) for g in got])
            merged.append(_packed_piece(np.concatenate([g.systems.astype(np.int64) for g in got]),
                                        np.concatenate([g.tasks.astype(np.int64) for g in got]), ids_all,
                                        np.concatenate([g.scores for g in got])))
        pieces.append(merged)
    return _Rows(labels, pieces, rows, scored)


def _packed_piece(systems: np.ndarray, tasks: np.ndarray, ids: np.ndarray, scores: np.ndarray) -> _Piece:
    """One file's rows of one block as they travel between workers: one system code when the file
    holds one system, whole-number ids in the smallest unsigned dtype (2,000 per-model files:
    about 7 bytes a row instead of 15); :func:`_block` reads them back as int64."""
    from ._source_rows import _compact

    if ids.dtype == np.int64 and len(ids) and int(ids.min()) >= 0:
        ids = _compact(ids)
    return _Piece(_compact(systems, constant=True), _compact(tasks), ids, scores)


@_carry
def _file_rows(files: list[tuple[str, str]], source: InstanceSource, limits: tuple[int, bool], n_blocks: int) -> _Rows:
    """Read a group of files, each chunk by chunk, into rows per block."""
    from ._source_rows import AHEAD_FILE_BYTES, _frames, parquet_scan

    columns = source_columns(source)

    def frames() -> Iterator[tuple[int, Any, Any]]:
        scan = parquet_scan(files, columns, label_columns(source), budget=4 * AHEAD_FILE_BYTES)
        if scan is not None:  # local Parquet files of one schema: decoded by pyarrow's threads, ahead
            yield from ((k, batch, files[k][0]) for k, batch in scan if batch is not None)
            return
        for k, (path, fmt) in enumerate(files):
            for frame in _frames(path, fmt, columns, limits, label_columns(source)):
                yield k, frame, path

    return _cut(frames(), source, len(files), n_blocks)


@_carry
def _partition_rows(source: InstanceSource, n_blocks: int, *partitions: pd.DataFrame) -> _Rows:
    """Rows per block of a group of Dask DataFrame partitions."""
    columns = source_columns(source)
    return _cut(((k, part[columns], None) for k, part in enumerate(partitions)), source, len(partitions), n_blocks)


@_carry
def _rows_labels(rows: _Rows) -> tuple[list[tuple[_LabelInfo, _LabelInfo]], set[str]]:
    return rows.labels, rows.scored


@_carry
def _rows_piece(rows: _Rows, block: int) -> list[_Piece | None]:
    return rows.pieces[block]


# ---------------------------------------------------------------------- the labels over every file
@dataclass(frozen=True)
class _Coding:
    """The systems and tasks over every file, and each file's codes into them."""

    context: Any  # consensus.missing._item_blocks._Context
    system_codes: list[np.ndarray]  # per file: global code of each of its systems
    task_codes: list[np.ndarray]


@_carry
def _coding(source: InstanceSource, per_task: bool, memory: int, names: tuple[str, ...],
            *groups: tuple[list[tuple[_LabelInfo, _LabelInfo]], set[str]]) -> _Coding:
    """Merge every file's labels (in file order), check the options against them."""
    from ._item_blocks import _Context, matrices_held

    per_file = [info for group, _ in groups for info in group]
    systems = _merge_labels([f[0] for f in per_file])
    tasks = _merge_labels([f[1] for f in per_file])
    if not systems:
        raise NoTaskError("the data has no rows")
    if len(systems) < 2:
        raise TooFewSystemsError(len(systems))
    scored = set().union(*(s for _, s in groups))
    unscored = [t for t in tasks if t not in scored]
    if unscored:
        raise EmptyTaskError(unscored[0])
    lower = set(check_task_names(list(source.lower_is_better), tasks, "lower_is_better"))
    weights = check_weights(source.weights, tasks).to_numpy(dtype=np.float64)
    check_square_matrices(len(systems), matrices_held(len(tasks), per_task), "the imputed pairwise comparison")
    system_index = {s: i for i, s in enumerate(systems)}
    task_index = {t: i for i, t in enumerate(tasks)}
    context = _Context(systems, tasks, names, np.array([t in lower for t in tasks]), weights, per_task, memory)
    return _Coding(
        context,
        [np.array([system_index[s] for s in f[0][0]], dtype=np.int64) for f in per_file],
        [np.array([task_index[t] for t in f[1][0]], dtype=np.int64) for f in per_file],
    )


# ---------------------------------------------------------------------- blocks and reduce
@_carry
def _block(coding: _Coding, first_file: list[int], *groups: list[_Piece | None]) -> tuple[PartialSums, int]:
    """The partial sums of one block: its rows from every group of files, summed by
    :func:`consensus.missing._item_blocks.sum_blocks` (in sub-blocks that fit the memory setting)."""
    import sys

    from ._item_blocks import _Chunk, _Store, sum_blocks
    from ._source_rows import _compact, _ItemCodes

    items = _ItemCodes()
    store = _Store(sys.maxsize)
    for g, group in enumerate(groups):
        for k, piece in enumerate(group):
            if piece is None:
                continue
            f = first_file[g] + k
            task_of_row = coding.task_codes[f][piece.tasks.astype(np.int64)]
            codes = items.codes(task_of_row, piece.ids.astype(np.int64) if piece.ids.dtype.kind == "u" else piece.ids)
            systems = coding.system_codes[f][piece.systems.astype(np.int64)]
            store.add(_Chunk(_compact(systems, constant=True), _compact(codes), piece.scores, f))
    acc = coding.context.empty_sums()
    sum_blocks(store, items, coding.context, acc)
    return acc, items.count


@_carry
def _combine(coding: _Coding, *pieces: tuple[PartialSums, int]) -> tuple[PartialSums, int]:
    """Add partial sums into a fresh one (inputs untouched, so a retried task adds nothing twice)."""
    acc, n_items = coding.context.empty_sums(), 0
    for sums, k in pieces:
        acc += sums
        n_items += k
    return acc, n_items


def _tree(pieces: list[Any], coding: Any) -> Any:
    dask = _dask_core()
    while len(pieces) > 1:
        pieces = [
            dask.delayed(_combine)(coding, *pieces[i : i + SPLIT_EVERY]) for i in range(0, len(pieces), SPLIT_EVERY)
        ]
    return pieces[0] if pieces else dask.delayed(_combine)(coding)


def _workers(scheduler: object) -> int:
    """How many tasks can run at once: the cluster's threads, or this machine's cores."""
    info = getattr(scheduler, "scheduler_info", None)
    if callable(info):
        try:
            workers = info().get("workers", {})
            return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))
        except Exception:  # a client without a scheduler reachable: plan for the local cores
            pass
    return os.cpu_count() or 1


# ---------------------------------------------------------------------- entry point
@fill_doc(SECTIONS)
def dask_summed(source: InstanceSource, *, per_task: bool, scheduler: object = None) -> Summed:
    """The pairwise sums of `source`, by item blocks on Dask: every block a task (see the module notes).

    Equal to :func:`~consensus.missing._imputation_sums.summed` of ``InstanceScores.from_long`` of
    the whole table with the same options: same systems and tasks, in the same order, the
    same counts, and the same sums up to the order of floating-point additions.

    Parameters
    ----------
    source : InstanceSource
        The instance-level scores: a Dask DataFrame or files (:func:`source_files`).
    {per_task}
    scheduler : object, optional
        What ``dask.compute(scheduler=...)`` takes (``"synchronous"``, ``"threads"``,
        ``"processes"``, a ``distributed.Client``); None: Dask's default (the active
        ``Client`` if there is one). The data is read once.

    Returns
    -------
    Summed
        Systems and tasks in order of first appearance (or category order), the raw task
        weights (default 1), the number of items (task, instance) summed, and the sums.

    Raises
    ------
    LeaderboardError
        A missing column or file (:func:`source_frame`), or invalid scores, labels or
        weights, as :meth:`~consensus.InstanceScores.from_long` raises them: among others
        DuplicateInstanceError (a (system, task, instance) listed twice), EmptyTaskError,
        EmptySystemError, NonNumericScoreError, NonFiniteScoreError, NoTaskError (no rows),
        TooFewSystemsError, InvalidWeightError.
    {source_unknown_task}
    {no_dask}

    Examples
    --------
    >>> import pytest
    >>> dd = pytest.importorskip("dask.dataframe")
    >>> long = pd.DataFrame({"system": ["a", "b", "a", "b", "c"], "task": ["t"] * 5,
    ...                      "instance": [1, 1, 2, 2, 2], "score": [0.0, 1.0, 1.0, 0.0, 0.5]})
    >>> src = InstanceSource(dd.from_pandas(long, npartitions=2))
    >>> res = dask_summed(src, per_task=False, scheduler="synchronous")
    >>> res.systems, res.n_units, res.sums.counts.astype(int).tolist()
    (('a', 'b', 'c'), 2, [[0, 2, 1], [2, 0, 1], [1, 1, 0]])
    """
    from ._item_blocks import memory_setting

    if not isinstance(source, InstanceSource):
        raise InvalidOptionError(f"expected an InstanceSource, got {type(source).__name__}")
    if source.layout != "long":
        raise InvalidOptionError(f"layout={source.layout!r} is read in this process: leave scheduler= out")
    dask = _dask_core()
    memory = memory_setting(source.memory)
    workers = _workers(scheduler)
    options = dataclasses.replace(source, data="")  # what the tasks need: column names and options
    if _is_dask_frame(source.data):
        frame = _read(source)[0]
        partitions = frame.to_delayed()
        n_groups = min(len(partitions), GROUPS_PER_THREAD * workers)
        bounds = np.linspace(0, len(partitions), n_groups + 1).astype(int).tolist()
        n_blocks = max(1, BLOCKS_PER_THREAD * workers)
        groups = [dask.delayed(_partition_rows)(options, n_blocks, *partitions[a:b]) for a, b in zip(bounds, bounds[1:])]
        names: tuple[str, ...] = ()  # partitions have no name to show
    else:
        files = source_files(source.data)
        limits = _limits()
        columns = source_columns(source)
        from concurrent.futures import ThreadPoolExecutor

        def check(f: tuple[str, str]) -> int:
            return _check_file(f[0], f[1], columns, limits)

        if all("://" not in path for path, _ in files):  # local: one after another (threads only contend: 0.13 s
            rows = sum(map(check, files))                 # against 0.36 s for 2,000 Parquet footers)
        else:
            with ThreadPoolExecutor(max_workers=min(16, len(files))) as pool:  # headers of remote files in parallel
                rows = sum(pool.map(check, files))
        n_groups = min(len(files), GROUPS_PER_THREAD * workers)
        bounds = np.linspace(0, len(files), n_groups + 1).astype(int).tolist()
        # a block's rows (about 24 bytes each in a block task) fit a quarter of the memory setting
        n_blocks = max(BLOCKS_PER_THREAD * workers, -(-rows * 24 // max(memory // 4, 1)))
        groups = [dask.delayed(_file_rows)(files[a:b], options, limits, n_blocks) for a, b in zip(bounds, bounds[1:])]
        names = tuple(p for p, _ in files)
    first_file = bounds[:-1]
    coding = dask.delayed(_coding)(options, per_task, memory, names, *[dask.delayed(_rows_labels)(g) for g in groups])
    blocks = [dask.delayed(_block)(coding, first_file, *[dask.delayed(_rows_piece)(g, b) for g in groups])
              for b in range(n_blocks)]
    (acc, n_items), done = _compute(_tree(blocks, coding), coding, scheduler=scheduler)
    context = done.context
    scored = np.diagonal(acc.counts) + acc.full_n  # items scoring each system
    if not scored.all():
        raise EmptySystemError([s for s, k in zip(context.systems, scored) if k == 0])
    return Summed(context.systems, context.tasks, context.weights, int(n_items), acc.finish())
