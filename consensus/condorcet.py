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

import math
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import pandas as pd

from solvers import SolverError, SolverUnavailableError, SolveStatus
from solvers.weights_lp import (
    HighsWeightsLP,
    MarginCertificate,
    WeightConstraints,
    WeightsLPResult,
    certificate_bound,
    constraints_farkas_lp,
    max_margin_lp,
    nearest_weights_lp,
    optimize_weights_lp,
    relation_matrix,
)

from .errors import (
    DegenerateTaskWarning,
    InvalidOptionError,
    InvalidWeightError,
    SolveFailedError,
    UnknownTaskError,
)
from .leaderboard import Leaderboard
from .pairwise import pairwise
from .solver_choice import check_solver
from .results import CondorcetCertificate, CondorcetWeightsResult, WeightConstraint, jsonable

__all__ = ["condorcet_weights", "prospective", "weighted_margins"]

#: Returned weights may miss a user constraint by at most this (solver feasibility noise).
CONSTRAINT_TOL = 1e-9
#: A rival binds when its margin is within this of the LP's margin level.
BINDING_TOL = 1e-9

Reference = Literal["leaderboard", "uniform"] | Mapping[str, float] | pd.Series | bool | None


class _Labels:
    """System and task labels of one leaderboard, read once (the properties copy on each access)."""

    __slots__ = ("systems", "tasks", "index")

    def __init__(self, lb: Leaderboard) -> None:
        self.systems = lb.systems
        self.tasks = lb.tasks
        self.index = {s: j for j, s in enumerate(self.systems)}

    def rivals(self, system: str) -> tuple[str, ...]:
        i = self.index[system]
        return self.systems[:i] + self.systems[i + 1 :]


def _row_margins(values: np.ndarray, i: int, w: np.ndarray) -> np.ndarray:
    """Margins of row `i` over every other row under weights `w`, from the scores (as pairwise)."""
    with np.errstate(invalid="ignore"):
        better = (values[i][None, :] > values).astype(np.float64)  # NaN compares False: a tie
        worse = (values[i][None, :] < values).astype(np.float64)
    margins = better @ w - worse @ w
    margins[margins == 0] = 0.0
    return np.delete(margins, i)


# ---------------------------------------------------------------------- public helpers
def weighted_margins(lb: Leaderboard, system: str, weights: Mapping[str, float] | pd.Series) -> pd.Series:
    """The weighted margin of `system` over every other system under `weights`.

    ``margin[m'] = sum_k w_k R(system, m', k)``: the weight of the tasks where `system` scores
    strictly better minus the weight where it scores worse (tasks where either is missing
    count for neither). Weights are used as given (not normalized), so with
    ``lb.weights`` this is the row of ``pairwise(lb).margins``. Computed directly from the
    scores, independently of the LP code: use it to check a :class:`CondorcetWeightsResult`.

    Parameters
    ----------
    lb : Leaderboard
    system : str
    weights : Mapping or Series, task -> weight
        Finite and >= 0; tasks not listed weigh 0.

    Returns
    -------
    pandas.Series
        Indexed by the other systems, in leaderboard order.

    Raises
    ------
    UnknownSystemError, UnknownTaskError, InvalidWeightError

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> weighted_margins(lb, "A", {"t1": 0.5, "t2": 0.5}).tolist()
    [1.0, 1.0, 1.0]
    >>> weighted_margins(lb, "B", lb.weights).tolist()      # uniform: 3 tasks to 2 each
    [1.0, 1.0, 1.0]
    """
    i = lb.system_index(system)
    w = _weight_vector(lb, weights, "weights")
    systems = lb.systems
    rivals = systems[:i] + systems[i + 1 :]
    return pd.Series(_row_margins(lb.values, i, w), index=pd.Index(rivals, dtype=object), name="margin")


# ---------------------------------------------------------------------- option parsing
def _number(value: object, what: str) -> float:
    if isinstance(value, bool):
        raise InvalidOptionError(f"{what} must be a number, got {value!r}")
    try:
        out = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise InvalidOptionError(f"{what} must be a number, got {value!r}") from None
    if not math.isfinite(out):
        raise InvalidOptionError(f"{what} must be finite, got {value!r}")
    return out


def _task(lb: Leaderboard, name: object, context: str) -> str:
    if not isinstance(name, str) or name not in lb.tasks:
        raise UnknownTaskError(name, lb.tasks, context)
    return name


def _weight_vector(lb: Leaderboard, weights: Mapping[str, float] | pd.Series, context: str) -> np.ndarray:
    if not isinstance(weights, (Mapping, pd.Series)):
        raise InvalidOptionError(f"{context} must be a mapping or Series task -> weight, got {type(weights).__name__}")
    tasks = lb.tasks
    index = {t: k for k, t in enumerate(tasks)}
    w = np.zeros(len(tasks))
    for t, value in weights.items():
        if t not in index:
            raise UnknownTaskError(t, tasks, context)
        k = index[t]
        try:
            x = float(value)
        except (TypeError, ValueError):
            raise InvalidWeightError(f"{context}: weight of task {t!r} is not a number: {value!r}", t) from None
        if not math.isfinite(x) or x < 0:
            raise InvalidWeightError(f"{context}: weight of task {t!r} must be finite and >= 0, got {value!r}", t)
        w[k] = x
    return w


