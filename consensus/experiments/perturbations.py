"""Robustness experiments: manipulation, scaling, task removal and missing scores, for any rule.

Each experiment perturbs a leaderboard at random, ranks it with every rule asked for
(:func:`consensus.resampling._rule_runs.rule_positions`: exact Kemeny included, single-threaded,
warm-started, with a time limit per solve) and records Kendall's tau-b between the rule's
ranking of the perturbed board and a reference ranking, one row per repetition x setting x
rule. Conventions (the papers leave some open; these are the decisions):

- **Data.** Either a leaderboard (the same board in every repetition; the randomness is the
  perturbation) or ``synthetic=dict(n_systems=, n_tasks=, phi=)``: every repetition draws a
  fresh board from the Gumbel model of Colombo et al. (2022, sec. 4.1), as the paper does.
- **Reference.** On synthetic data, manipulation and scaling compare with the ground truth
  ``s{N} > ... > s1`` (Colombo et al. sec. 4.2-4.3); task removal and missing scores compare each
  rule with its own ranking of the unperturbed board (sec. 5.2; Himmi et al. sec. 3). On a
  real leaderboard the reference is always the rule's own ranking of the unperturbed board.
  The ``reference`` column says which.
- **tau** is Kendall's tau-b on competition positions (ties count as ties, so a rule that
  ties many systems is not rewarded or punished by an arbitrary tie break), over the systems
  both rankings rank. ``error`` is the normalized Kendall distance the paper plots,
  ``(1 - tau) / 2`` (exact for strict rankings).
- **Manipulation** (Colombo et al. sec. 4.2): ``t`` random tasks have their ranking reversed.
  The paper redraws a corrupted task from Gumbel(``-n``, 1), which reverses its order *and*
  changes its scale (spread ``N`` instead of ``phi * N``), mixing manipulation with scaling.
  Here a corrupted task's scores are mirrored, ``s -> max + min - s``: the order is exactly
  reversed and the scale kept, so the experiment measures the order alone and applies to
  real leaderboards as well.
- **Scaling** (sec. 4.3): one random task's scores multiplied by ``lambda`` (a rank-based rule
  is unchanged, tau = 1, which the tests check).
- **Task removal** (sec. 5.2): ``k`` random tasks kept (without replacement); a system left
  with no score on the kept tasks is not ranked in that repetition (NaN in the table).
- **Missing scores** (Himmi et al.): :func:`consensus.experiments.remove_scores` removes a
  share ``eta`` of the scores; each rule then uses its own missing-score policy
  (:func:`consensus.rules.auto_missing`: pairwise comparison for majority rules and Kemeny,
  imputation by compatible permutations for positional rules, the task median for means).

Examples
--------
>>> import consensus as cs
>>> res = scaling(cs.datasets.gumbel_leaderboard(6, 5, phi=0.5, seed=1), ["mean", "borda"], lambdas=(10.0,),
...               repetitions=3, seed=0)
>>> res.summary()["mean"].round(3).tolist()[1]  # Borda ranks each task: scaling changes nothing
1.0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_count, check_seconds, name_list
from ..board._leaderboard import Leaderboard
from ..board._validation import finite_number
from ..datasets import gumbel_leaderboard
from ..errors import InvalidOptionError
from ..io._limits import check_repetitions
from ..resampling._repetitions import (
    REPETITION_DOCS,
    check_progress,
    check_scheduler,
    run_repetitions,
    spawn_seeds,
)
from ..resampling._rule_runs import DEFAULT_RULES, check_rules, rule_positions
from ..results import ExperimentResult
from .missing import remove_scores

__all__ = ["manipulation", "missing_scores", "scaling", "task_removal"]

#: Seconds each Kemeny solve gets inside an experiment (the row's ``kemeny_status`` says
#: ``"time_limit"`` when it stopped there with the best ranking found).
KEMENY_TIME_LIMIT = 10.0

#: Docstring entries the experiments share (:func:`consensus._docstrings.fill_doc`), one per
#: parameter (with those of :data:`consensus.resampling._repetitions.REPETITION_DOCS`), and
#: ``experiment_options``: the parameters every perturbation experiment takes, in their order.
EXPERIMENT_DOCS: dict[str, str] = {
    **REPETITION_DOCS,
    "data": "data : Leaderboard, optional\n    The board (or `synthetic`).",
    "rules": ("rules : sequence of str, default=(" + ", ".join(f'"{r}"' for r in DEFAULT_RULES) + ")\n"
              "    Registered rule names."),
    "repetitions": "repetitions : int, default=100\n    Number of repetitions (the papers use 100; Vote'n'Rank 50).",
    "seed": "seed : int, default=0\n"
            "    Master seed: repetition ``r`` draws from ``SeedSequence(seed).spawn(repetitions)[r]``.",
    "synthetic": ("synthetic : dict, optional\n"
                  "    Instead of `data`: ``n_systems`` (20), ``n_tasks`` (20) and ``phi`` (0.05) of the\n"
                  "    Gumbel model, a fresh board per repetition."),
    "time_limit": (f"time_limit : float or None, default={KEMENY_TIME_LIMIT}\n"
                   '    Seconds per Kemeny solve (``kemeny_status`` says ``"time_limit"`` past it).'),
}
EXPERIMENT_DOCS["experiment_options"] = "\n".join(
    EXPERIMENT_DOCS[k] for k in ("data", "rules", "repetitions", "seed", "synthetic", "time_limit", "repetition_options")
)


@dataclass(frozen=True)
class _Job:
    """What one repetition needs (picklable: it may run on a Dask worker)."""

    kind: str
    seed: np.random.SeedSequence
    repetition: int
    board: Leaderboard | None
    synthetic: Mapping[str, Any] | None
    rules: tuple[str, ...]
    settings: tuple[Any, ...]
    extra: Mapping[str, Any]
    time_limit: float | None
    base: Mapping[str, Any] | None = None  # the rules' runs on `board`, computed once (None: synthetic)


def _tau(a: np.ndarray, b: np.ndarray) -> float:
    """Kendall's tau-b between two position vectors, over the systems both rank.

    ``(concordant - discordant) / sqrt((n0 - ties_a) (n0 - ties_b))`` over the ``n0`` pairs,
    vectorized (the tests check it against :func:`scipy.stats.kendalltau`); NaN when one side
    ties every pair and the other does not, 1 when both do.

    Examples
    --------
    >>> _tau(np.array([1.0, 2.0, 3.0]), np.array([1.0, 3.0, 2.0]))
    0.333333333333
    """
    both = ~(np.isnan(a) | np.isnan(b))
    if both.sum() < 2:
        return float("nan")
    x, y = a[both], b[both]
    upper = np.triu_indices(len(x), 1)
    dx = np.sign(x[:, None] - x[None, :])[upper]
    dy = np.sign(y[:, None] - y[None, :])[upper]
    untied_x, untied_y = np.count_nonzero(dx), np.count_nonzero(dy)
    if untied_x == 0 and untied_y == 0:  # both tie everything: the same (weak) ranking
        return 1.0
    if untied_x == 0 or untied_y == 0:  # one constant ranking against another: tau-b is undefined
        return float("nan")
    return round(float(np.dot(dx, dy) / np.sqrt(float(untied_x) * float(untied_y))), 12)  # float noise off


def _mirror(board: Leaderboard, tasks: Sequence[str]) -> Leaderboard:
    """`board` with the scores of `tasks` mirrored (max + min - s): each task's order reversed."""
    frame = board.scores
    for t in tasks:
        col = frame[t]
        frame[t] = col.max() + col.min() - col
    return _same_kind(board, frame)


