"""MTEB results: ``results/<model>/<revision>/<TaskName>.json``, as ``mteb`` (1.11 and later) writes them.

Each task file is a ``TaskResult``::

    {"dataset_revision": "0fd18e25b25c072e09e0d92ab615fda904d66300",
     "task_name": "Banking77Classification", "mteb_version": "1.12.0",
     "scores": {"test": [{"accuracy": 0.81, "f1": 0.80, "main_score": 0.81,
                          "hf_subset": "default", "languages": ["eng-Latn"]}]},
     "evaluation_time": 12.3, "kg_co2_emissions": null}

``scores`` maps each split to one entry per Hugging Face subset (a language or language pair of
a multilingual task). The task's score is ``main_score`` averaged over the subsets of the
chosen split, unweighted, as ``mteb``'s ``TaskResult.get_score`` does (``np.mean`` over the
entries); the average is stated in a note, and every model must have the same subsets of a
task (otherwise the averages are not comparable: an error, or pass ``subsets=``). A
``main_score`` of ``null`` is a missing score. MTEB's main scores (accuracy, F1, AP,
V-measure, Spearman, nDCG@10, MAP, ...) are all higher-is-better.

The model is ``name`` in ``model_meta.json`` beside the task files, else the model directory
name with ``__`` read as ``/`` (how ``mteb`` names it), stated in a note. A model with results
for several revisions must be told which one to read (``revision=``).

**Every layout of the public results repository is read, without mteb installed.** Older models
there have their task files directly in the model directory (``results/<model>/<Task>.json``, no
revision directory), written by mteb before 1.11 in its legacy shape::

    {"mteb_dataset_name": "SciFact", "mteb_version": "1.0.2", "dataset_revision": "...",
     "test": {"ndcg_at_10": 0.64, "map_at_10": 0.59, ..., "evaluation_time": 21.3}}

(splits at the top level; a multilingual task has one object per language inside the split,
``{"test": {"en": {...}, "de": {...}}}``; no ``main_score``). mteb itself converts such a file
with its registry of tasks; here the main score is chosen by the metrics the file holds, which
identify its task type, with the main score mteb's task types define: ``ndcg_at_10``
(retrieval), ``cos_sim.spearman`` (STS, summarization), ``max.ap`` else ``cos_sim.ap`` (pair
classification; mteb 1.12.48 and later read ``max_ap``), ``v_measure`` (clustering), ``map``
(reranking), ``f1`` (bitext mining: precision, recall and f1), ``accuracy`` (classification).
A legacy file that already holds ``main_score`` keeps it. The choice is stated per task; a task
whose legacy files give different metrics, or a file whose metrics fit no type, is an error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, LeaderboardError, UnknownTaskError
from ..hints import hinted, option
from .errors import FormatError
from .files import load_json
from .records import (
    ResultEntry,
    check_names,
    check_wanted,
    entries_to_leaderboard,
    number_or_none,
    shortlist,
)

__all__ = ["read_mteb", "mteb_model"]

_OLD_FORMAT_HINT = (
    "it was written by mteb before 1.11 (no 'scores' field); load and save it again with a recent mteb "
    "(mteb.TaskResult.from_disk(path).to_disk(path) converts it), or re-run the evaluation"
)

#: Top-level keys of a legacy (mteb < 1.11) file that are not splits.
_LEGACY_META = {"mteb_dataset_name", "mteb_version", "dataset_revision", "evaluation_time", "kg_co2_emissions"}
#: Keys of a legacy split object that hold one metric family, not a language subset (as mteb's converter).
_LEGACY_FAMILIES = {"cos_sim": "cosine", "euclidean": "euclidean", "manhattan": "manhattan", "dot": "dot",
                    "max": "max", "similarity": "similarity"}
#: (metrics that identify a task type, its main score, the type): checked in this order.
_LEGACY_MAIN: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("main_score",), "main_score", "given in the file"),
    (("ndcg_at_10",), "ndcg_at_10", "retrieval"),
    (("cosine_spearman",), "cosine_spearman", "STS, summarization"),
    (("max_ap",), "max_ap", "pair classification"),
    (("cosine_ap",), "cosine_ap", "pair classification"),
    (("v_measure",), "v_measure", "clustering"),
    (("map", "mrr"), "map", "reranking"),
    (("precision", "recall", "f1"), "f1", "bitext mining"),
    (("accuracy",), "accuracy", "classification"),
)


def _legacy_subset(scores: dict[str, Any], f: Path, where: str) -> tuple[Any, str]:
    """The main score of one legacy subset object and the metric it is (flattened as mteb's converter)."""
    flat = {k: v for k, v in scores.items() if k not in _LEGACY_FAMILIES}
    for family, prefix in _LEGACY_FAMILIES.items():
        if isinstance(scores.get(family), dict):
            flat.update({f"{prefix}_{k}": v for k, v in scores[family].items()})
    for needed, main, kind in _LEGACY_MAIN:
        if all(k in flat for k in needed):
            return flat[main], f"{main} ({kind})"
    raise FormatError(f, f"{where}: a legacy (mteb < 1.11) result whose metrics ({shortlist(sorted(flat), 5)}) fit no "
                      f"MTEB task type, so its main score is unknown; {_OLD_FORMAT_HINT}", field="main_score")


def _legacy_split(data: dict, f: Path, split: str | Sequence[str]) -> tuple[str, list[dict[str, Any]], str]:
    """A legacy (mteb < 1.11) file's split as subset entries (``hf_subset``, ``main_score``) and the metric read."""
    splits = {k: v for k, v in data.items() if k not in _LEGACY_META and isinstance(v, dict)}
    for name in ([split] if isinstance(split, str) else split):
        if name in splits:
            break
    else:
        asked = shortlist([split] if isinstance(split, str) else split)
        raise FormatError(f, hinted("no split {}; its splits are {}: pass {}", asked, shortlist(sorted(splits)),
                                    option("split")), field=str(split))
    body = {k: v for k, v in splits[name].items() if k != "evaluation_time"}
    subsets = {k: v for k, v in body.items() if isinstance(v, dict) and k not in _LEGACY_FAMILIES and k != "v_measures"}
    if not subsets:
        subsets = {"default": body}
    entries, metrics = [], set()
    for subset, scores in subsets.items():
        value, metric = _legacy_subset(scores, f, f"split {name!r}, subset {subset!r}")
        entries.append({"hf_subset": subset, "main_score": value})
        metrics.add(metric)
    if len(metrics) > 1:
        raise FormatError(f, f"split {name!r}: its subsets hold different metrics ({shortlist(sorted(metrics))})",
                          field="main_score")
    return name, entries, metrics.pop()


def mteb_model(revision_dir: Path, model_dir: Path | None = None) -> tuple[str, str]:
    """The model of a ``<model>/<revision>/`` directory, and where the name comes from.

    Parameters
    ----------
    revision_dir : Path
        The directory holding the task files and ``model_meta.json``.
    model_dir : Path, optional
        The directory named after the model; default ``revision_dir``'s parent (it is
        `revision_dir` itself in the layout without revision directories).

    Returns
    -------
    (str, str)
        ``name`` of ``model_meta.json`` (source ``"model_meta.json"``), else the model
        directory's name with ``__`` as ``/`` (source ``"directory name"``).

    Examples
    --------
    >>> mteb_model(Path("results/intfloat__e5-small/no_revision_available"))
    ('intfloat/e5-small', 'directory name')
    """
    meta = revision_dir / "model_meta.json"
    if meta.is_file():
        data = load_json(meta)
        name = data.get("name") if isinstance(data, dict) else None
        if isinstance(name, str) and name.strip():
            return name.strip(), "model_meta.json"
    return (revision_dir.parent if model_dir is None else model_dir).name.replace("__", "/"), "directory name"


#: The revision of task files kept directly in the model directory (the results repository's older layout).
NO_REVISION_DIR = "(no revision directory)"


def _task_files(path: Any) -> list[tuple[Path, Path, str]]:
    """(file, the directory naming its model, its revision) of every task file."""
    if isinstance(path, (list, tuple)):
        files = [Path(p) for p in path]
        missing = [f for f in files if not f.is_file()]
        if missing:
            raise LeaderboardError(f"file not found: {str(missing[0])!r}")
        return [(f, f.parent, f.parent.name) for f in files]
    if not (isinstance(path, (str, Path)) and Path(path).is_dir()):
        raise InvalidOptionError(f"path must be an MTEB results directory or a list of task files, got {path!r}")
    root = Path(path)
    files = sorted(p for p in root.rglob("*.json") if p.is_file() and p.name != "model_meta.json")
    if not files:
        raise LeaderboardError(f"no MTEB task result files (<model>/<revision>/<Task>.json) below {str(path)!r}")
    placed = []
    for f in files:
        depth = len(f.relative_to(root).parts)
        # results/<model>/<Task>.json: the model directory holds the files (no revision directory)
        placed.append((f, f.parent, NO_REVISION_DIR) if depth == 2 else (f, f.parent, f.parent.name))
    return placed


def _split_scores(data: dict, f: Path, split: str | Sequence[str]) -> tuple[str, list[Any]]:
    scores = data.get("scores")
    if not isinstance(scores, dict):
        raise FormatError(f, "no 'scores' object: not an MTEB task result", field="scores")
    for name in ([split] if isinstance(split, str) else split):
        if name in scores:
            entries = scores[name]
            if not isinstance(entries, list) or not entries:
                raise FormatError(f, f"scores[{name!r}] is not a non-empty list of subset scores", field="scores")
            return name, entries
    asked = shortlist([split] if isinstance(split, str) else split)
    raise FormatError(f, hinted("no split {}; its splits are {}: pass {}", asked, shortlist(sorted(scores)),
                                option("split")), field="scores")


def _mean_main_score(entries: list[Any], f: Path, subsets: Sequence[str] | None) -> tuple[float | None, tuple[str, ...]]:
    """Unweighted mean of main_score over the (chosen) subsets, and the subsets averaged."""
    found: dict[str, float | None] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("hf_subset"), str):
            raise FormatError(f, "a subset entry has no 'hf_subset'", field="hf_subset")
        if "main_score" not in entry:
            raise FormatError(f, f"subset {entry['hf_subset']!r} has no 'main_score'", field="main_score")
        if entry["hf_subset"] in found:
            raise FormatError(f, f"subset {entry['hf_subset']!r} is listed twice", field="hf_subset")
        found[entry["hf_subset"]] = number_or_none(entry["main_score"], str(f), "main_score")
    if subsets is not None and set(found) != {"default"}:  # a task with one "default" subset has nothing to choose
        kept = [s for s in subsets if s in found]
        if not kept:
            raise FormatError(f, f"none of the subsets {shortlist(subsets)}; its subsets are {shortlist(sorted(found))}",
                              field="hf_subset")
        found = {s: found[s] for s in kept}
    if any(v is None for v in found.values()):
        return None, tuple(sorted(found))
    values = cast("list[float]", list(found.values()))  # no None: returned above
    return math.fsum(values) / len(values), tuple(sorted(found))


