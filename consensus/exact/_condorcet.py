"""Can a system be the Condorcet winner under some task weights? Weights, margins and proofs.

Rofin et al. 2023 (Vote'n'Rank, section 3.2) call a system *prospective* when some task
weighting makes it the Condorcet winner, and decide it with a linear program over the
weights. :func:`condorcet_weights` answers that question for one system, with its evidence:
a witness weighting (verified in the package's own weighted majority relation) or a
certificate (a blend of rivals, verified in exact arithmetic). :func:`prospective` asks it
for every system of a leaderboard. The LPs live in :mod:`solvers.weights_lp`.

Notation: ``R(m, m', k)`` is +1 when ``m`` scores strictly better than ``m'`` on task ``k``,
-1 when worse, 0 when they tie or either score is missing (eq. 1 of the paper; oriented
scores, so lower-is-better tasks count the right way). With weights ``w >= 0`` summing to 1,
``sum_k w_k R(m, m', k)`` is the weighted margin of ``m`` over ``m'``: exactly the margin
of :func:`consensus.pairwise` on ``lb.with_weights(w)``.

References
----------
.. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
   EACL 2023, section 3.2, eq. (1)-(2), appendix A.1.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

import numpy as np

from solvers import SolveStatus
from solvers.weights_lp import (
    HighsWeightsLP,
    WeightConstraints,
    WeightsLPResult,
    certificate_bound,
    max_margin_lp,
    nearest_weights_lp,
    optimize_weights_lp,
    relation_matrix,
)

from .._docstrings import fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import (
    InvalidOptionError,
    SolveFailedError,
)
from ..hints import hinted, option
from ..missing._preparation import board_of
from ..results import (
    CondorcetCertificate,
    CondorcetWeightsResult,
    Preparation,
    WeightConstraint,
)
from ._certificates import (
    CONSTRAINT_TOL,
    Labels,
    certificate_holds,
    exact_bound,
    margins_from_pairwise,
    row_margins,
    weighted_margins,
    wins_all,
)
from ._evidence import make_certificate, single_rival
from ._solver_choice import check_solver, solver_errors
from ._weight_options import (
    WEIGHT_DOCS,
    Constraints,
    Reference,
    WeightOptions,
    objective_tasks,
    prepared_weights,
    reference_weights,
    solver_constraints,
    unscored_constraints,
    weight_options,
)

__all__ = ["condorcet_weights", "weighted_margins"]

#: A rival binds when its margin is within this of the LP's margin level.
BINDING_TOL = 1e-9

# ---------------------------------------------------------------------- the core
class Engine:
    """Which LP code solves: one fresh model per LP (any backend) or the batch path (HiGHS, lazy rows)."""

    def __init__(
        self, lb: Leaderboard, cons: WeightConstraints | None, solver: str, method: str, shortcut: bool = True
    ) -> None:
        self.solver = check_solver(solver)
        self.cons = cons
        self.fast = HighsWeightsLP(lb.n_tasks, cons) if method == "highspy" else None
        self.shortcut = shortcut  # the +-1 shortcuts hold for the majority relation only, not for points

    def max_margin(self, R: np.ndarray) -> WeightsLPResult:
        """The max-margin LP for one system's comparison matrix `R` (rivals x tasks).

        Parameters
        ----------
        R : ndarray
            ``R[j, k]`` = +1 / 0 / -1: the system against rival ``j`` on task ``k``.

        Returns
        -------
        WeightsLPResult
        """
        if self.fast is not None:
            return self.fast.max_margin(R, shortcut=self.shortcut)
        return max_margin_lp(R, constraints=self.cons, backend=self.solver, slack=CONSTRAINT_TOL, shortcut=self.shortcut)

    def nearest(self, R: np.ndarray, ref: np.ndarray, threshold: float) -> WeightsLPResult:
        """The weights nearest to `ref` (L1) whose smallest margin reaches `threshold`.

        Parameters
        ----------
        R : ndarray
            The comparison matrix (rivals x tasks).
        ref : ndarray
            The reference weighting (sums to 1).
        threshold : float
            The smallest margin the weights must reach.

        Returns
        -------
        WeightsLPResult
        """
        if self.fast is not None:
            return self.fast.nearest(R, ref, threshold=threshold)
        return nearest_weights_lp(R, ref, threshold=threshold, constraints=self.cons, backend=self.solver)

    def optimize(self, R: np.ndarray, coefs: np.ndarray, maximize: bool, threshold: float) -> WeightsLPResult:
        """The weights optimizing ``coefs @ w`` among those whose smallest margin reaches `threshold`.

        Parameters
        ----------
        R : ndarray
            The comparison matrix (rivals x tasks).
        coefs : ndarray
            The objective's coefficient per task (1 for the objective's tasks, else 0).
        maximize : bool
            Maximize (True) or minimize the objective.
        threshold : float
            The smallest margin the weights must reach.

        Returns
        -------
        WeightsLPResult
        """
        if self.fast is not None:
            return self.fast.optimize(R, coefs, maximize=maximize, threshold=threshold)
        return optimize_weights_lp(R, coefs, maximize=maximize, threshold=threshold, constraints=self.cons, backend=self.solver)


@dataclass
class _Job:
    """One system's question, its LP runner and the exact bounds proven so far (explicit state,
    shared by the steps of :func:`solve_system` instead of closures)."""

    lb: Leaderboard
    system: str
    strict: bool
    reference: np.ndarray | None
    objective: tuple[str, tuple[str, ...]] | None
    cons: tuple[WeightConstraint, ...]
    engine: Engine
    tol: float
    min_margin: float
    verify_with: Literal["pairwise", "rows"]
    counters: dict[str, float]
    labels: Labels
    linear: Any = None  # a linear rule (winning.LinearSetup), None: the majority relation
    start: float = field(default_factory=time.perf_counter)
    proven: dict[tuple[int | None, int | None], Fraction] = field(default_factory=dict)
    # derived once from the inputs above
    i: int = field(init=False)
    tasks: tuple[str, ...] = field(init=False)
    rivals: tuple[str, ...] = field(init=False)
    R: np.ndarray = field(init=False)
    context: str = field(init=False)

    def __post_init__(self) -> None:
        self.i = self.labels.index[self.system]
        self.tasks = self.labels.tasks
        self.rivals = self.labels.rivals(self.system)
        self.points = None if self.linear is None else self.linear.scaled
        self.scale = 1.0 if self.linear is None else self.linear.scale  # scaled units -> the rule's units
        if self.points is None:
            self.R = relation_matrix(self.lb.values, self.i)
            self.context = f"Condorcet weights of {self.system!r}"
        else:
            self.R = np.delete(self.points[self.i][None, :] - self.points, self.i, axis=0)
            self.rule_margins = self.linear.rule_margins(self.i)
            self.context = f"winning weights of {self.system!r}"

    def run(self, fn: Any, *args: Any) -> WeightsLPResult:
        """Solve one LP through `fn`, counting the work; solver failures become SolveFailedError."""
        with solver_errors(self.context, self.engine.solver):
            out = fn(*args)
        self.counters["lps"] += 0 if out.method == "shortcut" else 1
        self.counters["solves"] += out.n_solves
        self.counters["solver_seconds"] += out.solver_seconds
        return out

    def margins_of(self, w: np.ndarray) -> np.ndarray:
        """The system's margins over its rivals under `w`, recomputed from the scores (a linear
        rule: by running the rule itself)."""
        if self.points is not None:
            return self.rule_margins(w)
        if self.verify_with == "pairwise":
            return margins_from_pairwise(self.lb, self.system, w)
        return row_margins(self.lb.values, self.i, w)

    def result(self, **fields: Any) -> CondorcetWeightsResult:
        """The result object, with the fields every outcome shares filled in."""
        ref_map = dict(zip(self.tasks, self.reference.tolist())) if self.reference is not None else None
        return CondorcetWeightsResult(
            system=self.system, strict=self.strict, reference_values=ref_map, objective=self.objective,
            constraints=self.cons, tol=self.tol, min_margin=self.min_margin,
            seconds=time.perf_counter() - self.start, **fields,
        )


def _contradictory(job: _Job, mm: WeightsLPResult) -> CondorcetWeightsResult:
    """The constraints alone are infeasible: the verified Farkas certificate says so."""
    assert mm.certificate is not None  # a max-margin LP always carries its (Farkas) certificate
    cert = make_certificate(job.lb, job.system, job.rivals, mm.certificate, "constraints", -CONSTRAINT_TOL, job.cons)
    if not certificate_holds(job.lb, cert, job.cons):
        raise SolveFailedError(f"{job.context}: the Farkas certificate of the contradictory constraints does not verify")
    return job.result(
        feasible=False, margin=math.nan, bound=math.nan, weight_values=None, weights_margin=math.nan,
        rival_margins=None, binding=(), certificate=cert, distance=None, objective_value=None,
        status=SolveStatus.INFEASIBLE, method=mm.method, threshold=None, explanation=cert.statement,
    )


def _checked_max_margin(job: _Job, mm: WeightsLPResult) -> tuple[np.ndarray, np.ndarray, float]:
    """The max-margin weights, their margins re-checked from the scores, and ``eps*``."""
    best = np.asarray(mm.weights)
    best_margins = job.margins_of(best)
    margin = float(best_margins.min())
    off_constraints = job.cons and max(c.violation(dict(zip(job.tasks, best))) for c in job.cons) > CONSTRAINT_TOL
    if abs(margin - mm.margin) > 1e-9 or off_constraints:
        raise SolveFailedError(f"{job.context}: the max-margin weights do not reproduce from the scores")
    return best, best_margins, margin


def _never(job: _Job, mm: WeightsLPResult, margin: float, strict_kind: bool) -> CondorcetCertificate:
    """The verified proof that the system cannot win (one rival preferred over a blend)."""
    j = single_rival(job.R, strict_kind, 0.0 if job.points is None else job.tol)
    if j is not None:
        y = np.zeros(len(job.rivals))
        y[j] = 1.0
        raw = certificate_bound(job.R, y)
    else:
        assert mm.certificate is not None  # a max-margin LP always carries its dual certificate
        raw = mm.certificate
    kind, threshold = ("strict", job.tol) if strict_kind else ("weak", -job.tol)
    cert = make_certificate(
        job.lb, job.system, job.rivals, raw, kind, threshold, job.cons if j is None else (), job.R, job.tasks,
        points=job.points is not None, scale=job.scale,
    )
    key = (j, id(raw) if j is None else None)
    if key not in job.proven:
        job.proven[key] = exact_bound(
            job.lb, job.system, cert.rival_mix, cert.multipliers, job.cons, job.labels, points=job.points
        )
    bound_ok = job.proven[key] <= Fraction(threshold) if strict_kind else job.proven[key] < Fraction(threshold)
    if not bound_ok:
        raise SolveFailedError(
            f"{job.context}: the best margin is {margin:.3g} but the dual certificate only proves "
            f"{cert.bound:.3g} (tolerance {job.tol:g}); retry with a larger tol"
        )
    return cert


def _second_stage(
    job: _Job, best: np.ndarray, margin: float, method: str
) -> tuple[np.ndarray, float, float | None, str]:
    """The weights to return: the max-margin ones, or the nearest / objective-optimal ones that
    still reach the threshold margin. Returns (weights, margin level, threshold, method)."""
    if job.reference is None and job.objective is None:
        return best, margin, None, method
    threshold = min(job.min_margin, margin) if job.strict else min(0.0, margin)
    if job.reference is not None:
        ref_map = dict(zip(job.tasks, job.reference.tolist()))
        ref_ok = not job.cons or max(c.violation(ref_map) for c in job.cons) <= CONSTRAINT_TOL
        if ref_ok and wins_all(job.margins_of(job.reference), job.strict, job.tol):
            return job.reference, threshold, threshold, method + "+reference"
        second = job.run(job.engine.nearest, job.R, job.reference, threshold)
        if second.weights is None:
            raise SolveFailedError(f"{job.context}: the nearest-weights LP found no weighting reaching margin {threshold:.3g}")
        return np.asarray(second.weights), threshold, threshold, method + "+nearest"
    sense, tasks = job.objective  # type: ignore[misc]
    coefs = np.array([1.0 if t in tasks else 0.0 for t in job.tasks])
    second = job.run(job.engine.optimize, job.R, coefs, sense == "max", threshold)
    if second.weights is None:
        raise SolveFailedError(f"{job.context}: the objective LP found no weighting reaching margin {threshold:.3g}")
    return np.asarray(second.weights), threshold, threshold, method + "+objective"


def _winning(
    job: _Job, weights: np.ndarray, final: np.ndarray, margin: float, bound: float, level: float,
    threshold: float | None, method: str,
) -> CondorcetWeightsResult:
    """The feasible answer, after verifying the weights in the majority relation rebuilt from scores."""
    weight_map = dict(zip(job.tasks, weights.tolist()))
    if job.cons:
        worst = max(c.violation(weight_map) for c in job.cons)
        if worst > CONSTRAINT_TOL:
            raise SolveFailedError(f"{job.context}: the returned weights miss a constraint by {worst:.3g}")
    if not wins_all(final, job.strict, job.tol):
        raise SolveFailedError(
            f"{job.context}: verification failed: with the solver's weights the smallest margin is "
            f"{final.min():.3g}, not {'> ' if job.strict else '>= -'}{job.tol:g} (solver tolerance)"
        )
    binding = tuple(s for s, m in zip(job.rivals, final) if m <= level + BINDING_TOL)
    distance = float(np.abs(weights - job.reference).sum()) if job.reference is not None else None
    if distance is not None and distance < 1e-15:
        distance = 0.0
    objective = job.objective
    objective_value = float(sum(weight_map[t] for t in objective[1])) if objective is not None else None
    if job.linear is None:
        win = "beats every rival" if job.strict else "beats or ties every rival"
    else:
        win = f"scores {'strictly highest' if job.strict else 'highest or tied'} under {job.linear.lp.rule}"
    s = job.scale  # margins in the rule's units
    text = f"{job.system!r} {win} with these weights (smallest margin {s * final.min():.4g}; best possible {s * margin:.4g})"
    if distance is not None:
        text += f"; L1 distance {distance:.4g} from the reference weights"
    if objective is not None and objective_value is not None:
        text += f"; {objective[0]} weight of {', '.join(objective[1])}: {objective_value:.4g}"
    return job.result(
        feasible=True, margin=margin, bound=bound, weight_values=weight_map, weights_margin=float(final.min()),
        rival_margins=dict(zip(job.rivals, final.tolist())), binding=binding, certificate=None, distance=distance,
        objective_value=objective_value, status=SolveStatus.OPTIMAL, method=method, threshold=threshold,
        explanation=text,
    )


def solve_system(
    lb: Leaderboard,
    system: str,
    *,
    strict: bool,
    reference: np.ndarray | None,
    objective: tuple[str, tuple[str, ...]] | None,
    cons: tuple[WeightConstraint, ...],
    engine: Engine,
    tol: float,
    min_margin: float,
    verify_with: Literal["pairwise", "rows"],
    counters: dict[str, float],
    labels: Labels,
    linear: Any = None,
) -> tuple[CondorcetWeightsResult, bool | None]:
    """One system's answer, and (for :func:`consensus.prospective`) the other notion's.

    The steps: the max-margin LP (contradictory constraints end here with a Farkas
    certificate); its weights re-checked from the scores; a verified certificate when the
    system cannot win; otherwise the second-stage weights (nearest to the reference, or
    optimal for the objective) and their verification in the majority relation.

    Parameters
    ----------
    lb : Leaderboard
    system : str
    strict : bool
        Beat every rival (True) or beat or tie every rival (False).
    reference : ndarray or None
        The `nearest_to` weighting (sums to 1), or None.
    objective : (sense, tasks) or None
    cons : tuple of WeightConstraint
    engine : Engine
        Which LP code solves.
    tol, min_margin : float
        As in :func:`condorcet_weights`.
    verify_with : {"pairwise", "rows"}
        Re-check margins through :func:`consensus.pairwise` (one system) or straight from
        the score rows (every system, :func:`consensus.prospective`; "rows" also answers
        the other notion, with its own evidence).
    counters : dict
        LPs, solves and solver seconds, incremented in place.
    labels : Labels
    linear : LinearSetup, optional
        A linear rule (:class:`consensus.exact._winning.LinearSetup`: scaled points, scale, and the
        rule re-run that re-checks every margin): the question is then "does the system score
        highest" (:func:`consensus.winning_weights`).

    Returns
    -------
    (CondorcetWeightsResult, bool or None)
        The result, and the other notion's feasibility (None unless ``verify_with="rows"``).

    Raises
    ------
    SolveFailedError
        A solver failed, or its answer did not verify.
    """
    job = _Job(
        lb, system, strict, reference, objective, cons, engine, tol, min_margin, verify_with, counters, labels,
        linear,
    )
    mm = job.run(engine.max_margin, job.R)
    if mm.status is SolveStatus.INFEASIBLE:
        return _contradictory(job, mm), False
    best, best_margins, margin = _checked_max_margin(job, mm)
    assert mm.certificate is not None  # a max-margin LP always carries its dual certificate
    bound = float(mm.certificate.bound)
    feasible = margin > tol if strict else margin >= -tol
    other: bool | None = None
    if verify_with == "rows":  # prospective: the other notion too, with its own evidence
        other = margin >= -tol if strict else margin > tol
        if not other:
            _never(job, mm, margin, not strict)
    if not feasible:
        cert = _never(job, mm, margin, strict)
        return job.result(
            feasible=False, margin=margin, bound=bound, weight_values=None, weights_margin=math.nan,
            rival_margins=None, binding=(), certificate=cert, distance=None, objective_value=None,
            status=SolveStatus.OPTIMAL, method=mm.method, threshold=None, explanation=cert.statement,
        ), other
    weights, level, threshold, method = _second_stage(job, best, margin, mm.method)
    final = best_margins if weights is best else job.margins_of(weights)
    return _winning(job, weights, final, margin, bound, level, threshold, method), other


# ---------------------------------------------------------------------- public API
@fill_doc(WEIGHT_DOCS)
def condorcet_weights(
    data: Leaderboard,
    system: str,
    *,
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
    """Find task weights under which `system` is the Condorcet winner, or prove there are none.

    Solves ``max eps`` subject to ``sum_k w_k R(system, m', k) >= eps`` for every rival
    ``m'``, ``w >= 0``, ``sum w = 1`` and the optional user constraints (Rofin et al. 2023,
    sec. 3.2, posed as a max-min margin LP so it is always solvable). ``eps*`` is the
    :attr:`~CondorcetWeightsResult.margin`.

    Parameters
    ----------
    data : Leaderboard
        Missing scores are allowed (they compare as ties: ``R = 0``). The leaderboard's own
        weights are ignored except as the default reference of `nearest_to`.
    system : str
    strict : bool, default=True
        True: beat every rival (``eps* > tol``). False: the paper's condition, beat or tie
        every rival (``eps* >= -tol``, a weak Condorcet winner).
    nearest_to : 'leaderboard', 'uniform', True, mapping, Series or None, default 'leaderboard'
        Return the winning weighting closest in L1 to this reference (``'leaderboard'`` or
        True: ``lb.normalized_weights``; a mapping is normalized, unlisted tasks weigh 0) and
        its :attr:`~CondorcetWeightsResult.distance`; the default of every weight question
        (an explicit `objective` takes its place). None: the solver's max-margin vertex. If the reference already makes the
        system win (and meets the constraints) it is returned with distance 0. Otherwise the
        weights must reach margin ``min(min_margin, eps*)`` (strict; "> 0" is not a closed
        condition) or 0 (weak).
    objective : ('min' | 'max', tasks), optional
        Among the winning weightings (same margin threshold as `nearest_to`), minimize or
        maximize the total weight of `tasks` (a task, a list of tasks, or a group name), the
        paper's "w_i -> min". Exclusive with `nearest_to`.
    constraints : Constraints or mapping, optional
        Bounds on the weights (:class:`consensus.Constraints`: ``min_weight``,
        ``max_weight``, ``fixed``, ``group_bounds``, ``order``; a mapping of those fields
        works too). ``order=[("a", "b")]`` means ``w_a >= w_b``; ``("a", "b", "c")`` means
        ``w_a >= w_b >= w_c``.
    min_margin : float, default=1e-6
        The margin strict `nearest_to` / `objective` weights must reach; must exceed `tol`.
    solver : str, default="highs"
        ``"highs"`` (highspy) or a pulp solver name such as ``"cbc"`` (PuLP 3 ships one);
        see :func:`solvers.available_backends`.
    tol : float, default=1e-9
        Margin tolerance of the LP (float) solution: ``> tol`` beats, ``< -tol`` loses; it
        absorbs solver and renormalization rounding of weights summing to 1. It is *not* the
        majority relation's tie rule: :attr:`PairwiseMatrix.majority` is exact (a margin
        exactly 0 ties, any other margin decides). So a strict weighting returned here
        (margin > `tol`) does make the system the Condorcet winner of
        ``lb.with_weights(weights)``, and a weak one beats or ties every rival there unless
        its smallest margin lies in ``[-tol, 0)``; when the best achievable margin ``eps*``
        lies within `tol` of 0 (only forced by tight constraints or very many tasks), this
        answer and the exact majority relation can differ: ``eps*`` in ``(0, tol]`` is
        reported as no strict win, in ``[-tol, 0)`` as a weak win.
    scored_tasks_only : bool, default=True
        Weight 0 on every task `system` is not scored on (constraints labelled
        ``scored_tasks_only[task]`` in ``result.constraints`` and in certificates), so a
        "win" never rests on tasks nobody evaluated it on. False: any task may carry
        weight, and a task where `system` has no score counts as a tie with every rival.
    missing : {None, "drop_tasks", "drop_systems", "median"}, optional
        The missing-score policy (``"pairwise"`` is None): None compares as ties (``R =
        0``); the others treat the leaderboard first, as in :func:`consensus.rank`
        (``"median"`` fills each hole with the task's median; `scored_tasks_only` still
        reads the holes before the fill). ``"impute"`` does not apply here (the LP needs
        per-task comparisons). The result is about the treated leaderboard: verify it there.
    {min_coverage}

    Returns
    -------
    CondorcetWeightsResult
        ``feasible``, ``margin`` (``eps*``), ``bound`` (its proven upper bound), ``weights``
        (a Series summing to 1, None when infeasible), ``binding`` rivals, and, when
        infeasible, a ``certificate``. Contradictory constraints are an answer too:
        ``feasible=False``, ``status=INFEASIBLE``, a ``kind="constraints"`` certificate.

    Raises
    ------
    UnknownSystemError, UnknownTaskError
        `system` or a task named in a constraint is not on the leaderboard.
    InvalidOptionError
        Malformed options (non-finite bounds, unknown group, `nearest_to` with `objective`),
        ``missing="impute"``, or `system` removed by `missing` / `min_coverage`.
    SolverNotAvailableError
        `solver` is unknown or not installed here; the message lists the solvers available.
    SolveFailedError
        The solver failed, or its answer did not survive verification.

    See Also
    --------
    prospective : the same question for every system.
    weighted_margins : the margins of any weighting, recomputed from the scores.

    Notes
    -----
    Every returned weighting is verified before it is returned: the weighted pairwise matrix
    is rebuilt from the scores with :meth:`Leaderboard.with_weights` and the system must beat
    (strict, by more than `tol`) or not lose to (weak, by more than `tol`) every rival there,
    and satisfy every constraint within 1e-9. Every certificate is verified in exact rational arithmetic from the scores. A
    Pareto-dominated system is never a strict winner; its certificate is its dominator
    (``rivals == {dominator: 1.0}``). The max-margin weights are one optimal vertex; optima
    are often not unique.

    Why `scored_tasks_only` is the default: a task where `system` has no score compares as a
    tie with every rival, so weight on it pulls every margin toward 0. Under the weak notion
    a system scored on one task, and beaten there, would "beat or tie every rival" with all
    the weight on tasks it was never evaluated on. With the option those tasks weigh 0; the
    strict answer (feasibility) never changes, since weight on such a task only shrinks
    margins, but weak answers, margins and nearest weightings can.

    References
    ----------
    .. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
       EACL 2023, sec. 3.2.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> res = cs.condorcet_weights(lb, "A")          # A is last under uniform weights
    >>> res.feasible, res.margin, res.weights.round(3).to_dict()   # the winning weights nearest the official ones
    (True, 1.0, {'t1': 0.2, 't2': 0.3, 't3': 0.1, 't4': 0.2, 't5': 0.2})
    >>> cs.condorcet_weights(lb, "A", nearest_to=None).weights.to_dict()   # the max-margin vertex
    {'t1': 1.0, 't2': 0.0, 't3': 0.0, 't4': 0.0, 't5': 0.0}
    >>> res = cs.condorcet_weights(lb, "A", nearest_to="uniform")   # t1 + t2 must pass 1/2
    >>> round(res.distance, 6), round(float(res.weights["t1"] + res.weights["t2"]), 6)   # weights need not be unique
    (0.200001, 0.500001)
    >>> res = cs.condorcet_weights(lb, "A", constraints=cs.Constraints(max_weight=0.25))         # ... which caps make impossible
    >>> res.feasible, res.certificate.bound, res.verify(lb)   # a proof, checked exactly (not unique)
    (False, 0.0, True)
    >>> dict(res.certificate.multipliers)
    {'max_weight[t1]:upper': 2.0, 'max_weight[t2]:upper': 2.0}
    """
    start = time.perf_counter()
    checked = weight_options("condorcet_weights", data, constraints=constraints, solver=solver,
                             margins=(tol, min_margin), nearest_to=nearest_to, objective=objective)
    board_of(data, "condorcet_weights").system_index(system)
    ready = prepared_weights(data, missing, min_coverage, "condorcet_weights")
    return solve_one("condorcet_weights", ready.leaderboard, ready.scored, ready.preparation, system, checked,
                     strict=strict, scored_tasks_only=scored_tasks_only, objective=objective, start=start)


def solve_one(
    context: str, work: Leaderboard, holes: Leaderboard, record: Preparation, system: str, checked: WeightOptions,
    *, strict: bool, scored_tasks_only: bool, objective: object, start: float, setup: Any = None,
    rescale: Callable[[CondorcetWeightsResult], CondorcetWeightsResult] | None = None,
) -> CondorcetWeightsResult:
    """The question about one system that :func:`condorcet_weights` and :func:`winning_weights` ask.

    Parameters
    ----------
    context : str
        The question, for messages.
    work, holes : Leaderboard
        The prepared board and its scored cells (``scored_tasks_only``).
    record : Preparation
        What the preparation stage did.
    system : str
    checked : WeightOptions
        The question's options, checked.
    strict, scored_tasks_only, objective
        As the question received them.
    start : float
        ``time.perf_counter()`` when the question started.
    setup : LinearSetup, optional
        The linear rule's points (``winning_weights``); None for the majority relation.
    rescale : callable, optional
        Puts the result back in the rule's units (``winning_weights``).

    Returns
    -------
    CondorcetWeightsResult
    """
    if system not in work.systems:
        why = option("missing", record.missing) if system in record.dropped_systems else "min_coverage"
        raise InvalidOptionError(hinted("{}: {!r} was dropped by {}; nothing to decide", context, system, why))
    cons = checked.constraints.rows(work)
    unscored = unscored_constraints(holes, system) if scored_tasks_only else ()
    cons = cons + unscored
    reference = reference_weights(work, checked.nearest_to)
    obj = objective_tasks(work, objective)
    engine = Engine(work, solver_constraints(work, cons), checked.solver, "pulp", shortcut=setup is None)
    counters = {"lps": 0, "solves": 0, "solver_seconds": 0.0}
    res, _ = solve_system(
        work, system, strict=bool(strict), reference=reference, objective=obj, cons=cons, engine=engine,
        tol=checked.tol, min_margin=checked.min_margin, verify_with="pairwise", counters=counters,
        labels=Labels(work), linear=setup,
    )
    if rescale is not None:
        res = rescale(res)
    explanation = res.explanation
    if unscored:
        explanation += f" (weight 0 on the {len(unscored)} task(s) {system!r} is not scored on: scored_tasks_only)"
    return dataclasses.replace(res, explanation=explanation, seconds=time.perf_counter() - start, preparation=record)
