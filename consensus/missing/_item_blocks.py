"""Instance-level files summed by item blocks: one pass over the files, in bounded memory, no Dask.

:func:`stream_summed` gives what :func:`consensus.missing._imputation_sums.summed` gives for the
same scores read whole (:func:`consensus.read_instances` of the same files): same systems and
tasks in the same order, the same counts, the same sums up to the order of float additions
(within ``1e-12`` relative). It never holds the systems x items array, nor the long table:

1. **One pass over the files** (in :func:`~consensus.missing._dask_sums.source_files` order),
   chunk by chunk (row groups of a Parquet file, a million rows of a CSV file; local Parquet files
   of one schema decoded ahead by pyarrow's dataset scanner on its own threads,
   :func:`~consensus.missing._source_rows.parquet_scan`, the others by one reading thread). Each row gets
   its system's code and its item's code, both in order of first appearance (an item is a
   (task, instance id) pair; ids compared as :func:`consensus.read_instances` compares them),
   and its score parsed as there. A chunk is kept as three compact arrays: system code,
   item code (int32 when they fit) and score (float32 when every score of the chunk is exactly
   a float32, such as 0/1 correctness; float64 otherwise): 10 to 16 bytes a row.
2. **Spill.** When the chunks kept exceed half the memory setting, every chunk is cut into
   *buckets* of :data:`BUCKET_ITEMS` consecutive item codes and appended to one file per
   bucket in a private temporary folder (removed at the end, also on errors); reading goes
   on. Files whose rows come in any order need this (evaluation logs usually list a model's
   items in its own order): an item's scores are in every file.
3. **Blocks.** Consecutive buckets make a block of items whose dense systems x items array
   (float32 when every score read is exactly a float32, as 0/1 correctness is: the same
   comparisons, half the bytes, so twice the items a block; else float64) fits
   :data:`BLOCK_BYTES` and an eighth of the memory setting. For each block its rows are gathered (from the
   chunks kept and the block's spill files), written into the dense array (a repeated
   (system, task, instance) is an error naming both files), and the block's columns are
   added to one :class:`~consensus.missing._partial_sums.PartialSums`, task by task (a task
   may span blocks: its per-task comparison indicators are OR-ed, so ``sigma_2l`` stays exact).

**Cost model** (``R`` rows, ``N`` systems, ``K`` items, ``M`` the memory setting): every file
is read once; ``R`` rows of 6-16 bytes are held, or written and read back once when they do
not fit ``M / 2`` (the bytes spilled are printed by ``benchmarks/instance_scale.py``); the
dense blocks hold ``N x K`` cells of 4 bytes (0/1 scores) or 8 in total, ``min(64 MB, M / 8)``
at a time (but at least :data:`BUCKET_ITEMS` items a block); the kernel's work is that of the
in-memory sums (a block that splits a task splits its products: blocks wide enough to hold a
few thousand items of each task keep that cost down, which is what float32 blocks buy at 2,000
systems: 3 blocks instead of 5, 7.1 s instead of 7.7 s, measured).
Outside ``M``: three ``N x N`` float64 accumulators (five when weights differ within a run of
items; 100 MB at 2,000 systems), for ``sigma_2l`` one ``N x N`` bool matrix per task, the item
codes (a table of 8 bytes per id below 2**20 per task, a Python object per item), and the
chunks decoded ahead; the N x N parts are checked against the available memory first
(:func:`matrices_held`).

The memory setting is the source's ``memory=``, else a quarter of the memory available
(:func:`consensus.io._limits.available_memory`: the machine's, the container's,
``ulimit -v`` and ``--max-memory`` / ``CONSENSUS_MAX_MEMORY``, the tightest), at least
:data:`MIN_MEMORY`.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..board._validation import check_task_names, check_weights
from ..errors import (
    DuplicateInstanceError,
    EmptySystemError,
    EmptyTaskError,
    InvalidOptionError,
    NoTaskError,
    TooFewSystemsError,
)
from ..io._cells import check_instances
from ..io._instance_sets import _Order
from ..io._limits import check_square_matrices
from ._docs import SECTIONS
from ._instance_source import InstanceSource, memory_setting
from ._partial_sums import PartialSums, Summed
from ._source_rows import (
    _compact,
    _compact_scores,
    _files_ahead,
    _frames,
    _ItemCodes,
    _prefetched,
    decoded,
    label_columns,
    parquet_scan,
    source_columns,
)

logger = logging.getLogger("consensus.missing")

__all__ = ["stream_summed", "block_items", "matrices_held", "BUCKET_ITEMS", "BLOCK_BYTES"]

#: What the last in-process run moved (rows, bytes spilled, blocks, memory setting): for benchmarks.
LAST_RUN: dict[str, int] = {}
#: Items per spill bucket (a block is a run of whole buckets).
BUCKET_ITEMS = 1024
#: The largest dense block (bytes): larger ones do not make the kernel's matrix products faster,
#: and its temporaries are a few times the block.
BLOCK_BYTES = 64 * 1024**2


# ---------------------------------------------------------------------- the rows kept
@dataclass(frozen=True, slots=True)
class _Chunk:
    """Rows of one file: system codes, item codes, scores (compact dtypes), and the file's number."""

    systems: np.ndarray
    items: np.ndarray
    scores: np.ndarray
    file: int | np.ndarray  # one file, or the file of each row (rows read back from a spill file)

    @property
    def nbytes(self) -> int:
        return int(self.systems.nbytes + self.items.nbytes + self.scores.nbytes + np.asarray(self.file).nbytes)

    def file_of(self, row: int) -> int:
        return int(self.file) if np.ndim(self.file) == 0 else int(np.asarray(self.file)[row])

    def system_codes(self) -> np.ndarray:
        """One system code per row, as int64 (`systems` may hold one code for every row)."""
        if len(self.systems) == len(self.items):
            return self.systems.astype(np.int64)
        return np.full(len(self.items), int(self.systems[0]), dtype=np.int64)

    def take(self, keep: np.ndarray | slice) -> _Chunk:
        systems = self.systems if len(self.systems) != len(self.items) else self.systems[keep]
        file = self.file if np.ndim(self.file) == 0 else np.asarray(self.file)[keep]
        return _Chunk(systems, self.items[keep], self.scores[keep], file)


