"""Which systems differ beyond noise on each task: :func:`significance`.

The noise comes from one of two places:

- **standard errors** beside a leaderboard's scores (the columns the reading step recognises,
  ``qa_stderr``, ``Std. error``; the ``stderr=`` frame): a z-test per pair (:func:`._tests.z_test`);
- **instance-level scores** (:class:`~consensus.InstanceScores`): a paired test on the items
  both systems have: the exact sign test (McNemar's on 0/1 scores) or the paired permutation
  test (:mod:`._tests`).

A missing standard error on a scored cell is an error naming the cell, not a tie: treating
it as a tie would change rankings without saying so, and treating it as exact would separate
systems the data cannot. Give 0 for a score known exactly, or leave the task out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..arguments import check_count, check_seed, check_share
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, MissingStandardErrorError
from ..results.significance import SignificanceResult
from ._tests import CORRECTIONS, adjusted, sign_flip, sign_test, z_test

__all__ = ["significance", "TESTS", "check_level"]

#: The tests by name; ``"auto"`` picks ``"z"`` for a leaderboard and, for instance-level
#: scores, ``"sign"`` on a task of 0/1 scores and ``"permutation"`` otherwise.
TESTS: tuple[str, ...] = ("auto", "z", "sign", "permutation")


def check_level(level: object, option: str = "level") -> float:
    """A significance level: a number strictly between 0 and 1 (:func:`consensus.arguments.check_share`).

    Parameters
    ----------
    level : object
    option : str, default="level"
        Its name, for the message.

    Returns
    -------
    float

    Raises
    ------
    InvalidOptionError
        Not a number, or not in (0, 1).
    """
    return check_share(level, option)


def significance(
    data: Leaderboard | InstanceScores,
    *,
    stderr: pd.DataFrame | None = None,
    level: float = 0.05,
    correction: str = "holm",
    test: str = "auto",
    resamples: int | None = None,
    seed: int | None = None,
) -> SignificanceResult:
    """For each task and pair of systems: better, tied or worse beyond noise.

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        A leaderboard with standard errors (read beside its scores, :attr:`Leaderboard.stderr`,
        or given as `stderr`), or instance-level scores.
    stderr : pandas.DataFrame, optional
        Standard errors, systems x tasks like the scores (in the scores' units, >= 0); it
        replaces those read from the file. Cells where the score is missing are ignored.
    level : float, default=0.05
        A pair is different when its adjusted p-value is at most `level` (named apart from
        :func:`~consensus.rank_stability`'s ``alpha``, which is another threshold).
    correction : {"holm", "bh", "none"}, default="holm"
        Over the pairs of each task: Holm's step-down (family-wise error), Benjamini-Hochberg
        (false discovery rate) or none.
    test : {"auto", "z", "sign", "permutation"}, default="auto"
        ``"z"`` needs standard errors (a leaderboard); ``"sign"`` and ``"permutation"`` need
        instance-level scores. ``"auto"``: ``"z"`` for a leaderboard; for instance-level
        scores ``"sign"`` on a task whose scores are all 0 or 1 (the exact McNemar test),
        ``"permutation"`` otherwise.
    resamples : int, optional
        Default 10,000.
        Sign patterns of the permutation test (all ``2**k`` when that is fewer: exact); only for
        instance-level scores. Its
        p-values are at least ``1 / (resamples + 1)``: with Holm over ``m`` pairs, no pair can
        be separated unless that is at most ``level / m`` (the result's notes say so).
    seed : int, optional
        Seed of the permutation test's patterns (default 0; recorded in the result); only for
        instance-level scores.

    Returns
    -------
    SignificanceResult

    Raises
    ------
    MissingStandardErrorError
        A scored cell of a leaderboard has no standard error (named), or none was read.
    InvalidOptionError
        A bad option, a test the data cannot run, or `stderr` with instance-level scores.

    Examples
    --------
    >>> import consensus as cs, pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.80, 0.78, 0.60], "nli": [0.5, 0.7, 0.9]}, index=["a", "b", "c"])
    >>> se = pd.DataFrame(0.01, index=frame.index, columns=frame.columns)
    >>> res = cs.significance(cs.Leaderboard.from_frame(frame), stderr=se)
    >>> res.tie_groups["qa"], res.tie_groups["nli"]
    ((('a', 'b'), ('c',)), (('c',), ('b',), ('a',)))
    """
    level, correction, test, resamples, seed = _significance_options(data, stderr, level, correction, test,
                                                                      resamples, seed)
    if isinstance(data, InstanceScores):
        return _from_instances(data, level, correction, test, resamples, seed)
    return _from_stderr(data, stderr, level, correction)


def _significance_options(
    data: object, stderr: object, level: object, correction: object, test: object, resamples: object, seed: object
) -> tuple[float, str, str, int, int]:
    """Every option of :func:`significance`, checked in one place before any test runs (the standard
    errors themselves are checked cell by cell where they are read)."""
    level = check_level(level)
    if correction not in CORRECTIONS:
        raise InvalidOptionError(f"correction must be one of {', '.join(map(repr, CORRECTIONS))}, got {correction!r}")
    if test not in TESTS:
        raise InvalidOptionError(f"test must be one of {', '.join(map(repr, TESTS))}, got {test!r}")
    if isinstance(data, Leaderboard) and (resamples is not None or seed is not None):
        raise InvalidOptionError("resamples= and seed= belong to the permutation test of instance-level scores; a "
                                 "leaderboard with standard errors takes the z-test")
    resamples = check_count(10_000 if resamples is None else resamples, "resamples", 1)
    seed = check_seed(0 if seed is None else seed, allow_none=False)
    if isinstance(data, InstanceScores):
        if stderr is not None:
            raise InvalidOptionError("stderr= applies to a Leaderboard; instance-level scores are tested item by item")
        if test == "z":
            raise InvalidOptionError("test='z' needs standard errors: pass the Leaderboard (instances.to_leaderboard() "
                                     "has none); instance-level scores take test='sign' or 'permutation'")
    elif isinstance(data, Leaderboard):
        if test not in ("auto", "z"):
            raise InvalidOptionError(f"test={test!r} needs instance-level scores (InstanceScores); a leaderboard "
                                     "with standard errors takes test='z'")
    else:
        raise InvalidOptionError(f"significance needs a Leaderboard or InstanceScores, got {type(data).__name__}")
    return level, str(correction), str(test), int(resamples), int(seed)


def _pair_arrays(n: int, m: int) -> tuple[np.ndarray, ...]:
    """The pairs' rows and columns (``triu_indices(n, 1)``) and three NaN arrays, tasks x pairs:
    the differences, log p-values and adjusted log p-values to fill."""
    rows, cols = np.triu_indices(n, 1)
    difference = np.full((m, len(rows)), np.nan)
    return rows, cols, difference, difference.copy(), difference.copy()


def _from_stderr(lb: Leaderboard, stderr: pd.DataFrame | None, level: float, correction: str) -> SignificanceResult:
    source = "the stderr= frame" if stderr is not None else "the standard-error columns read beside the scores"
    se = _stderr_values(lb, stderr)
    values = lb.values
    rows, cols, difference, log_p, log_adj = _pair_arrays(lb.n_systems, len(lb.tasks))
    m = len(lb.tasks)
    overall = _Overall(lb.n_systems)
    weights = lb.weight_array
    for j in range(m):
        v = values[:, j]
        both = ~np.isnan(v[rows]) & ~np.isnan(v[cols])
        d = v[rows[both]] - v[cols[both]]
        difference[j, both] = d
        logs = z_test(d, se[rows[both], j], se[cols[both], j])
        log_p[j, both] = logs
        log_adj[j, both] = adjusted(logs, correction)
        scored = ~np.isnan(v)
        v0, var0 = np.where(scored, v, 0.0), np.where(scored, se[:, j] ** 2, 0.0)
        overall.add(float(weights[j]), np.logical_and.outer(scored, scored), np.subtract.outer(v0, v0),
                    np.add.outer(var0, var0))
    if stderr is None and lb.reading.stderr_source:
        source = lb.reading.stderr_source
    elif stderr is None:
        read = lb.reading.to_dict().get("stderr_of") or {}
        source += (" (" + ", ".join(f"{t}: {c}" for t, c in list(read.items())[:5]) + (", ..." if len(read) > 5 else "")
                   + ")") if read else ""
    return SignificanceResult(
        lb.systems, lb.tasks, values, dict.fromkeys(lb.tasks, "z"), source, level, correction,
        difference, log_p, log_adj, overall.result(correction), _weighted_means(values, weights),
        {"notes": _notes(log_adj, level, correction, None, {}, lb.tasks)},
    )


def _weighted_means(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Each system's weighted mean over the tasks it is scored on (NaN: none of positive weight)."""
    scored = ~np.isnan(values)
    total = scored.astype(np.float64) @ weights
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, np.where(scored, values, 0.0) @ weights / np.where(total > 0, total, 1.0), np.nan)


