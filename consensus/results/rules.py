"""RuleResult: the outcome of one voting rule or score baseline (returned by :func:`consensus.rank`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from .base import (
    Display,
    RankedResult,
    Tiers,
    detail_value,
    freeze_mapping,
    jsonable,
    ranked_facts,
    readonly_array,
    scored_table,
    series,
)
from .preparation import Preparation

__all__ = ["RuleResult"]


@dataclass(frozen=True, slots=True, repr=False)
class RuleResult(RankedResult):
    """The outcome of one voting rule (or score baseline) on one leaderboard.

    Attributes
    ----------
    rule : str
        Rule name, e.g. ``"borda"``, ``"copeland"``, ``"kemeny"``.
    options : Mapping[str, Any]
        Every option used, defaults included (``ties``, ``variant``, ``missing``, ...).
    systems : tuple of str
        The systems ranked, in leaderboard order.
    score_values : numpy.ndarray
        The rule's own score per system (read-only, aligned with `systems`); see
        :attr:`scores` for the Series.
    ranking : tuple of tuple of str
        Tie groups, best first; systems inside a group keep leaderboard order.
    winners : tuple of str
        The first tie group; empty when the rule declares no winner (``condorcet``
        without a Condorcet winner).
    ties : str
        How tied task scores were treated: ``"average"``, ``"min"`` or ``"max"`` points
        (positional rules), ``"neither"`` (majority rules: a tied task is neither a win nor
        a loss) or ``"scores"`` (score baselines use the numbers themselves).
    preparation : Preparation
        What the preparation stage did before the rule ran: systems set aside for coverage,
        the missing-score policy and its treatment, group weighting.
    tie_break : str or tuple of str or None
        The tie-break applied after the rule (``"mean"``, ``"lexicographic"``), or None:
        then every tie group of the rule is kept as is.
    details : Mapping[str, Any]
        Rule-specific trace: Baldwin's rounds, Threshold's score vectors, the two-step
        group results, the KemenyResult, ...

    Examples
    --------
    >>> import consensus as cs
    >>> res = cs.rank(cs.load_example("votenrank-toy"), "dowdall")
    >>> res.ranking, res.winners
    ((('A', 'B'), ('C',), ('D',)), ('A', 'B'))
    >>> res.order
    ('A', 'B', 'C', 'D')
    """

    json_command: ClassVar[str] = "rank"

    rule: str
    options: Mapping[str, Any]
    systems: tuple[str, ...]
    score_values: np.ndarray
    ranking: Tiers
    winners: tuple[str, ...]
    ties: str
    preparation: Preparation
    tie_break: str | tuple[str, ...] | None
    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", freeze_mapping(self.options))
        object.__setattr__(self, "details", freeze_mapping(self.details))
        object.__setattr__(self, "systems", tuple(self.systems))
        object.__setattr__(self, "score_values", readonly_array(self.score_values, np.float64))
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        object.__setattr__(self, "winners", tuple(self.winners))

    @property
    def scores(self) -> pd.Series:
        """The rule's own score per system (higher is better), in leaderboard order.

        Its meaning depends on the rule (see ``docs/rules.md``): Borda points, Copeland
        ``u(m)``, the Baldwin elimination round, ... A fresh Series on each access.
        """
        return series(self.score_values, self.systems, self.rule)

    def to_frame(self) -> pd.DataFrame:
        """A table in ranking order: ``score``, ``position`` (1 + systems above) and ``tier``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import consensus as cs
        >>> cs.rank(cs.load_example("votenrank-toy"), "borda").to_frame()
           score  position  tier
        B    9.0         1     1
        C    8.0         2     2
        D    7.0         3     3
        A    6.0         4     4
        """
        return scored_table(self)

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The rule's winners.
        """
        return [(f"winner of {self.rule}", self.winners)]

    def _display(self) -> Display:
        status = None
        if self.preparation.n_missing_cells:
            status = f"missing scores: {self.preparation.policy_name} ({self.preparation.n_missing_cells} cells)"
        return f"RuleResult({self.rule}): {len(self.systems)} systems", ranked_facts(self.ranking, status=status), \
            self.to_frame()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (nested results and frames converted too).

        Returns
        -------
        dict
            ``rule``, ``options``, ``scores`` (system -> score), ``ranking``, ``winners``,
            ``ties``, ``preparation``, ``tie_break``, ``details``.
        """
        return {
            "rule": self.rule,
            "options": detail_value(self.options),
            "scores": {s: jsonable(v) for s, v in zip(self.systems, self.score_values.tolist())},
            "ranking": [list(g) for g in self.ranking],
            "winners": list(self.winners),
            "ties": self.ties,
            "preparation": self.preparation.to_dict(),
            "tie_break": jsonable(self.tie_break),
            "details": detail_value(self.details),
        }
