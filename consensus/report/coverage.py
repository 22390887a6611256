"""Coverage warnings on top of every report whose answer names systems (rank, kemeny, compare, prospective).

``analyze`` computes its flags itself (:attr:`consensus.Analysis.coverage_flags`); the other
reports get them here, from the leaderboard they were computed on: any winner, Kemeny top,
prospective system or "can win" verdict that rests on a system scored on less than
:data:`consensus.coverage.LOW_COVERAGE` of the task weight is named, with its coverage.
"""

from __future__ import annotations

from typing import Any

from ..coverage import coverage_flags
from ..leaderboard import Leaderboard
from ..results import CondorcetWeightsResult, KemenyResult, ProspectiveResult, RuleComparison, RuleResult
from .blocks import Block, Lines

__all__ = ["result_claims", "coverage_warnings"]

#: Warnings shown before "... and N more".
SHOWN = 5


def result_claims(obj: Any) -> list[tuple[str, Any]]:
    """The systems a result puts forward, as ``(claim, systems)`` pairs.

    Parameters
    ----------
    obj : result object
        :class:`RuleResult` (its winners), :class:`KemenyResult` (its top),
        :class:`RuleComparison` (each rule's winners), :class:`ProspectiveResult` (the
        prospective systems), :class:`CondorcetWeightsResult` (the system, when it can win);
        anything else claims nothing.

    Returns
    -------
    list of (str, object)

    Examples
    --------
    >>> import consensus as cs
    >>> result_claims(cs.kemeny(cs.load_example("votenrank-toy")))
    [('Kemeny top', 'B')]
    """
    if isinstance(obj, RuleResult):
        return [(f"winner of {obj.rule}", obj.winners)]
    if isinstance(obj, KemenyResult):
        return [("Kemeny top", obj.ranking[0])] if obj.ranking else []
    if isinstance(obj, RuleComparison):
        return [(f"winner of {rule}", ranking[0]) for rule, ranking in obj.rankings.items() if ranking]
    if isinstance(obj, ProspectiveResult):
        return [("prospective", obj.prospective_systems)]
    if isinstance(obj, CondorcetWeightsResult):
        return [("can win under some weights", obj.system)] if obj.feasible else []
    return []


def coverage_warnings(obj: Any, table: Leaderboard | None) -> list[Block]:
    """A block of warnings for the claims of `obj` that rest on low-coverage systems of `table`.

    Parameters
    ----------
    obj : result object
        See :func:`result_claims`.
    table : Leaderboard or None
        The scores `obj` was computed on; None (or no missing score) gives no warning.

    Returns
    -------
    list of Block
        Empty, or one :class:`Lines` block (at most 5 warnings, then how many more).

    Examples
    --------
    >>> import pandas as pd
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.5, 0.4], "nli": [None, 0.6, 0.5], "mt": [None, 0.7, 0.6]},
    ...                      index=["sparse", "b", "c"])
    >>> lb = cs.Leaderboard.from_frame(frame)
    >>> coverage_warnings(cs.kemeny(lb), lb)[0].lines[0]
    "warning: rests on a low-coverage system: 'sparse' (Kemeny top) is scored on 1 of 3 tasks (33% of the weight)"
    """
    if table is None or not table.has_missing:
        return []
    flags = coverage_flags(table, result_claims(obj))
    if not flags:
        return []
    text = [f"warning: {flag}" for flag in flags[:SHOWN]]
    if len(flags) > SHOWN:
        text.append(f"... and {len(flags) - SHOWN} more low-coverage systems (min_coverage= / --min-coverage drops them)")
    return [Lines(tuple(text))]
