"""The preparation stage: what every question does to a leaderboard before it is asked.

:func:`prepare` applies the options every question shares, in this order, and records what it
did in one :class:`~consensus.results.Preparation` that every result carries:

1. **coverage** (``min_coverage``): the systems compared with no rival, or scored on too
   little of the board, are set aside (:func:`consensus.board._coverage.set_aside`; None: the
   default rule, 0: every system kept);
2. **missing scores** (``missing``), one vocabulary for every question:

   - None (also spelled ``"pairwise"``): the scores as they are; each pair of systems is
     compared on the tasks both are scored on (a missing score is neither a win nor a loss);
   - ``"drop_tasks"`` / ``"drop_systems"``: drop the tasks / systems with a missing score;
   - ``"median"``: fill each missing score with the median of the scored systems on its task
     (the Vote'n'Rank case study's treatment of mean-type baselines);
   - ``"impute"``: keep the holes and let the question impute by compatible permutations
     (Himmi et al.: the imputed pairwise matrix, or expected positions);

3. **group weighting** (``weighting="groups"``): each task group carries the same total
   weight (or its ``group_weights``).

A question then says what it can use (:meth:`Prepared.require`): whether it can impute, and
how. :func:`prepared_for` is what every entry point calls: it
prepares the data (or takes data already prepared by the user, refusing the shared options
a second time), then checks the question can use it. So a user can prepare once and ask many
questions of the prepared data::

    ready = cs.prepare(lb, missing="median", min_coverage=0.5)
    cs.kemeny(ready), cs.rank(ready, "borda"), cs.condorcet_weights(ready, "gpt")

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023 (the pairwise treatment, eq. 1; group weighting, sec. 2.4).
.. [2] Himmi et al., "Towards more robust NLP system evaluation: handling missing scores in
   benchmarks", 2023 (imputation by compatible permutations).
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from ..arguments import check_min_coverage
from ..board._coverage import comparability, set_aside
from ..board._leaderboard import Leaderboard
from ..errors import DegenerateTaskWarning, InvalidOptionError
from ..hints import hinted, option
from ..results.preparation import Preparation

__all__ = [
    "MISSING_POLICIES",
    "MissingPolicy",
    "PAIRWISE_TREATMENT",
    "Prepared",
    "prepare",
    "prepared_for",
    "board_of",
    "check_missing",
    "check_group_option",
    "group_weight_values",
    "median_filled",
    "with_scores",
]

MissingPolicy = Literal["pairwise", "drop_tasks", "drop_systems", "median", "impute"]

#: The ``missing=`` choices of every question (None is pairwise; ``"pairwise"`` spells it).
MISSING_POLICIES: tuple[str | None, ...] = (None, "drop_tasks", "drop_systems", "impute", "median")

#: What ``missing=None`` does when scores are missing (every question, one sentence).
PAIRWISE_TREATMENT = "pairwise: each pair compared on the tasks both are scored on (a missing score is neither a win nor a loss)"


def check_missing(value: object, context: str = "") -> str | None:
    """Check a ``missing=`` option: one of :data:`MISSING_POLICIES` (``"pairwise"`` becomes None).

    Parameters
    ----------
    value : object
        The option as given.
    context : str, default ""
        Who asks (``"kemeny"``, ``"rule 'borda'"``), for the message.

    Returns
    -------
    str or None

    Raises
    ------
    InvalidOptionError
        `value` is not a policy; the message names the closest one.

    Examples
    --------
    >>> check_missing("pairwise") is None, check_missing("median")
    (True, 'median')
    """
    if value is None or value == "pairwise":
        return None
    if isinstance(value, str) and value in MISSING_POLICIES:
        return value
    names = [p for p in MISSING_POLICIES if p is not None]
    close = difflib.get_close_matches(str(value), [*names, "pairwise"], n=1)
    hint = f"; did you mean {close[0]!r}?" if close else ""
    where = f"{context}: " if context else ""
    raise InvalidOptionError(hinted(
        "{}{} is not one of None (or 'pairwise'), {}{}", where, option("missing", value),
        ", ".join(repr(p) for p in names), hint,
    ))


@dataclass(frozen=True)
class Prepared:
    """A leaderboard after the preparation stage, with the record of what was done.

    Pass it as the data of any question (:func:`consensus.rank`, :func:`consensus.kemeny`,
    :func:`consensus.condorcet_weights`, ...) to ask many questions of one preparation; the
    question then takes no ``missing``, ``min_coverage`` or ``weighting`` of its own.

    Attributes
    ----------
    leaderboard : Leaderboard
        The scores to ask questions of: after coverage, the missing-score policy (drops or
        median fill; holes kept for None and ``"impute"``) and group weighting.
    scored : Leaderboard
        The same scores before a median fill (before group weighting too): which cells
        were really scored (``scored_tasks_only`` of the weight questions reads it).
    preparation : Preparation
        What was done.

    Examples
    --------
    >>> import consensus as cs
    >>> ready = cs.prepare(cs.load_example("votenrank-toy"), min_coverage=0)
    >>> ready.leaderboard.systems, ready.preparation.missing
    (('A', 'B', 'C', 'D'), None)
    """

    leaderboard: Leaderboard
    scored: Leaderboard
    preparation: Preparation

    @property
    def impute(self) -> bool:
        """Whether the question must impute (``missing="impute"`` and scores are missing)."""
        return self.preparation.missing == "impute" and self.leaderboard.has_missing

    def require(
        self,
        context: str,
        *,
        impute: str | None = None,
        impute_treatment: str | None = None,
    ) -> Prepared:
        """Check that the question `context` can use this preparation.

        Parameters
        ----------
        context : str
            The question, for messages (``"kemeny"``, ``"rule 'mean'"``).
        impute : str or None
            None: the question can use ``missing="impute"``; else why it cannot (the
            sentence the error gives).
        impute_treatment : str or None
            How the question imputes, recorded as the treatment when it does.

        Returns
        -------
        Prepared
            Itself, or a copy whose treatment says how the question imputes.

        Raises
        ------
        InvalidOptionError
            ``missing="impute"`` for a question that cannot impute.
        """
        prep = self.preparation
        if prep.missing == "impute" and impute is not None:
            raise InvalidOptionError(hinted("{} cannot use {}: {}", context, option("missing", "impute"), impute))
        if self.impute and impute_treatment is not None:
            return Prepared(self.leaderboard, self.scored, prep.with_treatment(impute_treatment))
        return self


def _quiet(build: Callable[[], Leaderboard]) -> Leaderboard:
    with warnings.catch_warnings():  # the same scores: their warnings were given already
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return build()


def prepare(
    data: Leaderboard,
    *,
    missing: MissingPolicy | None = None,
    min_coverage: float | None = None,
    weighting: Literal["groups"] | None = None,
    group_weights: Mapping[str, float] | None = None,
) -> Prepared:
    """Prepare a leaderboard for questions: coverage, missing scores, group weighting.

    Parameters
    ----------
    data : Leaderboard
    missing : {None, "pairwise", "drop_tasks", "drop_systems", "median", "impute"}, default None
        The missing-score policy (see the module docstring). ``"impute"`` keeps the holes;
        each question imputes in its own way (or refuses).
    min_coverage : float or None, default None
        In [0, 1]: set aside the systems whose coverage is below it; None: the default rule
        of :func:`consensus.board._coverage.set_aside`; 0: keep every system.
    weighting : {None, "groups"}, default None
        ``"groups"``: each task group carries the same total weight (Vote'n'Rank sec. 2.4).
    group_weights : Mapping[str, float], optional
        The total weight of each group under ``weighting="groups"`` (others 1).

    Returns
    -------
    Prepared

    Raises
    ------
    InvalidOptionError
        A bad option; a threshold or drop that leaves fewer than two systems or no task;
        ``weighting="groups"`` without groups covering every task.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, None], "nli": [0.1, 0.2, 0.3]}, index=list("abc"))
    >>> ready = cs.prepare(cs.Leaderboard.from_frame(frame), missing="drop_systems", min_coverage=0)
    >>> ready.leaderboard.systems, ready.preparation.dropped_systems
    (('a', 'b'), ('c',))
    >>> cs.prepare(cs.Leaderboard.from_frame(frame), missing="median", min_coverage=0).preparation.medians
    mappingproxy({'qa': 0.7})
    """
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"prepare needs a Leaderboard (scores), got {type(data).__name__}")
    return _prepare(data, check_missing(missing, "prepare"), check_min_coverage(min_coverage, "prepare: ")
                    if min_coverage is not None else None, weighting, group_weights, "prepare")


def _prepare(
    lb: Leaderboard,
    policy: str | None,
    min_coverage: float | None,
    weighting: Any,
    group_weights: Mapping[str, float] | None,
    context: str,
    alternatives: tuple[str, ...] = ("median",),
) -> Prepared:
    if weighting not in (None, "groups"):
        raise InvalidOptionError(f"{context}: weighting must be None or 'groups', got {weighting!r}")
    if group_weights is not None and weighting is None:
        raise InvalidOptionError(f"{context}: group_weights needs weighting='groups'")
    covered = _quiet(lambda: set_aside(lb, min_coverage))
    kept, tasks = set(covered.systems), set(covered.tasks)
    gone = tuple(s for s in lb.systems if s not in kept)
    coverage = comparability(lb)["coverage"] if gone else None
    notes = list(covered.notes[len(lb.notes):]) if covered is not lb else []
    treated, fields = _apply_missing(covered, policy, context, alternatives)
    scored = covered if policy == "median" else treated
    gw = None
    if weighting == "groups":
        gw = group_weight_values(check_group_option(treated, "weighting='groups'"), group_weights)
        treated = _group_weighted(treated, gw)
    prep = Preparation(
        policy,
        min_coverage=None if min_coverage is None else float(min_coverage),
        set_aside=gone,
        coverage={s: float(coverage[s]) for s in gone} if coverage is not None else {},
        set_aside_tasks=tuple(t for t in lb.tasks if t not in tasks),
        weighting=weighting,
        group_weights=gw,
        notes=tuple(notes),
        **fields,
    )
    return Prepared(treated, scored, prep)


def _apply_missing(lb: Leaderboard, policy: str | None, context: str, alternatives: tuple[str, ...]) -> tuple[Leaderboard, dict[str, Any]]:
    """The one implementation of every ``missing=`` policy: the leaderboard and the record's fields."""
    cells = int(np.isnan(lb.values).sum())
    if cells == 0:
        return lb, {}
    if policy is None:
        return lb, {"treatment": PAIRWISE_TREATMENT, "n_missing_cells": cells}
    if policy == "impute":
        return lb, {"treatment": "imputed by compatible permutations (impute_pairwise)", "n_missing_cells": cells}
    missing = lb.missing
    if policy == "median":
        medians = {t: float(np.nanmedian(lb.scores[t].to_numpy(dtype=np.float64))) for t in lb.tasks if missing[t].any()}
        treatment = f"filled {cells} missing cell(s) with the median of the scored systems on each task"
        return median_filled(lb), {"treatment": treatment, "n_missing_cells": cells, "medians": medians}
    if policy == "drop_tasks":
        dropped = [t for t in lb.tasks if missing[t].any()]
        kept = [t for t in lb.tasks if not missing[t].any()]
        if not kept:
            raise InvalidOptionError(hinted(
                "{}: {} would drop every task ({}): each has a missing score; use {}", context,
                option("missing", "drop_tasks"), len(dropped), option("missing", "drop_systems", *alternatives),
            ))
        new = _quiet(lambda: lb.select(tasks=kept))
        return new, {"treatment": "dropped the tasks with a missing score", "n_missing_cells": cells,
                     "dropped_tasks": tuple(dropped)}
    dropped = [s for s in lb.systems if missing.loc[s].any()]
    kept = [s for s in lb.systems if not missing.loc[s].any()]
    if len(kept) < 2:
        shown = ", ".join(repr(s) for s in dropped[:5]) + (", ..." if len(dropped) > 5 else "")
        raise InvalidOptionError(hinted(
            "{}: {} would leave {} system(s) (dropping {}); use {}", context, option("missing", "drop_systems"),
            len(kept), shown, option("missing", "drop_tasks", *alternatives),
        ))
    new = _quiet(lambda: lb.select(systems=kept))
    return new, {"treatment": "dropped the systems with a missing score", "n_missing_cells": cells,
                 "dropped_systems": tuple(dropped)}


