"""Rank one leaderboard with several rules, cheaply and repeatably: the inner loop of resampling.

:func:`rule_positions` runs each rule of a list on a leaderboard (or instance scores) and
returns every system's competition position (1 + the systems ranked strictly above it; tied
systems share the best position, ``1, 2, 2, 4``), plus, for exact Kemeny, the solver's status
and gap. It is what :mod:`consensus.resampling._stability` and :mod:`consensus.experiments` run once per
repetition, so it is built for that:

- missing scores get each rule's own policy (``missing="auto"``, :func:`consensus.rules.auto_missing`);
- instance-level scores (:class:`~consensus.InstanceScores`) are ranked through their task means
  (:meth:`~consensus.InstanceScores.to_leaderboard`), the one-level aggregation of Colombo et al.;
- Kemeny runs single-threaded (:data:`consensus.resampling._repetitions.SOLVER_THREADS`), starts from a
  given order (the full-data ranking: a warm start that the proof then confirms or improves),
  checks whether its optimum is the only one (``unique``: when it is not, the positions are those
  of one optimal ranking among several, and callers count and report such runs rather than
  present the order as the consensus) and stops at a time limit, returning the best ranking
  found with status ``"time_limit"`` and its gap, which callers report.

Examples
--------
>>> import consensus as cs
>>> runs = rule_positions(cs.load_example("votenrank-toy"), ("borda", "kemeny"))
>>> runs["borda"].positions.tolist(), runs["kemeny"].positions.tolist(), runs["kemeny"].status
([4.0, 1.0, 2.0, 3.0], [4.0, 1.0, 2.0, 3.0], 'optimal')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..arguments import name_list
from ..board._instances import InstanceScores
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..results.base import tier_positions
from ._repetitions import SOLVER_THREADS

__all__ = ["DEFAULT_RULES", "RuleRun", "check_rules", "loop_options", "rule_positions"]

#: The rules a stability study or experiment runs when none are named.
DEFAULT_RULES = ("mean", "borda", "copeland", "minimax", "kemeny")


@dataclass(frozen=True)
class RuleRun:
    """One rule's ranking of one (resampled) leaderboard.

    Attributes
    ----------
    positions : numpy.ndarray
        Competition position of every system, in the order of the ``systems`` asked for
        (NaN for a system the rule left out, e.g. one with no score left).
    status : str
        ``"optimal"`` or ``"time_limit"`` for Kemeny, ``""`` for the other rules.
    gap : float
        Kemeny's relative gap (0 when optimal; NaN for the other rules).
    order : tuple of str
        The ranking, best first (tied systems in the rule's listing order).
    unique : bool or None
        Kemeny: whether the optimal ranking is the only one (None: not proven optimal, or
        another rule). When False the positions are one optimum's among several.
    """

    positions: Any
    status: str
    gap: float
    order: tuple[str, ...]
    unique: bool | None = None


def check_rules(rules: object) -> tuple[str, ...]:
    """The rule names, checked against the registry (Kemeny included).

    Parameters
    ----------
    rules : sequence of str
        Rule names (:data:`consensus.rules.RULE_NAMES`).

    Returns
    -------
    tuple of str

    Raises
    ------
    InvalidOptionError
        If `rules` is empty, not a list of names, names a rule twice or an unknown rule.

    Examples
    --------
    >>> check_rules(["borda", "kemeny"])
    ('borda', 'kemeny')
    """
    from ..rules.registry import check_rule_names

    names = tuple(name_list(rules, "rules", kind="rule names"))
    if not names:
        raise InvalidOptionError("rules must name at least one rule")
    check_rule_names(list(names), listed=True)
    twice = sorted({r for r in names if names.count(r) > 1})
    if twice:
        raise InvalidOptionError(f"rules lists {', '.join(twice)} more than once")
    return names


def loop_options(
    board: Leaderboard, rule: str, given: Mapping[str, Any], time_limit: float | None,
    initial: Sequence[str] = (),
) -> dict[str, Any]:
    """The options :func:`consensus.rank` gets inside a resampling loop.

    The user's options (`given`), then, when `board` has holes, the rule's own missing-score
    policy and ``min_coverage=0`` (a resample ranks every system it holds: which systems a
    study covers is decided once, on the full board, not per resample), and for Kemeny: one
    solver thread, `time_limit` and the warm start `initial` (its systems not on `board`
    skipped).

    Parameters
    ----------
    board : Leaderboard
        What is ranked.
    rule : str
        The rule.
    given : mapping
        Options the user asked for (they win).
    time_limit : float or None
        Seconds per Kemeny solve.
    initial : sequence of str, default=()
        Kemeny's warm start.

    Returns
    -------
    dict

    Examples
    --------
    >>> import consensus as cs
    >>> loop_options(cs.load_example("votenrank-toy"), "kemeny", {}, 5.0)
    {'threads': 1, 'time_limit': 5.0}
    """
    from ..rules.registry import auto_missing

    opts = dict(given)
    if board.has_missing and "missing" not in opts:
        opts["missing"] = auto_missing(rule)
    if board.has_missing:  # a resample ranks the systems it was given: the caller chose them once
        opts.setdefault("min_coverage", 0)
    if rule == "kemeny":
        opts.setdefault("threads", SOLVER_THREADS)
        if time_limit is not None:
            opts.setdefault("time_limit", time_limit)
        present = set(board.systems)
        start = [s for s in initial if s in present]
        if start:
            opts.setdefault("initial", start)
    return opts


def rule_positions(
    data: Leaderboard | InstanceScores,
    rules: Sequence[str],
    *,
    systems: Sequence[str] | None = None,
    initial: Mapping[str, Sequence[str]] | None = None,
    time_limit: float | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, RuleRun]:
    """Every rule's competition positions on `data`.

    Parameters
    ----------
    data : Leaderboard or InstanceScores
        The scores (instance scores are ranked through their task means).
    rules : sequence of str
        Registered rule names.
    systems : sequence of str, optional
        The systems to report, in this order (default: ``data.systems``); a system not in
        `data` gets NaN.
    initial : mapping, optional
        Rule -> an order of systems to warm-start from (used by ``kemeny``; systems not in
        `data` are skipped).
    time_limit : float, optional
        Seconds per Kemeny solve; past it, the best ranking found (status ``"time_limit"``).
    options : mapping, optional
        Rule -> extra options for :func:`consensus.rank`.

    Returns
    -------
    dict
        Rule -> :class:`RuleRun`.

    Raises
    ------
    ConsensusError
        Whatever :func:`consensus.rank` raises for a rule on `data`.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> rule_positions(lb, ["copeland"], systems=["B", "A", "Z"])["copeland"].positions.tolist()
    [1.0, 4.0, nan]
    """
    from ..rules.registry import rank

    board = data.to_leaderboard() if isinstance(data, InstanceScores) else data
    wanted = tuple(board.systems if systems is None else systems)
    runs: dict[str, RuleRun] = {}
    for rule in rules:
        opts = loop_options(board, rule, (options or {}).get(rule, {}), time_limit,
                            (initial or {}).get(rule, ()))
        res = rank(board, rule, **opts)
        where = tier_positions(res.ranking)
        positions = np.array([float(where[s]) if s in where else np.nan for s in wanted])
        status, gap, unique = "", float("nan"), None
        if rule == "kemeny":
            k = res.details["kemeny"]
            status, gap, unique = k.status.value, float(k.gap), k.unique
        runs[rule] = RuleRun(positions, status, gap, tuple(res.order), unique)
    return runs
