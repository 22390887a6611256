"""Command-line arguments in: option values, option files, loading FILE or a built-in example (output is in :mod:`.output`)."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

PROG = "consensus"
EXIT_OK, EXIT_CHECK_FAILED, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3
_SYNTHETIC_DEFAULTS = {"n": 20, "tasks": 20, "phi": 0.05, "seed": 0}
#: Docstring entries every ``cmd_*`` function shares (:func:`consensus._docstrings.fill_doc`).
COMMAND_DOCS = {
    "args": "args : argparse.Namespace\n    The options :func:`consensus.cli.build_parser` parsed for the command.",
    "exit_zero": "int\n    0.",
    "usage_error": "UsageError\n    A malformed reading option, or ``--output``/``--plot`` cannot be written.",
}


class UsageError(Exception):
    """A command-line problem (bad option value, unreadable option file)."""


class CliParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors become one ``consensus: error: ...`` line."""

    def error(self, message: str) -> NoReturn:
        """Raise the parse error as a :class:`UsageError` (argparse would print and exit).

        Parameters
        ----------
        message : str
            argparse's message; ``(see 'PROG --help')`` is appended.

        Returns
        -------
        NoReturn
            Never returns.

        Raises
        ------
        UsageError
            Always.
        """
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ====================================================================== option parsing
def split_names(text: str) -> list[str]:
    """Split a comma-separated list, stripping blanks and dropping empty items.

    Parameters
    ----------
    text : str
        Such as ``"a, b,,c"``.

    Returns
    -------
    list of str

    Examples
    --------
    >>> split_names("qa, nli,,summ ")
    ['qa', 'nli', 'summ']
    """
    return [part.strip() for part in text.split(",") if part.strip()]


def _names(values: Sequence[str] | None) -> list[str]:
    """``--opt a b`` and ``--opt a,b`` (and repeated options) as one list."""
    return [name for value in (values or []) for name in split_names(value)]


def _number(text: str, what: str) -> float:
    """A number on the command line, by the rule of score cells (``consensus.io._cells.parse_number``:
    ASCII, no ``_``)."""
    from ..io._cells import parse_number

    value = parse_number(text)
    if value is None:
        raise UsageError(f"{what}: {text!r} is not a number")
    return value


def parse_weights(spec: str | None) -> dict[str, float] | None:
    """Parse ``--weights``: ``task=w,...`` or a file: JSON ``{"task": w}`` or CSV/TSV rows ``task,weight``.

    A spec containing ``=`` is read inline; anything else must be an existing file: a
    ``.json`` file holds an object, a ``.tsv`` file tab-separated and any other file
    comma-separated ``task,weight`` rows (a first row whose weight is not a number is a
    header and skipped).

    Parameters
    ----------
    spec : str or None
        The option's value.

    Returns
    -------
    dict of str to float, or None
        Task -> weight (not checked against the tasks here); None when `spec` is None.

    Raises
    ------
    UsageError
        An inline item is not ``task=weight``, a weight is not a number, the file does
        not exist or cannot be read as JSON, the JSON is not an object, or a CSV/TSV row
        does not have two fields.

    Examples
    --------
    >>> parse_weights("qa=2, nli=0.5")
    {'qa': 2.0, 'nli': 0.5}
    """
    if spec is None:
        return None
    if "=" in spec:
        weights = {}
        for item in split_names(spec):
            task, sep, value = item.partition("=")
            if not sep or not task.strip():
                raise UsageError(f"--weights: expected task=weight, got {item!r}")
            if task.strip() in weights:
                raise UsageError(f"--weights: task {task.strip()!r} is given twice")
            weights[task.strip()] = _number(value.strip(), f"--weights {task.strip()}")
        return weights
    path = Path(spec)
    if not path.is_file():
        raise UsageError(f"--weights: {spec!r} is neither task=weight,... nor an existing file")
    if path.suffix.lower() == ".json":
        data = _read_json(path, "--weights")
        if not isinstance(data, dict):
            raise UsageError(f"--weights: {spec!r} must hold a JSON object {{task: weight}}")
        strings = [k for k, v in data.items() if not isinstance(v, (int, float)) or isinstance(v, bool)]
        if strings:
            raise UsageError(f"--weights: {spec!r} gives task {strings[0]!r} the weight {data[strings[0]]!r}, "
                             "not a JSON number")
        return {str(k): _number(str(v), f"--weights {k}") for k, v in data.items()}
    delimiter = "\t" if path.suffix.lower() == ".tsv" else ","
    weights = {}
    for k, row in enumerate(_read_rows(path, delimiter)):
        if len(row) != 2:
            raise UsageError(f"--weights: line {k + 1} of {spec!r} must be task{delimiter}weight, got {row!r}")
        task, value = row[0].strip(), row[1].strip()
        if k == 0:
            try:
                float(value)
            except ValueError:
                continue  # a header line
        if task in weights:
            raise UsageError(f"--weights: task {task!r} is given twice in {spec!r} (line {k + 1})")
        weights[task] = _number(value, f"--weights {task}")
    return weights


