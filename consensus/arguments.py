"""Type checks of the arguments users pass: lists of names, counts, seeds, mappings.

A wrong type (``weights=[1]``, ``lower_is_better=5``, ``n_systems=5.0``) raises the
package's own error naming the argument and the fix, before any work, instead of a bare
``TypeError`` from deep inside. :mod:`consensus.board._validation` checks the values themselves
against the table (known tasks, finite weights, ...).
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping
from typing import Any, Literal, overload

import numpy as np
import pandas as pd

from ._docstrings import COMMON, fill_doc
from .errors import InvalidOptionError, InvalidWeightError, LeaderboardError

__all__ = [
    "name_list",
    "check_lower_is_better",
    "lower_names",
    "weights_mapping",
    "check_groups_type",
    "check_frame_options",
    "check_count",
    "check_flag",
    "check_share",
    "check_seconds",
    "check_min_coverage",
    "check_seed",
    "check_rng_seed",
]


def _shown_value(value: object) -> str:
    """``list [1]``: the type and (shortened) repr of a wrong option value, for messages."""
    text = repr(value)
    return f"{type(value).__name__} {text[:60] + '...' if len(text) > 60 else text}"


@fill_doc(COMMON)
def name_list(
    value: object, option: str, *, kind: str = "task names", allow_none: bool = False, allow_str: bool = False
) -> list[Any]:
    """The names given to an option that takes a list of names, as a list.

    Parameters
    ----------
    {user_value}
    option : str
        The option's name, for the message (``"lower_is_better"``, ``"exclude"``, ...).
    kind : str, default="task names"
        What the list holds, for the message.
    allow_none : bool, default=False
        None means no name (returns ``[]``).
    allow_str : bool, default=False
        A bare string is one name; otherwise it is an error (``"qa"`` is not ``["qa"]``
        to every reader).

    Returns
    -------
    list
        The names, in the given order (not checked against the known labels).

    Raises
    ------
    InvalidOptionError
        If `value` is None or a string (unless allowed), a mapping, or not iterable; the
        message names `option` and the fix.

    Examples
    --------
    >>> name_list(("qa", "nli"), "lower_is_better")
    ['qa', 'nli']
    >>> try:
    ...     name_list("qa", "lower_is_better")
    ... except InvalidOptionError as err:
    ...     print(err)
    lower_is_better must be a list of task names, got the string 'qa'; pass ['qa']
    """
    if value is None:
        if allow_none:
            return []
        raise InvalidOptionError(f"{option} must be a list of {kind}, got None; pass () for none")
    if isinstance(value, str):
        if allow_str:
            return [value]
        raise InvalidOptionError(f"{option} must be a list of {kind}, got the string {value!r}; pass [{value!r}]")
    if isinstance(value, (Mapping, bytes)) or not isinstance(value, Iterable):
        raise InvalidOptionError(f"{option} must be a list of {kind}, got {_shown_value(value)}")
    return list(value)


@fill_doc(COMMON)
def check_lower_is_better(value: object) -> list[Any] | dict[Any, bool]:
    """The ``lower_is_better`` option checked for type: a list of task names or a dict task -> bool.

    Parameters
    ----------
    {user_value}

    Returns
    -------
    list or dict
        The task names as a list, or the mapping as a dict (values checked to be booleans).

    Raises
    ------
    InvalidOptionError
        If `value` is None, a bare string, not iterable, or a mapping whose values are not
        True / False.

    Examples
    --------
    >>> check_lower_is_better({"latency": True, "acc": False})
    {'latency': True, 'acc': False}
    """
    if isinstance(value, Mapping):
        for task, flag in value.items():
            if not isinstance(flag, (bool, np.bool_)):
                raise InvalidOptionError(f"lower_is_better[{task!r}] must be True or False, got {flag!r}")
        return {task: bool(flag) for task, flag in value.items()}
    return name_list(value, "lower_is_better", kind="task names (or a dict task -> bool)")


def check_frame_options(
    lower_is_better: object, weights: object, groups: object, tasks: object, exclude: object, keep_columns: object
) -> tuple[Any, dict[Any, Any] | None, Mapping[Any, Any] | None]:
    """Check the types of the options of ``Leaderboard.from_frame`` before the frame is parsed.

    The names themselves are checked against the frame's columns later.

    Parameters
    ----------
    lower_is_better, weights, groups, tasks, exclude, keep_columns : object
        As given to :meth:`consensus.Leaderboard.from_frame`.

    Returns
    -------
    tuple
        `lower_is_better` (a list or dict), `weights` (a dict or None; a pandas Series is
        taken as task -> weight) and `groups` (a mapping or None).

    Raises
    ------
    InvalidOptionError
        `lower_is_better`, `tasks`, `exclude` or `keep_columns` of the wrong type.
    InvalidWeightError
        `weights` is not a mapping task -> number.
    LeaderboardError
        `groups` is not a mapping group -> list of task names.

    Examples
    --------
    >>> check_frame_options(["t1"], {"t1": 2}, None, None, (), None)
    (['t1'], {'t1': 2}, None)
    """
    lower = check_lower_is_better(lower_is_better)
    weight_map = weights_mapping(weights)
    check_groups_type(groups)
    name_list(tasks, "tasks", allow_none=True, allow_str=True)
    name_list(exclude, "exclude", allow_none=True, allow_str=True)
    if not isinstance(keep_columns, (bool, np.bool_)):
        name_list(keep_columns, "keep_columns", allow_none=True, allow_str=True)
    return lower, weight_map, groups  # type: ignore[return-value]


@fill_doc(COMMON)
def check_seconds(value: object, option: str) -> float | None:
    """A time limit (``time_limit``, ``time_limit``): None, or a number of seconds > 0.

    The one check of every time-limit option: a bool or a string is refused (``"60"`` is not
    read as 60), as are 0, negative, infinite and NaN values.

    Parameters
    ----------
    {user_value}
    option : str
        The option's name, for the message.

    Returns
    -------
    float or None

    Raises
    ------
    InvalidOptionError
        `value` is not None and not a finite number > 0.

    Examples
    --------
    >>> check_seconds(5, "time_limit"), check_seconds(None, "time_limit")
    (5.0, None)
    >>> check_seconds("60", "time_limit")
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: time_limit must be a number of seconds (or None), got '60'
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InvalidOptionError(f"{option} must be a number of seconds (or None), got {value!r}")
    seconds = float(value)
    if not (np.isfinite(seconds) and seconds > 0):
        raise InvalidOptionError(f"{option} must be a positive number of seconds (or None), got {value!r}")
    return seconds


