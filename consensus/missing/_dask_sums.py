"""The pairwise sums of an :class:`~consensus.missing.InstanceSource`, as a map-reduce over Dask partitions.

:func:`dask_summed` gives what :func:`consensus.missing._imputation_sums.summed` gives for the same
scores in memory (``InstanceScores.from_long`` of the whole table), without ever holding the
table in one place:

1. **Frame.** :func:`source_frame`: the Dask DataFrame as given, or Parquet/CSV files read
   with ``dask.dataframe`` (only the four columns; CSV cells as text, exactly as written).
   A ``.csv.gz``/``.tsv.gz`` file is one partition, decompressed by the package's bounded
   reader (:func:`_opened`), with the limits of the in-process readers taken on the client
   (``CONSENSUS_MAX_INPUT_BYTES``, 2 GiB by default, and the compression-bomb check unless
   that limit is set): Dask's own decompression has no bound, and a worker would fill its
   memory with a bomb. Its header and labels are read through the same reader.
2. **Labels** (a first pass, over the system and task columns only): each partition of a
   Dask DataFrame, or each file chunk by chunk, lists its labels in order of first
   appearance; concatenated in partition (file) order and de-duplicated, that is the order
   of :meth:`~consensus.InstanceScores.from_long` on the concatenated table (files in
   :func:`source_files` order, as :func:`consensus.read_instances` reads them; categorical
   columns sharing one list of categories: category order). Labels are normalized as there.
3. **Shuffle.** Each row gets its system's and task's integer code and a float score (parsed
   as :meth:`~consensus.InstanceScores.from_long` parses it); the rows are then shuffled on
   (task code, instance id), so every score of one item (task, instance) lands in one
   partition. Codes, not the raw labels, are hashed: ``"qa"`` and ``" qa"`` are one task.
4. **Map.** Each partition becomes a dense systems x items block per task (NaN where a
   system has no score, lower-is-better tasks negated) added to a
   :class:`~consensus.missing._imputation_sums.PartialSums`; the per-task "compared in this task"
   indicators are kept per task and OR-ed across partitions, so ``sigma_2l`` stays exact when
   a task's items are spread over partitions.
5. **Reduce.** The partial sums are added in a tree (:data:`SPLIT_EVERY` at a time) and
   finished on the client.

The sums equal the in-memory ones up to the order of float additions (within ``1e-12``);
counts are exact. Errors are those of :meth:`~consensus.InstanceScores.from_long`, raised
where found (a duplicated row: in the partition holding its item); raised inside a Dask
task they are carried back as they are (their ``__init__`` does not survive pickling).
"""

from __future__ import annotations

import contextlib
import csv
import functools
import io
import itertools
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from ..board._validation import check_task_names, check_weights
from ..errors import (
    ConsensusError,
    DuplicateInstanceError,
    EmptyLabelError,
    EmptySystemError,
    InvalidOptionError,
    LeaderboardError,
    NoTaskError,
    TooFewSystemsError,
)
from ..io._cells import check_instances, label_codes, numeric_scores
from ..io._labels import normalize_name
from ..io._limits import check_square_matrices, input_limit_given, max_input_bytes
from ..io._opening import bounded_gzip, bounded_lines
from ._instance_source import InstanceSource
from ._partial_sums import PartialSums, Summed

__all__ = ["dask_summed", "source_frame", "source_files", "SPLIT_EVERY", "FILE_SUFFIXES"]

#: Partial sums added together per task of the reduction tree.
SPLIT_EVERY = 8
#: File name endings read, and their format (others are an error when named, skipped in a directory).
FILE_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "tsv", ".csv.gz": "csv", ".tsv.gz": "tsv"}
_SEPARATORS = {"csv": ",", "tsv": "\t"}
#: Rows per chunk when a file's labels are read.
_LABEL_ROWS = 1 << 20
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
    """Run `func` in a Dask task: a :class:`ConsensusError` leaves it as a :class:`_Carried`."""

    @functools.wraps(func)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ConsensusError as exc:
            raise _Carried(type(exc), str(exc), dict(exc.__dict__)) from None

    return run  # type: ignore[return-value]


def _dask() -> tuple[Any, Any]:
    try:
        import dask
        import dask.dataframe as dd
    except ImportError as exc:
        raise ImportError(_INSTALL) from exc
    return dask, dd


