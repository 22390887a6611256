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

__all__ = ["available_memory", "check_square_matrices"]

_GIB = 1024**3
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
