"""Two ways to run the ``consensus`` command line from a test, with one result shape.

``run_cli`` calls :func:`consensus.cli.main` in this process (what the console script runs,
without the ~1 s of imports a new interpreter costs): the default for checking exit codes,
messages and outputs. ``installed``/``installed_many`` start the INSTALLED entry point in a
subprocess: kept for the few tests whose subject is the process itself (the console script,
``python -m consensus``, Ctrl-C, solver logs written by C code to the file descriptors).
Both return :class:`subprocess.CompletedProcess` with text ``stdout`` and ``stderr``.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

from consensus.cli import main


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run ``consensus ARGS`` in-process; stdout and stderr captured as text."""
    out, err = io.StringIO(), io.StringIO()
    where = contextlib.chdir(cwd) if cwd is not None else contextlib.nullcontext()
    with where, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def run_cli_many(argvs: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """:func:`run_cli` on each argument list in turn."""
    return [run_cli(*argv) for argv in argvs]


def command() -> list[str]:
    """The installed console script of this environment (else ``python -m consensus``)."""
    venv = Path(sys.executable).parent / "consensus"
    if venv.exists():
        return [str(venv)]
    found = shutil.which("consensus")
    return [found] if found else [sys.executable, "-m", "consensus"]


def installed(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """Run the installed ``consensus ARGS`` in a subprocess."""
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(command() + list(args), capture_output=True, text=True, timeout=120, cwd=cwd, env=env)


def installed_many(argvs: list[list[str]]) -> list[subprocess.CompletedProcess]:
    """Run several installed commands concurrently (each starts a Python interpreter)."""
    env = dict(os.environ, MPLBACKEND="Agg")
    procs = [subprocess.Popen(command() + argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
             for argv in argvs]
    results = []
    for argv, proc in zip(argvs, procs):
        out, err = proc.communicate(timeout=180)
        results.append(subprocess.CompletedProcess(argv, proc.returncode, out, err))
    return results