def prepared_for(
    data: Any,
    context: str,
    *,
    missing: object = None,
    min_coverage: float | None = None,
    coverage_default: float | None = None,
    weighting: Any = None,
    group_weights: Mapping[str, float] | None = None,
    impute: str | None = None,
    impute_treatment: str | None = None,
    alternatives: tuple[str, ...] = ("median",),
) -> Prepared:
    """What every entry point calls first: `data` prepared with its shared options, checked for `context`.

    Parameters
    ----------
    data : Leaderboard or Prepared
        Prepared data must come without shared options (they were applied by :func:`prepare`).
    context : str
        The question, for messages.
    missing, min_coverage, weighting, group_weights
        The shared options as the entry point received them (see :func:`prepare`).
    coverage_default : float or None, default None
        The entry point's own default for `min_coverage` (None: the default set-aside rule;
        0 for the questions about one given system, which keep every rival).
    impute, impute_treatment
        What the question can use (see :meth:`Prepared.require`).
    alternatives : tuple of str, default ("median",)
        The policies a failed drop suggests besides the other drop.

    Returns
    -------
    Prepared

    Raises
    ------
    InvalidOptionError
        A bad shared option, shared options given with prepared data, data that is not a
        Leaderboard, or a policy the question cannot use.
    """
    if isinstance(data, Prepared):
        given = [f"{k}={v!r}" for k, v, default in (("missing", missing, None), ("min_coverage", min_coverage, coverage_default),
                                                      ("weighting", weighting, None), ("group_weights", group_weights, None))
                 if v is not default and v != default]
        if given:
            raise InvalidOptionError(
                f"{context}: the data is already prepared (consensus.prepare); pass {', '.join(given)} to prepare(), "
                "not to the question"
            )
        return data.require(context, impute=impute, impute_treatment=impute_treatment)
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"{context} needs a Leaderboard, got {type(data).__name__}")
    policy = check_missing(missing, context)
    threshold = check_min_coverage(min_coverage, f"{context}: ") if min_coverage is not None else None
    if policy == "impute" and impute is not None:  # before any work
        raise InvalidOptionError(hinted("{} cannot use {}: {}", context, option("missing", "impute"), impute))
    ready = _prepare(data, policy, threshold, weighting, group_weights, context, alternatives)
    return ready.require(context, impute=impute, impute_treatment=impute_treatment)


