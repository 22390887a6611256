"""Majority-relation rules on the weighted pairwise matrix: Condorcet, Copeland, Minimax.

A tied task is neither a win nor a loss; with missing scores a pair is compared on the tasks
both are scored on (Vote'n'Rank eq. 1).

References
----------
.. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3 and appendix A.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Unpack, cast

import numpy as np
import pandas as pd

from ..board._leaderboard import Leaderboard
from ..majority._pairwise import PairwiseMatrix
from ..results import RuleResult
from .declaration import rule
from .engine import run_rule
from .spec import (
    CoreOutput,
    RuleSpec,
    SharedOptions,
    check_choice,
    check_number,
    pairwise_of,
)

__all__ = ["condorcet", "copeland", "minimax"]

CopelandVariant = Literal["wins_minus_losses", "wins_plus_half_ties"]
MinimaxVariant = Literal["winning_votes", "margins", "pairwise_opposition"]


def _beats(p: PairwiseMatrix) -> tuple[np.ndarray, np.ndarray]:
    """Who beats whom, and the majority ties: the exact signs of :attr:`PairwiseMatrix.majority`."""
    beats = p.majority > 0
    tied = p.majority == 0
    np.fill_diagonal(tied, False)
    return beats, tied


def _condorcet_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    beats, tied = _beats(p)
    n = p.n_systems
    hits = np.nonzero(beats.sum(axis=1) == n - 1)[0]
    unbeaten = cast(np.ndarray, ~beats.any(axis=0))  # axis given: an array, not a scalar
    weak = tuple(s for s, ok in zip(p.systems, unbeaten.tolist()) if ok)
    scores = np.zeros(n)
    details: dict[str, Any] = {"weak_condorcet_winners": weak}
    if len(hits):
        scores[hits[0]] = 1.0
        winner = p.systems[int(hits[0])]
        details["condorcet_winner"] = winner
        return CoreOutput(scores, details, winners=(winner,))
    details["condorcet_winner"] = None
    return CoreOutput(scores, details, winners=())


def _copeland_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    beats, tied = _beats(p)
    wins = beats.sum(axis=1).astype(np.float64)
    losses = beats.sum(axis=0).astype(np.float64)
    draws = tied.sum(axis=1).astype(np.float64)
    scores = wins - losses if opts["variant"] == "wins_minus_losses" else wins + draws / 2.0
    idx = pd.Index(p.systems, dtype=object)
    frame = pd.DataFrame({"beats": wins, "beaten_by": losses, "majority_ties": draws}, index=idx)
    return CoreOutput(scores, {"counts": frame})


def _minimax_core(data: Any, opts: Mapping[str, Any], impute: bool) -> CoreOutput:
    p = pairwise_of(data, impute, tie_tol=opts.get("tie_tol", 0.0))
    n = p.n_systems
    variant = opts["variant"]
    if variant == "winning_votes":  # weight of b's wins over m, only when b beats m
        beats, _ = _beats(p)
        against = np.where(beats, p.wins, 0.0)
    else:
        against = np.array(p.margins if variant == "margins" else p.wins, dtype=np.float64)
        np.fill_diagonal(against, -np.inf)
    worst = against.max(axis=0) if n > 1 else np.zeros(n)
    worst = np.where(np.isfinite(worst), worst, 0.0)
    scores = -worst
    return CoreOutput(scores, {"worst_defeat": pd.Series(worst + 0.0, index=pd.Index(p.systems, dtype=object))})


_SPECS: dict[str, RuleSpec] = {
    "condorcet": RuleSpec("condorcet", "majority", _condorcet_core, True, True, True),
    "copeland": RuleSpec("copeland", "majority", _copeland_core, True, True, True),
    "minimax": RuleSpec("minimax", "majority", _minimax_core, True, True, True),
}


@rule(_SPECS["condorcet"], linear='use condorcet_weights (the majority relation is piecewise linear in the weights)')
def condorcet(data: Leaderboard | PairwiseMatrix, *, tie_tol: float = 0.0, **options: Unpack[SharedOptions]) -> RuleResult:
    """Condorcet: the system that beats every other by weighted majority, if any.

    ``scores`` is 1 for the Condorcet winner and 0 otherwise, so the ranking is the winner
    then everyone else tied; without a Condorcet winner every system is tied and
    ``winners`` is empty (the rule declares no winner). ``details`` lists the weak
    Condorcet winners (beaten by nobody).

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        {matrix_data}
    tie_tol : float, default=0.0
        {tie_tol}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``winners``: the Condorcet winner, or empty; ``details["condorcet_winner"]`` (a
        label or None) and ``details["weak_condorcet_winners"]``.

    Raises
    ------
    InvalidOptionError
        `tie_tol` is negative, not finite, not a number, or nonzero with
        ``missing="impute"`` on a Leaderboard; a shared option is invalid or cannot
        apply to `data` (a pairwise matrix takes only ``tie_break="lexicographic"``); or
        `data` has an unsupported type.

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3.

    Examples
    --------
    >>> import consensus as cs
    >>> condorcet(cs.load_example("votenrank-toy")).winners
    ('B',)
    """
    return run_rule(_SPECS["condorcet"], data, {"tie_tol": _tol(tie_tol)}, options)


@rule(_SPECS["copeland"], linear='it counts majority wins, which are not linear in the weights; use condorcet_weights')
def copeland(
    data: Leaderboard | PairwiseMatrix,
    *,
    variant: CopelandVariant = "wins_minus_losses",
    tie_tol: float = 0.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Copeland: u(m) = |systems m beats| - |systems that beat m| by weighted majority.

    ``variant="wins_plus_half_ties"`` scores |beaten| + |majority ties| / 2 instead.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        {matrix_data}
    variant : {"wins_minus_losses", "wins_plus_half_ties"}, default="wins_minus_losses"
        The Copeland score, as above.
    tie_tol : float, default=0.0
        {tie_tol}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: the Copeland scores; ``details["counts"]``: a DataFrame of
        ``beats``, ``beaten_by`` and ``majority_ties`` per system.

    Raises
    ------
    {majority_raises}

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3 and appendix A.1.

    Examples
    --------
    >>> import consensus as cs
    >>> copeland(cs.load_example("votenrank-toy")).scores.tolist()
    [-3.0, 3.0, 1.0, -1.0]
    """
    variant = check_choice("variant", variant, ("wins_minus_losses", "wins_plus_half_ties"), "copeland")
    return run_rule(_SPECS["copeland"], data, {"variant": variant, "tie_tol": _tol(tie_tol)}, options)


