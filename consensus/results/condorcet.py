"""Condorcet-weight results: witness weights, constraints, certificates (:func:`consensus.condorcet_weights`)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import pandas as pd

from .base import Display, Displayed, freeze_mapping, jsonable, provided_by
from .preparation import Preparation

if TYPE_CHECKING:  # pragma: no cover
    from solvers import SolveStatus

__all__ = ["CondorcetCertificate", "CondorcetWeightsResult", "WeightConstraint"]


def _series(mapping: Mapping[str, float] | None, name: str) -> Any:
    """A fresh pandas Series from a stored mapping (None stays None)."""
    if mapping is None:
        return None
    return pd.Series(dict(mapping), dtype="float64", name=name).rename_axis(None)


def _short(text: str, width: int = 80) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _bound(value: float) -> float | None:
    return None if math.isinf(value) else float(value)


@dataclass(frozen=True, slots=True)
class WeightConstraint:
    """One linear condition on the task weights: ``lower <= sum_t coefficients[t] * w_t <= upper``.

    Built by :func:`consensus.condorcet_weights` from ``min_weight``, ``max_weight``,
    ``fixed``, ``group_bounds`` and ``order``; `label` names it in certificates
    (``"min_weight[qa]"``, ``"group[reasoning]"``, ``"order[qa>=nli]"``, ``"fixed[summ]"``).

    Attributes
    ----------
    label : str
        Names the constraint (and its multipliers, ``"label:lower"`` / ``"label:upper"``).
    coefficients : Mapping[str, float]
        Task -> coefficient (read-only); tasks not listed have coefficient 0.
    lower, upper : float, default=-inf, inf
        The bounds; an infinite bound is an open side.

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
        """``sum_t coefficients[t] * weights[t]`` (tasks missing from `weights` weigh 0).

        Parameters
        ----------
        weights : Mapping[str, float]
            Task -> weight.

        Returns
        -------
        float
            The constraint's left-hand side under `weights`.
        """
        return float(sum(a * float(weights.get(t, 0.0)) for t, a in self.coefficients.items()))

    def violation(self, weights: Mapping[str, float]) -> float:
        """How far `weights` are outside the bounds (0.0 when the constraint holds).

        Parameters
        ----------
        weights : Mapping[str, float]
            Task -> weight (tasks missing weigh 0).

        Returns
        -------
        float
            ``max(0, lower - activity, activity - upper)``.
        """
        act = self.activity(weights)
        return float(max(0.0, self.lower - act, act - self.upper))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            ``label``, ``coefficients`` (task -> coefficient), ``lower`` and ``upper``
            (None for an infinite bound).

        Examples
        --------
        >>> WeightConstraint("min_weight[qa]", {"qa": 1.0}, lower=0.1).to_dict()
        {'label': 'min_weight[qa]', 'coefficients': {'qa': 1.0}, 'lower': 0.1, 'upper': None}
        """
        return {
            "label": self.label,
            "coefficients": dict(self.coefficients),
            "lower": _bound(self.lower),
            "upper": _bound(self.upper),
        }


@dataclass(frozen=True, slots=True, repr=False)
class CondorcetCertificate(Displayed):
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

    Attributes
    ----------
    system : str
        The system that cannot win.
    kind : {"strict", "weak", "constraints"}
        Which statement the certificate proves (see above).
    rival_mix : Mapping[str, float]
        Rival -> ``y`` (read-only; empty for ``kind="constraints"``); see :attr:`rivals`.
    task_advantage : Mapping[str, float]
        Task -> ``advantage_k`` (read-only); see :attr:`advantage`.
    multipliers : Mapping[str, float]
        ``"label:lower"`` / ``"label:upper"`` -> ``mu >= 0`` of the weight constraints
        (read-only; empty without constraints).
    offset : float
        ``max_k (advantage_k - d_k)``.
    bound : float
        Upper bound on the smallest weighted margin of any admissible weighting.
    threshold : float
        What `bound` is compared with (see `kind`).
    statement : str
        The proof in one sentence.
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
        return _series(self.rival_mix, "rival_weight")

    @property
    def advantage(self) -> Any:
        """``sum_m' y_m' R(m, m', k)`` per task, as a Series."""
        return _series(self.task_advantage, "advantage")

    def summary(self) -> str:
        """The mix in a few characters: ``"C"``, ``"0.5 C + 0.5 D"``, or ``"contradictory constraints"``.

        Returns
        -------
        str
            The single rival's name, the rivals with their shares (3 significant digits)
            joined by ``" + "``, or ``"contradictory constraints"`` when the mix is empty.

        Examples
        --------
        >>> cert = CondorcetCertificate("A", "strict", {"C": 0.5, "D": 0.5}, {}, {}, 0.0, 0.0, 1e-9, "")
        >>> cert.summary()
        '0.5 C + 0.5 D'
        """
        if not self.rival_mix:
            return "contradictory constraints"
        if len(self.rival_mix) == 1:
            return next(iter(self.rival_mix))
        return " + ".join(f"{y:.3g} {s}" for s, y in self.rival_mix.items())

    def _display(self) -> Display:
        facts = [("rivals", _short(self.summary())), ("bound", f"{self.bound:.4g} (threshold {self.threshold:.3g})"),
                 ("statement", _short(self.statement, 160))]
        frame = pd.DataFrame({"advantage": self.advantage}) if self.task_advantage else None
        return f"CondorcetCertificate({self.system}, {self.kind})", facts, frame

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able values.

        Returns
        -------
        dict
            Every field: ``system``, ``kind``, ``rival_mix``, ``task_advantage``,
            ``multipliers``, ``offset``, ``bound``, ``threshold`` and ``statement``.
        """
        return {
            "system": self.system,
            "kind": self.kind,
            "rival_mix": jsonable(dict(self.rival_mix)),
            "task_advantage": jsonable(dict(self.task_advantage)),
            "multipliers": jsonable(dict(self.multipliers)),
            "offset": jsonable(self.offset),
            "bound": jsonable(self.bound),
            "threshold": jsonable(self.threshold),
            "statement": self.statement,
        }


@dataclass(frozen=True, slots=True, repr=False)
class CondorcetWeightsResult(Displayed):
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
    rule : str
        ``"condorcet"`` (:func:`consensus.condorcet_weights`), or the linear rule of
        :func:`consensus.winning_weights` (``"borda"``, ``"mean"``, ...): then "win" means
        "score highest under the rule", margins are score differences in the rule's own
        units (points, or score units for the mean), and `tol` / `min_margin` are relative to
        the largest point difference on the leaderboard (a power of two, ``rule_options["scale"]``).
    rule_options : Mapping[str, Any]
        The rule's options (``ties``, ``vector``, ``normalize``, ``missing``, ``scale``);
        empty for ``"condorcet"``.
    preparation : Preparation
        What the preparation stage did to the scores first (coverage, missing scores).
    """

    json_command: ClassVar[str] = "prospective"

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
    seconds: float = field(default=0.0, compare=False)
    rule: str = "condorcet"
    rule_options: Mapping[str, Any] = field(default_factory=dict)
    preparation: Preparation = Preparation()

    def __post_init__(self) -> None:
        object.__setattr__(self, "rule_options", freeze_mapping(dict(self.rule_options)))
        for name in ("weight_values", "rival_margins", "reference_values"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, freeze_mapping({k: float(v) for k, v in value.items()}))
        object.__setattr__(self, "binding", tuple(self.binding))
        object.__setattr__(self, "constraints", tuple(self.constraints))

    @property
    def weights(self) -> Any:
        """The witness weighting as a Series over tasks (sums to 1), or None when infeasible."""
        return _series(self.weight_values, "weight")

    @property
    def margins(self) -> Any:
        """Margin over each rival under the returned weights (Series), or None."""
        return _series(self.rival_margins, "margin")

    @property
    def reference(self) -> Any:
        """The reference weighting of `nearest_to` (Series), or None."""
        return _series(self.reference_values, "reference")

    @property
    def gap(self) -> float:
        """``bound - margin``: how far from proven optimal the reported margin can be."""
        return float(self.bound - self.margin)

    def verify(self, table: Any) -> bool:
        """Re-check the evidence against `table` without a solver.

        The weights (if any) must satisfy the constraints (within 1e-9) and make the system
        win in the weighted majority relation rebuilt from the scores; the certificate (if
        any) must prove its bound in exact rational arithmetic. See
        :func:`consensus.exact._certificates.verify_condorcet_result`.

        Parameters
        ----------
        table : Leaderboard
            The leaderboard the result was computed on.

        Returns
        -------
        bool
            True when every piece of evidence holds (a feasible result needs weights, an
            infeasible one a certificate).

        Raises
        ------
        UnknownTaskError
            If the weights name a task that is not in `table`.
        UnknownSystemError
            If the system of a feasible result is not in `table`.
        SolveFailedError
            If the certificate is malformed (a negative rival weight or multiplier, or a
            multiplier on an open side of a constraint).

        Examples
        --------
        >>> import consensus as cs
        >>> toy = cs.load_example("votenrank-toy")
        >>> cs.condorcet_weights(toy, "A").verify(toy)
        True
        """
        if self.rule != "condorcet":  # the rule's own margins: consensus.exact._winning, named, imported on use
            return bool(provided_by("consensus.exact._winning:verify_winning_result")(table, self))
        from ..exact._certificates import verify_condorcet_result

        return verify_condorcet_result(table, self)

    def claims(self) -> list[tuple[str, Any]]:
        """The systems this result puts forward, as ``(claim, systems)`` pairs: what
        :func:`consensus.board._coverage.coverage_flags` checks against each system's coverage.

        Returns
        -------
        list of (str, object)
            The system, when it can win under some weights; else none.
        """
        return [("can win under some weights", self.system)] if self.feasible else []

    def _display(self) -> Display:
        kind = "strict" if self.strict else "weak"
        verdict = "can" if self.feasible else "cannot"
        facts: list[tuple[str, Any]] = [("margin", f"{self.margin:.4g}")]
        if self.weight_values:
            top = sorted(self.weight_values.items(), key=lambda item: -item[1])[:5]
            facts.append(("weights", _short(", ".join(f"{t}={w:.3g}" for t, w in top if w > 0))))
        if self.certificate is not None:
            facts.append(("certificate", _short(self.certificate.summary())))
        facts.append(("status", f"{getattr(self.status, 'value', self.status)}, {self.method}"))
        if self.rule != "condorcet":
            what = f"score {'strictly ' if self.strict else ''}highest under {self.rule}"
            return f"WinningWeightsResult({self.system}): {verdict} {what}", facts, self.to_frame()
        return f"CondorcetWeightsResult({self.system}): {verdict} be a {kind} Condorcet winner", facts, self.to_frame()

    def to_frame(self) -> Any:
        """One row per task: ``weight`` (and ``reference``, ``advantage`` when present).

        Returns
        -------
        pandas.DataFrame
            Indexed by task; columns ``weight`` (the witness weights), ``reference`` (the
            `nearest_to` weights) and ``advantage`` (of the certificate), each only when
            present; an empty frame when none is.

        Examples
        --------
        >>> import consensus as cs
        >>> cs.condorcet_weights(cs.load_example("votenrank-toy"), "A", nearest_to=None).to_frame()["weight"].tolist()
        [1.0, 0.0, 0.0, 0.0, 0.0]
        """
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
        """Plain JSON-able values.

        Returns
        -------
        dict
            Every field except ``seconds``; the mappings under their property names
            (``weights``, ``margins``, ``reference``; None when absent), ``certificate``
            and ``constraints`` as their own ``to_dict()``, ``status`` as its value,
            ``objective`` as ``[sense, [tasks]]`` or None.
        """
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
            "rule": self.rule,
            "rule_options": jsonable(dict(self.rule_options)),
            "preparation": self.preparation.to_dict(),
        }
