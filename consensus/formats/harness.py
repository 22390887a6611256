"""Results of EleutherAI's lm-evaluation-harness: aggregated ``results_*.json`` and per-sample logs.

``lm_eval --output_path OUT --log_samples`` writes, per model, into
``OUT/<model_name_sanitized>/`` (the model name with ``/`` and other path characters replaced
by ``__``):

- ``results_<timestamp>.json``: one object per run, read by :func:`read_harness_results`::

      {"results": {"arc_easy": {"alias": "arc_easy", "acc,none": 0.75, "acc_stderr,none": 0.02,
                                "acc_norm,none": 0.70, "acc_norm_stderr,none": 0.02}, ...},
       "group_subtasks": {"arc_easy": []}, "higher_is_better": {"arc_easy": {"acc": true, ...}},
       "config": {"model": "hf", "model_args": "pretrained=EleutherAI/pythia-160m", ...},
       "model_name": "EleutherAI/pythia-160m", ...}

  Metric keys are ``"metric,filter"`` (``"exact_match,strict-match"``); ``*_stderr`` keys
  are standard errors, not scores, and are skipped with a note.
- ``samples_<task>_<timestamp>.jsonl``: one JSON object per line and per filter, read by
  :func:`read_harness_samples`::

      {"doc_id": 0, "doc": {...}, "target": "...", "arguments": {...}, "resps": [...],
       "filtered_resps": [...], "filter": "none", "metrics": ["acc", "acc_norm"],
       "doc_hash": "...", "prompt_hash": "...", "target_hash": "...", "acc": 1.0, "acc_norm": 0.0}

  The task is the file name between ``samples_`` and the last ``_`` (as lm-evaluation-harness
  itself parses it); the timestamp has no underscore.

The model of a results file is its ``model_name`` field, else the ``pretrained=`` (``peft=``,
``model=``, ...) value of ``config.model_args`` as lm-evaluation-harness extracts it, else the
name of the directory holding the file; a samples file takes the model of the results files
beside it (the same directory), else the directory name. Notes state which.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, UnknownTaskError
from ..hints import hinted, named, option
from .errors import DuplicateResultError, FormatError, MetricDirectionError
from .files import PathSpec, find_files, json_lines, load_json
from .metrics import direction_of, is_stderr, normalize_metric, split_filter
from .records import (
    MetricSpec,
    ResultEntry,
    check_names,
    check_wanted,
    entries_to_leaderboard,
    shortlist,
)

__all__ = ["read_harness_results", "read_harness_samples", "HarnessSamples", "SAMPLE_COLUMNS", "harness_task", "harness_model"]

logger = logging.getLogger(__name__)

_STAMP = r"(?P<stamp>\d{4}-\d{2}-\d{2}T[0-9.\-]+)"
_SAMPLES = re.compile(rf"samples_(?P<task>.+)_{_STAMP}\.jsonl")
_RESULTS = re.compile(rf"results_{_STAMP}\.json")
#: Keys of a task's results that are not metrics.
_NOT_METRICS = frozenset({"alias", "samples", "name", "sample_len", "sample_count"})
#: Keys of a sample line that are not metrics.
_SAMPLE_FIELDS = frozenset({"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics",
                            "doc_hash", "prompt_hash", "target_hash"})
#: ``model_args`` keys naming the model, in lm-evaluation-harness's order (peft and delta come with pretrained).
_MODEL_KEYS = ("peft", "delta", "pretrained", "model", "path", "engine")
_LATEST_HINT = hinted("pass {} to keep the newest run (by the time stamp in the file name), or remove one",
                      option("latest", True))


def harness_task(path: str | Path) -> tuple[str, str]:
    """The task and time stamp of a ``samples_<task>_<timestamp>.jsonl`` file name.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    (str, str)
        The task (everything between ``samples_`` and the time stamp) and the time stamp.

    Raises
    ------
    FormatError
        The name does not have that shape.

    Examples
    --------
    >>> harness_task("out/m/samples_arc_easy_2024-05-01T12-00-00.123456.jsonl")
    ('arc_easy', '2024-05-01T12-00-00.123456')
    """
    found = _SAMPLES.fullmatch(Path(path).name)
    if found is None:
        raise FormatError(path, "the file name is not samples_<task>_<timestamp>.jsonl as lm-evaluation-harness "
                          "writes it; rename it, or name the model's files so")
    return found["task"], found["stamp"]


def harness_model(data: Mapping[str, Any], path: str | Path) -> tuple[str, str]:
    """The model a results file is about, and where that name comes from.

    Parameters
    ----------
    data : Mapping
        The parsed ``results_*.json``.
    path : str or Path
        The file (its directory name is the last resort).

    Returns
    -------
    (str, str)
        The model and its source: ``"model_name"``, ``"config.model_args"`` or
        ``"directory name"``.

    Examples
    --------
    >>> harness_model({"config": {"model_args": "pretrained=EleutherAI/pythia-160m,dtype=float16"}}, "o/x/r.json")
    ('EleutherAI/pythia-160m', 'config.model_args')
    """
    name = data.get("model_name")
    if isinstance(name, str) and name.strip():
        return name.strip(), "model_name"
    config = data.get("config")
    args = config.get("model_args") if isinstance(config, Mapping) else None
    if isinstance(args, Mapping):
        args = ",".join(f"{k}={v}" for k, v in args.items())
    if isinstance(args, str):
        for key in _MODEL_KEYS:
            if f"{key}=" in args:
                value = args.split(f"{key}=", 1)[1].split(",", 1)[0].strip()
                if value:
                    return value, "config.model_args"
    return Path(path).parent.name, "directory name"


def _stamp(path: Path) -> str:
    found = _RESULTS.fullmatch(path.name) or _SAMPLES.fullmatch(path.name)
    return found["stamp"] if found else ""


def _keep_latest(entries: list[tuple[str, Any]], latest: bool, key: Any, notes: list[str]) -> list[Any]:
    """One item per key: all when no key repeats; else the newest stamp if `latest`, else an error."""
    groups: dict[Any, list[tuple[str, Any]]] = {}
    for stamp, item in entries:
        groups.setdefault(key(item), []).append((stamp, item))
    kept, skipped = [], []
    for k, items in groups.items():
        if len(items) > 1 and not latest:
            first, second = items[0][1], items[1][1]
            raise DuplicateResultError(k[0], k[1], [first.path, second.path], hint=_LATEST_HINT)
        items.sort(key=lambda pair: pair[0])
        kept.append(items[-1][1])
        skipped += [f"{item.path} ({k[0]}/{k[1]})" for _, item in items[:-1]]
    if skipped:
        notes.append(hinted("{}: kept the newest run of each model and task, skipped {}", option("latest", True),
                            shortlist(skipped, 4)))
    order = {id(item): n for n, (_, item) in enumerate(entries)}
    return sorted(kept, key=lambda item: order[id(item)])


def read_harness_results(
    path: PathSpec,
    *,
    metric: MetricSpec = None,
    tasks: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    include_groups: bool = False,
    latest: bool = False,
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
) -> Leaderboard:
    """Read lm-evaluation-harness ``results_<timestamp>.json`` files (one or more per model) as a leaderboard.

    Parameters
    ----------
    path : str, Path or list of them
        The harness's ``--output_path`` directory (searched recursively for
        ``results_*.json``), a glob, or a list of files.
    metric : str, list of str or Mapping, optional
        The metric read for each task: ``"acc"`` (any single filter) or
        ``"exact_match,strict-match"``; a list is a preference order (``["acc_norm",
        "acc"]``: the first one every model has for the task); a mapping gives it per task.
        Default: a task's only metric (after skipping standard errors); a task with several
        is an error listing them.
    tasks : list of str, optional
        Read only these tasks (the others are skipped, with a note).
    exclude : list of str, optional
        Leave out these tasks (with a note), before metrics are chosen and values read: a
        task whose scores are infinite or null for every model can be dropped this way.
    include_groups : bool, default=False
        Keep group aggregates (``mmlu`` over its subtasks, from ``group_subtasks`` /
        ``groups``). By default they are excluded, with a note, so that a subtask does not
        count twice.
    latest : bool, default=False
        When two results files give a model's score on a task, keep the newest (by the time
        stamp in the file name) with a note; by default this is an error naming both files.
    higher_is_better, lower_is_better : list of str
        Directions of metrics (or tasks) that are neither declared by the files
        (``higher_is_better``) nor known (:func:`~consensus.formats.metrics.metric_direction`);
        they also override both.

    Returns
    -------
    Leaderboard
        Models x tasks; :attr:`~consensus.Leaderboard.notes` state where model names come
        from, skipped standard errors and groups, the metric read and each direction.

    Raises
    ------
    FormatError
        A file is not JSON, has no ``results`` object, a task lacks the metric, or a value is
        not a number (naming the file and field).
    DuplicateResultError
        Two files give the same model a score on the same task (without `latest`).
    MetricDirectionError
        A metric's direction is unknown (lists them all).
    UnknownTaskError
        `tasks` or `metric` name a task no file has.
    LeaderboardError
        No results file is found, or the scores do not form a leaderboard (fewer than 2
        models, ...).

    Examples
    --------
    >>> import json, os, tempfile
    >>> out = tempfile.mkdtemp()
    >>> for model, acc in (("org/a", 0.5), ("org/b", 0.75)):
    ...     folder = os.path.join(out, model.replace("/", "__"))
    ...     os.makedirs(folder)
    ...     run = {"results": {"arc_easy": {"alias": "arc_easy", "acc,none": acc, "acc_stderr,none": 0.01}},
    ...            "model_name": model}
    ...     _ = open(os.path.join(folder, "results_2024-05-01T12-00-00.000001.json"), "w").write(json.dumps(run))
    >>> lb = read_harness_results(out)
    >>> lb.scores
           arc_easy
    org/a      0.50
    org/b      0.75
    >>> lb.notes[0]
    "kept 2 standard-error entries beside the scores, not as scores (for significance): 'acc_stderr,none'"
    >>> lb.stderr
           arc_easy
    org/a      0.01
    org/b      0.01
    """
    wanted = None if tasks is None else check_names(tasks, "tasks")
    notes: list[str] = []
    stderr: list[str] = []
    groups_skipped: set[str] = set()
    unwanted: set[str] = set()
    sources: dict[str, list[str]] = {}
    found_tasks: list[str] = []
    entries: list[tuple[str, ResultEntry]] = []
    limited: dict[str, list[str]] = {}
    models_seen: set[str] = set()
    for f in find_files(path, "results_*.json", what="lm-evaluation-harness results files"):
        data = load_json(f)
        results = data.get("results") if isinstance(data, dict) else None
        if not isinstance(results, dict):
            raise FormatError(f, "no 'results' object: not an lm-evaluation-harness results file", field="results")
        model, source = harness_model(data, f)
        sources.setdefault(source, []).append(model)
        limit = _limit_of(data)
        if limit:
            limited.setdefault(model, []).append(limit)
        models_seen.add(model)
        group_names = {g for g, subs in (data.get("group_subtasks") or {}).items() if subs} | set(data.get("groups") or {})
        declared_all = data.get("higher_is_better") if isinstance(data.get("higher_is_better"), dict) else {}
        for task, values in results.items():
            found_tasks.append(task)
            if not isinstance(values, dict):
                raise FormatError(f, f"results of task {task!r} are not an object", field=task)
            if task in group_names and not include_groups:
                groups_skipped.add(task)
                continue
            if wanted is not None and task not in wanted:
                unwanted.add(task)
                continue
            metrics = {}
            errors = {}
            for key, value in values.items():
                if key in _NOT_METRICS:
                    continue
                if is_stderr(key):
                    stderr.append(key)
                    errors[key] = value
                    continue
                metrics[key] = value
            given_declared = declared_all.get(task)
            declared = given_declared if isinstance(given_declared, dict) else {}
            declared = {normalize_metric(k): v for k, v in declared.items() if isinstance(v, bool)}
            entries.append((_stamp(f), ResultEntry(model, task, metrics, str(f), declared, stderr=errors)))
    check_wanted(wanted, found_tasks)
    for source, models in sources.items():
        if source != "model_name":
            notes.append(f"model name(s) taken from the {source}: {shortlist(dict.fromkeys(models), 4)}")
    if stderr:
        notes.append(f"kept {len(stderr)} standard-error entries beside the scores, not as scores (for "
                     f"significance): {shortlist(dict.fromkeys(stderr), 4)}")
    if groups_skipped:
        notes.append(hinted("excluded group aggregate(s) {} (their subtasks are tasks); pass {} to keep them",
                            shortlist(sorted(groups_skipped), 5), option("include_groups", True)))
    if unwanted:
        notes.append(hinted("skipped task(s) not in {}: {}", named("tasks", equals=True), shortlist(sorted(unwanted), 5)))
    if limited:
        shown = ", ".join(f"{m!r} ({'; '.join(dict.fromkeys(v))})" for m, v in list(limited.items())[:3])
        rest = len(models_seen) - len(limited)
        notes.append(f"scores of {len(limited)} model(s) are on a subset of each task's items (lm-evaluation-harness "
                     f"--limit): {shown}{', ...' if len(limited) > 3 else ''}; such scores are noisier"
                     + (f", and not comparable with the {rest} model(s) run on every item" if rest else ""))
    kept = _keep_latest(entries, latest, lambda e: (e.system, e.task), notes)
    return entries_to_leaderboard(kept, metric=metric, higher_is_better=higher_is_better,
                                  lower_is_better=lower_is_better, notes=notes, hint=_LATEST_HINT, exclude=exclude)


def _limit_of(data: Mapping[str, Any]) -> str:
    """How a results file limited its items (``config.limit``, ``n-samples`` effective < original), or ""."""
    given_config = data.get("config")
    config = given_config if isinstance(given_config, Mapping) else {}
    limit = config.get("limit")
    said = f"limit={limit:g}" if isinstance(limit, (int, float)) and not isinstance(limit, bool) and limit > 0 else ""
    given_samples = data.get("n-samples")
    samples = given_samples if isinstance(given_samples, Mapping) else {}
    cut = [(t, n) for t, n in samples.items() if isinstance(n, Mapping) and isinstance(n.get("effective"), int)
           and isinstance(n.get("original"), int) and n["effective"] < n["original"]]
    if cut:
        task, n = cut[0]
        said += (", " if said else "") + f"{task!r}: {n['effective']} of {n['original']} items" + (
            f" and {len(cut) - 1} more task(s)" if len(cut) > 1 else "")
    return said


def _results_models(folder: Path) -> set[str]:
    """The model names of the results files in `folder` (not below it)."""
    names = set()
    for f in sorted(folder.glob("results_*.json")):
        data = load_json(f)
        if isinstance(data, dict):
            name, source = harness_model(data, f)
            if source != "directory name":
                names.add(name)
    return names


def _sample_value(value: object, path: Path, line: int, metric: str) -> tuple[float, bool]:
    """A per-sample metric value: (score, was a boolean); NaN for null."""
    if isinstance(value, bool):
        return float(value), True
    if value is None:
        return float("nan"), False
    if isinstance(value, (int, float)):
        return float(value), False
    kind = "a list" if isinstance(value, list) else type(value).__name__
    raise FormatError(path, f"metric {metric!r} holds {kind} per sample, not a score (lm-evaluation-harness "
                      "aggregates such metrics, e.g. bleu or perplexity, over the whole task); choose another metric",
                      field=metric, line=line)


def _read_samples_file(path: Path, metric: str) -> tuple[list[tuple[Any, float]], str, int, int]:
    """(doc_id, score) pairs of one samples file for `metric` (``name`` or ``name,filter``), the filter
    read, and the counts of booleans and nulls."""
    name, want_filter = split_filter(metric)
    by_filter: dict[str, dict[Any, tuple[int, float, bool]]] = {}
    available: list[str] = []
    for line, obj in json_lines(path):
        if not isinstance(obj, dict):
            raise FormatError(path, "a line is not a JSON object", line=line)
        if "doc_id" not in obj:
            raise FormatError(path, "no 'doc_id'", field="doc_id", line=line)
        if not available:
            listed = obj.get("metrics")
            available = list(listed) if isinstance(listed, list) else [k for k in obj if k not in _SAMPLE_FIELDS]
        keys = [k for k in obj if k not in _SAMPLE_FIELDS and k.lower() == name.lower()]
        if not keys:
            continue
        filt = str(obj.get("filter", "none"))
        doc_id = obj["doc_id"]
        if isinstance(doc_id, (dict, list)) or doc_id is None:
            raise FormatError(path, f"doc_id {doc_id!r} is not an id", field="doc_id", line=line)
        rows = by_filter.setdefault(filt, {})
        if doc_id in rows:
            raise FormatError(path, f"doc_id {doc_id!r} appears again (first on line {rows[doc_id][0]}) for filter {filt!r}",
                              field="doc_id", line=line)
        value, was_bool = _sample_value(obj[keys[0]], path, line, keys[0])
        rows[doc_id] = (line, value, was_bool)
    if not by_filter:
        raise FormatError(path, f"no metric {name!r} in any sample; its metrics are {shortlist(available, 10)}", field=name)
    if want_filter is None:
        if len(by_filter) > 1:
            options = [f"{name},{f}" for f in by_filter]
            raise FormatError(path, hinted("metric {!r} is logged under filters {}; pass {} (or another of {})", name,
                                           shortlist(list(by_filter)), option("metric", options[0]), shortlist(options)),
                              field=name)
        want_filter = next(iter(by_filter))
    if want_filter not in by_filter:
        raise FormatError(path, f"no sample has filter {want_filter!r} for metric {name!r}; its filters are "
                          f"{shortlist(list(by_filter))}", field="filter")
    rows = by_filter[want_filter]
    pairs = [(doc, value) for doc, (_, value, _) in rows.items()]
    n_bool = sum(1 for _, _, b in rows.values() if b)
    n_null = sum(1 for _, v, _ in rows.values() if math.isnan(v))
    return pairs, want_filter, n_bool, n_null


def read_harness_samples(
    path: PathSpec,
    *,
    metric: str | Mapping[str, str],
    model: str | None = None,
    tasks: Iterable[str] | None = None,
    latest: bool = False,
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
    notes: list[str] | None = None,
) -> InstanceScores:
    """Read lm-evaluation-harness ``--log_samples`` files as instance-level scores.

    System = model, task = the task of the file name, instance = ``doc_id``; the score is the
    sample's value of `metric` (see the module docs for the file shape and the model name).

    Parameters
    ----------
    path : str, Path or list of them
        The harness's ``--output_path`` directory (searched recursively for
        ``samples_*.jsonl``), one model's directory, a glob, or a list of files.
    metric : str or Mapping
        The per-sample metric: ``"acc"``, or with a filter ``"exact_match,strict-match"``
        (required when a task logs several filters); a mapping gives it per task.
    model : str, optional
        The model of every file (only when they are all one model's); default: see the
        module docs.
    tasks : list of str, optional
        Read only these tasks.
    latest : bool, default=False
        When two files give a model's samples of a task, keep the newest (by the time stamp
        in the file name); by default this is an error naming both files.
    higher_is_better, lower_is_better : list of str
        Directions of metrics (or tasks) that :func:`~consensus.formats.metrics.metric_direction`
        does not know (they also override it).
    notes : list, optional
        :class:`~consensus.InstanceScores` has no notes: when a list is given, the notes
        (model-name source, filter read, booleans read as 1/0, nulls kept missing, files
        skipped) are appended to it. They are also logged (INFO).

    Returns
    -------
    InstanceScores
        Models x (task, doc_id); lower-is-better tasks marked.

    Raises
    ------
    FormatError
        A file name is not ``samples_<task>_<timestamp>.jsonl``; a line is not JSON (naming
        the line), has no ``doc_id``, repeats one, or holds a non-score for the metric; no
        sample has the metric; the metric is logged under several filters and none was given.
    DuplicateResultError
        Two files hold one model's samples of one task (without `latest`).
    MetricDirectionError
        The metric's direction is unknown.
    InvalidOptionError
        `model` is given while the files are in several model directories.
    UnknownTaskError
        `tasks` names a task no file has.
    LeaderboardError
        No samples file is found, or the scores are not valid instance scores (fewer than 2
        models, a task where no model has a score, ...).

    Examples
    --------
    >>> import json, os, tempfile
    >>> out = tempfile.mkdtemp()
    >>> for model, accs in (("org__a", [1.0, 0.0]), ("org__b", [1.0, 1.0])):
    ...     os.makedirs(os.path.join(out, model))
    ...     lines = [json.dumps({"doc_id": i, "filter": "none", "metrics": ["acc"], "acc": a})
    ...              for i, a in enumerate(accs)]
    ...     name = os.path.join(out, model, "samples_arc_easy_2024-05-01T12-00-00.000001.jsonl")
    ...     _ = open(name, "w").write("\\n".join(lines) + "\\n")
    >>> said = []
    >>> scores = read_harness_samples(out, metric="acc", notes=said)
    >>> scores.task_frame("arc_easy")
              0    1
    org__a  1.0  0.0
    org__b  1.0  1.0
    >>> said[0]
    "model name(s) taken from the directory name: 'org__a', 'org__b'"
    """
    if notes is not None and not isinstance(notes, list):
        raise InvalidOptionError(f"notes must be a list (the notes are appended to it), got {type(notes).__name__}")
    plan = HarnessSamples(path, metric=metric, model=model, tasks=tasks, latest=latest,
                          higher_is_better=higher_is_better, lower_is_better=lower_is_better)
    frames = [frame for _, frame in plan.frames()]
    lower_tasks = plan.finish()
    frame = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(SAMPLE_COLUMNS))
    scores = InstanceScores.from_long(frame, lower_is_better=lower_tasks)
    for text in plan.notes:
        logger.info("%s", text)
    if notes is not None:
        notes.extend(plan.notes)
    return scores


#: The columns of :meth:`HarnessSamples.frames`.
SAMPLE_COLUMNS = ("system", "task", "instance", "score")


class HarnessSamples:
    """lm-evaluation-harness ``--log_samples`` files, read one file at a time (what
    :func:`read_harness_samples` reads whole; :class:`~consensus.missing.InstanceSource` with
    ``layout="harness-samples"`` streams them in bounded memory).

    Parameters
    ----------
    path, metric, model, tasks, latest, higher_is_better, lower_is_better
        As :func:`read_harness_samples`. The files, their models and tasks are found (and the
        options checked) when the object is made; the samples are read by :meth:`frames`.

    Attributes
    ----------
    files : list of str
        The samples files to read, in reading order.
    notes : list of str
        What was decided (model-name source, filters read, ...), complete after :meth:`finish`.
    """

    def __init__(
        self,
        path: PathSpec,
        *,
        metric: str | Mapping[str, str],
        model: str | None = None,
        tasks: Iterable[str] | None = None,
        latest: bool = False,
        higher_is_better: Iterable[str] = (),
        lower_is_better: Iterable[str] = (),
    ) -> None:
        if model is not None and not isinstance(model, str):
            raise InvalidOptionError(f"model must be a name, got {model!r}")
        if not isinstance(metric, (str, Mapping)):
            raise InvalidOptionError(f"metric must be a metric name or a mapping task -> name, got {metric!r}")
        wanted = None if tasks is None else check_names(tasks, "tasks")
        higher = check_names(higher_is_better, "higher_is_better")
        lower = check_names(lower_is_better, "lower_is_better")
        said: list[str] = []
        files = find_files(path, "samples_*.jsonl", what="lm-evaluation-harness samples files")
        if isinstance(metric, Mapping):
            all_tasks = list(dict.fromkeys(harness_task(f)[0] for f in files))
            for task in metric:
                if task not in all_tasks:
                    raise UnknownTaskError(task, all_tasks, "metric=")
        folders = list(dict.fromkeys(f.parent for f in files))
        if model is not None and len(folders) > 1:
            raise InvalidOptionError(f"model={model!r} names one model, but the files are in {len(folders)} directories "
                                     f"({shortlist([d.name for d in folders], 3)}): leave model=None")
        names: dict[Path, str] = {}
        from_dir: list[str] = []
        from_results: list[str] = []
        for folder in folders:
            if model is not None:
                names[folder] = model
                continue
            found = sorted(_results_models(folder))
            if len(found) > 1:
                raise FormatError(folder, f"the results files here name several models ({shortlist(found)}); "
                                  "keep one model's files per directory")
            names[folder] = found[0] if found else folder.name
            (from_results if found else from_dir).append(names[folder])
        if from_dir:
            said.append(f"model name(s) taken from the directory name: {shortlist(from_dir, 4)}")
        if from_results:
            said.append(f"model name(s) taken from model_name of the results_*.json beside the samples: "
                        f"{shortlist(from_results, 4)}")
        items, found_tasks = [], []
        for f in files:
            task, stamp = harness_task(f)
            found_tasks.append(task)
            if wanted is None or task in wanted:
                items.append((stamp, ResultEntry(names[f.parent], task, {}, str(f))))
        check_wanted(wanted, found_tasks)
        if wanted is not None:
            if set(found_tasks) - set(wanted):
                said.append(hinted("skipped task(s) not in {}: {}", named("tasks", equals=True),
                                   shortlist(sorted(set(found_tasks) - set(wanted)), 5)))
        kept = _keep_latest(items, latest, lambda e: (e.system, e.task), said)
        self.path, self.metric, self.higher, self.lower = path, metric, higher, lower
        self.kept, self.notes = kept, said
        self.files = [entry.path for entry in kept]
        self._filters: dict[tuple[str, str, str], None] = {}  # (task, metric, filter), in reading order
        self._lower_tasks: list[str] = []
        self._unknown: list[str] = []
        self._counts = [0, 0]  # booleans, nulls

    def frames(self) -> Iterator[tuple[int, pd.DataFrame]]:
        """Each file's samples, in :attr:`files` order: ``(file index, frame)`` with the columns
        :data:`SAMPLE_COLUMNS` (model, task, ``doc_id``, the metric's value).

        Yields
        ------
        (int, pandas.DataFrame)

        Raises
        ------
        FormatError
            As :func:`read_harness_samples`.
        """
        metric, higher, lower = self.metric, self.higher, self.lower
        for k, entry in enumerate(self.kept):
            task_metric = metric if isinstance(metric, str) else metric.get(entry.task)
            if not isinstance(task_metric, str):
                raise FormatError(entry.path, hinted("{} gives no metric for task {!r}", named("metric", equals=True),
                                                     entry.task), field=entry.task)
            pairs, filt, b, n = _read_samples_file(Path(entry.path), task_metric)
            self._counts[0] += b
            self._counts[1] += n
            self._filters.setdefault((entry.task, split_filter(task_metric)[0], filt), None)
            way, _ = direction_of(entry.task, task_metric, higher=higher, lower=lower)
            if way is None:
                self._unknown.append(split_filter(task_metric)[0])
            elif way == "lower" and entry.task not in self._lower_tasks:
                self._lower_tasks.append(entry.task)
            yield k, pd.DataFrame({"system": entry.system, "task": entry.task,
                                   "instance": [doc for doc, _ in pairs], "score": [v for _, v in pairs]},
                                  columns=list(SAMPLE_COLUMNS))

    def finish(self) -> list[str]:
        """After :meth:`frames`: check what was read together, complete :attr:`notes`.

        Returns
        -------
        list of str
            The lower-is-better tasks.

        Raises
        ------
        MetricDirectionError, FormatError, UnknownTaskError
            As :func:`read_harness_samples`.
        """
        filters, path, files = self._filters, self.path, self.files
        higher, lower, said = self.higher, self.lower, self.notes
        n_bool, n_null = self._counts
        unknown = self._unknown
        read = [t for t, _, _ in filters] + [m for _, m, _ in filters]
        for name in higher + lower:
            if name not in read and normalize_metric(name) not in {normalize_metric(m) for m in read}:
                raise UnknownTaskError(name, list(dict.fromkeys(read)), "higher_is_better / lower_is_better")
        if unknown:
            raise MetricDirectionError(list(dict.fromkeys(unknown)))
        by_task: dict[str, list[str]] = {}
        for task, _, filt in filters:
            by_task.setdefault(task, []).append(filt)
        mixed = {t: fs for t, fs in by_task.items() if len(fs) > 1}
        if mixed:
            task, fs = next(iter(mixed.items()))
            raise FormatError(path if isinstance(path, (str, Path)) else files[0],
                              hinted("task {!r} would be read under different filters ({}) for different models; "
                                     "pass {} with the filter, e.g. {!r}: '<metric>,{}'", task, shortlist(fs),
                                     named("metric", equals=True), task, fs[0]), field="filter")
        said.append("read " + "; ".join(f"{t}: {m} (filter {f!r})" for t, m, f in filters))
        if n_bool:
            said.append(f"{n_bool} boolean metric value(s) read as 1 (true) and 0 (false)")
        if n_null:
            said.append(f"{n_null} null metric value(s) kept as missing scores")
        return list(self._lower_tasks)
