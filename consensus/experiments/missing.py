"""Synthetic robustness experiments with missing scores (Himmi et al. 2023, sec. 3).

Scores come from the Gumbel model of Colombo et al. (2022, sec. 4.1): system ``s{n}``
(n = 1..N) scores an independent Gumbel(``phi * n``, 1) draw on every task (and every
instance), so the true ranking is ``s{N} > ... > s1`` and ``phi`` sets how clear it is. A share
``eta`` of the scores is then removed at random, and each aggregation's ranking on the thinned
scores is compared, by Kendall's tau, with the same aggregation's ranking on the complete
scores. Himmi et al. find the compatible-ranking Borda ``sigma_l`` more stable than the mean
of the available scores (their Figures 2, 3 and 5).

References
----------
.. [1] Himmi, Irurozki, Noiry, Clemencon, Colombo, "Towards More Robust NLP System
   Evaluation: Handling Missing Scores in Benchmarks", 2023, sec. 3 (synthetic) and 4.2-4.3.
.. [2] Colombo, Noiry, Irurozki, Clemencon, "What are the best systems? New perspectives on
   NLP benchmarking", NeurIPS 2022, sec. 4.1 (the Gumbel generator).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd

from ..arguments import check_count, check_rng_seed, check_seed, check_share, name_list
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..datasets import gumbel_leaderboard
from ..errors import InvalidOptionError
from ..missing._impute import mean_baseline, sigma_2l, sigma_l
from ..results import RobustnessResult

__all__ = ["gumbel_instances", "remove_scores", "robustness_experiment"]

RemovalUnit = Literal["cell", "task", "instance"]


def gumbel_instances(
    n_systems: int = 20, n_tasks: int = 20, n_instances: int = 20, *, phi: float = 0.05, seed: int | None = 0
) -> InstanceScores:
    """Instance-level scores from the Gumbel model (Colombo et al. 2022 sec. 4.1; Himmi et al. sec. 3.1).

    ``s[n, t, k]`` ~ Gumbel(loc = ``phi * n``, scale = 1), independent; systems ``s1..sN`` (true
    ranking ``s{N}`` first), tasks ``t1..tT``, instances ``0..K-1`` on every task.

    Parameters
    ----------
    n_systems : int, default=20
        Number of systems N (an integer >= 2).
    n_tasks : int, default=20
        Number of tasks T (an integer >= 1).
    n_instances : int, default=20
        Number of instances K per task (an integer >= 1).
    phi : float, default=0.05
        Dispersion (finite, >= 0; 0 is pure noise).
    seed : int or None, default=0
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    InstanceScores
        Complete scores, higher is better, every task weight 1.

    Raises
    ------
    InvalidOptionError
        If a count is not an integer (a ``bool`` or a float such as ``5.0`` is refused) or
        is too small, or `phi` is negative or not finite.

    Examples
    --------
    >>> data = gumbel_instances(4, 2, 3, phi=1.0, seed=0)
    >>> data
    InstanceScores(4 systems x 2 tasks, 6 instances, 24 scores, 0 missing)
    >>> data.systems, data.n_instances
    (('s1', 's2', 's3', 's4'), {'t1': 3, 't2': 3})
    """
    n_systems = check_count(n_systems, "n_systems", 2)
    n_tasks = check_count(n_tasks, "n_tasks", 1)
    n_instances = check_count(n_instances, "n_instances", 1)
    real = not isinstance(phi, bool) and isinstance(phi, (int, float, np.integer, np.floating))
    if not real or not np.isfinite(phi) or phi < 0:
        raise InvalidOptionError(f"phi must be finite and >= 0, got {phi!r}")
    rng = np.random.default_rng(check_rng_seed(seed))
    loc = phi * np.arange(1, n_systems + 1)[:, None]
    values = rng.gumbel(loc=loc, scale=1.0, size=(n_systems, n_tasks * n_instances))
    offsets = np.arange(n_tasks + 1) * n_instances
    return InstanceScores(
        values,
        systems=[f"s{i}" for i in range(1, n_systems + 1)],
        tasks=[f"t{j}" for j in range(1, n_tasks + 1)],
        offsets=offsets,
        instances=[pd.RangeIndex(n_instances)] * n_tasks,
        copy=False,
    )


def _remove_cells(present: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """Remove ``round(share * present.sum())`` present cells in random order, skipping any cell
    whose removal would empty its row or column. Returns the new presence mask."""
    present = present.copy()
    target = int(round(share * int(present.sum())))
    rows = present.sum(axis=1)
    cols = present.sum(axis=0)
    cells = np.argwhere(present)
    removed = 0
    for i, j in cells[rng.permutation(len(cells))]:
        if removed >= target:
            break
        if rows[i] > 1 and cols[j] > 1:
            present[i, j] = False
            rows[i] -= 1
            cols[j] -= 1
            removed += 1
    return present


def _remove_bernoulli(present: np.ndarray, share: float, rng: np.random.Generator) -> np.ndarray:
    """Drop each present cell with probability `share`, then give back one random cell to any
    column or row left empty."""
    keep = present & (rng.random(present.shape) >= share)
    for axis in (0, 1):
        empty = np.nonzero(~keep.any(axis=axis) & present.any(axis=axis))[0]
        for idx in empty:
            line = present[:, idx] if axis == 0 else present[idx, :]
            choice = rng.choice(np.nonzero(line)[0])
            if axis == 0:
                keep[choice, idx] = True
            else:
                keep[idx, choice] = True
    return keep


def remove_scores(
    data: Leaderboard | InstanceScores,
    *,
    eta: float,
    seed: int | np.random.Generator | None = None,
    unit: RemovalUnit | None = None,
) -> Leaderboard | InstanceScores:
    """Remove a share `eta` of the scores at random (never a system's, task's or instance's last one).

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        The scores to thin; not modified.
    eta : float
        Share in [0, 1) of the scores (or score blocks) to remove.
    seed : int or numpy Generator, optional
        Seed of ``numpy.random.default_rng``, or a Generator used (and advanced) as is.
    unit : {"cell", "task", "instance"}, optional
        What is removed. ``"cell"`` (the only unit of a Leaderboard): ``round(eta * cells)``
        scored (system, task) cells, in random order, skipping a cell whose removal would leave
        its system or task without a score. ``"task"`` (default for InstanceScores, Himmi et al.
        sec. 4.3): whole (system, task) blocks, every instance of a system on a task, with the
        same rule. ``"instance"``: each instance score independently with probability `eta`,
        then one random score put back in any instance or system left empty.

    Returns
    -------
    Leaderboard or InstanceScores
        The same type as `data`, with the same systems, tasks, directions and weights (and,
        for a Leaderboard, groups and notes); removed scores are missing. With ``"cell"`` and
        ``"task"``, fewer than ``round(eta * n)`` may be removed when the rule above blocks
        the rest.

    Raises
    ------
    InvalidOptionError
        If `eta` is not a number in [0, 1), `data` is neither a Leaderboard nor
        InstanceScores, or `unit` does not fit `data`.
    EmptyTaskError
        With ``unit="task"`` on instance scores that already miss some scores: removing
        whole blocks can leave an instance with no score.

    Examples
    --------
    >>> lb = gumbel_leaderboard(4, 5, phi=1.0, seed=0)
    >>> len(remove_scores(lb, eta=0.25, seed=1).missing_cells())
    5
    """
    share = check_share(eta, "eta", zero=True)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(check_rng_seed(seed))
    if isinstance(data, Leaderboard):
        if unit not in (None, "cell"):
            raise InvalidOptionError(f"a Leaderboard loses whole cells: unit must be 'cell', got {unit!r}")
        keep = _remove_cells(~np.isnan(data.values), share, rng)
        scores = data.scores.where(keep)
        return Leaderboard(
            scores,
            lower_is_better=data.lower_is_better,
            weights=dict(data.weights.items()),
            groups=data.groups,
            notes=data.notes,
        )
    if not isinstance(data, InstanceScores):
        raise InvalidOptionError(f"expected a Leaderboard or InstanceScores, got {type(data).__name__}")
    unit = "task" if unit is None else unit
    if unit not in ("task", "instance"):
        raise InvalidOptionError(f"InstanceScores lose 'task' blocks or single 'instance' scores, got unit={unit!r}")
    values = np.array(data.values)
    present = ~np.isnan(values)
    offsets = data.offsets
    if unit == "task":
        blocks = np.stack(
            [present[:, offsets[t] : offsets[t + 1]].any(axis=1) for t in range(data.n_tasks)], axis=1
        )
        keep_blocks = _remove_cells(blocks, share, rng)
        keep = np.repeat(keep_blocks, np.diff(offsets), axis=1) & present
    else:
        keep = _remove_bernoulli(present, share, rng)
    values[~keep] = np.nan
    return InstanceScores(
        values,
        systems=data.systems,
        tasks=data.tasks,
        offsets=offsets,
        instances=[data.instances(t) for t in data.tasks],
        lower_is_better=data.lower_is_better,
        weights=dict(data.weights.items()),
        oriented=True,
        copy=False,
    )


def _kendall_tau(a: pd.Series, b: pd.Series) -> float:
    """Kendall's tau-b between two score vectors over the same systems (1: same ranking).

    Examples
    --------
    >>> _kendall_tau(pd.Series([3.0, 2.0, 1.0]), pd.Series([1.0, 2.0, 3.0]))
    -1.0
    """
    if len(a) != len(b) or not a.index.equals(b.index):
        raise InvalidOptionError("kendall tau needs two score vectors over the same systems")
    # imported here: scipy.stats takes most of a second to import
    from scipy.stats import kendalltau

    return float(kendalltau(a.to_numpy(), b.to_numpy()).statistic)


def _method_scores(data: Leaderboard | InstanceScores, methods: Sequence[str]) -> list[pd.Series]:
    out = []
    for m in methods:
        if m == "sigma_l":
            out.append(sigma_l(data).scores)
        elif m == "sigma_2l":
            out.append(sigma_2l(data).scores)
        else:
            out.append(mean_baseline(data).scores)
    return out


def robustness_experiment(
    *,
    etas: Sequence[float] = (0.1, 0.2, 0.3, 0.4),
    n_seeds: int = 20,
    n_systems: int = 20,
    n_tasks: int = 20,
    n_instances: int | None = None,
    phi: float = 0.2,
    scale: float = 1.0,
    unit: RemovalUnit | None = None,
    seed: int | None = 0,
) -> RobustnessResult:
    """Himmi et al.'s synthetic robustness experiment: Kendall tau to the complete-data ranking.

    For each seed: draw Gumbel scores (task-level, or instance-level when `n_instances` is
    given), multiply the first task's scores by `scale` (the scaling corruption lambda of
    sec. 3.2; 1 = none), rank with every method; then for each `eta` remove that share of
    scores (:func:`remove_scores`), rank again, and record each method's Kendall tau-b to its own
    complete-data ranking.

    Parameters
    ----------
    etas : sequence of float
        Shares of scores to remove, each in [0, 1).
    n_seeds : int
        Repetitions (the paper uses 100).
    n_systems, n_tasks, n_instances : int
        Size of the generated benchmark (paper: 20 x 20 x 20).
    phi : float
        Dispersion of the Gumbel model (0: pure noise).
    scale : float
        Positive factor applied to the first task (lambda).
    unit : {"cell", "task", "instance"}, optional
        What is removed (see :func:`remove_scores`).
    seed : int or None
        Master seed; every draw derives from it (None: fresh randomness).

    Returns
    -------
    RobustnessResult
        ``taus[eta, seed, method]`` with methods ``sigma_l``, ``mean`` (task level) and also
        ``sigma_2l`` (instance level); ``summary()`` gives the mean per eta.

    Raises
    ------
    InvalidOptionError
        If `etas` is empty or holds a share outside [0, 1), `n_seeds` is not an integer
        >= 1, `scale` is not finite and > 0, a size or `phi` is rejected by the generator,
        or `unit` does not fit the level (``"cell"`` for task level, ``"task"`` or
        ``"instance"`` for instance level).

    Examples
    --------
    >>> res = robustness_experiment(etas=(0.2,), n_seeds=3, n_systems=6, n_tasks=8, phi=0.5)
    >>> res.methods, res.taus.shape
    (('sigma_l', 'mean'), (1, 3, 2))
    """
    etas = tuple(check_share(e, "eta", zero=True) for e in name_list(etas, "etas", kind="shares"))
    if not etas:
        raise InvalidOptionError("etas must list at least one share")
    n_seeds = check_count(n_seeds, "n_seeds", 1)
    if n_instances is not None:
        n_instances = check_count(n_instances, "n_instances", 1)
    seed = check_seed(seed)
    real = not isinstance(scale, bool) and isinstance(scale, (int, float, np.integer, np.floating))
    if not real or not math.isfinite(scale) or scale <= 0:
        raise InvalidOptionError(f"scale must be finite and > 0, got {scale!r}")
    instance_level = n_instances is not None
    methods = ("sigma_l", "sigma_2l", "mean") if instance_level else ("sigma_l", "mean")
    taus = np.empty((len(etas), n_seeds, len(methods)))
    removed = np.empty((len(etas), n_seeds))
    children = np.random.SeedSequence(seed).spawn(n_seeds)
    data: Leaderboard | InstanceScores
    for s, child in enumerate(children):
        data_seed, removal_seed = child.generate_state(2)
        if instance_level:
            data = gumbel_instances(
                n_systems, n_tasks, int(n_instances), phi=phi, seed=int(data_seed)  # type: ignore[arg-type]
            )
            if scale != 1.0:
                data = _scale_first_task(data, scale)
        else:
            data = gumbel_leaderboard(n_systems, n_tasks, phi=phi, seed=int(data_seed))
            if scale != 1.0:
                frame = data.scores
                frame.iloc[:, 0] *= scale
                data = Leaderboard.from_frame(frame, infer=False)
        complete = _method_scores(data, methods)
        n_scores = int(np.count_nonzero(~np.isnan(data.values)))
        rng = np.random.default_rng(int(removal_seed))
        for e, eta in enumerate(etas):
            thinned = remove_scores(data, eta=eta, seed=rng, unit=unit)
            removed[e, s] = 1.0 - np.count_nonzero(~np.isnan(thinned.values)) / n_scores
            for k, scores in enumerate(_method_scores(thinned, methods)):
                taus[e, s, k] = _kendall_tau(complete[k], scores)
    return RobustnessResult(
        etas=etas,
        methods=methods,
        taus=taus,
        removed=removed,
        parameters={
            "n_seeds": n_seeds,
            "n_systems": n_systems,
            "n_tasks": n_tasks,
            "n_instances": n_instances,
            "phi": phi,
            "scale": scale,
            "unit": unit or ("task" if instance_level else "cell"),
            "seed": seed,
        },
    )


def _scale_first_task(data: InstanceScores, scale: float) -> InstanceScores:
    values = np.array(data.values)
    values[:, data.offsets[0] : data.offsets[1]] *= scale
    return InstanceScores(
        values,
        systems=data.systems,
        tasks=data.tasks,
        offsets=data.offsets,
        instances=[data.instances(t) for t in data.tasks],
        lower_is_better=data.lower_is_better,
        weights=dict(data.weights.items()),
        oriented=True,
        copy=False,
    )
