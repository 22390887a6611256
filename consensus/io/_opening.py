"""Opening input files with bounds: compressed files (gzip, bz2, xz, zstd, a one-file zip)
decompressed up to a limit (and refused when they expand like a bomb), text lines read one bounded
line at a time, UTF-8 with its byte-order mark dropped.

Every reader of the package opens files here (:func:`open_text`, :func:`open_binary`), so a
1.8 MB ``.csv.gz`` that holds 1.2 GB of rows is refused after reading what the limit allows,
not after filling the machine's memory. The limits are in :mod:`consensus.io._limits`:
``--max-input-size`` (``CONSENSUS_MAX_INPUT_BYTES``) raises the decompressed one and, set by
hand, replaces the ratio check and raises the line bound (:func:`~consensus.io._limits.input_limit_given`),
so that a real file which compresses very well can still be read.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import InputTooLargeError, LeaderboardError
from ._limits import (
    BOMB_AFTER,
    BOMB_RATIO,
    input_limit_given,
    max_input_bytes,
    max_line_chars,
)

__all__ = ["open_text", "open_binary", "bounded_gzip", "bounded_lines", "GZIP_MAGIC", "COMPRESSIONS", "compression_suffix"]

#: The first two bytes of a gzip file.
GZIP_MAGIC = b"\x1f\x8b"

#: Compression -> (its file's first bytes, the suffixes naming it). A file starting with one of
#: these is decompressed when its name ends so, and refused (with the name to give it) otherwise.
COMPRESSIONS = {
    "gzip": (GZIP_MAGIC, (".gz",)),
    "bz2": (b"BZh", (".bz2",)),  # then a level digit and a block or end-of-stream magic (_is_bz2)
    "xz": (b"\xfd7zXZ\x00", (".xz",)),
    "zstd": (b"\x28\xb5\x2f\xfd", (".zst", ".zstd")),
    "zip": (b"PK\x03\x04", (".zip",)),
}


def compression_suffix(name: str) -> str:
    """The compression suffix `name` ends with (lower case), or ``""``.

    Parameters
    ----------
    name : str
        A file name or path.

    Returns
    -------
    str

    Examples
    --------
    >>> compression_suffix("lb.csv.GZ"), compression_suffix("lb.csv.zst"), compression_suffix("lb.csv")
    ('.gz', '.zst', '')
    """
    lower = str(name).lower()
    return next((s for _, suffixes in COMPRESSIONS.values() for s in suffixes if lower.endswith(s)), "")


def _is_bz2(head: bytes) -> bool:
    """bz2's first bytes are text ("BZh"): a CSV may start so; the level digit and the first
    block's (or an empty stream's) magic tell them apart."""
    return len(head) >= 10 and head[3:4] in b"123456789" and head[4:10] in (b"1AY&SY", b"\x17rE8P\x90")


def _kind(head: bytes) -> str | None:
    """The compression `head` (a file's first bytes) starts with, or None."""
    for kind, (magic, _) in COMPRESSIONS.items():
        if head.startswith(magic) and (kind != "bz2" or _is_bz2(head)):
            return kind
    return None


def _head(path: Path, n: int = 10) -> bytes:
    with path.open("rb") as fh:
        return fh.read(n)


#: Errors of a damaged or truncated stream, by compression (zstd's, once its module is loaded).
_DAMAGED: dict[str, type[BaseException]] = {}


def _open_zstd(path: Path) -> Any:
    try:
        from compression import zstd  # Python 3.14's standard library
    except ImportError:
        try:
            import zstandard
        except ImportError:
            raise LeaderboardError(f"{str(path)!r} is zstd-compressed: install zstandard (pip install zstandard) "
                                   "or decompress it (zstd -d)") from None
        _DAMAGED.setdefault("zstd", zstandard.ZstdError)
        return _ZstandardReader(zstandard, path)
    _DAMAGED.setdefault("zstd", zstd.ZstdError)
    return zstd.open(path, "rb")


class _ZstandardReader(io.RawIOBase):
    """zstandard's frames decoded 128 bytes of input at a time (each step's output stays below
    about 4 MiB, so :class:`_Capped` sees a bomb early), and a frame cut short is an error (its
    stream reader would end quietly)."""

    _STEP = 128  # zstd expands at most about 32,000 times: 4 MiB per step at worst

    def __init__(self, zstandard: Any, path: Path) -> None:
        self.module, self.raw = zstandard, path.open("rb")
        self.decoder, self.carry = zstandard.ZstdDecompressor().decompressobj(), b""
        self.pending, self.at = b"", 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while self.at == len(self.pending):
            data, self.carry = self.carry or self.raw.read(self._STEP), b""
            if not data:
                if not self.decoder.eof:
                    raise EOFError("the last zstd frame is cut short")
                return 0
            if self.decoder.eof:  # a further frame
                self.decoder = self.module.ZstdDecompressor().decompressobj()
            self.pending, self.at = self.decoder.decompress(data), 0
            if self.decoder.eof:
                self.carry = self.decoder.unused_data
        n = min(len(buffer), len(self.pending) - self.at)
        buffer[:n] = memoryview(self.pending)[self.at : self.at + n]
        self.at += n
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


def _open_zip(path: Path) -> tuple[Any, int]:
    """The one file of a zip archive, and its compressed size."""
    archive = zipfile.ZipFile(path)
    members = [m for m in archive.infolist() if not m.is_dir()]
    if len(members) != 1:
        archive.close()
        names = ", ".join(repr(m.filename) for m in members[:5]) or "none"
        raise LeaderboardError(f"{str(path)!r} is a zip archive of {len(members)} files ({names}): "
                               "a zip input must hold exactly one file; extract the one to read")
    try:
        member = archive.open(members[0])
    except (RuntimeError, NotImplementedError, zipfile.BadZipFile) as exc:
        # encrypted, a method zipfile lacks (Deflate64), or what zipfile itself sees as damaged or a bomb
        raise LeaderboardError(f"cannot read {str(path)!r}: {exc}; extract it with another tool") from None
    finally:
        archive.close()  # the open member keeps its own reference to the file until it is closed
    # the archive's own record of the compressed size can lie (a bomb that hides): never above the file's size
    return member, max(min(members[0].compress_size, path.stat().st_size), 1)


_OPENERS = {"gzip": lambda p: gzip.open(p, "rb"), "bz2": lambda p: bz2.open(p, "rb"),
            "xz": lambda p: lzma.open(p, "rb"), "zstd": _open_zstd}


def open_text(path: str | Path) -> io.TextIOWrapper:
    """`path` opened as UTF-8 text (a leading byte-order mark dropped), decompressed as
    :func:`open_binary` does.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    text file object
        Opened with ``newline=""`` as :mod:`csv` wants it.

    Raises
    ------
    LeaderboardError
        The file is gzip-compressed but not named ``.gz``, or cannot be opened (no
        permission).

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "lb.csv")
    >>> _ = open(path, "w").write("model,qa\\n")
    >>> with open_text(path) as fh:
    ...     fh.readline()
    'model,qa\\n'
    """
    return io.TextIOWrapper(open_binary(path), encoding="utf-8-sig", newline="")


def open_binary(path: str | Path) -> io.BufferedReader:
    """`path` opened for reading bytes, decompressing ``.gz``, ``.bz2``, ``.xz``, ``.zst`` and a
    one-file ``.zip`` (each bounded: :func:`~consensus.io._limits.max_input_bytes` and a ratio check).

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    binary file object

    Raises
    ------
    LeaderboardError
        The file is compressed but not named so (``.gz`` for gzip...), a zip archive holds
        more or fewer than one file, or the file cannot be opened.
    """
    path = Path(path)
    try:
        kind = _kind(_head(path))
        if kind is None:
            return path.open("rb")
        suffixes = COMPRESSIONS[kind][1]
        if compression_suffix(path.name) not in suffixes:
            stem = path.name[: len(path.name) - len(compression_suffix(path.name))]
            raise LeaderboardError(f"{str(path)!r} is {kind}-compressed: name it {stem}{suffixes[0]} "
                                   "(it is then decompressed) or decompress it")
        if kind == "zip":
            inner, compressed = _open_zip(path)
            return io.BufferedReader(_Capped(inner, path, kind, compressed))
        return io.BufferedReader(_Capped(_OPENERS[kind](path), path, kind))
    except PermissionError:
        raise LeaderboardError(f"cannot read {str(path)!r}: permission denied") from None
    except zipfile.BadZipFile as exc:
        raise LeaderboardError(f"cannot read {str(path)!r}: a damaged zip archive ({exc})") from None
    except OSError as exc:
        raise LeaderboardError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None


def bounded_gzip(raw: Any, name: str, size: int, limits: tuple[int, bool]) -> io.BufferedReader:
    """The gzip stream of the open binary file `raw` (``size`` compressed bytes), decompressed with
    the bounds of :func:`open_binary`, for files the package does not open itself (fsspec URLs
    read by Dask workers, which do not see the client's environment).

    Parameters
    ----------
    raw : binary file
    name : str
        The file's path or URL, for messages.
    size : int
        Its compressed size (the ratio check's base; 1 when unknown).
    limits : (int, bool)
        :func:`~consensus.io._limits.max_input_bytes` and
        :func:`~consensus.io._limits.input_limit_given` as the client has them.

    Returns
    -------
    binary file object
        Raising :class:`~consensus.errors.InputTooLargeError` past the limit or at a bomb's ratio.
    """
    return io.BufferedReader(_Capped(gzip.GzipFile(fileobj=raw), name, "gzip", max(size, 1), limits))


class _Capped(io.RawIOBase):
    """A decompressing reader that stops at :func:`~consensus.io._limits.max_input_bytes` of output,
    and past 4 MiB at a ratio to the compressed size no leaderboard has (a bomb), unless the user
    set the limit (:func:`~consensus.io._limits.input_limit_given`). `limits` (the limit, whether
    it was given) is taken from the environment when None: a Dask worker is given the client's."""

    def __init__(self, inner: Any, path: Path | str, kind: str = "gzip", compressed: int | None = None,
                 limits: tuple[int, bool] | None = None) -> None:
        self.inner, self.path, self.kind, self.total = inner, path, kind, 0
        self.limit, self.given = limits if limits is not None else (max_input_bytes(), input_limit_given())
        if compressed is None:
            try:
                compressed = max(Path(path).stat().st_size, 1)
            except OSError:
                compressed = 1
        self.compressed = compressed

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            if hasattr(self.inner, "readinto"):
                n = self.inner.readinto(buffer)
            else:  # zstandard's reader
                chunk = self.inner.read(len(buffer))
                n = len(chunk)
                buffer[:n] = chunk
        except (EOFError, OSError, ValueError, zlib.error, lzma.LZMAError, zipfile.BadZipFile,
                _DAMAGED.get(self.kind, EOFError)) as exc:
            # cut short, or not compressed data past its first bytes
            raise LeaderboardError(
                f"cannot read {str(self.path)!r}: a truncated or damaged {self.kind} file ({exc})") from None
        self.total += n
        if self.total > self.limit:
            raise InputTooLargeError(
                f"{str(self.path)!r} decompresses to more than {self.limit:,} bytes (the input limit); if it really "
                "is a leaderboard that large, raise the limit with --max-input-size (CONSENSUS_MAX_INPUT_BYTES)")
        if not self.given and self.total > BOMB_AFTER and self.total > BOMB_RATIO * self._consumed():
            raise InputTooLargeError(
                f"{str(self.path)!r} expands more than {BOMB_RATIO} times ({self._consumed():,} compressed bytes gave "
                f"{self.total:,}): it looks like a compression bomb; if you trust the file, set --max-input-size "
                "(CONSENSUS_MAX_INPUT_BYTES) to the most it may decompress to, which replaces this check")
        return n

    def _consumed(self) -> int:
        """Compressed bytes read so far (the whole file's size when the position cannot be told)."""
        try:
            if self.kind != "gzip":
                return self.compressed
            return max(int(self.inner.fileobj.tell()), 1)
        except (AttributeError, OSError, ValueError):
            return self.compressed

    def close(self) -> None:
        self.inner.close()
        super().close()


def bounded_lines(fh: Any, path: Path | str) -> Iterator[Any]:
    """The lines of the file `fh` (str, or bytes from a binary file), each read with a bound: a line longer than
    :func:`~consensus.io._limits.max_line_chars` (64 Mi characters unless ``--max-input-size``
    is set larger) is refused before it is held in memory whole.

    Parameters
    ----------
    fh : text or binary file
    path : Path or str
        For the message.

    Yields
    ------
    str or bytes

    Raises
    ------
    InputTooLargeError
        A line is longer than the bound.
    """
    line_no, bound = 0, max_line_chars()
    while True:
        line = fh.readline(bound + 1)
        if not line:
            return
        line_no += 1
        if len(line) > bound:
            raise InputTooLargeError(f"{str(path)!r} line {line_no} is longer than {bound:,} characters: not a "
                                     "leaderboard row (a field without its end quote?); if it is one, raise the "
                                     "bound with --max-input-size (CONSENSUS_MAX_INPUT_BYTES)")
        yield line
