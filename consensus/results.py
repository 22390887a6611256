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

from dataclasses import dataclass as _dataclass4
from typing import TYPE_CHECKING as _TYPE_CHECKING4

if _TYPE_CHECKING4:  # pragma: no cover
    import pandas as _pd4

    from solvers import SolveStatus as _SolveStatus4


@_dataclass4(frozen=True, slots=True)
class KemenyResult:
    """An exact (or, under a time limit, best-found) Kemeny ranking with its certificate.

    Attributes
    ----------
    ranking : tuple of str
        Systems, best first.
    objective : float
        Total weighted Kendall disagreement of `ranking` with the tasks (the sum, over
        pairs, of the task weight preferring the lower-ranked system; a tied task counts
        half), recomputed from the pairwise matrix by :func:`consensus.kemeny_objective`.
    lower_bound : float
        Proven lower bound on the optimal objective; equal to `objective` when optimal.
    status : SolveStatus
        ``OPTIMAL``, or ``TIME_LIMIT`` when the limit stopped the proof.
    method : str
        ``"ilp:highs"``, ``"ilp:cbc"``, ... when an integer program was solved;
        ``"brute_force"`` when every component was enumerated exhaustively;
        ``"decomposition"`` when the majority graph alone orders every system.
    unique : bool or None
        Whether `ranking` is the only optimal ranking; None when not checked.
    optima : tuple of tuple of str
        All optimal rankings (up to the cap of ``enumerate_optima``), else ``()``.
    optima_truncated : bool
        More optimal rankings exist than `optima` lists.
    components : tuple of int
        Sizes of the majority-graph components solved separately, in ranking order.
    blocks : tuple of tuple of str
        Their members, in ranking order (``components[i] == len(blocks[i])``).
    constraints_added : int
        3-cycle constraints added lazily.
    iterations : int
        LP and MIP solves (lazy-constraint rounds).
    seconds : float
        Wall-clock time of the call.
    time_limit : float or None
        The limit that was given.

    Examples
    --------
    >>> import consensus as cs
    >>> res = cs.kemeny(cs.load_example("votenrank-toy"))
    >>> res.ranking, res.objective, res.optimal, res.gap
    (('B', 'C', 'D', 'A'), 12.0, True, 0.0)
    """

    ranking: tuple[str, ...]
    objective: float
    lower_bound: float
    status: _SolveStatus4
    method: str
    unique: bool | None
    optima: tuple[tuple[str, ...], ...]
    optima_truncated: bool
    components: tuple[int, ...]
    blocks: tuple[tuple[str, ...], ...]
    constraints_added: int
    iterations: int
    seconds: float
    time_limit: float | None = None

    @property
    def optimal(self) -> bool:
        """Whether `ranking` is proven optimal."""
        return self.status.value == "optimal"

    @property
    def is_optimal(self) -> bool:
        """Alias of :attr:`optimal`."""
        return self.optimal

    @property
    def bound(self) -> float:
        """Alias of :attr:`lower_bound`."""
        return self.lower_bound

    @property
    def gap(self) -> float:
        """``objective - lower_bound`` (0 when optimal)."""
        return max(0.0, self.objective - self.lower_bound)

    @property
    def relative_gap(self) -> float:
        """`gap` divided by `objective` (0 when the objective is 0)."""
        return self.gap / self.objective if self.objective > 0 else 0.0

    def to_frame(self) -> _pd4.DataFrame:
        """One row per system: ``position`` (1 = best) and ``block`` (its component, 1-based)."""
        import pandas as pd

        block_of = {s: b for b, members in enumerate(self.blocks, start=1) for s in members}
        return pd.DataFrame(
            {"position": range(1, len(self.ranking) + 1), "block": [block_of[s] for s in self.ranking]},
            index=pd.Index(self.ranking, dtype=object, name="system"),
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values, including the derived `optimal`, `gap` and `relative_gap`."""
        return {
            "ranking": list(self.ranking),
            "objective": jsonable(self.objective),
            "lower_bound": jsonable(self.lower_bound),
            "gap": jsonable(self.gap),
            "relative_gap": jsonable(self.relative_gap),
            "status": jsonable(self.status),
            "optimal": self.optimal,
            "method": self.method,
            "unique": self.unique,
            "optima": [list(r) for r in self.optima],
            "optima_truncated": self.optima_truncated,
            "components": list(self.components),
            "blocks": [list(b) for b in self.blocks],
            "constraints_added": self.constraints_added,
            "iterations": self.iterations,
            "seconds": jsonable(self.seconds),
            "time_limit": jsonable(self.time_limit),
        }


__all__ += ["KemenyResult"]


# --- condorcet weights (issue 5): CondorcetWeightsResult ------------------------------

from dataclasses import dataclass as _dataclass5
from dataclasses import field as _field5
from typing import TYPE_CHECKING as _TYPE_CHECKING5

if _TYPE_CHECKING5:  # pragma: no cover
    from solvers import SolveStatus


def _series5(mapping: Mapping[str, float] | None, name: str) -> Any:
    """A fresh pandas Series from a stored mapping (None stays None)."""
    import pandas as pd

    if mapping is None:
        return None
    return pd.Series(dict(mapping), dtype="float64", name=name).rename_axis(None)


def _bound5(value: float) -> float | None:
    return None if math.isinf(value) else float(value)


@_dataclass5(frozen=True, slots=True)
class WeightConstraint:
    """One linear condition on the task weights: ``lower <= sum_t coefficients[t] * w_t <= upper``.

    Built by :func:`consensus.condorcet_weights` from ``min_weight``, ``max_weight``,
    ``fixed``, ``group_bounds`` and ``order``; `label` names it in certificates
    (``"min_weight[qa]"``, ``"group[reasoning]"``, ``"order[qa>=nli]"``, ``"fixed[summ]"``).

    Examples
    --------
    >>> c = WeightConstraint("order[a>=b]", {"a": 1.0, "b": -1.0}, lower=0.0)
    >>> c.activity({"a": 0.5, "b": 0.3}), c.violation({"a": 0.2, "b": 0.3})
    (0.2, 0.09999999999999998)
    """

    label: str
    coefficients: Mapping[str, float]
    lower: float = -math.inf
    upper: float = math.inf

    def __post_init__(self) -> None:
        object.__setattr__(self, "coefficients", freeze_mapping({str(t): float(a) for t, a in self.coefficients.items()}))
        object.__setattr__(self, "lower", float(self.lower))
        object.__setattr__(self, "upper", float(self.upper))

    def activity(self, weights: Mapping[str, float]) -> float:
        """``sum_t coefficients[t] * weights[t]`` (tasks missing from `weights` weigh 0)."""
        return float(sum(a * float(weights.get(t, 0.0)) for t, a in self.coefficients.items()))

    def violation(self, weights: Mapping[str, float]) -> float:
        """How far `weights` are outside the bounds (0.0 when the constraint holds)."""
        act = self.activity(weights)
        return float(max(0.0, self.lower - act, act - self.upper))

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "coefficients": dict(self.coefficients),
            "lower": _bound5(self.lower),
            "upper": _bound5(self.upper),
        }


@_dataclass5(frozen=True, slots=True)
class CondorcetCertificate:
    """Why a system can never be the Condorcet winner: a blend of rivals, checkable by hand.

    With ``y`` = :attr:`rivals` (a probability mix over the other systems) and ``R(m, m', k)``
    the +1/-1/0 comparison of eq. (1) of Rofin et al. 2023, :attr:`advantage` is
    ``sum_m' y_m' R(m, m', k)`` for every task ``k``. For any weighting ``w`` the smallest
    weighted margin is at most the y-average of the margins, ``sum_k w_k advantage_k``,
    which is at most ``max_k advantage_k`` (without constraints, :attr:`bound`).

    - ``kind="strict"``: ``bound <= threshold`` (= `tol`, default 1e-9; typically the bound
      is exactly 0 or negative): no weighting lets the system beat every rival.
    - ``kind="weak"``: ``bound < threshold`` (= ``-tol``): every weighting leaves the system
      losing to some rival.
    - ``kind="constraints"``: no rivals; the weight constraints alone are contradictory:
      ``bound < threshold * sum(multipliers)`` (``threshold = -1e-9``; the multipliers sum to
      1), so no weighting meets them even within 1e-9 per constraint.

    A Pareto-dominated system's certificate is its dominator (``y = 1`` on it): it is at
    least as good on every task both are scored on, so ``advantage <= 0`` everywhere.

    With user constraints the bound also uses their :attr:`multipliers` (``"label:lower"`` /
    ``"label:upper"`` -> ``mu >= 0``): with ``d_k = sum mu * (+-coefficient_k)`` (``+`` for
    upper sides), ``offset = max_k (advantage_k - d_k)`` and
    ``bound = offset + sum mu_upper * upper - sum mu_lower * lower``; any admissible weighting
    has ``sum_k w_k advantage_k <= bound``. Every certificate is checked in exact rational
    arithmetic before it is returned (:meth:`CondorcetWeightsResult.verify` re-checks it).
    """

    system: str
    kind: str
    rival_mix: Mapping[str, float]
    task_advantage: Mapping[str, float]
    multipliers: Mapping[str, float]
    offset: float
    bound: float
    threshold: float
    statement: str

    def __post_init__(self) -> None:
        for name in ("rival_mix", "task_advantage", "multipliers"):
            object.__setattr__(self, name, freeze_mapping(getattr(self, name)))

    @property
    def rivals(self) -> Any:
        """The rival mix ``y`` as a Series (rivals with ``y > 0``, system order)."""
        return _series5(self.rival_mix, "rival_weight")

    @property
    def advantage(self) -> Any:
        """``sum_m' y_m' R(m, m', k)`` per task, as a Series."""
        return _series5(self.task_advantage, "advantage")

    def summary(self) -> str:
        """The mix in a few characters: ``"C"``, ``"0.5 C + 0.5 D"``, or ``"constraints"``."""
        if not self.rival_mix:
            return "contradictory constraints"
        if len(self.rival_mix) == 1:
            return next(iter(self.rival_mix))
        return " + ".join(f"{y:.3g} {s}" for s, y in self.rival_mix.items())

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "kind": self.kind,
            "rivals": jsonable(dict(self.rival_mix)),
            "advantage": jsonable(dict(self.task_advantage)),
            "multipliers": jsonable(dict(self.multipliers)),
            "offset": jsonable(self.offset),
            "bound": jsonable(self.bound),
            "threshold": jsonable(self.threshold),
            "statement": self.statement,
        }


@_dataclass5(frozen=True, slots=True)
class CondorcetWeightsResult:
    """Can `system` be the Condorcet winner under some task weights? The answer with its evidence.

    Attributes
    ----------
    system : str
    feasible : bool
        Strict (``strict=True``): some admissible weighting makes the system beat every rival
        (smallest margin ``> tol``). Weak: some weighting lets it beat or tie every rival
        (``>= -tol``), the paper's "prospective" condition.
    strict : bool
    margin : float
        The best achievable smallest weighted margin ``eps* = max_w min_m' sum_k w_k R(m, m', k)``
        over admissible weightings (weights sum to 1, so margins lie in [-1, 1]); it is the
        smallest margin of the max-margin weights, recomputed. NaN if the constraints are
        contradictory.
    bound : float
        Proven upper bound on ``eps*`` from the dual certificate; ``bound - margin`` is the
        solver's optimality gap (about 1e-16).
    weight_values : Mapping[str, float] or None
        The witness weighting (sums to 1), see :attr:`weights`. None when infeasible.
    weights_margin : float
        Smallest margin under the returned weights (NaN without weights). Equal to `margin`
        in the default max-margin mode; ``>= threshold`` with `nearest_to` or `objective`.
    rival_margins : Mapping[str, float] or None
        Margin over each rival under the returned weights, see :attr:`margins`.
    binding : tuple of str
        Rivals whose margin constraint is tight at the returned weights (margin within 1e-9
        of `margin` in max-margin mode, of `threshold` otherwise).
    certificate : CondorcetCertificate or None
        When infeasible: the proof (a rival mix, and constraint multipliers if any).
    reference_values : Mapping[str, float] or None
        The reference weighting of `nearest_to`, see :attr:`reference`.
    distance : float or None
        L1 distance from the reference to the returned weights (`nearest_to` only).
    objective : (sense, tasks) or None
    objective_value : float or None
        Total weight of the objective's tasks under the returned weights.
    constraints : tuple of WeightConstraint
    status : SolveStatus
        ``OPTIMAL``, or ``INFEASIBLE`` when the constraints are contradictory.
    method : str
        ``"lp:highs"``, ``"highspy"``, ``"shortcut"`` (decided without an LP), plus
        ``"+nearest"`` / ``"+reference"`` / ``"+objective"`` for the second stage.
    tol, min_margin : float
    threshold : float or None
        The smallest margin the returned weights had to reach in `nearest_to` / `objective`
        mode (weak: 0; strict: ``min(min_margin, margin)``).
    explanation : str
        One sentence for humans.
    seconds : float
    """

    system: str
    feasible: bool
    strict: bool
    margin: float
    bound: float
    weight_values: Mapping[str, float] | None
    weights_margin: float
    rival_margins: Mapping[str, float] | None
    binding: tuple[str, ...]
    certificate: CondorcetCertificate | None
    reference_values: Mapping[str, float] | None
    distance: float | None
    objective: tuple[str, tuple[str, ...]] | None
    objective_value: float | None
    constraints: tuple[WeightConstraint, ...]
    status: SolveStatus
    method: str
    tol: float
    min_margin: float
    threshold: float | None
    explanation: str
    seconds: float = _field5(default=0.0, compare=False)

    def __post_init__(self) -> None:
        for name in ("weight_values", "rival_margins", "reference_values"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, freeze_mapping({k: float(v) for k, v in value.items()}))
        object.__setattr__(self, "binding", tuple(self.binding))
        object.__setattr__(self, "constraints", tuple(self.constraints))

    @property
    def weights(self) -> Any:
        """The witness weighting as a Series over tasks (sums to 1), or None when infeasible."""
        return _series5(self.weight_values, "weight")

    @property
    def margins(self) -> Any:
        """Margin over each rival under the returned weights (Series), or None."""
        return _series5(self.rival_margins, "margin")

    @property
    def reference(self) -> Any:
        """The reference weighting of `nearest_to` (Series), or None."""
        return _series5(self.reference_values, "reference")

    @property
    def gap(self) -> float:
        """``bound - margin``: how far from proven optimal the reported margin can be."""
        return float(self.bound - self.margin)

    def verify(self, table: Any) -> bool:
        """Re-check the evidence against `table` without a solver.

        The weights (if any) must satisfy the constraints (within 1e-9) and make the system
        win in the weighted majority relation rebuilt from the scores; the certificate (if
        any) must prove its bound in exact rational arithmetic.
        """
        from .condorcet import _verify_result

        return _verify_result(table, self)

    def to_frame(self) -> Any:
        """One row per task: ``weight`` (and ``reference``, ``advantage`` when present)."""
        import pandas as pd

        columns: dict[str, Any] = {}
        if self.weight_values is not None:
            columns["weight"] = self.weights
        if self.reference_values is not None:
            columns["reference"] = self.reference
        if self.certificate is not None and self.certificate.task_advantage:
            columns["advantage"] = self.certificate.advantage
        if not columns:
            return pd.DataFrame(index=pd.Index([], dtype=object))
        return pd.DataFrame(columns)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "feasible": self.feasible,
            "strict": self.strict,
            "margin": jsonable(self.margin),
            "bound": jsonable(self.bound),
            "weights": jsonable(dict(self.weight_values)) if self.weight_values is not None else None,
            "weights_margin": jsonable(self.weights_margin),
            "margins": jsonable(dict(self.rival_margins)) if self.rival_margins is not None else None,
            "binding": list(self.binding),
            "certificate": self.certificate.to_dict() if self.certificate is not None else None,
            "reference": jsonable(dict(self.reference_values)) if self.reference_values is not None else None,
            "distance": jsonable(self.distance),
            "objective": [self.objective[0], list(self.objective[1])] if self.objective else None,
            "objective_value": jsonable(self.objective_value),
            "constraints": [c.to_dict() for c in self.constraints],
            "status": jsonable(self.status),
            "method": self.method,
            "tol": self.tol,
            "min_margin": self.min_margin,
            "threshold": jsonable(self.threshold),
            "explanation": self.explanation,
        }


__all__ += ["WeightConstraint", "CondorcetCertificate", "CondorcetWeightsResult"]

# --- missing scores (issue 6): imputation results --------------------------------------

import dataclasses as _dataclasses


def _ranking_table(ranking: tuple[tuple[str, ...], ...], scores: Any) -> Any:
    """Rows in ranking order: score, position (1 + systems above) and tier."""
    import pandas as pd

    rows, positions, tiers = [], [], []
    above = 0
    for k, group in enumerate(ranking, start=1):
        for s in group:
            rows.append(s)
            positions.append(above + 1)
            tiers.append(k)
        above += len(group)
    return pd.DataFrame(
        {"score": scores.reindex(rows).to_numpy(), "position": positions, "tier": tiers},
        index=pd.Index(rows, dtype=object),
    )


def _readonly(array: Any, dtype: Any = None) -> Any:
    import numpy as np

    out = np.array(array, dtype=dtype, copy=True)
    if out.dtype.kind == "f":
        out[out == 0] = 0.0  # no -0.0
    out.flags.writeable = False
    return out


@_dataclasses.dataclass(frozen=True, slots=True)
class ImputationResult:
    """The imputed pairwise matrix of a leaderboard with missing scores and its Borda ranking.

    Returned by :func:`consensus.impute_pairwise` (and :func:`consensus.sigma_l`,
    :func:`consensus.sigma_2l`).

    Attributes
    ----------
    method : str
        ``"sigma_l"`` (one level) or ``"sigma_2l"`` (two levels).
    levels : int
        1 or 2.
    matrix : PairwiseMatrix
        ``source="imputed"``. Levels 1: ``wins`` = the weighted sum of the compatible-ranking
        matrices M, ``counts`` = z (tasks or instances scoring both systems). Levels 2:
        ``wins`` = pairwise matrix of the per-task rankings, ``counts`` = tasks with a direct
        comparison. ``ties`` is zero: tied and unscored pairs are already split in ``wins``.
    scores : pandas.Series
        Borda score ``sum_j wins[i, j]`` per system, in input order.
    ranking : tuple of tuple of str
        Tie groups, best first (within a group, input order).
    n_rankings : int
        Partial rankings summed (levels 1: tasks or instances) or task rankings (levels 2).
    task_scores : pandas.DataFrame or None
        Levels 2: Borda score of each system on each task (row sums of the task's summed
        matrix, unweighted), systems x tasks.
    """

    method: str
    levels: int
    matrix: Any  # PairwiseMatrix
    scores: Any  # pandas.Series
    ranking: tuple[tuple[str, ...], ...]
    n_rankings: int
    task_scores: Any = None  # pandas.DataFrame | None

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        scores = self.scores.copy()
        scores[scores == 0] = 0.0
        object.__setattr__(self, "scores", scores)
        if self.task_scores is not None:
            object.__setattr__(self, "task_scores", self.task_scores.copy())

    @property
    def systems(self) -> tuple[str, ...]:
        """Systems in input order."""
        return tuple(self.matrix.systems)

    @property
    def order(self) -> tuple[str, ...]:
        """The ranking flattened, best first (tied systems in input order; see ``ranking``)."""
        return tuple(s for group in self.ranking for s in group)

    @property
    def winners(self) -> tuple[str, ...]:
        """The first tie group."""
        return self.ranking[0]

    @property
    def counts(self) -> Any:
        """``matrix.counts``: direct comparisons per pair."""
        return self.matrix.counts

    def to_pairwise(self) -> Any:
        """The imputed :class:`PairwiseMatrix` (so ``kemeny(result)`` works)."""
        return self.matrix

    def to_frame(self) -> Any:
        """A table in ranking order: ``score``, ``position`` (1 + systems above) and ``tier``.

        Examples
        --------
        >>> import consensus as cs
        >>> cs.impute_pairwise(cs.load_example("votenrank-toy")).to_frame()
           score  position  tier
        B    9.0         1     1
        C    8.0         2     2
        D    7.0         3     3
        A    6.0         4     4
        """
        return _ranking_table(self.ranking, self.scores)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values."""
        out = {
            "method": self.method,
            "levels": self.levels,
            "scores": {str(k): jsonable(v) for k, v in self.scores.items()},
            "ranking": [list(g) for g in self.ranking],
            "n_rankings": self.n_rankings,
            "systems": list(self.systems),
            "wins": jsonable(self.matrix.wins),
            "counts": jsonable(self.matrix.counts),
        }
        if self.task_scores is not None:
            out["task_scores"] = {str(t): jsonable(self.task_scores[t].to_numpy()) for t in self.task_scores.columns}
        return out


@_dataclasses.dataclass(frozen=True, slots=True)
class MeanBaselineResult:
    """The mean baseline ``sigma_mu`` that ignores missing scores (Himmi et al. sec. 2.4).

    Attributes
    ----------
    scores : pandas.Series
        Weighted mean of each system's available (oriented) scores, input order.
    ranking : tuple of tuple of str
        Tie groups, best first.
    coverage : pandas.Series
        Share of the total task weight on which each system is scored.
    """

    scores: Any
    ranking: tuple[tuple[str, ...], ...]
    coverage: Any
    method: str = "mean"

    def __post_init__(self) -> None:
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        object.__setattr__(self, "scores", self.scores.copy())
        object.__setattr__(self, "coverage", self.coverage.copy())

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(self.scores.index)

    @property
    def order(self) -> tuple[str, ...]:
        """The ranking flattened, best first (tied systems in input order)."""
        return tuple(s for group in self.ranking for s in group)

    def to_frame(self) -> Any:
        """``score``, ``position``, ``tier`` and ``coverage`` in ranking order."""
        table = _ranking_table(self.ranking, self.scores)
        table["coverage"] = self.coverage.reindex(table.index).to_numpy()
        return table

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "scores": {str(k): jsonable(v) for k, v in self.scores.items()},
            "ranking": [list(g) for g in self.ranking],
            "coverage": {str(k): jsonable(v) for k, v in self.coverage.items()},
        }


_CONFIDENCE_MATRICES = ("estimate", "half_width", "lower", "upper", "confident", "counts", "distance")


@_dataclasses.dataclass(frozen=True, slots=True)
class PairwiseConfidence:
    """Hoeffding confidence on each pairwise comparison (Himmi et al. sec. 2.3, Figure 6).

    Every matrix is indexed by :attr:`order` (the ``sigma_l`` ranking, best first), so the
    upper triangle holds "a better-ranked system against a worse-ranked one", as in the
    paper's heatmap.

    Attributes
    ----------
    order : tuple of str
        Systems in ``sigma_l`` order (ties in input order; see ``ranking``).
    ranking : tuple of tuple of str
        The ``sigma_l`` tie groups.
    estimate : ndarray (n, n)
        ``p_ij``: share of the direct comparisons won by ``i`` (ties 1/2); NaN if none.
    half_width : ndarray (n, n)
        ``c_ij = sqrt(-log(delta) / (2 z_ij))``; ``inf`` if never compared.
    counts : ndarray (n, n)
        ``z_ij``: number of tasks or instances scoring both.
    delta : float
        Error level of each one-sided claim.
    """

    order: tuple[str, ...]
    ranking: tuple[tuple[str, ...], ...]
    estimate: Any
    half_width: Any
    counts: Any
    delta: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "order", tuple(self.order))
        object.__setattr__(self, "ranking", tuple(tuple(g) for g in self.ranking))
        for name in ("estimate", "half_width", "counts"):
            object.__setattr__(self, name, _readonly(getattr(self, name), float))

    @property
    def lower(self) -> Any:
        """``max(estimate - half_width, 0)`` (NaN on the diagonal and for pairs never compared)."""
        import numpy as np

        with np.errstate(invalid="ignore"):
            return np.maximum(self.estimate - self.half_width, 0.0)

    @property
    def upper(self) -> Any:
        """``min(estimate + half_width, 1)`` (a share never exceeds 1)."""
        import numpy as np

        with np.errstate(invalid="ignore"):
            return np.minimum(self.estimate + self.half_width, 1.0)

    @property
    def confident(self) -> Any:
        """Boolean matrix: ``i`` beats ``j`` with confidence ``1 - delta`` (``lower > 1/2``)."""
        import numpy as np

        with np.errstate(invalid="ignore"):
            return np.nan_to_num(self.lower, nan=-np.inf) > 0.5

    @property
    def distance(self) -> Any:
        """How far the interval lies above 1/2 (``lower - 1/2`` where confident, else 0): the
        colour scale of the paper's Figure 6."""
        import numpy as np

        return np.where(self.confident, self.lower - 0.5, 0.0)

    @property
    def n_confident(self) -> int:
        """Number of ordered pairs ``(i, j)`` where ``i`` confidently beats ``j``."""
        return int(self.confident.sum())

    def matrix(self, what: str = "confident") -> Any:
        """One matrix as a frame labelled by :attr:`order`: ``estimate``, ``half_width``,
        ``lower``, ``upper``, ``confident``, ``counts`` or ``distance``."""
        import pandas as pd

        if what not in _CONFIDENCE_MATRICES:
            from .errors import InvalidOptionError

            raise InvalidOptionError(f"unknown matrix {what!r}; use one of {', '.join(_CONFIDENCE_MATRICES)}")
        idx = pd.Index(self.order, dtype=object)
        return pd.DataFrame(getattr(self, what), index=idx, columns=idx)

    def to_frame(self) -> Any:
        """One row per ordered pair ``(system, other)``, ``system != other``, in :attr:`order`:
        ``estimate``, ``half_width``, ``lower``, ``upper``, ``comparisons`` and ``beats``
        (``i`` beats ``j`` with confidence ``1 - delta``)."""
        import numpy as np
        import pandas as pd

        n = len(self.order)
        i, j = np.nonzero(~np.eye(n, dtype=bool))
        return pd.DataFrame(
            {
                "system": [self.order[a] for a in i],
                "other": [self.order[b] for b in j],
                "estimate": self.estimate[i, j],
                "half_width": self.half_width[i, j],
                "lower": self.lower[i, j],
                "upper": self.upper[i, j],
                "comparisons": self.counts[i, j].astype(np.int64),
                "beats": self.confident[i, j],
            }
        )

    def to_dict(self) -> dict[str, Any]:
        import numpy as np

        half = np.where(np.isinf(self.half_width), np.nan, self.half_width)
        return {
            "order": list(self.order),
            "ranking": [list(g) for g in self.ranking],
            "delta": self.delta,
            "estimate": jsonable(self.estimate),
            "half_width": jsonable(half),
            "counts": jsonable(self.counts),
            "confident": jsonable(self.confident),
        }


@_dataclasses.dataclass(frozen=True, slots=True)
class RobustnessResult:
    """Kendall tau between rankings on complete and on thinned scores (Himmi et al. sec. 3).

    Attributes
    ----------
    etas : tuple of float
        Shares of scores removed.
    methods : tuple of str
        ``"sigma_l"``, ``"mean"`` (and ``"sigma_2l"`` on instance-level data).
    taus : ndarray (n_etas, n_seeds, n_methods)
        Kendall tau-b between each method's ranking with and without the removed scores.
    removed : ndarray (n_etas, n_seeds)
        Share of scores actually removed (a removal that would leave a system, task or
        instance without any score is skipped).
    parameters : Mapping[str, Any]
        The generator and removal settings.
    """

    etas: tuple[float, ...]
    methods: tuple[str, ...]
    taus: Any
    removed: Any
    parameters: Mapping[str, Any]

    def __post_init__(self) -> None:
        object.__setattr__(self, "etas", tuple(float(e) for e in self.etas))
        object.__setattr__(self, "methods", tuple(self.methods))
        object.__setattr__(self, "taus", _readonly(self.taus, float))
        object.__setattr__(self, "removed", _readonly(self.removed, float))
        object.__setattr__(self, "parameters", freeze_mapping(self.parameters))

    @property
    def n_seeds(self) -> int:
        return int(self.taus.shape[1])

    def mean_tau(self, method: str) -> Any:
        """Mean tau over seeds, one value per eta."""
        if method not in self.methods:
            from .errors import InvalidOptionError

            raise InvalidOptionError(f"unknown method {method!r}; this result has {', '.join(self.methods)}")
        return self.taus[:, :, self.methods.index(method)].mean(axis=1)

    def summary(self) -> Any:
        """Mean and standard deviation of tau over seeds: one row per eta."""
        import pandas as pd

        data: dict[str, Any] = {}
        for k, m in enumerate(self.methods):
            data[m] = self.taus[:, :, k].mean(axis=1)
        for k, m in enumerate(self.methods):
            data[f"{m}_std"] = self.taus[:, :, k].std(axis=1)
        data["removed"] = self.removed.mean(axis=1)
        return pd.DataFrame(data, index=pd.Index(self.etas, name="eta"))

    def to_frame(self) -> Any:
        """One row per (eta, seed, method): ``eta``, ``seed``, ``method``, ``tau``, ``removed``."""
        import numpy as np
        import pandas as pd

        e, s, m = np.meshgrid(
            np.arange(len(self.etas)), np.arange(self.n_seeds), np.arange(len(self.methods)), indexing="ij"
        )
        return pd.DataFrame(
            {
                "eta": np.asarray(self.etas)[e.ravel()],
                "seed": s.ravel(),
                "method": np.asarray(self.methods, dtype=object)[m.ravel()],
                "tau": self.taus.ravel(),
                "removed": self.removed[e.ravel(), s.ravel()],
            }
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "etas": list(self.etas),
            "methods": list(self.methods),
            "taus": jsonable(self.taus),
            "removed": jsonable(self.removed),
            "parameters": jsonable(dict(self.parameters)),
        }


__all__ += ["ImputationResult", "MeanBaselineResult", "PairwiseConfidence", "RobustnessResult"]


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