@fill_doc(COMMON)
def check_min_coverage(value: object, prefix: str = "") -> float | None:
    """A coverage threshold (``min_coverage``): None, or a share of the task weight in [0, 1].

    The one check of the option wherever it is taken (``rank``, ``kemeny``, the weight
    questions, ``analyze``, ``Leaderboard.with_min_coverage``): a bool or a string is refused
    (``"0.5"`` is not read as 0.5), as are NaN and values outside [0, 1].

    Parameters
    ----------
    {user_value}
    prefix : str, optional
        Put before the message (``"rule 'borda': "``).

    Returns
    -------
    float or None

    Raises
    ------
    InvalidOptionError
        `value` is not None and not a number in [0, 1].

    Examples
    --------
    >>> check_min_coverage(0.5), check_min_coverage(None)
    (0.5, None)
    >>> check_min_coverage(1.5)
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: min_coverage must be in [0, 1] (a share of the task weight), got 1.5
    """
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidOptionError(f"{prefix}min_coverage must be a number in [0, 1] or None, got {value!r}")
    share = float(value)
    if not 0.0 <= share <= 1.0:
        raise InvalidOptionError(f"{prefix}min_coverage must be in [0, 1] (a share of the task weight), got {value!r}")
    return share


def check_flag(value: object, option: str) -> bool:
    """Check that an option is True or False.

    Parameters
    ----------
    value : object
        The option as given.
    option : str
        Its name, for the message.

    Returns
    -------
    bool

    Raises
    ------
    InvalidOptionError
        If `value` is not a bool (numpy's included).

    Examples
    --------
    >>> check_flag(np.bool_(True), "dropna")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidOptionError(f"{option} must be True or False, got {value!r}")
    return bool(value)


def check_count(value: object, option: str, minimum: int) -> int:
    """A count option (``n_systems``, ``levels``, ...): an integer >= `minimum`.

    Parameters
    ----------
    value : object
        What the user passed; an ``int`` or numpy integer (not a bool, not a float such as
        ``5.0``).
    option : str
        The option's name, for the message.
    minimum : int
        The smallest allowed value.

    Returns
    -------
    int

    Raises
    ------
    InvalidOptionError
        If `value` is not an integer or is below `minimum`.

    Examples
    --------
    >>> check_count(5, "n_systems", 2)
    5
    >>> try:
    ...     check_count(5.0, "n_systems", 2)
    ... except InvalidOptionError as err:
    ...     print(err)
    n_systems must be an integer >= 2, got 5.0 (float)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise InvalidOptionError(f"{option} must be an integer >= {minimum}, got {value!r} ({type(value).__name__})")
    if value < minimum:
        raise InvalidOptionError(f"{option} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def check_share(value: object, option: str, *, zero: bool = False, closed: bool = False) -> float:
    """A share or level: a finite number strictly between 0 and 1 (in ``[0, 1)`` with `zero`, in
    ``[0, 1]`` with `closed`).

    The one check of ``level``, ``alpha``, ``delta``, ``eta``, ``tie_penalty`` and the
    significance level.

    Parameters
    ----------
    value : object
        What the user passed (numpy scalars included, booleans not).
    option : str
        Its name, for the message.
    zero : bool, default=False
        0 is allowed (a share of missing cells).
    closed : bool, default=False
        0 and 1 are allowed (a penalty).

    Returns
    -------
    float

    Raises
    ------
    InvalidOptionError
        Not a number, or outside the range; the message names `option`.

    Examples
    --------
    >>> check_share(0.05, "level"), check_share(0, "eta", zero=True)
    (0.05, 0.0)
    >>> check_share(1, "delta")
    Traceback (most recent call last):
    ...
    consensus.errors.InvalidOptionError: delta must be a number strictly between 0 and 1, got 1
    """
    where = "in [0, 1]" if closed else "in [0, 1)" if zero else "strictly between 0 and 1"
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.integer, np.floating)):
        raise InvalidOptionError(f"{option} must be a number {where}, got {value!r}")
    share = float(value)
    low = 0.0 <= share if zero or closed else 0.0 < share
    if not (low and (share <= 1.0 if closed else share < 1.0)):  # NaN fails every comparison
        raise InvalidOptionError(f"{option} must be a number {where}, got {value!r}")
    return share


