"""MajoritySummary: what the weighted majority relation says (:func:`consensus.majority_summary`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .base import freeze_mapping, jsonable

__all__ = ["MajoritySummary"]


@dataclass(frozen=True, slots=True)
class MajoritySummary:
    """What the weighted majority relation says (see :func:`consensus.majority_summary`).

    Attributes
    ----------
    systems : tuple of str
        In leaderboard order.
    edges : tuple of (winner, loser, wins, losses, ties, margin)
        Every majority win, strongest margin first (ties of margin in system order).
    ties : tuple of (str, str)
        Pairs neither system wins by majority.
    condorcet_winner, condorcet_loser : str or None
    weak_condorcet_winners, smith_set : tuple of str
    cycle : tuple of str or None
        A majority cycle inside the Smith set, when there is no Condorcet winner.
    pareto_dominated : Mapping[str, tuple of str]
        Dominated system -> the systems dominating it.
    """

    systems: tuple[str, ...]
    edges: tuple[tuple[str, str, float, float, float, float], ...]
    ties: tuple[tuple[str, str], ...]
    condorcet_winner: str | None
    weak_condorcet_winners: tuple[str, ...]
    condorcet_loser: str | None
    smith_set: tuple[str, ...]
    cycle: tuple[str, ...] | None
    pareto_dominated: Mapping[str, tuple[str, ...]]

    def __post_init__(self) -> None:
        object.__setattr__(self, "edges", tuple(tuple(e) for e in self.edges))
        object.__setattr__(self, "ties", tuple(tuple(t) for t in self.ties))
        object.__setattr__(self, "pareto_dominated", freeze_mapping(self.pareto_dominated))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            Every field; each edge as a dict with ``winner``, ``loser``, ``wins``,
            ``losses``, ``ties`` and ``margin``; ``cycle`` None when there is none.

        Examples
        --------
        >>> import consensus as cs
        >>> cs.majority_summary(cs.load_example("votenrank-toy")).to_dict()["edges"][0]
        {'winner': 'B', 'loser': 'A', 'wins': 3.0, 'losses': 2.0, 'ties': 0.0, 'margin': 1.0}
        """
        return {
            "systems": list(self.systems),
            "edges": [
                {"winner": w, "loser": l, "wins": jsonable(a), "losses": jsonable(b), "ties": jsonable(t),
                 "margin": jsonable(m)}
                for w, l, a, b, t, m in self.edges
            ],
            "ties": [list(t) for t in self.ties],
            "condorcet_winner": self.condorcet_winner,
            "weak_condorcet_winners": list(self.weak_condorcet_winners),
            "condorcet_loser": self.condorcet_loser,
            "smith_set": list(self.smith_set),
            "cycle": None if self.cycle is None else list(self.cycle),
            "pareto_dominated": {k: list(v) for k, v in self.pareto_dominated.items()},
        }
