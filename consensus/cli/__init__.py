"""The ``consensus`` command line: argparse wiring around the library, no analysis logic.

Modules: :mod:`.args` (option values, loading FILE, output), :mod:`.commands` (one function per
subcommand), :mod:`.parser` (the argparse parser); this module runs them. Only what a
subcommand needs is imported, so ``consensus --version`` and ``--help`` stay fast.

Subcommands: ``analyze`` (the full report; no FILE: a built-in example), ``rank``,
``kemeny``, ``prospective``, ``compare``, ``impute``. Every user error (a
:class:`~consensus.errors.ConsensusError`, a bad option, an unreadable file) prints one line
``consensus: error: ...`` on stderr and exits with code 2, without a traceback. See
``docs/cli.md`` for every option and the JSON schema.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Sequence

from ..errors import ConsensusError
from .args import EXIT_ERROR, PROG, UsageError
from .parser import build_parser

__all__ = ["main", "build_parser"]


# ====================================================================== entry point
def _message(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        text = f"{exc.strerror or exc}" + (f": {exc.filename!r}" if exc.filename else "")
    elif callable(getattr(exc, "cli_message", None)):
        text = exc.cli_message()  # API hints (drop_empty=True) rewritten as flags (--drop-empty)
    else:
        text = str(exc)
    return " ".join(text.split())


def _print_warnings(caught: Sequence[warnings.WarningMessage], quiet: bool) -> None:
    """User-facing warnings (UserWarning and subclasses), each once; developer warnings are dropped."""
    if quiet:
        return
    seen = set()
    for w in caught:
        if not issubclass(w.category, UserWarning):
            continue
        text = " ".join(str(w.message).split())
        if text not in seen:
            seen.add(text)
            print(f"{PROG}: warning: {text}", file=sys.stderr)


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
        error, an OSError or an ImportError, caught here and printed); 130 interrupted.

    Examples
    --------
    >>> main(["rank", "no-such-file.csv", "--rule", "borda"])  # the error goes to stderr
    2
    """
    parser = build_parser()
    quiet = False
    error: str | None = None
    code = EXIT_ERROR
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            args = parser.parse_args(argv)
            quiet = args.quiet
            code = int(args.handler(args))
        except SystemExit as exc:  # --help and --version
            code = int(exc.code or 0)
        except (UsageError, ConsensusError, OSError, ImportError) as exc:
            error = _message(exc)
        except KeyboardInterrupt:
            error, code = "interrupted", 130
    _print_warnings(caught, quiet)
    if error is not None:
        print(f"{PROG}: error: {error}", file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
