"""RuleComparison: every rule measured against the exact Kemeny ranking (:func:`consensus.compare`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pandas as pd

from ..errors import InvalidOptionError
from .base import (
    Display,
    Displayed,
    freeze_mapping,
    jsonable,
    ranked_facts,
    tier_positions,
)
from .preparation import Preparation

__all__ = ["RuleComparison"]


def _tiers_to_lists(tiers: Sequence[Sequence[str]]) -> list[list[str]]:
    return [list(group) for group in tiers]


def _frame_records(frame: Any, path: str = "") -> list[dict[str, Any]]:
    """Rows of a frame as JSON-able dicts, the index under its name (or ``"index"``); `path`
    names the list for :func:`~consensus.results.base.collect_infinities`."""
    name = frame.index.name or "index"
    records = []
    for i, (key, row) in enumerate(frame.iterrows()):
        record: dict[str, Any] = {name: jsonable(key)}
        for col, value in row.items():
            if value is pd.NA:
                value = None
            record[str(col)] = jsonable(value, f"{path}[{i}].{col}")
        records.append(record)
    return records


@dataclass(frozen=True, slots=True, repr=False)
class RuleComparison(Displayed):
    """Each rule's ranking measured against the exact Kemeny ranking (see :func:`consensus.compare_rules`).

    Attributes
    ----------
    systems : tuple of str
        The leaderboard's systems, in leaderboard order.
    rules : tuple of str
        The rules compared, in table order (``"kemeny"`` included).
    _table : pandas.DataFrame
        The comparison table, stored privately; read it through :attr:`table` (a copy).
    rankings : Mapping[str, tuple of tuple of str]
        Tie groups, best first, of every rule that ran.
    results : Mapping[str, object]
        The rule results (``RuleResult``) and the ``KemenyResult`` under ``"kemeny"``.
    errors : Mapping[str, str]
        Rule -> why it could not run on this leaderboard.
    kemeny : KemenyResult
        The reference.
    condorcet_winner : str or None
        The weighted-majority Condorcet winner, if any.
    baseline : str
        The rule rank changes are measured against (``"mean"``).
    ks : tuple of int
        The k of the top-k / least-k columns.
    tie_penalty : float
        Kendall distance penalty of a pair tied in one ranking only.
    dispersion : float
        Mean Kendall distance between two task rankings (Colombo et al. 2022, app. C.2).
    total_weight : float
        Sum of the task weights (``mean_task_distance = task_distance / total_weight``).
    preparations : Mapping[str, Preparation]
        Rule -> what the preparation stage did for it (the ``preparation`` of its result; a
        rule that failed has the policy it was given and ``treatment="not run"``).
    chosen_by : Mapping[str, str]
        Rule -> how its missing-score policy was chosen (``"auto"``, ``"missing"``,
        ``"rule_options"``, ``"no missing scores"``, ...).
    notes : tuple of str
        What was done to the leaderboard before comparing (``min_coverage`` drops, ...).
    """

    json_command: ClassVar[str] = "compare"

    systems: tuple[str, ...]
    rules: tuple[str, ...]
    _table: pd.DataFrame
    rankings: Mapping[str, tuple[tuple[str, ...], ...]]
    results: Mapping[str, Any]
    errors: Mapping[str, str]
    kemeny: Any
    condorcet_winner: str | None
    baseline: str
    ks: tuple[int, ...]
    tie_penalty: float
    dispersion: float
    total_weight: float
    preparations: Mapping[str, Preparation] = field(default_factory=dict)
    chosen_by: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "systems", tuple(self.systems))
        object.__setattr__(self, "rules", tuple(self.rules))
        object.__setattr__(self, "_table", self._table.copy())
        object.__setattr__(
            self, "rankings", freeze_mapping({k: tuple(tuple(g) for g in v) for k, v in self.rankings.items()})
        )
        object.__setattr__(self, "results", freeze_mapping(self.results))
        object.__setattr__(self, "errors", freeze_mapping(self.errors))
        object.__setattr__(self, "ks", tuple(self.ks))
        object.__setattr__(self, "preparations", freeze_mapping(dict(self.preparations)))
        object.__setattr__(self, "chosen_by", freeze_mapping(dict(self.chosen_by)))
        object.__setattr__(self, "notes", tuple(self.notes))

    def positions(self) -> Any:
        """Competition position (1 + systems strictly above) of each system under each rule that ran.

        Systems (rows) follow the Kemeny ranking; one column per rule.

        Returns
        -------
        pandas.DataFrame
            Systems x rules (in the order of :attr:`rankings`, ``kemeny`` included),
            integer positions; tied systems share a position. A rule that ranked only some
            systems (``missing="drop_systems"``) has ``<NA>`` for the others (dtype ``Int64``).

        Examples
        --------
        >>> import consensus as cs
        >>> comp = cs.compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "plurality"])
        >>> comp.positions()
           mean  plurality  kemeny
        B     1          2       1
        C     2          2       2
        D     3          2       3
        A     4          1       4
        """
        order = [s for group in self.rankings["kemeny"] for s in group]
        columns = {}
        partial = False
        for rule, tiers in self.rankings.items():
            pos = tier_positions(tiers)
            partial |= any(s not in pos for s in order)
            columns[rule] = [pos.get(s, pd.NA) for s in order]
        return pd.DataFrame(columns, index=pd.Index(order, dtype=object), dtype="Int64" if partial else "int64")

    def rank_changes(self, baseline: str | None = None) -> Any:
        """Position change versus `baseline` (default :attr:`baseline`): positive = moved up.

        The arrows of Vote'n'Rank Table 3. Systems (rows) follow the Kemeny ranking.

        Parameters
        ----------
        baseline : str, optional
            A rule with a ranking in :attr:`rankings`; default :attr:`baseline`.

        Returns
        -------
        pandas.DataFrame
            Systems x rules (as :meth:`positions`), integers ``baseline position -
            position``; the baseline's own column is 0.

        Raises
        ------
        InvalidOptionError
            If the baseline rule did not run (e.g. the mean with missing scores) or was not
            compared.

        Examples
        --------
        >>> import consensus as cs
        >>> comp = cs.compare_rules(cs.load_example("votenrank-toy"), rules=["mean", "plurality"])
        >>> comp.rank_changes()["plurality"].to_dict()
        {'B': -1, 'C': 0, 'D': 1, 'A': 3}
        """
        base = self.baseline if baseline is None else baseline
        if base not in self.rankings:
            why = f": {self.errors[base]}" if base in self.errors else ""
            raise InvalidOptionError(f"no ranking for baseline {base!r}{why}")
        positions = self.positions()
        changes = positions.rsub(positions[base], axis=0)
        return changes.astype("Int64" if changes.isna().any().any() else "int64")

    @property
    def table(self) -> pd.DataFrame:
        """One row per rule; columns documented in :func:`consensus.compare` (a fresh copy)."""
        return self._table.copy()

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The Kemeny top, and each other rule's winners.
        """
        claims = self.kemeny.claims()
        return claims + [(f"winner of {rule}", tiers[0]) for rule, tiers in self.rankings.items()
                         if rule != "kemeny" and tiers]

    def _display(self) -> Display:
        groups: dict[tuple[str, ...], list[str]] = {}
        for rule in self.rules:
            tiers = self.rankings.get(rule)
            if tiers:
                groups.setdefault(tuple(tiers[0]), []).append(rule)
        facts = ranked_facts(self.rankings.get("kemeny", ()))
        facts[0] = ("Kemeny winner", facts[0][1])
        facts.append(("Condorcet winner", self.condorcet_winner or "none"))
        facts.append(("winner per rule", "; ".join(f"{' = '.join(w[:3])} ({', '.join(r)})" for w, r in groups.items())))
        if self.errors:
            facts.append(("not run", ", ".join(self.errors)))
        shown = [c for c in ("winner", "kendall_tau", "gap", "status") if c in self._table.columns]
        return f"RuleComparison: {len(self.rules)} rules, {len(self.systems)} systems", facts, self._table[shown]

    def to_frame(self) -> pd.DataFrame:
        """The comparison table (a copy); same as :attr:`table`.

        Returns
        -------
        pandas.DataFrame
        """
        return self._table.copy()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: rows of the table, rankings, errors, dispersion, rank changes.

        Returns
        -------
        dict
            ``reference``, ``baseline``, ``ks``, ``tie_penalty``, ``condorcet_winner``,
            ``kemeny`` (ranking, objective, status), ``dispersion``, ``total_weight``,
            ``rows`` (the table), ``rankings``, ``errors``, ``rank_changes`` (rule ->
            system -> places gained versus the baseline, None where a rule did not rank the
            system; None without a baseline ranking), ``preparations`` (rule -> its
            preparation record), ``chosen_by`` and ``notes``.
        """
        kem = self.kemeny
        return {
            "reference": "kemeny",
            "baseline": self.baseline,
            "ks": list(self.ks),
            "tie_penalty": self.tie_penalty,
            "condorcet_winner": self.condorcet_winner,
            "kemeny": {
                "ranking": [list(g) for g in kem.ranking],
                "objective": jsonable(kem.objective),
                "status": jsonable(getattr(kem, "status", None)),
            },
            "dispersion": jsonable(self.dispersion),
            "total_weight": jsonable(self.total_weight),
            "rows": _frame_records(self._table, "rows"),
            "rankings": {rule: _tiers_to_lists(t) for rule, t in self.rankings.items()},
            "errors": dict(self.errors),
            "rank_changes": self._rank_changes_dict(),
            "preparations": {rule: prep.to_dict() for rule, prep in self.preparations.items()},
            "chosen_by": dict(self.chosen_by),
            "notes": list(self.notes),
        }

    def _rank_changes_dict(self) -> dict[str, dict[str, int | None]] | None:
        if self.baseline not in self.rankings:
            return None
        changes = self.rank_changes()
        return {
            rule: {s: None if pd.isna(changes.at[s, rule]) else int(changes.at[s, rule]) for s in changes.index}
            for rule in changes.columns
        }
