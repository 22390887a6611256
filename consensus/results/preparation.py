"""Preparation: what the preparation stage did to the scores before a question was asked.

Every question that reads a leaderboard (:func:`consensus.rank`, :func:`consensus.kemeny`,
the weight questions, :func:`consensus.compare_rules`, ...) first runs the one preparation
stage, :func:`consensus.prepare`: coverage (``min_coverage``: the systems set aside), the
missing-score policy (``missing``) and group weighting (``weighting``). Its record is this
frozen object; every result that answers a question about a leaderboard carries it as
``result.preparation``, and every report prints it (``consensus.report.sections.preparation_lines``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .base import freeze_mapping, jsonable

__all__ = ["Preparation"]


@dataclass(frozen=True, slots=True)
class Preparation:
    """What was done to the scores before the question was asked (one record, every result).

    Attributes
    ----------
    missing : str or None
        The missing-score policy applied: None (pairwise: each pair is compared on the
        tasks both are scored on), ``"drop_tasks"``, ``"drop_systems"``, ``"median"`` or
        ``"impute"``.
    treatment : str
        What was done about missing scores, in words (``"no missing scores"`` when none).
    n_missing_cells : int
        Missing cells of the scores the policy was applied to (after coverage).
    dropped_tasks, dropped_systems : tuple of str
        What the policy dropped (``"drop_tasks"`` / ``"drop_systems"``).
    medians : Mapping[str, float]
        ``"median"``: task -> the value its missing scores were filled with.
    min_coverage : float or None
        The coverage threshold asked for; None: the default rule of
        :func:`consensus.board._coverage.set_aside` (half, relaxed on boards of partial ballots).
    set_aside : tuple of str
        The systems set aside (listed, not ranked) because of their coverage.
    coverage : Mapping[str, float]
        Coverage of each system set aside.
    set_aside_tasks : tuple of str
        Tasks only set-aside systems scored, set aside with them.
    weighting : str or None
        ``"groups"`` when each task group was given one total weight, else None.
    group_weights : Mapping[str, float] or None
        The weight of each group under ``weighting="groups"``.
    notes : tuple of str
        The sentences naming what was set aside, dropped or filled (as the reports print them).

    Examples
    --------
    >>> import consensus as cs
    >>> res = cs.rank(cs.load_example("votenrank-toy"), "borda", missing="median")
    >>> res.preparation.missing, res.preparation.treatment
    ('median', 'no missing scores')
    """

    missing: str | None = None
    treatment: str = "no missing scores"
    n_missing_cells: int = 0
    dropped_tasks: tuple[str, ...] = ()
    dropped_systems: tuple[str, ...] = ()
    medians: Mapping[str, float] = field(default_factory=dict)
    min_coverage: float | None = None
    set_aside: tuple[str, ...] = ()
    coverage: Mapping[str, float] = field(default_factory=dict)
    set_aside_tasks: tuple[str, ...] = ()
    weighting: str | None = None
    group_weights: Mapping[str, float] | None = None
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("dropped_tasks", "dropped_systems", "set_aside", "set_aside_tasks", "notes"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        object.__setattr__(self, "n_missing_cells", int(self.n_missing_cells))
        object.__setattr__(self, "medians", freeze_mapping({k: float(v) for k, v in self.medians.items()}))
        object.__setattr__(self, "coverage", freeze_mapping({k: float(v) for k, v in self.coverage.items()}))
        if self.group_weights is not None:
            object.__setattr__(self, "group_weights", freeze_mapping({k: float(v) for k, v in self.group_weights.items()}))

    @property
    def policy_name(self) -> str:
        """The policy as the reports name it: ``"pairwise"`` for None."""
        return self.missing or "pairwise"

    def with_treatment(self, treatment: str) -> Preparation:
        """This record with `treatment` (how one question uses a policy, e.g. imputation).

        Parameters
        ----------
        treatment : str

        Returns
        -------
        Preparation
        """
        return replace(self, treatment=treatment)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: every attribute by name.

        Returns
        -------
        dict

        Examples
        --------
        >>> Preparation().to_dict()["treatment"]
        'no missing scores'
        """
        return {
            "missing": self.missing,
            "treatment": self.treatment,
            "n_missing_cells": self.n_missing_cells,
            "dropped_tasks": list(self.dropped_tasks),
            "dropped_systems": list(self.dropped_systems),
            "medians": {k: jsonable(v) for k, v in self.medians.items()},
            "min_coverage": jsonable(self.min_coverage),
            "set_aside": list(self.set_aside),
            "coverage": {k: jsonable(v) for k, v in self.coverage.items()},
            "set_aside_tasks": list(self.set_aside_tasks),
            "weighting": self.weighting,
            "group_weights": None if self.group_weights is None else {k: jsonable(v) for k, v in self.group_weights.items()},
            "notes": list(self.notes),
        }
