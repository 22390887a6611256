"""HELM run directories: ``benchmark_output/runs/<suite>/<run>/{run_spec.json, stats.json}``.

``helm-run --suite SUITE`` writes one directory per run (one scenario with its arguments, one
model), named after the run spec with ``/`` replaced by ``_``, e.g.
``mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2``. Two of its files are read:

- ``run_spec.json``: ``{"name": "mmlu:subject=anatomy,...,model=openai_gpt2", "scenario_spec":
  {...}, "adapter_spec": {"model": "openai/gpt2", ...}, "metric_specs": [...], "groups": ["mmlu"]}``
- ``stats.json``: a list of statistics, each ``{"name": {"name": "exact_match", "split":
  "test"}, "count": 1, "sum": 0.3, "sum_squared": 0.09, "min": 0.3, "max": 0.3, "mean": 0.3,
  "variance": 0.0, "stddev": 0.0}``; a statistic of perturbed instances has
  ``"perturbation": {"name": "robustness", "computed_on": "worst", ...}`` in its ``name``, one
  of a sub-split (``"toxic"``) a ``"sub_split"``.

The leaderboard has one row per model (``adapter_spec.model``) and one column per scenario with
its arguments (the run name without ``model=`` and ``model_deployment=``, e.g.
``mmlu:subject=anatomy,method=multiple_choice_joint``). The score is the ``mean`` of the chosen
metric on the chosen split, unperturbed and without sub-split: perturbation and sub-split
statistics are excluded, with a note. The metric and split default to the run group's main
metric and split in HELM's schemas (:data:`MAIN_METRICS`, e.g. ``mmlu`` -> ``exact_match`` on
``test``, ``natural_qa_closedbook`` -> ``f1_score`` on ``valid``), else the split is
``"test"`` and the metric must be given.

Minimal example (two models, one scenario)::

    runs/v1/mmlu:subject=anatomy,model=openai_gpt2/run_spec.json
        {"name": "mmlu:subject=anatomy,model=openai_gpt2", "adapter_spec": {"model": "openai/gpt2"},
         "groups": ["mmlu"]}
    runs/v1/mmlu:subject=anatomy,model=openai_gpt2/stats.json
        [{"name": {"name": "exact_match", "split": "test"}, "count": 1, "sum": 0.3, "mean": 0.3}]
    runs/v1/mmlu:subject=anatomy,model=meta_llama-7b/...   (the same for a second model)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, LeaderboardError
from ..hints import hinted, named, option
from .errors import FormatError
from .files import load_json
from .records import (
    MetricSpec,
    ResultEntry,
    check_names,
    check_wanted,
    entries_to_leaderboard,
    shortlist,
)

__all__ = ["read_helm", "MAIN_METRICS", "helm_task"]

#: Run group -> (main metric, main split), from the ``environment`` of the run groups in HELM's
#: ``schema_classic.yaml`` and ``schema_lite.yaml`` (stanford-crfm/helm, src/helm/benchmark/static).
MAIN_METRICS: Mapping[str, tuple[str, str]] = {
    "boolq": ("quasi_exact_match", "valid"),
    "narrative_qa": ("f1_score", "test"),
    "natural_qa_closedbook": ("f1_score", "valid"),
    "natural_qa_openbook_longans": ("f1_score", "valid"),
    "quac": ("f1_score", "valid"),
    "hellaswag": ("exact_match", "valid"),
    "openbookqa": ("exact_match", "test"),
    "truthful_qa": ("exact_match", "valid"),
    "mmlu": ("exact_match", "test"),
    "msmarco_regular": ("RR@10", "valid"),
    "msmarco_trec": ("NDCG@10", "valid"),
    "summarization_cnndm": ("rouge_2", "test"),
    "summarization_xsum": ("rouge_2", "test"),
    "imdb": ("quasi_exact_match", "valid"),
    "raft": ("quasi_exact_match", "test"),
    "civil_comments": ("quasi_exact_match", "test"),
    "ice": ("bits_per_byte", "test"),
    "the_pile": ("bits_per_byte", "test"),
    "twitter_aae": ("bits_per_byte", "test"),
    "blimp": ("exact_match", "test"),
    "wikifact": ("quasi_exact_match", "test"),
    "babi_qa": ("quasi_exact_match", "test"),
    "dyck_language": ("exact_match_indicator", "test"),
    "synthetic_reasoning": ("quasi_exact_match", "test"),
    "synthetic_reasoning_natural": ("f1_set_match", "test"),
    "gsm": ("exact_match_indicator", "test"),
    "math_regular": ("math_equiv", "test"),
    "math_chain_of_thought": ("math_equiv_chain_of_thought", "test"),
    "code_humaneval": ("pass", "test"),
    "legalbench": ("quasi_exact_match", "test"),
    "legal_support": ("quasi_exact_match", "test"),
    "lsat_qa": ("quasi_exact_match", "test"),
    "med_qa": ("quasi_exact_match", "test"),
    "wmt_14": ("bleu_4", "test"),
}

_MODEL_ARGS = ("model", "model_deployment")


def helm_task(run_name: str) -> tuple[str, str | None]:
    """The task (scenario and arguments) and the ``model=`` value of a HELM run name.

    Parameters
    ----------
    run_name : str
        ``scenario:arg=value,...`` as in ``run_spec.json`` or the run directory name.

    Returns
    -------
    (str, str or None)
        The run name without its ``model=`` and ``model_deployment=`` arguments, and the
        ``model=`` value (None when absent).

    Examples
    --------
    >>> helm_task("mmlu:subject=anatomy,method=multiple_choice_joint,model=openai_gpt2")
    ('mmlu:subject=anatomy,method=multiple_choice_joint', 'openai_gpt2')
    """
    scenario, colon, args = run_name.partition(":")
    kept, model = [], None
    for arg in (args.split(",") if colon else []):
        key, _, value = arg.partition("=")
        if key.strip() in _MODEL_ARGS:
            model = value if key.strip() == "model" else model
            continue
        kept.append(arg)
    return scenario + (":" + ",".join(kept) if kept else ""), model


_SUMMARY_HINT = ("; helm-summarize's leaderboard tables (groups/<group>.json) are read by the format "
                 "'helm-summary' (--from helm-summary)")


def _run_dirs(path: Any) -> list[Path]:
    summary = False
    if isinstance(path, (list, tuple)):
        runs = [Path(p) for p in path]
    elif isinstance(path, (str, Path)):
        root = Path(path)
        summary = root.suffix == ".json" or root.name == "groups" or (root / "groups").is_dir()
        if not root.is_dir():
            raise LeaderboardError(f"{str(root)!r} is not a directory: pass a HELM suite directory "
                                   "(benchmark_output/runs/<suite>) or a list of run directories"
                                   + (_SUMMARY_HINT if summary else ""))
        if (root / "stats.json").is_file() or (root / "run_spec.json").is_file():
            runs = [root]
        else:
            runs = sorted(p for p in root.iterdir() if p.is_dir()
                          and ((p / "stats.json").is_file() or (p / "run_spec.json").is_file()))
            if not runs and (root / "runs").is_dir():
                raise LeaderboardError(f"{str(root)!r} holds suites, not runs: pass {str(root / 'runs' / '<suite>')!r}")
    else:
        raise InvalidOptionError(f"path must be a directory or a list of run directories, got {type(path).__name__}")
    if not runs:
        raise LeaderboardError(f"no HELM run directories (with run_spec.json and stats.json) in {str(path)!r}"
                               + (_SUMMARY_HINT if isinstance(path, (str, Path)) and summary else ""))
    for run in runs:
        if not run.is_dir():
            raise LeaderboardError(f"run directory not found: {str(run)!r}")
    return runs


def _run_spec(run: Path) -> tuple[str, str, tuple[str, ...], str]:
    """(model, task, groups, where the model name comes from) of one run."""
    spec_path = run / "run_spec.json"
    if spec_path.is_file():
        spec = load_json(spec_path)
        if not isinstance(spec, dict):
            raise FormatError(spec_path, "not a JSON object (a HELM RunSpec)")
        given_name = spec.get("name")
        name = given_name if isinstance(given_name, str) else run.name
        task, model_arg = helm_task(name)
        given_adapter = spec.get("adapter_spec")
        adapter = given_adapter if isinstance(given_adapter, dict) else {}
        model = adapter.get("model") or adapter.get("model_deployment")
        groups = tuple(g for g in spec.get("groups") or () if isinstance(g, str))
        if isinstance(model, str) and model:
            return model, task, groups, "adapter_spec.model"
        if model_arg:
            return model_arg, task, groups, "the run name's model= (with _ for /)"
        raise FormatError(spec_path, "no adapter_spec.model and no model= in the run name", field="adapter_spec")
    task, model_arg = helm_task(run.name)
    if not model_arg:
        raise FormatError(run, "no run_spec.json and no model= in the directory name")
    return model_arg, task, (), "the run directory name's model= (with _ for /)"


def _standard_error(stat: dict[str, Any]) -> float | None:
    """The standard error of a statistic's mean: ``sqrt(variance / (count - 1))`` (HELM's
    ``variance`` is the population variance over ``count`` instances, from ``sum`` and
    ``sum_squared`` when it is absent); None with fewer than 2 instances or nothing to go on."""
    count = stat.get("count")
    if not isinstance(count, (int, float)) or isinstance(count, bool) or count < 2:
        return None
    variance = stat.get("variance")
    if not isinstance(variance, (int, float)) or isinstance(variance, bool):
        stddev = stat.get("stddev")
        total, squares = stat.get("sum"), stat.get("sum_squared")
        if isinstance(stddev, (int, float)) and not isinstance(stddev, bool):
            variance = float(stddev) ** 2
        elif all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (total, squares)):
            variance = float(squares) / count - (float(total) / count) ** 2  # type: ignore[arg-type]
        else:
            return None
    if not math.isfinite(float(variance)):
        return None
    return math.sqrt(max(float(variance), 0.0) / (count - 1))


def _stats(
    run: Path, split: str | None, task: str, default_split: str | None
) -> tuple[dict[str, Any], str, int, int, dict[str, float]]:
    """Metric -> mean of one run's unperturbed statistics on the chosen split, the split, the
    numbers of perturbation and sub-split statistics left out, and ``<metric>_stderr`` -> the
    standard error of each mean (:func:`_standard_error`)."""
    stats_path = run / "stats.json"
    stats = load_json(stats_path)
    if not isinstance(stats, list):
        raise FormatError(stats_path, "not a JSON list of statistics (HELM's stats.json)")
    chosen = split or default_split or "test"
    values: dict[str, Any] = {}
    errors: dict[str, float] = {}
    splits: set[str] = set()
    perturbed = sub_split = 0
    for k, stat in enumerate(stats):
        name = stat.get("name") if isinstance(stat, dict) else None
        if not isinstance(name, dict) or not isinstance(name.get("name"), str):
            raise FormatError(stats_path, f"statistic #{k + 1} has no name.name", field="name")
        if name.get("perturbation"):
            perturbed += 1
            continue
        if name.get("sub_split"):
            sub_split += 1
            continue
        splits.add(str(name.get("split")))
        if name.get("split") != chosen:
            continue
        if name["name"] in values:
            raise FormatError(stats_path, f"metric {name['name']!r} is listed twice for split {chosen!r}", field=name["name"])
        values[name["name"]] = stat.get("mean") if stat.get("count", 1) else None
        error = _standard_error(stat)
        if error is not None:
            errors[f"{name['name']}_stderr"] = error
    if not values:
        raise FormatError(stats_path, hinted("no statistics on split {!r} for {!r}; its splits are {}: pass {}", chosen,
                                             task, shortlist(sorted(splits)), option("split")), field="split")
    return values, chosen, perturbed, sub_split, errors


def read_helm(
    path: str | Path | Sequence[str | Path],
    *,
    metric: MetricSpec = None,
    split: str | None = None,
    tasks: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    higher_is_better: Iterable[str] = (),
    lower_is_better: Iterable[str] = (),
) -> Leaderboard:
    """Read a HELM suite of runs (``benchmark_output/runs/<suite>``) as a leaderboard of models x scenarios.

    See the module docs for the files read and how models, tasks and scores come out of them.

    Parameters
    ----------
    path : str, Path or list of them
        A suite directory (each subdirectory with ``run_spec.json`` / ``stats.json`` is a run;
        others such as ``eval_cache`` or ``groups`` are not runs), or a list of run
        directories.
    metric : str, list of str or Mapping, optional
        The HELM metric read (``"exact_match"``, ``"f1_score"``, ...); a list is a preference
        order; a mapping gives it per task (the run name without ``model=``). Default: the
        run group's main metric (:data:`MAIN_METRICS`); an error for other groups.
    split : str, optional
        The split (``"test"``, ``"valid"``). Default: the run group's main split, else
        ``"test"``.
    tasks : list of str, optional
        Read only these tasks (the others are skipped, with a note).
    exclude : list of str, optional
        Leave out these tasks (with a note), before metrics are chosen and values read: a
        task whose scores are infinite or null for every model can be dropped this way.
    higher_is_better, lower_is_better : list of str
        Directions of metrics (or tasks) that
        :func:`~consensus.formats.metrics.metric_direction` does not know.

    Returns
    -------
    Leaderboard
        Models x tasks; notes state the split and metric of each task, the excluded
        perturbation and sub-split statistics, runs without ``stats.json`` and directions.

    Raises
    ------
    FormatError
        A ``run_spec.json`` / ``stats.json`` is not what HELM writes, a run has no statistic
        on the split, a task lacks the metric, or a value is not a number.
    DuplicateResultError
        Two runs give a model a score on the same task.
    MetricDirectionError
        A metric's direction is unknown.
    UnknownTaskError
        `tasks` or `metric` name a task no run has.
    LeaderboardError
        `path` holds no run, or the scores do not form a leaderboard (fewer than 2 models).

    Examples
    --------
    >>> import json, os, tempfile
    >>> suite = tempfile.mkdtemp()
    >>> for model, em in (("openai/gpt2", 0.25), ("meta/llama-7b", 0.5)):
    ...     run = os.path.join(suite, "mmlu:subject=anatomy,model=" + model.replace("/", "_"))
    ...     os.makedirs(run)
    ...     spec = {"name": os.path.basename(run), "adapter_spec": {"model": model}, "groups": ["mmlu"]}
    ...     stats = [{"name": {"name": "exact_match", "split": "test"}, "count": 1, "mean": em},
    ...              {"name": {"name": "exact_match", "split": "test", "perturbation": {"name": "robustness"}},
    ...               "count": 1, "mean": 0.1}]
    ...     _ = open(os.path.join(run, "run_spec.json"), "w").write(json.dumps(spec))
    ...     _ = open(os.path.join(run, "stats.json"), "w").write(json.dumps(stats))
    >>> read_helm(suite).scores
                   mmlu:subject=anatomy
    meta/llama-7b                  0.50
    openai/gpt2                    0.25
    """
    if split is not None and not isinstance(split, str):
        raise InvalidOptionError(f"split must be a split name such as 'test', got {split!r}")
    wanted = None if tasks is None else check_names(tasks, "tasks")
    notes: list[str] = []
    entries: list[ResultEntry] = []
    no_stats: list[str] = []
    found_tasks: list[str] = []
    model_sources: dict[str, list[str]] = {}
    splits_used: dict[str, list[str]] = {}
    perturbed = sub_split = 0
    for run in _run_dirs(path):
        if not (run / "stats.json").is_file():
            no_stats.append(run.name)
            continue
        model, task, groups, source = _run_spec(run)
        found_tasks.append(task)
        if wanted is not None and task not in wanted:
            continue
        model_sources.setdefault(source, []).append(model)
        main = next((MAIN_METRICS[g] for g in groups if g in MAIN_METRICS), None)
        values, used, n_pert, n_sub, errors = _stats(run, split, task, main[1] if main else None)
        perturbed, sub_split = perturbed + n_pert, sub_split + n_sub
        splits_used.setdefault(used + (" (the run group's main split)" if split is None and main else ""), []).append(task)
        entries.append(ResultEntry(model, task, values, str(run), defaults=(main[0],) if main else (), stderr=errors))
    check_wanted(wanted, found_tasks)
    if wanted is not None:
        skipped = sorted(set(found_tasks) - set(wanted))
        if skipped:
            notes.append(hinted("skipped task(s) not in {}: {}", named("tasks", equals=True), shortlist(skipped, 5)))
    if no_stats:
        notes.append(f"skipped {len(no_stats)} run(s) without stats.json (unfinished?): {shortlist(no_stats, 3)}")
    for source, models in model_sources.items():
        if source != "adapter_spec.model":
            notes.append(f"model name(s) taken from {source}: {shortlist(dict.fromkeys(models), 4)}")
    for used, used_tasks in splits_used.items():
        notes.append(f"split {used}: {len(set(used_tasks))} task(s)")
    left_out = [f"{perturbed} perturbation statistic(s) (robustness, fairness, ...)" if perturbed else "",
                f"{sub_split} sub-split statistic(s)" if sub_split else ""]
    if perturbed or sub_split:
        notes.append(f"excluded {' and '.join(x for x in left_out if x)}: scores are the means over the unperturbed "
                     "instances of the whole split")
    return entries_to_leaderboard(entries, stderr_source="HELM's stats.json (variance and count of each mean)",
                                  metric=metric, higher_is_better=higher_is_better,
                                  lower_is_better=lower_is_better, notes=notes, exclude=exclude,
                                  hint="each model should have one run per scenario and arguments")
