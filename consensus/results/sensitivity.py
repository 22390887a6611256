"""How stable is the winner? The result of :func:`consensus.weight_sensitivity`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pandas as pd

from .base import Display, Displayed, freeze_mapping, jsonable
from .json_values import json_path
from .preparation import Preparation

__all__ = ["RadiusAnswer", "RemovalAnswer", "SensitivityResult"]


def _short(text: str, width: int = 100) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


@dataclass(frozen=True, slots=True, repr=False)
class RadiusAnswer(Displayed):
    """The smallest change of the official weights (in one norm) that changes the target.

    Attributes
    ----------
    norm : {"l1", "linf"}
    distance : float
        The radius: the smallest ``||w - r||`` over admissible weightings ``w`` under which
        the target changes (a tie counts as a change). 0 when it is already tied; ``inf``
        when no admissible weighting changes it.
    leader, challenger : str or None
        The pair that ties at the radius: `challenger` catches up with `leader`.
    weight_values : Mapping[str, float] or None
        The nearest weighting found (verified: running the rule with it shows the pair tied
        or swapped). Its distance is `witness_distance`.
    witness_distance : float
        ``||weights - r||``: equal to `distance` up to solver rounding; slightly larger when
        the tie at the exact radius could not be confirmed in floating point and a strict
        swap was asked for (by 1e-7 of the largest point difference).
    outcome : tuple of tuple of str
        What the rule gives with `weights`: its top tie groups (winners first).
    """

    norm: str
    distance: float
    leader: str | None
    challenger: str | None
    weight_values: Mapping[str, float] | None
    witness_distance: float
    outcome: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        if self.weight_values is not None:
            object.__setattr__(self, "weight_values", freeze_mapping({k: float(v) for k, v in self.weight_values.items()}))
        object.__setattr__(self, "outcome", tuple(tuple(g) for g in self.outcome))

    @property
    def weights(self) -> Any:
        """The witness weighting as a Series over tasks, or None."""
        if self.weight_values is None:
            return None
        return pd.Series(dict(self.weight_values), name=f"weight_{self.norm}", dtype=float)

    def _display(self) -> Display:
        return f"RadiusAnswer({self.norm}): {self.distance:.4g}", [("pair", f"{self.challenger} catches {self.leader}")], None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (``distance`` ``inf`` becomes None; see ``non_finite``).

        Returns
        -------
        dict
        """
        return {
            "norm": self.norm,
            "distance": jsonable(self.distance, "distance"),
            "leader": self.leader,
            "challenger": self.challenger,
            "weights": jsonable(dict(self.weight_values)) if self.weight_values is not None else None,
            "witness_distance": jsonable(self.witness_distance, "witness_distance"),
            "outcome": [list(g) for g in self.outcome],
        }


