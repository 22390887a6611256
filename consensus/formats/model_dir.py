"""A directory with one result file per model: the file name is the model, the file its task scores.

Each file is one of:

- JSON, an object task -> score: ``{"mmlu": 0.61, "gsm8k": 0.42, "arc": null}`` (``null`` is a
  missing score), or a list of records ``[{"task": "mmlu", "score": 0.61}, ...]``;
- CSV / TSV with a header and one row per task: ``task,score`` (other columns are ignored;
  name the two with ``task_column=`` / ``score_column=``). Cells are read as the leaderboard
  readers read them (:mod:`consensus.io._file_tables`): a missing marker (empty, ``-``, ``NA``, ...)
  is a missing score, anything but a plain number is an error naming the line.

``gpt-4o.json`` is the model ``gpt-4o`` (the name without its extension); ``.gz`` files are
decompressed. Files with other extensions (a README) are not results: they are skipped with a
note. The scores name no metric, so directions are given: ``metric=`` names the metric of
every score (its direction from :func:`~consensus.formats.metrics.metric_direction`), or
``higher_is_better=`` / ``lower_is_better=`` list tasks; a task named like a known metric
(``latency``) takes that metric's direction.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, LeaderboardError
from ..hints import call, hinted, named, option
from ..io._cells import MISSING_MARKERS
from ..io._file_tables import read_delimited
from ..io._opening import compression_suffix
from .errors import FormatError
from .files import load_json
from .metrics import metric_direction
from .records import (
    ResultEntry,
    check_names,
    entries_to_leaderboard,
    number_or_none,
    shortlist,
)

__all__ = ["read_model_dir", "read_model_file"]

_KINDS = {".json": "json", ".csv": "csv", ".tsv": "tsv", ".txt": "csv"}
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def _kind(path: Path) -> tuple[str | None, str]:
    """(format, model name) of a file name; format None when it is not a result file."""
    name = path.name[: len(path.name) - len(compression_suffix(path.name))]
    stem, dot, ext = name.rpartition(".")
    return (_KINDS.get("." + ext.lower()) if dot and stem else None), stem


def _text_score(cell: str, path: Path, line: int, task: str) -> float | None:
    text = cell.strip()
    if text.lower() in MISSING_MARKERS:
        return None
    if not _NUMBER.fullmatch(text):
        raise FormatError(path, f"the score of task {task!r} is {cell!r}, not a number", field=task, line=line)
    return float(text)


def read_model_file(
    path: str | Path, *, task_column: str = "task", score_column: str = "score", sep: str | None = None
) -> dict[str, float | None]:
    """The task scores of one model's file (see the module docs for the shapes).

    Parameters
    ----------
    path : str or Path
        A ``.json``, ``.csv``, ``.tsv`` or ``.txt`` file (optionally ``.gz``).
    task_column, score_column : str
        The columns (CSV) or record keys (JSON list) holding tasks and scores.
    sep : str, optional
        The CSV delimiter (default ``,``; a tab for ``.tsv``).

    Returns
    -------
    dict
        Task -> score (None where missing), in file order.

    Raises
    ------
    FormatError
        A task is listed twice, a score is not a number, a column or key is missing, or
        the JSON is neither an object of scores nor a list of records (naming the file, the
        line and the task).
    LeaderboardError
        The file cannot be read or parsed.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "m.csv")
    >>> _ = open(path, "w").write("task,score\\nqa,0.5\\nnli,-\\n")
    >>> read_model_file(path)
    {'qa': 0.5, 'nli': None}
    """
    path = Path(path)
    kind, _ = _kind(path)
    if kind is None:
        raise FormatError(path, "not a .json, .csv, .tsv or .txt file")
    scores: dict[str, float | None] = {}
    if kind == "json":
        data = load_json(path)
        if isinstance(data, dict):
            for task, value in data.items():
                if isinstance(value, dict):
                    raise FormatError(path, f"task {task!r} holds an object, not a score; this reads "
                                      "{task: score} (lm-evaluation-harness, HELM and MTEB files have their own importers)",
                                      field=task)
                scores[task] = number_or_none(value, str(path), task)
            return scores
        if not isinstance(data, list):
            raise FormatError(path, "neither an object {task: score} nor a list of records")
        for k, record in enumerate(data):
            if not isinstance(record, dict) or task_column not in record or score_column not in record:
                raise FormatError(path, f"record #{k + 1} is not an object with {task_column!r} and {score_column!r}; "
                                  "pass task_column= / score_column=", field=task_column)
            task = str(record[task_column])
            if task in scores:
                raise FormatError(path, f"task {task!r} is listed twice (record #{k + 1})", field=task)
            scores[task] = number_or_none(record[score_column], str(path), task)
        return scores
    table = read_delimited(path, sep or ("\t" if kind == "tsv" else ","))
    frame = table.frame
    for column in (task_column, score_column):
        if column not in frame.columns:
            raise FormatError(path, f"no column {column!r}; its columns are {shortlist(list(frame.columns))}; "
                              "pass task_column= / score_column=", field=column)
    lines = table.lines or tuple(range(2, len(frame) + 2))
    seen: dict[str, int] = {}
    for line, task, cell in zip(lines, frame[task_column], frame[score_column]):
        task = str(task).strip()
        if task in seen:
            raise FormatError(path, f"task {task!r} is listed twice (first on line {seen[task]})", field=task, line=line)
        seen[task] = line
        scores[task] = _text_score(str(cell), path, line, task)
    return scores


def read_model_dir(
    path: str | Path | Sequence[str | Path],
    *,
    metric: str | None = None,
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
    exclude: Iterable[str] = (),
    task_column: str = "task",
    score_column: str = "score",
    sep: str | None = None,
) -> Leaderboard:
    """Read a directory of per-model result files (``<model>.json`` / ``<model>.csv``) as a leaderboard.

    Parameters
    ----------
    path : str, Path or list of them
        The directory (not searched recursively), or a list of files.
    metric : str, optional
        The metric the scores are in (``"accuracy"``): its direction is the direction of
        every task that is neither named in `higher_is_better` / `lower_is_better` nor itself
        named like a known metric (a task ``latency_s`` is a latency). It must be a known
        metric (:func:`~consensus.formats.metrics.metric_direction`).
    higher_is_better, lower_is_better : list of str
        Tasks whose direction is given.
    exclude : list of str, optional
        Leave out these tasks (with a note), before metrics are chosen and values read: a
        task whose scores are infinite or null for every model can be dropped this way.
    task_column, score_column : str
        See :func:`read_model_file`.
    sep : str, optional
        The CSV delimiter.

    Returns
    -------
    Leaderboard
        Models (file names without extension, in sorted file order) x tasks (in order of
        first appearance); notes state skipped files, missing scores and directions.

    Raises
    ------
    FormatError
        See :func:`read_model_file`.
    MetricDirectionError
        A task's direction is neither given nor known (all such tasks listed), or `metric` is
        not a known metric.
    DuplicateResultError
        Two files name the same model (``m.json`` and ``m.csv``).
    LeaderboardError
        No result file, or fewer than 2 models.

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> _ = open(os.path.join(folder, "model-a.json"), "w").write('{"qa": 0.71, "latency": 30}')
    >>> _ = open(os.path.join(folder, "model-b.csv"), "w").write("task,score\\nqa,0.68\\nlatency,10\\n")
    >>> lb = read_model_dir(folder, higher_is_better=["qa"])
    >>> lb.scores
               qa  latency
    model-a  0.71     30.0
    model-b  0.68     10.0
    >>> sorted(lb.lower_is_better)
    ['latency']
    """
    if metric is not None and (not isinstance(metric, str) or metric_direction(metric) is None):
        from .errors import MetricDirectionError

        if not isinstance(metric, str):
            raise InvalidOptionError(f"metric must be a metric name, got {metric!r}")
        raise MetricDirectionError([metric], named("metric", equals=True),
                                   hint=hinted("leave {} and list the tasks", call("metric=None", "out --metric")))
    notes: list[str] = []
    if isinstance(path, (list, tuple)):
        bad = [p for p in path if not isinstance(p, (str, Path))]
        if bad:
            raise InvalidOptionError(f"path: a list of file paths, got an element {bad[0]!r}")
        files = [Path(p) for p in path]
    elif isinstance(path, (str, Path)) and Path(path).is_dir():
        files = sorted(p for p in Path(path).iterdir() if p.is_file())
        skipped = [p.name for p in files if _kind(p)[0] is None]
        if skipped:
            notes.append(f"skipped {len(skipped)} file(s) that are not .json/.csv/.tsv/.txt: {shortlist(skipped, 4)}")
        files = [p for p in files if _kind(p)[0] is not None]
    else:
        raise LeaderboardError(f"{str(path)!r} is not a directory: pass the directory of per-model files or a list of them")
    if not files:
        raise LeaderboardError(f"no .json, .csv, .tsv or .txt result files in {str(path)!r}")
    entries: list[ResultEntry] = []
    models: dict[str, Path] = {}
    for f in files:
        _, model = _kind(f)
        if model in models:
            raise FormatError(f, f"names model {model!r}, as {str(models[model])!r} does; keep one file per model")
        models[model] = f
        scores = read_model_file(f, task_column=task_column, score_column=score_column, sep=sep)
        # a task named like a known metric ("latency_s") is scored in that metric; the others in `metric`
        entries.extend(ResultEntry(model, task, {task if metric_direction(task) else metric or "": value}, str(f))
                       for task, value in scores.items())
    given = set(check_names(higher_is_better, "higher_is_better")) | set(check_names(lower_is_better, "lower_is_better"))
    if metric is not None:
        tasks = list(dict.fromkeys(e.task for e in entries if e.task not in given and not metric_direction(e.task)))
        notes.append(hinted("{} given: the metric of {} task(s)", option("metric", metric), len(tasks)))
    return entries_to_leaderboard(entries, higher_is_better=higher_is_better, lower_is_better=lower_is_better,
                                  notes=notes, hint="name each model's file once", exclude=exclude)
