"""The validated leaderboard: systems x tasks scores, directions, weights, groups.

Every rule of the package consumes a :class:`Leaderboard`. Building one checks
the scores once (``_check_scores``) and orients every task so that higher is
better; the original scores stay available for display.
"""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .errors import (
    CompositeScoreError,
    DegenerateTaskWarning,
    DuplicateLabelError,
    EmptyLabelError,
    EmptySystemError,
    InvalidWeightError,
    LeaderboardError,
    NoTaskError,
    NonFiniteScoreError,
    NonNumericScoreError,
    TooFewSystemsError,
    UnknownSystemError,
    UnknownTaskError,
)

if TYPE_CHECKING:  # pragma: no cover
    import networkx as nx

    from .pairwise import PairwiseMatrix

__all__ = ["Leaderboard", "read_leaderboard", "MISSING_MARKERS"]

#: Cell texts that mean "not evaluated" (compared after stripping whitespace, case-insensitive).
MISSING_MARKERS: tuple[str, ...] = ("", "-", "\u2013", "\u2014", "nan", "na", "n/a", "none", "null")

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_COMPOSITE = re.compile(rf"^\s*({_NUMBER})\s*/\s*({_NUMBER})\s*$")


def _composite_name(task: str, part: int) -> str:
    return f"{task}[{part}]"


class _TaskScores:
    """Accessors shared by task-level and instance-level score tables.

    Subclasses define ``systems``, ``tasks`` and the slots ``_weights`` (a Series over
    tasks) and ``_lower`` (a frozenset of lower-is-better tasks).
    """

    __slots__ = ()
    _weights: pd.Series
    _lower: frozenset[str]
    systems: tuple[str, ...]
    tasks: tuple[str, ...]

    @property
    def weights(self) -> pd.Series:
        """Task weights as given (default 1)."""
        return self._weights.copy()

    @property
    def normalized_weights(self) -> pd.Series:
        """Task weights divided by their sum."""
        return self._weights / float(self._weights.sum())

    @property
    def lower_is_better(self) -> frozenset[str]:
        """Tasks where a lower score is better."""
        return self._lower

    def system_index(self, system: str) -> int:
        """Row position of `system`; :class:`UnknownSystemError` lists close names."""
        try:
            return self.systems.index(system)
        except ValueError:
            raise UnknownSystemError(system, self.systems) from None

    def task_index(self, task: str) -> int:
        """Column position of `task`; :class:`UnknownTaskError` lists close names."""
        try:
            return self.tasks.index(task)
        except ValueError:
            raise UnknownTaskError(task, self.tasks) from None