def parse_groups(spec: str | None) -> dict[str, list[str]] | None:
    """Parse ``--groups``: ``g1=a,b;g2=c`` or a JSON file ``{"g1": ["a", "b"], "g2": ["c"]}``.

    Parameters
    ----------
    spec : str or None
        The option's value; read inline when it contains ``=``, else as a JSON file.

    Returns
    -------
    dict of str to list of str, or None
        Group -> tasks (not checked against the tasks here); None when `spec` is None.

    Raises
    ------
    UsageError
        An inline group is not ``group=task,...``, the file does not exist or cannot be
        read as JSON, or the JSON is not an object of lists.

    Examples
    --------
    >>> parse_groups("nlu=qa,nli; gen=summ")
    {'nlu': ['qa', 'nli'], 'gen': ['summ']}
    """
    if spec is None:
        return None
    if "=" in spec:
        groups: dict[str, list[str]] = {}
        for item in (part for part in spec.split(";") if part.strip()):
            name, sep, members = item.partition("=")
            if not sep or not name.strip() or not split_names(members):
                raise UsageError(f"--groups: expected group=task,task;group=task, got {item!r}")
            if name.strip() in groups:
                raise UsageError(f"--groups: group {name.strip()!r} is given twice")
            groups[name.strip()] = split_names(members)
        return groups
    path = Path(spec)
    if not path.is_file():
        raise UsageError(f"--groups: {spec!r} is neither group=task,...;... nor an existing JSON file")
    data = _read_json(path, "--groups")
    if not isinstance(data, dict) or not all(isinstance(v, list) for v in data.values()):
        raise UsageError(f"--groups: {spec!r} must hold a JSON object {{group: [task, ...]}}")
    return {str(k): [str(t) for t in v] for k, v in data.items()}


def _read_json(path: Path, option: str) -> Any:
    from ..io._json_input import loads

    try:
        return loads(path.read_text(encoding="utf-8"), f"{option} {str(path)!r}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{option}: cannot read {str(path)!r} as JSON: {exc}") from None


def _read_rows(path: Path, delimiter: str) -> list[list[str]]:
    import csv

    with path.open(encoding="utf-8", newline="") as fh:
        return [row for row in csv.reader(fh, delimiter=delimiter) if row and any(c.strip() for c in row)]


def _columns(spec: str | None, count: int, option: str, meaning: str) -> list[str] | None:
    if spec is None:
        return None
    names = split_names(spec)
    if len(names) != count:
        raise UsageError(f"{option}: expected {count} comma-separated column names ({meaning}), got {spec!r}")
    return names


def option_value(text: str) -> Any:
    """Parse a ``--option KEY=VALUE`` value: JSON when it parses (numbers, true, lists), else the text.

    Parameters
    ----------
    text : str
        The VALUE part.

    Returns
    -------
    object
        The decoded JSON value, or `text` itself.

    Examples
    --------
    >>> option_value("[1, 1, 0.5]"), option_value("true"), option_value("winning_votes")
    ([1, 1, 0.5], True, 'winning_votes')
    """
    from ..io._json_input import loads

    try:
        return loads(text, "--option")
    except json.JSONDecodeError:
        return text