@dataclass(frozen=True, slots=True, repr=False)
class RemovalAnswer(Displayed):
    """The fewest tasks whose removal changes the target (the other tasks keep their weights).

    Attributes
    ----------
    n_removed : int or None
        0 when the target is already tied; None when no removal (leaving at least one task
        of positive weight) changes it.
    tasks : tuple of str
        The tasks removed.
    leader, challenger : str or None
        The pair that ties or swaps once they are removed.
    outcome : tuple of tuple of str
        What the rule gives without them (top tie groups), verified by running it.
    """

    n_removed: int | None
    tasks: tuple[str, ...]
    leader: str | None
    challenger: str | None
    outcome: tuple[tuple[str, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "tasks", tuple(self.tasks))
        object.__setattr__(self, "outcome", tuple(tuple(g) for g in self.outcome))

    def _display(self) -> Display:
        return f"RemovalAnswer: {self.n_removed} task(s)", [("tasks", ", ".join(self.tasks))], None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
        """
        return {
            "n_removed": self.n_removed,
            "tasks": list(self.tasks),
            "leader": self.leader,
            "challenger": self.challenger,
            "outcome": [list(g) for g in self.outcome],
        }


@dataclass(frozen=True, slots=True, repr=False)
class SensitivityResult(Displayed):
    """How far the official task weights are from changing the winner, the top k or the ranking.

    Attributes
    ----------
    rule : str
    rule_options : Mapping[str, Any]
    target : str
        ``"winner"``, ``"top<k>"`` or ``"ranking"``.
    kind : {"exact", "lower_bound"}
        ``"exact"``: the radii and the removal count are the smallest changes that change
        the target (linear rules; the Condorcet winner). ``"lower_bound"`` (Kemeny): no
        smaller change can change the Kemeny target, because within it the majority edges
        the target rests on keep their direction; a larger change may still leave it.
    current : tuple of tuple of str
        The target under the official weights (tie groups, best first: the winner, the top
        k, or the whole ranking).
    reference_values : Mapping[str, float]
        The official weights, normalized to sum 1.
    l1, linf : RadiusAnswer
        The smallest change in the L1 and L-infinity norms.
    removal : RemovalAnswer
    explanation : str
    options : Mapping[str, Any]
        The work done (LP counts over both norms): pairs considered, LPs solved, pair LPs skipped by the lower bounds,
        constraints, solver, seconds (JSON-able).
    preparation : Preparation
        What the preparation stage did to the scores first (coverage, missing scores).
    """

    json_command: ClassVar[str] = "sensitivity"

    rule: str
    rule_options: Mapping[str, Any]
    target: str
    kind: str
    current: tuple[tuple[str, ...], ...]
    reference_values: Mapping[str, float]
    l1: RadiusAnswer
    linf: RadiusAnswer
    removal: RemovalAnswer
    explanation: str
    options: Mapping[str, Any] = field(default_factory=dict)
    preparation: Preparation = Preparation()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule_options", freeze_mapping(dict(self.rule_options)))
        object.__setattr__(self, "reference_values", freeze_mapping({k: float(v) for k, v in self.reference_values.items()}))
        object.__setattr__(self, "current", tuple(tuple(g) for g in self.current))
        object.__setattr__(self, "options", freeze_mapping(dict(self.options)))

    @property
    def reference(self) -> pd.Series:
        """The official weights (normalized) as a Series over tasks."""
        return pd.Series(dict(self.reference_values), name="reference", dtype=float)

    def to_frame(self) -> pd.DataFrame:
        """One row per task: the official weight, the nearest L1 and L-infinity weightings and
        their changes, and whether the task is among the fewest removed.

        Returns
        -------
        pandas.DataFrame
            Indexed by task; columns ``reference``, ``weight_l1``, ``change_l1``,
            ``weight_linf``, ``change_linf``, ``removed``. The weight columns are NaN when
            no admissible weighting changes the target.
        """
        ref = self.reference
        frame = pd.DataFrame({"reference": ref})
        for ans in (self.l1, self.linf):
            w = ans.weights
            col = w.reindex(ref.index) if w is not None else pd.Series(math.nan, index=ref.index)
            frame[f"weight_{ans.norm}"] = col.to_numpy(dtype=float)
            change = (col - ref).to_numpy(dtype=float, copy=True)
            change[abs(change) < 1e-12] = 0.0  # solver rounding, not a change
            frame[f"change_{ans.norm}"] = change
        frame["removed"] = [t in self.removal.tasks for t in ref.index]
        frame.index.name = "task"
        return frame

    def changed_tasks(self) -> pd.DataFrame:
        """The rows of :meth:`to_frame` whose weight moves in either nearest weighting or that
        are removed, largest L1 change first (what reports and plots show).

        Returns
        -------
        pandas.DataFrame
        """
        frame = self.to_frame()
        moved = frame[(frame["change_l1"].abs() > 0) | (frame["change_linf"].abs() > 0) | frame["removed"]]
        return moved.reindex(moved["change_l1"].abs().sort_values(ascending=False, kind="stable").index)

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The current winner, for ``target="winner"``; else none.
        """
        return [(f"winner of {self.rule}", self.current[0])] if self.target == "winner" and self.current else []

    def _display(self) -> Display:
        facts: list[tuple[str, Any]] = [
            ("current", _short(" > ".join(", ".join(g) for g in self.current))),
            ("L1 radius", f"{self.l1.distance:.4g} ({self.l1.challenger} catches {self.l1.leader})"),
            ("Linf radius", f"{self.linf.distance:.4g}"),
            ("fewest removals", f"{self.removal.n_removed} ({', '.join(self.removal.tasks)})"),
            ("kind", self.kind),
        ]
        return f"SensitivityResult({self.rule}, {self.target})", facts, self.to_frame()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            Every field; the answers as their own ``to_dict()``.
        """
        answers = {}
        for name in ("l1", "linf", "removal"):  # an infinite distance is named where it is (l1.distance)
            with json_path(name):
                answers[name] = getattr(self, name).to_dict()
        return {
            "rule": self.rule,
            "rule_options": jsonable(dict(self.rule_options)),
            "target": self.target,
            "kind": self.kind,
            "current": [list(g) for g in self.current],
            "reference": jsonable(dict(self.reference_values)),
            **answers,
            "explanation": self.explanation,
            "options": jsonable(dict(self.options)),
            "preparation": self.preparation.to_dict(),
        }