class Leaderboard(_TaskScores):
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
    lower_is_better : frozenset of str
        Tasks where a lower score is better.
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

    __slots__ = ("_scores", "_values", "_weights", "_lower", "_groups", "_notes")

    def __init__(
        self,
        scores: pd.DataFrame,
        *,
        lower_is_better: Iterable[str] = (),
        weights: Mapping[str, float] | None = None,
        groups: Mapping[str, Iterable[str]] | None = None,
        notes: Iterable[str] = (),
    ) -> None:
        """Low-level constructor: `scores` must already be a float frame; prefer :meth:`from_frame`."""
        systems = tuple(scores.index)
        tasks = tuple(scores.columns)
        _check_labels(systems, "system")
        _check_labels(tasks, "task")
        if len(tasks) == 0:
            raise NoTaskError()
        if len(systems) < 2:
            raise TooFewSystemsError(len(systems))
        values = scores.to_numpy(dtype=np.float64, copy=True)
        lower = frozenset(_check_task_names(lower_is_better, tasks, "lower_is_better"))
        w = _check_weights(weights, tasks)
        grp = _check_groups(groups, tasks)
        _check_scores(values, systems, tasks)
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
        self._notes = tuple(notes)

    # ------------------------------------------------------------------ constructors
    @classmethod
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
    ) -> Leaderboard:
        """Build a leaderboard from a wide frame: systems as index, tasks as columns.

        Parameters
        ----------
        frame : pandas.DataFrame
            One row per system. Cells are numbers, numeric text, or a missing marker
            (NaN, empty, ``"-"``, see :data:`MISSING_MARKERS`), kept as missing.
        lower_is_better : list of str or dict, optional
            Tasks where lower is better (error rate, latency). A dict maps task -> bool.
        weights : dict, optional
            Task -> weight (finite, >= 0, not all zero); unlisted tasks weigh 1.
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
            Keep only these columns / drop these columns (e.g. rank or URL columns).

        Raises
        ------
        LeaderboardError
            Subclasses name the system, task or cell at fault.

        Examples
        --------
        >>> frame = pd.DataFrame({"glue": ["93.9/91.8", "92.0/92.5"], "qa": [80, 81]}, index=["x", "y"])
        >>> lb = Leaderboard.from_frame(frame, split_composite=True)
        >>> lb.tasks, lb.weights.tolist()
        (('glue[1]', 'glue[2]', 'qa'), [0.5, 0.5, 1.0])
        """
        if not isinstance(frame, pd.DataFrame):
            raise LeaderboardError(f"expected a pandas DataFrame, got {type(frame).__name__}")
        systems = [_label(s, "system", i) for i, s in enumerate(frame.index)]
        columns = [_label(c, "task", i) for i, c in enumerate(frame.columns)]
        _check_labels(tuple(systems), "system")
        _check_labels(tuple(columns), "task")
        frame = frame.copy()
        frame.index = pd.Index(systems, dtype=object)
        frame.columns = pd.Index(columns, dtype=object)
        exclude = list(exclude)
        for name in exclude:
            if name not in columns:
                raise UnknownTaskError(name, columns, "exclude")
        if tasks is not None:
            tasks = list(tasks)
            for name in tasks:
                if name not in columns:
                    raise UnknownTaskError(name, columns, "tasks")
            columns = tasks
        columns = [c for c in columns if c not in set(exclude)]
        if not columns:
            raise NoTaskError("every column was excluded")

        if isinstance(lower_is_better, Mapping):
            lower_names = [t for t, flag in lower_is_better.items() if flag]
            _check_task_names(lower_is_better.keys(), columns, "lower_is_better")
        else:
            lower_names = list(_check_task_names(lower_is_better, columns, "lower_is_better"))
        user_weights = dict(weights or {})
        _check_task_names(user_weights.keys(), columns, "weights")
        user_groups = {str(g): list(ts) for g, ts in (groups or {}).items()}
        for g, ts in user_groups.items():
            _check_task_names(ts, columns, f"group {g!r}")

        parsed: dict[str, np.ndarray] = {}
        renamed: dict[str, list[str]] = {}
        notes: list[str] = []
        for task in columns:
            parts = _parse_column(frame[task], task, systems, split_composite)
            if len(parts) == 1:
                parsed[task] = parts[0]
                renamed[task] = [task]
            else:
                names = [_composite_name(task, k + 1) for k in range(len(parts))]
                for name in names:
                    if name in columns:
                        raise DuplicateLabelError("task", [name])
                parsed.update(zip(names, parts))
                renamed[task] = names
                notes.append(f"split composite task {task!r} into {', '.join(repr(n) for n in names)}")

        new_tasks = [name for task in columns for name in renamed[task]]
        values = pd.DataFrame(parsed, index=pd.Index(systems, dtype=object), columns=new_tasks)
        new_lower = [name for task in lower_names for name in renamed[task]]
        new_weights: dict[str, float] = {}
        for task, w in user_weights.items():
            w = _weight_value(w, task)
            for name in renamed[task]:
                new_weights[name] = w / len(renamed[task])
        for task in columns:
            if len(renamed[task]) > 1 and task not in user_weights:
                for name in renamed[task]:
                    new_weights[name] = 1.0 / len(renamed[task])
        new_groups = {g: [name for t in ts for name in renamed[t]] for g, ts in user_groups.items()}

        if drop_empty:
            values, dropped_notes = _drop_empty(values)
            notes.extend(dropped_notes)
            kept = set(values.columns)
            new_lower = [t for t in new_lower if t in kept]
            new_weights = {t: w for t, w in new_weights.items() if t in kept}
            new_groups = {g: [t for t in ts if t in kept] for g, ts in new_groups.items()}
            new_groups = {g: ts for g, ts in new_groups.items() if ts}
        return cls(values, lower_is_better=new_lower, weights=new_weights, groups=new_groups, notes=notes)

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

        Examples
        --------
        >>> long = pd.DataFrame({"system": ["a", "a", "b"], "task": ["t1", "t2", "t1"],
        ...                      "score": [1.0, 2.0, 3.0]})
        >>> Leaderboard.from_long(long).scores
            t1   t2
        a  1.0  2.0
        b  3.0  NaN
        """
        for col in (system, task, score):
            if col not in frame.columns:
                raise UnknownTaskError(col, [str(c) for c in frame.columns], "the long frame's columns")
        keys = frame[[system, task]].astype(str)
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
        return cls.from_frame(wide, **options)

    # ------------------------------------------------------------------ accessors
    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self._scores.index)

    @property
    def tasks(self) -> tuple[str, ...]:
        return tuple(self._scores.columns)

    @property
    def n_systems(self) -> int:
        return self._scores.shape[0]

    @property
    def n_tasks(self) -> int:
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
        """Scores oriented so that higher is better (lower-is-better tasks negated)."""
        return pd.DataFrame(self._values.copy(), index=self._scores.index, columns=self._scores.columns)

    @property
    def groups(self) -> Mapping[str, tuple[str, ...]]:
        return self._groups

    @property
    def notes(self) -> tuple[str, ...]:
        return self._notes

    @property
    def missing(self) -> pd.DataFrame:
        """Boolean frame, True where a score is missing."""
        return self._scores.isna()

    @property
    def has_missing(self) -> bool:
        return bool(np.isnan(self._values).any())

    def missing_cells(self) -> list[tuple[str, str]]:
        """``(system, task)`` pairs without a score, row by row."""
        rows, cols = np.nonzero(np.isnan(self._values))
        return [(self.systems[i], self.tasks[j]) for i, j in zip(rows, cols)]

    # ------------------------------------------------------------------ derived leaderboards
    def select(self, *, systems: Iterable[str] | None = None, tasks: Iterable[str] | None = None) -> Leaderboard:
        """A leaderboard restricted to some systems and/or tasks (directions, weights, groups kept)."""
        sys_list = list(self.systems) if systems is None else list(systems)
        task_list = list(self.tasks) if tasks is None else list(tasks)
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
        )

    def with_weights(self, weights: Mapping[str, float]) -> Leaderboard:
        """The same scores with new task weights (unlisted tasks weigh 1)."""
        return Leaderboard(
            self._scores, lower_is_better=self._lower, weights=weights, groups=self._groups, notes=self._notes
        )

    def with_groups(self, groups: Mapping[str, Iterable[str]]) -> Leaderboard:
        """The same scores with new task groups."""
        return Leaderboard(
            self._scores,
            lower_is_better=self._lower,
            weights=dict(self._weights.items()),
            groups=groups,
            notes=self._notes,
        )

    # ------------------------------------------------------------------ pairwise views
    def pairwise(self, *, tie_tol: float = 0.0) -> PairwiseMatrix:
        """The weighted pairwise matrix; see :func:`consensus.pairwise.pairwise`."""
        from .pairwise import pairwise

        return pairwise(self, tie_tol=tie_tol)

    def majority_graph(self) -> nx.DiGraph:
        """The weighted majority graph; see :func:`consensus.majority.majority_graph`."""
        from .majority import majority_graph

        return majority_graph(self)

    # ------------------------------------------------------------------ display
    def to_frame(self) -> pd.DataFrame:
        """The original scores (same as :attr:`scores`)."""
        return self.scores

    def describe(self) -> str:
        """One paragraph on what was parsed: size, directions, weights, groups, missing cells, notes."""
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
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Leaderboard({self.n_systems} systems x {self.n_tasks} tasks, missing={len(self.missing_cells())})"

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


# ---------------------------------------------------------------------- validation helpers
def _label(value: object, kind: str, position: int) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise EmptyLabelError(kind, position)
    text = str(value).strip()
    if not text:
        raise EmptyLabelError(kind, position)
    return text


def _check_labels(labels: tuple[object, ...], kind: str) -> None:
    for i, label in enumerate(labels):
        if not isinstance(label, str) or not label.strip():
            raise EmptyLabelError(kind, i)
    seen: dict[str, int] = {}
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
    dups = [label for label, k in seen.items() if k > 1]
    if dups:
        raise DuplicateLabelError(kind, dups)


def _check_task_names(names: Iterable[str], tasks: Iterable[str], context: str) -> list[str]:
    tasks = list(tasks)
    known = set(tasks)
    names = [names] if isinstance(names, str) else list(names)
    for name in names:
        if name not in known:
            raise UnknownTaskError(name, tasks, context)
    return names


def _weight_value(w: object, task: str) -> float:
    try:
        value = float(w)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidWeightError(f"weight of task {task!r} is not a number: {w!r}", task) from None
    if not math.isfinite(value):
        raise InvalidWeightError(f"weight of task {task!r} is not finite: {w!r}", task)
    if value < 0:
        raise InvalidWeightError(f"weight of task {task!r} is negative: {w!r}; weights must be >= 0", task)
    return value


def _check_weights(weights: Mapping[str, float] | None, tasks: tuple[str, ...]) -> pd.Series:
    weights = dict(weights or {})
    _check_task_names(weights.keys(), tasks, "weights")
    values = [_weight_value(weights[t], t) if t in weights else 1.0 for t in tasks]
    series = pd.Series(values, index=pd.Index(tasks, dtype=object), dtype=np.float64, name="weight")
    if not (series > 0).any():
        raise InvalidWeightError("all task weights are zero; give at least one task a positive weight")
    return series


def _check_groups(groups: Mapping[str, Iterable[str]] | None, tasks: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    result: dict[str, tuple[str, ...]] = {}
    owner: dict[str, str] = {}
    for g, members in (groups or {}).items():
        members = list(members)
        if not members:
            raise LeaderboardError(f"group {g!r} has no task")
        _check_task_names(members, tasks, f"group {g!r}")
        for t in members:
            if t in owner:
                raise LeaderboardError(f"task {t!r} is in two groups: {owner[t]!r} and {g!r}")
            owner[t] = str(g)
        result[str(g)] = tuple(members)
    return MappingProxyType(result)


def _check_scores(values: np.ndarray, systems: tuple[str, ...], tasks: tuple[str, ...]) -> None:
    """All checks on a numeric score array: finite, no empty row or column, degenerate tasks."""
    inf = np.isinf(values)
    if inf.any():
        j = int(np.nonzero(inf.any(axis=0))[0][0])
        rows = np.nonzero(inf[:, j])[0]
        raise NonFiniteScoreError(tasks[j], [systems[i] for i in rows], float(values[rows[0], j]))
    present = ~np.isnan(values)
    empty_rows = np.nonzero(~present.any(axis=1))[0]
    if len(empty_rows):
        raise EmptySystemError([systems[i] for i in empty_rows])
    empty_cols = np.nonzero(~present.any(axis=0))[0]
    if len(empty_cols):
        names = [tasks[j] for j in empty_cols]
        raise LeaderboardError(
            f"task(s) {', '.join(repr(t) for t in names[:10])} have no score for any system; "
            "remove them or pass drop_empty=True"
        )
    for j in range(values.shape[1]):
        col = values[present[:, j], j]
        if len(col) > 1 and np.all(col == col[0]):
            warnings.warn(
                f"every scored system ties on task {tasks[j]!r}; it cannot discriminate",
                DegenerateTaskWarning,
                stacklevel=4,
            )


def _drop_empty(values: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    notes = []
    present = values.notna()
    empty_tasks = [t for t in values.columns if not present[t].any()]
    if empty_tasks:
        values = values.drop(columns=empty_tasks)
        notes.append("dropped task(s) with no score: " + ", ".join(repr(t) for t in empty_tasks))
    present = values.notna()
    empty_systems = [s for s in values.index if not present.loc[s].any()]
    if empty_systems:
        values = values.drop(index=empty_systems)
        notes.append("dropped system(s) with no score: " + ", ".join(repr(s) for s in empty_systems))
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=4)
    return values, notes


def _is_missing_cell(value: object) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    if isinstance(value, float) and math.isnan(value):
        return True
    if isinstance(value, str) and value.strip().lower() in MISSING_MARKERS:
        return True
    return False


def _parse_column(column: pd.Series, task: str, systems: list[str], split_composite: bool) -> list[np.ndarray]:
    """Parse one column into one float array (or two for a split composite task)."""
    if pd.api.types.is_bool_dtype(column.dtype):
        raise NonNumericScoreError(task, systems[:1], column.iloc[0])
    if pd.api.types.is_numeric_dtype(column.dtype):
        return [column.to_numpy(dtype=np.float64, na_value=np.nan)]
    raw = column.to_list()
    n = len(raw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numeric = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
    out = numeric.copy()
    parts = [np.full(n, np.nan), np.full(n, np.nan)]
    composite_rows: list[int] = []
    bad_rows: list[int] = []
    plain_rows = np.nonzero(~np.isnan(numeric))[0].tolist()
    for i in np.nonzero(np.isnan(numeric))[0].tolist():  # only cells that are not plain numbers
        cell = raw[i]
        if _is_missing_cell(cell):
            continue
        if isinstance(cell, bool):
            bad_rows.append(i)
            continue
        match = _COMPOSITE.match(str(cell))
        if match:
            composite_rows.append(i)
            parts[0][i], parts[1][i] = float(match.group(1)), float(match.group(2))
            continue
        bad_rows.append(i)
    if bad_rows:
        raise NonNumericScoreError(task, [systems[i] for i in bad_rows], raw[bad_rows[0]])
    if composite_rows:
        if not split_composite:
            raise CompositeScoreError(task, [systems[i] for i in composite_rows], raw[composite_rows[0]])
        if plain_rows:
            i = plain_rows[0]
            raise LeaderboardError(
                f"task {task!r} mixes composite cells (e.g. {raw[composite_rows[0]]!r}) with a single "
                f"number for system {systems[i]!r} ({raw[i]!r}); cannot tell which metric it is"
            )
        return parts
    return [out]


# ---------------------------------------------------------------------- file reading
_FORMATS = {".csv": "csv", ".tsv": "tsv", ".txt": "csv", ".parquet": "parquet", ".pq": "parquet", ".json": "json"}


def _file_format(path: Path, format: str | None) -> str:
    if format is not None:
        if format not in {"csv", "tsv", "parquet", "json"}:
            raise LeaderboardError(f"unknown file format {format!r}; use csv, tsv, parquet or json")
        return format
    fmt = _FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise LeaderboardError(
            f"cannot tell the format of {str(path)!r} from its extension; pass format='csv'|'tsv'|'parquet'|'json'"
        )
    return fmt


def read_table(path: str | Path, *, format: str | None = None, sep: str | None = None) -> pd.DataFrame:
    """Read a CSV/TSV/Parquet/JSON file into a raw frame (text cells kept as text).

    CSV and TSV cells are read as text, so composite cells and missing markers reach
    :meth:`Leaderboard.from_frame` untouched.
    """
    path = Path(path)
    if not path.exists():
        raise LeaderboardError(f"file not found: {str(path)!r}")
    if path.is_dir():
        raise LeaderboardError(f"{str(path)!r} is a directory, not a file")
    fmt = _file_format(path, format)
    if fmt in {"csv", "tsv"}:
        if path.stat().st_size == 0:
            raise LeaderboardError(f"file {str(path)!r} is empty")
        delimiter = sep or ("\t" if fmt == "tsv" else ",")
        try:
            frame = pd.read_csv(path, sep=delimiter, dtype=str, keep_default_na=False, skipinitialspace=True)
        except pd.errors.EmptyDataError:
            raise LeaderboardError(f"file {str(path)!r} is empty") from None
        except (pd.errors.ParserError, UnicodeDecodeError) as exc:
            raise LeaderboardError(f"cannot parse {str(path)!r} as {fmt}: {str(exc).strip()}") from None
        if frame.shape[1] <= 1:
            with path.open(encoding="utf-8", errors="replace") as fh:
                header = fh.readline()
            for name, char in ((";", ";"), ("tab", "\t"), (",", ","), ("|", "|")):
                if char != delimiter and char in header:
                    raise LeaderboardError(
                        f"file {str(path)!r} has a single column with the {fmt} delimiter; it looks "
                        f"{name}-separated: pass sep={char!r} (CLI: --sep)"
                    )
        return frame
    if fmt == "parquet":
        try:
            return pd.read_parquet(path)
        except ImportError as exc:
            raise ImportError(
                "reading Parquet needs pyarrow: pip install 'leaderboard-consensus[parquet]'"
            ) from exc
        except Exception as exc:  # pyarrow raises its own error types
            raise LeaderboardError(f"cannot read {str(path)!r} as parquet: {exc}") from None
    try:
        return pd.read_json(path, dtype=False)
    except ValueError as exc:
        raise LeaderboardError(f"cannot read {str(path)!r} as json: {exc}") from None


def read_leaderboard(
    path: str | Path,
    *,
    format: str | None = None,
    index_col: str | None = None,
    long: tuple[str, str, str] | None = None,
    sep: str | None = None,
    **options: Any,
) -> Leaderboard:
    """Read a leaderboard file: CSV, TSV, Parquet or JSON, wide or long.

    Parameters
    ----------
    path : str or Path
        The file; its extension picks the format unless `format` is given.
    index_col : str, optional
        Column holding the system names (wide files); default the first column.
    long : (system, task, score), optional
        Column names of a long file (one row per system-task pair).
    sep : str, optional
        Delimiter of a CSV/TSV file.
    **options
        Passed to :meth:`Leaderboard.from_frame` (``lower_is_better``, ``weights``,
        ``split_composite``, ``exclude``, ...).

    Examples
    --------
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "lb.csv")
    >>> _ = open(path, "w").write("model,qa,nli\\na,0.7,-\\nb,0.6,0.5\\n")
    >>> read_leaderboard(path).scores
        qa  nli
    a  0.7  NaN
    b  0.6  0.5
    """
    frame = read_table(path, format=format, sep=sep)
    if long is not None:
        system, task, score = long
        return Leaderboard.from_long(frame, system=system, task=task, score=score, **options)
    if frame.shape[1] == 0:
        raise LeaderboardError(f"file {str(path)!r} has no columns")
    if index_col is None:
        if isinstance(frame.index, pd.RangeIndex):
            index_col = str(frame.columns[0])
    if index_col is not None:
        if index_col not in frame.columns:
            raise UnknownTaskError(index_col, [str(c) for c in frame.columns], "index_col")
        frame = frame.set_index(index_col)
        frame.index.name = None
    return Leaderboard.from_frame(frame, **options)