@rule(
    _SPECS["minimax"],
    linear='it takes worst majority margins, which are not linear in the weights; use condorcet_weights',
)
def minimax(
    data: Leaderboard | PairwiseMatrix,
    *,
    variant: MinimaxVariant = "winning_votes",
    tie_tol: float = 0.0,
    **options: Unpack[SharedOptions],
) -> RuleResult:
    """Minimax: the system whose worst pairwise defeat is smallest.

    - ``"winning_votes"`` (default, the paper's formula): score(m) = -max over systems b
      that beat m by majority of the weight of tasks where b beats m; 0 if nobody beats m.
    - ``"margins"``: -max over b != m of (wins[b, m] - wins[m, b]); positive for a
      system that beats everyone (its narrowest win).
    - ``"pairwise_opposition"``: -max over b != m of wins[b, m], beaten or not.

    Parameters
    ----------
    data : Leaderboard, PairwiseMatrix, InstanceScores or object with ``to_pairwise()``
        {matrix_data}
    variant : {"winning_votes", "margins", "pairwise_opposition"}, default="winning_votes"
        The measure of a defeat, as above.
    tie_tol : float, default=0.0
        {tie_tol}
    **options
        {shared_options}

    Returns
    -------
    RuleResult
        ``scores``: minus the worst defeat (higher is better); ``details["worst_defeat"]``:
        the worst defeat per system, a Series.

    Raises
    ------
    {majority_raises}

    References
    ----------
    .. [1] Rofin et al. 2023, Vote'n'Rank, sec. 2.2.3 and appendix A.1.

    Examples
    --------
    >>> import consensus as cs
    >>> minimax(cs.load_example("votenrank-toy")).scores.tolist()
    [-3.0, 0.0, -3.0, -3.0]
    """
    variant = check_choice("variant", variant, ("winning_votes", "margins", "pairwise_opposition"), "minimax")
    return run_rule(_SPECS["minimax"], data, {"variant": variant, "tie_tol": _tol(tie_tol)}, options)


def _tol(tie_tol: Any) -> float:
    return check_number(tie_tol, "tie_tol", non_negative=True)
