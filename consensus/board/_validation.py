"""Checks shared by every score table: labels, task names, weights, groups.

Used by :class:`consensus.Leaderboard` and :class:`consensus.InstanceScores`; each check
raises the package's own error naming the label, task or group at fault.
"""

from __future__ import annotations

import math
import numbers
import sys
import warnings
from collections.abc import Hashable, Iterable, Mapping
from types import MappingProxyType
from typing import cast

import numpy as np
import pandas as pd

from .._docstrings import fill_doc
from ..arguments import check_groups_type, name_list, weights_mapping
from ..errors import (
    DegenerateTaskWarning,
    DuplicateLabelError,
    EmptyLabelError,
    EmptySystemError,
    InvalidOptionError,
    InvalidWeightError,
    LeaderboardError,
    NonFiniteScoreError,
    UnknownTaskError,
)
from ..hints import Hinted, call, option
from ._docs import SECTIONS

__all__ = [
    "finite_number",
    "check_scores",
    "label_text",
    "check_labels",
    "check_task_names",
    "weight_value",
    "check_weights",
    "check_groups",
    "min_coverage_option",
]


def min_coverage_option(value: float) -> Hinted:
    """``min_coverage=0.5`` (``--min-coverage 0.5``), the value formatted with ``:g`` (``1.0`` is ``1``),
    for the messages and notes of :meth:`~consensus.Leaderboard.with_min_coverage` and
    :func:`~consensus.board._coverage.set_aside`.

    Parameters
    ----------
    value : float

    Returns
    -------
    Hinted

    Examples
    --------
    >>> hint = min_coverage_option(1.0)
    >>> hint, hint.cli
    ('min_coverage=1', '--min-coverage 1')
    """
    return call(f"min_coverage={value:g}", f"--min-coverage {value:g}")


