"""What fits in memory: checked before a large allocation, so that a too-large input is refused
with its size and what would fit, not answered by an allocation failure deep inside numpy.

The pairwise comparison of ``n`` systems holds a few ``n x n`` float matrices (wins, ties,
counts, and temporaries of the same size while they are built):
:func:`check_square_matrices` compares that with the memory available now.
"""

from __future__ import annotations

import math
import os

from .errors import InputTooLargeError

__all__ = ["available_memory", "check_square_matrices", "max_input_bytes", "MAX_INPUT_VAR", "MAX_LINE_CHARS",
           "BOMB_RATIO", "parse_size", "max_table_cells"]

_GIB = 1024**3

#: Environment variable holding the most bytes a compressed input may decompress to (``--max-input-size``).
MAX_INPUT_VAR = "CONSENSUS_MAX_INPUT_BYTES"
#: Default of :func:`max_input_bytes`: generous for any leaderboard, far below what a bomb expands to.
DEFAULT_MAX_INPUT = 2 * 1024**3
#: The longest line of a text input (characters): a 64 MiB line is no leaderboard row.
MAX_LINE_CHARS = 64 * 1024**2
#: Past 4 MiB of output, a compressed input expanding more than this many times is refused as a bomb
#: (leaderboards compress 3-10 times, instance-level files of 0/1 scores up to about 50).
BOMB_RATIO = 100
BOMB_AFTER = 4 * 1024**2


def parse_size(text: str) -> int:
    """A size such as ``4G``, ``500M``, ``1048576`` in bytes (K, M, G, T are powers of 1024).

    Parameters
    ----------
    text : str

    Returns
    -------
    int

    Raises
    ------
    ValueError
        Not a positive size.

    Examples
    --------
    >>> parse_size("4G"), parse_size("512k"), parse_size("1000")
    (4294967296, 524288, 1000)
    """
    raw = str(text).strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}.get(raw[-1:], 1)
    number = float(raw[:-1] if scale > 1 else raw)
    if not math.isfinite(number) or number <= 0:
        raise ValueError(f"not a positive size: {text!r}")
    return int(number * scale)


def max_table_cells() -> int:
    """The most cells a score table is read with (each costs about 100 bytes once parsed): one
    per 200 bytes of :func:`max_input_bytes` (10.7 million at the default 2 GiB).

    Returns
    -------
    int

    Examples
    --------
    >>> max_table_cells() == max_input_bytes() // 200
    True
    """
    return max_input_bytes() // 200


def max_input_bytes() -> int:
    """The most bytes a compressed input may decompress to: ``CONSENSUS_MAX_INPUT_BYTES`` (set by
    the command line's ``--max-input-size``), else 2 GiB.

    Returns
    -------
    int

    Examples
    --------
    >>> max_input_bytes() >= 1
    True
    """
    text = os.environ.get(MAX_INPUT_VAR)
    if text:
        try:
            return parse_size(text)
        except ValueError:
            pass
    return DEFAULT_MAX_INPUT
_ALWAYS_FITS = 64 * 1024**2  # bytes below which no check is made (about 1,300 systems x 5 matrices)


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now, or None when it cannot be told.

    Linux: ``MemAvailable`` of ``/proc/meminfo`` (also bounded by a cgroup memory limit);
    elsewhere the free physical pages (``os.sysconf``).

    Returns
    -------
    int or None

    Examples
    --------
    >>> available = available_memory()
    >>> available is None or available > 0
    True
    """
    found = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    found = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError):
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, AttributeError):
            found = None
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(limit_file, encoding="ascii") as fh:
                text = fh.read().strip()
            if text.isdigit() and int(text) < 1 << 60:
                found = int(text) if found is None else min(found, int(text))
            break
        except OSError:
            continue
    return found


def check_square_matrices(n: int, count: int, what: str, *, available: int | None = None) -> None:
    """Refuse `count` float64 matrices of `n` x `n` when they cannot fit in memory.

    Parameters
    ----------
    n : int
        Matrix side (number of systems).
    count : int
        How many such matrices are alive at once.
    what : str
        What they are for, for the message (``"the pairwise comparison"``).
    available : int, optional
        Bytes available; default :func:`available_memory` (no check when unknown).

    Raises
    ------
    InputTooLargeError
        Naming `n`, the memory needed and available, and the largest `n` that fits.

    Examples
    --------
    >>> check_square_matrices(1000, 4, "the pairwise comparison", available=8 * 1024**3)
    >>> check_square_matrices(100_000, 4, "the pairwise comparison", available=8 * 1024**3)
    Traceback (most recent call last):
    ...
    consensus.errors.InputTooLargeError: the pairwise comparison of 100000 systems needs about 298.0 GiB (4 matrices of 100000 x 100000 numbers) but about 8.0 GiB is available: at most about 16384 systems fit
    """
    needed = count * 8 * n * n
    if available is None:
        if needed <= _ALWAYS_FITS:  # not worth reading /proc for: every machine has it
            return
        available = available_memory()
    if available is None or needed <= available:
        return
    fits = int(math.isqrt(max(available, 0) // (count * 8)))
    raise InputTooLargeError(
        f"{what} of {n} systems needs about {needed / _GIB:.1f} GiB ({count} matrices of {n} x {n} numbers) but "
        f"about {available / _GIB:.1f} GiB is available: at most about {fits} systems fit"
    )
