"""How stable is the winner? The smallest change of the official weights that changes it.

:func:`weight_sensitivity` answers three questions for a rule and a target (the winner, the
top k, or the whole ranking) on a leaderboard with official task weights ``r``:

1. the **L1 radius**: the smallest ``||w - r||_1`` over admissible weightings ``w`` under which
   the target changes;
2. the **L-infinity radius**: the same in the largest per-task change;
3. the **fewest removals**: the fewest tasks whose removal (the others keep their weights)
   changes the target.

A tie counts as a change (the target is no longer decided), so every answer is 0 exactly
when the target is already tied.

Method
------
Linear rules (:data:`consensus.rules.linear.LINEAR_RULES`): with per-task points ``P`` the
score of ``m`` is ``P[m] @ w``. The target changes as soon as one *critical pair* (a system
``a`` the target puts above ``b``) ties: ``(P[a] - P[b]) @ w <= 0``. The critical pairs are
the winner against each rival (winner), each top-k system against each other system
(top k), and the adjacent pairs of the ranking (ranking: before any two systems swap, some
adjacent pair must tie, since the ranking cannot change before the first tie on any path
from ``r``; for removals, if ``c`` overtakes ``a`` then ``b`` between them overtakes ``a``
or is overtaken by ``c``). For each pair the radius is one LP
(:class:`solvers.weight_radius.RadiusLP`); pairs whose solver-free lower bound
(:func:`solvers.weight_radius.radius_lower_bounds`) is not below the best radius found are
skipped, so a 1,000-system board needs a handful of LPs. The fewest removals for one pair
are found greedily and exactly: remove the tasks with the largest contribution
``r_k (P[a, k] - P[b, k])`` until the rest sums to 0 or less (an exchange argument: any
removal set of the same size removes at most that much).

The Condorcet winner and Kemeny: the same with the majority relation (``d_k = +1/0/-1``) in
place of point differences. For the Condorcet winner the answers are exact. For Kemeny they
are *lower bounds* (``kind="lower_bound"``): within the radius every majority edge the
target rests on keeps its direction, so the Condorcet winner stays the Condorcet winner and
is ranked first by every Kemeny ranking (winner), and the majority stays the same linear
order, which is then the unique Kemeny ranking (ranking). Beyond it Kemeny may or may not
change. When the majority has no strict Condorcet winner (winner) or is not a strict linear
order (ranking), no positive radius is certified and the answer is 0.

Evidence: the nearest weightings and the removals are re-checked by running the rule (the
exact majority relation for Condorcet and Kemeny) and must show the pair tied or swapped.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from solvers.weight_radius import Norm, RadiusLP, norm_distance, radius_lower_bounds

from .._docstrings import fill_doc
from ..board._leaderboard import Leaderboard
from ..errors import InvalidOptionError, SolveFailedError
from ..majority._pairwise import pairwise
from ..missing._preparation import board_of
from ..results import Preparation, RadiusAnswer, RemovalAnswer, SensitivityResult
from ..results.base import tier_positions
from ..rules.linear import rule_result
from ..rules.registry import rank
from ._solver_choice import solver_errors
from ._weight_options import (
    WEIGHT_DOCS,
    Constraints,
    prepared_weights,
    solver_constraints,
    weight_options,
)
from ._winning import linear_setup

__all__ = ["weight_sensitivity"]

Target = Literal["winner", "ranking"] | tuple[Literal["top"], int] | str
Tiers = tuple[tuple[str, ...], ...]

#: A strict swap asked for when the tie at the exact radius does not verify, in units of
#: the largest advantage on a task.
SWAP_MARGIN = 1e-7


def parse_target(target: object, n_systems: int) -> tuple[str, int | None]:
    """``"winner"``, ``"ranking"``, ``("top", k)`` or ``"top3"`` -> (kind, k).

    Parameters
    ----------
    target : object
    n_systems : int

    Returns
    -------
    (str, int or None)

    Raises
    ------
    InvalidOptionError
        Anything else, or k outside 1..n_systems - 1.

    Examples
    --------
    >>> parse_target("top3", 10), parse_target(("top", 2), 10), parse_target("winner", 10)
    (('top', 3), ('top', 2), ('winner', None))
    """
    if target in ("winner", "ranking"):
        return str(target), None
    k: object = None
    if isinstance(target, str) and re.fullmatch(r"top\d+", target):
        k = int(target[3:])
    elif isinstance(target, tuple) and len(target) == 2 and target[0] == "top":
        k = target[1]
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= int(k) < n_systems:
        raise InvalidOptionError(
            f"target must be 'winner', 'ranking', ('top', k) or 'top<k>' with 1 <= k < {n_systems}, got {target!r}"
        )
    return "top", int(k)


@dataclass
class _Problem:
    """One sensitivity question in numbers: the critical pairs and how to check a change."""

    lb: Leaderboard
    rule: str
    kind: str
    current: Tiers
    pairs: list[tuple[int, int]]  # (leader row, challenger row)
    D: np.ndarray  # one advantage row per pair
    tied: tuple[str, str] | None  # the pair already tied, if any
    check: Any  # (weights or None, kept tasks or None) -> (changed pair?, outcome tiers)
    note: str = ""
    preparation: Preparation = Preparation()


def _critical_pairs(order_tiers: Tiers, kind: str, k: int | None, index: Mapping[str, int]) -> tuple[list[tuple[int, int]], tuple[str, str] | None]:
    """The critical pairs of a target in a ranking (tie groups), or the pair already tied."""
    flat = [s for g in order_tiers for s in g]
    if kind == "winner":
        if len(order_tiers[0]) > 1:
            return [], (order_tiers[0][0], order_tiers[0][1])
        w = order_tiers[0][0]
        return [(index[w], index[s]) for s in flat[1:]], None
    if kind == "top":
        assert k is not None
        above = 0
        for group in order_tiers:
            if above < k < above + len(group):  # a tie group straddles position k
                return [], (group[0], group[-1])
            above += len(group)
        top, rest = flat[:k], flat[k:]
        return [(index[a], index[b]) for a in top for b in rest], None
    for group in order_tiers:
        if len(group) > 1:
            return [], (group[0], group[1])
    return [(index[flat[p]], index[flat[p + 1]]) for p in range(len(flat) - 1)], None


def _linear_problem(lb: Leaderboard, rule: str, kind: str, k: int | None, options: Mapping[str, Any],
                    missing: object, min_coverage: float | None) -> tuple[_Problem, dict[str, Any]]:
    setup = linear_setup(lb, rule, options, missing, min_coverage, "weight_sensitivity")
    work = setup.lp.lb
    r = work.normalized_weights.to_numpy(dtype=np.float64)
    current_full = rule_result(setup.lp, r).ranking
    index = {s: i for i, s in enumerate(work.systems)}
    pairs, tied = _critical_pairs(current_full, kind, k, index)
    P = setup.scaled
    D = np.array([P[a] - P[b] for a, b in pairs]) if pairs else np.zeros((0, work.n_tasks))
    systems = work.systems

    def check(weights: np.ndarray | None, keep: Sequence[str] | None, pair: tuple[int, int]) -> tuple[bool, Tiers]:
        if keep is not None:
            w = np.array([r[j] if t in keep else 0.0 for j, t in enumerate(work.tasks)])
        else:
            w = np.asarray(weights)
        ranking = rule_result(setup.lp, w).ranking
        pos = tier_positions(ranking)
        a, b = systems[pair[0]], systems[pair[1]]
        return pos[a] >= pos[b], ranking

    return _Problem(work, rule, "exact", _cut(current_full, kind, k), pairs, D, tied, check, "", setup.record), setup.options()


def _relation_rows(values: np.ndarray, pairs: Sequence[tuple[int, int]]) -> np.ndarray:
    """``sign(v[a] - v[b])`` per task for each pair, 0 where either score is missing."""
    if not pairs:
        return np.zeros((0, values.shape[1]))
    a = np.array([p[0] for p in pairs])
    b = np.array([p[1] for p in pairs])
    with np.errstate(invalid="ignore"):
        out = np.sign(values[a] - values[b])
    return np.nan_to_num(out, nan=0.0)


def _majority_problem(lb: Leaderboard, rule: str, kind: str, missing: object,
                      min_coverage: float | None) -> tuple[_Problem, dict[str, Any]]:
    if kind == "top":
        raise InvalidOptionError(
            f"weight_sensitivity: target top-k is not defined for rule {rule!r}; use 'winner' or 'ranking' (kemeny), "
            "or a linear rule"
        )
    if rule == "condorcet" and kind == "ranking":
        raise InvalidOptionError("weight_sensitivity: rule 'condorcet' has a winner, not a ranking; use rule='kemeny' for the ranking")
    ready = prepared_weights(lb, missing, min_coverage, "weight_sensitivity")
    work = ready.leaderboard
    M = pairwise(work).majority
    systems = work.systems
    n = len(systems)
    exact = "exact" if rule == "condorcet" else "lower_bound"
    note = ""
    pairs: list[tuple[int, int]] = []
    tied: tuple[str, str] | None = None
    if kind == "winner":
        strict = [i for i in range(n) if (np.delete(M[i], i) == 1).all()]
        weak = [i for i in range(n) if (np.delete(M[i], i) >= 0).all()]
        if strict:
            w = strict[0]
            pairs = [(w, j) for j in range(n) if j != w]
            current: Tiers = ((systems[w],),)
        elif weak:
            w = weak[0]
            j = next(j for j in range(n) if j != w and M[w, j] == 0)
            tied, current = (systems[w], systems[j]), (tuple(systems[i] for i in weak),)
            note = "the official weights give no strict Condorcet winner (a majority tie)"
        else:
            tied, current = (None, None), ()  # type: ignore[assignment]
            note = "the official weights give no Condorcet winner (a majority cycle)"
    else:
        wins = (M == 1).sum(axis=1)
        order = np.argsort(-wins, kind="stable")
        linear = sorted(wins.tolist()) == list(range(n)) and ((M + np.eye(n, dtype=M.dtype)) != 0).all()
        current = tuple((systems[i],) for i in order)
        if linear:
            pairs = [(int(order[p]), int(order[q])) for p in range(n) for q in range(p + 1, n)]
        else:
            tied = (None, None)  # type: ignore[assignment]
            note = "the majority relation is not a strict linear order (a tie or a cycle): no positive radius is certified"
    D = _relation_rows(work.values, pairs)
    r = work.normalized_weights.to_numpy(dtype=np.float64)

    def check(weights: np.ndarray | None, keep: Sequence[str] | None, pair: tuple[int, int]) -> tuple[bool, Tiers]:
        if weights is None:  # removed tasks weigh 0 (a system scored only there is no error)
            assert keep is not None  # callers pass `keep` whenever `weights` is None
            weights = np.array([r[j] if t in keep else 0.0 for j, t in enumerate(work.tasks)])
        sub = work.with_weights({t: float(x) for t, x in zip(work.tasks, weights)})
        changed = bool(pairwise(sub).majority[pair[0], pair[1]] <= 0)
        return changed, rank(sub, "condorcet", min_coverage=0).ranking  # the systems of `work`, whatever the weights

    return _Problem(work, rule, exact, current, pairs, D, tied, check, note, ready.preparation), {}


def _cut(tiers: Tiers, kind: str, k: int | None) -> Tiers:
    """The part of a ranking a target is about."""
    if kind == "winner":
        return tiers[:1]
    if kind == "top":
        out, count = [], 0
        for g in tiers:
            if count >= k:  # type: ignore[operator]
                break
            out.append(g)
            count += len(g)
        return tuple(out)
    return tiers


def _radius(prob: _Problem, r: np.ndarray, norm: Norm, cons: Any, solver: str, counters: dict[str, int]) -> RadiusAnswer:
    """The radius in one norm: LPs over the critical pairs in lower-bound order, with pruning."""
    tasks = prob.lb.tasks
    systems = prob.lb.systems
    if prob.tied is not None:
        a, b = prob.tied
        return RadiusAnswer(norm, 0.0, a, b, dict(zip(tasks, r.tolist())), 0.0, prob.current)
    bounds = radius_lower_bounds(prob.D, r, norm)
    order = np.argsort(bounds, kind="stable")
    lp = RadiusLP(r, norm, cons, solver)
    best, best_idx, best_sol = math.inf, -1, None
    with solver_errors(f"weight_sensitivity ({norm} radius)", solver):
        for idx in order.tolist():
            if bounds[idx] >= best * (1 - 1e-12) - 1e-15:
                counters["pruned"] += 1
                continue
            sol = lp.solve(prob.D[idx])
            counters["lps"] += 1
            if sol.weights is not None and sol.distance < best:
                best, best_idx, best_sol = sol.distance, idx, sol
    if best_sol is None:
        return RadiusAnswer(norm, math.inf, None, None, None, math.inf, prob.current)
    pair = prob.pairs[best_idx]
    weights = best_sol.weights
    ok, outcome = prob.check(weights, None, pair)
    if not ok:  # the exact tie did not show in floating point: ask for a strict swap
        swap = -SWAP_MARGIN * float(np.abs(prob.D[best_idx]).max())
        with solver_errors(f"weight_sensitivity ({norm} radius)", solver):
            again = lp.solve(prob.D[best_idx], threshold=swap)
        counters["lps"] += 1
        if again.weights is None:
            raise SolveFailedError(f"weight_sensitivity: the {norm} nearest weighting does not verify")
        weights = again.weights
        ok, outcome = prob.check(weights, None, pair)
        if not ok:
            raise SolveFailedError(
                f"weight_sensitivity: with the {norm} nearest weights, {systems[pair[1]]!r} still does not catch {systems[pair[0]]!r}"
            )
    assert weights is not None
    return RadiusAnswer(
        norm, best, systems[pair[0]], systems[pair[1]], dict(zip(tasks, weights.tolist())),
        norm_distance(weights, r, norm), outcome,
    )


def fewest_removals(D: np.ndarray, r: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pair, the fewest tasks whose removal makes ``sum_k r_k D_k`` over the rest ``<= 0``.

    Greedy and exact: remove the largest contributions ``r_k D_k`` first (an exchange
    argument: no set of the same size removes more). At least one task of positive weight
    must remain.

    Parameters
    ----------
    D : ndarray (n_pairs, n_tasks)
        Advantage rows.
    r : ndarray (n_tasks,)
        The official weights.

    Returns
    -------
    (ndarray, ndarray)
        The count per pair (``-1`` when impossible) and the task order (columns of `D`,
        largest contribution first): a pair's removed tasks are the first `count` of its row.

    Examples
    --------
    >>> counts, order = fewest_removals(np.array([[1.0, 1.0, -1.0, 1.0], [3.0, -1.0, -1.0, 0.0]]), np.full(4, 0.25))
    >>> counts.tolist(), order[0, :2].tolist()     # removing 2 tasks ties the first pair
    ([2, 1], [0, 1])
    """
    C = D * r[None, :]
    g = C.sum(axis=1)
    order = np.argsort(-C, axis=1, kind="stable")
    Cs = np.take_along_axis(C, order, axis=1)
    rest = g[:, None] - np.cumsum(Cs, axis=1)
    tol = 1e-12 * np.abs(C).sum(axis=1)[:, None]
    ok = (rest <= tol) & (Cs > 0)
    counts = np.where(ok.any(axis=1), ok.argmax(axis=1) + 1, -1)
    counts = np.where(g <= tol[:, 0], 0, counts)
    positive = int((r > 0).sum())
    counts = np.where(counts >= positive, -1, counts)
    return counts, order