def board_of(data: Any, context: str) -> Leaderboard:
    """The leaderboard of `data` (prepared or not), to name systems and tasks before preparing it.

    Parameters
    ----------
    data : Leaderboard or Prepared
    context : str
        The question, for the message.

    Returns
    -------
    Leaderboard
        `data`, or the leaderboard of prepared data.

    Raises
    ------
    InvalidOptionError
        `data` is neither.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> board_of(toy, "kemeny") is toy
    True
    """
    if isinstance(data, Prepared):
        return data.leaderboard
    if not isinstance(data, Leaderboard):
        raise InvalidOptionError(f"{context} expects a Leaderboard, got {type(data).__name__}")
    return data


# ---------------------------------------------------------------------- median fill
def median_filled(lb: Leaderboard) -> Leaderboard:
    """`lb` with every missing score replaced by the median of the scored systems on its task.

    Directions, weights, groups and notes are kept; a note says how many cells were filled.

    Parameters
    ----------
    lb : Leaderboard

    Returns
    -------
    Leaderboard
        `lb` itself when no score is missing.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, 0.6, None], "nli": [0.1, 0.2, 0.3, 0.4]}, index=list("abcd"))
    >>> median_filled(Leaderboard.from_frame(frame)).scores["qa"].tolist()
    [0.9, 0.5, 0.6, 0.6]
    """
    if not lb.has_missing:
        return lb
    frame = lb.scores.copy()
    n = int(frame.isna().to_numpy().sum())
    for t in frame.columns:
        column = frame[t]
        if column.isna().any():
            frame[t] = column.fillna(float(np.nanmedian(column.to_numpy(dtype=np.float64))))
    note = hinted("{}: filled {} missing score(s) with the median of the scored systems on each task",
                  option("missing", "median"), n)
    return with_scores(lb, frame, notes=(*lb.notes, note))