def _scale(board: Leaderboard, task: str, factor: float) -> Leaderboard:
    frame = board.scores
    frame[task] = frame[task] * factor
    return _same_kind(board, frame)


def _same_kind(board: Leaderboard, frame: pd.DataFrame) -> Leaderboard:
    return Leaderboard(
        frame, lower_is_better=board.lower_is_better, weights=dict(board.weights.items()), groups=board.groups,
        notes=board.notes,
    )


def _keep_tasks(board: Leaderboard, tasks: Sequence[str]) -> Leaderboard:
    """`board` on `tasks` only, without the systems left with no score there."""
    columns = [board.task_index(t) for t in tasks]
    scored = ~np.isnan(board.values[:, columns]).all(axis=1)
    return board.select(systems=[s for s, keep in zip(board.systems, scored) if keep], tasks=list(tasks))


def _perturbed(job: _Job, board: Leaderboard, setting: Any, rng: np.random.Generator) -> Leaderboard:
    tasks = board.tasks
    if job.kind == "manipulation":
        chosen = rng.choice(len(tasks), size=int(setting), replace=False)
        return _mirror(board, [tasks[i] for i in sorted(chosen)])
    if job.kind == "scaling":
        return _scale(board, tasks[int(rng.integers(len(tasks)))], float(setting))
    if job.kind == "task_removal":
        chosen = rng.choice(len(tasks), size=int(setting), replace=False)
        return _keep_tasks(board, [tasks[i] for i in sorted(chosen)])
    return remove_scores(board, eta=float(setting), seed=rng)  # type: ignore[return-value]


