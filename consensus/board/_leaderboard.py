"""The validated leaderboard: systems x tasks scores, directions, weights, groups.

Every rule of the package consumes a :class:`Leaderboard`. Building one checks
the scores once (``_check_scores``) and orients every task so that higher is
better; the original scores stay available for display.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_frame_options, lower_names, name_list
from ..errors import (
    DuplicateLabelError,
    InvalidOptionError,
    LeaderboardError,
    NoTaskError,
    TooFewSystemsError,
    UnknownTaskError,
)
from ..hints import join
from ..io._cells import MISSING_MARKERS
from ..io._columns import ColumnReading, ReadingSummary
from ..io._labels import normalize_name
from ..io._parsing import parse_frame
from ._docs import SECTIONS
from ._task_scores import TaskScores
from ._validation import (
    check_groups,
    check_labels,
    check_scores,
    check_task_names,
    check_weights,
    min_coverage_option,
)

__all__ = ["Leaderboard", "MISSING_MARKERS"]


@fill_doc(SECTIONS)
class Leaderboard(TaskScores):
    """A validated table of scores, systems (rows) x tasks (columns).

    Build it with :meth:`from_frame`, :meth:`from_long` or :func:`read_leaderboard`.
    Internally every task is oriented so that higher is better (lower-is-better
    tasks are negated); :attr:`scores` keeps the original values.

    Attributes
    ----------
    systems, tasks : tuple of str
        Row and column labels, in input order.
    weights : pandas.Series
        Task weights as given (default 1 each); :attr:`normalized_weights` sums to 1.
    {lower_is_better}
    groups : Mapping[str, tuple[str, ...]]
        Task groups for group weighting and two-step aggregation.
    notes : tuple of str
        What parsing did: composite splits, dropped systems or tasks.

    Examples
    --------
    >>> frame = pd.DataFrame({"acc": [0.9, 0.8, 0.7], "latency": [30.0, 10.0, 20.0]},
    ...                      index=["a", "b", "c"])
    >>> lb = Leaderboard.from_frame(frame, lower_is_better=["latency"])
    >>> lb.n_systems, lb.n_tasks
    (3, 2)
    >>> lb.oriented()["latency"].tolist()
    [-30.0, -10.0, -20.0]
    """

    __slots__ = ("_scores", "_values", "_weights", "_lower", "_groups", "_notes", "_reading", "_memo")
    _memo: dict[Any, Any]  # set lazily by _memoized (a slot, absent until then)

    @fill_doc(SECTIONS)
    def __init__(
        self,
        scores: pd.DataFrame,
        *,
        lower_is_better: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        groups: Mapping[str, Iterable[str]] | None = None,
        notes: Iterable[str] = (),
        reading: ReadingSummary | None = None,
    ) -> None:
        """Low-level constructor: `scores` must already be a float frame; prefer :meth:`from_frame`.

        Parameters
        ----------
        scores : pandas.DataFrame
            Numeric scores, systems (index, str labels) x tasks (columns, str labels), NaN
            where missing, in the original orientation.
        lower_is_better : iterable of str, optional
            Tasks where a lower score is better (negated in :attr:`values`).
        {weights_option}
        groups : dict, optional
            Group -> tasks; a task belongs to at most one group.
        notes : iterable of str, optional
            What parsing did, kept in :attr:`notes`.
        reading : ReadingSummary, optional
            How the file's columns were read (:attr:`reading`); default: every column a
            task, as given.

        Raises
        ------
        {label_raises}
        UnknownTaskError
            If `lower_is_better`, `weights` or `groups` name an unknown task.
        InvalidOptionError
            If `lower_is_better` is not a list of task names (or a dict task -> bool), or
            `notes` is not a list of strings.
        InvalidWeightError
            If `weights` is not a mapping, a weight is invalid, or all weights are zero.
        LeaderboardError
            If `scores` is not a DataFrame, `groups` is not a mapping group -> tasks, a group
            is empty or a task is in two groups, or a task has no score at all.
        NonFiniteScoreError
            If a score is +inf or -inf.
        {empty_system}

        Warns
        -----
        {degenerate_task}
        """
        if not isinstance(scores, pd.DataFrame):
            raise LeaderboardError(
                f"scores must be a pandas DataFrame, got {type(scores).__name__}; use Leaderboard.from_frame"
            )
        systems = tuple(scores.index)
        tasks = tuple(scores.columns)
        check_labels(systems, "system")
        check_labels(tasks, "task")
        if len(tasks) == 0:
            raise NoTaskError()
        if len(systems) < 2:
            raise TooFewSystemsError(len(systems))
        values = scores.to_numpy(dtype=np.float64, copy=True)
        lower = frozenset(check_task_names(lower_names(lower_is_better), tasks, "lower_is_better"))
        w = check_weights(weights, tasks)
        grp = check_groups(groups, tasks)
        notes = tuple(name_list(notes, "notes", kind="strings"))
        check_scores(values, systems, tasks)
        frame = pd.DataFrame(values, index=pd.Index(systems, dtype=object), columns=pd.Index(tasks, dtype=object))
        oriented = values.copy()
        for j, t in enumerate(tasks):
            if t in lower:
                oriented[:, j] = -oriented[:, j]
        oriented.flags.writeable = False
        self._scores = frame
        self._values = oriented
        self._weights = w
        self._lower = lower
        self._groups = grp
        self._notes = notes
        if reading is not None and not isinstance(reading, ReadingSummary):
            raise LeaderboardError(f"reading must be a ReadingSummary, got {type(reading).__name__}")
        self._reading = reading

    # ------------------------------------------------------------------ constructors
    @classmethod
    @fill_doc(SECTIONS)
    def from_frame(
        cls,
        frame: pd.DataFrame,
        *,
        lower_is_better: Iterable[str] | Mapping[str, bool] = (),
        weights: Mapping[str, float] | None = None,
        groups: Mapping[str, Iterable[str]] | None = None,
        split_composite: bool = False,
        drop_empty: bool = False,
        tasks: Iterable[str] | None = None,
        exclude: Iterable[str] = (),
        keep_columns: Iterable[str] | bool | None = None,
        dedupe: bool = False,
        higher_is_better: Iterable[str] = (),
        infer: bool = True,
    ) -> Leaderboard:
        """Build a leaderboard from a wide frame: systems as index, tasks as columns.

        Reading an export: system and task names are normalized (stripped; newlines, tabs
        and runs of spaces become one space; names given in the options are normalized the
        same way) with a note mapping old to new names; the reading step
        (:mod:`consensus.io._columns`) sets aside the columns that are not tasks (a rank, the
        leaderboard's average or another aggregate, the same benchmark on a second scale,
        model size, dates, text, standard errors) and reads a column named like a
        lower-is-better metric (time, error, loss, ECE, ...) as lower-is-better, each
        decision stated in :attr:`reading` with the option that reverses it; every problem
        in the frame is reported in one error.

        Parameters
        ----------
        frame : pandas.DataFrame
            One row per system. Cells are numbers, numeric text, or a missing marker
            (NaN, empty, ``"-"``, see :data:`MISSING_MARKERS`), kept as missing.
        lower_is_better : list of str or dict, optional
            Tasks where lower is better (error rate, latency). A dict maps task -> bool.
        {weights_option}
        groups : dict, optional
            Group -> list of tasks; a task belongs to at most one group.
        split_composite : bool, default=False
            A task whose cells hold two metrics (``"93.9/91.8"``) becomes two tasks
            ``TASK[1]`` and ``TASK[2]``, each with half the task's weight. Without it such a
            cell raises :class:`CompositeScoreError`.
        drop_empty : bool, default=False
            Drop systems and tasks with no score at all, listing them in :attr:`notes` and
            in a ``UserWarning``. Without it they raise an error.
        tasks, exclude : list of str, optional
            Keep only these columns, in this order / drop these columns (e.g. rank or URL
            columns). `exclude` is applied after `tasks`.
        keep_columns : list of str or True, optional
            Columns the reading step would set aside, to keep as tasks (True: keep every
            column; directions are still inferred). A column named in `tasks`,
            `lower_is_better`, `higher_is_better`, `weights` or `groups` is always a task.
        dedupe : bool, default=False
            Rename repeated system names ``NAME_1``, ``NAME_2``, ... in row order (with a
            note) instead of raising :class:`DuplicateLabelError`.
        higher_is_better : list of str, optional
            Tasks where higher is better, whatever their name says (reverses an inferred
            lower-is-better direction).
        infer : bool, default=True
            False: read the table exactly as given, every column a task (no column set
            aside, no direction inferred): what tests and oracles building boards use.

        Returns
        -------
        Leaderboard
            Tasks in column order (a split composite task in place of the original); the
            other options checked against the kept tasks.

        Raises
        ------
        LeaderboardError
            Every problem of the frame is collected first; a single one raises its own
            class, several raise :class:`LeaderboardErrors` (attribute ``problems``).
            :class:`LongFormatError` when the frame looks like a long table.
            Subclasses name the system, task or cell at fault: :class:`EmptyLabelError` and
            :class:`DuplicateLabelError` (labels, also a split name ``TASK[k]`` that is
            already a column), :class:`NonNumericScoreError`, :class:`CompositeScoreError`,
            :class:`NonFiniteScoreError`, :class:`InvalidWeightError`,
            :class:`EmptySystemError`, :class:`NoTaskError` (every column excluded),
            :class:`TooFewSystemsError`. A plain LeaderboardError when `frame` is not a
            DataFrame, a task has no score (without `drop_empty`), a column mixes composite
            and single numbers, or the groups overlap.
        UnknownTaskError
            If `tasks`, `exclude`, `lower_is_better`, `weights` or `groups` name a column that
            is not in the frame (or, for the last three, that `tasks` / `exclude` removed).
        InvalidOptionError
            If an option has the wrong type, before the frame is read: `lower_is_better` not a
            list of task names (None, a bare string, a number) nor a dict task -> bool;
            `tasks`, `exclude` or `keep_columns` not a list of names. (`weights` not a
            mapping raises :class:`InvalidWeightError`, `groups` not a mapping a
            LeaderboardError.)

        Warns
        -----
        {degenerate_task}
        UserWarning
            With `drop_empty`, naming the dropped systems and tasks.

        Examples
        --------
        >>> frame = pd.DataFrame({"glue": ["93.9/91.8", "92.0/92.5"], "qa": [80, 81]}, index=["x", "y"])
        >>> lb = Leaderboard.from_frame(frame, split_composite=True)
        >>> lb.tasks, lb.weights.tolist()
        (('glue[1]', 'glue[2]', 'qa'), [0.5, 0.5, 1.0])
        """
        lower_is_better, weights, groups = check_frame_options(
            lower_is_better, weights, groups, tasks, exclude, keep_columns
        )
        higher_is_better = name_list(higher_is_better, "higher_is_better", allow_str=True)
        if not isinstance(infer, (bool, np.bool_)):
            raise InvalidOptionError(f"infer must be True or False, got {infer!r}")
        parsed = parse_frame(
            frame,
            lower_is_better=lower_is_better,
            weights=weights,
            groups=groups,
            split_composite=split_composite,
            drop_empty=drop_empty,
            tasks=tasks,
            exclude=exclude,
            keep_columns=keep_columns,
            dedupe=dedupe,
            higher_is_better=higher_is_better,
            infer=bool(infer),
        )
        return cls(
            parsed.values,
            lower_is_better=parsed.lower_is_better,
            weights=parsed.weights,
            groups=parsed.groups,
            notes=parsed.notes,
            reading=parsed.reading,
        )

    @classmethod
    def from_long(
        cls,
        frame: pd.DataFrame,
        *,
        system: str = "system",
        task: str = "task",
        score: str = "score",
        **options: Any,
    ) -> Leaderboard:
        """Build a leaderboard from a long frame: one row per (system, task) pair.

        A pair listed twice raises :class:`DuplicateLabelError`; pairs never listed are
        missing scores. `options` are those of :meth:`from_frame`. System and task order
        follow their first appearance.

        Parameters
        ----------
        frame : pandas.DataFrame
            Holds the three columns named below (other columns are ignored).
        system, task, score : str
            Column names. System and task labels are compared as text (``1`` and ``"1"``
            are the same label) after whitespace normalization (``"a "`` and ``"a"`` are
            the same system; a note maps the names that changed inside).
        **options
            Passed to :meth:`from_frame` (``lower_is_better``, ``weights``, ``groups``,
            ``split_composite``, ``drop_empty``, ``tasks``, ``exclude``).

        Returns
        -------
        Leaderboard

        Raises
        ------
        UnknownTaskError
            If `system`, `task` or `score` is not a column of `frame`, or an option names
            an unknown task.
        DuplicateLabelError
            If a (system, task) pair is listed more than once (lists the pairs).
        LeaderboardError
            If `frame` is not a DataFrame; the other errors of :meth:`from_frame`, raised
            on the pivoted scores.

        Examples
        --------
        >>> long = pd.DataFrame({"system": ["a", "a", "b"], "task": ["t1", "t2", "t1"],
        ...                      "score": [1.0, 2.0, 3.0]})
        >>> Leaderboard.from_long(long).scores
            t1   t2
        a  1.0  2.0
        b  3.0  NaN
        """
        if not isinstance(frame, pd.DataFrame):
            raise LeaderboardError(f"from_long expects a pandas DataFrame, got {type(frame).__name__}")
        for option, col in (("system", system), ("task", task), ("score", score)):
            if not isinstance(col, Hashable) or col not in frame.columns:
                raise UnknownTaskError(col, [str(c) for c in frame.columns], f"the long frame's columns ({option}=)")
        raw = frame[[system, task]].astype(str)
        keys = raw.apply(lambda col: col.map(normalize_name))  # "a " and "a" are one system (Series.map: pandas 2.0)
        changed = sorted({(o, n) for col in (system, task) for o, n in zip(raw[col], keys[col]) if o.strip() != n})
        dup = keys.duplicated(keep=False)
        if dup.any():
            pairs = sorted({f"{s}/{t}" for s, t in keys[dup].itertuples(index=False)})
            raise DuplicateLabelError("system/task pair", pairs)
        sys_order = list(dict.fromkeys(keys[system]))
        task_order = list(dict.fromkeys(keys[task]))
        wide = pd.DataFrame({system: keys[system], task: keys[task], "__score": frame[score].to_numpy()})
        wide = wide.pivot(index=system, columns=task, values="__score")
        wide = wide.reindex(index=sys_order, columns=task_order)
        wide.index.name = None
        wide.columns.name = None
        lb = cls.from_frame(wide, **options)
        if changed:
            shown = ", ".join(f"{o!r} -> {n!r}" for o, n in changed[:10]) + (", ..." if len(changed) > 10 else "")
            lb = lb.with_notes([f"normalized whitespace in names: {shown}"])
        return lb

    # ------------------------------------------------------------------ accessors
    @property
    def systems(self) -> tuple[str, ...]:
        """System labels (rows), in input order."""
        return tuple(self._scores.index)

    @property
    def tasks(self) -> tuple[str, ...]:
        """Task labels (columns), in input order."""
        return tuple(self._scores.columns)

    @property
    def n_systems(self) -> int:
        """Number of systems (rows)."""
        return self._scores.shape[0]

    @property
    def n_tasks(self) -> int:
        """Number of tasks (columns)."""
        return self._scores.shape[1]

    @property
    def scores(self) -> pd.DataFrame:
        """The original scores (a copy), NaN where missing."""
        return self._scores.copy()

    @property
    def values(self) -> np.ndarray:
        """Oriented scores (higher is better) as a read-only float array, NaN where missing."""
        return self._values

    def oriented(self) -> pd.DataFrame:
        """Scores oriented so that higher is better (lower-is-better tasks negated).

        Returns
        -------
        pandas.DataFrame
            A copy of :attr:`values`, systems x tasks, NaN where missing.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"acc": [0.9, 0.8], "latency": [30.0, 10.0]}, index=["a", "b"])
        >>> Leaderboard.from_frame(frame, lower_is_better=["latency"]).oriented()
           acc  latency
        a  0.9    -30.0
        b  0.8    -10.0
        """
        return pd.DataFrame(self._values.copy(), index=self._scores.index, columns=self._scores.columns)

    @property
    def groups(self) -> Mapping[str, tuple[str, ...]]:
        """Task groups: group -> its tasks (read-only; empty when there are none)."""
        return self._groups

    @property
    def notes(self) -> tuple[str, ...]:
        """What parsing did (composite splits, dropped systems or tasks, renamed systems).

        A note naming an option (``pass keep_columns=['Rank'] to keep them``) is a
        :class:`~consensus.hints.Hinted`: :func:`~consensus.hints.cli_of` gives it with the flag
        (``--keep-columns Rank``), as the command line shows it."""
        return self._notes

    @property
    def reading(self) -> ReadingSummary:
        """How the file's columns were read: tasks, columns set aside and why, directions.

        A leaderboard built directly (not from a frame) reads every column as a task, as given.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"qa": [0.7, 0.5, 0.6], "Latency (ms)": [30.0, 10.0, 20.0]}, index=["a", "b", "c"])
        >>> print(Leaderboard.from_frame(frame).reading)
        read 2 columns: 2 tasks
          Latency (ms): lower is better, named like a time: 'latency' (reverse: higher_is_better=['Latency (ms)'])
        """
        if self._reading is not None:
            return self._reading
        lower = self._lower
        return ReadingSummary(
            tuple(ColumnReading(t, "task", direction="lower" if t in lower else "higher", direction_source="given")
                  for t in self.tasks),
            inferred=False,
        )

    @property
    def stderr(self) -> pd.DataFrame | None:
        """Standard errors read beside the scores (systems x the tasks that have them), or None.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"qa": [0.7, 0.5], "qa_stderr": [0.01, 0.02]}, index=["a", "b"])
        >>> Leaderboard.from_frame(frame).stderr
             qa
        a  0.01
        b  0.02
        """
        frame = None if self._reading is None else self._reading.stderr
        if frame is None:
            return None
        tasks = [t for t in self.tasks if t in frame.columns]
        if not tasks:
            return None
        return frame.reindex(index=list(self.systems), columns=tasks)

    @property
    def missing(self) -> pd.DataFrame:
        """Boolean frame, True where a score is missing."""
        return self._scores.isna()

    @property
    def has_missing(self) -> bool:
        """Whether at least one score is missing."""
        return bool(np.isnan(self._values).any())

    @property
    def coverage(self) -> pd.Series:
        """Per system, the share of the total task weight it is scored on (1.0 = every task).

        With unit weights this is tasks scored / tasks. A system evaluated on few tasks can
        look best on the pairs it shares with others; reports flag winners whose coverage is
        below :data:`consensus.board._coverage.LOW_COVERAGE` (see ``min_coverage=`` to drop them).

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"qa": [0.7, None], "nli": [0.6, 0.5]}, index=["a", "b"])
        >>> Leaderboard.from_frame(frame, weights={"qa": 3}).coverage.tolist()
        [1.0, 0.25]
        """
        w = self._weights.to_numpy(dtype=np.float64)
        seen = (~np.isnan(self._values)) @ w
        return pd.Series(seen / w.sum(), index=self._scores.index, name="coverage")

    @property
    def tasks_scored(self) -> pd.Series:
        """Per system, the number of tasks it has a score on.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"qa": [0.7, None], "nli": [0.6, 0.5]}, index=["a", "b"])
        >>> Leaderboard.from_frame(frame).tasks_scored.tolist()
        [2, 1]
        """
        return pd.Series((~np.isnan(self._values)).sum(axis=1), index=self._scores.index, name="tasks_scored")

    def with_min_coverage(self, threshold: float) -> Leaderboard:
        """The leaderboard without the systems whose :attr:`coverage` is below `threshold`.

        A note names the dropped systems with their coverage; a task scored only by dropped
        systems is dropped too (and named). ``consensus.board._coverage.with_min_coverage`` is the
        same function.

        Parameters
        ----------
        threshold : float
            Share of the total task weight a system must be scored on, in [0, 1]
            (``0.5``: at least half; ``1``: complete rows only).

        Returns
        -------
        Leaderboard
            `self` when no system is below `threshold`.

        Raises
        ------
        InvalidOptionError
            If `threshold` is not a number in [0, 1], or fewer than 2 systems would remain.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"qa": [0.7, 0.5, None], "nli": [0.6, 0.5, 0.9]}, index=["a", "b", "c"])
        >>> small = Leaderboard.from_frame(frame).with_min_coverage(0.75)
        >>> small.systems, small.notes[-1]
        (('a', 'b'), "min_coverage=0.75: dropped 1 system(s) scored on less than 75% of the task weight: 'c' (1 of 2 tasks, 50%)")
        """
        from ..arguments import check_min_coverage
        from ..errors import InvalidOptionError

        if threshold is None:
            raise InvalidOptionError("min_coverage must be a number in [0, 1], got None")
        value = check_min_coverage(threshold)
        assert value is not None  # None refused just above
        coverage = self.coverage
        low = [s for s in self.systems if coverage[s] < value - 1e-12]
        if not low:
            return self
        kept = [s for s in self.systems if s not in set(low)]
        if len(kept) < 2:
            raise InvalidOptionError(
                min_coverage_option(threshold) + f" would leave {len(kept)} system(s) of {self.n_systems}: "
                f"the highest coverage is {coverage.max():.0%}; lower min_coverage"
            )
        scored = self.tasks_scored
        shown = ", ".join(f"{s!r} ({scored[s]} of {self.n_tasks} tasks, {coverage[s]:.0%})" for s in low[:10])
        more = f", and {len(low) - 10} more" if len(low) > 10 else ""
        notes = [
            min_coverage_option(threshold) + f": dropped {len(low)} system(s) scored on less than {value:.0%} "
            f"of the task weight: {shown}{more}"
        ]
        present = ~self.missing.loc[kept]
        tasks = [t for t in self.tasks if present[t].any()]
        if len(tasks) < self.n_tasks:
            gone = [t for t in self.tasks if t not in set(tasks)]
            notes.append(min_coverage_option(threshold) + ": dropped task(s) scored only by dropped systems: "
                         + ", ".join(map(repr, gone)))
        import warnings

        from ..errors import DegenerateTaskWarning

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateTaskWarning)
            return self.select(systems=kept, tasks=tasks).with_notes(notes)

    def missing_cells(self) -> list[tuple[str, str]]:
        """``(system, task)`` pairs without a score, row by row.

        Returns
        -------
        list of (str, str)
            Missing cells, system by system in row order, tasks in column order within a
            system; empty when no score is missing.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"qa": [0.7, None], "nli": [None, 0.5]}, index=["a", "b"])
        >>> Leaderboard.from_frame(frame).missing_cells()
        [('a', 'nli'), ('b', 'qa')]
        """
        rows, cols = np.nonzero(np.isnan(self._values))
        systems, tasks = self.systems, self.tasks
        return [(systems[i], tasks[j]) for i, j in zip(rows, cols)]

    def to_dict(self, *, source: str = "") -> dict[str, Any]:
        """What was read and how it was parsed, as plain JSON values (the ``input`` of JSON reports).

        Parameters
        ----------
        source : str, default ""
            Where the scores came from (a path or ``example:NAME``).

        Returns
        -------
        dict
            ``source``, ``systems``, ``tasks``, ``lower_is_better``, ``weights``, ``groups``,
            ``scores`` (system -> task -> score, None when missing), ``missing`` (``[system,
            task]`` pairs), ``notes`` and ``reading`` (how each column was read,
            :meth:`ReadingSummary.to_dict`).

        Examples
        --------
        >>> import consensus as cs
        >>> d = cs.load_example("votenrank-toy").to_dict()
        >>> d["systems"], d["scores"]["A"]["t1"]
        (['A', 'B', 'C', 'D'], 4.0)
        """
        values = self._scores.to_numpy(dtype=np.float64)  # as read, not oriented
        return {
            "source": source,
            "systems": list(self.systems),
            "tasks": list(self.tasks),
            "lower_is_better": [t for t in self.tasks if t in self._lower],
            "weights": {t: float(w) for t, w in self._weights.items()},
            "groups": {g: list(ts) for g, ts in self._groups.items()},
            "scores": {
                s: {t: None if np.isnan(values[i, k]) else float(values[i, k]) + 0.0 for k, t in enumerate(self.tasks)}
                for i, s in enumerate(self.systems)
            },
            "missing": [[s, t] for s, t in self.missing_cells()],
            "notes": list(self._notes),
            "reading": self.reading.to_dict(),
        }

    # ------------------------------------------------------------------ derived leaderboards
    def select(self, *, systems: Iterable[str] | None = None, tasks: Iterable[str] | None = None) -> Leaderboard:
        """A leaderboard restricted to some systems and/or tasks (directions, weights, groups kept).

        The subset is validated again like a new leaderboard; groups lose the tasks left out
        (a group left empty is dropped) and :attr:`notes` are kept.

        Parameters
        ----------
        systems : iterable of str, optional
            Systems to keep, in this order (default: all, in table order).
        tasks : iterable of str, optional
            Tasks to keep, in this order (default: all, in table order).

        Returns
        -------
        Leaderboard

        Raises
        ------
        UnknownSystemError, UnknownTaskError
            If a name is not a system / task of the table.
        InvalidOptionError
            If `systems` or `tasks` is not a list of names (a bare string, a number).
        LeaderboardError
            If the subset is not a valid leaderboard: :class:`TooFewSystemsError`,
            :class:`NoTaskError`, :class:`DuplicateLabelError` (a name given twice),
            :class:`EmptySystemError` (a kept system has no score on the kept tasks), or a
            kept task with no score among the kept systems.

        Examples
        --------
        >>> import consensus as cs
        >>> small = cs.load_example("votenrank-toy").select(systems=["B", "A"], tasks=["t1", "t3"])
        >>> small.systems, small.tasks
        (('B', 'A'), ('t1', 't3'))
        """
        sys_list = list(self.systems) if systems is None else name_list(systems, "systems", kind="system names")
        task_list = list(self.tasks) if tasks is None else name_list(tasks, "tasks")
        for s in sys_list:
            self.system_index(s)
        for t in task_list:
            self.task_index(t)
        keep = set(task_list)
        groups = {g: [t for t in ts if t in keep] for g, ts in self._groups.items()}
        return Leaderboard(
            self._scores.loc[sys_list, task_list],
            lower_is_better=[t for t in self._lower if t in keep],
            weights={t: float(self._weights[t]) for t in task_list},
            groups={g: ts for g, ts in groups.items() if ts},
            notes=self._notes,
            reading=self._reading,
        )

    def with_notes(self, notes: Iterable[str]) -> Leaderboard:
        """The same leaderboard with `notes` added to :attr:`notes` (itself when there are none).

        Parameters
        ----------
        notes : iterable of str
            What was done to the scores before they became this leaderboard (renamed
            systems, ...), shown by :meth:`describe` and in reports.

        Returns
        -------
        Leaderboard
            `self` when `notes` is empty, otherwise a new leaderboard with the same scores,
            directions, weights and groups.

        Examples
        --------
        >>> import consensus as cs
        >>> cs.load_example("votenrank-toy").with_notes(["renamed X -> A"]).notes
        ('renamed X -> A',)
        """
        notes = tuple(name_list(notes, "notes", kind="strings"))
        if not notes:
            return self
        import warnings

        from ..errors import DegenerateTaskWarning

        with warnings.catch_warnings():  # the same scores: their warnings were given already
            warnings.simplefilter("ignore", DegenerateTaskWarning)
            return Leaderboard(
                self._scores,
                lower_is_better=self._lower,
                weights=dict(self._weights.items()),
                groups=self._groups,
                notes=self._notes + notes,
                reading=self._reading,
            )

    def with_stderr(self, stderr: pd.DataFrame, *, source: str = "given") -> Leaderboard:
        """The same leaderboard carrying standard errors (:attr:`stderr`) for
        :func:`consensus.significance`; they replace any it carried (the file's standard-error
        columns included), so give every task that needs them.

        Parameters
        ----------
        stderr : pandas.DataFrame
            Systems x tasks (a subset of each), in the scores' units; NaN where unknown.
        source : str, default="given"
            Where they came from, in words (``"the results files' acc_stderr entries"``),
            shown by :func:`consensus.significance`.

        Returns
        -------
        Leaderboard

        Raises
        ------
        UnknownSystemError, UnknownTaskError
            If `stderr` names a system or task the leaderboard does not have.
        InvalidOptionError
            If `stderr` is not a DataFrame.

        Examples
        --------
        >>> import consensus as cs, pandas as pd
        >>> lb = cs.load_example("votenrank-toy")
        >>> lb.with_stderr(pd.DataFrame({"t1": 0.1}, index=list(lb.systems))).stderr.columns.tolist()
        ['t1']
        """
        import dataclasses

        from ..errors import InvalidOptionError

        if not isinstance(stderr, pd.DataFrame):
            raise InvalidOptionError(f"stderr must be a pandas DataFrame (systems x tasks), got {type(stderr).__name__}")
        for system in stderr.index:
            self.system_index(system)
        for task in stderr.columns:
            self.task_index(task)
        import warnings

        from ..errors import DegenerateTaskWarning

        reading = dataclasses.replace(self.reading, stderr=stderr.astype(np.float64), stderr_source=str(source))
        with warnings.catch_warnings():  # the same scores: their warnings were given already
            warnings.simplefilter("ignore", DegenerateTaskWarning)
            return Leaderboard(self._scores, lower_is_better=self._lower, weights=dict(self._weights.items()),
                               groups=self._groups, notes=self._notes, reading=reading)

    @fill_doc(SECTIONS)
    def with_weights(self, weights: Mapping[str, float]) -> Leaderboard:
        """The same scores with new task weights (unlisted tasks weigh 1).

        {new_weights_note}

        Parameters
        ----------
        {new_weights}

        Returns
        -------
        Leaderboard
            Same scores, directions, groups and notes.

        Raises
        ------
        {new_weights_raises}

        Examples
        --------
        >>> import consensus as cs
        >>> cs.load_example("votenrank-toy").with_weights({"t1": 2.0}).weights.tolist()
        [2.0, 1.0, 1.0, 1.0, 1.0]
        """
        return Leaderboard(
            self._scores, lower_is_better=self._lower, weights=weights, groups=self._groups, notes=self._notes,
            reading=self._reading,
        )

    def with_groups(self, groups: Mapping[str, Iterable[str]]) -> Leaderboard:
        """The same scores with new task groups.

        Parameters
        ----------
        groups : dict
            Group -> tasks; replaces the old groups. A task belongs to at most one group.

        Returns
        -------
        Leaderboard
            Same scores, directions, weights and notes.

        Raises
        ------
        UnknownTaskError
            If a group lists a task that is not in the table.
        LeaderboardError
            If a group has no task, or a task is listed twice.

        Examples
        --------
        >>> import consensus as cs
        >>> dict(cs.load_example("votenrank-toy").with_groups({"first": ["t1", "t2"]}).groups)
        {'first': ('t1', 't2')}
        """
        return Leaderboard(
            self._scores,
            lower_is_better=self._lower,
            weights=dict(self._weights.items()),
            groups=groups,
            notes=self._notes,
            reading=self._reading,
        )

    # ------------------------------------------------------------------ display
    def to_frame(self) -> pd.DataFrame:
        """The original scores (same as :attr:`scores`).

        Returns
        -------
        pandas.DataFrame
            A copy of the scores as given (not oriented), systems x tasks, NaN where missing.
        """
        return self.scores

    def describe(self) -> str:
        """One paragraph on what was parsed: size, directions, weights, groups, missing cells, notes.

        Returns
        -------
        str
            One line per item: the size, then only the items that apply (lower-is-better
            tasks, weights when not all 1, groups, missing scores (the first 5), notes), as a
            :class:`~consensus.hints.Hinted`: :func:`~consensus.hints.cli_of` gives it with the
            options its notes name as flags.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"acc": [0.9, None, 0.7], "latency": [30.0, 10.0, 20.0]},
        ...                      index=["a", "b", "c"])
        >>> print(Leaderboard.from_frame(frame, lower_is_better=["latency"]).describe())
        3 systems x 2 tasks
        lower is better: latency
        missing scores: 1 (b/acc)
        """
        lines = [f"{self.n_systems} systems x {self.n_tasks} tasks"]
        if self._lower:
            lines.append("lower is better: " + ", ".join(t for t in self.tasks if t in self._lower))
        if not np.allclose(self._weights.to_numpy(), 1.0):
            lines.append("weights: " + ", ".join(f"{t}={w:g}" for t, w in self._weights.items()))
        if self._groups:
            lines.append("groups: " + "; ".join(f"{g}: {', '.join(ts)}" for g, ts in self._groups.items()))
        cells = self.missing_cells()
        if cells:
            shown = ", ".join(f"{s}/{t}" for s, t in cells[:5]) + (", ..." if len(cells) > 5 else "")
            lines.append(f"missing scores: {len(cells)} ({shown})")
        lines.extend(self._notes)
        return join("\n", lines)  # a note's command-line wording kept (cli_of)

    def __repr__(self) -> str:
        return f"Leaderboard({self.n_systems} systems x {self.n_tasks} tasks, missing={len(self.missing_cells())})"

    def _repr_html_(self) -> str:
        """Notebook display: the description and the first 10 systems' scores (names HTML-escaped)."""
        import html

        text = "".join(f"<li>{html.escape(' '.join(line.split()))}</li>" for line in self.describe().splitlines())
        more = f"<p>... and {self.n_systems - 10} more systems</p>" if self.n_systems > 10 else ""
        return f"<div><strong>Leaderboard</strong><ul>{text}</ul>{self._scores.iloc[:10].to_html(escape=True)}{more}</div>"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Leaderboard):
            return NotImplemented
        return (
            self._scores.equals(other._scores)
            and self._weights.equals(other._weights)
            and self._lower == other._lower
            and dict(self._groups) == dict(other._groups)
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ memo
    def _memoized(self, key: Any, build: Callable[[], Any]) -> Any:
        """`build()` once per board and `key`, for immutable results derived from the board
        alone (its pairwise matrix: Copeland and Minimax of the same board share one)."""
        try:
            memo = self._memo
        except AttributeError:
            memo = self._memo = {}
        if key not in memo:
            memo[key] = build()
        return memo[key]

    def __getstate__(self) -> dict[str, Any]:
        """Picklable (the standard pickle, for multiprocessing and Dask), without the memo."""
        state = {k: getattr(self, k) for k in self.__slots__ if k != "_memo" and hasattr(self, k)}
        state["_groups"] = dict(state["_groups"])  # a read-only mapping proxy is not picklable
        return state

    def __setstate__(self, state: Mapping[str, Any]) -> None:
        for key, value in state.items():
            object.__setattr__(self, key, MappingProxyType(dict(value)) if key == "_groups" else value)


# ---------------------------------------------------------------------- validation helpers
