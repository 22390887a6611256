"""What fits in memory: checked before a large allocation, so that a too-large input is refused
with its size and what would fit, not answered by an allocation failure deep inside numpy.

The pairwise comparison of ``n`` systems holds a few ``n x n`` float matrices (wins, ties,
counts, the exact margins, and temporaries of the same size while they are built), and the full
analysis several such comparisons and tables: :func:`check_square_matrices` compares what a
stage holds at its peak (:data:`MATRICES`, measured) with the memory available now, the tightest
of the machine's, a container's and ``ulimit -v``'s (:func:`memory_limits`). Resamples and
repetitions are bounded the same way (:func:`check_memory`).
"""

from __future__ import annotations

import math
import os

from ..errors import InputTooLargeError

__all__ = ["available_memory", "memory_limits", "check_memory", "check_repetitions", "check_square_matrices", "MATRICES", "max_input_bytes", "MAX_INPUT_VAR", "MAX_MEMORY_VAR", "MAX_LINE_CHARS",
           "BOMB_RATIO", "parse_size", "max_table_cells", "input_limit_given", "max_line_chars"]

_GIB = 1024**3

#: Environment variable holding the most bytes a compressed input may decompress to (``--max-input-size``).
MAX_INPUT_VAR = "CONSENSUS_MAX_INPUT_BYTES"
#: Environment variable holding the most memory the process may hold (``--max-memory``): one
#: setting for the memory checks and any streaming budget.
MAX_MEMORY_VAR = "CONSENSUS_MAX_MEMORY"
#: Default of :func:`max_input_bytes`: generous for any leaderboard, far below what a bomb expands to.
DEFAULT_MAX_INPUT = 2 * 1024**3
#: The longest line of a text input (characters) by default: a 64 MiB line is no leaderboard row
#: (an explicit ``--max-input-size`` raises it: :func:`max_line_chars`).
MAX_LINE_CHARS = 64 * 1024**2
#: Past 4 MiB of output, a compressed input expanding more than this many times is refused as a bomb
#: (leaderboards compress 3-10 times, instance-level files of 0/1 scores up to about 50), unless
#: the user set the input limit (:func:`input_limit_given`).
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


def input_limit_given() -> bool:
    """Whether the user set the input limit (``--max-input-size``, ``CONSENSUS_MAX_INPUT_BYTES``).

    A limit set by hand says how large this input may be: it replaces the compression-ratio check
    (a real file that compresses more than :data:`BOMB_RATIO` times, e.g. instance-level scores
    of one repeated value, is then read up to the limit) and raises the line bound to the limit
    (:func:`max_line_chars`). The limit itself still applies.

    Returns
    -------
    bool

    Examples
    --------
    >>> import os
    >>> input_limit_given() == bool(os.environ.get(MAX_INPUT_VAR))
    True
    """
    text = os.environ.get(MAX_INPUT_VAR)
    if not text:
        return False
    try:
        parse_size(text)
    except ValueError:
        return False
    return True


def max_line_chars() -> int:
    """The longest line of a text input, in characters: :data:`MAX_LINE_CHARS` (64 Mi), or the
    input limit when the user set one larger (:func:`input_limit_given`).

    Returns
    -------
    int

    Examples
    --------
    >>> max_line_chars() >= MAX_LINE_CHARS
    True
    """
    return max(MAX_LINE_CHARS, max_input_bytes()) if input_limit_given() else MAX_LINE_CHARS


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
_ALWAYS_FITS = 64 * 1024**2  # bytes below which no check is made

#: Float64 ``n x n`` matrices alive at the peak of each stage, beyond what the process held when
#: it began (measured by ``benchmarks/limits.py``, which prints this estimate against the peak
#: resident memory of the command at six board sizes).
MATRICES = {
    "pairwise": 10,  # wins, ties, counts, the exact margins, and the temporaries that build them
    "analysis": 68,  # two pairwise comparisons (the board's and Pareto's), every rule's and report's tables
}


def _status_bytes(field: str) -> int | None:
    """A ``kB`` field of ``/proc/self/status`` (``VmRSS``, ``VmSize``) in bytes, None off Linux."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    return None


def _stat_field(path: str, field: str) -> int:
    """A field of a cgroup's ``memory.stat`` (0 when absent)."""
    try:
        with open(path, encoding="ascii") as fh:
            for line in fh:
                name, _, value = line.partition(" ")
                if name == field and value.strip().isdigit():
                    return int(value)
    except OSError:
        pass
    return 0


def _read_int(path: str) -> int | None:
    try:
        with open(path, encoding="ascii") as fh:
            text = fh.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def memory_limits() -> dict[str, int]:
    """What bounds this process's memory now, in bytes free under each bound.

    ``"available"``: the machine's ``MemAvailable`` (elsewhere its free pages); ``"cgroup"``: the
    container's memory limit less its usage (cgroup v2 or v1); ``"ulimit -v"``: the address-space
    limit (``RLIMIT_AS``) less the address space in use; ``"--max-memory"``: the user's setting
    (``CONSENSUS_MAX_MEMORY``) less the process's resident memory. Bounds not set are absent.

    Returns
    -------
    dict

    Examples
    --------
    >>> limits = memory_limits()
    >>> all(value >= 0 for value in limits.values())
    True
    """
    found: dict[str, int] = {}
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    found["available"] = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError):
        try:
            found["available"] = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, AttributeError):
            pass
    for folder, limit_name, usage_name, cache in (
        ("/sys/fs/cgroup/", "memory.max", "memory.current", "inactive_file"),
        ("/sys/fs/cgroup/memory/", "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"),
    ):
        limit = _read_int(folder + limit_name)
        if limit is not None and limit < 1 << 60:
            used = (_read_int(folder + usage_name) or 0) - _stat_field(folder + "memory.stat", cache)
            found["cgroup"] = max(0, limit - max(used, 0))  # page cache the kernel can reclaim is not used
            break
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_AS)[0]
        if soft != resource.RLIM_INFINITY:
            found["ulimit -v"] = max(0, soft - (_status_bytes("VmSize") or 0))
    except (ImportError, OSError, ValueError):
        pass
    setting = os.environ.get(MAX_MEMORY_VAR)
    if setting:
        try:
            found["--max-memory"] = max(0, parse_size(setting) - (_status_bytes("VmRSS") or 0))
        except ValueError:
            pass
    return found