def _reference(lb: Leaderboard, nearest_to: Reference) -> np.ndarray | None:
    """The reference weighting of `nearest_to`, normalized to sum 1 (None: no nearest mode)."""
    if nearest_to is None or nearest_to is False:
        return None
    if nearest_to is True or (isinstance(nearest_to, str) and nearest_to == "leaderboard"):
        return lb.normalized_weights.to_numpy(dtype=np.float64)
    if isinstance(nearest_to, str):
        if nearest_to == "uniform":
            return np.full(lb.n_tasks, 1.0 / lb.n_tasks)
        raise InvalidOptionError(
            f"nearest_to must be 'leaderboard', 'uniform', or a mapping task -> weight; got {nearest_to!r}"
        )
    w = _weight_vector(lb, nearest_to, "nearest_to")
    if w.sum() <= 0:
        raise InvalidWeightError("nearest_to: every reference weight is zero; give a task a positive weight")
    return w / w.sum()


def _group_members(lb: Leaderboard, key: object) -> tuple[str, tuple[str, ...]]:
    """Label and tasks of a ``group_bounds`` key: a group of ``lb.groups`` or a tuple of tasks."""
    if isinstance(key, str):
        if key in lb.groups:
            return key, tuple(lb.groups[key])
        known = ", ".join(repr(g) for g in lb.groups) or "none"
        hint = f"; for the single task {key!r} use ({key!r},) or min_weight/max_weight" if key in lb.tasks else ""
        raise InvalidOptionError(f"group_bounds: unknown group {key!r} (groups of this leaderboard: {known}){hint}")
    if isinstance(key, (tuple, list, frozenset, set)):
        members = [_task(lb, t, "group_bounds") for t in key]
        if isinstance(key, (frozenset, set)):
            members.sort(key=lb.tasks.index)
        if not members:
            raise InvalidOptionError("group_bounds: a group needs at least one task")
        if len(set(members)) != len(members):
            raise InvalidOptionError(f"group_bounds: group {tuple(members)!r} lists a task twice")
        return "+".join(members), tuple(members)
    raise InvalidOptionError(f"group_bounds keys are group names or tuples of tasks, got {key!r}")


def _constraints(
    lb: Leaderboard,
    *,
    min_weight: float | Mapping[str, float] | None,
    max_weight: float | Mapping[str, float] | None,
    fixed: Mapping[str, float] | None,
    group_bounds: Mapping[Any, tuple[float | None, float | None]] | None,
    order: Iterable[Sequence[str]] | None,
) -> tuple[WeightConstraint, ...]:
    out: list[WeightConstraint] = []

    def per_task(spec: float | Mapping[str, float] | None, name: str, lower: bool) -> None:
        if spec is None:
            return
        if isinstance(spec, Mapping):
            items = [(_task(lb, t, name), _number(v, f"{name}[{t!r}]")) for t, v in spec.items()]
        else:
            value = _number(spec, name)
            if (lower and value <= 0) or (not lower and value >= 1):
                return  # a scalar bound that every weighting meets adds no row
            items = [(t, value) for t in lb.tasks]
        for t, value in items:
            lo, hi = (value, math.inf) if lower else (-math.inf, value)
            out.append(WeightConstraint(f"{name}[{t}]", {t: 1.0}, lo, hi))

    per_task(min_weight, "min_weight", True)
    per_task(max_weight, "max_weight", False)
    if fixed is not None:
        if not isinstance(fixed, Mapping):
            raise InvalidOptionError(f"fixed must be a mapping task -> weight, got {type(fixed).__name__}")
        for t, value in fixed.items():
            x = _number(value, f"fixed[{t!r}]")
            out.append(WeightConstraint(f"fixed[{_task(lb, t, 'fixed')}]", {t: 1.0}, x, x))
    if group_bounds is not None:
        if not isinstance(group_bounds, Mapping):
            raise InvalidOptionError("group_bounds must be a mapping {group or tuple of tasks: (lower, upper)}")
        for key, bounds in group_bounds.items():
            label, members = _group_members(lb, key)
            if not isinstance(bounds, (tuple, list)) or len(bounds) != 2:
                raise InvalidOptionError(f"group_bounds[{label!r}] must be a pair (lower, upper), got {bounds!r}")
            lo = -math.inf if bounds[0] is None else _number(bounds[0], f"group_bounds[{label!r}] lower")
            hi = math.inf if bounds[1] is None else _number(bounds[1], f"group_bounds[{label!r}] upper")
            out.append(WeightConstraint(f"group[{label}]", {t: 1.0 for t in members}, lo, hi))
    if order is not None:
        chains = [order] if isinstance(order, tuple) and order and isinstance(order[0], str) else list(order)
        for chain in chains:
            if isinstance(chain, str) or not isinstance(chain, Sequence) or len(chain) < 2:
                raise InvalidOptionError(f"order entries are pairs (or chains) of tasks, heavier first; got {chain!r}")
            names = [_task(lb, t, "order") for t in chain]
            for a, b in zip(names, names[1:]):
                if a == b:
                    raise InvalidOptionError(f"order: {chain!r} compares task {a!r} with itself")
                out.append(WeightConstraint(f"order[{a}>={b}]", {a: 1.0, b: -1.0}, 0.0, math.inf))
    seen: dict[str, int] = {}
    unique = []
    for c in out:
        seen[c.label] = seen.get(c.label, 0) + 1
        label = c.label if seen[c.label] == 1 else f"{c.label}#{seen[c.label]}"
        unique.append(WeightConstraint(label, c.coefficients, c.lower, c.upper))
    return tuple(unique)