def _compute(*collections: Any, scheduler: object) -> tuple[Any, ...]:
    """``dask.compute`` (Dask's default scheduler when `scheduler` is None), errors uncarried."""
    dask, _ = _dask()
    try:
        if scheduler is None:
            return dask.compute(*collections)
        return dask.compute(*collections, scheduler=scheduler)
    except _Carried as carried:
        raise carried.error() from None


# ---------------------------------------------------------------------- the frame
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
    ImportError
        Dask is not installed.

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
    columns = [source.system, source.task, source.instance, source.score]
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


def _limits() -> tuple[int, bool]:
    """The in-process readers' limits, as this process (the client) sets them: the most bytes a
    compressed file may decompress to, and whether the user set it (no ratio check then)."""
    return max_input_bytes(), input_limit_given()


def _packed(path: str) -> bool:
    return path.lower().endswith(".gz")


@contextlib.contextmanager
def _opened(path: str, limits: tuple[int, bool]) -> Iterator[io.TextIOWrapper]:
    """A CSV/TSV file (local or fsspec URL) as text; a ``.gz`` one decompressed by the package's
    bounded reader: at most ``limits[0]`` bytes, and no bomb unless ``limits[1]``."""
    import fsspec

    opened = fsspec.open(path, "rb")
    with opened as raw:
        binary: Any = raw
        if _packed(path):
            try:
                size = int(opened.fs.size(opened.path))
            except Exception:  # a filesystem that cannot tell: the ratio is then taken against 1 byte
                size = 1
            binary = bounded_gzip(raw, path, size, limits)
        text = io.TextIOWrapper(binary, encoding="utf-8-sig", newline="")
        try:
            yield text
        finally:
            text.detach()  # the raw file is fsspec's to close
            if binary is not raw:
                binary.close()


@_carry
def _packed_csv(path: str, sep: str, columns: list[str], limits: tuple[int, bool]) -> pd.DataFrame:
    """One compressed CSV/TSV file as one partition: the four columns, cells as text."""
    with _opened(path, limits) as fh:
        frame = pd.read_csv(fh, sep=sep, usecols=columns, dtype=str, keep_default_na=False, na_filter=False)
    return frame[columns].astype(object)


def _format_of(path: str) -> str | None:
    name = path.rsplit("/", 1)[-1].lower()
    return next((fmt for suffix, fmt in FILE_SUFFIXES.items() if name.endswith(suffix)), None)


def source_files(data: object) -> list[tuple[str, str]]:
    """The files an InstanceSource names, in the order their labels are read.

    Parameters
    ----------
    data : str, Path or list of them
        A file, a directory (its files ending in one of :data:`FILE_SUFFIXES`), a glob, a
        list of these, or fsspec URLs.

    Returns
    -------
    list of (str, str)
        ``(path, format)``, format ``"parquet"``, ``"csv"`` or ``"tsv"``: directories and
        globs in sorted order, a list in the given order (as :func:`consensus.read_instances`
        reads them). Local files by path, others by URL.

    Raises
    ------
    LeaderboardError
        A file does not exist or has an unknown ending, nothing matches a glob, a directory
        has no instance file, or the list is empty.
    InvalidOptionError
        An entry is not a path.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> for name in ("b.parquet", "a.csv", "notes.md"):
    ...     _ = open(os.path.join(folder, name), "w").write("")
    >>> [(os.path.basename(p), fmt) for p, fmt in source_files(folder)]
    [('a.csv', 'csv'), ('b.parquet', 'parquet')]
    """
    import fsspec
    from fsspec.implementations.local import LocalFileSystem

    specs = list(data) if isinstance(data, (list, tuple)) else [data]
    if not specs:
        raise LeaderboardError("the list of instance files is empty")
    out = []
    for spec in specs:
        if not isinstance(spec, (str, os.PathLike)):
            raise InvalidOptionError(
                f"InstanceSource data must be a Dask DataFrame, a path, a glob or a list of paths; got {type(spec).__name__}"
            )
        text = os.fspath(spec)
        fs, root = fsspec.core.url_to_fs(text)
        local = isinstance(fs, LocalFileSystem)
        if any(ch in text for ch in "*?["):
            found = sorted(p for p, info in fs.glob(root, detail=True).items() if info.get("type") == "file")
            if not found:
                raise LeaderboardError(f"no file matches {text!r}")
        elif fs.isdir(root):
            found = sorted(
                info["name"] for info in fs.ls(root, detail=True)
                if info.get("type") == "file" and _format_of(info["name"]) is not None
            )
            if not found:
                raise LeaderboardError(f"directory {text!r} has no Parquet or CSV files ({', '.join(FILE_SUFFIXES)})")
        elif fs.isfile(root):
            found = [root]
        else:
            raise LeaderboardError(f"file not found: {text!r}")
        for path in found:
            name = path if local else fs.unstrip_protocol(path)
            fmt = _format_of(path)
            if fmt is None:
                raise LeaderboardError(
                    f"cannot tell the format of {name!r}: name instance files *.parquet, *.pq, *.csv or *.tsv "
                    "(*.csv.gz, *.tsv.gz)"
                )
            out.append((name, fmt))
    return out


