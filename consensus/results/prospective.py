"""Which systems can win under some task weights: the result of :func:`consensus.prospective`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from .base import Display, Displayed, flagged, freeze_mapping, jsonable
from .condorcet import CondorcetCertificate, CondorcetWeightsResult
from .preparation import Preparation

__all__ = ["ProspectiveResult"]


_PROSPECTIVE_COLUMNS = ("system", "feasible", "strict_feasible", "margin", "distance", "weights", "certificate", "method")


@dataclass(frozen=True, slots=True, repr=False)
class ProspectiveResult(Displayed):
    """Which systems can be the Condorcet winner under some weighting (:func:`consensus.prospective`).

    One :class:`CondorcetWeightsResult` per system, plus the other notion's feasibility
    (strict and weak are both reported).

    Attributes
    ----------
    systems : tuple of str
        Leaderboard order.
    feasible : tuple of bool
        Weak: some weighting lets the system beat or tie every rival (the paper's
        "prospective"), per system.
    strict_feasible : tuple of bool
        Strict: some weighting makes it beat every rival, per system.
    strict : bool
        Which notion :attr:`results` (margins, distances, weights, certificates) refer to.
    results : Mapping[str, CondorcetWeightsResult]
        System -> its full answer; empty when the weight constraints are contradictory.
    contradiction : CondorcetCertificate or None
        The certificate that the weight constraints alone cannot hold (then no system can
        win and :attr:`results` is empty).
    options : Mapping[str, Any]
        The options used and the work done: ``strict``, ``reference``, ``objective``,
        ``constraints``, ``tol``, ``min_margin``, ``method``, ``solver``, ``n_lps``,
        ``n_solves``, ``solver_seconds``, ``seconds`` (all JSON-able).
    preparation : Preparation
        What the preparation stage did to the scores first (coverage, missing scores).
    """

    json_command: ClassVar[str] = "prospective"

    systems: tuple[str, ...]
    feasible: tuple[bool, ...]
    strict_feasible: tuple[bool, ...]
    strict: bool
    results: Mapping[str, CondorcetWeightsResult]
    contradiction: CondorcetCertificate | None
    options: Mapping[str, Any]
    preparation: Preparation = Preparation()

    def __post_init__(self) -> None:
        object.__setattr__(self, "systems", tuple(self.systems))
        object.__setattr__(self, "feasible", tuple(bool(x) for x in self.feasible))
        object.__setattr__(self, "strict_feasible", tuple(bool(x) for x in self.strict_feasible))
        object.__setattr__(self, "results", freeze_mapping(self.results))
        object.__setattr__(self, "options", freeze_mapping(self.options))

    @property
    def prospective_systems(self) -> tuple[str, ...]:
        """Systems that can beat or tie every rival under some weighting (weak feasibility)."""
        return flagged(self.systems, self.feasible)

    @property
    def strict_winners(self) -> tuple[str, ...]:
        """Systems that can beat every rival under some weighting (strict feasibility)."""
        return flagged(self.systems, self.strict_feasible)

    def _row(self, k: int) -> dict[str, Any]:
        system = self.systems[k]
        res = self.results.get(system)
        if res is None:  # contradictory constraints
            summary = self.contradiction.summary() if self.contradiction is not None else ""
            return {"system": system, "feasible": False, "strict_feasible": False, "margin": math.nan,
                    "distance": math.nan, "weights": "", "certificate": summary, "method": "farkas"}
        weights = ""
        if res.weight_values is not None:
            weights = ", ".join(f"{t}={w:.4g}" for t, w in res.weight_values.items() if w > 0)
        return {
            "system": system,
            "feasible": self.feasible[k],
            "strict_feasible": self.strict_feasible[k],
            "margin": float(res.margin),
            "distance": math.nan if res.distance is None else float(res.distance),
            "weights": weights,
            "certificate": res.certificate.summary() if res.certificate is not None else "",
            "method": res.method,
        }

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The prospective systems.
        """
        return [("prospective", self.prospective_systems)]

    def _display(self) -> Display:
        weak, strict = self.prospective_systems, self.strict_winners
        def names(xs: tuple[str, ...]) -> str:
            return (", ".join(xs[:5]) + (f" ... ({len(xs) - 5} more)" if len(xs) > 5 else "")) or "none"

        facts = [("prospective (weak)", names(weak)), ("strict winners", names(strict)),
                 ("notion", "strict" if self.strict else "weak")]
        title = f"ProspectiveResult: {len(weak)} of {len(self.systems)} systems can win under some task weights"
        return title, facts, self.to_frame().set_index("system")

    def to_frame(self) -> pd.DataFrame:
        """One row per system, in leaderboard order.

        Returns
        -------
        pandas.DataFrame
            Columns ``system``; ``feasible`` (weak); ``strict_feasible``; ``margin`` (the
            best smallest margin ``eps*``); ``distance`` (L1 from the reference to the
            nearest winning weighting, NaN when it cannot win or without a reference);
            ``weights`` (the example weighting as text ``"t1=0.5, t3=0.5"``, non-zero
            weights only); ``certificate`` (for systems that cannot win: the rival mix, e.g.
            ``"C"`` or ``"0.5 C + 0.5 D"``); ``method``. ``frame.attrs`` holds
            :attr:`options`.
        """
        frame = pd.DataFrame([self._row(k) for k in range(len(self.systems))], columns=list(_PROSPECTIVE_COLUMNS))
        frame["system"] = frame["system"].astype(object)
        frame.attrs.update(jsonable(dict(self.options)))
        return frame

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``strict``, ``options``, ``preparation``, ``contradiction`` (a certificate or None) and
            ``systems``: one record per system with the columns of :meth:`to_frame` and its
            full ``result`` (:meth:`CondorcetWeightsResult.to_dict`, None under a
            contradiction).
        """
        rows = []
        for k, system in enumerate(self.systems):
            row = jsonable(self._row(k))
            res = self.results.get(system)
            row["result"] = res.to_dict() if res is not None else None
            rows.append(row)
        return {
            "strict": self.strict,
            "options": jsonable(dict(self.options)),
            "preparation": self.preparation.to_dict(),
            "contradiction": self.contradiction.to_dict() if self.contradiction is not None else None,
            "systems": rows,
        }