def _solver_constraints(lb: Leaderboard, cons: Sequence[WeightConstraint]) -> WeightConstraints | None:
    if not cons:
        return None
    index = {t: k for k, t in enumerate(lb.tasks)}
    return WeightConstraints.from_rows(
        lb.n_tasks, [({index[t]: a for t, a in c.coefficients.items()}, c.lower, c.upper) for c in cons]
    )


def _objective(lb: Leaderboard, objective: object) -> tuple[str, tuple[str, ...]] | None:
    if objective is None:
        return None
    if not isinstance(objective, (tuple, list)) or len(objective) != 2 or objective[0] not in ("min", "max"):
        raise InvalidOptionError(f"objective must be ('min' | 'max', tasks), got {objective!r}")
    sense, spec = objective
    if isinstance(spec, str):
        if spec in lb.tasks:
            tasks: tuple[str, ...] = (spec,)
        elif spec in lb.groups:
            tasks = tuple(lb.groups[spec])
        else:
            raise UnknownTaskError(spec, lb.tasks, "objective")
    else:
        tasks = tuple(_task(lb, t, "objective") for t in spec)
    if not tasks:
        raise InvalidOptionError("objective needs at least one task")
    return str(sense), tasks


def _check_options(tol: float, min_margin: float) -> tuple[float, float]:
    tol = _number(tol, "tol")
    min_margin = _number(min_margin, "min_margin")
    if tol < 0:
        raise InvalidOptionError(f"tol must be >= 0, got {tol!r}")
    if not tol < min_margin <= 1:
        raise InvalidOptionError(f"min_margin must be in (tol, 1] = ({tol:g}, 1], got {min_margin!r}")
    return tol, min_margin