def _check_file(path: str, fmt: str, columns: Sequence[str], limits: tuple[int, bool]) -> None:
    """Read the header (CSV, a bounded line) or schema (Parquet) of one file: every column must be there."""
    import fsspec

    names: list[str] | None
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            with fsspec.open(path, "rb") as fh:
                names = list(pq.ParquetFile(fh).schema_arrow.names)
        else:
            with _opened(path, limits) as fh:
                names = next((row for row in csv.reader(bounded_lines(fh, path), delimiter=_SEPARATORS[fmt]) if row),
                             None)
            if names is None:
                raise LeaderboardError(f"file {path!r} is empty")
    except (ConsensusError, ImportError):
        raise
    except Exception as exc:  # pyarrow, fsspec and csv raise their own error types
        raise LeaderboardError(f"cannot read {path!r} as {fmt}: {exc}") from None
    missing = [c for c in columns if c not in names]
    if missing:
        raise LeaderboardError(_missing_columns(f"file {path!r}", missing, names))


def _missing_columns(where: str, missing: Sequence[str], found: Sequence[object]) -> str:
    return (f"{where} has no column(s) {', '.join(repr(c) for c in missing)}; its columns are "
            f"{', '.join(repr(str(c)) for c in list(found)[:10])}; pass system=, task=, instance=, score= to InstanceSource")


# ---------------------------------------------------------------------- pass 1: labels
#: One partition's labels of one column: (labels in order, category positions or None, categories or None).
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


@_carry
def _labels_of(part: pd.DataFrame, system: str, task: str) -> list[tuple[_LabelInfo, _LabelInfo]]:
    return [(_column_labels(part[system], "system"), _column_labels(part[task], "task"))]


@_carry
def _file_labels(path: str, fmt: str, system: str, task: str,
                 limits: tuple[int, bool]) -> list[tuple[_LabelInfo, _LabelInfo]]:
    """The labels of one file, chunk by chunk (the system and task columns only)."""
    import fsspec

    found = []
    if fmt == "parquet":
        import pyarrow.parquet as pq

        with fsspec.open(path, "rb") as fh:
            for batch in pq.ParquetFile(fh).iter_batches(batch_size=_LABEL_ROWS, columns=[system, task]):
                found += _labels_of(batch.to_pandas(), system, task)
        return found
    with _opened(path, limits) as fh:
        for chunk in pd.read_csv(fh, sep=_SEPARATORS[fmt], usecols=[system, task], dtype=str, keep_default_na=False,
                                 na_filter=False, chunksize=_LABEL_ROWS):
            found += _labels_of(chunk, system, task)
    return found


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


# ---------------------------------------------------------------------- pass 2: map and reduce
@dataclass
class _Context:
    """What every task of the second pass needs (shipped once per graph)."""

    systems: tuple[str, ...]
    tasks: tuple[str, ...]
    columns: tuple[str, str, str, str]
    per_task: bool
    negate: np.ndarray  # per task: lower is better
    weights: np.ndarray  # raw task weights
    system_index: dict[str, int] = field(init=False)
    task_index: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        self.system_index = {s: i for i, s in enumerate(self.systems)}
        self.task_index = {t: i for i, t in enumerate(self.tasks)}

    def empty_sums(self) -> PartialSums:
        return PartialSums(
            len(self.systems), len(self.tasks), per_task=self.per_task, split_tasks=True, task_split_across_parts=True
        )