def read_mteb(
    path: str | Path | Sequence[str | Path],
    *,
    split: str | Sequence[str] = "test",
    subsets: Iterable[str] | None = None,
    tasks: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    revision: Mapping[str, str] | None = None,
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
) -> Leaderboard:
    """Read MTEB task results (``results/<model>/<revision>/<Task>.json``) as a leaderboard of models x tasks.

    See the module docs for the file shape and how a score is computed.

    Parameters
    ----------
    path : str, Path or list of them
        The results directory (searched recursively; ``model_meta.json`` files are model
        metadata, not results), or a list of task files.
    split : str or list of str, default="test"
        The split read; a list is a preference order (``["test", "dev"]``: MS MARCO has only
        ``dev``), the split read for each task stated in a note.
    subsets : list of str, optional
        The ``hf_subset`` entries averaged (e.g. ``["en"]``), in each task that has any of
        them (a task with a single ``default`` subset keeps it; another task with none of
        them is an error); default all of them. Every model of a task must have the same
        subsets averaged.
    tasks : list of str, optional
        Read only these tasks.
    exclude : list of str, optional
        Leave out these tasks (with a note), before metrics are chosen and values read: a
        task whose scores are infinite or null for every model can be dropped this way.
    revision : Mapping, optional
        Model -> revision directory to read, for models with results for several revisions.
    higher_is_better, lower_is_better : list of str
        Directions of tasks (``main_score`` is higher-is-better; give a task here to say
        otherwise).

    Returns
    -------
    Leaderboard
        Models x tasks (in order of first appearance over the sorted files); notes state the
        split, the averaged subsets, where model names come from and null scores.

    Raises
    ------
    FormatError
        A file is not JSON, not a ``TaskResult`` nor a legacy result whose task type its
        metrics show, lacks the split or a subset, or a value is not a number.
    DuplicateResultError
        Two files of one model (and revision) hold the same task.
    LeaderboardError
        No task files; a model has several revisions and `revision` does not pick one; the
        models of a task have different subsets; fewer than 2 models.
    UnknownTaskError
        `tasks` names a task no file has, or `revision` a model no directory has.

    Examples
    --------
    >>> import json, os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> for model, scores in (("org__a", [0.5, 0.7]), ("org__b", [0.6, 0.8])):
    ...     folder = os.path.join(root, model, "rev1")
    ...     os.makedirs(folder)
    ...     subsets = [{"main_score": s, "hf_subset": lang, "languages": []} for s, lang in zip(scores, ["de", "en"])]
    ...     result = {"task_name": "STS22", "mteb_version": "1.12.0", "scores": {"test": subsets}}
    ...     _ = open(os.path.join(folder, "STS22.json"), "w").write(json.dumps(result))
    >>> lb = read_mteb(root)
    >>> lb.scores.round(6)
           STS22
    org/a    0.6
    org/b    0.7
    """
    if not isinstance(split, str):
        split = check_names(split, "split")
    chosen_subsets = None if subsets is None else check_names(subsets, "subsets")
    wanted = None if tasks is None else check_names(tasks, "tasks")
    if revision is not None and not isinstance(revision, Mapping):
        raise InvalidOptionError(f"revision must map model -> revision directory, got {revision!r}")
    revisions: dict[str, dict[str, list[Path]]] = {}
    sources: dict[str, list[str]] = {}
    for f, named, rev in _task_files(path):
        model, source = mteb_model(f.parent, named if rev == NO_REVISION_DIR else None)
        revisions.setdefault(model, {}).setdefault(rev, []).append(f)
        sources.setdefault(source, []).append(model)
    for name in revision or {}:
        if name not in revisions:
            raise UnknownTaskError(name, list(revisions), "revision= (a model)")
    notes: list[str] = []
    if "directory name" in sources:
        notes.append(f"model name(s) from the directory name (__ read as /): {shortlist(dict.fromkeys(sources['directory name']), 4)}")
    entries: list[ResultEntry] = []
    splits_used: dict[str, list[str]] = {}
    averaged: dict[str, tuple[str, ...]] = {}
    found_tasks: list[str] = []
    legacy_metrics: dict[str, tuple[str, Path]] = {}
    for model, by_revision in revisions.items():
        pick = (revision or {}).get(model)
        if pick is None and len(by_revision) > 1:
            raise LeaderboardError(f"model {model!r} has results for revisions {shortlist(sorted(by_revision))}; "
                                   + hinted("pass {} (or another)", option("revision", {model: sorted(by_revision)[-1]})))
        if pick is not None and pick not in by_revision:
            raise LeaderboardError(f"model {model!r} has no revision {pick!r}; it has {shortlist(sorted(by_revision))}")
        for f in by_revision[pick if pick is not None else next(iter(by_revision))]:
            data = load_json(f)
            if not isinstance(data, dict):
                raise FormatError(f, "not a JSON object (an MTEB TaskResult)")
            legacy = "scores" not in data and "task_name" not in data and "mteb_dataset_name" in data
            task = data.get("mteb_dataset_name" if legacy else "task_name")
            if not isinstance(task, str) or not task:
                raise FormatError(f, "no 'task_name' (nor the 'mteb_dataset_name' of a file written by mteb before 1.11)",
                                  field="task_name")
            found_tasks.append(task)
            if wanted is not None and task not in wanted:
                continue
            if legacy:
                used, subset_scores, metric = _legacy_split(data, f, split)
                known = legacy_metrics.get(task)
                if known is None or known[0].startswith("main_score"):  # a file's own main score fits any
                    legacy_metrics[task] = (metric, f)
                elif not metric.startswith("main_score") and known[0] != metric:
                    raise LeaderboardError(
                        f"task {task!r}: legacy (mteb < 1.11) files hold different metrics ({legacy_metrics[task][0]} in "
                        f"{str(legacy_metrics[task][1])!r}, {metric} in {str(f)!r}), so their scores are not comparable"
                    )
            else:
                used, subset_scores = _split_scores(data, f, split)
            value, names = _mean_main_score(subset_scores, f, chosen_subsets)
            if averaged.setdefault(task, names) != names:
                raise LeaderboardError(
                    f"task {task!r}: the models have different hf_subsets ({shortlist(averaged[task])} vs "
                    f"{shortlist(names)} in {str(f)!r}), so their averages are not comparable; "
                    + hinted("pass {} naming the ones to average (every model must have them)",
                             option("subsets", placeholder="[...]"))
                )
            splits_used.setdefault(used, []).append(task)
            entries.append(ResultEntry(model, task, {"main_score": value}, str(f)))
    check_wanted(wanted, found_tasks)
    if len(splits_used) > 1 or not isinstance(split, str):
        for used, used_tasks in splits_used.items():
            notes.append(f"split {used!r} read for {len(set(used_tasks))} task(s): {shortlist(dict.fromkeys(used_tasks), 4)}")
    else:
        notes.append(f"split {split!r} read")
    if legacy_metrics:
        by_metric: dict[str, list[str]] = {}
        for task, (metric, _) in legacy_metrics.items():
            by_metric.setdefault(metric, []).append(task)
        notes.append(f"{len(legacy_metrics)} task(s) in legacy files (mteb < 1.11, no main_score), read without mteb: the main "
                     "score of the task type their metrics show, " + "; ".join(
                         f"{m} for {shortlist(ts, 3)}" for m, ts in by_metric.items()))
    multi = {t: n for t, n in averaged.items() if len(n) > 1}
    if multi:
        shown = ", ".join(f"{t} ({len(n)})" for t, n in list(multi.items())[:4]) + (", ..." if len(multi) > 4 else "")
        notes.append(f"main_score averaged over hf_subsets, unweighted as mteb's TaskResult.get_score: {shown}")
    return entries_to_leaderboard(entries, metric="main_score", higher_is_better=higher_is_better,
                                  lower_is_better=lower_is_better, notes=notes, exclude=exclude,
                                  hint="keep one file per task in each model's revision directory")