class _Overall:
    """The pairs' difference of weighted means over the tasks both are scored on, and its
    variance, summed task by task: ``D = sum w_t d_t / W``, ``Var = sum w_t**2 var_t / W**2``
    (tasks independent)."""

    def __init__(self, n: int) -> None:
        self.weight = np.zeros((n, n))
        self.total = np.zeros((n, n))
        self.variance = np.zeros((n, n))

    def add(self, w: float, both: np.ndarray, difference: np.ndarray, variance: np.ndarray) -> None:
        """One task of weight `w`: `both[a, b]` where the pair is compared on it."""
        if w <= 0:
            return
        self.weight += w * both
        self.total += w * np.where(both, difference, 0.0)
        self.variance += w * w * np.where(both, variance, 0.0)

    def result(self, correction: str) -> np.ndarray:
        """(3, pairs): the difference, its log p-value (z-test) and the adjusted log p-value; NaN
        for pairs sharing no task of positive weight."""
        rows, cols = np.triu_indices(self.weight.shape[0], 1)
        w = self.weight[rows, cols]
        out = np.full((3, len(rows)), np.nan)
        some = w > 0
        d = self.total[rows, cols][some] / w[some]
        se = np.sqrt(self.variance[rows, cols][some]) / w[some]
        out[0, some] = d
        out[1, some] = z_test(d, se, np.zeros_like(se))
        out[2, some] = adjusted(out[1, some], correction)
        return out