def is_leaderboard(data: Any) -> bool:
    """Tell whether `data` is a :class:`~consensus.Leaderboard` (imported lazily).

    Parameters
    ----------
    data : object
        What :func:`load` returned.

    Returns
    -------
    bool

    Examples
    --------
    >>> import consensus as cs
    >>> is_leaderboard(cs.load_example("votenrank-toy")), is_leaderboard(None)
    (True, False)
    """
    from ..board._leaderboard import Leaderboard

    return isinstance(data, Leaderboard)


# ====================================================================== output
def note(args: argparse.Namespace, message: str) -> None:
    """Print ``consensus: note: MESSAGE`` on stderr, unless ``--quiet``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``quiet``; a missing attribute counts as False).
    message : str
        The note.
    """
    if not getattr(args, "quiet", False):
        from ..hints import visible

        print(f"{PROG}: note: {visible(message)}", file=sys.stderr)


class Progress:
    """A stderr progress line for long solves, fed by the solver's progress callback.

    Silent for the first `delay` seconds (short solves print nothing); then, on a terminal,
    one line rewritten in place (at most every 0.2 s), elsewhere a line every `every`
    seconds. Calling the object reports; it accepts a progress object (such as
    ``SolveProgress``), a mapping, a stage string or keywords.

    Parameters
    ----------
    label : str
        What is being solved, shown at the start of the line.
    delay : float, default=1.0
        Seconds of silence after creation.
    every : float, default=5.0
        Seconds between lines when stderr is not a terminal.
    """

    def __init__(self, label: str, *, delay: float = 1.0, every: float = 5.0) -> None:
        self.label = label
        self.start = time.monotonic()
        self.delay = delay
        self.every = every
        self.last = -math.inf
        self.tty = sys.stderr.isatty()
        self.shown = False

    def __call__(self, *args: Any, **kwargs: Any) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if elapsed < self.delay or now - self.last < (0.2 if self.tty else self.every):
            return
        self.last = now
        text = f"{PROG}: {self.label}: {elapsed:.0f} s" + _progress_details(args, kwargs)
        if self.tty:
            sys.stderr.write("\r" + text.ljust(78)[:200])
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        """Erase the progress line on a terminal, if one was shown."""
        if self.shown and self.tty:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()


def _progress_details(args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    """The interesting fields of a progress report (an object such as the Kemeny solver's
    ``SolveProgress``, a mapping, or keywords): stage, component, round, cuts, incumbent, bound, gap."""
    names = ("stage", "component", "n_components", "round", "iteration", "cuts", "objective", "incumbent",
             "lower_bound", "bound", "gap")
    info: dict[str, Any] = dict(kwargs)
    for arg in args:
        if isinstance(arg, dict):
            info.update(arg)
        elif isinstance(arg, str):
            info.setdefault("stage", arg)
        else:
            for name in names:
                if hasattr(arg, name):
                    info[name] = getattr(arg, name)
    parts = []
    if "component" in info and "n_components" in info and info["n_components"] and info["n_components"] > 1:
        info["component"] = f"{int(info['component']) + 1}/{info['n_components']}"
    else:
        info.pop("component", None)
    for name in names:
        value = info.get(name)
        if value is None or name == "n_components":
            continue
        if isinstance(value, float):
            value = f"{value:g}"
        parts.append(f"{name.replace('_', ' ')} {value}")
    return (", " + ", ".join(parts)) if parts else ""


def progress_for(args: argparse.Namespace, label: str) -> Progress | None:
    """Return a :class:`Progress` reporter for a solve, or None with ``--quiet``.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed options (``quiet``).
    label : str
        What is being solved (``"Kemeny consensus"``).

    Returns
    -------
    Progress or None
    """
    return None if args.quiet else Progress(label)
