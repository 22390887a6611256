"""MajoritySummary: what the weighted majority relation says (:func:`consensus.majority_summary`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from .base import Display, Displayed, freeze_mapping, jsonable

__all__ = ["MajoritySummary"]


@dataclass(frozen=True, slots=True, repr=False)
class MajoritySummary(Displayed):
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

    json_command: ClassVar[str] = "majority"

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

    def to_frame(self) -> pd.DataFrame:
        """One row per majority win, strongest first: ``winner``, ``loser``, ``wins``, ``losses``, ``ties``, ``margin``.

        Returns
        -------
        pandas.DataFrame

        Examples
        --------
        >>> import consensus as cs
        >>> cs.majority_summary(cs.load_example("votenrank-toy")).to_frame().iloc[0].to_dict()
        {'winner': 'B', 'loser': 'A', 'wins': 3.0, 'losses': 2.0, 'ties': 0.0, 'margin': 1.0}
        """
        columns = ["winner", "loser", "wins", "losses", "ties", "margin"]
        return pd.DataFrame([list(e) for e in self.edges], columns=columns).astype(
            {"winner": object, "loser": object, "wins": float, "losses": float, "ties": float, "margin": float})

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The Condorcet winner, and each system that Pareto-dominates others.
        """
        dominators: dict[str, int] = {}
        for by in self.pareto_dominated.values():
            for s in by:
                dominators[s] = dominators.get(s, 0) + 1
        return [("Condorcet winner", self.condorcet_winner),
                *((f"Pareto-dominates {count} system(s)", s) for s, count in dominators.items())]

    def _display(self) -> Display:
        n = len(self.systems)
        facts = [("Condorcet winner", self.condorcet_winner or "none"),
                 ("Condorcet loser", self.condorcet_loser or "none"),
                 ("Smith set", f"{len(self.smith_set)} system(s)" + (f": {', '.join(self.smith_set[:5])}"
                                                                    + (" ..." if len(self.smith_set) > 5 else ""))),
                 ("edges", f"{len(self.edges)} of {n * (n - 1) // 2} pairs decided, {len(self.ties)} tied")]
        return f"MajoritySummary: {n} systems", facts, self.to_frame()

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
                {"winner": w, "loser": loser, "wins": jsonable(a), "losses": jsonable(b), "ties": jsonable(t),
                 "margin": jsonable(m)}
                for w, loser, a, b, t, m in self.edges
            ],
            "ties": [list(t) for t in self.ties],
            "condorcet_winner": self.condorcet_winner,
            "weak_condorcet_winners": list(self.weak_condorcet_winners),
            "condorcet_loser": self.condorcet_loser,
            "smith_set": list(self.smith_set),
            "cycle": None if self.cycle is None else list(self.cycle),
            "pareto_dominated": {k: list(v) for k, v in self.pareto_dominated.items()},
        }
