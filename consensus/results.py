"""Frozen result objects returned by rules and solvers.

Each capability appends its result dataclasses below its own section marker.
Conventions (../STYLE.md section 5): ``@dataclass(frozen=True, slots=True)``, tuples and
``MappingProxyType`` instead of lists and dicts, solver noise cleaned before storing
(``-0.0`` -> ``0.0``), ``to_dict()`` returning plain JSON-able values and ``to_frame()``
where a table makes sense.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

__all__: list[str] = ["freeze_mapping", "tiers_from_scores", "jsonable"]


def freeze_mapping(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    """A read-only copy of `mapping`."""
    return MappingProxyType(dict(mapping))


def tiers_from_scores(
    labels: Sequence[str], scores: Sequence[float], *, higher_is_better: bool = True, tol: float = 1e-12
) -> tuple[tuple[str, ...], ...]:
    """Group labels into tie groups by score, best group first; labels within a group keep input order.

    Two scores within `tol` (relative to the larger magnitude, floor 1) are tied.

    Examples
    --------
    >>> tiers_from_scores(["a", "b", "c", "d"], [1.0, 3.0, 1.0, 2.0])
    (('b',), ('d',), ('a', 'c'))
    """
    order = sorted(range(len(labels)), key=lambda i: (-scores[i] if higher_is_better else scores[i], i))
    tiers: list[list[int]] = []
    for i in order:
        if tiers:
            ref = scores[tiers[-1][0]]
            if abs(scores[i] - ref) <= tol * max(1.0, abs(ref), abs(scores[i])):
                tiers[-1].append(i)
                continue
        tiers.append([i])
    return tuple(tuple(labels[i] for i in sorted(t)) for t in tiers)


def jsonable(value: Any) -> Any:
    """Convert numpy scalars, tuples, mappings and enums to plain JSON values (NaN -> None)."""
    import enum

    import numpy as np

    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, frozenset, set)):
        items = sorted(value) if isinstance(value, (frozenset, set)) else value
        return [jsonable(v) for v in items]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, (np.bool_, bool)):
        return bool(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating, float)):
        v = float(value)
        return None if math.isnan(v) else (0.0 if v == 0 else v)
    return value


# --- rules (issue 3): RuleResult ------------------------------------------------------

from dataclasses import dataclass as _dataclass


def _detail_value(value: Any) -> Any:
    """JSON-able form of a ``details`` entry: nested results, frames, mappings, numbers."""
    import pandas as pd

    if hasattr(value, "to_dict") and not isinstance(value, (pd.DataFrame, pd.Series, Mapping)):
        return value.to_dict()
    if isinstance(value, pd.DataFrame):
        return {
            "index": [str(i) for i in value.index],
            "columns": [str(c) for c in value.columns],
            "data": jsonable(value.to_numpy().tolist()),
        }
    if isinstance(value, pd.Series):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Mapping):
        return {str(k): _detail_value(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_detail_value(v) for v in value]
    import dataclasses

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _detail_value(getattr(value, f.name)) for f in dataclasses.fields(value) if not f.name.startswith("_")}
    return jsonable(value)


@_dataclass(frozen=True, slots=True)
class RuleResult:
    """The outcome of one voting rule (or score baseline) on one leaderboard.

    Attributes
    ----------
    rule : str
        Rule name, e.g. ``"borda"``, ``"copeland"``, ``"kemeny"``.
    options : Mapping[str, Any]
        Every option used, defaults included (``ties``, ``variant``, ``missing``, ...).
    scores : pandas.Series
        The rule's own score per system (higher is better), indexed by system, in
        leaderboard order. Its meaning depends on the rule (see ``docs/rules.md``): Borda
        points, Copeland ``u(m)``, the Baldwin elimination round, ...
    ranking : tuple of tuple of str
        Tie groups, best first; systems inside a group keep leaderboard order.
    winners : tuple of str
        The first tie group; empty when the rule declares no winner (``condorcet``
        without a Condorcet winner).
    ties : str
        How tied task scores were treated: ``"average"``, ``"min"`` or ``"max"`` points
        (positional rules), ``"neither"`` (majority rules: a tied task is neither a win nor
        a loss) or ``"scores"`` (score baselines use the numbers themselves).
    missing : Mapping[str, Any]
        ``policy`` (the option given), ``treatment`` (what was done), ``n_missing_cells``,
        ``dropped_tasks`` and ``dropped_systems``.
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

    rule: str
    options: Mapping[str, Any]
    scores: Any  # pandas.Series (pandas is imported lazily in this module)
    ranking: tuple[tuple[str, ...], ...]
    winners: tuple[str, ...]
    ties: str
    missing: Mapping[str, Any]
    tie_break: str | tuple[str, ...] | None
    details: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", freeze_mapping(self.options))
        object.__setattr__(self, "missing", freeze_mapping(self.missing))
        object.__setattr__(self, "details", freeze_mapping(self.details))
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        object.__setattr__(self, "winners", tuple(self.winners))
        scores = self.scores.copy()
        scores[scores == 0] = 0.0  # no -0.0
        object.__setattr__(self, "scores", scores)

    @property
    def order(self) -> tuple[str, ...]:
        """The ranking flattened, best first (tied systems in leaderboard order)."""
        return tuple(s for group in self.ranking for s in group)

    @property
    def systems(self) -> tuple[str, ...]:
        """The systems ranked, in leaderboard order."""
        return tuple(self.scores.index)

    def position(self, system: str) -> int:
        """Competition position of `system`: 1 + the number of systems ranked strictly above it."""
        above = 0
        for group in self.ranking:
            if system in group:
                return above + 1
            above += len(group)
        from .errors import UnknownSystemError

        raise UnknownSystemError(system, self.order, f"the {self.rule} ranking")

    def to_frame(self) -> Any:
        """A table in ranking order: ``score``, ``position`` (1 + systems above) and ``tier``.

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
        import pandas as pd

        rows, positions, tiers = [], [], []
        above = 0
        for k, group in enumerate(self.ranking, start=1):
            for s in group:
                rows.append(s)
                positions.append(above + 1)
                tiers.append(k)
            above += len(group)
        return pd.DataFrame(
            {"score": self.scores.reindex(rows).to_numpy(), "position": positions, "tier": tiers},
            index=pd.Index(rows, dtype=object),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values (nested results and frames converted too)."""
        return {
            "rule": self.rule,
            "options": _detail_value(self.options),
            "scores": {str(k): jsonable(v) for k, v in self.scores.items()},
            "ranking": [list(g) for g in self.ranking],
            "winners": list(self.winners),
            "ties": self.ties,
            "missing": _detail_value(self.missing),
            "tie_break": jsonable(self.tie_break),
            "details": _detail_value(self.details),
        }