def _stderr_values(lb: Leaderboard, stderr: pd.DataFrame | None) -> np.ndarray:
    """The standard errors as an n x m array aligned with the scores (NaN where no score)."""
    if stderr is None:
        frame = lb.stderr
        if frame is None:
            raise MissingStandardErrorError(
                [], "no standard errors: the file has no standard-error column (qa_stderr, 'Std. error', ...); "
                "pass stderr= (a frame like the scores) or significance(instances) with instance-level scores"
            )
    else:
        if not isinstance(stderr, pd.DataFrame):
            raise InvalidOptionError(f"stderr must be a pandas DataFrame (systems x tasks), got {type(stderr).__name__}")
        frame = stderr
        unknown_s = [s for s in frame.index if s not in set(lb.systems)]
        unknown_t = [t for t in frame.columns if t not in set(lb.tasks)]
        if unknown_s or unknown_t:
            what = f"system {unknown_s[0]!r}" if unknown_s else f"task {unknown_t[0]!r}"
            raise InvalidOptionError(f"stderr names {what}, which is not on the leaderboard")
    frame = frame.reindex(index=list(lb.systems), columns=list(lb.tasks))
    try:
        se = frame.to_numpy(dtype=np.float64)
    except (TypeError, ValueError):
        numbers = frame.apply(pd.to_numeric, errors="coerce")
        s, t = next((s, t) for s in frame.index for t in frame.columns
                    if pd.isna(numbers.at[s, t]) and not pd.isna(frame.at[s, t]))
        raise InvalidOptionError(f"stderr of system {s!r} on task {t!r} is {frame.at[s, t]!r}, not a number") from None
    scored = ~np.isnan(lb.values)
    bad = np.argwhere(scored & (~np.isfinite(se) & ~np.isnan(se) | (se < 0)))
    if len(bad):
        i, j = (int(x) for x in bad[0])
        raise InvalidOptionError(
            f"standard error of system {lb.systems[i]!r} on task {lb.tasks[j]!r} is {se[i, j]!r}; it must be finite and >= 0"
        )
    lacking = np.argwhere(scored & np.isnan(se))
    if len(lacking):
        cells = [(lb.systems[int(i)], lb.tasks[int(j)]) for i, j in lacking]
        s, t = cells[0]
        tasks_without = [t for j, t in enumerate(lb.tasks) if np.isnan(se[scored[:, j], j]).all()]
        whole = f" (task {tasks_without[0]!r} has none at all)" if tasks_without else ""
        raise MissingStandardErrorError(
            cells, f"{len(cells)} scored cell(s) have no standard error, first system {s!r} on task {t!r}{whole}: "
            "no test is possible there; give 0 for a score known exactly, or leave the task out"
        )
    return np.where(scored, se, np.nan)


