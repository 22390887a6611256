"""Opening input files with bounds: gzip decompressed up to a limit (and refused when it expands
like a bomb), text lines read one bounded line at a time, UTF-8 with its byte-order mark dropped.

Every reader of the package opens files here (:func:`open_text`, :func:`open_binary`), so a
1.8 MB ``.csv.gz`` that holds 1.2 GB of rows is refused after reading what the limit allows,
not after filling the machine's memory. The limits are in :mod:`consensus.limits`
(``--max-input-size`` raises the decompressed one).
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import InputTooLargeError, LeaderboardError
from .limits import BOMB_AFTER, BOMB_RATIO, MAX_LINE_CHARS, max_input_bytes

__all__ = ["open_text", "open_binary", "bounded_lines", "GZIP_MAGIC"]

#: The first two bytes of a gzip file.
GZIP_MAGIC = b"\x1f\x8b"


def _head(path: Path, n: int = 2) -> bytes:
    with path.open("rb") as fh:
        return fh.read(n)


def open_text(path: str | Path) -> io.TextIOBase:
    """`path` opened as UTF-8 text (a leading byte-order mark dropped), decompressing ``.gz``.

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


def open_binary(path: str | Path) -> io.BufferedIOBase:
    """`path` opened for reading bytes, decompressing ``.gz``.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    binary file object

    Raises
    ------
    LeaderboardError
        The file is gzip-compressed but not named ``.gz``, or cannot be opened.
    """
    path = Path(path)
    try:
        if _head(path) == GZIP_MAGIC:
            if path.suffix.lower() != ".gz":
                raise LeaderboardError(
                    f"{str(path)!r} is gzip-compressed: name it {path.name}.gz (it is then decompressed) or decompress it"
                )
            return io.BufferedReader(_Capped(gzip.open(path, "rb"), path))
        return path.open("rb")
    except PermissionError:
        raise LeaderboardError(f"cannot read {str(path)!r}: permission denied") from None
    except OSError as exc:
        raise LeaderboardError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from None


class _Capped(io.RawIOBase):
    """A decompressing reader that stops at :func:`~consensus.limits.max_input_bytes` of output,
    and past 4 MiB at a ratio to the compressed size no leaderboard has (a bomb)."""

    def __init__(self, inner: Any, path: Path) -> None:
        self.inner, self.path, self.total = inner, path, 0
        self.limit = max_input_bytes()
        try:
            self.compressed = max(path.stat().st_size, 1)
        except OSError:
            self.compressed = 1

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        try:
            n = self.inner.readinto(buffer)
        except (EOFError, OSError, zlib.error) as exc:  # cut short, or not gzip past its first bytes
            raise LeaderboardError(f"cannot read {str(self.path)!r}: a truncated or damaged gzip file ({exc})") from None
        self.total += n
        if self.total > self.limit:
            raise InputTooLargeError(
                f"{str(self.path)!r} decompresses to more than {self.limit:,} bytes (the input limit); if it really "
                "is a leaderboard that large, raise the limit with --max-input-size (CONSENSUS_MAX_INPUT_BYTES)")
        if self.total > BOMB_AFTER and self.total > BOMB_RATIO * self._consumed():
            raise InputTooLargeError(
                f"{str(self.path)!r} expands more than {BOMB_RATIO} times ({self._consumed():,} compressed bytes gave "
                f"{self.total:,}): no leaderboard compresses so well, it looks like a compression bomb; "
                "decompress it yourself to check it")
        return n

    def _consumed(self) -> int:
        """Compressed bytes read so far (the whole file's size when the position cannot be told)."""
        try:
            return max(int(self.inner.fileobj.tell()), 1)
        except (AttributeError, OSError, ValueError):
            return self.compressed

    def close(self) -> None:
        self.inner.close()
        super().close()


def bounded_lines(fh: Any, path: Path) -> Iterator[str]:
    """The lines of the text file `fh`, each read with a bound: a line longer than
    :data:`~consensus.limits.MAX_LINE_CHARS` is refused before it is held in memory whole.

    Parameters
    ----------
    fh : text file
    path : Path
        For the message.

    Yields
    ------
    str

    Raises
    ------
    InputTooLargeError
        A line is longer than the bound.
    """
    line_no = 0
    while True:
        line = fh.readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        line_no += 1
        if len(line) > MAX_LINE_CHARS:
            raise InputTooLargeError(f"{str(path)!r} line {line_no} is longer than {MAX_LINE_CHARS:,} characters: "
                                     "not a leaderboard row (a field without its end quote, or not a text table?)")
        yield line