@fill_doc(SECTIONS)
def label_text(value: object, kind: str, position: int) -> str:
    """A system or task label as stripped text.

    Parameters
    ----------
    value : object
        The raw label (an index or column entry); non-text labels are converted with ``str``.
    {label_kind}
    position : int
        Position of the label among its kind, for the error message.

    Returns
    -------
    str
        ``str(value)`` without surrounding whitespace.

    Raises
    ------
    EmptyLabelError
        If `value` is None, a float NaN, or blank text.

    Examples
    --------
    >>> label_text(" sys-a ", "system", 0), label_text(3, "task", 1)
    ('sys-a', '3')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        raise EmptyLabelError(kind, position)
    text = str(value).strip()
    if not text:
        raise EmptyLabelError(kind, position)
    return text


@fill_doc(SECTIONS)
def check_labels(labels: tuple[object, ...], kind: str) -> None:
    """Check that labels are non-blank strings and unique.

    Parameters
    ----------
    labels : tuple
        The system or task labels, in order.
    {label_kind}

    Raises
    ------
    EmptyLabelError
        If a label is not a string or is blank (names the first such position).
    DuplicateLabelError
        If a label appears more than once (lists every repeated label).

    Examples
    --------
    >>> check_labels(("a", "b"), "system")
    >>> try:
    ...     check_labels(("a", "b", "a"), "system")
    ... except DuplicateLabelError as err:
    ...     print(err.labels)
    ('a',)
    """
    for i, label in enumerate(labels):
        if not isinstance(label, str) or not label.strip():
            raise EmptyLabelError(kind, i)
    seen: dict[str, int] = {}
    for label in cast("tuple[str, ...]", labels):  # all str: checked by the loop above
        seen[label] = seen.get(label, 0) + 1
    dups = [label for label, k in seen.items() if k > 1]
    if dups:
        raise DuplicateLabelError(kind, dups)


def check_task_names(names: Iterable[str], tasks: Iterable[str], context: str) -> list[str]:
    """Check that every name in `names` is one of `tasks`.

    Parameters
    ----------
    names : str or iterable of str
        Task names given by the user; a single string counts as one name.
    tasks : iterable of str
        The known tasks.
    context : str
        Where the names come from (``"weights"``, ``"lower_is_better"``, ...), for the
        error message.

    Returns
    -------
    list of str
        `names` as a list, in the given order (repeats kept).

    Raises
    ------
    UnknownTaskError
        If a name is not a task; the message lists the closest task names.

    Examples
    --------
    >>> check_task_names("qa", ("qa", "nli"), "lower_is_better")
    ['qa']
    >>> try:
    ...     check_task_names(["nl"], ("qa", "nli"), "weights")
    ... except UnknownTaskError as err:
    ...     print(err)
    unknown task 'nl' in weights; did you mean 'nli'?
    """
    tasks = list(tasks)
    known = set(tasks)
    names = [names] if isinstance(names, str) else name_list(names, context)
    for name in names:
        if not isinstance(name, Hashable) or name not in known:
            raise UnknownTaskError(name, tasks, context)
    return names


def finite_number(value: object, what: str, *, non_negative: bool = False) -> float:
    """Return `value` as a finite float (a bool is refused), else raise naming the option.

    Parameters
    ----------
    value : object
        A number, or anything ``float()`` accepts (such as ``"0.5"``).
    what : str
        The option name, for error messages.
    non_negative : bool, default False
        Also refuse values below 0.

    Returns
    -------
    float

    Raises
    ------
    InvalidOptionError
        `value` is a bool, not a number, not finite, or (`non_negative`) negative.

    Examples
    --------
    >>> finite_number("0.25", "min_weight")
    0.25
    >>> finite_number(-1, "prior", non_negative=True)
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: prior must be finite and >= 0, got -1
    """
    try:
        if isinstance(value, (bool, np.bool_)):
            raise TypeError
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{what} must be a number, got {value!r}") from None
    if not math.isfinite(out) or (non_negative and out < 0):
        raise InvalidOptionError(f"{what} must be finite{' and >= 0' if non_negative else ''}, got {value!r}")
    return out


def weight_value(w: object, task: str) -> float:
    """One task weight as a float, checked.

    Parameters
    ----------
    w : object
        The weight as given (anything ``float()`` accepts).
    task : str
        The task the weight belongs to, for the error message.

    Returns
    -------
    float
        The weight: finite and >= 0 (zero is allowed).

    Raises
    ------
    InvalidWeightError
        If `w` is not a number (a bool or a string is not: ``True`` and ``"2"`` are refused,
        as on the command line), not finite, too large for a float, negative, or subnormal
        (positive but below 2.2e-308, where float64 loses its exactness: margins would treat
        it as zero; scale every weight up instead, only their ratios matter).

    Examples
    --------
    >>> weight_value(0.5, "qa"), weight_value(np.int64(2), "qa")
    (0.5, 2.0)
    """
    if isinstance(w, (bool, np.bool_, str, bytes)) or not isinstance(w, (numbers.Real, np.number)):
        raise InvalidWeightError(f"weight of task {task!r} is not a number: {w!r}", task)
    try:
        value = float(w)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidWeightError(f"weight of task {task!r} is not a number: {w!r}", task) from None
    except OverflowError:
        raise InvalidWeightError(f"weight of task {task!r} is too large for a float: {str(w)[:12]}... "
                                 f"({len(str(w))} digits)", task) from None
    if not math.isfinite(value):
        raise InvalidWeightError(f"weight of task {task!r} is not finite: {w!r}", task)
    if value < 0:
        raise InvalidWeightError(f"weight of task {task!r} is negative: {w!r}; weights must be >= 0", task)
    if 0 < value < sys.float_info.min:
        raise InvalidWeightError(
            f"weight of task {task!r} is subnormal ({value:g} < 2.2e-308): float64 cannot weigh margins by it exactly; "
            "multiply every weight by the same factor (only their ratios matter), or set it to 0", task)
    return value


def check_weights(weights: Mapping[str, float] | None, tasks: tuple[str, ...]) -> pd.Series:
    """Task weights over all tasks: the given ones checked, the unlisted ones 1.

    Weights are kept as given, not normalized (see ``normalized_weights`` of a
    :class:`~consensus.Leaderboard`).

    Parameters
    ----------
    weights : dict or None
        Task -> weight; None or an empty dict gives every task weight 1.
    tasks : tuple of str
        All tasks, in order.

    Returns
    -------
    pandas.Series
        Float weights indexed by `tasks`, named ``"weight"``.

    Raises
    ------
    UnknownTaskError
        If `weights` names a task that is not in `tasks`.
    InvalidWeightError
        If `weights` is not a mapping, a weight is not a number, not finite or negative, or
        if every weight is zero.

    Examples
    --------
    >>> check_weights({"qa": 2}, ("qa", "nli")).tolist()
    [2.0, 1.0]
    """
    weights = weights_mapping(weights) or {}
    check_task_names(weights.keys(), tasks, "weights")
    values = [weight_value(weights[t], t) if t in weights else 1.0 for t in tasks]
    series = pd.Series(values, index=pd.Index(tasks, dtype=object), dtype=np.float64, name="weight")
    if not (series > 0).any():
        raise InvalidWeightError("all task weights are zero; give at least one task a positive weight")
    return series


def check_groups(groups: Mapping[str, Iterable[str]] | None, tasks: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    """Task groups, checked: non-empty, known tasks, each task in at most one group.

    Parameters
    ----------
    groups : dict or None
        Group -> tasks of the group; None means no group. Tasks need not all be grouped.
    tasks : tuple of str
        All tasks.

    Returns
    -------
    Mapping[str, tuple[str, ...]]
        A read-only mapping (``MappingProxyType``) from group name (as ``str``) to its
        tasks, in the given order.

    Raises
    ------
    LeaderboardError
        If `groups` is not a mapping group -> list of task names, a group has no task, or a
        task is listed twice (in two groups, or twice in one group).
    UnknownTaskError
        If a group lists a task that is not in `tasks`.

    Examples
    --------
    >>> dict(check_groups({"nlu": ["qa", "nli"]}, ("qa", "nli", "mt")))
    {'nlu': ('qa', 'nli')}
    """
    check_groups_type(groups)
    result: dict[str, tuple[str, ...]] = {}
    owner: dict[str, str] = {}
    for g, members in (groups or {}).items():
        members = list(members)
        if not members:
            raise LeaderboardError(f"group {g!r} has no task")
        check_task_names(members, tasks, f"group {g!r}")
        for t in members:
            if t in owner:
                raise LeaderboardError(f"task {t!r} is in two groups: {owner[t]!r} and {g!r}")
            owner[t] = str(g)
        result[str(g)] = tuple(members)
    return MappingProxyType(result)


@fill_doc(SECTIONS)
def check_scores(values: np.ndarray, systems: tuple[str, ...], tasks: tuple[str, ...]) -> None:
    """Check a numeric score array: finite, no empty system or task; warn on degenerate tasks.

    Parameters
    ----------
    values : numpy.ndarray
        Float scores, systems x tasks, NaN where missing.
    systems, tasks : tuple of str
        Row and column labels, for the messages.

    Raises
    ------
    NonFiniteScoreError
        If a score is infinite (names the first such task and its systems).
    {empty_system}
    LeaderboardError
        If a task has no score for any system.

    Warns
    -----
    DegenerateTaskWarning
        For each task on which every scored system (at least two) has the same score.

    Examples
    --------
    >>> import numpy as np
    >>> check_scores(np.array([[0.5, 1.0], [0.7, np.nan]]), ("a", "b"), ("qa", "nli"))
    >>> try:
    ...     check_scores(np.array([[0.5, np.nan], [0.7, np.nan]]), ("a", "b"), ("qa", "nli"))
    ... except LeaderboardError as err:
    ...     print(err)
    task(s) 'nli' have no score for any system; remove them or pass drop_empty=True
    """
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
            "remove them or pass " + option("drop_empty", True)
        )
    for j in range(values.shape[1]):
        col = values[present[:, j], j]
        if len(col) > 1 and np.all(col == col[0]):
            warnings.warn(
                f"every scored system ties on task {tasks[j]!r}; it cannot discriminate",
                DegenerateTaskWarning,
                stacklevel=4,
            )