def _truth(systems: Sequence[str]) -> np.ndarray:
    """Ground-truth positions of the Gumbel model: s{N} first."""
    n = len(systems)
    return np.array([float(n + 1 - int(s[1:])) for s in systems])


def _repetition(job: _Job) -> list[dict[str, Any]]:
    """One repetition: every setting x rule, as table rows."""
    rng = np.random.default_rng(job.seed)
    if job.board is not None:
        board = job.board
    else:
        spec = dict(job.synthetic or {})
        board = gumbel_leaderboard(
            spec["n_systems"], spec["n_tasks"], phi=spec["phi"], seed=int(rng.integers(2**63 - 1))
        )
    systems = board.systems
    base = job.base if job.base is not None else rule_positions(board, job.rules, time_limit=job.time_limit)
    initial = {"kemeny": base["kemeny"].order} if "kemeny" in base else None
    to_truth = job.synthetic is not None and job.kind in ("manipulation", "scaling")
    rows = []
    for setting in job.settings:
        perturbed = _perturbed(job, board, setting, rng)
        runs = rule_positions(
            perturbed, job.rules, systems=systems, initial=initial, time_limit=job.time_limit
        )
        for rule in job.rules:
            ref = _truth(systems) if to_truth else base[rule].positions
            tau = _tau(runs[rule].positions, ref)
            rows.append({
                "repetition": job.repetition, "rule": rule, job.extra["setting"]: setting, "tau": tau,
                "error": (1.0 - tau) / 2.0, "systems_ranked": int(np.count_nonzero(~np.isnan(runs[rule].positions))),
                "reference": "truth" if to_truth else "unperturbed",
                "kemeny_status": runs[rule].status if rule == "kemeny" else "",
                "kemeny_not_unique": int(runs[rule].unique is False),
            })
    return rows


def _check_synthetic(synthetic: object) -> dict[str, Any]:
    if not isinstance(synthetic, Mapping):
        raise InvalidOptionError(f"synthetic must be a dict with n_systems, n_tasks and phi, got {synthetic!r}")
    unknown = sorted(set(synthetic) - {"n_systems", "n_tasks", "phi"})
    if unknown:
        raise InvalidOptionError(f"synthetic takes n_systems, n_tasks and phi, not {', '.join(map(str, unknown))}")
    spec = {"n_systems": 20, "n_tasks": 20, "phi": 0.05, **synthetic}
    spec["n_systems"] = check_count(spec["n_systems"], "synthetic n_systems", 2)
    spec["n_tasks"] = check_count(spec["n_tasks"], "synthetic n_tasks", 1)
    spec["phi"] = finite_number(spec["phi"], "synthetic phi", non_negative=True)
    gumbel_leaderboard(spec["n_systems"], spec["n_tasks"], phi=spec["phi"], seed=0)  # the generator's own checks
    return spec