__all__ += ["RuleResult"]


# --- kemeny (issue 4): KemenyResult ---------------------------------------------------

# --- condorcet weights (issue 5): CondorcetWeightsResult ------------------------------

# --- missing scores (issue 6): imputation results --------------------------------------

# --- comparison (issue 7) --------------------------------------------------------------

from dataclasses import dataclass as _dataclass7


def _tiers_to_lists(tiers: Sequence[Sequence[str]]) -> list[list[str]]:
    return [list(group) for group in tiers]


def _frame_records(frame: Any) -> list[dict[str, Any]]:
    """Rows of a frame as JSON-able dicts, the index under its name (or ``"index"``)."""
    import pandas as pd

    name = frame.index.name or "index"
    records = []
    for key, row in frame.iterrows():
        record: dict[str, Any] = {name: jsonable(key)}
        for col, value in row.items():
            if value is pd.NA:
                value = None
            record[str(col)] = jsonable(value)
        records.append(record)
    return records


@_dataclass7(frozen=True, slots=True)
class RuleComparison:
    """Each rule's ranking measured against the exact Kemeny ranking (see :func:`consensus.compare_rules`).

    Attributes
    ----------
    systems : tuple of str
        The leaderboard's systems, in leaderboard order.
    rules : tuple of str
        The rules compared, in table order (``"kemeny"`` included).
    table : pandas.DataFrame
        One row per rule; columns documented in :func:`consensus.compare`.
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
    """

    systems: tuple[str, ...]
    rules: tuple[str, ...]
    table: Any
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "systems", tuple(self.systems))
        object.__setattr__(self, "rules", tuple(self.rules))
        object.__setattr__(self, "table", self.table.copy())
        object.__setattr__(
            self, "rankings", freeze_mapping({k: tuple(tuple(g) for g in v) for k, v in self.rankings.items()})
        )
        object.__setattr__(self, "results", freeze_mapping(self.results))
        object.__setattr__(self, "errors", freeze_mapping(self.errors))
        object.__setattr__(self, "ks", tuple(self.ks))

    def positions(self) -> Any:
        """Competition position (1 + systems strictly above) of each system under each rule that ran.

        Systems (rows) follow the Kemeny ranking; one column per rule.
        """
        import pandas as pd

        order = [s for group in self.rankings["kemeny"] for s in group]
        columns = {}
        for rule, tiers in self.rankings.items():
            pos, above = {}, 0
            for group in tiers:
                for s in group:
                    pos[s] = above + 1
                above += len(group)
            columns[rule] = [pos[s] for s in order]
        return pd.DataFrame(columns, index=pd.Index(order, dtype=object), dtype="int64")

    def rank_changes(self, baseline: str | None = None) -> Any:
        """Position change versus `baseline` (default :attr:`baseline`): positive = moved up.

        The arrows of Vote'n'Rank Table 3. Systems (rows) follow the Kemeny ranking.

        Raises
        ------
        InvalidOptionError
            If the baseline rule did not run (e.g. the mean with missing scores).
        """
        from .errors import InvalidOptionError

        base = self.baseline if baseline is None else baseline
        if base not in self.rankings:
            why = f": {self.errors[base]}" if base in self.errors else ""
            raise InvalidOptionError(f"no ranking for baseline {base!r}{why}")
        positions = self.positions()
        return positions.rsub(positions[base], axis=0).astype("int64")

    def to_frame(self) -> Any:
        """The comparison table (a copy)."""
        return self.table.copy()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values: rows of the table, rankings, errors, dispersion."""
        kem = self.kemeny
        return {
            "reference": "kemeny",
            "baseline": self.baseline,
            "ks": list(self.ks),
            "tie_penalty": self.tie_penalty,
            "condorcet_winner": self.condorcet_winner,
            "kemeny": {
                "ranking": list(kem.ranking),
                "objective": jsonable(kem.objective),
                "status": jsonable(getattr(kem, "status", None)),
            },
            "dispersion": jsonable(self.dispersion),
            "total_weight": jsonable(self.total_weight),
            "rows": _frame_records(self.table),
            "rankings": {rule: _tiers_to_lists(t) for rule, t in self.rankings.items()},
            "errors": dict(self.errors),
        }


@_dataclass7(frozen=True, slots=True)
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
        """Plain JSON-able values."""
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


@_dataclass7(frozen=True, slots=True)
class Check:
    """One self-check of a built-in example: a published (or brute-force) value against ours."""

    name: str
    expected: str
    actual: str
    ok: bool
    source: str

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "expected": self.expected, "actual": self.actual, "ok": self.ok,
                "source": self.source}


@_dataclass7(frozen=True, slots=True)
class Analysis:
    """Everything ``consensus analyze`` reports, computed once (see :func:`consensus.analyze`).

    Attributes
    ----------
    source : str
        Where the scores came from (a path or ``example:NAME``).
    leaderboard : Leaderboard
    majority : MajoritySummary
    comparison : RuleComparison
        Every rule against the exact Kemeny ranking (``comparison.kemeny``).
    prospective : pandas.DataFrame or None
        The systems that can become Condorcet winners under some task weights, with their
        maximal margins; None when it could not be computed (see `notes`).
    checks : tuple of Check
        Published values of a built-in example against the computed ones (empty otherwise).
    notes : tuple of str
        Sections that could not be computed, and why.
    """

    source: str
    leaderboard: Any
    majority: MajoritySummary
    comparison: RuleComparison
    prospective: Any
    checks: tuple[Check, ...] = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", tuple(self.checks))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def kemeny(self) -> Any:
        """The exact Kemeny result."""
        return self.comparison.kemeny

    @property
    def checks_ok(self) -> bool:
        """Whether every self-check passed (True when there is none)."""
        return all(c.ok for c in self.checks)


__all__ += ["RuleComparison", "MajoritySummary", "Check", "Analysis"]