def _removal(prob: _Problem, r: np.ndarray) -> RemovalAnswer:
    tasks = prob.lb.tasks
    systems = prob.lb.systems
    if prob.tied is not None:
        a, b = prob.tied
        return RemovalAnswer(0, (), a, b, prob.current)
    counts, order = fewest_removals(prob.D, r) if len(prob.pairs) else (np.zeros(0, dtype=int), None)
    feasible = np.nonzero(counts > 0)[0]
    if not len(feasible):
        return RemovalAnswer(None, (), None, None, prob.current)
    assert order is not None  # no pairs: `counts` is empty and we returned above
    ranked = feasible[np.argsort(counts[feasible], kind="stable")]
    positive = int((r > 0).sum())
    for idx in ranked.tolist():  # the first verified, fewest first
        pair = prob.pairs[idx]
        for m in range(int(counts[idx]), positive):
            removed = [tasks[j] for j in order[idx, :m].tolist()]
            keep = [t for t in tasks if t not in removed]
            ok, outcome = prob.check(None, keep, pair)
            if ok:
                return RemovalAnswer(m, tuple(removed), systems[pair[0]], systems[pair[1]], outcome)
            if m > counts[idx]:
                break
    raise SolveFailedError("weight_sensitivity: no task removal verified by running the rule")