@overload
def check_seed(value: object, option: str = ..., *, allow_none: Literal[False]) -> int: ...
@overload
def check_seed(value: object, option: str = ..., *, allow_none: bool = ...) -> int | None: ...
@fill_doc(COMMON)
def check_seed(value: object, option: str = "seed", *, allow_none: bool = True) -> int | None:
    """A random seed: an integer >= 0 (or None when allowed).

    Parameters
    ----------
    {user_value}
    option : str, default="seed"
        The option's name, for the message.
    allow_none : bool, default=True
        None is allowed (fresh randomness).

    Returns
    -------
    int or None

    Raises
    ------
    InvalidOptionError
        If `value` is not a non-negative integer (or None when allowed).

    Examples
    --------
    >>> check_seed(3), check_seed(None)
    (3, None)
    """
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) or value < 0:
        accepted = "an integer >= 0" + (" or None" if allow_none else "")
        raise InvalidOptionError(f"{option} must be {accepted}, got {value!r}")
    return int(value)


def lower_names(value: object) -> list[Any]:
    """The tasks of a ``lower_is_better`` option (list, or dict task -> bool: the True ones).

    Parameters
    ----------
    value : object
        As given; checked by :func:`check_lower_is_better`.

    Returns
    -------
    list
        The names of the lower-is-better tasks (not yet checked against the tasks).

    Examples
    --------
    >>> lower_names({"latency": True, "acc": False}), lower_names(frozenset({"latency"}))
    (['latency'], ['latency'])
    """
    spec = check_lower_is_better(value)
    return [t for t, flag in spec.items() if flag] if isinstance(spec, dict) else spec


def weights_mapping(weights: object) -> dict[Any, Any] | None:
    """The ``weights`` option checked for type: None, or a mapping (or pandas Series) task -> weight.

    Parameters
    ----------
    weights : object
        As given.

    Returns
    -------
    dict or None
        The weights as a dict (values not yet checked), None when `weights` is None.

    Raises
    ------
    InvalidWeightError
        If `weights` is not a mapping, e.g. a list of numbers (which task would each be?).

    Examples
    --------
    >>> weights_mapping(pd.Series({"qa": 2.0}))
    {'qa': 2.0}
    """
    if weights is None:
        return None
    if isinstance(weights, pd.Series):
        return dict(weights.items())
    if not isinstance(weights, Mapping):
        raise InvalidWeightError(
            f"weights must be a mapping task -> number such as {{'qa': 2.0}}, got {_shown_value(weights)}"
        )
    return dict(weights)


def check_groups_type(groups: object) -> None:
    """The ``groups`` option checked for type: None, or a mapping group -> list of task names.

    Parameters
    ----------
    groups : object
        As given.

    Raises
    ------
    LeaderboardError
        If `groups` is not a mapping, or a group's tasks are a bare string or not a list.

    Examples
    --------
    >>> check_groups_type({"nlu": ["qa", "nli"]})
    """
    if groups is None:
        return
    if not isinstance(groups, Mapping):
        raise LeaderboardError(
            "groups must be a mapping group -> list of tasks such as {'nlu': ['qa', 'nli']}, "
            f"got {_shown_value(groups)}"
        )
    for g, members in groups.items():
        if isinstance(members, str):
            raise LeaderboardError(
                f"groups[{g!r}] must be a list of task names, got the string {members!r}; pass [{members!r}]"
            )
        if isinstance(members, Mapping) or not isinstance(members, Iterable):
            raise LeaderboardError(f"groups[{g!r}] must be a list of task names, got {_shown_value(members)}")


@fill_doc(COMMON)
def check_rng_seed(value: object, option: str = "seed") -> Any:
    """A seed for ``numpy.random.default_rng``: None, an integer >= 0, or a numpy SeedSequence,
    BitGenerator or Generator (passed through).

    Parameters
    ----------
    {user_value}
    option : str, default="seed"
        The option's name, for the message.

    Returns
    -------
    object
        `value` (an integer as ``int``).

    Raises
    ------
    InvalidOptionError
        If `value` is none of these.

    Examples
    --------
    >>> check_rng_seed(np.int64(7)), check_rng_seed(None)
    (7, None)
    """
    if isinstance(value, (np.random.SeedSequence, np.random.BitGenerator, np.random.Generator)):
        return value
    return check_seed(value, option)