class _Store:
    """The rows read so far: in memory up to `limit` bytes, beyond it in bucket files on disk."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.kept: list[_Chunk] = []
        self.kept_bytes = 0
        self.folder: tempfile.TemporaryDirectory[str] | None = None
        self.spilled_bytes = 0
        self.buckets: set[int] = set()
        self.width = 0  # rows kept sorted by blocks of this many items (0: not sorted)
        self.cuts: list[np.ndarray] = []
        self.float32 = True  # every score read is exactly a float32 (the dense blocks can be float32)

    def add(self, chunk: _Chunk) -> None:
        self.kept.append(chunk)
        self.kept_bytes += chunk.nbytes
        self.float32 &= chunk.scores.dtype == np.float32
        if self.kept_bytes > self.limit:
            self._spill()

    def _spill(self) -> None:
        """Write every chunk kept to the bucket files: per bucket, one record of its rows."""
        if self.folder is None:
            self.folder = tempfile.TemporaryDirectory(prefix="consensus-spill-")
        pieces: dict[int, list[_Chunk]] = {}
        kept, self.kept = self.kept, []
        while kept:  # each chunk freed once cut: the rows are held once, not twice
            chunk = kept.pop()
            bucket = chunk.items.astype(np.int64) // BUCKET_ITEMS
            order = np.argsort(bucket, kind="stable")
            cuts = np.flatnonzero(np.diff(bucket[order])) + 1
            for part in np.split(order, cuts):
                if len(part):
                    pieces.setdefault(int(bucket[part[0]]), []).append(chunk.take(part))
        for b in sorted(pieces):
            parts = pieces.pop(b)[::-1]  # in reading order
            merged = _Chunk(
                _compact(np.concatenate([p.system_codes() for p in parts])),
                np.concatenate([p.items for p in parts]),
                np.concatenate([p.scores for p in parts]),
                _compact(np.concatenate([np.full(len(p.items), p.file_of(0)) for p in parts])),
            )
            with open(self._path(b), "ab") as fh:
                for arr in (merged.systems, merged.items, merged.scores, merged.file):
                    np.save(fh, arr)
            self.spilled_bytes += merged.nbytes
            self.buckets.add(b)
        self.kept_bytes = 0

    def _path(self, bucket: int) -> str:
        assert self.folder is not None
        return os.path.join(self.folder.name, f"{bucket}.npy")

    def arrange(self, width: int) -> None:
        """Sort the rows kept by block of `width` items, once: each block's rows of a chunk are
        then a slice (:meth:`rows`), not a selection per block."""
        self.width = width
        self.cuts = []
        for k, chunk in enumerate(self.kept):
            # block numbers in a small unsigned type: numpy sorts those by radix (stable, linear)
            block = chunk.items.astype(np.int64) // width
            block = block.astype(np.uint16) if int(block.max(initial=0)) < 1 << 16 else block
            counts = np.bincount(block)
            if np.count_nonzero(counts) > 1:
                order = np.argsort(block, kind="stable")
                chunk = self.kept[k] = chunk.take(order)
            self.cuts.append(np.concatenate([[0], np.cumsum(counts)]))

    def rows(self, first_item: int, end_item: int) -> Iterator[_Chunk]:
        """Every row whose item code is in ``[first_item, end_item)``, chunk by chunk."""
        aligned = self.width and first_item % self.width == 0 and end_item - first_item <= self.width
        for k, chunk in enumerate(self.kept):
            if aligned:
                b, cuts = first_item // self.width, self.cuts[k]
                if b + 1 < len(cuts) and cuts[b + 1] > cuts[b]:
                    yield chunk.take(slice(int(cuts[b]), int(cuts[b + 1])))
                continue
            if len(chunk.items) and int(chunk.items.min()) >= first_item and int(chunk.items.max()) < end_item:
                yield chunk
                continue
            keep = (chunk.items >= first_item) & (chunk.items < end_item)
            if keep.any():
                yield chunk.take(keep)
        for b in range(first_item // BUCKET_ITEMS, -(-end_item // BUCKET_ITEMS)):
            if b not in self.buckets:
                continue
            path = self._path(b)
            size = os.path.getsize(path)
            with open(path, "rb") as fh:
                while fh.tell() < size:
                    yield _Chunk(np.load(fh), np.load(fh), np.load(fh), np.load(fh))

    def close(self) -> None:
        self.kept, self.kept_bytes = [], 0
        if self.folder is not None:
            self.folder.cleanup()
            self.folder = None


def matrices_held(n_tasks: int, per_task: bool) -> int:
    """N x N float64 matrices the sums hold at their peak: 8 (accumulators, results, temporaries),
    and for ``sigma_2l`` one N x N bool matrix per task (tasks may span blocks: each task's
    "compared in this task" indicators are kept until the end), counted 8 to a matrix.

    Parameters
    ----------
    n_tasks : int
    per_task : bool

    Returns
    -------
    int
    """
    return 8 + (-(-n_tasks // 8) if per_task else 0)


def block_items(n_systems: int, memory: int, cell_bytes: int = 8) -> int:
    """Items per block: whole buckets whose dense array (`cell_bytes` a cell) fits :data:`BLOCK_BYTES`
    and an eighth of `memory`; at least one bucket.

    Parameters
    ----------
    n_systems : int
    memory : int
        The memory setting, in bytes.
    cell_bytes : int, default=8
        8 for float64 scores, 4 when every score is exactly a float32 (0/1 correctness).

    Returns
    -------
    int
        A multiple of :data:`BUCKET_ITEMS`.

    Examples
    --------
    >>> block_items(2000, 2**30)
    4096
    """
    budget = min(BLOCK_BYTES, memory // 8)
    return max(1, budget // (max(n_systems, 1) * cell_bytes * BUCKET_ITEMS)) * BUCKET_ITEMS


# ---------------------------------------------------------------------- reading


class _Reader:
    """Codes systems, tasks and items in order of first appearance, over the files in order."""

    def __init__(self, source: InstanceSource) -> None:
        self.source = source
        self.systems, self.tasks = _Order(), _Order()
        self.items = _ItemCodes()
        self.rows = 0
        self.scored = np.zeros(0, dtype=bool)  # per task: some system has a score

    def chunk(self, frame: Any, file_no: int, path: str) -> _Chunk:
        """One chunk of a file (a pandas DataFrame of text cells, or an Arrow record batch) as codes."""
        s_codes, s_labels, t_codes, t_labels, ids, scores = decoded(frame, self.source, path)
        rows = self.systems.codes(s_labels)[s_codes]
        task_of_row = self.tasks.codes(t_labels)[t_codes]
        items = self.items.codes(task_of_row, ids)
        self.rows += len(items)
        here = np.bincount(task_of_row[~np.isnan(scores)], minlength=len(self.tasks.index)) > 0
        self.scored = np.pad(self.scored, (0, len(here) - len(self.scored))) | here
        return _Chunk(_compact(rows, constant=True), _compact(items), _compact_scores(scores), file_no)


# ---------------------------------------------------------------------- blocks
@dataclass(frozen=True)
class _Context:
    """What summing a block needs besides its rows (shipped once per Dask graph)."""

    systems: tuple[str, ...]
    tasks: tuple[str, ...]
    files: tuple[str, ...]
    negate: np.ndarray  # per task: lower is better
    weights: np.ndarray  # raw task weights
    per_task: bool
    memory: int

    def empty_sums(self) -> PartialSums:
        return PartialSums(len(self.systems), len(self.tasks), per_task=self.per_task, split_tasks=True,
                           task_split_across_parts=True)


def sum_blocks(store: _Store, items: _ItemCodes, context: _Context, acc: PartialSums) -> int:
    """Add every item of `store` to `acc`, block by block (:func:`block_items` items a block).

    Parameters
    ----------
    store : _Store
        The rows, item codes ``0 .. items.count - 1``.
    items : _ItemCodes
        The task and instance id of each item code.
    context : _Context
    acc : PartialSums

    Returns
    -------
    int
        The number of blocks.
    """
    dtype = np.float32 if store.float32 else np.float64  # float32 blocks: the same comparisons, half the bytes
    width = block_items(len(context.systems), context.memory, np.dtype(dtype).itemsize)
    store.arrange(width)
    cells = len(context.systems) * min(width, items.count)
    buffers = (np.empty(cells, dtype=dtype), np.empty(cells, dtype=bool))
    task_of_item = np.array(items.task_of_item, dtype=np.int64)
    blocks = 0
    for first in range(0, items.count, width):
        _block_sums(store, items, task_of_item, first, min(first + width, items.count), acc, context, buffers)
        blocks += 1
    return blocks


def _block_sums(
    store: _Store, items: _ItemCodes, task_of_item: np.ndarray, first: int, end: int, acc: PartialSums,
    context: _Context, buffers: tuple[np.ndarray, np.ndarray],
) -> None:
    """Add the items ``[first, end)`` to `acc`: their dense array (in `buffers`), task by task."""
    n_sys = len(context.systems)
    width = end - first
    task_of = task_of_item[first:end]
    order = np.argsort(task_of, kind="stable")  # the block's columns, grouped by task
    column = np.empty(width, dtype=np.int64)
    column[order] = np.arange(width)
    values, hits = buffers[0][: n_sys * width], buffers[1][: n_sys * width]
    values.fill(np.nan)
    hits.fill(False)
    rows = 0
    for chunk in store.rows(first, end):
        cells = chunk.system_codes() * width + column[chunk.items.astype(np.int64) - first]
        hits[cells] = True
        values[cells] = chunk.scores
        rows += len(cells)
    if np.count_nonzero(hits) != rows:  # a cell written twice
        _duplicate(store, items, context, first, end, column, width)
    values = values.reshape(n_sys, width)
    tasks_sorted = task_of[order]
    offsets = np.searchsorted(tasks_sorted, np.arange(len(context.tasks) + 1))
    ids = pd.Index([items.instance_of_item[i] for i in (first + order).tolist()], dtype=object)
    check_instances(values, context.systems, context.tasks, offsets, [ids[offsets[t] : offsets[t + 1]]
                                                                     for t in range(len(context.tasks))],
                    empty_systems=False, whole_tasks=False)
    for t in np.unique(tasks_sorted).tolist():
        a, b = int(offsets[t]), int(offsets[t + 1])
        block = -values[:, a:b] if context.negate[t] else values[:, a:b]
        acc.add_segment(block, np.full(b - a, context.weights[t]), t)


def _duplicate(store: _Store, items: _ItemCodes, context: _Context, first: int, end: int, column: np.ndarray,
               width: int) -> None:
    """Find the first repeated cell of the block and raise naming its system, task, id and files."""
    where: dict[int, int] = {}
    for chunk in store.rows(first, end):
        cells = chunk.system_codes() * width + column[chunk.items.astype(np.int64) - first]
        for k, cell in enumerate(cells.tolist()):
            if cell in where:
                system = context.systems[int(chunk.system_codes()[k])]
                item = int(chunk.items[k])
                task, instance = items.task_of_item[item], items.instance_of_item[item]
                pair = sorted((where[cell], chunk.file_of(k)))  # in reading order
                files = tuple(context.files[f] for f in pair) if context.files else ()
                raise DuplicateInstanceError(system, context.tasks[task], [instance], files=files)
            where[cell] = chunk.file_of(k)
    raise AssertionError("a repeated cell was seen but not found again")  # pragma: no cover


# ---------------------------------------------------------------------- entry point
@fill_doc(SECTIONS)
def stream_summed(source: InstanceSource, *, per_task: bool, progress: Callable[[int, int], None] | None = None) -> Summed:
    """The pairwise sums of `source`'s files, by item blocks in bounded memory (see the module notes).

    Parameters
    ----------
    source : InstanceSource
        Parquet/CSV files (a Dask DataFrame needs ``scheduler=``); ``source.memory`` is the
        memory setting (:func:`memory_setting`).
    {per_task}
    progress : callable, optional
        Called with ``(files read, files)`` after each file (default: a tqdm bar on stderr
        when ``source.progress``).

    Returns
    -------
    Summed
        Systems and tasks in order of first appearance over the files, the raw task weights,
        the number of items (task, instance) summed, and the sums. ``Summed.spilled_bytes``
        is not kept; see :func:`stream_report`.

    Raises
    ------
    LeaderboardError
        A missing column or file, or invalid scores, labels or weights, as
        :func:`consensus.read_instances` raises them: among others DuplicateInstanceError (a
        (system, task, instance) listed twice, naming both files), EmptyTaskError,
        EmptySystemError, NonNumericScoreError, NonFiniteScoreError, NoTaskError (no rows),
        TooFewSystemsError, InvalidWeightError.
    {source_unknown_task}

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = open(os.path.join(folder, "a.csv"), "w").write("system,task,instance,score\\na,t,1,0\\na,t,2,1\\n")
    >>> _ = open(os.path.join(folder, "b.csv"), "w").write("system,task,instance,score\\nb,t,2,0\\nb,t,1,1\\n")
    >>> res = stream_summed(InstanceSource(folder), per_task=False)
    >>> res.systems, res.n_units, res.sums.counts.astype(int).tolist()
    (('a', 'b'), 2, [[0, 2], [2, 0]])
    """
    return _streamed(source, per_task=per_task, progress=progress)[0]


def _streamed(source: InstanceSource, *, per_task: bool,
              progress: Callable[[int, int], None] | None = None) -> tuple[Summed, dict[str, int]]:
    """:func:`stream_summed` and what it moved: rows, bytes kept, bytes spilled, blocks."""
    from ._source_files import source_files

    if not isinstance(source, InstanceSource):
        raise InvalidOptionError(f"expected an InstanceSource, got {type(source).__name__}")
    if isinstance(source.data, pd.DataFrame):
        raise InvalidOptionError(
            "InstanceSource takes files or a Dask DataFrame; a pandas DataFrame is already in memory: "
            "use InstanceScores.from_long(frame)"
        )
    if not isinstance(source.data, (str, os.PathLike, list, tuple)):
        raise InvalidOptionError(
            "a Dask DataFrame is summed on Dask: pass scheduler= (a distributed Client, 'threads', 'synchronous')"
        )
    memory = memory_setting(source.memory)
    columns = source_columns(source)
    harness = None
    ahead = scan = None
    if source.layout == "harness-samples":
        from ..formats.harness import HarnessSamples

        assert source.metric is not None  # InstanceSource checks it
        data = list(source.data) if isinstance(source.data, (list, tuple)) else Path(os.fspath(source.data))
        harness = HarnessSamples(data, metric=source.metric)
        names = list(harness.files)

        def chunks() -> Iterator[tuple[int, Any]]:
            assert harness is not None
            for file_no, frame in harness.frames():
                frame.columns = columns
                yield file_no, frame
                yield file_no, None  # the file is read
    else:
        files = source_files(source.data)
        names = [path for path, _ in files]

        labels = label_columns(source)
        scan = parquet_scan(files, columns, labels, budget=max(memory // 16, 1))
        if scan is None:
            ahead = _files_ahead(files, lambda path, fmt: list(_frames(path, fmt, columns, labels=labels)),
                                 budget=max(memory // 16, 1))

        def chunks() -> Iterator[tuple[int, Any]]:
            if scan is not None:  # local Parquet files of one schema: pyarrow's threads decode ahead
                yield from scan
                return
            if ahead is not None:  # small local files: decoded whole, ahead, by a thread
                for file_no, frames in enumerate(ahead):
                    for frame in frames:
                        yield file_no, frame
                    yield file_no, None
                return
            for file_no, (path, fmt) in enumerate(files):
                for frame in _frames(path, fmt, columns, labels=labels):
                    yield file_no, frame
                yield file_no, None  # the file is read

    reader = _Reader(source)
    store = _Store(memory // 2)
    bar = None
    if progress is None and source.progress:
        import sys

        from tqdm import tqdm

        bar = tqdm(total=len(names), desc="consensus: reading", unit="file", file=sys.stderr, leave=False)

        def progress(done: int, total: int) -> None:
            bar.update(done - bar.n)

    try:
        # Parquet and CSV decoding release the GIL: a thread decodes ahead. JSON lines are parsed in
        # Python: a second thread would only contend for the GIL (1.3x slower, measured)
        streamed = harness is None and ahead is None and scan is None  # one thread decodes ahead, chunk by chunk
        for file_no, frame in (_prefetched(chunks()) if streamed else chunks()):
            if frame is None:
                if progress is not None:
                    progress(file_no + 1, len(names))
            elif len(frame):
                store.add(reader.chunk(frame, file_no, names[file_no]))
        if scan is not None:  # the decoded batches are gone: their memory back to the system before the sums
            import pyarrow as pa

            pa.default_memory_pool().release_unused()
        lower = set(harness.finish()) if harness is not None else set()  # the metrics' directions
        if harness is not None:
            for note in harness.notes:
                logger.info("%s", note)
        systems, tasks = reader.systems.labels, reader.tasks.labels
        if not systems:
            raise NoTaskError("the data has no rows")
        if len(systems) < 2:
            raise TooFewSystemsError(len(systems))
        unscored = np.flatnonzero(~np.pad(reader.scored, (0, len(tasks) - len(reader.scored))))
        if len(unscored):
            raise EmptyTaskError(tasks[int(unscored[0])])
        lower |= set(check_task_names(list(source.lower_is_better), tasks, "lower_is_better"))
        weights = check_weights(source.weights, tasks).to_numpy(dtype=np.float64)
        check_square_matrices(len(systems), matrices_held(len(tasks), per_task), "the imputed pairwise comparison")
        context = _Context(systems, tasks, tuple(names), np.array([t in lower for t in tasks]),
                           weights, per_task, memory)
        acc = context.empty_sums()
        blocks = sum_blocks(store, reader.items, context, acc)
    finally:
        for pending in (ahead, scan):
            if pending is not None:
                pending.close()  # files still decoding ahead are dropped (on an error)
        store.close()
        if bar is not None:
            bar.close()
    scored = np.diagonal(acc.counts) + acc.full_n
    if not scored.all():
        raise EmptySystemError([s for s, k in zip(systems, scored) if k == 0])
    moved = {"rows": reader.rows, "spilled_bytes": store.spilled_bytes, "blocks": blocks, "memory": memory}
    LAST_RUN.clear()
    LAST_RUN.update(moved)
    return Summed(systems, tasks, weights, int(reader.items.count), acc.finish()), moved
