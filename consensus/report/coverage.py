"""Coverage warnings on top of every report whose answer names systems (rank, kemeny, compare, prospective).

``analyze`` computes its flags itself (:attr:`consensus.results.Analysis.coverage_flags`); the other
reports get them here, from the leaderboard they were computed on: any winner, Kemeny top,
prospective system or "can win" verdict that rests on a system scored on less than
:data:`consensus.board._coverage.LOW_COVERAGE` of the task weight is named, with its coverage.
"""

from __future__ import annotations

from typing import Any

from ..board._coverage import claims_of, coverage_flags
from ..board._leaderboard import Leaderboard
from .blocks import Block, Lines

__all__ = ["coverage_warnings"]

#: Warnings shown before "... and N more".
SHOWN = 5


def coverage_warnings(obj: Any, table: Leaderboard | None) -> list[Block]:
    """A block of warnings for the claims of `obj` that rest on low-coverage systems of `table`.

    Parameters
    ----------
    obj : result object
        Its claims are :func:`consensus.board._coverage.claims_of`.
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
    >>> coverage_warnings(cs.kemeny(lb, min_coverage=0), lb)[0].lines[0]
    "warning: rests on a low-coverage system: 'sparse' (Kemeny top) is scored on 1 of 3 tasks (33% of the weight)"
    """
    if table is None or not table.has_missing:
        return []
    flags = coverage_flags(table, claims_of(obj))
    if not flags:
        return []
    text = [f"warning: {flag}" for flag in flags[:SHOWN]]
    if len(flags) > SHOWN:
        text.append(f"... and {len(flags) - SHOWN} more low-coverage systems (min_coverage= / --min-coverage drops them)")
    return [Lines(tuple(text))]
