"""Errors of the importers of other tools' result files.

They subclass the package's own classes (:class:`~consensus.errors.LeaderboardError`,
:class:`~consensus.errors.DuplicateLabelError`), so ``except LeaderboardError`` and the command
line's one-line error handling catch them, and they carry what is at fault as attributes: the
file, the line, the field, the metric.

A message or hint that names an option is a :class:`~consensus.hints.Hinted` (built with
:func:`~consensus.hints.hinted`), and the error keeps it, so that
:meth:`~consensus.errors.ConsensusError.cli_message` gives the command-line wording
(``pass --metric M``) beside the API one (``pass metric=...``).

(They live beside the importers that raise them.)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..errors import DuplicateLabelError, LeaderboardError
from ..hints import CLI_FLAGS, Hinted, hinted, named, option

__all__ = ["FormatError", "MetricDirectionError", "DuplicateResultError"]


def _listed(labels: Sequence[object], limit: int = 5) -> str:
    text = ", ".join(repr(x) for x in labels[:limit])
    return text + (", ..." if len(labels) > limit else "")


def _option_text(text: str) -> str:
    """`text`, or the option it is when a plain ``"name="`` of :data:`~consensus.hints.CLI_FLAGS`
    (``"metric="`` -> ``metric=`` / ``--metric``)."""
    if not isinstance(text, Hinted) and text.endswith("=") and text[:-1] in CLI_FLAGS:
        return named(text[:-1], equals=True)
    return text


class FormatError(LeaderboardError):
    """A result file does not have the shape its tool writes, or lacks what was asked for.

    Parameters
    ----------
    path : str or Path
        The file (or run directory) at fault (attribute ``path``, a str).
    message : str or Hinted
        What is wrong, shown after the file (a :class:`~consensus.hints.Hinted` keeps its
        command-line wording).
    field : str, optional
        The JSON field, column or metric at fault (attribute ``field``).
    line : int, optional
        The 1-based line of a JSON-lines or CSV file (attribute ``line``).

    Examples
    --------
    >>> print(FormatError("runs/a.jsonl", "no 'doc_id'", field="doc_id", line=3))
    'runs/a.jsonl' line 3: no 'doc_id'
    >>> FormatError("r.json", hinted("pass {}", option("metric"))).cli_message()
    "'r.json': pass --metric M"
    """

    def __init__(self, path: str | Path, message: str, *, field: str | None = None, line: int | None = None) -> None:
        self.path, self.field, self.line = str(path), field, line
        where = f"{self.path!r}" + (f" line {line}" if line is not None else "")
        super().__init__(f"{where}: " + message)  # + keeps a Hinted message's command-line wording


class MetricDirectionError(LeaderboardError):
    """No direction (higher or lower is better) is known for some metrics or tasks.

    Parameters
    ----------
    names : sequence of str
        The metrics (or tasks, when the scores name no metric) without a direction
        (attribute ``names``; up to 5 shown).
    where : str or Hinted, default=""
        Which tasks use them, or the option that named them (``named("metric", equals=True)``,
        or the text ``"metric="``), shown in parentheses.
    kind : str, default="metric"
        ``"metric"`` or ``"task"``.
    hint : str or Hinted, default=""
        Another way to fix it, appended after the options.

    Examples
    --------
    >>> err = MetricDirectionError(["brier"], "task 'qa'")
    >>> print(err)  # doctest: +NORMALIZE_WHITESPACE
    no known direction for metric(s) 'brier' (task 'qa'); pass higher_is_better=['brier'] or
    lower_is_better=['brier']
    >>> print(err.cli_message())
    no known direction for metric(s) 'brier' (task 'qa'); pass --higher-is-better brier or --lower-is-better brier
    """

    def __init__(self, names: Sequence[str], where: str = "", *, kind: str = "metric", hint: str = "") -> None:
        self.names, self.kind = tuple(names), kind
        shown = list(self.names[:5])
        message = hinted("no known direction for {}(s) {}", kind, _listed(self.names))
        if where:
            message += hinted(" ({})", _option_text(where))
        message += hinted("; pass {} or {}", option("higher_is_better", shown), option("lower_is_better", shown))
        if hint:
            message += hinted(", or {}", hint)
        super().__init__(message)


class DuplicateResultError(DuplicateLabelError):
    """Two files (or runs) give a score to the same system on the same task.

    Parameters
    ----------
    system, task : str
        The pair given twice (attributes ``system`` and ``task``).
    paths : sequence of str
        The files or run directories that both give it (attribute ``paths``).
    hint : str or Hinted, default=""
        How to fix it, appended to the message.

    Examples
    --------
    >>> print(DuplicateResultError("m", "qa", ["a/results_1.json", "a/results_2.json"]))
    system 'm' has two results for task 'qa': 'a/results_1.json' and 'a/results_2.json'; keep one of the files
    """

    def __init__(self, system: str, task: str, paths: Sequence[str], *, hint: str = "") -> None:
        self.kind, self.labels = "system/task pair", (f"{system}/{task}",)
        self.system, self.task, self.paths = system, task, tuple(str(p) for p in paths)
        shown = " and ".join(repr(p) for p in self.paths[:2])
        LeaderboardError.__init__(
            self,
            hinted("system {!r} has two results for task {!r}: {}; {}", system, task, shown,
                   hint or "keep one of the files"),
        )
