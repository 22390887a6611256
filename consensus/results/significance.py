"""SignificanceResult: which systems differ beyond noise on each task (:func:`consensus.significance`).

The result stores, for every task, the pairs of systems scored on it: the difference tested,
its log p-value before and after the correction over the task's pairs, and the three-valued
relation (better / tied / worse) those give at the level. Each task's tie groups (the weak
order the positional rules see) are built from the relation by one rule,
:func:`task_tie_groups`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from ..errors import InvalidOptionError, UnknownTaskError
from .base import (
    Display,
    Displayed,
    Tiers,
    freeze_mapping,
    jsonable,
    one_line,
    readonly_array,
)

__all__ = ["SignificanceResult", "task_tie_groups"]

#: Tasks listed in the ``repr`` before "... (N more)".
_SHOWN = 8


def task_tie_groups(systems: Sequence[str], scores: np.ndarray, better: np.ndarray) -> Tiers:
    """The tie groups of one task: consecutive runs of its score order, split where noise allows.

    Systems are walked from the best score down, systems with equal scores together (a
    *level*). A group starts with a level (its *leaders*) and takes every following level
    until one holds a system significantly worse than one of the leaders; that level starts
    the next group. So within a group no system is significantly worse than the group's
    leaders (two members may still differ significantly from each other: "not significantly
    different" is not transitive), and the first level of each group is significantly worse
    than some leader of the group before it. Equal scores are never split. Systems without a
    score on the task are left out.

    The relation need not follow the score order: with instance-level scores the tests use the
    items a pair shares while the order uses each system's own items, and the rows' test uses the
    tasks a pair shares. When a later group holds a system significantly better than a member of
    an earlier group, the groups from the earlier to the later one are merged into one (repeated
    until none is left), so no group is ever significantly better than one ranked above it; a
    cycle of significant differences ends in one group.

    Parameters
    ----------
    systems : sequence of str
    scores : ndarray (n,)
        Oriented scores (higher is better), NaN where missing.
    better : ndarray of bool (n, n)
        ``better[a, b]``: ``a`` is significantly better than ``b`` on this task.

    Returns
    -------
    tuple of tuple of str
        Groups, best first; systems of a group in score order (equal scores in input order).

    Examples
    --------
    >>> better = np.zeros((4, 4), dtype=bool)
    >>> better[0, 2] = better[0, 3] = better[1, 3] = True   # a > c, a > d, b > d
    >>> task_tie_groups(["a", "b", "c", "d"], np.array([0.9, 0.8, 0.7, 0.6]), better)
    (('a', 'b'), ('c', 'd'))
    """
    scored = np.flatnonzero(~np.isnan(scores))
    order = scored[np.argsort(-scores[scored], kind="stable")]
    groups: list[list[int]] = []
    leaders: list[int] = []
    start = 0
    while start < len(order):
        stop = start + 1
        while stop < len(order) and scores[order[stop]] == scores[order[start]]:
            stop += 1
        level = [int(i) for i in order[start:stop]]
        if not groups or better[np.ix_(leaders, level)].any():
            groups.append(list(level))
            leaders = level
        else:
            groups[-1].extend(level)
        start = stop
    merged = True
    while merged:  # a later group holding a system significantly better than an earlier one's: one group
        merged = False
        for g in range(len(groups)):
            for h in range(len(groups) - 1, g, -1):
                if better[np.ix_(groups[h], groups[g])].any():
                    groups[g:h + 1] = [[i for grp in groups[g:h + 1] for i in grp]]
                    merged = True
                    break
            if merged:
                break
    return tuple(tuple(systems[i] for i in g) for g in groups)


@dataclass(frozen=True, slots=True, repr=False)
class SignificanceResult(Displayed):
    """Per task and pair of systems: is one better beyond noise?

    Attributes
    ----------
    systems, tasks : tuple of str
    scores : numpy.ndarray (systems, tasks)
        Read-only; the oriented scores the tie groups follow (higher is better; task means
        for instance-level scores), NaN where missing.
    tests : Mapping[str, str]
        Task -> the test run on it: ``"z"`` (standard errors), ``"sign"`` (the exact sign
        test; McNemar's on 0/1 scores) or ``"permutation"`` (paired sign flips).
    source : str
        Where the noise came from, in words.
    level : float
        The significance level the adjusted p-values are held to (``p <= level``: different).
    correction : str
        ``"holm"``, ``"bh"`` or ``"none"``, over the pairs of each task.
    difference : numpy.ndarray (tasks, pairs)
        Read-only; per task, for each pair ``(a, b)`` with ``a`` before ``b`` in
        :attr:`systems` (the order of ``numpy.triu_indices(n, 1)``), the difference tested,
        oriented (``a`` minus ``b``; for instance-level scores the mean paired difference on
        the items both have). NaN where either is not scored on the task.
    log_p, log_p_adjusted : numpy.ndarray (tasks, pairs)
        Read-only; natural logs of the p-values before and after the correction (logs: a p
        that underflows float64 still compares with any level). NaN as above.
    overall : numpy.ndarray (3, pairs)
        Read-only; the leaderboard rows' test, per pair: the difference of the weighted means
        over the tasks both are scored on, its log p-value and its adjusted log p-value (a
        z-test, tasks independent: the variance is ``sum w_t**2 var_t / W**2``, with ``var_t``
        the two standard errors squared, or the variance of the mean paired difference of
        instance-level scores); NaN for pairs sharing no task.
    means : numpy.ndarray (systems,)
        Read-only; each system's weighted mean of its oriented scores over the tasks it is
        scored on: the order the row groups follow.
    parameters : Mapping[str, Any]
        The other settings: ``seed`` and ``resamples`` of a permutation test, notes.

    Examples
    --------
    >>> import consensus as cs, pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.80, 0.78, 0.60], "qa_stderr": [0.01, 0.01, 0.01]},
    ...                      index=["a", "b", "c"])
    >>> res = cs.significance(cs.Leaderboard.from_frame(frame))
    >>> res.tie_groups["qa"]
    (('a', 'b'), ('c',))
    >>> res.relation("qa")
       a  b  c
    a  0  0  1
    b  0  0  1
    c -1 -1  0
    >>> res.row_groups
    (('a', 'b'), ('c',))
    """

    json_command: ClassVar[str] = "significance"

    systems: tuple[str, ...]
    tasks: tuple[str, ...]
    scores: Any
    tests: Mapping[str, str]
    source: str
    level: float
    correction: str
    difference: Any
    log_p: Any
    log_p_adjusted: Any
    overall: Any
    means: Any
    parameters: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "systems", tuple(self.systems))
        object.__setattr__(self, "tasks", tuple(self.tasks))
        n, m = len(self.systems), len(self.tasks)
        pairs = n * (n - 1) // 2
        for name, shape in (("scores", (n, m)), ("difference", (m, pairs)), ("log_p", (m, pairs)),
                            ("log_p_adjusted", (m, pairs)), ("overall", (3, pairs)), ("means", (n,))):
            array = readonly_array(getattr(self, name), np.float64)
            if array.shape != shape:
                raise InvalidOptionError(f"SignificanceResult: {name} must have shape {shape}, got {array.shape}")
            object.__setattr__(self, name, array)
        object.__setattr__(self, "tests", freeze_mapping(self.tests))
        object.__setattr__(self, "parameters", freeze_mapping(self.parameters))
        object.__setattr__(self, "level", float(self.level))

    # ------------------------------------------------------------------ per task
    def _task(self, task: str) -> int:
        try:
            return self.tasks.index(task)
        except ValueError:
            raise UnknownTaskError(task, self.tasks) from None

    def _square(self, values: np.ndarray, antisymmetric: bool) -> np.ndarray:
        n = len(self.systems)
        out = np.zeros((n, n))
        rows, cols = np.triu_indices(n, 1)
        out[rows, cols] = values
        out[cols, rows] = -values if antisymmetric else values
        return out

    def significant(self, task: str) -> np.ndarray:
        """``out[a, b]``: system ``a`` is significantly better than ``b`` on `task` (bool n x n).

        Parameters
        ----------
        task : str

        Returns
        -------
        numpy.ndarray of bool (systems, systems)

        Raises
        ------
        UnknownTaskError
            If `task` is not a task of the result.
        """
        j = self._task(task)
        with np.errstate(invalid="ignore"):
            sign = np.where(self.log_p_adjusted[j] <= np.log(self.level), np.sign(self.difference[j]), 0.0)
        return self._square(np.nan_to_num(sign), antisymmetric=True) > 0

    def relation(self, task: str) -> pd.DataFrame:
        """The three-valued relation on `task`: 1 (row better), 0 (tied or not compared), -1 (worse).

        Parameters
        ----------
        task : str

        Returns
        -------
        pandas.DataFrame
            Systems x systems, integers.
        """
        better = self.significant(task).astype(np.int8)
        index = pd.Index(self.systems, dtype=object)
        return pd.DataFrame(better - better.T, index=index, columns=index)

    def pvalues(self, task: str, *, adjusted: bool = True) -> pd.DataFrame:
        """The p-values of `task`'s pairs.

        Parameters
        ----------
        task : str
        adjusted : bool, default=True
            After the correction over the task's pairs (False: as tested).

        Returns
        -------
        pandas.DataFrame
            Systems x systems, symmetric; NaN on the diagonal and where either is not scored.
        """
        j = self._task(task)
        logs = self.log_p_adjusted[j] if adjusted else self.log_p[j]
        square = self._square(np.exp(logs), antisymmetric=False)
        square[np.diag_indices_from(square)] = np.nan
        index = pd.Index(self.systems, dtype=object)
        return pd.DataFrame(square, index=index, columns=index)

    @property
    def tie_groups(self) -> Mapping[str, Tiers]:
        """Task -> its tie groups, best first (:func:`task_tie_groups`)."""
        return freeze_mapping({
            t: task_tie_groups(self.systems, self.scores[:, j], self.significant(t)) for j, t in enumerate(self.tasks)
        })

    def overall_significant(self) -> np.ndarray:
        """``out[a, b]``: system ``a``'s weighted mean is significantly above ``b``'s (bool n x n;
        the row groups' relation, see :attr:`overall`).

        Returns
        -------
        numpy.ndarray of bool (systems, systems)
        """
        with np.errstate(invalid="ignore"):
            sign = np.where(self.overall[2] <= np.log(self.level), np.sign(self.overall[0]), 0.0)
        return self._square(np.nan_to_num(sign), antisymmetric=True) > 0

    @property
    def row_groups(self) -> Tiers:
        """The leaderboard's rows in tie groups, best first: the systems in the order of their
        weighted means (:attr:`means`), grouped by the rule of :func:`task_tie_groups` under the
        rows' relation (:meth:`overall_significant`)."""
        return task_tie_groups(self.systems, self.means, self.overall_significant())

    def rows_frame(self) -> pd.DataFrame:
        """One row per system, in the order of :attr:`row_groups`: its weighted mean and group.

        Returns
        -------
        pandas.DataFrame
            Columns ``system``, ``mean`` (oriented) and ``group`` (1 = the best).
        """
        where = {s: i for i, s in enumerate(self.systems)}
        rows = [{"system": s, "mean": float(self.means[where[s]]), "group": g}
                for g, tier in enumerate(self.row_groups, start=1) for s in tier]
        return pd.DataFrame(rows, columns=["system", "mean", "group"])

    def separated(self) -> pd.Series:
        """Per task, the share of its compared pairs found significantly different.

        Returns
        -------
        pandas.Series
            Task -> share in [0, 1].
        """
        with np.errstate(invalid="ignore"):
            hit = self.log_p_adjusted <= np.log(self.level)
        compared = ~np.isnan(self.log_p_adjusted)
        share = [float(hit[j].sum() / compared[j].sum()) if compared[j].any() else 0.0 for j in range(len(self.tasks))]
        return pd.Series(share, index=pd.Index(self.tasks, dtype=object), name="separated")

    # ------------------------------------------------------------------ tables
    def to_frame(self) -> pd.DataFrame:
        """One row per task and compared pair.

        Returns
        -------
        pandas.DataFrame
            Columns ``task``, ``system``, ``rival``, ``test``, ``difference`` (oriented,
            ``system`` minus ``rival``), ``p_value``, ``p_adjusted`` and ``result``
            (``"better"``, ``"tied"`` or ``"worse"``: the system against the rival).
        """
        n = len(self.systems)
        rows, cols = np.triu_indices(n, 1)
        parts = []
        log_level = np.log(self.level)
        for j, task in enumerate(self.tasks):
            keep = ~np.isnan(self.log_p_adjusted[j])
            diff = self.difference[j][keep]
            adjusted = self.log_p_adjusted[j][keep]
            result = np.where(adjusted <= log_level, np.where(diff > 0, "better", np.where(diff < 0, "worse", "tied")),
                              "tied")
            parts.append(pd.DataFrame({
                "task": task,
                "system": np.asarray(self.systems, dtype=object)[rows[keep]],
                "rival": np.asarray(self.systems, dtype=object)[cols[keep]],
                "test": self.tests[task],
                "difference": diff,
                "p_value": np.exp(self.log_p[j][keep]),
                "p_adjusted": np.exp(adjusted),
                "result": result,
            }))
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()

    def groups_frame(self) -> pd.DataFrame:
        """One row per task and scored system: its tie group and score.

        Returns
        -------
        pandas.DataFrame
            Columns ``task``, ``system``, ``group`` (1 = the best) and ``score`` (oriented).
        """
        rows = []
        for j, (task, tiers) in enumerate(self.tie_groups.items()):
            for g, tier in enumerate(tiers, start=1):
                for s in tier:
                    rows.append({"task": task, "system": s, "group": g,
                                 "score": float(self.scores[self.systems.index(s), j])})
        return pd.DataFrame(rows, columns=["task", "system", "group", "score"])

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            The settings, ``separated`` per task, ``tie_groups`` per task and ``pairs``
            (:meth:`to_frame` as records).
        """
        return {
            "systems": list(self.systems),
            "tasks": list(self.tasks),
            "level": self.level,
            "correction": self.correction,
            "tests": dict(self.tests),
            "source": self.source,
            "parameters": jsonable(dict(self.parameters)),
            "separated": {t: float(v) for t, v in self.separated().items()},
            "tie_groups": {t: [list(g) for g in tiers] for t, tiers in self.tie_groups.items()},
            "row_groups": [list(g) for g in self.row_groups],
            "pairs": jsonable(self.to_frame().to_dict(orient="records")),
        }

    @property
    def setting(self) -> str:
        """The test, level and correction in a few words (``"z test, level 0.05, holm"``), as the
        rules record their ``significance`` option."""
        tests = "/".join(sorted(set(self.tests.values())))
        return f"{tests} test, level {self.level:g}, {self.correction}"

    def describe(self) -> str:
        """One line: the test, the level, the correction and where the noise came from.

        Returns
        -------
        str
        """
        tests = sorted(set(self.tests.values()))
        return (f"{'/'.join(tests)} test{'s' if len(tests) > 1 else ''} at level {self.level:g}, "
                f"{self.correction} correction over the pairs of each task; noise from {self.source}")

    def _display(self) -> Display:
        separated = self.separated()
        groups = self.tie_groups
        rows = self.row_groups
        shown_rows = " > ".join("{" + ", ".join(map(one_line, g[:_SHOWN])) + (", ..." if len(g) > _SHOWN else "") + "}"
                                for g in rows[:3]) + (f" > ... ({len(rows) - 3} more)" if len(rows) > 3 else "")
        facts: list[tuple[str, Any]] = [("test", self.describe()), ("rows (weighted means)", shown_rows)]
        shown = list(self.tasks[:_SHOWN])
        for t in shown:
            facts.append((one_line(t), f"{len(groups[t])} tie group(s), {separated[t]:.0%} of pairs separated"))
        if len(self.tasks) > _SHOWN:
            facts.append(("...", f"({len(self.tasks) - _SHOWN} more tasks)"))
        title = f"SignificanceResult: {len(self.systems)} systems x {len(self.tasks)} tasks"
        return title, facts, None