def _global_codes(column: pd.Series, kind: str, index: dict[str, int]) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Global codes of a label column, with its partition-local codes and labels."""
    codes, labels = label_codes(column, kind)
    unknown = [label for label in labels if label not in index]
    if unknown:
        raise LeaderboardError(
            f"{kind} {unknown[0]!r} was not there on the first pass over the data; did the files change while being read?"
        )
    lookup = np.array([index[label] for label in labels], dtype=np.int64)
    return (lookup[codes] if len(labels) else np.zeros(0, dtype=np.int64)), codes, labels


def _coded_meta(instance_dtype: object) -> pd.DataFrame:
    dtypes = {"system_code": np.int64, "task_code": np.int64, "instance": instance_dtype, "score": np.float64}
    return pd.DataFrame({name: pd.Series([], dtype=dtype) for name, dtype in dtypes.items()})


@_carry
def _encode(part: pd.DataFrame, ctx: _Context) -> pd.DataFrame:
    """Integer codes for the labels and float scores (parsed as ``from_long`` parses them)."""
    system, task, instance, score = ctx.columns
    if len(part) == 0:
        return _coded_meta(part[instance].dtype)
    sys_global, sys_local, sys_labels = _global_codes(part[system], "system", ctx.system_index)
    task_global, task_local, task_labels = _global_codes(part[task], "task", ctx.task_index)
    scores = numeric_scores(part[score], task_local, task_labels, sys_local, sys_labels)
    return pd.DataFrame({
        "system_code": sys_global,
        "task_code": task_global,
        "instance": part[instance].reset_index(drop=True),
        "score": scores,
    })


@_carry
def _partition_sums(part: pd.DataFrame, ctx: _Context) -> tuple[PartialSums, int]:
    """The partial sums of one partition holding whole items, and its number of items."""
    acc = ctx.empty_sums()
    if len(part) == 0:
        return acc, 0
    systems, tasks = ctx.systems, ctx.tasks
    n_sys, n_tasks = len(systems), len(tasks)
    sys_codes = part["system_code"].to_numpy(dtype=np.int64)
    task_codes = part["task_code"].to_numpy(dtype=np.int64)
    inst_codes, inst_uniques = pd.factorize(part["instance"], sort=False, use_na_sentinel=True)
    if (inst_codes < 0).any():
        raise EmptyLabelError("instance", int(np.argmax(inst_codes < 0)), hint="give every instance an id")
    n_inst = max(len(inst_uniques), 1)
    key_codes, key_uniques = pd.factorize(task_codes * n_inst + inst_codes, sort=False)
    task_of_key = key_uniques // n_inst
    order = np.argsort(task_of_key, kind="stable")  # items of a task contiguous
    position = np.empty(len(order), dtype=np.int64)
    position[order] = np.arange(len(order), dtype=np.int64)
    n_cols = len(order)
    col = position[key_codes]
    offsets = np.searchsorted(task_of_key[order], np.arange(n_tasks + 1))
    ids = inst_uniques.take(key_uniques[order] % n_inst)

    cell = sys_codes * n_cols + col
    seen = np.bincount(cell, minlength=n_sys * n_cols)
    if seen.max(initial=0) > 1:
        dup = np.nonzero(seen > 1)[0]
        first_sys = int(dup[0] // n_cols)
        same = dup[dup // n_cols == first_sys] % n_cols
        t = int(np.searchsorted(offsets, same[0], side="right") - 1)
        same = same[(same >= offsets[t]) & (same < offsets[t + 1])]
        raise DuplicateInstanceError(systems[first_sys], tasks[t], ids.take(same).tolist())
    del seen
    values: np.ndarray = np.full(n_sys * n_cols, np.nan)
    values[cell] = part["score"].to_numpy(dtype=np.float64)
    values = values.reshape(n_sys, n_cols)
    _check_block(values, systems, tasks, offsets, ids)
    for t in range(n_tasks):
        a, b = int(offsets[t]), int(offsets[t + 1])
        if a == b:
            continue
        block = -values[:, a:b] if ctx.negate[t] else values[:, a:b]
        acc.add_segment(block, np.full(b - a, ctx.weights[t]), t)
    return acc, n_cols


def _check_block(values: np.ndarray, systems: tuple[str, ...], tasks: tuple[str, ...], offsets: np.ndarray,
                 ids: pd.Index) -> None:
    """No infinite score, and every item scored by some system (``check_instances``; a system may
    have no score in one partition)."""
    per_task = [ids[offsets[t] : offsets[t + 1]] for t in range(len(tasks))]
    check_instances(values, systems, tasks, offsets, per_task, empty_systems=False)


@_carry
def _combine(ctx: _Context, *pieces: tuple[PartialSums, int]) -> tuple[PartialSums, int]:
    """Add partial sums into a fresh one (inputs untouched, so a retried task adds nothing twice)."""
    acc, n_items = ctx.empty_sums(), 0
    for sums, k in pieces:
        acc += sums
        n_items += k
    return acc, n_items


def _shuffle_method(scheduler: object) -> str | None:
    """Dask's choice (p2p with an active Client) unless `scheduler` is a local one: p2p needs workers."""
    if scheduler is None or (hasattr(scheduler, "submit") and hasattr(scheduler, "get")):  # a distributed Client
        return None
    configured = _dask()[0].config.get("dataframe.shuffle.method", None)
    return configured if configured not in (None, "p2p") else "tasks"