# ---------------------------------------------------------------------- verification
def _margins_from_pairwise(lb: Leaderboard, system: str, weights: np.ndarray) -> np.ndarray:
    """The system's margins in the package's weighted majority relation, rebuilt from scores."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateTaskWarning)
        weighted = lb.with_weights(dict(zip(lb.tasks, weights.tolist())))
    p = pairwise(weighted)
    i = p.index(system)
    return np.delete(p.margins[i], i)


def _wins(margins: np.ndarray, strict: bool, tol: float) -> bool:
    return bool((margins > tol).all()) if strict else bool((margins >= -tol).all())


def _exact_bound(
    lb: Leaderboard,
    system: str,
    rival_mix: Mapping[str, float],
    multipliers: Mapping[str, float],
    constraints: Sequence[WeightConstraint],
    labels: _Labels | None = None,
) -> Fraction:
    """The certificate's bound recomputed from the scores, in rational arithmetic (no solver).

    ``c_k = sum_m' y_m' R(m, m', k)`` with ``y`` normalized exactly; ``d_k`` from the
    multipliers; ``bound = max_k (c_k - d_k) + sum mu_upper * upper - sum mu_lower * lower``.
    """
    v = lb.values
    labels = labels if labels is not None else _Labels(lb)
    tasks, index = labels.tasks, labels.index
    i = index[system]
    # y_s are floats, i.e. dyadic rationals n_s / 2^e_s: over the common denominator they are
    # integers N_s, and c_k = sum_s N_s R(m, s, k) / sum_s N_s exactly.
    ratios = [float(y).as_integer_ratio() for y in rival_mix.values()]
    if any(n < 0 for n, _ in ratios):
        raise SolveFailedError(f"certificate of {system!r} has a negative rival weight")
    denom = max((d for _, d in ratios), default=1)
    nums = [n * (denom // d) for n, d in ratios]
    total = sum(nums)
    c_num = [0] * len(tasks)
    if total > 0:
        for s, n in zip(rival_mix, nums):
            j = index[s]
            with np.errstate(invalid="ignore"):
                better = (v[i] > v[j]).tolist()  # NaN compares False either way: a tie
                worse = (v[i] < v[j]).tolist()
            for k in range(len(tasks)):
                if better[k]:
                    c_num[k] += n
                elif worse[k]:
                    c_num[k] -= n
    if not multipliers or not any(float(mu) != 0 for mu in multipliers.values()):
        return Fraction(max(c_num), total if total > 0 else 1)
    c = {t: Fraction(x, total if total > 0 else 1) for t, x in zip(tasks, c_num)}
    d = {t: Fraction(0) for t in tasks}
    const = Fraction(0)
    by_label = {con.label: con for con in constraints}
    for key, mu in multipliers.items():
        label, _, side = key.rpartition(":")
        con = by_label[label]
        m = Fraction(float(mu))
        if m < 0:
            raise SolveFailedError(f"certificate of {system!r} has a negative multiplier on {key!r}")
        if m == 0:
            continue
        sign = 1 if side == "upper" else -1
        rhs = con.upper if side == "upper" else con.lower
        if math.isinf(rhs):
            raise SolveFailedError(f"certificate of {system!r} puts a multiplier on the open side {key!r}")
        for t, a in con.coefficients.items():
            d[t] += sign * m * Fraction(a)
        const += sign * m * Fraction(rhs)
    return max(c[t] - d[t] for t in tasks) + const


def _certificate_holds(lb: Leaderboard, cert: CondorcetCertificate, constraints: Sequence[WeightConstraint]) -> bool:
    bound = _exact_bound(lb, cert.system, cert.rival_mix, cert.multipliers, constraints)
    if cert.kind == "strict":
        return bound <= Fraction(cert.threshold)
    if cert.kind == "constraints":  # contradictory even within CONSTRAINT_TOL per row
        total = sum((Fraction(float(mu)) for mu in cert.multipliers.values()), Fraction(0))
        return bound < -Fraction(CONSTRAINT_TOL) * total
    return bound < Fraction(cert.threshold)


def _verify_result(lb: Leaderboard, res: CondorcetWeightsResult) -> bool:
    """Independent re-check of a result (used by :meth:`CondorcetWeightsResult.verify`)."""
    ok = True
    if res.weight_values is not None:
        w = _weight_vector(lb, res.weight_values, "weights")
        ok &= abs(w.sum() - 1.0) <= 1e-9
        ok &= all(c.violation(res.weight_values) <= CONSTRAINT_TOL for c in res.constraints)
        ok &= _wins(_margins_from_pairwise(lb, res.system, w), res.strict, res.tol) if res.feasible else True
    if res.certificate is not None:
        ok &= _certificate_holds(lb, res.certificate, res.constraints)
    if not res.feasible and res.certificate is None:
        ok = False
    if res.feasible and res.weight_values is None:
        ok = False
    return bool(ok)


# ---------------------------------------------------------------------- certificates
def _single_rival(R: np.ndarray, strict: bool) -> int | None:
    """A rival that alone proves "never": at least as good on every task (strict), or
    strictly better on every task (weak). The strongest one (smallest row max, then sum)."""
    row_max = R.max(axis=1)
    ok = row_max <= 0 if strict else row_max < 0
    if not ok.any():
        return None
    cand = np.nonzero(ok)[0]
    key = np.lexsort((cand, R[cand].sum(axis=1), row_max[cand]))
    return int(cand[key[0]])


def _mix_text(mix: Mapping[str, float]) -> str:
    if len(mix) == 1:
        return repr(next(iter(mix)))
    return "the blend " + " + ".join(f"{y:.3g}*{s}" for s, y in mix.items())


def _certificate(
    lb: Leaderboard,
    system: str,
    rivals: Sequence[str],
    cert: MarginCertificate,
    kind: str,
    threshold: float,
    cons: Sequence[WeightConstraint],
    R: np.ndarray | None = None,
    tasks: Sequence[str] | None = None,
) -> CondorcetCertificate:
    mix = {rivals[j]: float(cert.rivals[j]) for j in np.nonzero(cert.rivals)[0]}
    multipliers: dict[str, float] = {}
    for i, con in enumerate(cons):
        if cert.upper_multipliers[i] > 0:
            multipliers[f"{con.label}:upper"] = float(cert.upper_multipliers[i])
        if cert.lower_multipliers[i] > 0:
            multipliers[f"{con.label}:lower"] = float(cert.lower_multipliers[i])
    used = ", ".join(sorted({k.rpartition(":")[0] for k in multipliers}))
    if kind == "constraints":
        statement = (
            f"the weight constraints are contradictory: {used} cannot hold together with "
            "non-negative weights summing to 1"
        )
    else:
        who = _mix_text(mix)
        if multipliers:
            what = f"against {who}, the weight constraints ({used}) cap its weighted margin"
        elif len(mix) == 1:
            j = int(np.nonzero(cert.rivals)[0][0])
            row = (R if R is not None else relation_matrix(lb.values, lb.system_index(system)))[j]
            if (row == -1).all():
                what = f"{who} scores strictly better than {system!r} on every task"
            elif (row == 0).all():
                what = f"{who} ties {system!r} on every task both are scored on"
            else:
                what = f"{who} is at least as good as {system!r} on every task both are scored on (Pareto dominance)"
        else:
            rel = "at least as good as" if kind == "strict" else "strictly better than"
            what = f"{who} is {rel} {system!r} on every task, on average"
        verdict = (
            f"{system!r} can never beat every rival: {what}"
            if kind == "strict"
            else f"{system!r} always loses to some rival: {what}"
        )
        statement = f"{verdict}; no weighting gives a smallest margin above {float(cert.bound):.4g}"
    return CondorcetCertificate(
        system=system,
        kind=kind,
        rival_mix=mix,
        task_advantage={t: float(a) for t, a in zip(tasks or lb.tasks, cert.advantage.tolist())} if mix else {},
        multipliers=multipliers,
        offset=float(cert.offset),
        bound=float(cert.bound),
        threshold=float(threshold),
        statement=statement,
    )


# ---------------------------------------------------------------------- the core
class _Engine:
    """Which LP code solves: one fresh model per LP (any backend) or the batch path (HiGHS, lazy rows)."""

    def __init__(self, lb: Leaderboard, cons: WeightConstraints | None, solver: str, method: str) -> None:
        self.solver = check_solver(solver)
        self.cons = cons
        self.fast = HighsWeightsLP(lb.n_tasks, cons) if method == "highspy" else None

    def max_margin(self, R: np.ndarray) -> WeightsLPResult:
        if self.fast is not None:
            return self.fast.max_margin(R)
        return max_margin_lp(R, constraints=self.cons, backend=self.solver, slack=CONSTRAINT_TOL)

    def nearest(self, R: np.ndarray, ref: np.ndarray, threshold: float) -> WeightsLPResult:
        if self.fast is not None:
            return self.fast.nearest(R, ref, threshold=threshold)
        return nearest_weights_lp(R, ref, threshold=threshold, constraints=self.cons, backend=self.solver)

    def optimize(self, R: np.ndarray, coefs: np.ndarray, maximize: bool, threshold: float) -> WeightsLPResult:
        if self.fast is not None:
            return self.fast.optimize(R, coefs, maximize=maximize, threshold=threshold)
        return optimize_weights_lp(R, coefs, maximize=maximize, threshold=threshold, constraints=self.cons, backend=self.solver)


def _solve_system(
    lb: Leaderboard,
    system: str,
    *,
    strict: bool,
    reference: np.ndarray | None,
    objective: tuple[str, tuple[str, ...]] | None,
    cons: tuple[WeightConstraint, ...],
    engine: _Engine,
    tol: float,
    min_margin: float,
    verify_with: Literal["pairwise", "rows"],
    counters: dict[str, float],
    labels: _Labels,
) -> tuple[CondorcetWeightsResult, bool | None]:
    """One system: the result, and (for :func:`prospective`) the other notion's answer.

    The other notion (weak when `strict`, strict otherwise) comes from the same max-margin
    LP and is backed by the same kind of evidence (verified weights or certificate).
    """
    start = time.perf_counter()
    i = labels.index[system]
    tasks = labels.tasks
    rivals = labels.rivals(system)
    R = relation_matrix(lb.values, i)
    context = f"Condorcet weights of {system!r}"

    def run(fn: Any, *args: Any) -> WeightsLPResult:
        try:
            out = fn(*args)
        except SolverUnavailableError:
            raise
        except SolverError as exc:
            raise SolveFailedError(f"{context}: {exc}") from exc
        counters["lps"] += 0 if out.method == "shortcut" else 1
        counters["solves"] += out.n_solves
        counters["solver_seconds"] += out.solver_seconds
        return out

    def margins_of(w: np.ndarray) -> np.ndarray:
        if verify_with == "pairwise":
            return _margins_from_pairwise(lb, system, w)
        return _row_margins(lb.values, i, w)

    ref_map = dict(zip(tasks, reference.tolist())) if reference is not None else None
    mm = run(engine.max_margin, R)
    common = dict(
        system=system, strict=strict, reference_values=ref_map, objective=objective, constraints=cons,
        tol=tol, min_margin=min_margin,
    )
    if mm.status is SolveStatus.INFEASIBLE:
        cert = _certificate(lb, system, rivals, mm.certificate, "constraints", -CONSTRAINT_TOL, cons)
        if not _certificate_holds(lb, cert, cons):
            raise SolveFailedError(f"{context}: the Farkas certificate of the contradictory constraints does not verify")
        return CondorcetWeightsResult(
            feasible=False, margin=math.nan, bound=math.nan, weight_values=None, weights_margin=math.nan,
            rival_margins=None, binding=(), certificate=cert, distance=None, objective_value=None,
            status=SolveStatus.INFEASIBLE, method=mm.method, threshold=None, explanation=cert.statement,
            seconds=time.perf_counter() - start, **common,
        ), False

    # The max-margin weights, re-checked from the scores: a verified lower bound on eps*.
    best = np.asarray(mm.weights)
    best_margins = margins_of(best)
    margin = float(best_margins.min())
    if abs(margin - mm.margin) > 1e-9 or (cons and max(c.violation(dict(zip(tasks, best))) for c in cons) > CONSTRAINT_TOL):
        raise SolveFailedError(f"{context}: the max-margin weights do not reproduce from the scores")
    bound = float(mm.certificate.bound)
    method = mm.method

    proven: dict[tuple[int | None, int | None], Fraction] = {}  # which raw certificate -> its exact bound

    def never(strict_kind: bool) -> CondorcetCertificate:
        """The verified proof that the system cannot win (prefer one rival over a blend)."""
        j = _single_rival(R, strict_kind)
        if j is not None:
            y = np.zeros(len(rivals))
            y[j] = 1.0
            raw = certificate_bound(R, y)
        else:
            raw = mm.certificate
        kind, threshold = ("strict", tol) if strict_kind else ("weak", -tol)
        cert = _certificate(lb, system, rivals, raw, kind, threshold, cons if j is None else (), R, tasks)
        key = (j, id(raw) if j is None else None)
        if key not in proven:
            proven[key] = _exact_bound(lb, system, cert.rival_mix, cert.multipliers, cons, labels)
        bound_ok = proven[key] <= Fraction(threshold) if strict_kind else proven[key] < Fraction(threshold)
        if not bound_ok:
            raise SolveFailedError(
                f"{context}: the best margin is {margin:.3g} but the dual certificate only proves "
                f"{cert.bound:.3g} (tolerance {tol:g}); retry with a larger tol"
            )
        return cert

    feasible = margin > tol if strict else margin >= -tol
    other: bool | None = None
    if verify_with == "rows":  # prospective: the other notion too
        other = margin >= -tol if strict else margin > tol
        if not other:
            never(not strict)

    if not feasible:
        cert = never(strict)
        return CondorcetWeightsResult(
            feasible=False, margin=margin, bound=bound, weight_values=None, weights_margin=math.nan,
            rival_margins=None, binding=(), certificate=cert, distance=None, objective_value=None,
            status=SolveStatus.OPTIMAL, method=method, threshold=None, explanation=cert.statement,
            seconds=time.perf_counter() - start, **common,
        ), other

    weights, level, threshold = best, margin, None
    if reference is not None or objective is not None:
        threshold = min(min_margin, margin) if strict else min(0.0, margin)
        level = threshold
        if reference is not None:
            ref_ok = not cons or max(c.violation(ref_map) for c in cons) <= CONSTRAINT_TOL
            if ref_ok and _wins(margins_of(reference), strict, tol):
                weights, method = reference, method + "+reference"
            else:
                second = run(engine.nearest, R, reference, threshold)
                if second.weights is None:
                    raise SolveFailedError(f"{context}: the nearest-weights LP found no weighting reaching margin {threshold:.3g}")
                weights, method = np.asarray(second.weights), method + "+nearest"
        else:
            coefs = np.array([1.0 if t in objective[1] else 0.0 for t in tasks])
            second = run(engine.optimize, R, coefs, objective[0] == "max", threshold)
            if second.weights is None:
                raise SolveFailedError(f"{context}: the objective LP found no weighting reaching margin {threshold:.3g}")
            weights, method = np.asarray(second.weights), method + "+objective"

    # Independent verification: the weights must make the system win in the majority relation.
    final = margins_of(weights) if weights is not best else best_margins
    weight_map = dict(zip(tasks, weights.tolist()))
    if cons:
        worst = max(c.violation(weight_map) for c in cons)
        if worst > CONSTRAINT_TOL:
            raise SolveFailedError(f"{context}: the returned weights miss a constraint by {worst:.3g}")
    if not _wins(final, strict, tol):
        raise SolveFailedError(
            f"{context}: verification failed: with the solver's weights the smallest margin is "
            f"{final.min():.3g}, not {'> ' if strict else '>= -'}{tol:g} (solver tolerance)"
        )
    binding = tuple(s for s, m in zip(rivals, final) if m <= level + BINDING_TOL)
    distance = float(np.abs(weights - reference).sum()) if reference is not None else None
    if distance is not None and distance < 1e-15:
        distance = 0.0
    objective_value = float(sum(weight_map[t] for t in objective[1])) if objective is not None else None
    win = "beats every rival" if strict else "beats or ties every rival"
    text = f"{system!r} {win} with these weights (smallest margin {final.min():.4g}; best possible {margin:.4g})"
    if distance is not None:
        text += f"; L1 distance {distance:.4g} from the reference weights"
    if objective_value is not None:
        text += f"; {objective[0]} weight of {', '.join(objective[1])}: {objective_value:.4g}"
    return CondorcetWeightsResult(
        feasible=True, margin=margin, bound=bound, weight_values=weight_map, weights_margin=float(final.min()),
        rival_margins=dict(zip(rivals, final.tolist())), binding=binding, certificate=None, distance=distance,
        objective_value=objective_value, status=SolveStatus.OPTIMAL, method=method, threshold=threshold,
        explanation=text, seconds=time.perf_counter() - start, **common,
    ), other


# ---------------------------------------------------------------------- public API
def condorcet_weights(
    lb: Leaderboard,
    system: str,
    *,
    strict: bool = True,
    nearest_to: Reference = None,
    objective: tuple[Literal["min", "max"], str | Sequence[str]] | None = None,
    min_weight: float | Mapping[str, float] | None = None,
    max_weight: float | Mapping[str, float] | None = None,
    fixed: Mapping[str, float] | None = None,
    group_bounds: Mapping[Any, tuple[float | None, float | None]] | None = None,
    order: Iterable[Sequence[str]] | None = None,
    min_margin: float = 1e-6,
    solver: str = "highs",
    tol: float = 1e-9,
) -> CondorcetWeightsResult:
    """Find task weights under which `system` is the Condorcet winner, or prove there are none.

    Solves ``max eps`` subject to ``sum_k w_k R(system, m', k) >= eps`` for every rival
    ``m'``, ``w >= 0``, ``sum w = 1`` and the optional user constraints (Rofin et al. 2023,
    sec. 3.2, posed as a max-min margin LP so it is always solvable). ``eps*`` is the
    :attr:`~CondorcetWeightsResult.margin`.

    Parameters
    ----------
    lb : Leaderboard
        Missing scores are allowed (they compare as ties: ``R = 0``). The leaderboard's own
        weights are ignored except as the default reference of `nearest_to`.
    system : str
    strict : bool, default=True
        True: beat every rival (``eps* > tol``). False: the paper's condition, beat or tie
        every rival (``eps* >= -tol``, a weak Condorcet winner).
    nearest_to : 'leaderboard', 'uniform', True, mapping or Series, optional
        Return the winning weighting closest in L1 to this reference (``'leaderboard'`` or
        True: ``lb.normalized_weights``; a mapping is normalized, unlisted tasks weigh 0) and
        its :attr:`~CondorcetWeightsResult.distance`. If the reference already makes the
        system win (and meets the constraints) it is returned with distance 0. Otherwise the
        weights must reach margin ``min(min_margin, eps*)`` (strict; "> 0" is not a closed
        condition) or 0 (weak).
    objective : ('min' | 'max', tasks), optional
        Among the winning weightings (same margin threshold as `nearest_to`), minimize or
        maximize the total weight of `tasks` (a task, a list of tasks, or a group name), the
        paper's "w_i -> min". Exclusive with `nearest_to`.
    min_weight, max_weight : float or mapping task -> float, optional
        Per-task bounds (a scalar applies to every task).
    fixed : mapping task -> float, optional
        Weights that must take exactly these values.
    group_bounds : mapping {group name or tuple of tasks: (lower, upper)}, optional
        Bounds on the total weight of a group (``None`` for an open side); names refer to
        ``lb.groups``.
    order : list of pairs (or chains) of tasks, optional
        ``("a", "b")`` means ``w_a >= w_b``; ``("a", "b", "c")`` means ``w_a >= w_b >= w_c``.
    min_margin : float, default=1e-6
        The margin strict `nearest_to` / `objective` weights must reach; must exceed `tol`.
    solver : str, default="highs"
        ``"highs"`` (highspy) or a pulp solver name such as ``"cbc"`` (PuLP 3 ships one);
        see :func:`solvers.available_backends`.
    tol : float, default=1e-9
        Margin tolerance: ``> tol`` beats, ``< -tol`` loses. The default is the majority
        relation's own tie tolerance for weights summing to 1, so a returned weighting makes
        the system win exactly as :func:`is_condorcet_winner` on ``lb.with_weights(weights)``
        sees it.

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
        Malformed options (non-finite bounds, unknown group, `nearest_to` with `objective`).
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
    (strict) or not lose to (weak) every rival there, and satisfy every constraint within
    1e-9. Every certificate is verified in exact rational arithmetic from the scores. A
    Pareto-dominated system is never a strict winner; its certificate is its dominator
    (``rivals == {dominator: 1.0}``). The max-margin weights are one optimal vertex; optima
    are often not unique.

    References
    ----------
    .. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
       EACL 2023, sec. 3.2.

    Examples
    --------
    >>> import consensus as cs
    >>> lb = cs.load_example("votenrank-toy")
    >>> res = cs.condorcet_weights(lb, "A")          # A is last under uniform weights
    >>> res.feasible, res.margin, res.weights.to_dict()
    (True, 1.0, {'t1': 1.0, 't2': 0.0, 't3': 0.0, 't4': 0.0, 't5': 0.0})
    >>> res = cs.condorcet_weights(lb, "A", nearest_to="uniform")   # t1 + t2 must pass 1/2
    >>> round(res.distance, 6), round(float(res.weights["t1"] + res.weights["t2"]), 6)   # weights need not be unique
    (0.200001, 0.500001)
    >>> res = cs.condorcet_weights(lb, "A", max_weight=0.25)         # ... which caps make impossible
    >>> res.feasible, res.certificate.bound, res.verify(lb)   # a proof, checked exactly (not unique)
    (False, 0.0, True)
    >>> dict(res.certificate.multipliers)
    {'max_weight[t1]:upper': 2.0, 'max_weight[t2]:upper': 2.0}
    """
    start = time.perf_counter()
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"condorcet_weights expects a Leaderboard, got {type(lb).__name__}")
    lb.system_index(system)
    tol, min_margin = _check_options(tol, min_margin)
    if nearest_to is not None and nearest_to is not False and objective is not None:
        raise InvalidOptionError("pass either nearest_to or objective, not both")
    cons = _constraints(lb, min_weight=min_weight, max_weight=max_weight, fixed=fixed, group_bounds=group_bounds, order=order)
    reference = _reference(lb, nearest_to)
    obj = _objective(lb, objective)
    engine = _Engine(lb, _solver_constraints(lb, cons), solver, "pulp")
    counters = {"lps": 0, "solves": 0, "solver_seconds": 0.0}
    res, _ = _solve_system(
        lb, system, strict=bool(strict), reference=reference, objective=obj, cons=cons, engine=engine,
        tol=tol, min_margin=min_margin, verify_with="pairwise", counters=counters, labels=_Labels(lb),
    )
    object.__setattr__(res, "seconds", time.perf_counter() - start)
    return res


def prospective(
    lb: Leaderboard,
    *,
    strict: bool = True,
    nearest_to: Reference = "leaderboard",
    objective: tuple[Literal["min", "max"], str | Sequence[str]] | None = None,
    min_weight: float | Mapping[str, float] | None = None,
    max_weight: float | Mapping[str, float] | None = None,
    fixed: Mapping[str, float] | None = None,
    group_bounds: Mapping[Any, tuple[float | None, float | None]] | None = None,
    order: Iterable[Sequence[str]] | None = None,
    min_margin: float = 1e-6,
    solver: str = "highs",
    method: Literal["auto", "highspy", "pulp"] = "auto",
    tol: float = 1e-9,
) -> pd.DataFrame:
    """Which systems can be the Condorcet winner under some weighting? One row per system.

    Runs :func:`condorcet_weights` for every system (same options) and tabulates the
    answers. Both feasibility columns are backed by evidence: a verified weighting or a
    verified certificate.

    Parameters
    ----------
    lb : Leaderboard
    strict : bool, default=True
        Which notion `distance`, `weights` and `certificate` refer to (``feasible`` and
        ``strict_feasible`` are always both reported).
    nearest_to : default='leaderboard'
        As in :func:`condorcet_weights`; None skips the distances (example weights are then
        the max-margin weights).
    method : 'auto', 'highspy' or 'pulp', default='auto'
        'highspy': the fast path (:class:`solvers.weights_lp.HighsWeightsLP`: one reused
        HiGHS model, rival rows added lazily); 'pulp': a fresh model per LP with every rival
        row, solved by `solver` (HiGHS directly, or the named pulp solver; the name is kept
        from when every model went through pulp). 'auto' picks 'highspy' when
        ``solver == 'highs'``.
    objective, min_weight, max_weight, fixed, group_bounds, order, min_margin, solver, tol
        As in :func:`condorcet_weights`.

    Returns
    -------
    pandas.DataFrame
        Columns ``system``; ``feasible`` (weak: beats or ties everyone for some weighting,
        the paper's "prospective"); ``strict_feasible``; ``margin`` (the best smallest margin
        ``eps*``); ``distance`` (L1 from the reference to the nearest winning weighting, NaN
        when it cannot win or without `nearest_to`); ``weights`` (the example weighting as
        text ``"t1=0.5, t3=0.5"``, non-zero weights only: the nearest weighting, the
        `objective`'s optimum, or with neither the max-margin weights); ``certificate`` (for systems that
        cannot win: the rival mix, e.g. ``"C"`` or ``"0.5 C + 0.5 D"``); ``method``.
        ``frame.attrs`` records the options, the number of LPs and solver runs and the time
        spent; everything in the frame and its attrs is JSON-able.

    Notes
    -----
    LPs are skipped when the answer is plain from the comparison matrix: a rival that beats
    the system on every task fixes ``eps* = -1`` (that rival is the certificate); a task the
    system wins against everyone gives ``eps* = 1``; a reference weighting that already
    makes the system win is its nearest weighting. Every weighting is still verified from
    the scores (:func:`weighted_margins`) and every certificate in exact arithmetic.

    References
    ----------
    .. [1] Rofin et al., "Vote'n'Rank: Revision of Benchmarking with Social Choice Theory",
       EACL 2023, sec. 3.2 ("prospective" systems).

    Examples
    --------
    >>> import consensus as cs
    >>> frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7, 0.85], "nli": [0.5, 0.6, 0.4, 0.45],
    ...                       "summ": [0.3, 0.2, 0.35, 0.25]}, index=["a", "b", "c", "d"])
    >>> table = cs.prospective(cs.Leaderboard.from_frame(frame))
    >>> print(table.drop(columns="method").to_string())  # doctest: +NORMALIZE_WHITESPACE
      system  feasible  strict_feasible  margin  distance                             weights certificate
    0      a      True             True     1.0  0.000000  qa=0.3333, nli=0.3333, summ=0.3333
    1      b      True             True     1.0  0.333334     qa=0.3333, nli=0.5, summ=0.1667
    2      c      True             True     1.0  0.333334     qa=0.3333, nli=0.1667, summ=0.5
    3      d     False            False    -1.0       NaN                                               a
    """
    start = time.perf_counter()
    if not isinstance(lb, Leaderboard):
        raise InvalidOptionError(f"prospective expects a Leaderboard, got {type(lb).__name__}")
    tol, min_margin = _check_options(tol, min_margin)
    if objective is not None and isinstance(nearest_to, str) and nearest_to == "leaderboard":
        nearest_to = None  # the default reference gives way to an explicit objective
    if nearest_to is not None and nearest_to is not False and objective is not None:
        raise InvalidOptionError("pass either nearest_to or objective, not both")
    if method not in ("auto", "highspy", "pulp"):
        raise InvalidOptionError(f"method must be 'auto', 'highspy' or 'pulp', got {method!r}")
    if method == "auto":
        method = "highspy" if solver == "highs" else "pulp"
    cons = _constraints(lb, min_weight=min_weight, max_weight=max_weight, fixed=fixed, group_bounds=group_bounds, order=order)
    reference = _reference(lb, nearest_to)
    obj = _objective(lb, objective)
    solver_cons = _solver_constraints(lb, cons)
    counters: dict[str, float] = {"lps": 0, "solves": 0, "solver_seconds": 0.0}
    rows: list[dict[str, Any]] = []

    contradiction: CondorcetCertificate | None = None
    if solver_cons is not None:
        try:
            farkas = constraints_farkas_lp(solver_cons, backend=solver, slack=CONSTRAINT_TOL)
        except SolverError as exc:
            raise SolveFailedError(f"prospective: checking the weight constraints: {exc}") from exc
        counters["lps"] += 1
        counters["solves"] += 1
        if farkas is not None:
            contradiction = _certificate(lb, lb.systems[0], lb.systems[1:], farkas, "constraints", -CONSTRAINT_TOL, cons)
            if not _certificate_holds(lb, contradiction, cons):
                raise SolveFailedError("prospective: the Farkas certificate of the constraints does not verify")
    if contradiction is not None:
        for s in lb.systems:
            rows.append(
                {"system": s, "feasible": False, "strict_feasible": False, "margin": math.nan, "distance": math.nan,
                 "weights": "", "certificate": contradiction.summary(), "method": "farkas"}
            )
    else:
        engine = _Engine(lb, solver_cons, solver, method)
        labels = _Labels(lb)
        for s in labels.systems:
            res, other = _solve_system(
                lb, s, strict=bool(strict), reference=reference, objective=obj, cons=cons, engine=engine,
                tol=tol, min_margin=min_margin, verify_with="rows", counters=counters, labels=labels,
            )
            strict_ok, weak_ok = (res.feasible, other) if strict else (other, res.feasible)
            weights = ""
            if res.weight_values is not None:
                weights = ", ".join(f"{t}={w:.4g}" for t, w in res.weight_values.items() if w > 0)
            rows.append(
                {
                    "system": s,
                    "feasible": bool(weak_ok),
                    "strict_feasible": bool(strict_ok),
                    "margin": float(res.margin),
                    "distance": math.nan if res.distance is None else float(res.distance),
                    "weights": weights,
                    "certificate": res.certificate.summary() if res.certificate is not None else "",
                    "method": res.method,
                }
            )
    frame = pd.DataFrame(rows, columns=["system", "feasible", "strict_feasible", "margin", "distance", "weights", "certificate", "method"])
    frame["system"] = frame["system"].astype(object)
    frame.attrs.update(
        jsonable(
            {
                "strict": bool(strict),
                "reference": dict(zip(lb.tasks, reference.tolist())) if reference is not None else None,
                "objective": [obj[0], list(obj[1])] if obj else None,
                "constraints": [c.label for c in cons],
                "tol": tol,
                "min_margin": min_margin,
                "method": method if contradiction is None else "farkas",
                "solver": solver,
                "n_lps": int(counters["lps"]),
                "n_solves": int(counters["solves"]),
                "solver_seconds": float(counters["solver_seconds"]),
                "seconds": time.perf_counter() - start,
            }
        )
    )
    return frame
