"""Command-line output: checked and atomically written ``--output``/``--plot``, stdout kept for
the result while a solver log is shown, and the progress line."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..hints import visible
from .args import PROG, UsageError, is_leaderboard

#: Figure formats ``--plot`` accepts (what matplotlib's Agg, PDF, PS and SVG back-ends write).
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")


#: ``--output`` names that mean standard output.
STDOUT_NAMES = frozenset({"-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def _same_file(a: Path, b: Path) -> bool:
    """Whether `a` and `b` are one file: by device and inode when both exist (hard links,
    ``./a`` and ``a``, symlinked folders), else by their resolved paths."""
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def _files_of(option: str, path: Path, text: str) -> list[tuple[str, Path]]:
    """The files an input option reads: the file, every file below a folder, or each match of a glob."""
    import glob

    if path.is_dir():
        return [(f"{option} (file {str(p)!r} of the folder)", p) for p in sorted(path.rglob("*")) if p.is_file()]
    if not path.exists() and any(c in text for c in "*?["):
        return [(f"{option} (file {m!r} of the glob)", Path(m)) for m in sorted(glob.glob(text, recursive=True))
                if Path(m).is_file()]
    return [(option, path)]


def input_paths(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The files a command reads: FILE (each file of a folder or glob), ``--weights``/``--groups`` files.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options.

    Returns
    -------
    list of (str, Path)
        What reads it (``"FILE"``, ``"FILE (file 'x' of the folder)"``, ``"--weights"``, ...)
        and its path.
    """
    found = []
    if getattr(args, "file", None):
        found += _files_of("FILE", Path(args.file), str(args.file))
    for option in ("weights", "groups"):
        spec = getattr(args, option, None)
        if spec and Path(spec).is_file():
            found.append((f"--{option}", Path(spec)))
    return found


def _target(path: Path) -> Path:
    """The file an output replaces: a symlink's target (the link is kept), else `path`."""
    return path.resolve() if path.is_symlink() else path


