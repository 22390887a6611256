"""PossibleWinners: who can still be first, and who is first whatever the missing scores hold."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from .base import Display, Displayed, flagged, freeze_mapping, jsonable

__all__ = ["PossibleWinners", "RankRanges"]


@dataclass(frozen=True, slots=True, repr=False)
class PossibleWinners(Displayed):
    """Possible and necessary winners of one rule over every completion of the missing scores.

    Attributes
    ----------
    rule : str
        The rule (``"mean"``, ``"normalized_mean"``, ``"condorcet"``, ``"borda"``, ``"copeland"``
        or ``"minimax"``).
    model : str
        How a missing cell may be filled: ``"bounds"`` (any value between the task's bounds:
        score rules) or ``"positions"`` (any position among the task's scores, ties
        included: rank rules).
    systems : tuple of str
        Every system, in leaderboard order (none is set aside: the question is what each
        could still reach).
    possible, possible_strict, necessary, necessary_strict : tuple of bool
        Per system: first (alone or tied) under some completion; alone under some
        completion; first (alone or tied) under every completion; alone under every
        completion. `possible` and `possible_strict` are None for a system whose search
        stopped at its time limit undecided (Borda; see `decided_by`).
    witnesses : Mapping[str, Mapping[str, float]]
        Per possible winner, the completion that makes it first: ``"system|task"`` -> value
        for every missing cell (the rule was run on that completed board to decide it).
    beaten_by : Mapping[str, tuple of str]
        Per system that cannot win, the rivals that still beat it when every missing cell
        is filled in its favour (the mean: every rival still ahead; the Condorcet winner:
        every rival it does not beat strictly by weighted majority; Borda: the rival ahead
        under every completion, or the rivals modelled by the program that proved it).
    n_missing_cells : int
    bounds : Mapping[str, tuple of float] or None
        ``"bounds"`` model: task -> (lowest, highest) value a missing cell may take, in the
        task's own units.
    decided_by : tuple of str
        Per system, what decided it (Borda, Copeland: ``"pairwise bound"``, ``"set bound"``,
        ``"greedy completion"``, ``"weighted bound"`` and ``"combined completion"`` (Borda),
        ``"rival bound"`` and ``"local search"`` (Copeland), ``"integer program"``, or the
        solver's status such as ``"time_limit"``, with `possible` None); empty for the rules
        decided by one completion per system.
    programs : int
        Programs solved: integer programs, and Borda's linear programs of the weighting of the
        rivals (one per round of its column generation).
    pivotal : Mapping[str, tuple of str] or None
        What to evaluate next: every missing cell (``"system|task"``) whose value can still
        change the set of possible winners, with the possible winners it can knock out (the
        set can only shrink once a cell is known). Empty: no single cell changes who can win.
        None where not computed (``pivotal=False``, and Kemeny). Borda, Copeland and Minimax:
        proven by a search on the board with the cell fixed; only for the systems known to be
        possible.
    pivotal_undecided : Mapping[str, tuple of str] or None
        Borda, Copeland, Minimax: per cell, the possible winners it may knock out, not decided:
        some search on the board with the cell fixed stopped at its time limit (a cell can be
        in `pivotal` for one winner and here for another). Empty when every search decided.
    program_bounds : Mapping[str, tuple of float or None]
        Borda, Copeland, Minimax: per system proven impossible by an integer program, or left
        undecided by one, the evidence of its last program: ``(best margin, bound)``, the
        largest smallest lead over the rivals it modelled that the solver found (None if it
        found no completion) and the solver's proven upper bound on it (the dual bound). A
        bound below zero (past the tie tolerance) is the proof that no completion puts the
        system first; an undecided system's bound is at or above zero.
    rule_options : Mapping[str, Any]
        The rule's own options the completions were ranked with (``normalized_mean``:
        ``baseline``, ``maximum``, ``clip``; ``copeland``, ``minimax``: ``variant``); empty
        for the rules' defaults.
    """

    json_command: ClassVar[str] = "possible"

    rule: str
    model: str
    systems: tuple[str, ...]
    possible: tuple[bool | None, ...]
    possible_strict: tuple[bool | None, ...]
    necessary: tuple[bool | None, ...]
    necessary_strict: tuple[bool | None, ...]
    witnesses: Mapping[str, Mapping[str, float]]
    beaten_by: Mapping[str, tuple[str, ...]]
    n_missing_cells: int
    bounds: Mapping[str, tuple[float, float]] | None = None
    decided_by: tuple[str, ...] = ()
    programs: int = 0
    pivotal: Mapping[str, tuple[str, ...]] | None = None
    rule_options: Mapping[str, Any] | None = None
    pivotal_undecided: Mapping[str, tuple[str, ...]] | None = None
    program_bounds: Mapping[str, tuple[float | None, float | None]] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule_options", freeze_mapping(dict(self.rule_options or {})))
        object.__setattr__(self, "program_bounds", freeze_mapping({k: tuple(v) for k, v in (self.program_bounds or {}).items()}))
        for name in ("pivotal", "pivotal_undecided"):
            if getattr(self, name) is not None:
                object.__setattr__(self, name, freeze_mapping({k: tuple(v) for k, v in getattr(self, name).items()}))
        for name in ("systems", "possible", "possible_strict", "necessary", "necessary_strict", "decided_by"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "witnesses", freeze_mapping({k: freeze_mapping(dict(v)) for k, v in self.witnesses.items()}))
        object.__setattr__(self, "beaten_by", freeze_mapping({k: tuple(v) for k, v in self.beaten_by.items()}))
        if self.bounds is not None:
            object.__setattr__(self, "bounds", freeze_mapping({k: tuple(v) for k, v in self.bounds.items()}))

    @property
    def possible_winners(self) -> tuple[str, ...]:
        """The systems first (alone or tied) under some completion."""
        return flagged(self.systems, self.possible)

    @property
    def necessary_winners(self) -> tuple[str, ...]:
        """The systems first (alone or tied) under every completion."""
        return flagged(self.systems, self.necessary)

    @property
    def next_evaluations(self) -> str:
        """One line: whether the winner is settled, or which cells can still change who can win."""
        if self.settled:
            return "the winner is settled: no completion of the missing cells changes it"
        if self.pivotal is None:
            return "the cells that can still change the winner were not computed"

        def listed(cells: list[str]) -> str:
            return ", ".join(cells[:10]) + (f" ... and {len(cells) - 10} more" if len(cells) > 10 else "")

        open_ = [c for c in (self.pivotal_undecided or {}) if c not in self.pivotal]
        unsure = [s for s, p in zip(self.systems, self.possible) if p is None]
        more = "more " if self.pivotal else ""
        tail = (f"; {len(open_)} {more}cell(s) not decided within the time limit or budget: {listed(open_)}"
                if open_ else "")
        if unsure:
            tail += f"; not known for the {len(unsure)} system(s) whose own search stopped undecided"
        if not self.pivotal:
            lead = ("no missing cell is proven to change who can win" if open_ or unsure
                    else "no single missing cell, once known, changes who can win")
            return lead + tail
        cells = list(self.pivotal)
        return f"{len(cells)} cell(s) can still change who can win: {listed(cells)}" + tail

    @property
    def settled(self) -> bool:
        """Whether the missing scores cannot change who is first: one possible winner, and it is necessary."""
        return len(self.possible_winners) == 1 and self.necessary_winners == self.possible_winners

    def to_frame(self) -> pd.DataFrame:
        """One row per system: ``possible``, ``possible_strict``, ``necessary``, ``necessary_strict``, ``beaten_by``
        (and ``decided_by``, ``best_margin``, ``margin_bound`` where the rule searches: see `program_bounds`).

        Returns
        -------
        pandas.DataFrame
            Indexed by system, in leaderboard order.
        """
        return pd.DataFrame(
            {
                "possible": self.possible,
                "possible_strict": self.possible_strict,
                "necessary": self.necessary,
                "necessary_strict": self.necessary_strict,
                "beaten_by": [", ".join(self.beaten_by.get(s, ())) for s in self.systems],
                **({"decided_by": self.decided_by} if self.decided_by else {}),
                **({"best_margin": [self.program_bounds.get(s, (None, None))[0] for s in self.systems],
                    "margin_bound": [self.program_bounds.get(s, (None, None))[1] for s in self.systems]}
                   if self.program_bounds else {}),
            },
            index=pd.Index(self.systems, dtype=object, name="system"),
        )

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward: the necessary winners.

        Returns
        -------
        list of (str, object)
        """
        return [(f"necessary winner of {self.rule}", self.necessary_winners)]

    def _display(self) -> Display:
        facts = [("possible winners", ", ".join(self.possible_winners) or "none"),
                 ("necessary winners", ", ".join(self.necessary_winners) or "none"),
                 ("missing cells", self.n_missing_cells), ("model", self.model)]
        return f"PossibleWinners({self.rule}): {len(self.systems)} systems", facts, self.to_frame()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: every attribute, and ``possible_winners``, ``necessary_winners``, ``settled``.

        Returns
        -------
        dict
        """
        return {
            "rule": self.rule,
            "model": self.model,
            "systems": list(self.systems),
            "possible": list(self.possible),
            "possible_strict": list(self.possible_strict),
            "necessary": list(self.necessary),
            "necessary_strict": list(self.necessary_strict),
            "possible_winners": list(self.possible_winners),
            "necessary_winners": list(self.necessary_winners),
            "settled": self.settled,
            "witnesses": {s: {k: jsonable(v) for k, v in w.items()} for s, w in self.witnesses.items()},
            "beaten_by": {s: list(v) for s, v in self.beaten_by.items()},
            "n_missing_cells": self.n_missing_cells,
            "bounds": None if self.bounds is None else {t: [jsonable(x) for x in b] for t, b in self.bounds.items()},
            "decided_by": list(self.decided_by),
            "programs": self.programs,
            "pivotal": None if self.pivotal is None else {k: list(v) for k, v in self.pivotal.items()},
            "program_bounds": {s: [jsonable(x) for x in v] for s, v in (self.program_bounds or {}).items()},
            "pivotal_undecided": (None if self.pivotal_undecided is None
                                  else {k: list(v) for k, v in self.pivotal_undecided.items()}),
            "rule_options": {k: jsonable(v) for k, v in (self.rule_options or {}).items()},
        }


@dataclass(frozen=True, slots=True, repr=False)
class RankRanges(Displayed):
    """Each system's best and worst position over every completion of the missing scores.

    A position counts ties as the rules' rankings do: a system's best position in a completion
    is one plus the systems strictly ahead of it, its worst the systems ahead of it or tied with
    it (itself included). The range is the best of the first over every completion and the
    worst of the second.

    Attributes
    ----------
    rule : str
        ``"mean"``, ``"normalized_mean"``, ``"borda"`` or ``"copeland"``.
    model : str
        ``"bounds"`` or ``"positions"`` (see :class:`PossibleWinners`).
    systems : tuple of str
        Every system, in leaderboard order.
    best, worst : tuple of int
        Per system, the best and the worst position reached by a real completion (its
        witness); exact where `exact` says so.
    best_bound, worst_bound : tuple of int
        Proven bounds: no completion puts the system above `best_bound` or below
        `worst_bound` (equal to `best` / `worst` when exact).
    exact : tuple of bool
        Per system, whether both ends are proven (Borda: False when an integer program
        reached its time limit; see `decided_by`).
    median_position : tuple of int
        The system's position (one plus the systems strictly ahead) when the missing cells
        are filled by their task's median: one real completion, inside every range.
    witnesses : Mapping[str, Mapping[str, Mapping[str, float]]]
        Per system, ``{"best": cells, "worst": cells}``: ``"system|task"`` -> value of every
        missing cell, in the task's own units, of the completions that reach `best` and
        `worst`.
    decided_by : tuple of str
        Per system, what decided its range (``"one completion"`` for the mean; Borda: the
        steps, best end then worst end).
    programs : int
        Integer programs solved.
    """

    json_command: ClassVar[str] = "ranges"

    rule: str
    model: str
    systems: tuple[str, ...]
    best: tuple[int, ...]
    worst: tuple[int, ...]
    best_bound: tuple[int, ...]
    worst_bound: tuple[int, ...]
    exact: tuple[bool, ...]
    median_position: tuple[int, ...]
    witnesses: Mapping[str, Mapping[str, Mapping[str, float]]]
    decided_by: tuple[str, ...]
    programs: int = 0

    def __post_init__(self) -> None:
        for name in ("systems", "best", "worst", "best_bound", "worst_bound", "exact", "median_position", "decided_by"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "witnesses", freeze_mapping(
            {s: freeze_mapping({end: freeze_mapping(dict(cells)) for end, cells in w.items()})
             for s, w in self.witnesses.items()}))

    def to_frame(self) -> pd.DataFrame:
        """One row per system: ``best``, ``worst``, ``median_position``, ``exact`` (and the bounds where not exact).

        Returns
        -------
        pandas.DataFrame
            Indexed by system, in leaderboard order.
        """
        columns: dict[str, Any] = {"best": self.best, "worst": self.worst, "median_position": self.median_position,
                                   "exact": self.exact}
        if not all(self.exact):
            columns["best_bound"] = self.best_bound
            columns["worst_bound"] = self.worst_bound
        return pd.DataFrame(columns, index=pd.Index(self.systems, dtype=object, name="system"))

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward: those first in every completion.

        Returns
        -------
        list of (str, object)
        """
        return [(f"first under every completion ({self.rule})",
                 tuple(s for s, w, e in zip(self.systems, self.worst, self.exact) if w == 1 and e))]

    def _display(self) -> Display:
        facts = [("systems", len(self.systems)), ("exact ranges", f"{sum(self.exact)} of {len(self.exact)}"),
                 ("model", self.model)]
        return f"RankRanges({self.rule})", facts, self.to_frame()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: every attribute.

        Returns
        -------
        dict
        """
        return {
            "rule": self.rule, "model": self.model, "systems": list(self.systems), "best": list(self.best),
            "worst": list(self.worst), "best_bound": list(self.best_bound), "worst_bound": list(self.worst_bound),
            "exact": list(self.exact), "median_position": list(self.median_position),
            "witnesses": {s: {end: {k: jsonable(v) for k, v in cells.items()} for end, cells in w.items()}
                          for s, w in self.witnesses.items()},
            "decided_by": list(self.decided_by), "programs": self.programs,
        }
