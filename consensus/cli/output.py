"""Command-line output: checked and atomically written ``--output``/``--plot``, stdout kept for
the result while a solver log is shown, and the progress line."""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from .args import PROG, UsageError, is_leaderboard

#: Figure formats ``--plot`` accepts (what matplotlib's Agg, PDF, PS and SVG back-ends write).
PLOT_FORMATS = ("png", "pdf", "svg", "svgz", "eps", "ps", "jpg", "jpeg", "tif", "tiff", "webp")


def _same_file(a: Path, b: Path) -> bool:
    try:
        if a.exists() and b.exists():
            return a.samefile(b)
    except OSError:
        pass
    return a.resolve() == b.resolve()


def input_paths(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """The files a command reads: FILE, and ``--weights``/``--groups`` when they name files.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options.

    Returns
    -------
    list of (str, Path)
        The option (``"FILE"``, ``"--weights"``, ``"--groups"``) and its path.
    """
    found = []
    if getattr(args, "file", None):
        found.append(("FILE", Path(args.file)))
    for option in ("weights", "groups"):
        spec = getattr(args, option, None)
        if spec and Path(spec).is_file():
            found.append((f"--{option}", Path(spec)))
    return found


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse ``--output``/``--plot`` before anything is read, computed or written.

    An output path may not be an input (FILE, a ``--weights`` or ``--groups`` file) nor
    the other output, nor a directory; its folder must exist; ``--plot`` needs a figure
    extension (:data:`PLOT_FORMATS`) and matplotlib.

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
    for option, path in outputs:
        for what, source in input_paths(args):
            if _same_file(path, source):
                raise UsageError(f"{option} {str(path)!r} is the input {what}: it would be overwritten; choose another path")
        if path.is_dir():
            raise UsageError(f"{option} {str(path)!r} is a directory; give a file name")
        parent = path.parent if str(path.parent) else Path(".")
        if not parent.is_dir():
            raise UsageError(f"cannot write {option} {str(path)!r}: folder {str(parent)!r} does not exist")
    if len(outputs) == 2 and _same_file(outputs[0][1], outputs[1][1]):
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


def _replace_atomically(path: Path, write: Callable[[Path], None], option: str) -> None:
    """Write to a temporary file beside `path`, then rename it over `path` (no half-written file)."""
    import os
    import tempfile

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=path.suffix, dir=path.parent if str(path.parent) else ".")
    os.close(fd)
    try:
        write(Path(tmp))
        if path.exists():  # keep the replaced file's permissions; a new file gets the umask's
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except OSError as exc:
        raise UsageError(f"cannot write {option} {str(path)!r}: {exc.strerror or exc}") from None
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


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
    if args.output:
        _replace_atomically(Path(args.output), lambda tmp: tmp.write_text(text, encoding="utf-8"), "--output")
    elif getattr(args, "_stdout_fd", None) is not None:  # stdout is lent to the solver log
        import os

        sys.stdout.flush()
        data = text.encode("utf-8")
        while data:
            data = data[os.write(args._stdout_fd, data):]
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


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

    def write(tmp: Path) -> None:
        try:
            figure.savefig(tmp, dpi=dpi, format=fmt)
        except ValueError as exc:
            raise UsageError(f"cannot write --plot {args.plot!r}: {exc}") from None

    _replace_atomically(path, write, "--plot")


def warn_coverage(args: argparse.Namespace, obj: Any, table: Any) -> None:
    """Print ``consensus: warning: ...`` on stderr for each claim of `obj` resting on a low-coverage system.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (warnings are printed even with ``--quiet``).
    obj : result object
        Its claims (:func:`consensus.coverage.claims_of`).
    table : Leaderboard or None
        The scores `obj` was computed on.
    """
    from ..coverage import claims_of, coverage_flags
    from ..hints import cli_text

    if not is_leaderboard(table) or not table.has_missing:
        return
    for flag in coverage_flags(table, claims_of(obj)):
        print(f"{PROG}: warning: {cli_text(flag)}", file=sys.stderr)