def _kind(path: Path) -> str:
    """``"stdout"``, ``"missing"``, ``"file"`` (a regular file, also behind symlinks), ``"directory"``,
    ``"stream"`` (a character device or a FIFO: written through) or ``"other"`` (a socket, ...)."""
    import stat

    if str(path) in STDOUT_NAMES:
        return "stdout"
    try:
        mode = path.stat().st_mode  # follows symlinks
    except FileNotFoundError:
        return "missing"
    except OSError:
        return "other"
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "directory"
    return "stream" if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode) else "other"


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse ``--output``/``--plot`` before anything is read, computed or written.

    An output path may not be an input (FILE or any file of its folder or glob, a
    ``--weights`` or ``--groups`` file; compared as files, so hard links and symlinks count)
    nor the other output, nor a directory or a socket; a new file's folder must exist;
    ``--plot`` needs a figure extension (:data:`PLOT_FORMATS`) and matplotlib. ``-`` and
    ``/dev/stdout`` as ``--output`` mean standard output; a character device or a FIFO is
    written through, never replaced.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``output``, ``plot``; absent attributes count as not given).

    Raises
    ------
    UsageError
        Naming the option and the path.
    """
    outputs = [(f"--{name}", Path(value)) for name in ("output", "plot") if (value := getattr(args, name, None))]
    inputs = input_paths(args) if outputs else []
    for option, path in outputs:
        kind = _kind(path)
        if kind == "stdout" and option == "--plot":
            raise UsageError("--plot writes a figure file: give a file name, not standard output")
        if kind in ("stdout", "stream"):
            continue
        for what, source in inputs:
            if _same_file(path, source):
                raise UsageError(f"{option} {str(path)!r} is the input {what}: it would be overwritten; choose another path")
        if kind == "directory":
            raise UsageError(f"{option} {str(path)!r} is a directory; give a file name")
        if kind == "other":
            raise UsageError(f"{option} {str(path)!r} is not a file, a device or a FIFO (a socket?): cannot write it")
        target = _target(path)
        parent = target.parent if str(target.parent) else Path(".")
        if not parent.is_dir():
            raise UsageError(f"cannot write {option} {str(path)!r}: folder {str(parent)!r} does not exist")
    if len(outputs) == 2 and _kind(outputs[0][1]) != "stdout" and _same_file(outputs[0][1], outputs[1][1]):
        raise UsageError(f"--output and --plot are the same file {str(outputs[0][1])!r}; give two paths")
    plot = getattr(args, "plot", None)
    if plot:
        suffix = Path(plot).suffix.lower().lstrip(".")
        if suffix not in PLOT_FORMATS:
            raise UsageError(
                f"--plot {plot!r}: unknown figure format {suffix or '(no extension)'!r}; end the name with "
                + ", ".join(f".{f}" for f in PLOT_FORMATS)
            )
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError("--plot needs matplotlib: pip install 'leaderboard-consensus[plot]'") from None


def _temporary(path: Path, write: Callable[[Path], object], option: str) -> Path:
    """`write` into a new temporary file beside `path` (the symlink's target for a symlink), with the
    permissions the final file will have; removed again if writing fails."""
    import os
    import tempfile

    target = _target(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=target.suffix,
                               dir=target.parent if str(target.parent) else ".")
    os.close(fd)
    try:
        write(Path(tmp))
        if target.exists():  # keep the replaced file's permissions; a new file gets the umask's
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise UsageError(f"cannot write {option} {str(path)!r}: {exc.strerror or exc}") from None
        raise
    return Path(tmp)


def _replace_atomically(path: Path, write: Callable[[Path], object], option: str) -> None:
    """Write to a temporary file beside `path`, then rename it over `path` (no half-written file)."""
    import os

    tmp = _temporary(path, write, option)
    try:
        os.replace(tmp, _target(path))
    except OSError as exc:
        raise UsageError(f"cannot write {option} {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        if tmp.exists():
            tmp.unlink()


class PendingOutputs:
    """The outputs of one command, committed together by :func:`commit_outputs`.

    Regular files are written to temporaries as the command produces them and renamed over
    their targets only at the end, all together (an error, Ctrl-C or SIGTERM before leaves
    the old files and no temporaries: :func:`discard_outputs`); streams (standard output, a
    device, a FIFO) are written after the files.
    """

    def __init__(self) -> None:
        self.files: list[tuple[Path, Path, str]] = []  # (temporary, target, option)
        self.streams: list[Callable[[], None]] = []


def _pending(args: argparse.Namespace) -> PendingOutputs | None:
    return getattr(args, "_pending", None)


def _write(args: argparse.Namespace, option: str, path: Path | None, write: Callable[[Any], object],
           stream: Callable[[], None]) -> None:
    """Route one output: to standard output (`path` None or ``-``: `stream`), through a device or FIFO,
    or to a regular file (a temporary now, renamed at commit; at once when no commit is pending).
    `write` takes a path or an open binary file."""
    pending = _pending(args)
    kind = "stdout" if path is None else _kind(path)
    if kind in ("stdout", "stream"):
        def write_stream() -> None:
            if kind == "stdout":
                stream()
                return
            assert path is not None  # a None path is kind "stdout", handled above
            try:
                with open(path, "wb") as fh:  # a device or FIFO, as the shell's > writes it
                    write(fh)
            except OSError as exc:
                raise UsageError(f"cannot write {option} {str(path)!r}: {exc.strerror or exc}") from None
        if pending is None:
            write_stream()
        else:
            pending.streams.append(write_stream)
        return
    assert path is not None  # a None path is kind "stdout", handled above
    if pending is None:
        _replace_atomically(path, write, option)
        return
    pending.files.append((_temporary(path, write, option), path, option))


def _backup(target: Path) -> Path | None:
    """A hard link to `target` beside it (hidden, a random name), or None when `target` does not
    exist or the filesystem has no hard links."""
    import os
    import secrets

    if not target.exists():
        return None
    for _ in range(3):
        backup = target.with_name(f".{target.name}.{secrets.token_hex(6)}.old")
        try:
            os.link(target, backup)
        except FileExistsError:
            continue
        except OSError:
            return None
        return backup
    return None


def commit_outputs(args: argparse.Namespace) -> None:
    """Rename every pending file over its target, then write the pending streams.

    Two renames cannot be one atomic step, so when there are several files each target that
    exists is first kept as a hard link beside it (``.NAME.xxxx.old``). If a later rename fails,
    or Ctrl-C or SIGTERM arrives between two renames, the files already renamed are put back
    (the old file from its link, a new file removed) before the error; the links are removed
    in every case. An output can be left replaced only where it cannot be put back: a
    filesystem without hard links (no link can be made; FAT, some network shares), or a folder
    that stops accepting renames between two of them; the error then names that output. A kill
    (SIGKILL) between the renames leaves the links beside the targets.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options, with the pending outputs of :func:`emit` and :func:`save_plot`.

    Raises
    ------
    UsageError
        A rename failed (the files renamed before it put back, the others discarded).
    """
    import os

    pending = _pending(args)
    if pending is None:
        return
    several = len(pending.files) > 1
    backups = [_backup(_target(path)) if several else None for _, path, _ in pending.files]
    done: list[tuple[Path, Path | None, bool, str, Path]] = []  # (target, backup, existed, option, path)
    try:
        try:
            for (tmp, path, option), backup in zip(list(pending.files), backups):
                target = _target(path)
                existed = target.exists()
                try:
                    os.replace(tmp, target)
                except OSError as exc:
                    raise UsageError(f"cannot write {option} {str(path)!r}: {exc.strerror or exc}") from None
                pending.files.pop(0)
                done.append((target, backup, existed, option, path))
        except BaseException as exc:  # a failed rename, Ctrl-C or SIGTERM: put back what was renamed
            left = _put_back(done)
            if left and isinstance(exc, UsageError):
                raise UsageError(f"{exc}; {left} already replaced and could not be put back") from None
            raise
        for write in pending.streams:
            write()
        pending.streams.clear()
    finally:
        for backup in backups:
            if backup is not None:
                try:
                    backup.unlink()
                except OSError:
                    pass
        discard_outputs(args)


def _put_back(done: list[tuple[Path, Path | None, bool, str, Path]]) -> str:
    """Undo renames, last first: the old file from its link, or a new file removed. Returns the
    outputs that could not be put back (``"--output 'x'"``), or ``""``."""
    import os

    left = []
    for target, backup, existed, option, path in reversed(done):
        try:
            if not existed:
                target.unlink()
            elif backup is not None:
                os.replace(backup, target)
            else:
                raise OSError("no link to the old file")
        except OSError:
            left.append(f"{option} {str(path)!r} was")
    return " and ".join(left)


def discard_outputs(args: argparse.Namespace) -> None:
    """Remove the temporaries of outputs not committed (after an error or an interrupt).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options.
    """
    pending = _pending(args)
    if pending is None:
        return
    for tmp, _, _ in pending.files:
        try:
            tmp.unlink()
        except OSError:
            pass
    pending.files.clear()
    pending.streams.clear()


def _asks_solver_log(args: argparse.Namespace) -> bool:
    for item in getattr(args, "option", None) or ():
        key, _, value = item.partition("=")
        if key.strip() == "verbose" and value.strip().lower() not in ("", "false", "0", "no"):
            return True
    return False


@contextlib.contextmanager
def solver_log_to_stderr(args: argparse.Namespace) -> Iterator[None]:
    """While a solver log is asked for (``--option verbose=true``), send whatever is written
    to the process's stdout (the solvers write their logs there, below Python) to stderr,
    so that stdout carries only the result (``--format json`` stays valid JSON); the result
    itself is written to the real stdout by :func:`emit`.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``option``); while the block runs, ``args._stdout_fd`` is the
        real stdout.

    Yields
    ------
    None
    """
    if not _asks_solver_log(args):
        yield
        return
    import os

    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    args._stdout_fd = saved
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        args._stdout_fd = None


def emit(args: argparse.Namespace, text: str) -> None:
    """Write the rendered output to ``--output`` (UTF-8, atomically), or to stdout.

    Within :func:`consensus.cli.main` the write is pending until the command ends
    (:func:`commit_outputs`): files are committed together, then streams.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``output``).
    text : str
        The rendered result.

    Raises
    ------
    UsageError
        The ``--output`` file cannot be written.
    """

    def to_stdout() -> None:
        if getattr(args, "_stdout_fd", None) is not None:  # stdout is lent to the solver log
            import os

            sys.stdout.flush()
            data = text.encode("utf-8")
            while data:
                data = data[os.write(args._stdout_fd, data):]
        else:  # a person reads a terminal: names' control and bidi characters shown, not obeyed
            sys.stdout.write(visible(text) if sys.stdout.isatty() else text)
            sys.stdout.flush()

    data = text.encode("utf-8")
    _write(args, "--output", Path(args.output) if args.output else None,
           lambda target: target.write_bytes(data) if isinstance(target, Path) else target.write(data), to_stdout)


#: The longest side of a ``--plot`` raster image, in pixels.
MAX_PLOT_PIXELS = 4000


def save_plot(args: argparse.Namespace, make: Callable[[], Any]) -> None:
    """Save the figure of `make` to ``--plot`` (atomically); nothing without ``--plot``.

    At 120 dpi, or less for a figure so large (hundreds of systems) that a side would pass
    :data:`MAX_PLOT_PIXELS`: a raster image is at most 4,000 px a side.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``plot``).
    make : callable
        Builds the matplotlib Figure; only called when ``--plot`` is given.

    Raises
    ------
    UsageError
        The figure cannot be saved to that path (an OSError or ValueError from
        matplotlib).
    """
    if not args.plot:
        return
    figure = make()
    path = Path(args.plot)
    fmt = path.suffix.lower().lstrip(".")

    dpi = min(120.0, MAX_PLOT_PIXELS / max(float(max(figure.get_size_inches())), 1e-9))

    def write(target: Any) -> None:  # a temporary file, or a device or FIFO opened for writing
        try:
            figure.savefig(target, dpi=dpi, format=fmt)
        except ValueError as exc:
            raise UsageError(f"cannot write --plot {args.plot!r}: {exc}") from None

    _write(args, "--plot", path, write, lambda: None)


def warn_coverage(args: argparse.Namespace, obj: Any, table: Any) -> None:
    """Print ``consensus: warning: ...`` on stderr for each claim of `obj` resting on a low-coverage system.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (warnings are printed even with ``--quiet``).
    obj : result object
        Its claims (:func:`consensus.board._coverage.claims_of`).
    table : Leaderboard or None
        The scores `obj` was computed on.
    """
    from ..board._coverage import claims_of, coverage_flags
    from ..hints import cli_of

    if not is_leaderboard(table) or not table.has_missing:
        return
    for flag in coverage_flags(table, claims_of(obj)):
        print(f"{PROG}: warning: {visible(cli_of(flag))}", file=sys.stderr)


def deliver(args: argparse.Namespace, result: Any, table: Any, source: str,
            plot: tuple[str, Callable[[Any], Any]] | None = None) -> int:
    """The end of every command: low-coverage warnings, the result in ``--format``, its ``--plot``.

    The JSON document's ``command`` is the result's own (``json_command``; for several results
    rendered together, the first one's).

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``--format``, ``--top``, ``--output``, ``--plot``).
    result : result object or tuple of them
    table : Leaderboard or None
        The scores the result was computed on (coverage warnings, the JSON ``input``).
    source : str or None
        Where the scores came from.
    plot : (str, callable) or None
        The figure for ``--plot``: the name of a function of :mod:`consensus.plot` and
        ``make(function) -> Figure``; imported only when a figure is asked for.

    Returns
    -------
    int
        ``EXIT_OK``.

    Raises
    ------
    UsageError
        ``--output`` or ``--plot`` cannot be written.
    """
    import importlib

    from ..report import render
    from .args import EXIT_OK

    first = result[0] if isinstance(result, tuple) else result
    if plot is None and getattr(args, "plot", None):  # before anything is printed or written
        raise UsageError(f"{getattr(first, 'json_command', '') or 'this command'} draws no figure yet; drop --plot")
    warn_coverage(args, result, table)
    emit(args, render(result, format=args.format, table=table, source=source,
                      command=getattr(first, "json_command", "") or None, top=args.top))
    if plot is not None:
        name, make = plot
        save_plot(args, lambda: make(getattr(importlib.import_module("consensus.plot"), name)))
    return EXIT_OK