def _run(
    kind: str, data: Leaderboard | None, rules: Sequence[str], *, setting: str, settings: Sequence[Any],
    check_setting: Callable[[Any, int], Any], repetitions: int, seed: int, synthetic: Mapping[str, Any] | None,
    time_limit: float | None, scheduler: object, n_jobs: int | None,
    progress: Callable[[int, int], None] | None,
) -> ExperimentResult:
    names = check_rules(rules)
    check_scheduler(scheduler, n_jobs)
    check_progress(progress)
    if (data is None) == (synthetic is None):
        raise InvalidOptionError("give a leaderboard or synthetic=dict(n_systems=, n_tasks=, phi=), not both or neither")
    spec = _check_synthetic(synthetic) if synthetic is not None else None
    if data is not None and not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"data must be a Leaderboard, got {type(data).__name__}")
    n_tasks = data.n_tasks if data is not None else int(spec["n_tasks"])  # type: ignore[index]
    values = tuple(check_setting(v, n_tasks) for v in name_list(settings, setting, kind="values"))
    if not values:
        raise InvalidOptionError(f"{setting} must list at least one value")
    time_limit = check_seconds(time_limit, "time_limit")
    n_systems = data.n_systems if data is not None else int(spec["n_systems"])  # type: ignore[index]
    check_repetitions(check_count(repetitions, "repetitions", 1), 1024 + 16 * len(names) * len(values) * n_systems,
                      "repetitions")
    seeds = spawn_seeds(seed, repetitions)
    base = None if data is None else rule_positions(data, names, time_limit=time_limit)
    jobs = [
        _Job(kind, s, r, data, spec, names, values, {"setting": setting}, time_limit, base)
        for r, s in enumerate(seeds)
    ]
    rows = [row for rep in run_repetitions(_repetition, jobs, scheduler=scheduler, n_jobs=n_jobs, progress=progress)
            for row in rep]
    table = pd.DataFrame(rows).sort_values([setting, "repetition"], kind="stable").reset_index(drop=True)
    parameters = {
        "experiment": kind, "rules": list(names), setting + "s": list(values), "repetitions": len(seeds), "seed": seed,
        "data": (f"synthetic Gumbel boards, {spec['n_systems']} systems x {spec['n_tasks']} tasks, phi {spec['phi']:g}"
                 if spec else f"a leaderboard of {data.n_systems} systems x {data.n_tasks} tasks"),  # type: ignore[union-attr]
        "synthetic": spec, "time_limit": time_limit,
    }
    if base is not None and "kemeny" in base:
        parameters["kemeny_reference_unique"] = base["kemeny"].unique
    return ExperimentResult(kind, table, setting, "tau", parameters)


def _task_count(value: object, n_tasks: int, *, name: str, low: int, high: int) -> int:
    count = check_count(value, name, low)
    if count > high:
        raise InvalidOptionError(f"{name} must be at most {high} (the board has {n_tasks} tasks), got {value!r}")
    return count


def _factor(value: object, n_tasks: int) -> float:
    x = finite_number(value, "lambdas", non_negative=True)
    if x <= 0:
        raise InvalidOptionError(f"every lambda must be > 0, got {value!r}")
    return x


def _share(value: object, n_tasks: int) -> float:
    x = finite_number(value, "etas", non_negative=True)
    if not x < 1:
        raise InvalidOptionError(f"every eta must be a share in [0, 1), got {value!r}")
    return x


