"""Instance-level scores: one score per system, task and test instance.

Colombo et al. (2022, sec. 3.3) and Himmi et al. (2023, sec. 1.2) aggregate instance-level
scores ``s[n, t, k]`` either in one level (every instance of every task is a ranking) or in two
levels (instances -> task ranking -> final ranking). :class:`InstanceScores` holds such data,
validated once, with missing scores allowed (a system may miss whole tasks or some instances),
and plugs into :func:`consensus.impute_pairwise` and everything that accepts a pairwise matrix
(through :func:`consensus.majority._inputs.as_pairwise`).

Storage is one dense ``float64`` array, systems x instances of all tasks (tasks contiguous),
oriented so that higher is better, NaN where missing: 10 million scores take 80 MB.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import lower_names, name_list
from ..errors import (
    DuplicateInstanceError,
    EmptyLabelError,
    InvalidOptionError,
    LeaderboardError,
    NonNumericScoreError,
    NoTaskError,
    TooFewSystemsError,
)
from ..io._cells import check_instances, label_codes, numeric_scores
from ._docs import SECTIONS
from ._leaderboard import Leaderboard
from ._task_scores import TaskScores
from ._validation import check_labels, check_task_names, check_weights

__all__ = ["InstanceScores"]



@fill_doc(SECTIONS)
class InstanceScores(TaskScores):
    """Validated instance-level scores: systems x (task, instance), missing scores allowed.

    Build it with :meth:`from_long` (one row per system, task and instance), :meth:`from_arrays`
    (one systems x instances array per task) or :func:`read_instances` (CSV/Parquet files).
    Every task is oriented so that higher is better (lower-is-better tasks are negated).

    Attributes
    ----------
    systems, tasks : tuple of str
        Labels, in order of first appearance.
    values : ndarray (n_systems, n_instances_total)
        Oriented scores, read-only, NaN where missing; the instances of task ``t`` are the
        columns ``offsets[t]:offsets[t + 1]``.
    offsets : ndarray (n_tasks + 1,)
        Column offsets of the tasks in :attr:`values`.
    weights : pandas.Series
        Task weights (default 1); each instance of a task carries its task's weight.
    {lower_is_better}

    Examples
    --------
    >>> long = pd.DataFrame({
    ...     "system":   ["a", "a", "b", "b", "c", "a", "b", "c"],
    ...     "task":     ["qa", "qa", "qa", "qa", "qa", "mt", "mt", "mt"],
    ...     "instance": [1, 2, 1, 2, 2, "x", "x", "x"],
    ...     "score":    [1.0, 0.0, 1.0, 1.0, 0.0, 0.3, 0.5, 0.4],
    ... })
    >>> scores = InstanceScores.from_long(long)
    >>> scores
    InstanceScores(3 systems x 2 tasks, 3 instances, 8 scores, 1 missing)
    >>> scores.task_frame("qa")
         1    2
    a  1.0  0.0
    b  1.0  1.0
    c  NaN  0.0
    """

    __slots__ = ("_systems", "_tasks", "_values", "_offsets", "_instances", "_weights", "_lower")

    @fill_doc(SECTIONS)
    def __init__(
        self,
        values: np.ndarray,
        *,
        systems: Sequence[str],
        tasks: Sequence[str],
        offsets: Sequence[int] | np.ndarray,
        instances: Sequence[Sequence[object]],
        lower_is_better: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        oriented: bool = False,
        copy: bool = True,
    ) -> None:
        """Low-level constructor; prefer :meth:`from_long` or :meth:`from_arrays`.

        `values` is a float array systems x instances (tasks contiguous, see `offsets`), in the
        original orientation unless `oriented` is true. It is validated (:func:`check_instances`)
        and copied unless `copy` is false (then the array is taken over and made read-only).

        Parameters
        ----------
        values : numpy.ndarray
            Scores, systems x instances of all tasks (tasks contiguous), NaN where missing.
        systems, tasks : sequence of str
            Row labels and task labels.
        offsets : sequence of int
            ``n_tasks + 1`` column offsets rising from 0 to ``values.shape[1]``, at least one
            instance per task.
        instances : sequence of sequences
            Instance ids of each task, one per column of the task.
        lower_is_better : iterable of str, optional
            Tasks where a lower score is better.
        {weights_option}
        oriented : bool, default=False
            Whether `values` is already oriented (lower-is-better tasks negated).
        copy : bool, default=True
            Copy `values`; when false the array is taken over (copied anyway when it is
            read-only and needs negating).

        Raises
        ------
        {label_raises}
        LeaderboardError
            If `values`, `offsets` or `instances` do not fit together.
        UnknownTaskError
            If `lower_is_better` or `weights` name an unknown task.
        InvalidOptionError
            If `lower_is_better` is not a list of task names (or a dict task -> bool).
        InvalidWeightError
            If a weight is invalid, or all weights are zero.
        DuplicateInstanceError
            If a task lists an instance id twice.
        NonFiniteScoreError, EmptyTaskError, EmptySystemError
            If a score is infinite, a task or instance has no score, or a system has none.
        """
        systems = tuple(systems)
        tasks = tuple(tasks)
        check_labels(systems, "system")
        check_labels(tasks, "task")
        if not tasks:
            raise NoTaskError()
        if len(systems) < 2:
            raise TooFewSystemsError(len(systems))
        offsets_arr = np.array(offsets, dtype=np.int64)
        values = np.asarray(values, dtype=np.float64)
        if values.ndim != 2 or values.shape[0] != len(systems):
            raise LeaderboardError(
                f"instance scores must be a {len(systems)} x n_instances array, got shape {values.shape}"
            )
        if (
            offsets_arr.shape != (len(tasks) + 1,)
            or offsets_arr[0] != 0
            or offsets_arr[-1] != values.shape[1]
            or np.any(np.diff(offsets_arr) < 1)
        ):
            raise LeaderboardError(
                f"offsets must rise from 0 to {values.shape[1]} with at least one instance per task, "
                f"got {offsets_arr.tolist()[:10]}"
            )
        ids = tuple(pd.Index(list(ids) if not isinstance(ids, pd.Index) else ids) for ids in instances)
        if len(ids) != len(tasks) or any(len(ix) != b - a for ix, a, b in zip(ids, offsets_arr, offsets_arr[1:])):
            raise LeaderboardError("one instance id is needed per column of each task")
        lower = frozenset(check_task_names(lower_names(lower_is_better), tasks, "lower_is_better"))
        w = check_weights(weights, tasks)
        for t, ix in zip(tasks, ids):
            if ix.has_duplicates:
                raise DuplicateInstanceError(None, t, ix[ix.duplicated()].unique().tolist())
        check_instances(values, systems, tasks, offsets_arr, ids)
        if copy or (lower and not oriented and not values.flags.writeable):
            values = values.copy()
        if lower and not oriented:
            for t in lower:
                k = tasks.index(t)
                values[:, offsets_arr[k] : offsets_arr[k + 1]] *= -1.0
        values.flags.writeable = False
        offsets_arr.flags.writeable = False
        self._systems = systems
        self._tasks = tasks
        self._values = values
        self._offsets = offsets_arr
        self._instances = ids
        self._weights = w
        self._lower = lower

    # ------------------------------------------------------------------ constructors
    @classmethod
    @fill_doc(SECTIONS)
    def from_long(
        cls,
        frame: pd.DataFrame,
        *,
        system: str = "system",
        task: str = "task",
        instance: str = "instance",
        score: str = "score",
        lower_is_better: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
    ) -> InstanceScores:
        """Build from a long frame: one row per (system, task, instance).

        Parameters
        ----------
        frame : pandas.DataFrame
            Holds the four columns named below (other columns are ignored).
        system, task, instance, score : str
            Column names. Instance ids are matched within a task (``1`` of task ``qa`` and
            ``1`` of task ``mt`` are different instances); they are kept as given.
        {lower_is_better_option}
        {weights_option}

        Returns
        -------
        InstanceScores
            Systems and tasks in order of first appearance (or in the order of the categories
            of a categorical column); the instances of a task in order of first appearance.
            A (system, task, instance) never listed, or listed with a NaN score, is a missing
            score.

        Raises
        ------
        DuplicateInstanceError
            A (system, task, instance) listed twice, naming the system, task and instances.
        EmptyTaskError
            A task, or an instance, where no system has a score.
        NonNumericScoreError, NonFiniteScoreError, EmptySystemError, EmptyLabelError
            Bad scores or labels (also a missing instance id), naming the culprit.
        LeaderboardError
            `frame` is not a DataFrame or lacks one of the named columns.
        NoTaskError
            `frame` has no rows.
        TooFewSystemsError
            Fewer than 2 systems.
        UnknownTaskError, InvalidWeightError
            `lower_is_better` or `weights` name an unknown task, or a weight is invalid.

        Examples
        --------
        >>> long = pd.DataFrame({"system": ["a", "b", "a", "b"], "task": ["t"] * 4,
        ...                      "instance": [0, 0, 1, 1], "score": [0.2, 0.4, 0.9, 0.1]})
        >>> InstanceScores.from_long(long).task_frame("t")
             0    1
        a  0.2  0.9
        b  0.4  0.1
        """
        if not isinstance(frame, pd.DataFrame):
            raise LeaderboardError(f"expected a pandas DataFrame, got {type(frame).__name__}")
        for col in (system, task, instance, score):
            if not isinstance(col, Hashable) or col not in frame.columns:
                raise LeaderboardError(
                    f"column {col!r} is not in the frame; its columns are "
                    f"{', '.join(repr(str(c)) for c in frame.columns[:10])}"
                    "; pass system=, task=, instance=, score= to name them"
                )
        if len(frame) == 0:
            raise NoTaskError("the frame has no rows")
        sys_codes, systems = label_codes(frame[system], "system")
        task_codes, tasks = label_codes(frame[task], "task")
        inst_raw = frame[instance]
        inst_codes, inst_uniques = pd.factorize(inst_raw, sort=False, use_na_sentinel=True)
        if (inst_codes < 0).any():
            row = int(np.argmax(inst_codes < 0))
            raise EmptyLabelError("instance", row)
        scores = numeric_scores(frame[score], task_codes, tasks, sys_codes, systems)

        n_sys, n_inst = len(systems), max(len(inst_uniques), 1)
        key = task_codes.astype(np.int64) * n_inst + inst_codes
        key_codes, key_uniques = pd.factorize(key, sort=False)
        task_of_key = key_uniques // n_inst
        order = np.argsort(task_of_key, kind="stable")  # tasks contiguous, first-appearance inside
        position = np.empty(len(order), dtype=np.int64)
        position[order] = np.arange(len(order), dtype=np.int64)
        col = position[key_codes]
        n_cols = len(order)
        offsets = np.searchsorted(task_of_key[order], np.arange(len(tasks) + 1))
        instance_ids = inst_uniques.take(key_uniques[order] % n_inst)
        ids = [instance_ids[offsets[t] : offsets[t + 1]] for t in range(len(tasks))]

        cell = sys_codes.astype(np.int64) * n_cols + col
        seen = np.bincount(cell, minlength=n_sys * n_cols)
        if seen.max(initial=0) > 1:
            dup_cells = np.nonzero(seen > 1)[0]
            first_sys = dup_cells[0] // n_cols
            same = dup_cells[dup_cells // n_cols == first_sys]
            t_first = int(np.searchsorted(offsets, same[0] % n_cols, side="right") - 1)
            in_task = same[(same % n_cols >= offsets[t_first]) & (same % n_cols < offsets[t_first + 1])]
            shown = instance_ids.take(in_task % n_cols).tolist()
            raise DuplicateInstanceError(systems[first_sys], tasks[t_first], shown)
        del seen
        values: np.ndarray = np.full(n_sys * n_cols, np.nan)
        values[cell] = scores
        values = values.reshape(n_sys, n_cols)
        return cls(
            values,
            systems=systems,
            tasks=tasks,
            offsets=offsets,
            instances=ids,
            lower_is_better=lower_is_better,
            weights=weights,
            copy=False,
        )

    @classmethod
    @fill_doc(SECTIONS)
    def from_arrays(
        cls,
        arrays: Mapping[str, Any],
        *,
        systems: Sequence[str],
        instances: Mapping[str, Sequence[object]] | None = None,
        lower_is_better: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
    ) -> InstanceScores:
        """Build from one array per task, systems x instances (NaN where missing).

        Parameters
        ----------
        arrays : dict
            Task -> array of shape (n_systems, n_instances of the task).
        systems : list of str
            Row labels shared by every array.
        instances : dict, optional
            Task -> instance ids (default ``0 .. K_t - 1``); unlisted tasks get the default.
        {lower_is_better_option}
        {weights_option}

        Returns
        -------
        InstanceScores
            Systems and tasks in the given order (labels converted to ``str``).

        Raises
        ------
        NoTaskError
            If `arrays` is not a dict or is empty.
        NonNumericScoreError
            If an array is boolean or not numeric.
        LeaderboardError
            If an array is not of shape (n_systems, n_instances >= 1), or the instance ids
            of a task do not match its number of columns.
        UnknownTaskError
            If `instances`, `lower_is_better` or `weights` name an unknown task.
        InvalidOptionError
            If `systems` is not a list of names, `instances` not a mapping, or
            `lower_is_better` not a list of task names.
        DuplicateInstanceError, EmptyTaskError, EmptySystemError, NonFiniteScoreError
            As in :meth:`from_long`; also the label and weight errors of the constructor.

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, float("nan")]]}, systems=["a", "b"])
        >>> s.n_instances, s.missing_share
        ({'t': 2}, 0.25)
        """
        if not isinstance(arrays, Mapping) or not arrays:
            raise NoTaskError("pass a non-empty dict task -> array")
        systems = tuple(str(s) for s in name_list(systems, "systems", kind="system names"))
        tasks = tuple(str(t) for t in arrays)
        blocks = []
        for t, raw in arrays.items():
            block = np.asarray(raw)
            if block.dtype == bool or not (np.issubdtype(block.dtype, np.number)):
                sample = block.flat[0] if block.size else None
                raise NonNumericScoreError(str(t), systems[:1], sample)
            block = block.astype(np.float64, copy=False)
            if block.ndim != 2 or block.shape[0] != len(systems) or block.shape[1] < 1:
                raise LeaderboardError(
                    f"task {str(t)!r}: expected an array of shape ({len(systems)}, n_instances >= 1), "
                    f"got {block.shape}"
                )
            blocks.append(block)
        sizes = [b.shape[1] for b in blocks]
        offsets = np.concatenate([[0], np.cumsum(sizes)])
        values = np.array(blocks[0]) if len(blocks) == 1 else np.concatenate(blocks, axis=1)
        if instances is None:
            ids: list[Sequence[object]] = [pd.RangeIndex(k) for k in sizes]
        elif not isinstance(instances, Mapping):
            raise InvalidOptionError(
                f"instances must be a mapping task -> instance ids, got {type(instances).__name__}"
            )
        else:
            check_task_names(instances.keys(), tasks, "instances")
            ids = [instances[t] if t in instances else pd.RangeIndex(k) for t, k in zip(tasks, sizes)]
        return cls(
            values,
            systems=systems,
            tasks=tasks,
            offsets=offsets,
            instances=ids,
            lower_is_better=lower_is_better,
            weights=weights,
            copy=False,
        )

    # ------------------------------------------------------------------ accessors
    @property
    def systems(self) -> tuple[str, ...]:
        """System labels (rows), in order of first appearance."""
        return self._systems

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task labels, in order of first appearance."""
        return self._tasks

    @property
    def n_systems(self) -> int:
        """Number of systems."""
        return len(self._systems)

    @property
    def n_tasks(self) -> int:
        """Number of tasks."""
        return len(self._tasks)

    @property
    def n_instances(self) -> dict[str, int]:
        """Task -> number of instances."""
        return {t: int(b - a) for t, a, b in zip(self._tasks, self._offsets, self._offsets[1:])}

    @property
    def n_scores(self) -> int:
        """Number of scores present."""
        return int(np.count_nonzero(~np.isnan(self._values)))

    @property
    def missing_share(self) -> float:
        """Share of (system, task, instance) cells without a score."""
        return 1.0 - self.n_scores / self._values.size

    @property
    def values(self) -> np.ndarray:
        """Oriented scores (higher is better), systems x instances, read-only, NaN where missing."""
        return self._values

    @property
    def offsets(self) -> np.ndarray:
        """Column offsets of the tasks in :attr:`values` (read-only, length ``n_tasks + 1``)."""
        return self._offsets

    @fill_doc(SECTIONS)
    def instances(self, task: str) -> pd.Index:
        """Instance ids of `task`, in column order.

        Parameters
        ----------
        {task}

        Returns
        -------
        pandas.Index
            The ids as given, one per column of the task in :attr:`values`.

        Raises
        ------
        {unknown_task}

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, 4.0]]}, systems=["a", "b"],
        ...                                instances={"t": ["q1", "q2"]})
        >>> list(s.instances("t"))
        ['q1', 'q2']
        """
        return self._instances[self.task_index(task)]

    @fill_doc(SECTIONS)
    def task_values(self, task: str) -> np.ndarray:
        """Oriented scores of one task, systems x instances (a read-only view).

        Parameters
        ----------
        {task}

        Returns
        -------
        numpy.ndarray
            A read-only view of the task's columns of :attr:`values`: higher is better
            (a lower-is-better task is negated), NaN where missing.

        Raises
        ------
        {unknown_task}

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"err": [[0.5], [0.25]]}, systems=["a", "b"],
        ...                                lower_is_better=["err"])
        >>> s.task_values("err").tolist()
        [[-0.5], [-0.25]]
        """
        k = self.task_index(task)
        return self._values[:, self._offsets[k] : self._offsets[k + 1]]

    @fill_doc(SECTIONS)
    def task_frame(self, task: str) -> pd.DataFrame:
        """Original scores of one task (as given, not oriented), systems x instances.

        Parameters
        ----------
        {task}

        Returns
        -------
        pandas.DataFrame
            A copy, indexed by system, with the task's instance ids as columns, NaN where
            missing.

        Raises
        ------
        {unknown_task}

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"err": [[0.5], [0.25]]}, systems=["a", "b"],
        ...                                lower_is_better=["err"])
        >>> s.task_frame("err")
              0
        a  0.50
        b  0.25
        """
        k = self.task_index(task)
        block = np.array(self.task_values(task))
        if task in self._lower:
            block = -block
        block[block == 0] = 0.0
        return pd.DataFrame(block, index=pd.Index(self._systems, dtype=object), columns=self._instances[k])

    def to_long(self) -> pd.DataFrame:
        """The present scores as a long frame (original orientation), one row per score.

        Rows go instance by instance (systems in order within an instance); ``system`` and
        ``task`` are categoricals in the order of :attr:`systems` and :attr:`tasks`, so
        :meth:`from_long` rebuilds the same object.

        Returns
        -------
        pandas.DataFrame
            Columns ``system``, ``task``, ``instance`` and ``score``; tasks one after the
            other, missing scores left out.

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, float("nan")]]}, systems=["a", "b"])
        >>> s.to_long()
          system task  instance  score
        0      a    t         0    1.0
        1      b    t         0    3.0
        2      a    t         1    2.0
        >>> InstanceScores.from_long(s.to_long()) == s
        True
        """
        parts: dict[str, list] = {"system": [], "task": [], "instance": [], "score": []}
        for k, t in enumerate(self._tasks):
            block = self._values[:, self._offsets[k] : self._offsets[k + 1]]
            cols, rows = np.nonzero(~np.isnan(block.T))
            scores = block[rows, cols]
            if t in self._lower:
                scores = -scores
            parts["system"].append(rows)
            parts["task"].append(np.full(len(rows), k))
            parts["instance"].append(self._instances[k].take(cols))
            parts["score"].append(scores)
        codes = np.concatenate(parts["system"])
        systems = pd.Categorical.from_codes(codes, categories=list(self._systems))
        tasks = pd.Categorical.from_codes(np.concatenate(parts["task"]), categories=list(self._tasks))
        instances = parts["instance"][0].append(parts["instance"][1:]) if len(parts["instance"]) > 1 else parts["instance"][0]
        score = np.concatenate(parts["score"])
        score[score == 0] = 0.0
        return pd.DataFrame({"system": systems, "task": tasks, "instance": np.asarray(instances), "score": score})

    def task_means(self) -> pd.DataFrame:
        """Mean original score of each system on each task over its scored instances (NaN if none).

        Returns
        -------
        pandas.DataFrame
            Systems x tasks, in the original orientation (not negated).

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, float("nan")]]}, systems=["a", "b"])
        >>> s.task_means()
             t
        a  1.5
        b  3.0
        """
        out = np.full((self.n_systems, self.n_tasks), np.nan)
        present = ~np.isnan(self._values)
        filled = np.where(present, self._values, 0.0)
        for k in range(self.n_tasks):
            a, b = self._offsets[k], self._offsets[k + 1]
            n = present[:, a:b].sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:, k] = np.where(n > 0, filled[:, a:b].sum(axis=1) / np.maximum(n, 1), np.nan)
            if self._tasks[k] in self._lower:
                out[:, k] = -out[:, k]
        out[out == 0] = 0.0
        return pd.DataFrame(out, index=pd.Index(self._systems, dtype=object), columns=pd.Index(self._tasks, dtype=object))

    def to_leaderboard(self) -> Leaderboard:
        """Task-level leaderboard of :meth:`task_means` (directions and weights kept).

        This is the first step of the mean baseline of Himmi et al. (sec. 2.4); a system with
        no scored instance on a task has a missing score there.

        Returns
        -------
        Leaderboard
            :meth:`task_means` read by :meth:`Leaderboard.from_frame`, with the same
            lower-is-better tasks and weights (instance-level data has no groups).

        Warns
        -----
        DegenerateTaskWarning
            For each task on which every system has the same mean.

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, float("nan")]]}, systems=["a", "b"])
        >>> s.to_leaderboard()
        Leaderboard(2 systems x 1 tasks, missing=0)
        """
        return Leaderboard.from_frame(
            self.task_means(), lower_is_better=sorted(self._lower), weights=dict(self._weights.items()),
            infer=False,  # the tasks and directions are known: a task named "score" or "latency" is as given
        )

    @fill_doc(SECTIONS)
    def with_weights(self, weights: Mapping[str, float]) -> InstanceScores:
        """The same scores with new task weights (unlisted tasks weigh 1).

        {new_weights_note}

        Parameters
        ----------
        {new_weights}

        Returns
        -------
        InstanceScores
            Same scores (the read-only array is shared, not copied), instances and directions.

        Raises
        ------
        {new_weights_raises}

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0], [2.0]], "u": [[0.5], [0.25]]}, systems=["a", "b"])
        >>> s.with_weights({"u": 3}).weights.tolist()
        [1.0, 3.0]
        """
        return InstanceScores(
            self._values,
            systems=self._systems,
            tasks=self._tasks,
            offsets=self._offsets,
            instances=self._instances,
            lower_is_better=self._lower,
            weights=weights,
            oriented=True,
            copy=False,
        )

    def describe(self) -> str:
        """One paragraph: size, instances per task, directions, weights, missing scores.

        Returns
        -------
        str
            The size and share of missing scores, the instances per task, then the
            lower-is-better tasks and the weights when they apply (weights only when not all 1).

        Examples
        --------
        >>> s = InstanceScores.from_arrays({"t": [[1.0, 2.0], [3.0, float("nan")]]}, systems=["a", "b"])
        >>> print(s.describe())
        2 systems x 1 tasks, 2 instances, 3 scores (25.0% missing)
        instances: t=2
        """
        lines = [
            f"{self.n_systems} systems x {self.n_tasks} tasks, {self._values.shape[1]} instances, "
            f"{self.n_scores} scores ({self.missing_share:.1%} missing)"
        ]
        lines.append("instances: " + ", ".join(f"{t}={k}" for t, k in self.n_instances.items()))
        if self._lower:
            lines.append("lower is better: " + ", ".join(t for t in self._tasks if t in self._lower))
        if not np.allclose(self._weights.to_numpy(), 1.0):
            lines.append("weights: " + ", ".join(f"{t}={w:g}" for t, w in self._weights.items()))
        return "\n".join(lines)

    def __repr__(self) -> str:
        missing = self._values.size - self.n_scores
        return (
            f"InstanceScores({self.n_systems} systems x {self.n_tasks} tasks, {self._values.shape[1]} instances, "
            f"{self.n_scores} scores, {missing} missing)"
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InstanceScores):
            return NotImplemented
        return (
            self._systems == other._systems
            and self._tasks == other._tasks
            and np.array_equal(self._offsets, other._offsets)
            and np.array_equal(self._values, other._values, equal_nan=True)
            and all(a.equals(b) for a, b in zip(self._instances, other._instances))
            and self._weights.equals(other._weights)
            and self._lower == other._lower
        )

    __hash__ = None  # type: ignore[assignment]

