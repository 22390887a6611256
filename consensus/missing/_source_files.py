"""The files an :class:`~consensus.missing.InstanceSource` names, opened within the reading limits.

A directory, a glob, a list of paths or fsspec URLs become a list of ``(path, format)``
(:func:`source_files`); CSV/TSV files are opened as text, ``.gz`` ones decompressed by the
package's bounded reader (:func:`_opened`: the in-process limits, ``CONSENSUS_MAX_INPUT_BYTES``
and the compression-bomb check); a file's columns are checked before it is read
(:func:`_check_file`). Used in-process (:mod:`consensus.missing._item_blocks`) and on Dask
(:mod:`consensus.missing._dask_sums`); nothing here imports Dask.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
from collections.abc import Iterator, Sequence
from pathlib import PurePosixPath
from typing import Any

from ..errors import ConsensusError, InvalidOptionError, LeaderboardError
from ..io._limits import input_limit_given, max_input_bytes
from ..io._opening import bounded_gzip, bounded_lines

__all__ = ["source_files", "FILE_SUFFIXES"]


#: File name endings read, and their format (others are an error when named, skipped in a directory).
FILE_SUFFIXES = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".tsv": "tsv", ".csv.gz": "csv", ".tsv.gz": "tsv"}


_SEPARATORS = {"csv": ",", "tsv": "\t"}


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


def _format_of(path: str) -> str | None:
    name = path.rsplit("/", 1)[-1].lower()
    return next((fmt for suffix, fmt in FILE_SUFFIXES.items() if name.endswith(suffix)), None)


def _instance_like(path: str) -> bool:
    """Whether :func:`consensus.read_instances` would read `path` from a directory (text files,
    optionally compressed another way than gzip)."""
    from ..io._instance_sets import _SUFFIXES

    return path.lower().endswith(_SUFFIXES)


def _path_order(path: str) -> tuple[str, ...]:
    """Sort key of a path as :class:`pathlib.Path` sorts (part by part: ``m/s.csv`` before
    ``m-1/s.csv``), the order :func:`consensus.read_instances` reads a glob in."""
    return PurePosixPath(path.replace(os.sep, "/")).parts


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
        has no instance file or holds some that :func:`consensus.read_instances` reads and an
        InstanceSource does not (``.txt``, ``.bz2``, ``.xz``, ``.zst``, ``.zip``), or the list
        is empty.
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
            found = sorted((p for p, info in fs.glob(root, detail=True).items() if info.get("type") == "file"),
                           key=_path_order)
            if not found:
                raise LeaderboardError(f"no file matches {text!r}")
        elif fs.isdir(root):
            listed = [info["name"] for info in fs.ls(root, detail=True) if info.get("type") == "file"]
            found = sorted(p for p in listed if _format_of(p) is not None)  # one folder: Path order
            unread = sorted(p.rsplit("/", 1)[-1] for p in listed if _format_of(p) is None and _instance_like(p))
            if unread:  # read_instances would read them: never left out silently
                raise LeaderboardError(
                    f"directory {text!r} holds instance files an InstanceSource does not read: "
                    f"{', '.join(map(repr, unread[:3]))}{', ...' if len(unread) > 3 else ''} (it reads "
                    f"{', '.join(FILE_SUFFIXES)}); convert them, list the files to read, or use read_instances"
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


def _check_file(path: str, fmt: str, columns: Sequence[str], limits: tuple[int, bool]) -> int:
    """Read the header (CSV, a bounded line) or schema (Parquet) of one file: every column must be
    there. Returns its rows, for planning (:func:`_file_rows_estimate`; a Parquet file's from the
    footer just read)."""
    import fsspec

    names: list[str] | None
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            local = "://" not in path  # opened directly: fsspec's layer costs more than the footer
            with (open(path, "rb") if local else fsspec.open(path, "rb")) as fh:
                meta = pq.ParquetFile(fh).metadata
                names = list(meta.schema.to_arrow_schema().names)
                rows = int(meta.num_rows)
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
    return rows if fmt == "parquet" else _file_rows_estimate(path, fmt)


def _missing_columns(where: str, missing: Sequence[str], found: Sequence[object]) -> str:
    return (f"{where} has no column(s) {', '.join(repr(c) for c in missing)}; its columns are "
            f"{', '.join(repr(str(c)) for c in list(found)[:10])}; pass system=, task=, instance=, score= to InstanceSource")


def _file_rows_estimate(path: str, fmt: str) -> int:
    """Rows of a file, for planning: a Parquet file's row count, a text file's bytes / 16."""
    import fsspec

    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            with fsspec.open(path, "rb") as fh:
                return int(pq.ParquetFile(fh).metadata.num_rows)
        fs, root = fsspec.core.url_to_fs(path)
        return int(fs.size(root)) // (4 if _packed(path) else 16)
    except Exception:  # errors are raised where the file is read
        return 0