@fill_doc(EXPERIMENT_DOCS)
def manipulation(
    data: Leaderboard | None = None, rules: Sequence[str] = DEFAULT_RULES, *, ts: Sequence[int] = (1, 2, 3, 5),
    repetitions: int = 100, seed: int = 0, synthetic: Mapping[str, Any] | None = None,
    time_limit: float | None = KEMENY_TIME_LIMIT, scheduler: object = None, n_jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExperimentResult:
    """Robustness to manipulation (Colombo et al. 2022 sec. 4.2): ``t`` tasks' rankings reversed.

    In each repetition and for each ``t`` of `ts`, ``t`` random tasks are mirrored
    (``s -> max + min - s``, see the module docstring for why not the paper's redraw) and
    every rule ranks the result; ``tau`` to the ground truth (synthetic) or to the rule's own
    unperturbed ranking.

    Parameters
    ----------
    {experiment_options}
    ts : sequence of int, default=(1, 2, 3, 5)
        Numbers of tasks reversed (0 .. number of tasks).

    Returns
    -------
    ExperimentResult
        Setting column ``t``; metric ``tau`` (also ``error``, ``systems_ranked``,
        ``reference``, ``kemeny_status``).

    Raises
    ------
    InvalidOptionError
        An unknown rule, a bad count, seed, share or scheduler, both or neither of `data`
        and `synthetic`, or a ``t`` larger than the number of tasks.

    Examples
    --------
    >>> res = manipulation(synthetic={"n_systems": 6, "n_tasks": 6, "phi": 1.0}, rules=["mean", "borda"],
    ...                    ts=(0, 6), repetitions=2, seed=0)
    >>> res.summary()["mean"].round(3).tolist()  # every task reversed: each rule's ranking is reversed
    [1.0, 0.867, -1.0, -0.867]
    """
    return _run("manipulation", data, rules, setting="t", settings=ts,
                check_setting=lambda v, n: _task_count(v, n, name="ts", low=0, high=n), repetitions=repetitions,
                seed=seed, synthetic=synthetic, time_limit=time_limit, scheduler=scheduler,
                n_jobs=n_jobs, progress=progress)


@fill_doc(EXPERIMENT_DOCS)
def scaling(
    data: Leaderboard | None = None, rules: Sequence[str] = DEFAULT_RULES, *,
    lambdas: Sequence[float] = (0.5, 2.0, 5.0, 10.0), repetitions: int = 100, seed: int = 0,
    synthetic: Mapping[str, Any] | None = None, time_limit: float | None = KEMENY_TIME_LIMIT,
    scheduler: object = None, n_jobs: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> ExperimentResult:
    """Robustness to scaling (Colombo et al. 2022 sec. 4.3): one task multiplied by ``lambda``.

    Parameters
    ----------
    {experiment_options}
    lambdas : sequence of float, default=(0.5, 2.0, 5.0, 10.0)
        Factors (> 0) applied to one random task per repetition and factor.

    Returns
    -------
    ExperimentResult
        Setting column ``lambda``; metric ``tau``.

    Raises
    ------
    InvalidOptionError
        An unknown rule, a factor that is not a number > 0, a bad count, seed or
        scheduler, or both or neither of `data` and `synthetic`.

    Examples
    --------
    >>> import consensus as cs
    >>> res = scaling(cs.datasets.gumbel_leaderboard(5, 4, seed=0), ["copeland"], lambdas=(100.0,), repetitions=2)
    >>> res.table["tau"].tolist()
    [1.0, 1.0]
    """
    return _run("scaling", data, rules, setting="lambda", settings=lambdas, check_setting=_factor,
                repetitions=repetitions, seed=seed, synthetic=synthetic, time_limit=time_limit,
                scheduler=scheduler, n_jobs=n_jobs, progress=progress)


@fill_doc(EXPERIMENT_DOCS)
def task_removal(
    data: Leaderboard | None = None, rules: Sequence[str] = DEFAULT_RULES, *, kept: Sequence[int] | None = None,
    repetitions: int = 100, seed: int = 0, synthetic: Mapping[str, Any] | None = None,
    time_limit: float | None = KEMENY_TIME_LIMIT, scheduler: object = None, n_jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> ExperimentResult:
    """Robustness to task removal (Colombo et al. 2022 sec. 5.2): rank on random subsets of tasks.

    For each number of tasks ``k`` in `kept`, ``k`` tasks drawn without replacement; ``tau``
    between the rule's ranking on them and its ranking on all tasks.

    Parameters
    ----------
    {experiment_options}
    kept : sequence of int, optional
        Numbers of tasks kept (1 .. number of tasks); default: a quarter, half and three
        quarters of the tasks.

    Returns
    -------
    ExperimentResult
        Setting column ``tasks_kept``; metric ``tau``.

    Raises
    ------
    InvalidOptionError
        An unknown rule, a count out of range, a bad seed or scheduler, or both or
        neither of `data` and `synthetic`.

    Examples
    --------
    >>> import consensus as cs
    >>> res = task_removal(cs.datasets.gumbel_leaderboard(6, 8, phi=0.3, seed=0), ["borda"], kept=(8,), repetitions=2)
    >>> res.table["tau"].tolist()  # every task kept: the same ranking
    [1.0, 1.0]
    """
    if kept is None:
        n = data.n_tasks if isinstance(data, Leaderboard) else (
            _check_synthetic(synthetic)["n_tasks"] if synthetic is not None else 20)
        kept = sorted({max(1, round(n * f)) for f in (0.25, 0.5, 0.75)})
    return _run("task_removal", data, rules, setting="tasks_kept", settings=kept,
                check_setting=lambda v, n: _task_count(v, n, name="kept", low=1, high=n), repetitions=repetitions,
                seed=seed, synthetic=synthetic, time_limit=time_limit, scheduler=scheduler,
                n_jobs=n_jobs, progress=progress)


@fill_doc(EXPERIMENT_DOCS)
def missing_scores(
    data: Leaderboard | None = None, rules: Sequence[str] = DEFAULT_RULES, *,
    etas: Sequence[float] = (0.1, 0.2, 0.3, 0.4), repetitions: int = 100, seed: int = 0,
    synthetic: Mapping[str, Any] | None = None, time_limit: float | None = KEMENY_TIME_LIMIT,
    scheduler: object = None, n_jobs: int | None = None, progress: Callable[[int, int], None] | None = None,
) -> ExperimentResult:
    """Robustness to missing scores (Himmi et al. 2023 sec. 3), for any rule.

    For each share ``eta``, :func:`consensus.experiments.remove_scores` removes that share
    of the cells (never a system's or task's last score); each rule ranks the thinned board
    with its own missing-score policy; ``tau`` to its ranking of the complete board.

    Parameters
    ----------
    {experiment_options}
    etas : sequence of float, default=(0.1, 0.2, 0.3, 0.4)
        Shares of scores removed, each in [0, 1).

    Returns
    -------
    ExperimentResult
        Setting column ``eta``; metric ``tau``.

    Raises
    ------
    InvalidOptionError
        An unknown rule, a share outside [0, 1), a bad count, seed or scheduler, or both
        or neither of `data` and `synthetic`.

    Examples
    --------
    >>> res = missing_scores(synthetic={"n_systems": 6, "n_tasks": 6, "phi": 0.5}, rules=["copeland", "borda"],
    ...                      etas=(0.0,), repetitions=2)
    >>> res.table["tau"].tolist()  # nothing removed
    [1.0, 1.0, 1.0, 1.0]
    """
    return _run("missing_scores", data, rules, setting="eta", settings=etas, check_setting=_share,
                repetitions=repetitions, seed=seed, synthetic=synthetic, time_limit=time_limit,
                scheduler=scheduler, n_jobs=n_jobs, progress=progress)