def _tree(pieces: list[Any], ctx: Any) -> Any:
    dask, _ = _dask()
    while len(pieces) > 1:
        pieces = [
            dask.delayed(_combine)(ctx, *pieces[i : i + SPLIT_EVERY]) for i in range(0, len(pieces), SPLIT_EVERY)
        ]
    return pieces[0] if pieces else dask.delayed(_combine)(ctx)


# ---------------------------------------------------------------------- entry point
def dask_summed(source: InstanceSource, *, per_task: bool, scheduler: object = None) -> Summed:
    """The pairwise sums of `source`, computed partition by partition on Dask (see the module notes).

    Equal to :func:`~consensus.missing._imputation_sums.summed` of ``InstanceScores.from_long`` of
    the whole table with the same options: same systems and tasks, in the same order, the
    same counts, and the same sums up to the order of floating-point additions.

    Parameters
    ----------
    source : InstanceSource
        The instance-level scores: a Dask DataFrame or files (:func:`source_frame`).
    per_task : bool
        Also sum the per-task row sums and per-task comparison counts (``sigma_2l``).
    scheduler : object, optional
        What ``dask.compute(scheduler=...)`` takes (``"synchronous"``, ``"threads"``,
        ``"processes"``, a ``distributed.Client``); None: Dask's default (the active
        ``Client`` if there is one). The data is read twice: once for the labels (system
        and task columns only), once for the sums.

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
    UnknownTaskError
        `lower_is_better` or `weights` name a task that is not in the data.
    ImportError
        Dask is not installed.

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
    if not isinstance(source, InstanceSource):
        raise InvalidOptionError(f"expected an InstanceSource, got {type(source).__name__}")
    dask, _ = _dask()
    frame, files = _read(source)
    columns = (source.system, source.task, source.instance, source.score)

    if files is None:
        parts = frame[[source.system, source.task]].to_delayed()
        pending = [dask.delayed(_labels_of)(p, source.system, source.task) for p in parts]
    else:  # file by file, in source_files order (not Dask's order of Parquet partitions)
        limits = _limits()
        pending = [dask.delayed(_file_labels)(p, fmt, source.system, source.task, limits) for p, fmt in files]
    found = [info for infos in _compute(*pending, scheduler=scheduler) for info in infos]
    systems = _merge_labels([f[0] for f in found])
    tasks = _merge_labels([f[1] for f in found])
    if not systems:
        raise NoTaskError("the data has no rows")
    if len(systems) < 2:
        raise TooFewSystemsError(len(systems))
    lower = set(check_task_names(list(source.lower_is_better), tasks, "lower_is_better"))
    weights = check_weights(source.weights, tasks).to_numpy(dtype=np.float64)
    check_square_matrices(len(systems), 8, "the imputed pairwise comparison")
    ctx = _Context(systems, tasks, columns, per_task, np.array([t in lower for t in tasks]), weights)

    coded = frame.map_partitions(_encode, ctx, meta=_coded_meta(frame.dtypes[source.instance]))
    if coded.npartitions > 1:  # every score of one item in one partition
        coded = coded.shuffle(on=["task_code", "instance"], ignore_index=True, shuffle_method=_shuffle_method(scheduler))
    shared = dask.delayed(ctx, pure=True)
    total = _tree([dask.delayed(_partition_sums)(p, shared) for p in coded.to_delayed()], shared)
    ((acc, n_items),) = _compute(total, scheduler=scheduler)
    scored = np.diagonal(acc.counts) + acc.full_n  # items scoring each system
    if not scored.all():
        raise EmptySystemError([s for s, k in zip(systems, scored) if k == 0])
    return Summed(systems, tasks, weights, int(n_items), acc.finish())