def available_memory() -> int | None:
    """Bytes of memory available to a new allocation now, or None when it cannot be told: the
    tightest of :func:`memory_limits`.

    Returns
    -------
    int or None

    Examples
    --------
    >>> available = available_memory()
    >>> available is None or available >= 0
    True
    """
    return _tightest()[0]


#: How a refusal names each bound of :func:`memory_limits`.
BOUND_NAMES = {"available": "", "cgroup": " under the container's memory limit",
               "ulimit -v": " under the address-space limit (ulimit -v)",
               "--max-memory": " under --max-memory (CONSENSUS_MAX_MEMORY)"}


def _tightest() -> tuple[int | None, str]:
    """The tightest bound of :func:`memory_limits` and its name for messages (``""`` for the machine's)."""
    limits = memory_limits()
    if not limits:
        return None, ""
    name = min(limits, key=limits.__getitem__)
    return limits[name], BOUND_NAMES[name]


def check_memory(needed: int, what: str, remedy: str, *, available: int | None = None) -> None:
    """Refuse a computation that needs `needed` more bytes than are available.

    Parameters
    ----------
    needed : int
        Bytes the computation will hold at its peak, beyond what the process holds now.
    what : str
        What needs them, for the message (``"the pairwise comparison of 5000 systems"``).
    remedy : str
        What would fit, or what to change, for the message.
    available : int, optional
        Bytes available; default :func:`available_memory` (no check when unknown).

    Raises
    ------
    InputTooLargeError
        Naming what, the memory needed and available, the bound that is tightest and the remedy.

    Examples
    --------
    >>> check_memory(10**9, "the resamples", "fewer resamples", available=2 * 1024**3)
    >>> check_memory(10**10, "1000000 resamples", "at most 200000 fit", available=2 * 1024**3)
    Traceback (most recent call last):
    ...
    consensus.errors.InputTooLargeError: 1000000 resamples would hold about 9.3 GiB but about 2.0 GiB is available: at most 200000 fit
    """
    where = ""
    if available is None:
        if needed <= _ALWAYS_FITS and not os.environ.get(MAX_MEMORY_VAR):  # not worth reading /proc for: every machine has it
            return
        available, where = _tightest()
    if available is None or needed <= available:
        return
    raise InputTooLargeError(
        f"{what} would hold about {needed / _GIB:.1f} GiB but about {available / _GIB:.1f} GiB is available{where}: "
        f"{remedy}"
    )


def check_repetitions(count: int, bytes_each: int, option: str, *, available: int | None = None) -> None:
    """Refuse `count` resamples or repetitions whose kept results cannot fit in memory.

    Parameters
    ----------
    count : int
        Resamples or repetitions asked for.
    bytes_each : int
        What one keeps until the end (its positions, seed and bookkeeping; about 1 KiB plus 16
        bytes per rule and system, measured).
    option : str
        The option's name (``"resamples"``, ``"repetitions"``): the API's and the flag's.
    available : int, optional
        Bytes available; default :func:`available_memory`.

    Raises
    ------
    InputTooLargeError
        Naming the count, the memory it would hold, and how many fit.

    Examples
    --------
    >>> check_repetitions(10**9, 2048, "resamples", available=8 * 1024**3)
    Traceback (most recent call last):
    ...
    consensus.errors.InputTooLargeError: 1000000000 resamples would hold about 1907.3 GiB but about 8.0 GiB is available: at most about 4194304 resamples fit (--resamples)
    """
    fits = (available if available is not None else available_memory() or 0) // max(bytes_each, 1)
    check_memory(count * bytes_each, f"{count} {option}", f"at most about {fits} {option} fit (--{option})",
                 available=available)


def check_square_matrices(n: int, count: int | str, what: str, *, available: int | None = None) -> None:
    """Refuse `count` float64 matrices of `n` x `n` when they cannot fit in memory.

    Parameters
    ----------
    n : int
        Matrix side (number of systems).
    count : int or str
        How many such matrices are alive at once, or a stage of :data:`MATRICES`.
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
    >>> check_square_matrices(1000, "pairwise", "the pairwise comparison", available=8 * 1024**3)
    >>> check_square_matrices(100_000, "pairwise", "the pairwise comparison", available=8 * 1024**3)
    Traceback (most recent call last):
    ...
    consensus.errors.InputTooLargeError: the pairwise comparison of 100000 systems needs about 745.1 GiB (10 matrices of 100000 x 100000 numbers) but about 8.0 GiB is available: at most about 10362 systems fit
    """
    count = MATRICES[count] if isinstance(count, str) else int(count)
    needed = count * 8 * n * n
    where = ""
    if available is None:
        if needed <= _ALWAYS_FITS and not os.environ.get(MAX_MEMORY_VAR):
            return
        available, where = _tightest()
    if available is None or needed <= available:
        return
    fits = int(math.isqrt(max(available, 0) // (count * 8)))
    raise InputTooLargeError(
        f"{what} of {n} systems needs about {needed / _GIB:.1f} GiB ({count} matrices of {n} x {n} numbers) but "
        f"about {available / _GIB:.1f} GiB is available{where}: at most about {fits} systems fit"
    )