def _from_instances(scores: InstanceScores, level: float, correction: str, test: str, resamples: int,
                    seed: int) -> SignificanceResult:
    n = scores.n_systems
    m = len(scores.tasks)
    rows, cols, difference, log_p, log_adj = _pair_arrays(n, m)
    means = np.full((n, m), np.nan)
    tests: dict[str, str] = {}
    items: dict[str, int] = {}  # permutation-tested tasks: the most items a pair shares
    overall = _Overall(n)
    weights = np.asarray([float(scores.weights[t]) for t in scores.tasks])
    for j, task in enumerate(scores.tasks):
        x = np.asarray(scores.task_values(task), dtype=np.float64)
        ok = ~np.isnan(x)
        counts = ok.sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            means[:, j] = np.where(counts > 0, np.where(ok, x, 0.0).sum(axis=1) / np.maximum(counts, 1), np.nan)
        binary = bool(np.isin(x[ok], (0.0, 1.0)).all() or np.isin(x[ok], (0.0, -1.0)).all())
        chosen = ("sign" if binary else "permutation") if test == "auto" else test
        tests[task] = chosen
        okf = ok.astype(np.float64)
        shared = okf @ okf.T
        # each item centred on its mean over the systems scored on it: the paired differences are
        # unchanged, and the sums of products below keep their precision with scores near 1e8
        with np.errstate(invalid="ignore", divide="ignore"):
            centre = np.where(ok.any(axis=0), np.nanmean(np.where(ok, x, np.nan), axis=0), 0.0)
        x0 = np.where(ok, x - centre, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_diff = (x0 @ okf.T - okf @ x0.T) / shared
        if chosen == "sign":
            wins, losses = _item_wins(x, ok)
            logs = sign_test(wins, losses)
            with np.errstate(invalid="ignore", divide="ignore"):  # the share of shared items won minus lost
                tested = (wins - losses) / shared
        else:
            logs = sign_flip(x0, ok, resamples, seed + j)
            tested = mean_diff
        # the rows' test: the variance of the mean paired difference under the sign-flip null,
        # sum(d**2) / k**2 (never 0 unless every difference is; an estimated 0 is not exactness)
        with np.errstate(invalid="ignore", divide="ignore"):
            squares = (x0**2) @ okf.T + okf @ (x0**2).T - 2 * x0 @ x0.T
            var = np.maximum(squares, 0.0) / shared**2
        usable = shared >= 1
        overall.add(float(weights[j]), usable, np.where(usable, mean_diff, 0.0), np.where(usable, var, 0.0))
        compared = shared[rows, cols] > 0
        difference[j, compared] = tested[rows, cols][compared]
        if chosen == "permutation":
            items[task] = int(shared[rows, cols].max(initial=0))
        log_p[j, compared] = logs[rows, cols][compared]
        log_adj[j, compared] = adjusted(log_p[j, compared], correction)
    kinds = sorted(set(tests.values()))
    source = "instance-level scores (" + ", ".join(
        {"sign": "exact sign test on the shared items, McNemar's on 0/1",
         "permutation": f"paired permutation test, {resamples} sign patterns, seed {seed} + task index"}[k] for k in kinds
    ) + ")"
    parameters: dict[str, Any] = {"seed": seed, "resamples": resamples}
    parameters["notes"] = _notes(log_adj, level, correction, resamples, items, scores.tasks)
    return SignificanceResult(
        scores.systems, scores.tasks, means, tests, source, level, correction, difference, log_p, log_adj,
        overall.result(correction), _weighted_means(means, weights), parameters,
    )


def _item_wins(x: np.ndarray, ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``wins[a, b]``: items both have where ``a`` scores higher (one product per distinct score
    for 0/1 data; else per item block)."""
    distinct = np.unique(x[ok])
    if len(distinct) <= 16:  # sum over score levels: a > b where a is at level v and b below it
        wins = np.zeros((x.shape[0], x.shape[0]))
        below = np.zeros_like(x)
        for v in distinct:  # ascending
            at = (ok & (x == v)).astype(np.float64)
            wins += at @ below.T
            below += at
        return wins, wins.T
    wins = np.zeros((x.shape[0], x.shape[0]))
    for a in range(x.shape[0]):
        with np.errstate(invalid="ignore"):
            wins[a] = (x[a][None, :] > x).sum(axis=1)  # NaN compares False: missing never wins
    return wins, wins.T


def _notes(log_adj: np.ndarray, level: float, correction: str, resamples: int | None, items: dict[str, int],
           tasks: tuple[str, ...]) -> list[str]:
    """What the permutation test cannot do here: a task whose smallest possible p-value, after the
    correction, stays above the level (exact: ``2 / 2**k`` with ``k`` shared items; sampled:
    ``1 / (resamples + 1)``)."""
    notes = []
    for task, k in items.items():
        j = tasks.index(task)
        pairs = int((~np.isnan(log_adj[j])).sum())
        exact = resamples is not None and k < 63 and 2**k <= resamples
        floor = 2.0 / 2**k if exact else 1.0 / ((resamples or 0) + 1)
        scale = pairs if correction in ("holm", "bh") else 1  # the smallest adjusted p is m p_min under both
        if pairs and floor * scale > level:
            why = (f"{k} shared items: no exact p-value is below {floor:.2g}" if exact else
                   f"{resamples} resamples: no p-value is below {floor:.2g}; raise resamples above {int(scale / level)}")
            notes.append(f"task {task!r}: {why}, so {correction if correction != 'none' else 'the test'} over "
                         f"{pairs} pairs can separate none at level {level:g}")
    return notes