@fill_doc(WEIGHT_DOCS)
def weight_sensitivity(
    data: Leaderboard,
    *,
    rule: str = "mean",
    target: Target = "winner",
    ties: Literal["average", "min", "max"] | None = None,
    vector: Sequence[float] | None = None,
    normalize: Literal["minmax", "zscore"] | None = None,
    constraints: Constraints | Mapping[str, Any] | None = None,
    missing: str | None = None,
    min_coverage: float | None = 0.0,
    solver: str = "highs",
) -> SensitivityResult:
    """The smallest change of the official task weights that changes the winner (or top k, or ranking).

    Parameters
    ----------
    data : Leaderboard
        Its task weights are the official weights ``r`` (normalized to sum 1).
    rule : str, default="mean"
        A linear rule (``"mean"``, ``"borda"``, ``"dowdall"``, ``"plurality"``,
        ``"scoring"``, ``"rank_complement"``, ``"top_ten"``, ``"eurovision"``; exact answers),
        ``"condorcet"`` (the Condorcet winner; exact) or ``"kemeny"`` (lower bounds from the
        majority relation; see the module notes).
    target : "winner", "ranking", ("top", k) or "top<k>", default="winner"
        What must change. Top-k: the set of the first k systems. Ranking: any two systems
        swap or tie.
    ties, vector, normalize : optional
        The linear rule's own options, as in :func:`consensus.winning_weights`.
    constraints : Constraints or mapping, optional
        Bounds on the new weights (as in :func:`consensus.condorcet_weights`); the
        removal answer ignores them (it keeps the official weights of the other tasks).
    missing : {None, "drop_tasks", "drop_systems", "median", "impute"}, optional
        As in :func:`consensus.winning_weights` (``"impute"``: positional rules).
    {min_coverage}
    solver : str, default="highs"

    Returns
    -------
    SensitivityResult
        ``l1`` and ``linf`` (:class:`~consensus.results.RadiusAnswer`: the radius, the pair
        that ties there, the nearest weighting, what the rule gives with it) and ``removal``
        (:class:`~consensus.results.RemovalAnswer`); ``to_frame()``: per task, the official
        weight, the two nearest weightings and their changes, and the tasks removed.

    Raises
    ------
    InvalidOptionError
        A bad rule, target or option (top-k with a majority rule, a ranking with
        ``"condorcet"``).
    SolverNotAvailableError
        `solver` is unknown or not installed here.
    SolveFailedError
        A solver failed, or its answer did not verify.

    Examples
    --------
    >>> import consensus as cs
    >>> toy = cs.load_example("votenrank-toy")     # mean: B 2.8 leads C 2.6
    >>> res = cs.weight_sensitivity(toy, rule="mean")
    >>> res.current, round(res.l1.distance, 6), (res.l1.leader, res.l1.challenger)
    ((('B',),), 0.1, ('B', 'C'))
    >>> res.l1.weights.round(4).to_dict()           # 0.05 moves from t3 to t2
    {'t1': 0.2, 't2': 0.25, 't3': 0.15, 't4': 0.2, 't5': 0.2}
    >>> res.removal.n_removed, res.removal.tasks, res.removal.outcome[0]
    (1, ('t3',), ('C',))
    """
    start = time.perf_counter()
    checked = weight_options("weight_sensitivity", data, rule=rule, ties=ties, vector=vector, normalize=normalize,
                             constraints=constraints, solver=solver, majority=("condorcet", "kemeny"))
    kind, k = parse_target(target, board_of(data, "weight_sensitivity").n_systems)
    label = f"top{k}" if kind == "top" else kind
    if rule in ("condorcet", "kemeny"):
        prob, rule_opts = _majority_problem(data, rule, kind, missing, min_coverage)
    else:
        prob, rule_opts = _linear_problem(data, rule, kind, k, checked.rule_options, missing, min_coverage)
    work = prob.lb
    cons = checked.constraints.rows(work)
    r = work.normalized_weights.to_numpy(dtype=np.float64)
    counters = {"lps": 0, "pruned": 0}
    if prob.tied == (None, None):
        prob.tied = None
        zero = RadiusAnswer("l1", 0.0, None, None, dict(zip(work.tasks, r.tolist())), 0.0, prob.current)
        l1, linf = zero, RadiusAnswer("linf", 0.0, None, None, dict(zip(work.tasks, r.tolist())), 0.0, prob.current)
        removal = RemovalAnswer(0, (), None, None, prob.current)
    else:
        solver_cons = solver_constraints(work, cons)
        l1 = _radius(prob, r, "l1", solver_cons, solver, counters)
        linf = _radius(prob, r, "linf", solver_cons, solver, counters)
        removal = _removal(prob, r)
    explanation = _explain(prob, label, l1, linf, removal)
    options = {
        "n_pairs": len(prob.pairs),
        "n_lps": counters["lps"],
        "n_pruned": counters["pruned"],
        "constraints": [c.label for c in cons],
        "solver": solver,
        "seconds": time.perf_counter() - start,
    }
    return SensitivityResult(
        rule=rule, rule_options=rule_opts, target=label, kind=prob.kind, current=prob.current,
        reference_values=dict(zip(work.tasks, r.tolist())), l1=l1, linf=linf, removal=removal,
        explanation=explanation, options=options, preparation=prob.preparation,
    )


def _explain(prob: _Problem, label: str, l1: RadiusAnswer, linf: RadiusAnswer, removal: RemovalAnswer) -> str:
    what = {"winner": "the winner", "ranking": "the ranking"}.get(label, f"the {label} set")
    if prob.note:
        return f"{prob.note}; {what} under {prob.rule} has no positive radius"
    if l1.distance == 0:
        return f"{what} under {prob.rule} is already tied ({l1.leader} and {l1.challenger}): radius 0"
    bound = "at least " if prob.kind == "lower_bound" else ""
    text = (
        f"{what} under {prob.rule} changes once the official weights move by {bound}{l1.distance:.4g} in L1 "
        f"({l1.challenger} catches {l1.leader}) or {bound}{linf.distance:.4g} on some task (L-infinity)"
    )
    if removal.n_removed:
        text += f"; removing {removal.n_removed} task(s) ({', '.join(removal.tasks)}) changes it"
    elif removal.n_removed is None:
        text += "; no removal of tasks changes it"
    return text