def with_scores(lb: Leaderboard, frame: pd.DataFrame, notes: Sequence[str] = ()) -> Leaderboard:
    """`lb` with the scores of `frame` (same systems and tasks): its directions, weights and groups kept.

    The one way to build a filled or completed copy of a board (a median fill, a completion of
    the missing scores); task warnings are not repeated (they were given for `lb`).

    Parameters
    ----------
    lb : Leaderboard
    frame : pandas.DataFrame
        Systems x tasks, in raw units.
    notes : sequence of str, default ()
        The notes of the new board.

    Returns
    -------
    Leaderboard

    Examples
    --------
    >>> import pandas as pd
    >>> lb = Leaderboard.from_frame(pd.DataFrame({"qa": [0.9, None], "nli": [0.5, 0.7]}, index=["a", "b"]))
    >>> with_scores(lb, pd.DataFrame({"qa": [0.9, 0.1], "nli": [0.5, 0.7]}, index=["a", "b"])).has_missing
    False
    """
    return _quiet(
        lambda: Leaderboard(
            frame,
            lower_is_better=[t for t in lb.tasks if t in lb.lower_is_better],
            weights={t: float(w) for t, w in lb.weights.items()},
            groups={g: list(ts) for g, ts in lb.groups.items()},
            notes=tuple(notes),
        )
    )


