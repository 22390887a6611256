"""The ``consensus`` command line: argparse wiring around the library, no analysis logic.

Modules: :mod:`.args` (option values, loading FILE), :mod:`.output` (checked, atomic outputs and
the progress line), :mod:`.commands` (one function per subcommand), :mod:`.parser` (the
argparse parser); this module runs them. Only what a
subcommand needs is imported, so ``consensus --version`` and ``--help`` stay fast.

Subcommands: ``analyze`` (the full report; no FILE: a built-in example), ``rank``,
``kemeny``, ``prospective``, ``compare``, ``impute``. Every user error (a
:class:`~consensus.errors.ConsensusError`, a bad option, an unreadable file) prints one line
``consensus: error: ...`` on stderr and exits with code 2, without a traceback. See
``docs/cli.md`` for every option and the JSON schema.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

from ..errors import ConsensusError
from ..hints import visible
from .args import EXIT_ERROR, EXIT_INTERNAL, PROG, UsageError
from .output import (
    PendingOutputs,
    check_outputs,
    commit_outputs,
    discard_outputs,
    solver_log_to_stderr,
)
from .parser import build_parser

__all__ = ["main", "build_parser"]


# ====================================================================== entry point
def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        text = f"{exc.strerror or exc}" + (f": {exc.filename!r}" if exc.filename else "")
    elif callable(cli_message := getattr(exc, "cli_message", None)):
        text = cli_message()  # the command line's wording (--drop-empty for drop_empty=True)
    else:
        text = str(exc)
    return " ".join(text.split())


def _print_warnings(caught: Sequence[warnings.WarningMessage], quiet: bool) -> None:
    """User-facing warnings (UserWarning and subclasses), each once; developer warnings are dropped,
    deprecations included even when a library derives them from UserWarning too (pyparsing 3.3's
    PyparsingDeprecationWarning, raised when an older matplotlib is imported)."""
    if quiet:
        return
    seen = set()
    for w in caught:
        if not issubclass(w.category, UserWarning) or issubclass(w.category, (DeprecationWarning,
                                                                                PendingDeprecationWarning)):
            continue
        text = " ".join(str(w.message).split())
        if text not in seen:
            seen.add(text)
            print(f"{PROG}: warning: {visible(text)}", file=sys.stderr)


class _Terminated(BaseException):
    """SIGTERM, raised in the main thread so that pending outputs are discarded (exit 143)."""


def _watch_sigint() -> tuple[threading.Event, Any]:
    """Note every Ctrl-C (then interrupt as Python does), so that an interrupt that reaches
    us wrapped in another error (from inside a solver's callback) is still reported as one;
    SIGTERM ends the command the same way (its outputs discarded, exit 143)."""
    event = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        return event, None

    def handler(signum: int, frame: Any) -> None:
        event.set()
        raise KeyboardInterrupt

    def terminate(signum: int, frame: Any) -> None:
        raise _Terminated

    try:
        return event, (signal.signal(signal.SIGINT, handler), signal.signal(signal.SIGTERM, terminate))
    except (ValueError, OSError):  # pragma: no cover - no signals here
        return event, None


def _restore_sigint(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])


@contextlib.contextmanager
def _input_limit(args: argparse.Namespace) -> Iterator[None]:
    """``--max-input-size`` and ``--max-memory``: this command's limits, set in their environment
    variables while it runs (restored after)."""
    from ..io._limits import MAX_INPUT_VAR, MAX_MEMORY_VAR, parse_size

    with contextlib.ExitStack() as stack:
        for flag, variable in (("--max-input-size", MAX_INPUT_VAR), ("--max-memory", MAX_MEMORY_VAR)):
            text = getattr(args, flag[2:].replace("-", "_"), None)
            if text is None:
                continue
            try:
                size = parse_size(text)
            except (ValueError, IndexError):
                raise UsageError(f"{flag}: expected a size such as 4G or 500M, got {text!r}") from None
            stack.enter_context(_environment(variable, str(size)))
        yield


@contextlib.contextmanager
def _environment(variable: str, value: str) -> Iterator[None]:
    previous = os.environ.get(variable)
    os.environ[variable] = value
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(variable, None)
        else:
            os.environ[variable] = previous


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``consensus`` command line and return its exit code.

    Parses `argv`, runs the subcommand's handler, and prints user-facing warnings (each
    once, unless ``--quiet``) and any error as one ``consensus: error: ...`` line on
    stderr, without a traceback.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after the program name; None: ``sys.argv[1:]``.

    Returns
    -------
    int
        0 ok (also after ``--help`` and ``--version``); 1 a failed self-check of
        ``analyze``; 2 an error (a :class:`~consensus.errors.ConsensusError`, a usage
        error, an OSError, an ImportError or a MemoryError, caught here and printed); 3 an
        internal error (a bug: one line too; ``CONSENSUS_TRACEBACK=1`` shows the
        traceback); 130 interrupted (Ctrl-C).

    Examples
    --------
    >>> main(["rank", "no-such-file.csv", "--rule", "borda"])  # the error goes to stderr
    2
    """
    parser = build_parser()
    interrupted, previous = _watch_sigint()
    quiet = False
    args: argparse.Namespace | None = None
    error: str | None = None
    code = EXIT_ERROR
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            args = parser.parse_args(argv)
            quiet = args.quiet
            check_outputs(args)  # before anything is read or written
            args._pending = PendingOutputs()  # files committed together at the end, then streams
            with solver_log_to_stderr(args), _input_limit(args):
                code = int(args.handler(args))
                commit_outputs(args)
        except SystemExit as exc:  # --help and --version
            code = int(exc.code or 0)
        except KeyboardInterrupt:
            error, code = "interrupted", 130
        except _Terminated:
            error, code = "terminated", 143
        except (UsageError, ConsensusError, OSError, ImportError) as exc:  # also from commit_outputs, after
            error, code = _message(exc), EXIT_ERROR                      # the handler returned its code
        except MemoryError as exc:
            error, code = _out_of_memory(exc), EXIT_ERROR
        except Exception as exc:  # a bug: still one line, with a way to see the traceback
            if interrupted.is_set():  # Ctrl-C surfacing through a solver callback as another error
                error, code = "interrupted", 130
            elif os.environ.get("CONSENSUS_TRACEBACK"):
                raise
            else:
                error, code = (
                    f"internal error ({type(exc).__name__}: {' '.join(str(exc).split())[:300]}); please report it "
                    "with the command that caused it (set CONSENSUS_TRACEBACK=1 to see the traceback)"
                ), EXIT_INTERNAL
        finally:
            if args is not None:
                discard_outputs(args)  # an error or interrupt: the old outputs stay, no temporaries
            _restore_sigint(previous)
    _print_warnings(caught, quiet)
    if error is not None:
        print(f"{PROG}: error: {visible(error)}", file=sys.stderr)
    return code


def _out_of_memory(exc: MemoryError) -> str:
    """The line for a MemoryError the checks did not foresee: the bound that was hit, not the input blamed."""
    from ..io._limits import BOUND_NAMES, memory_limits

    detail = f" ({' '.join(str(exc).split())[:200]})" if str(exc) else ""
    limits = memory_limits()
    bound = BOUND_NAMES[min(limits, key=limits.__getitem__)] if limits else ""
    return (f"out of memory{detail}{bound}: the computation needed more than this process could allocate; "
            "raise the limit, or ask for less (fewer systems, resamples or repetitions)")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
