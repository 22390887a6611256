"""The options of the task-weight questions, checked in one place.

:func:`weight_options` is the one check of the options the task-weight questions
(:func:`consensus.condorcet_weights`, :func:`consensus.winning_weights`,
:func:`consensus.prospective`, :func:`consensus.weight_sensitivity`) share, run before any work;
each question adds only its own options to it.

``min_weight``, ``max_weight``, ``fixed``, ``group_bounds`` and ``order`` become
:class:`~consensus.results.WeightConstraint` rows; ``nearest_to`` a reference weighting; ``objective``
a (sense, tasks) pair. Every problem is reported as an :class:`~consensus.InvalidOptionError`
(or :class:`~consensus.UnknownTaskError`, :class:`~consensus.errors.InvalidWeightError`) naming the
option and the task.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal, TypeAlias

import numpy as np
import pandas as pd

from solvers.weights_lp import WeightConstraints

from ..board._leaderboard import Leaderboard
from ..board._validation import finite_number as number
from ..errors import InvalidOptionError, InvalidWeightError, UnknownTaskError
from ..hints import hinted, option
from ..missing._preparation import Prepared, prepared_for
from ..results import WeightConstraint
from ._certificates import weight_vector

__all__ = [
    "Reference",
    "number",
    "task_name",
    "reference_for",
    "reference_weights",
    "group_members",
    "Constraints",
    "as_constraints",
    "weight_constraints",
    "solver_constraints",
    "objective_tasks",
    "check_tolerances",
    "unscored_constraints",
    "WEIGHT_NO_IMPUTE",
    "prepared_weights",
    "WeightOptions",
    "weight_options",
    "WEIGHT_DOCS",
]

#: Docstring entries the task-weight questions share (:func:`consensus._docstrings.fill_doc`).
WEIGHT_DOCS: dict[str, str] = {
    "min_coverage": (
        "min_coverage : float or None, default 0\n"
        "    Set aside the systems whose coverage is below this share first\n"
        "    (:func:`consensus.board._coverage.set_aside`). The default keeps every rival of the system\n"
        "    asked about; None applies the default set-aside rule of the ranking questions."
    ),
}

Reference: TypeAlias = Literal["leaderboard", "uniform"] | Mapping[str, float] | pd.Series | bool | None


def task_name(lb: Leaderboard, name: object, context: str) -> str:
    """Return `name` if it is a task of `lb`.

    Parameters
    ----------
    lb : Leaderboard
        Gives the tasks.
    name : object
        The task name given.
    context : str
        The option name, for the error message.

    Returns
    -------
    str
        `name`, unchanged.

    Raises
    ------
    UnknownTaskError
        `name` is not a string naming a task of `lb` (the message suggests close names).

    Examples
    --------
    >>> import consensus as cs
    >>> task_name(cs.load_example("votenrank-toy"), "t1", "fixed")
    't1'
    """
    if not isinstance(name, str) or name not in lb.tasks:
        raise UnknownTaskError(name, lb.tasks, context)
    return name


def reference_for(nearest_to: Reference, objective: object) -> Reference:
    """The ``nearest_to`` of a weight question given its ``objective``: the one check of both.

    Every weight question defaults to ``nearest_to="leaderboard"`` (the winning weights
    closest to the official ones); an explicit `objective` takes its place. Both given
    explicitly is an error.

    Parameters
    ----------
    nearest_to : Reference
        As given (the default ``"leaderboard"`` included).
    objective : object
        As given.

    Returns
    -------
    Reference
        `nearest_to`, or None when the default gives way to `objective`.

    Raises
    ------
    InvalidOptionError
        A reference other than the default together with an objective.

    Examples
    --------
    >>> reference_for("leaderboard", ("min", "t1")) is None, reference_for("uniform", None)
    (True, 'uniform')
    """
    if objective is None:
        return nearest_to
    if isinstance(nearest_to, str) and nearest_to == "leaderboard":
        return None  # the default reference gives way to an explicit objective
    if nearest_to is not None and nearest_to is not False:
        raise InvalidOptionError("pass either nearest_to or objective, not both")
    return nearest_to


def reference_weights(lb: Leaderboard, nearest_to: Reference) -> np.ndarray | None:
    """Return the reference weighting of `nearest_to`, normalized to sum 1 (None: no nearest mode).

    Parameters
    ----------
    lb : Leaderboard
        Gives the tasks and the leaderboard's own weights.
    nearest_to : {"leaderboard", "uniform"}, Mapping or Series, bool or None
        ``"leaderboard"`` or True: ``lb.normalized_weights``; ``"uniform"``: 1 / n_tasks
        each; a mapping task -> weight (tasks not listed weigh 0), normalized; None or
        False: no reference.

    Returns
    -------
    numpy.ndarray or None
        One weight per task of `lb`, summing to 1, or None.

    Raises
    ------
    InvalidOptionError
        `nearest_to` is another string, or neither a string, bool, mapping nor Series.
    UnknownTaskError
        The mapping names a task that is not on `lb`.
    InvalidWeightError
        A weight of the mapping is not a finite number >= 0, or all are zero.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> reference_weights(lb, {"t1": 1, "t2": 3}).tolist()
    [0.25, 0.75, 0.0, 0.0, 0.0]
    >>> reference_weights(lb, None) is None
    True
    """
    if nearest_to is None or nearest_to is False:
        return None
    if nearest_to is True or (isinstance(nearest_to, str) and nearest_to == "leaderboard"):
        return lb.normalized_weights.to_numpy(dtype=np.float64)
    if isinstance(nearest_to, str):
        if nearest_to == "uniform":
            return np.full(lb.n_tasks, 1.0 / lb.n_tasks)
        raise InvalidOptionError(
            f"nearest_to must be 'leaderboard', 'uniform', or a mapping task -> weight; got {nearest_to!r}"
        )
    w = weight_vector(lb, nearest_to, "nearest_to")
    if w.sum() <= 0:
        raise InvalidWeightError("nearest_to: every reference weight is zero; give a task a positive weight")
    return w / w.sum()


def group_members(lb: Leaderboard, key: object) -> tuple[str, tuple[str, ...]]:
    """Return the label and tasks of a ``group_bounds`` key: a group of ``lb.groups`` or a tuple of tasks.

    Parameters
    ----------
    lb : Leaderboard
        Gives the groups and tasks.
    key : str, tuple, list, set or frozenset
        A group name of ``lb.groups``, or the tasks themselves (a set is put in task
        order).

    Returns
    -------
    tuple of (str, tuple of str)
        The label (the group name, or the tasks joined by ``"+"``) and the tasks.

    Raises
    ------
    InvalidOptionError
        `key` is an unknown group name, an empty collection, a collection listing a task
        twice, or of another type.
    UnknownTaskError
        A task of a collection is not on `lb`.

    Examples
    --------
    >>> import consensus as cs
    >>> group_members(cs.load_example("votenrank-toy"), {"t3", "t1"})
    ('t1+t3', ('t1', 't3'))
    """
    if isinstance(key, str):
        if key in lb.groups:
            return key, tuple(lb.groups[key])
        known = ", ".join(repr(g) for g in lb.groups) or "none"
        hint = f"; for the single task {key!r} use ({key!r},) or min_weight/max_weight" if key in lb.tasks else ""
        raise InvalidOptionError(f"group_bounds: unknown group {key!r} (groups of this leaderboard: {known}){hint}")
    if isinstance(key, (tuple, list, frozenset, set)):
        members = [task_name(lb, t, "group_bounds") for t in key]
        if isinstance(key, (frozenset, set)):
            members.sort(key=lb.tasks.index)
        if not members:
            raise InvalidOptionError("group_bounds: a group needs at least one task")
        if len(set(members)) != len(members):
            raise InvalidOptionError(f"group_bounds: group {tuple(members)!r} lists a task twice")
        return "+".join(members), tuple(members)
    raise InvalidOptionError(f"group_bounds keys are group names or tuples of tasks, got {key!r}")


@dataclass(frozen=True)
class Constraints:
    """Bounds on the task weights, one object for every weight question.

    ``condorcet_weights``, ``winning_weights``, ``prospective`` and ``weight_sensitivity`` take it
    as ``constraints=`` (a mapping with these keys works too). The weights always sum to 1 and
    are >= 0; these narrow them further. Checked against the leaderboard when a question uses
    them (a task that is not on it is an :class:`~consensus.UnknownTaskError` then).

    Attributes
    ----------
    min_weight, max_weight : float or Mapping[str, float] or None
        A bound for every task, or task -> bound.
    fixed : Mapping[str, float] or None
        Task -> exact weight.
    group_bounds : Mapping or None
        Group name (of ``lb.groups``) or tuple of tasks -> ``(lower, upper)`` bounds on the
        group's total weight; None leaves a side open.
    order : sequence of sequences of str, or None
        Pairs or chains of tasks, heavier first (``[("qa", "nli")]``: qa weighs at least nli).

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> bounds = cs.Constraints(max_weight=0.5, order=[("t1", "t2")])
    >>> [c.label for c in bounds.rows(toy)][:2]
    ['max_weight[t1]', 'max_weight[t2]']
    >>> cs.condorcet_weights(toy, "B", constraints=bounds).feasible
    True
    """

    min_weight: float | Mapping[str, float] | None = None
    max_weight: float | Mapping[str, float] | None = None
    fixed: Mapping[str, float] | None = None
    group_bounds: Mapping[Any, tuple[float | None, float | None]] | None = None
    order: Iterable[Sequence[str]] | None = None

    def __post_init__(self) -> None:
        for name in ("min_weight", "max_weight", "fixed", "group_bounds"):
            value = getattr(self, name)
            if isinstance(value, Mapping):
                object.__setattr__(self, name, MappingProxyType(dict(value)))
        if self.order is not None and not isinstance(self.order, str):
            try:
                object.__setattr__(self, "order", tuple(tuple(c) if not isinstance(c, str) else c for c in self.order))
            except TypeError:
                pass  # rows() names the problem

    def rows(self, lb: Leaderboard) -> tuple[WeightConstraint, ...]:
        """The constraint rows on `lb` (:func:`weight_constraints`).

        Parameters
        ----------
        lb : Leaderboard
            Gives the tasks and groups.

        Returns
        -------
        tuple of WeightConstraint

        Raises
        ------
        InvalidOptionError, UnknownTaskError
            See :func:`weight_constraints`.
        """
        return weight_constraints(lb, min_weight=self.min_weight, max_weight=self.max_weight, fixed=self.fixed,
                                  group_bounds=self.group_bounds, order=self.order)


def as_constraints(value: object) -> Constraints:
    """The ``constraints=`` option: None (no bounds), a :class:`Constraints` or a mapping of its fields.

    Parameters
    ----------
    value : object

    Returns
    -------
    Constraints

    Raises
    ------
    InvalidOptionError
        Anything else, or a mapping with an unknown key (named, with the valid ones).

    Examples
    --------
    >>> as_constraints({"max_weight": 0.4}).max_weight
    0.4
    """
    if value is None:
        return Constraints()
    if isinstance(value, Constraints):
        return value
    if isinstance(value, Mapping):
        fields = ("min_weight", "max_weight", "fixed", "group_bounds", "order")
        unknown = [k for k in value if k not in fields]
        if unknown:
            raise InvalidOptionError(f"constraints has no {', '.join(map(repr, unknown))}; it takes {', '.join(fields)}")
        return Constraints(**value)
    raise InvalidOptionError(f"constraints must be a consensus.Constraints (or a mapping of its fields), got {value!r}")


def weight_constraints(
    lb: Leaderboard,
    *,
    min_weight: float | Mapping[str, float] | None,
    max_weight: float | Mapping[str, float] | None,
    fixed: Mapping[str, float] | None,
    group_bounds: Mapping[Any, tuple[float | None, float | None]] | None,
    order: Iterable[Sequence[str]] | None,
) -> tuple[WeightConstraint, ...]:
    """Turn the weight options into :class:`~consensus.results.WeightConstraint` rows.

    Rows come in option order: ``min_weight[t]``, ``max_weight[t]``, ``fixed[t]``,
    ``group[label]``, ``order[a>=b]``; a label that repeats gets a ``#2``, ``#3``, ...
    suffix.

    Parameters
    ----------
    lb : Leaderboard
        Gives the tasks and groups.
    min_weight, max_weight : float or Mapping[str, float] or None
        A bound for every task, or task -> bound. A scalar that every weighting meets
        (``min_weight <= 0``, ``max_weight >= 1``) adds no row.
    fixed : Mapping[str, float] or None
        Task -> exact weight.
    group_bounds : Mapping or None
        Group name or tuple of tasks (see :func:`group_members`) -> ``(lower, upper)``
        bounds on the group's total weight; None leaves a side open.
    order : iterable of sequences of str, or None
        Pairs or chains of tasks, heavier first; a single tuple of task names is one
        chain.

    Returns
    -------
    tuple of WeightConstraint
        ``lower <= sum_t coefficients[t] * w_t <= upper`` rows.

    Raises
    ------
    InvalidOptionError
        A bound is not a finite number, `fixed` or `group_bounds` is not a mapping, a
        group bound is not a pair, `order` is not a list of pairs, an `order` entry is not a sequence of at least two
        tasks or compares a task with itself, or a group key is invalid.
    UnknownTaskError
        A task name is not on `lb`.

    Examples
    --------
    >>> import consensus as cs
    >>> rows = weight_constraints(
    ...     cs.load_example("votenrank-toy"), min_weight=0.0, max_weight={"t1": 0.5},
    ...     fixed={"t5": 0.1}, group_bounds={("t2", "t3"): (0.2, None)}, order=[("t1", "t2")],
    ... )
    >>> [c.label for c in rows]
    ['max_weight[t1]', 'fixed[t5]', 'group[t2+t3]', 'order[t1>=t2]']
    """
    out: list[WeightConstraint] = []

    def per_task(spec: float | Mapping[str, float] | None, name: str, lower: bool) -> None:
        if spec is None:
            return
        if isinstance(spec, Mapping):
            items = [(task_name(lb, t, name), number(v, f"{name}[{t!r}]")) for t, v in spec.items()]
        else:
            value = number(spec, name)
            if (lower and value <= 0) or (not lower and value >= 1):
                return  # a scalar bound that every weighting meets adds no row
            items = [(t, value) for t in lb.tasks]
        for t, value in items:
            lo, hi = (value, math.inf) if lower else (-math.inf, value)
            out.append(WeightConstraint(f"{name}[{t}]", {t: 1.0}, lo, hi))

    per_task(min_weight, "min_weight", True)
    per_task(max_weight, "max_weight", False)
    if fixed is not None:
        if not isinstance(fixed, Mapping):
            raise InvalidOptionError(f"fixed must be a mapping task -> weight, got {type(fixed).__name__}")
        for t, value in fixed.items():
            x = number(value, f"fixed[{t!r}]")
            out.append(WeightConstraint(f"fixed[{task_name(lb, t, 'fixed')}]", {t: 1.0}, x, x))
    if group_bounds is not None:
        if not isinstance(group_bounds, Mapping):
            raise InvalidOptionError("group_bounds must be a mapping {group or tuple of tasks: (lower, upper)}")
        for key, bounds in group_bounds.items():
            label, members = group_members(lb, key)
            if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
                raise InvalidOptionError(f"group_bounds[{label!r}] must be a pair (lower, upper), got {bounds!r}")
            lo = -math.inf if bounds[0] is None else number(bounds[0], f"group_bounds[{label!r}] lower")
            hi = math.inf if bounds[1] is None else number(bounds[1], f"group_bounds[{label!r}] upper")
            out.append(WeightConstraint(f"group[{label}]", {t: 1.0 for t in members}, lo, hi))
    if order is not None:
        if isinstance(order, (str, Mapping)) or not isinstance(order, Iterable):
            raise InvalidOptionError(
                f"order must be a list of pairs (or chains) of tasks, heavier first, such as [('qa', 'nli')]; "
                f"got {order!r}"
            )
        chains = [order] if isinstance(order, tuple) and order and isinstance(order[0], str) else list(order)
        for chain in chains:
            if isinstance(chain, str) or not isinstance(chain, Sequence) or len(chain) < 2:
                raise InvalidOptionError(f"order entries are pairs (or chains) of tasks, heavier first; got {chain!r}")
            names = [task_name(lb, t, "order") for t in chain]
            for a, b in zip(names, names[1:]):
                if a == b:
                    raise InvalidOptionError(f"order: {chain!r} compares task {a!r} with itself")
                out.append(WeightConstraint(f"order[{a}>={b}]", {a: 1.0, b: -1.0}, 0.0, math.inf))
    seen: dict[str, int] = {}
    unique = []
    for c in out:
        seen[c.label] = seen.get(c.label, 0) + 1
        label = c.label if seen[c.label] == 1 else f"{c.label}#{seen[c.label]}"
        unique.append(WeightConstraint(label, c.coefficients, c.lower, c.upper))
    return tuple(unique)


def solver_constraints(lb: Leaderboard, cons: Sequence[WeightConstraint]) -> WeightConstraints | None:
    """Translate constraint rows to task indices for :mod:`solvers.weights_lp`.

    Parameters
    ----------
    lb : Leaderboard
        Gives the task order (column ``k`` of the matrix is task ``lb.tasks[k]``).
    cons : sequence of WeightConstraint
        Rows from :func:`weight_constraints`.

    Returns
    -------
    solvers.weights_lp.WeightConstraints or None
        The rows as a matrix with lower and upper bounds; None when `cons` is empty.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> rows = weight_constraints(lb, min_weight=None, max_weight=None, fixed=None,
    ...                           group_bounds=None, order=[("t1", "t2")])
    >>> solver_constraints(lb, rows).matrix.tolist()
    [[1.0, -1.0, 0.0, 0.0, 0.0]]
    >>> solver_constraints(lb, ()) is None
    True
    """
    if not cons:
        return None
    index = {t: k for k, t in enumerate(lb.tasks)}
    return WeightConstraints.from_rows(
        lb.n_tasks, [({index[t]: a for t, a in c.coefficients.items()}, c.lower, c.upper) for c in cons]
    )


def objective_tasks(lb: Leaderboard, objective: object) -> tuple[str, tuple[str, ...]] | None:
    """Check the ``objective`` option: a sense and the tasks whose total weight it optimizes.

    Parameters
    ----------
    lb : Leaderboard
        Gives the tasks and groups.
    objective : tuple or list or None
        ``("min" | "max", tasks)``; `tasks` is a task name, a group name of ``lb.groups``
        (a task name wins), or a sequence of task names.

    Returns
    -------
    tuple of (str, tuple of str) or None
        The sense and the tasks; None when `objective` is None.

    Raises
    ------
    InvalidOptionError
        `objective` is not a pair with sense ``"min"`` or ``"max"`` and a task, group or
        list of tasks, or names no task.
    UnknownTaskError
        A name is neither a task of `lb` nor (given alone) a group.

    Examples
    --------
    >>> import consensus as cs
    >>> objective_tasks(cs.load_example("votenrank-toy"), ("max", ["t1", "t2"]))
    ('max', ('t1', 't2'))
    """
    if objective is None:
        return None
    if not isinstance(objective, (tuple, list)) or len(objective) != 2 or objective[0] not in ("min", "max"):
        raise InvalidOptionError(f"objective must be ('min' | 'max', tasks), got {objective!r}")
    sense, spec = objective
    if isinstance(spec, str):
        if spec in lb.tasks:
            tasks: tuple[str, ...] = (spec,)
        elif spec in lb.groups:
            tasks = tuple(lb.groups[spec])
        else:
            raise UnknownTaskError(spec, lb.tasks, "objective")
    elif isinstance(spec, Iterable) and not isinstance(spec, Mapping):
        tasks = tuple(task_name(lb, t, "objective") for t in spec)
    else:
        raise InvalidOptionError(f"objective's tasks must be a task, a group or a list of tasks, got {spec!r}")
    if not tasks:
        raise InvalidOptionError("objective needs at least one task")
    return str(sense), tasks


def check_tolerances(tol: float, min_margin: float) -> tuple[float, float]:
    """Check `tol` and `min_margin`: ``0 <= tol < min_margin <= 1``.

    Parameters
    ----------
    tol : float
        Margin tolerance, >= 0.
    min_margin : float
        Smallest margin asked for, in ``(tol, 1]``.

    Returns
    -------
    tuple of (float, float)
        `tol` and `min_margin` as floats.

    Raises
    ------
    InvalidOptionError
        Either is not a finite number, `tol` is negative, or `min_margin` is not in
        ``(tol, 1]``.

    Examples
    --------
    >>> check_tolerances(1e-9, 0.01)
    (1e-09, 0.01)
    """
    tol = number(tol, "tol")
    min_margin = number(min_margin, "min_margin")
    if tol < 0:
        raise InvalidOptionError(f"tol must be >= 0, got {tol!r}")
    if not tol < min_margin <= 1:
        raise InvalidOptionError(f"min_margin must be in (tol, 1] = ({tol:g}, 1], got {min_margin!r}")
    return tol, min_margin


def unscored_constraints(lb: Leaderboard, system: str) -> tuple[WeightConstraint, ...]:
    """Weight 0 on every task `system` is not scored on (``scored_tasks_only=True``).

    One row ``0 <= w_t <= 0`` labelled ``scored_tasks_only[t]`` per task without a score of
    `system`, so certificates name them like any other constraint and are checked the same
    way (:func:`consensus.exact._certificates.exact_bound`).

    Parameters
    ----------
    lb : Leaderboard
        The scores whose holes count (before any median fill).
    system : str
        A system of `lb`.

    Returns
    -------
    tuple of WeightConstraint
        Empty when `system` is scored on every task.

    Examples
    --------
    >>> import pandas as pd
    >>> lb = Leaderboard.from_frame(pd.DataFrame({"qa": [0.9, None], "nli": [0.6, 0.5]}, index=["a", "b"]))
    >>> [c.label for c in unscored_constraints(lb, "b")], unscored_constraints(lb, "a")
    (['scored_tasks_only[qa]'], ())
    """
    row = lb.missing.loc[system]
    return tuple(WeightConstraint(f"scored_tasks_only[{t}]", {t: 1.0}, 0.0, 0.0) for t in lb.tasks if bool(row[t]))


#: Why the task-weight questions refuse ``missing="impute"``.
WEIGHT_NO_IMPUTE = hinted(
    "it does not apply to task weights: the LP weighs each task's comparisons R(m, m', k), and the imputed matrix "
    "of compatible rankings only gives pairwise probabilities summed over tasks; use {} (a missing score "
    "is neither a win nor a loss), 'drop_tasks', 'drop_systems' or 'median'", option("missing", None),
)


def prepared_weights(
    data: Any, missing: object, min_coverage: float | None, context: str, *,
    impute: str | None = WEIGHT_NO_IMPUTE, impute_treatment: str | None = None,
) -> Prepared:
    """The preparation stage of the task-weight questions (:func:`consensus.missing._preparation.prepared_for`).

    ``prospective`` answers "who can win": ``min_coverage`` defaults to the set-aside rule
    (None). The questions about one given system (``condorcet_weights``,
    ``winning_weights``, ``weight_sensitivity``) default to 0: every rival is kept.

    Parameters
    ----------
    data : Leaderboard or Prepared
    missing, min_coverage : object
        The shared options as given.
    context : str
        The function name, for messages.
    impute : str or None, default WEIGHT_NO_IMPUTE
        Why ``missing="impute"`` is refused; None: the question imputes (a linear rule's
        expected points).
    impute_treatment : str or None
        How the question imputes, recorded.

    Returns
    -------
    Prepared

    Raises
    ------
    InvalidOptionError
        A bad policy or threshold, ``"impute"`` where it does not apply, or a policy that
        leaves too little.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> ready = prepared_weights(toy, None, None, "prospective")
    >>> ready.leaderboard is toy, ready.preparation.treatment
    (True, 'no missing scores')
    """
    return prepared_for(
        data, context, missing=missing, min_coverage=min_coverage,
        coverage_default=None if context == "prospective" else 0.0, impute=impute, impute_treatment=impute_treatment,
    )


@dataclass(frozen=True)
class WeightOptions:
    """The shared options of a task-weight question, checked (:func:`weight_options`).

    Attributes
    ----------
    rule : str
        ``"condorcet"`` (or another majority rule the question accepts) or a linear rule.
    rule_options : dict
        The ``ties`` / ``vector`` / ``normalize`` given (None left out).
    constraints : Constraints
    solver : str
    tol, min_margin : float
        0 for a question without margins (``weight_sensitivity``).
    nearest_to : Reference
        The reference weighting once `objective` is taken into account (:func:`reference_for`).
    """

    rule: str
    rule_options: dict[str, Any]
    constraints: Constraints
    solver: str
    tol: float = 0.0
    min_margin: float = 0.0
    nearest_to: Reference = None


def weight_options(
    context: str,
    data: object,
    *,
    rule: object = "condorcet",
    ties: object = None,
    vector: object = None,
    normalize: object = None,
    constraints: object = None,
    solver: str = "highs",
    majority: Sequence[str] = ("condorcet",),
    margins: tuple[float, float] | None = None,
    nearest_to: Reference = None,
    objective: object = None,
) -> WeightOptions:
    """Check the options every task-weight question shares, once, before any work.

    Parameters
    ----------
    context : str
        The question, for messages.
    data : object
        Its data (a Leaderboard or prepared data; anything else is refused here).
    rule, ties, vector, normalize
        The rule and its options: ``condorcet`` (or another of `majority`) takes none.
    constraints, solver
        As the question received them.
    majority : sequence of str, default ("condorcet",)
        The rules besides the linear ones the question accepts.
    margins : (tol, min_margin), optional
        For the questions that ask for a winning margin.
    nearest_to, objective
        For the questions that pick weights (:func:`reference_for`).

    Returns
    -------
    WeightOptions

    Raises
    ------
    InvalidOptionError
        The first option that is wrong, named.

    Examples
    --------
    >>> import consensus as cs
    >>> checked = weight_options("winning_weights", cs.load_example("votenrank-toy"), rule="borda",
    ...                          margins=(1e-9, 0.01), nearest_to="leaderboard")
    >>> checked.rule, checked.tol, checked.min_margin, checked.nearest_to
    ('borda', 1e-09, 0.01, 'leaderboard')
    """
    from ..missing._preparation import board_of
    from ..rules.linear import check_linear_rule
    from ._solver_choice import check_solver

    board_of(data, context)
    check_solver(solver)
    given = {k: v for k, v in {"ties": ties, "vector": vector, "normalize": normalize}.items() if v is not None}
    if isinstance(rule, str) and rule in majority:
        if given:
            raise InvalidOptionError(f"{context}: rule={rule!r} takes no ties / vector / normalize")
    elif len(majority) > 1 and not (isinstance(rule, str) and rule in _linear_rules()):
        raise InvalidOptionError(f"{context}: rule must be one of {', '.join(_linear_rules())}, "
                                 f"{' or '.join(majority)}; got {rule!r}")
    else:
        check_linear_rule(rule, context)
    tol = min_margin = 0.0
    if margins is not None:
        tol, min_margin = check_tolerances(*margins)
    return WeightOptions(
        rule=str(rule), rule_options=given, constraints=as_constraints(constraints), solver=solver, tol=tol,
        min_margin=min_margin, nearest_to=reference_for(nearest_to, objective),
    )


def _linear_rules() -> tuple[str, ...]:
    from ..rules.linear import LINEAR_RULES

    return tuple(LINEAR_RULES)