# ---------------------------------------------------------------------- groups
def check_group_option(lb: Leaderboard, option: str) -> Mapping[str, tuple[str, ...]]:
    """Return the task groups of `lb`, checking that they cover every task.

    Parameters
    ----------
    lb : Leaderboard
    option : str
        The option that needs groups (``"two_step"``, ...), for the message.

    Returns
    -------
    Mapping[str, tuple[str, ...]]
        ``lb.groups``.

    Raises
    ------
    InvalidOptionError
        If `lb` has no groups, or a task is in none.

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> lb = cs.Leaderboard(pd.DataFrame({"qa": [0.9, 0.5], "mt": [0.3, 0.4]}, index=["a", "b"]))
    >>> dict(check_group_option(lb.with_groups({"nlu": ["qa"], "gen": ["mt"]}), "two_step"))
    {'nlu': ('qa',), 'gen': ('mt',)}
    """
    groups = lb.groups
    if not groups:
        raise InvalidOptionError(
            f"{option} needs task groups: build the leaderboard with groups={{...}} "
            "(Leaderboard.from_frame) or call lb.with_groups({...})"
        )
    covered = {t for ts in groups.values() for t in ts}
    loose = [t for t in lb.tasks if t not in covered]
    if loose:
        raise InvalidOptionError(
            f"{option} needs every task in a group; task(s) {', '.join(repr(t) for t in loose[:5])}"
            f"{', ...' if len(loose) > 5 else ''} are in none: add them to a group (a group may hold one task)"
        )
    return groups


def group_weight_values(groups: Mapping[str, Sequence[str]], group_weights: Mapping[str, float] | None) -> dict[str, float]:
    """Weight of every group: the given ones checked, the others 1.

    Parameters
    ----------
    groups : Mapping[str, Sequence[str]]
        Group -> tasks.
    group_weights : Mapping[str, float] or None
        The ``group_weights`` option.

    Returns
    -------
    dict of str to float
        Group -> weight, in the order of `groups`.

    Raises
    ------
    InvalidOptionError
        If a weight names an unknown group, is not a number, not finite or negative, or if
        every group weight is zero.

    Examples
    --------
    >>> group_weight_values({"nlu": ["qa"], "gen": ["mt"]}, {"gen": 2})
    {'nlu': 1.0, 'gen': 2.0}
    """
    values = {g: 1.0 for g in groups}
    for g, w in (group_weights or {}).items():
        if g not in groups:
            close = difflib.get_close_matches(str(g), list(groups), n=3)
            hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else f"; groups: {', '.join(repr(k) for k in groups)}"
            raise InvalidOptionError(f"group_weights names unknown group {g!r}{hint}")
        try:
            value = float(w)
        except (TypeError, ValueError):
            raise InvalidOptionError(f"weight of group {g!r} is not a number: {w!r}") from None
        if not np.isfinite(value) or value < 0:
            raise InvalidOptionError(f"weight of group {g!r} must be finite and >= 0, got {w!r}")
        values[g] = value
    if not any(v > 0 for v in values.values()):
        raise InvalidOptionError("every group weight is zero; give at least one group a positive weight")
    return values


def _group_weighted(lb: Leaderboard, gw: Mapping[str, float]) -> Leaderboard:
    """`lb` with task weights rescaled so that each group's tasks sum to the group's weight (within a
    group the tasks keep their relative weights)."""
    w = lb.weights
    new: dict[str, float] = {}
    for g, ts in lb.groups.items():
        total = float(w[list(ts)].sum())
        for t in ts:
            new[t] = gw[g] * float(w[t]) / total if total > 0 else 0.0
    if not any(v > 0 for v in new.values()):
        raise InvalidOptionError("group weighting leaves every task with weight 0")
    return _quiet(lambda: lb.with_weights(new))
