"""Can a system score highest under Borda, the mean, Dowdall...? Weights, margins and proofs.

The question :func:`consensus.condorcet_weights` answers for the majority relation, asked of
the rules leaderboards actually publish. For every rule of
:data:`consensus.rules.linear.LINEAR_RULES` the score of system ``m`` under task weights ``w``
(``w >= 0``, summing to 1) is ``sum_k w_k points[m, k]`` with per-task points that do not
depend on ``w`` (positional points for the task's ranking, or the oriented score itself for
the mean). So system ``m`` scores at least ``eps`` above every rival ``m'`` exactly when
``sum_k w_k (points[m, k] - points[m', k]) >= eps``: the same max-min margin LP as the
Condorcet question, with point differences in place of the +1/0/-1 relation. The LP, the
second stage (nearest weights, objective), the Farkas certificates and their exact check
are shared with :mod:`consensus.exact._condorcet`.

Evidence
--------
- A returned weighting is re-checked by running the rule itself (:func:`consensus.rank` on
  the reweighted leaderboard, :func:`consensus.rules.linear.rule_scores`): the system's score
  minus each rival's is the margin reported.
- A certificate (a blend ``y`` of rivals, plus constraint multipliers) is checked in exact
  rational arithmetic from the points: ``sum_m' y_m' (points[m] - points[m'])`` per task,
  whose maximum bounds every weighting's smallest margin.

Units: margins are in the rule's units (Borda points, the mean's score units). The LP is
solved on points divided by a power of two ``scale`` (so point differences lie in [-1, 1],
an exact rescaling); `tol` and `min_margin` are in those scaled units, i.e. relative to the
largest point difference.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, sec. 3.2 (the Condorcet question) and appendix A.1 (the toy leaderboard).
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from .._docstrings import fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError
from ..hints import hinted, option
from ..missing._preparation import Prepared, board_of
from ..results import CondorcetWeightsResult, Preparation
from ..rules.linear import (
    LinearPoints,
    check_linear_rule,
    linear_points,
    rule_options,
    rule_scores,
)
from ._certificates import verify_condorcet_result
from ._condorcet import condorcet_weights, solve_one
from ._weight_options import (
    WEIGHT_DOCS,
    Constraints,
    Reference,
    prepared_weights,
    weight_options,
)

__all__ = ["winning_weights", "verify_winning_result"]


# ---------------------------------------------------------------------- shared with prospective
@dataclasses.dataclass(frozen=True)
class LinearSetup:
    """A linear rule's points on the treated leaderboard, scaled for the LP.

    Attributes
    ----------
    lp : LinearPoints
        The points and the leaderboard they are for.
    holes : Leaderboard
        The leaderboard whose missing cells ``scored_tasks_only`` reads.
    record : Preparation
        What the preparation stage did.
    scale : float
        A power of two at least the largest point difference on a task (1 if all points tie).
    scaled : numpy.ndarray
        ``lp.points / scale`` (exact).
    """

    lp: LinearPoints
    holes: Leaderboard
    record: Preparation
    scale: float
    scaled: np.ndarray

    def rule_margins(self, i: int) -> Any:
        """``w -> margins`` of system row `i` over the others, from the rule itself (scaled units).

        Parameters
        ----------
        i : int
            The system's row in ``lp.lb``.

        Returns
        -------
        callable
            ``margins(w)``: the rule's score of row `i` minus each other row's, divided by
            ``scale``, in row order without row `i`.
        """

        def margins(w: np.ndarray) -> np.ndarray:
            scores = rule_scores(self.lp, w)
            return np.delete(scores[i] - scores, i) / self.scale

        return margins

    def options(self) -> dict[str, Any]:
        """The rule options a result records.

        Returns
        -------
        dict
            The options of the points (``ties``, ``vector``, ``normalize``, ``missing``)
            and ``scale``.
        """
        return {**self.lp.options, "scale": self.scale}


def linear_setup(
    lb: Leaderboard | Prepared, rule: str, options: Mapping[str, Any], missing: object, min_coverage: float | None, context: str
) -> LinearSetup:
    """Treat `lb` for missing scores and compute the scaled points of linear rule `rule`.

    Parameters
    ----------
    lb : Leaderboard or Prepared
    rule : str
        A rule of :data:`~consensus.rules.linear.LINEAR_RULES` (checked here).
    options : Mapping[str, Any]
        The rule's own options (``ties``, ``vector``, ``normalize``), None values omitted.
    missing : {None, "drop_tasks", "drop_systems", "median", "impute"}
        ``"impute"`` (positional rules): expected points over the compatible rankings.
    min_coverage : float or None
    context : str
        The function name, for messages.

    Returns
    -------
    LinearSetup

    Raises
    ------
    InvalidOptionError
        Not a linear rule, a bad option, or missing scores the rule cannot use.
    """
    rule = check_linear_rule(rule, context)
    opts = rule_options(rule, options, context)
    ready = prepared_weights(
        lb, missing, min_coverage, context,
        impute="a mean needs numbers, not positions; use 'median', 'drop_tasks' or 'drop_systems'" if rule == "mean" else None,
        impute_treatment="expected points over the compatible complete rankings of each task",
    )
    treated, holes, record, impute = ready.leaderboard, ready.scored, ready.preparation, ready.impute
    lp = linear_points(treated, rule, opts, impute)
    spread = float((lp.points.max(axis=0) - lp.points.min(axis=0)).max()) if lp.points.size else 0.0
    if not math.isfinite(spread):
        raise InvalidOptionError(f"{context}: the {rule} points span more than float64 can hold")
    scale = 2.0 ** math.ceil(math.log2(spread)) if spread > 0 else 1.0
    scaled = lp.points / scale
    scaled.setflags(write=False)
    return LinearSetup(lp, holes, record, scale, scaled)


def rescaled(res: CondorcetWeightsResult, setup: LinearSetup, rule: str) -> CondorcetWeightsResult:
    """`res` (solved on scaled points) in the rule's own units, labelled with the rule.

    Parameters
    ----------
    res : CondorcetWeightsResult
    setup : LinearSetup
    rule : str

    Returns
    -------
    CondorcetWeightsResult
        Margins, bound, threshold and certificate multiplied by ``setup.scale`` (exact: a
        power of two).
    """
    s = setup.scale

    def times(x: float | None) -> float | None:
        return None if x is None else x * s

    cert = res.certificate
    if cert is not None and cert.kind != "constraints":
        cert = dataclasses.replace(
            cert, task_advantage={t: a * s for t, a in cert.task_advantage.items()},
            multipliers={k: m * s for k, m in cert.multipliers.items()},
            offset=cert.offset * s, bound=cert.bound * s, threshold=cert.threshold * s,
        )
    margins = {k: v * s for k, v in res.rival_margins.items()} if res.rival_margins is not None else None
    return dataclasses.replace(
        res, margin=res.margin * s, bound=res.bound * s, weights_margin=res.weights_margin * s, rival_margins=margins,
        threshold=times(res.threshold), certificate=cert, rule=rule, rule_options=setup.options(),
    )


# ---------------------------------------------------------------------- public API
@fill_doc(WEIGHT_DOCS)
def winning_weights(
    data: Leaderboard,
    system: str,
    *,
    rule: str = "borda",
    ties: Literal["average", "min", "max"] | None = None,
    vector: Sequence[float] | None = None,
    normalize: Literal["minmax", "zscore"] | None = None,
    strict: bool = True,
    nearest_to: Reference = "leaderboard",
    objective: tuple[Literal["min", "max"], str | Sequence[str]] | None = None,
    constraints: Constraints | Mapping[str, Any] | None = None,
    min_margin: float = 1e-6,
    solver: str = "highs",
    tol: float = 1e-9,
    scored_tasks_only: bool = True,
    missing: str | None = None,
    min_coverage: float | None = 0.0,
) -> CondorcetWeightsResult:
    """Find task weights under which `system` scores highest under `rule`, or prove there are none.

    Solves ``max eps`` subject to ``sum_k w_k (points[system, k] - points[m', k]) >= eps`` for
    every rival ``m'``, ``w >= 0``, ``sum w = 1`` and the optional constraints: the
    max-min score margin over rivals.

    Parameters
    ----------
    data : Leaderboard
    system : str
    rule : str, default="borda"
        ``"condorcet"`` (then this is :func:`condorcet_weights`; the rule options below must
        be unset) or a linear rule: ``"mean"``, ``"borda"``, ``"dowdall"``, ``"plurality"``,
        ``"scoring"``, ``"rank_complement"``, ``"top_ten"``, ``"eurovision"``.
    ties : {"average", "min", "max"}, optional
        Positional rules: the points of tied systems (default ``"average"``, as the rules).
    vector : sequence of float, optional
        ``rule="scoring"``: the points for positions 1, 2, ...
    normalize : {"minmax", "zscore"}, optional
        ``rule="mean"``: the weighted mean of per-task normalized scores
        (:func:`consensus.rules.linear.normalized_leaderboard`).
    strict : bool, default=True
        True: score strictly highest (``eps* > tol``); False: highest or tied (``eps* >= -tol``).
    nearest_to, objective, constraints, min_margin, solver
        As in :func:`condorcet_weights`.
    tol : float, default=1e-9
        Margin tolerance, relative to the largest point difference (see the module notes).
    scored_tasks_only : bool, default=True
        Weight 0 on the tasks `system` is not scored on (their points are filled by the
        missing-score policy, so a "win" would rest on no evaluation of it).
    missing : {None, "drop_tasks", "drop_systems", "median", "impute"}, optional
        None: the rule needs complete scores. ``"impute"`` (positional rules): the expected
        points over the complete rankings compatible with each task (Himmi et al.), as
        ``rank(..., missing="impute")``.
    {min_coverage}

    Returns
    -------
    CondorcetWeightsResult
        With ``rule`` set: ``feasible``, ``margin`` (the best smallest score margin, in the
        rule's units), ``bound`` (proven), ``weights`` (re-checked by running the rule),
        ``binding`` rivals, and, when infeasible, a ``certificate`` (a blend of rivals whose
        points are at least the system's on every task, on average; checked exactly).

    Raises
    ------
    UnknownSystemError, UnknownTaskError
        `system` or a constraint's task is not on the leaderboard.
    InvalidOptionError
        A rule that is not linear in the weights (the message says why), an option the
        rule does not take, missing scores the rule cannot use, or malformed constraints.
    SolverNotAvailableError
        `solver` is unknown or not installed here.
    SolveFailedError
        The solver failed, or its answer did not survive verification.

    See Also
    --------
    prospective : the same question for every system (``rule=``).
    weight_sensitivity : how far the official weights are from changing the winner.

    Examples
    --------
    The toy leaderboard of Vote'n'Rank appendix A.1: B wins Borda under uniform weights;
    A can win Borda only with weight on t1, where it is first:

    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")
    >>> res = cs.winning_weights(toy, "A", rule="borda")
    >>> res.feasible, round(res.margin, 6), res.weights.round(4).to_dict()   # margin in Borda points
    (True, 1.666667, {'t1': 0.2, 't2': 0.3143, 't3': 0.1714, 't4': 0.1143, 't5': 0.2})
    >>> res = cs.winning_weights(toy, "A", rule="borda", constraints=cs.Constraints(max_weight=0.2))   # uniform weights forced
    >>> res.feasible, res.verify(toy), res.certificate.summary()
    (False, True, 'B')
    >>> print(res.certificate.statement)  # doctest: +ELLIPSIS
    'A' can never score strictly highest: against 'B', the weight constraints ... above -0.6
    """
    start = time.perf_counter()
    checked = weight_options("winning_weights", data, rule=rule, ties=ties, vector=vector, normalize=normalize,
                             constraints=constraints, solver=solver, margins=(tol, min_margin),
                             nearest_to=nearest_to, objective=objective)
    if rule == "condorcet":
        if missing == "impute":
            raise InvalidOptionError(hinted("winning_weights: {} does not apply to rule='condorcet'",
                                            option("missing", "impute")))
        return condorcet_weights(
            data, system, strict=strict, nearest_to=nearest_to, objective=objective, constraints=constraints,
            min_margin=min_margin,
            solver=solver, tol=tol, scored_tasks_only=scored_tasks_only, missing=missing, min_coverage=min_coverage,
        )
    board_of(data, "winning_weights").system_index(system)
    setup = linear_setup(data, rule, checked.rule_options, missing, min_coverage, "winning_weights")
    return solve_one("winning_weights", setup.lp.lb, setup.holes, setup.record, system, checked, strict=strict,
                     scored_tasks_only=scored_tasks_only, objective=objective, start=start, setup=setup,
                     rescale=lambda res: rescaled(res, setup, rule))


def verify_winning_result(lb: Leaderboard, res: CondorcetWeightsResult) -> bool:
    """Re-check a :func:`winning_weights` result against `lb` without a solver.

    The points are recomputed from `lb` with the result's rule options; the weights (if
    any) must sum to 1, meet the constraints, and make the system win when the rule itself
    is run; the certificate (if any) must prove its bound in exact rational arithmetic.

    Parameters
    ----------
    lb : Leaderboard
        The leaderboard the result was computed on (before any missing-score treatment:
        the result's ``rule_options["missing"]`` is applied again).
    res : CondorcetWeightsResult
        A result with ``rule != "condorcet"``.

    Returns
    -------
    bool
        True when every piece of evidence holds.

    Raises
    ------
    InvalidOptionError
        The result's rule is not linear.
    """
    opts = {k: v for k, v in res.rule_options.items() if k in ("ties", "vector", "normalize") and v is not None}
    if isinstance(opts.get("vector"), list):
        opts["vector"] = tuple(opts["vector"])
    policy = res.rule_options.get("missing")
    missing = "impute" if policy == "impute" else None
    if missing is None and lb.has_missing:
        raise InvalidOptionError("verify: pass the leaderboard the result was solved on (after its missing-score treatment)")
    setup = linear_setup(lb, res.rule, opts, missing, 0, "verify")
    work = setup.lp.lb
    return verify_condorcet_result(work, res, setup.rule_margins(work.system_index(res.system)), setup.lp.points)

