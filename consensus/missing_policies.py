"""Missing-score policies at the entry points that are not rules: kemeny, condorcet weights, prospective.

The rules of :mod:`consensus.rules` apply ``missing=`` in their own pipeline. The other entry
points (:func:`consensus.kemeny`, :func:`consensus.condorcet_weights`,
:func:`consensus.prospective`, and the Kemeny reference of :func:`consensus.compare_rules`)
take the same choices, applied here to the leaderboard before anything is solved:

- ``None`` (alias ``"pairwise"``): the scores as they are; each pair of systems is compared
  on the tasks both are scored on (a missing score counts as neither a win nor a loss);
- ``"drop_tasks"`` / ``"drop_systems"``: drop the tasks / systems with a missing score;
- ``"median"``: fill each missing score with the median of the scored systems on that task
  (the Vote'n'Rank case study's treatment of mean-type baselines);
- ``"impute"``: the imputed pairwise matrix of :func:`consensus.impute_pairwise` (only where
  a pairwise matrix is all that is needed: Kemeny).

Every treatment is reported as a record with the keys of a rule's ``result.missing``:
``policy``, ``treatment``, ``n_missing_cells``, ``dropped_tasks``, ``dropped_systems``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .errors import DegenerateTaskWarning, InvalidOptionError
from .leaderboard import Leaderboard

__all__ = ["ENTRY_POLICIES", "check_policy", "policy_record", "median_filled", "apply_policy"]

#: The ``missing=`` choices of the entry points (``"pairwise"`` is an alias of None).
ENTRY_POLICIES: tuple[str | None, ...] = (None, "pairwise", "drop_tasks", "drop_systems", "impute", "median")


def check_policy(policy: object, allowed: Sequence[str | None], context: str) -> str | None:
    """Check a ``missing=`` option; ``"pairwise"`` becomes None.

    Parameters
    ----------
    policy : object
        The option as given.
    allowed : sequence of str or None
        The choices `context` accepts (None for pairwise; ``"pairwise"`` is implied by None).
    context : str
        The function name, for the message.

    Returns
    -------
    str or None

    Raises
    ------
    InvalidOptionError
        If `policy` is not one of `allowed`.

    Examples
    --------
    >>> check_policy("pairwise", (None, "median"), "kemeny") is None
    True
    """
    if policy == "pairwise":
        policy = None
    if policy not in allowed:
        shown = ", ".join("None" if p is None else repr(p) for p in allowed)
        raise InvalidOptionError(f"{context}: missing must be one of {shown} (or 'pairwise' for None), got {policy!r}")
    return policy  # type: ignore[return-value]


def policy_record(
    policy: str | None, n_cells: int, treatment: str, tasks: Sequence[str] = (), systems: Sequence[str] = ()
) -> dict[str, Any]:
    """The record of what a policy did: the keys of a rule's ``result.missing``.

    Parameters
    ----------
    policy : str or None
    n_cells : int
        Missing cells of the leaderboard the policy was applied to.
    treatment : str
        What was done, in words.
    tasks, systems : sequence of str, default=()
        The dropped tasks and systems.

    Returns
    -------
    dict
        ``policy``, ``treatment``, ``n_missing_cells``, ``dropped_tasks``, ``dropped_systems``.

    Examples
    --------
    >>> policy_record("median", 2, "filled")["n_missing_cells"]
    2
    """
    return {
        "policy": policy,
        "treatment": treatment,
        "n_missing_cells": int(n_cells),
        "dropped_tasks": tuple(tasks),
        "dropped_systems": tuple(systems),
    }


def _quiet(build: Any) -> Leaderboard:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        return build()


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
    note = f"missing='median': filled {n} missing score(s) with the median of the scored systems on each task"
    return _quiet(
        lambda: Leaderboard(
            frame,
            lower_is_better=[t for t in lb.tasks if t in lb.lower_is_better],
            weights={t: float(w) for t, w in lb.weights.items()},
            groups={g: list(ts) for g, ts in lb.groups.items()},
            notes=(*lb.notes, note),
        )
    )


def apply_policy(
    lb: Leaderboard, policy: str | None, context: str, *, alternatives: str = "'median'"
) -> tuple[Leaderboard, dict[str, Any]]:
    """Apply a ``missing=`` policy to `lb` (``"impute"`` is left to the caller).

    The one implementation of ``None``, ``"median"``, ``"drop_tasks"`` and ``"drop_systems"``,
    used by the rules' pipeline (:func:`consensus.rules.policies.apply_missing`) and by the
    other entry points alike.

    Parameters
    ----------
    lb : Leaderboard
    policy : {None, "drop_tasks", "drop_systems", "median", "impute"}
        Already checked (:func:`check_policy`).
    context : str
        Who applies it, for messages (``"kemeny"``, ``"rule 'borda'"``).
    alternatives : str, default "'median'"
        The other policies an error suggests besides the other drop (e.g. ``"'median' or
        'impute'"`` for a rule that imputes).

    Returns
    -------
    (Leaderboard, dict)
        The leaderboard to use and the record (:func:`policy_record`; for ``"median"`` also
        ``n_filled_cells`` and ``medians``, task -> fill value). For None and ``"impute"``
        the leaderboard is `lb` itself.

    Raises
    ------
    InvalidOptionError
        ``"drop_tasks"`` would drop every task; ``"drop_systems"`` would leave fewer than
        two systems.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, None], "nli": [0.1, 0.2, 0.3]}, index=list("abc"))
    >>> new, record = apply_policy(Leaderboard.from_frame(frame), "drop_systems", "kemeny")
    >>> new.systems, record["dropped_systems"]
    (('a', 'b'), ('c',))
    >>> apply_policy(Leaderboard.from_frame(frame), "median", "kemeny")[1]["medians"]
    {'qa': 0.7}
    """
    cells = int(np.isnan(lb.values).sum())
    if cells == 0:
        record = policy_record(policy, 0, "no missing scores")
        if policy == "median":
            record.update(n_filled_cells=0, medians={})
        return lb, record
    if policy is None:
        return lb, policy_record(None, cells, "pairwise: each pair compared on the tasks both are scored on")
    if policy == "impute":
        return lb, policy_record(policy, cells, "imputed pairwise matrix (impute_pairwise)")
    missing = lb.missing
    if policy == "median":
        medians = {t: float(np.nanmedian(lb.scores[t].to_numpy(dtype=np.float64))) for t in lb.tasks if missing[t].any()}
        record = policy_record(policy, cells, f"filled {cells} missing cell(s) with the median of the scored systems on each task")
        record.update(n_filled_cells=cells, medians=medians)
        return median_filled(lb), record
    if policy == "drop_tasks":
        dropped = [t for t in lb.tasks if missing[t].any()]
        kept = [t for t in lb.tasks if not missing[t].any()]
        if not kept:
            raise InvalidOptionError(
                f"{context}: missing='drop_tasks' would drop every task ({len(dropped)}): each has a missing score; "
                f"use missing='drop_systems' or {alternatives}"
            )
        new = _quiet(lambda: lb.select(tasks=kept))
        return new, policy_record(policy, cells, "dropped the tasks with a missing score", tasks=dropped)
    dropped = [s for s in lb.systems if missing.loc[s].any()]
    kept = [s for s in lb.systems if not missing.loc[s].any()]
    if len(kept) < 2:
        shown = ", ".join(repr(s) for s in dropped[:5]) + (", ..." if len(dropped) > 5 else "")
        raise InvalidOptionError(
            f"{context}: missing='drop_systems' would leave {len(kept)} system(s) (dropping {shown}); "
            f"use missing='drop_tasks' or {alternatives}"
        )
    new = _quiet(lambda: lb.select(systems=kept))
    return new, policy_record(policy, cells, "dropped the systems with a missing score", systems=dropped)
