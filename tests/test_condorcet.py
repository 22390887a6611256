"""condorcet_weights / prospective / weighted_margins (Rofin et al. 2023, sec. 3.2)."""

from __future__ import annotations

import itertools
import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import consensus as cs
import consensus.exact._condorcet as cond
from consensus.errors import (
    InvalidOptionError,
    SolveFailedError,
    UnknownSystemError,
    UnknownTaskError,
)
from solvers import SolveStatus
from tests.strategies import score_tables

GOLDEN = json.loads((Path(__file__).parent / "data" / "golden" / "condorcet_weights_votenrank_toy.json").read_text())
TOL = 1e-9


# ---------------------------------------------------------------------- independent references
def rel(lb: cs.Leaderboard, system: str) -> tuple[list[str], np.ndarray]:
    """R(system, m', k) from the oriented scores, written out again for the tests."""
    v = lb.values
    i = lb.systems.index(system)
    rivals = [s for s in lb.systems if s != system]
    rows = []
    for s in rivals:
        j = lb.systems.index(s)
        rows.append([0.0 if (np.isnan(a) or np.isnan(b) or a == b) else (1.0 if a > b else -1.0) for a, b in zip(v[i], v[j])])
    return rivals, np.array(rows)


def simplex_grid(n_tasks: int, steps: int) -> np.ndarray:
    """Every weight vector with entries in {0, 1/steps, ..., 1} summing to 1."""
    points = []
    for cut in itertools.combinations(range(steps + n_tasks - 1), n_tasks - 1):
        bars = (-1, *cut, steps + n_tasks - 1)
        points.append([bars[k + 1] - bars[k] - 1 for k in range(n_tasks)])
    return np.array(points, dtype=float) / steps


def grid_for(n_tasks: int) -> np.ndarray:
    return simplex_grid(n_tasks, {1: 1, 2: 12, 3: 10, 4: 8, 5: 6}[n_tasks])


def majority_wins(lb: cs.Leaderboard, system: str, weights: pd.Series, strict: bool) -> bool:
    """Rebuild the weighted majority graph with the weights and ask the foundation."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        weighted = lb.with_weights(weights.to_dict())
    if strict:
        return cs.majority.is_condorcet_winner(weighted, system)
    return system in cs.majority.weak_condorcet_winners(weighted)


def check_certificate(lb: cs.Leaderboard, res: cs.results.CondorcetWeightsResult) -> None:
    """A few lines of arithmetic, no solver: the blend is never worse (strict) / always better (weak)."""
    cert = res.certificate
    rivals, R = rel(lb, res.system)
    y = cert.rivals.reindex(rivals, fill_value=0.0).to_numpy()
    assert (y >= 0).all() and y.sum() == pytest.approx(1.0)
    advantage = y @ R
    np.testing.assert_allclose(advantage, cert.advantage.to_numpy(), atol=1e-12)
    if not res.constraints:
        if cert.kind == "strict":
            assert advantage.max() <= TOL
        else:
            assert advantage.max() < -TOL
        assert cert.bound == pytest.approx(advantage.max(), abs=1e-12)
    elif all(c.label.startswith("scored_tasks_only[") for c in res.constraints):
        # weight 0 on the unscored tasks: the blend's advantage on the scored tasks alone decides
        scored = ~lb.missing.loc[res.system].to_numpy()
        top = advantage[scored].max()
        assert top <= TOL if cert.kind == "strict" else top < -TOL
    # exact re-check through the module's own verifier as well
    assert res.verify(lb)


def check_witness(lb: cs.Leaderboard, res: cs.results.CondorcetWeightsResult) -> None:
    w = res.weights
    assert list(w.index) == list(lb.tasks)
    assert (w >= 0).all() and w.sum() == pytest.approx(1.0, abs=1e-12)
    assert majority_wins(lb, res.system, w, res.strict)
    margins = cs.exact.weighted_margins(lb, res.system, w)
    assert margins.min() == pytest.approx(res.weights_margin, abs=1e-12)
    for c in res.constraints:
        assert c.violation(w.to_dict()) <= 1e-9, c.label


# ---------------------------------------------------------------------- golden: Vote'n'Rank toy
def test_golden_toy_scores_match_fixture(votenrank_toy):
    frame = pd.DataFrame(GOLDEN["scores"], index=GOLDEN["tasks"]).T.astype(float)
    assert votenrank_toy.scores.equals(frame)
    assert cs.condorcet_winner(votenrank_toy) == GOLDEN["published"]["condorcet_winner_uniform"]


@pytest.mark.parametrize("system", ["A", "B", "C", "D"])
def test_golden_toy_every_system_is_prospective(votenrank_toy, system):
    truth = GOLDEN["computed"]
    res = cs.condorcet_weights(votenrank_toy, system, nearest_to=None)  # the max-margin vertex
    assert res.feasible is truth["strict_prospective"][system]
    assert res.margin == pytest.approx(truth["max_margin"][system])
    assert res.bound == pytest.approx(truth["max_margin"][system])
    top = res.weights[res.weights > 0]
    assert set(top.index) <= set(truth["winning_task"][system])
    check_witness(votenrank_toy, res)
    weak = cs.condorcet_weights(votenrank_toy, system, strict=False, nearest_to=None)
    assert weak.feasible is truth["weak_prospective"][system]
    check_witness(votenrank_toy, weak)


@pytest.mark.parametrize("system", ["A", "B", "C", "D"])
def test_golden_toy_nearest_to_uniform(votenrank_toy, system):
    truth = GOLDEN["computed"]["nearest_uniform_distance"][system]
    res = cs.condorcet_weights(votenrank_toy, system, nearest_to="uniform")
    check_witness(votenrank_toy, res)
    # strict wins need margin >= min_margin (1e-6): the distance exceeds the infimum by O(1e-6)
    assert truth - 1e-9 <= res.distance <= truth + 1e-5
    assert res.distance == pytest.approx(float(np.abs(res.weights - 0.2).sum()), abs=1e-12)
    example = GOLDEN["computed"]["nearest_uniform_example"].get(system)
    if example is not None:  # the golden example sits exactly on the boundary: a weak win
        w = pd.Series(example)
        assert majority_wins(votenrank_toy, system, w, strict=False)
        assert float(np.abs(w - 0.2).sum()) == pytest.approx(truth)


def test_golden_toy_matches_grid_brute_force(votenrank_toy):
    grid = simplex_grid(5, 10)
    table = cs.prospective(votenrank_toy, nearest_to="uniform").to_frame().set_index("system")
    for system in votenrank_toy.systems:
        _, R = rel(votenrank_toy, system)
        best = (grid @ R.T).min(axis=1)
        assert table.loc[system, "margin"] == pytest.approx(best.max())
        winners = grid[best > 0]
        assert table.loc[system, "distance"] <= np.abs(winners - 0.2).sum(axis=1).min() + 1e-7


def test_golden_toy_weight_cap_makes_a_never(votenrank_toy):
    res = cs.condorcet_weights(votenrank_toy, "A", constraints=cs.Constraints(max_weight=0.25))
    assert res.feasible is GOLDEN["computed"]["max_weight_0.25"]["A"]
    assert res.weights is None and res.certificate.kind == "strict"
    assert res.margin == pytest.approx(0.0, abs=1e-12)
    # the proof by hand: y^T R = (1, 1, -1, -1, -1); capped t1, t2 with multipliers 2 each
    cert = res.certificate
    mu = {k: v for k, v in cert.multipliers.items()}
    assert set(mu) == {"max_weight[t1]:upper", "max_weight[t2]:upper"}
    adv = cert.advantage
    d = pd.Series(0.0, index=adv.index)
    d["t1"], d["t2"] = mu["max_weight[t1]:upper"], mu["max_weight[t2]:upper"]
    bound = (adv - d).max() + 0.25 * sum(mu.values())
    assert bound == pytest.approx(cert.bound) and bound <= TOL
    assert res.verify(votenrank_toy)


# ---------------------------------------------------------------------- special shapes
def test_pareto_dominated_system_certificate_is_the_dominator():
    frame = pd.DataFrame(
        {"t1": [1.0, 2.0, 0.0], "t2": [3.0, 3.0, 5.0], "t3": [2.0, 2.5, 1.0]}, index=["low", "dom", "other"]
    )
    lb = cs.Leaderboard.from_frame(frame)
    assert cs.majority.pareto_dominated(lb) == {"low": ("dom",)}
    res = cs.condorcet_weights(lb, "low")
    assert not res.feasible and res.weights is None
    assert dict(res.certificate.rival_mix) == {"dom": 1.0}
    assert "Pareto" in res.certificate.statement
    check_certificate(lb, res)
    # weakly it can still tie the dominator (all weight on t2, where they tie) and beat "other"? no:
    weak = cs.condorcet_weights(lb, "low", strict=False)
    assert weak.feasible is (weak.margin >= -TOL)
    (check_witness if weak.feasible else check_certificate)(lb, weak)


def test_strictly_dominated_system_is_not_even_weakly_prospective():
    frame = pd.DataFrame({"t1": [1.0, 2.0], "t2": [1.0, 3.0]}, index=["a", "b"])
    lb = cs.Leaderboard.from_frame(frame)
    res = cs.condorcet_weights(lb, "a", strict=False)
    assert not res.feasible and res.margin == -1.0 and res.bound == -1.0
    assert dict(res.certificate.rival_mix) == {"b": 1.0} and res.certificate.kind == "weak"
    assert "strictly better" in res.certificate.statement
    check_certificate(lb, res)


def test_one_task():
    frame = pd.DataFrame({"only": [3.0, 1.0, 2.0]}, index=["a", "b", "c"])
    lb = cs.Leaderboard.from_frame(frame)
    table = cs.prospective(lb).to_frame().set_index("system")
    assert table["strict_feasible"].to_dict() == {"a": True, "b": False, "c": False}
    assert table["margin"].to_dict() == {"a": 1.0, "b": -1.0, "c": -1.0}
    res = cs.condorcet_weights(lb, "a")
    assert res.weights.to_dict() == {"only": 1.0}
    check_witness(lb, res)
    for s in ("b", "c"):
        r = cs.condorcet_weights(lb, s)
        assert dict(r.certificate.rival_mix) == {"a": 1.0}
        check_certificate(lb, r)


def test_one_task_with_a_tie_at_the_top_is_only_weakly_prospective():
    frame = pd.DataFrame({"only": [3.0, 3.0, 2.0]}, index=["a", "b", "c"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cs.DegenerateTaskWarning)
        lb = cs.Leaderboard.from_frame(frame)
    res = cs.condorcet_weights(lb, "a")
    assert not res.feasible and dict(res.certificate.rival_mix) == {"b": 1.0}
    assert "ties" in res.certificate.statement
    check_certificate(lb, res)
    weak = cs.condorcet_weights(lb, "a", strict=False)
    assert weak.feasible and weak.margin == 0.0 and weak.binding == ("b",)
    check_witness(lb, weak)


def test_two_systems():
    frame = pd.DataFrame({"x": [1.0, 0.0], "y": [0.0, 1.0], "z": [0.5, 0.5]}, index=["a", "b"])
    with pytest.warns(cs.DegenerateTaskWarning):
        lb = cs.Leaderboard.from_frame(frame)
    for s in ("a", "b"):
        res = cs.condorcet_weights(lb, s)
        assert res.feasible and res.margin == 1.0
        check_witness(lb, res)


def test_missing_scores_compare_as_ties():
    frame = pd.DataFrame({"t1": [np.nan, 5.0], "t2": [1.0, 0.0]}, index=["a", "b"])
    lb = cs.Leaderboard.from_frame(frame)
    a = cs.condorcet_weights(lb, "a")
    assert a.feasible and a.weights.to_dict() == {"t1": 0.0, "t2": 1.0}
    check_witness(lb, a)
    b = cs.condorcet_weights(lb, "b")
    assert not b.feasible and dict(b.certificate.rival_mix) == {"a": 1.0}
    check_certificate(lb, b)
    b_weak = cs.condorcet_weights(lb, "b", strict=False)
    assert b_weak.feasible and b_weak.weights.to_dict() == {"t1": 1.0, "t2": 0.0}
    check_witness(lb, b_weak)


def test_lower_is_better_tasks_count_the_right_way():
    frame = pd.DataFrame({"acc": [0.9, 0.8], "latency": [30.0, 10.0]}, index=["big", "small"])
    lb = cs.Leaderboard.from_frame(frame, lower_is_better=["latency"])
    res = cs.condorcet_weights(lb, "small", nearest_to=None)  # the max-margin vertex
    assert res.weights.to_dict() == {"acc": 0.0, "latency": 1.0}
    nearest = cs.condorcet_weights(lb, "small")  # the default: the winning weights nearest the official ones
    assert nearest.distance == pytest.approx(2 * (nearest.weights["latency"] - 0.5)) and nearest.weights["latency"] > 0.5
    check_witness(lb, res)


def test_matching_pennies_needs_a_blend_certificate():
    # m wins t1 and loses t2 against r1, the reverse against r2: no single rival dominates m,
    # but the even blend ties it on both tasks, so no weighting beats both (eps* = 0)
    frame = pd.DataFrame({"t1": [2.0, 1.0, 3.0], "t2": [2.0, 3.0, 1.0]}, index=["m", "r1", "r2"])
    lb = cs.Leaderboard.from_frame(frame)
    res = cs.condorcet_weights(lb, "m")
    assert not res.feasible and res.margin == pytest.approx(0.0, abs=1e-12)
    assert res.certificate.rivals.to_dict() == pytest.approx({"r1": 0.5, "r2": 0.5})
    check_certificate(lb, res)
    weak = cs.condorcet_weights(lb, "m", strict=False)
    assert weak.feasible and weak.weights.to_dict() == pytest.approx({"t1": 0.5, "t2": 0.5})
    check_witness(lb, weak)


def test_rock_paper_scissors_blend_proves_a_weak_never():
    frame = pd.DataFrame(
        {"t1": [2.0, 1.0, 3.0, 3.0], "t2": [2.0, 3.0, 1.0, 3.0], "t3": [2.0, 3.0, 3.0, 1.0]},
        index=["m", "r1", "r2", "r3"],
    )
    lb = cs.Leaderboard.from_frame(frame)
    res = cs.condorcet_weights(lb, "m", strict=False)
    assert not res.feasible and res.margin == pytest.approx(-1 / 3) and res.bound == pytest.approx(-1 / 3)
    assert res.certificate.kind == "weak"
    assert res.certificate.rivals.to_dict() == pytest.approx({"r1": 1 / 3, "r2": 1 / 3, "r3": 1 / 3})
    check_certificate(lb, res)
    _, R = rel(lb, "m")
    assert (simplex_grid(3, 30) @ R.T).min(axis=1).max() <= res.bound + 1e-12


# ---------------------------------------------------------------------- brute force (hypothesis)
@pytest.mark.slow
@given(score_tables(max_systems=5, max_tasks=4, missing=True), st.booleans(), st.booleans())
def test_brute_force_grid_cross_check(lb, strict, scored_only):
    table = cs.prospective(
        lb, strict=strict, nearest_to="leaderboard", scored_tasks_only=scored_only, min_coverage=0
    ).to_frame().set_index("system")
    full_grid = grid_for(lb.n_tasks)
    ref = lb.normalized_weights.to_numpy()
    for system in lb.systems:
        _, R = rel(lb, system)
        grid = full_grid
        if scored_only:  # only weightings with weight 0 on the tasks the system is not scored on
            grid = full_grid[(full_grid[:, lb.missing.loc[system].to_numpy()] == 0).all(axis=1)]
        smallest = (grid @ R.T).min(axis=1)
        row = table.loc[system]
        assert row["margin"] >= smallest.max() - 1e-9
        if (smallest > TOL).any():
            assert row["strict_feasible"]
        if (smallest >= -TOL).any():
            assert row["feasible"]
        feasible = row["strict_feasible"] if strict else row["feasible"]
        if feasible:
            wins = smallest > TOL if strict else smallest >= -TOL
            if wins.any():
                assert row["distance"] <= np.abs(grid[wins] - ref).sum(axis=1).min() + 1e-7
    # the single-system call (pulp models, majority-graph verification) agrees with the batch
    system = lb.systems[0]
    res = cs.condorcet_weights(lb, system, strict=strict, scored_tasks_only=scored_only)
    assert res.feasible == table.loc[system, "strict_feasible" if strict else "feasible"]
    assert res.margin == pytest.approx(table.loc[system, "margin"], abs=1e-9)
    assert res.bound >= res.margin - 1e-12 and res.gap <= 1e-9
    (check_witness if res.feasible else check_certificate)(lb, res)


@pytest.mark.slow
@given(score_tables(max_systems=5, max_tasks=4, missing=True), st.booleans(), st.data())
def test_every_answer_carries_verified_evidence(lb, strict, data):
    system = data.draw(st.sampled_from(lb.systems))
    res = cs.condorcet_weights(lb, system, strict=strict, nearest_to="uniform")
    if res.feasible:
        check_witness(lb, res)
        assert res.distance == pytest.approx(float(np.abs(res.weights - 1 / lb.n_tasks).sum()), abs=1e-12)
        ref = pd.Series(1 / lb.n_tasks, index=list(lb.tasks))
        if majority_wins(lb, system, ref, strict) and not lb.missing.loc[system].any():
            assert res.distance == 0.0 and res.weights.equals(ref.rename("weight"))
    else:
        assert res.weights is None and res.distance is None
        check_certificate(lb, res)


@st.composite
def constrained(draw):
    lb = draw(score_tables(max_systems=5, max_tasks=4, missing=True))
    tasks = list(lb.tasks)
    options = {}
    grid_ok = np.ones(len(grid_for(lb.n_tasks)), dtype=bool)
    grid = grid_for(lb.n_tasks)
    eighths = st.integers(0, 8).map(lambda k: k / 8)
    if draw(st.booleans()):
        lo = {t: draw(eighths) / 2 for t in draw(st.lists(st.sampled_from(tasks), max_size=2, unique=True))}
        options["min_weight"] = lo
        for t, v in lo.items():
            grid_ok &= grid[:, tasks.index(t)] >= v - 1e-12
    if draw(st.booleans()):
        hi = {t: draw(eighths) for t in draw(st.lists(st.sampled_from(tasks), max_size=2, unique=True))}
        options["max_weight"] = hi
        for t, v in hi.items():
            grid_ok &= grid[:, tasks.index(t)] <= v + 1e-12
    if len(tasks) >= 2 and draw(st.booleans()):
        pair = draw(st.lists(st.sampled_from(tasks), min_size=2, max_size=2, unique=True))
        options["order"] = [tuple(pair)]
        grid_ok &= grid[:, tasks.index(pair[0])] >= grid[:, tasks.index(pair[1])] - 1e-12
    if len(tasks) >= 2 and draw(st.booleans()):
        group = tuple(draw(st.lists(st.sampled_from(tasks), min_size=1, max_size=len(tasks), unique=True)))
        lo, hi = sorted((draw(eighths), draw(eighths)))
        options["group_bounds"] = {group: (lo, hi)}
        total = grid[:, [tasks.index(t) for t in group]].sum(axis=1)
        grid_ok &= (total >= lo - 1e-12) & (total <= hi + 1e-12)
    return lb, options, grid_ok


@pytest.mark.slow
@given(constrained(), st.booleans(), st.booleans())
def test_user_constraints_brute_force(case, strict, scored_only):
    lb, options, grid_ok = case
    system = lb.systems[0]
    if scored_only:  # weight 0 on the tasks the system is not scored on, on top of the user's constraints
        grid_ok = grid_ok & (grid_for(lb.n_tasks)[:, lb.missing.loc[system].to_numpy()] == 0).all(axis=1)
    grid = grid_for(lb.n_tasks)[grid_ok]
    bounds = cs.Constraints(**options)
    table = cs.prospective(lb, strict=strict, nearest_to=None, min_coverage=0, constraints=bounds,
                           scored_tasks_only=scored_only).to_frame().set_index("system")
    res = cs.condorcet_weights(lb, system, strict=strict, constraints=bounds, scored_tasks_only=scored_only)
    if res.status is SolveStatus.INFEASIBLE:
        assert len(grid) == 0
        assert res.certificate.kind == "constraints" and res.verify(lb)
        assert not table.loc[system, "feasible"]
        if not scored_only:
            assert (table["certificate"] == "contradictory constraints").all()
        return
    _, R = rel(lb, system)
    smallest = (grid @ R.T).min(axis=1) if len(grid) else np.array([-np.inf])
    assert res.margin >= smallest.max() - 1e-9
    assert res.margin == pytest.approx(table.loc[system, "margin"], abs=1e-9)
    if strict and (smallest > TOL).any():
        assert res.feasible
    if not strict and (smallest >= -TOL).any():
        assert res.feasible
    (check_witness if res.feasible else check_certificate)(lb, res)


@pytest.mark.slow
@given(score_tables(max_systems=5, max_tasks=4), st.sampled_from(["min", "max"]), st.data())
def test_objective_brute_force(lb, sense, data):
    system = data.draw(st.sampled_from(lb.systems))
    chosen = data.draw(st.lists(st.sampled_from(lb.tasks), min_size=1, unique=True))
    res = cs.condorcet_weights(lb, system, strict=False, objective=(sense, chosen))
    assume(res.feasible)
    check_witness(lb, res)
    grid = grid_for(lb.n_tasks)
    _, R = rel(lb, system)
    wins = (grid @ R.T).min(axis=1) >= -TOL
    values = grid[wins][:, [lb.tasks.index(t) for t in chosen]].sum(axis=1)
    assert res.objective_value == pytest.approx(float(res.weights[chosen].sum()), abs=1e-12)
    if sense == "min":
        assert res.objective_value <= values.min() + 1e-7
    else:
        assert res.objective_value >= values.max() - 1e-7


@given(score_tables(weighted=True, max_systems=5, max_tasks=5, missing=True), st.data())
def test_weighted_margins_match_the_pairwise_matrix(lb, data):
    system = data.draw(st.sampled_from(lb.systems))
    margins = cs.exact.weighted_margins(lb, system, lb.weights)
    p = cs.pairwise(lb)
    i = p.index(system)
    expected = pd.Series(np.delete(p.margins[i], i), index=[s for s in lb.systems if s != system])
    np.testing.assert_allclose(margins.to_numpy(), expected.to_numpy(), atol=1e-12)
    assert list(margins.index) == list(expected.index)


# ---------------------------------------------------------------------- constraints
def test_constraints_are_respected_and_reported(votenrank_toy):
    res = cs.condorcet_weights(
        votenrank_toy,
        "C",
        constraints=cs.Constraints(min_weight={"t1": 0.1}, max_weight=0.5, fixed={"t2": 0.15}, group_bounds={("t3", "t5"): (0.2, None)}, order=[("t4", "t3", "t5")]),
        )
    assert res.feasible
    w = res.weights
    assert w["t1"] >= 0.1 - 1e-12 and (w <= 0.5 + 1e-12).all() and w["t2"] == pytest.approx(0.15)
    assert w["t3"] + w["t5"] >= 0.2 - 1e-12 and w["t4"] >= w["t3"] - 1e-12 >= w["t5"] - 2e-12
    labels = [c.label for c in res.constraints]
    assert labels == [
        "min_weight[t1]", "max_weight[t1]", "max_weight[t2]", "max_weight[t3]", "max_weight[t4]",
        "max_weight[t5]", "fixed[t2]", "group[t3+t5]", "order[t4>=t3]", "order[t3>=t5]",
    ]
    check_witness(votenrank_toy, res)


def test_group_bounds_refer_to_leaderboard_groups(votenrank_toy):
    lb = votenrank_toy.with_groups({"first": ["t1", "t2"], "rest": ["t3", "t4", "t5"]})
    res = cs.condorcet_weights(lb, "A", constraints=cs.Constraints(group_bounds={"first": (None, 0.5)}))
    assert not res.feasible and res.margin == pytest.approx(0.0, abs=1e-12)
    assert set(k.rpartition(":")[0] for k in res.certificate.multipliers) == {"group[first]"}
    assert res.verify(lb)
    with pytest.raises(InvalidOptionError, match=r"unknown group 'nope'.*'first', 'rest'"):
        cs.condorcet_weights(lb, "A", constraints=cs.Constraints(group_bounds={"nope": (0, 1)}))
    with pytest.raises(InvalidOptionError, match=r"single task 't1'"):
        cs.condorcet_weights(lb, "A", constraints=cs.Constraints(group_bounds={"t1": (0, 1)}))


@pytest.mark.parametrize(
    "options, involved",
    [
        ({"min_weight": 0.3}, {"min_weight[t1]", "min_weight[t2]", "min_weight[t3]", "min_weight[t4]", "min_weight[t5]"}),
        ({"fixed": {"t1": 0.6, "t2": 0.6}}, {"fixed[t1]", "fixed[t2]"}),
        ({"min_weight": {"t1": 0.5}, "max_weight": {"t1": 0.4}}, {"min_weight[t1]", "max_weight[t1]"}),
        ({"max_weight": 0.1}, {"max_weight[t1]", "max_weight[t2]", "max_weight[t3]", "max_weight[t4]", "max_weight[t5]"}),
    ],
)
def test_contradictory_constraints_are_an_answer_with_a_farkas_proof(votenrank_toy, options, involved):
    res = cs.condorcet_weights(votenrank_toy, "B", constraints=options)
    assert not res.feasible and res.status is SolveStatus.INFEASIBLE and math.isnan(res.margin)
    cert = res.certificate
    assert cert.kind == "constraints" and not cert.rival_mix and cert.bound < 0
    assert {k.rpartition(":")[0] for k in cert.multipliers} == involved
    assert "contradictory" in res.explanation
    # by hand: sum of mu * (row) must dominate 0 on every task, and the bound is negative
    by_label = {c.label: c for c in res.constraints}
    d = dict.fromkeys(votenrank_toy.tasks, Fraction(0))
    const = Fraction(0)
    for key, mu in cert.multipliers.items():
        label, _, side = key.rpartition(":")
        c = by_label[label]
        sign = 1 if side == "upper" else -1
        for t, a in c.coefficients.items():
            d[t] += sign * Fraction(mu) * Fraction(a)
        const += sign * Fraction(mu) * Fraction(c.upper if side == "upper" else c.lower)
    assert max(-x for x in d.values()) + const < 0
    assert res.verify(votenrank_toy)
    table = cs.prospective(votenrank_toy, constraints=options).to_frame()
    assert not table["feasible"].any() and (table["certificate"] == "contradictory constraints").all()


def test_nearest_respects_constraints_and_leaderboard_weights():
    frame = pd.DataFrame({"a": [1.0, 0.0], "b": [0.0, 1.0], "c": [0.0, 1.0]}, index=["x", "y"])
    lb = cs.Leaderboard.from_frame(frame, weights={"a": 2.0, "b": 1.0, "c": 1.0})
    # official weights 0.5/0.25/0.25: x and y tie; x needs w_a > 1/2
    res = cs.condorcet_weights(lb, "x", nearest_to="leaderboard")
    assert res.reference.to_dict() == {"a": 0.5, "b": 0.25, "c": 0.25}
    assert res.distance == pytest.approx(1e-6, abs=1e-9)
    check_witness(lb, res)
    capped = cs.condorcet_weights(lb, "x", nearest_to=True, constraints=cs.Constraints(max_weight={"b": 0.0}))
    assert capped.weights["b"] == 0.0 and capped.distance == pytest.approx(0.5, abs=1e-5)
    check_witness(lb, capped)
    custom = cs.condorcet_weights(lb, "y", nearest_to={"a": 1.0})  # unlisted tasks weigh 0
    assert custom.reference.to_dict() == {"a": 1.0, "b": 0.0, "c": 0.0}
    assert custom.distance == pytest.approx(1.0, abs=1e-5)


# ---------------------------------------------------------------------- errors
def test_bad_input_errors(votenrank_toy):
    lb = votenrank_toy
    with pytest.raises(UnknownSystemError, match=r"unknown system 'Z'"):
        cs.condorcet_weights(lb, "Z")
    with pytest.raises(UnknownTaskError, match=r"unknown task 't9' in min_weight"):
        cs.condorcet_weights(lb, "A", constraints=cs.Constraints(min_weight={"t9": 0.1}))
    with pytest.raises(UnknownTaskError, match=r"in order"):
        cs.condorcet_weights(lb, "A", constraints=cs.Constraints(order=[("t1", "tx")]))
    with pytest.raises(UnknownTaskError, match=r"in objective"):
        cs.prospective(lb, objective=("min", ["nope"])).to_frame()
    with pytest.raises(UnknownTaskError, match=r"in nearest_to"):
        cs.condorcet_weights(lb, "A", nearest_to={"t0": 1.0})
    with pytest.raises(InvalidOptionError, match=r"max_weight\['t1'\] must be finite"):
        cs.condorcet_weights(lb, "A", constraints=cs.Constraints(max_weight={"t1": float("nan")}))
    with pytest.raises(InvalidOptionError, match=r"either nearest_to or objective"):
        cs.condorcet_weights(lb, "A", nearest_to="uniform", objective=("min", "t1"))
    with pytest.raises(InvalidOptionError, match=r"min_margin must be in"):
        cs.condorcet_weights(lb, "A", min_margin=1e-12)
    with pytest.raises(InvalidOptionError, match=r"nearest_to must be"):
        cs.condorcet_weights(lb, "A", nearest_to="official")
    with pytest.raises(InvalidOptionError, match=r"objective must be"):
        cs.condorcet_weights(lb, "A", objective=("lowest", "t1"))
    with pytest.raises(InvalidOptionError, match=r"compares task 't1' with itself"):
        cs.condorcet_weights(lb, "A", constraints=cs.Constraints(order=[("t1", "t1")]))
    with pytest.raises(cs.errors.InvalidWeightError, match=r"every reference weight is zero"):
        cs.condorcet_weights(lb, "A", nearest_to={"t1": 0.0})
    with pytest.raises(InvalidOptionError, match=r"interface must be"):
        cs.prospective(lb, interface="fast").to_frame()
    with pytest.raises(cs.errors.InvalidWeightError, match=r"task 't1'"):
        cs.exact.weighted_margins(lb, "A", {"t1": -1.0})


def test_wrong_solver_weights_are_caught_not_returned(votenrank_toy, monkeypatch):
    real = cond.max_margin_lp

    def lying(R, **kwargs):
        out = real(R, **{**kwargs, "shortcut": False})
        bad = np.zeros_like(out.weights)
        bad[-1] = 1.0  # all weight on t5: only D wins there
        return type(out)(out.status, bad, out.objective, out.margins, out.certificate, out.method)

    monkeypatch.setattr(cond, "max_margin_lp", lying)
    with pytest.raises(SolveFailedError, match=r"do not reproduce from the scores"):
        cs.condorcet_weights(votenrank_toy, "A")


def test_wrong_certificate_is_caught_not_returned(votenrank_toy, monkeypatch):
    real = cond.max_margin_lp

    def lying(R, **kwargs):
        out = real(R, **kwargs)
        fake = cond.certificate_bound(R, np.ones(R.shape[0]), constraints=kwargs["constraints"])  # no proof
        return type(out)(out.status, out.weights, out.objective, out.margins, fake, out.method)

    monkeypatch.setattr(cond, "max_margin_lp", lying)
    monkeypatch.setattr(cond, "single_rival", lambda R, strict, tol=0.0: None)
    with pytest.raises(SolveFailedError, match=r"dual certificate only proves"):
        cs.condorcet_weights(votenrank_toy, "A", constraints=cs.Constraints(max_weight=0.25))


# ---------------------------------------------------------------------- result objects
def test_result_is_frozen_jsonable_and_tabular(votenrank_toy):
    res = cs.condorcet_weights(votenrank_toy, "C", nearest_to="uniform")
    with pytest.raises(AttributeError):
        res.feasible = False  # type: ignore[misc]
    w = res.weights
    w["t1"] = 5.0
    assert res.weights["t1"] != 5.0
    json.dumps(res.to_dict())
    frame = res.to_frame()
    assert list(frame.columns) == ["weight", "reference"] and list(frame.index) == list(votenrank_toy.tasks)
    never = cs.condorcet_weights(votenrank_toy, "A", constraints=cs.Constraints(max_weight=0.25))
    json.dumps(never.to_dict())
    assert list(never.to_frame().columns) == ["reference", "advantage"] or list(never.to_frame().columns) == ["advantage"]
    assert never.certificate.to_dict()["rival_mix"] == dict(never.certificate.rival_mix)


def test_binding_rivals(votenrank_toy):
    res = cs.condorcet_weights(votenrank_toy, "C", nearest_to="uniform")
    assert "B" in res.binding  # C must just beat B: w2 + w4 = 1/2 + min_margin/2
    assert res.threshold == pytest.approx(1e-6)
    assert res.margins["B"] == pytest.approx(1e-6, abs=1e-12)


# ---------------------------------------------------------------------- prospective
def test_prospective_frame_is_jsonable_and_agrees(votenrank_toy):
    table = cs.prospective(votenrank_toy).to_frame()
    assert list(table.columns) == ["system", "feasible", "strict_feasible", "margin", "distance", "weights", "certificate", "method"]
    assert table["system"].tolist() == list(votenrank_toy.systems)
    json.dumps(table.to_dict("records"))
    json.dumps(table.attrs)
    assert table.attrs["n_lps"] >= 1 and table.attrs["method"] == "highspy"


@pytest.mark.slow
@given(score_tables(max_systems=6, max_tasks=4, missing=True), st.booleans())
def test_prospective_highspy_fast_path_matches_pulp(lb, strict):
    fast = cs.prospective(lb, strict=strict, interface="highspy").to_frame()
    slow = cs.prospective(lb, strict=strict, interface="pulp").to_frame()
    for col in ("system", "feasible", "strict_feasible"):
        assert fast[col].tolist() == slow[col].tolist()
    np.testing.assert_allclose(fast["margin"], slow["margin"], atol=1e-9)
    np.testing.assert_allclose(fast["distance"], slow["distance"], atol=1e-7)


@pytest.mark.slow
def test_prospective_on_a_larger_gumbel_board():
    lb = cs.datasets.gumbel_leaderboard(60, 8, phi=0.05, seed=3)
    table = cs.prospective(lb, nearest_to="uniform").to_frame()
    ref = pd.Series(1 / 8, index=list(lb.tasks))
    for row in table.itertuples():
        if row.strict_feasible:
            w = cs.condorcet_weights(lb, row.system, nearest_to="uniform")
            assert w.distance == pytest.approx(row.distance, abs=1e-7)
            assert majority_wins(lb, row.system, w.weights, strict=True)
            assert float(np.abs(w.weights - ref).sum()) == pytest.approx(row.distance, abs=1e-7)
    assert table["strict_feasible"].sum() >= 1


def test_constraints_that_meet_exactly_are_not_contradictory(votenrank_toy):
    # float 0.2 is slightly above 1/5, so five minimums of 0.2 exceed 1 by ~1e-17: within the
    # 1e-9 constraint tolerance this is the uniform weighting, not a contradiction
    res = cs.condorcet_weights(votenrank_toy, "B", constraints=cs.Constraints(min_weight=0.2))
    assert res.feasible and res.weights.to_numpy() == pytest.approx(0.2)
    table = cs.prospective(votenrank_toy, constraints=cs.Constraints(min_weight=0.2)).to_frame().set_index("system")
    assert table.loc["B", "strict_feasible"] and table.loc["B", "distance"] == 0.0
    assert table.loc["A", "certificate"] != "contradictory constraints"


# ---------------------------------------------------------------------- scored tasks only
def test_a_system_scored_on_one_task_cannot_win_on_the_others():
    frame = pd.DataFrame({"t1": [0.5, 0.9, 0.2], "t2": [None, 0.3, 0.4], "t3": [None, 0.1, 0.6]}, index=["m", "r1", "r2"])
    lb = cs.Leaderboard.from_frame(frame)
    old = cs.condorcet_weights(lb, "m", strict=False, scored_tasks_only=False)
    assert old.feasible and old.weights["t1"] == pytest.approx(0.0)  # "beats or ties" on tasks it never ran
    check_witness(lb, old)
    res = cs.condorcet_weights(lb, "m", strict=False)
    assert not res.feasible and res.certificate.kind == "weak"
    assert [c.label for c in res.constraints] == ["scored_tasks_only[t2]", "scored_tasks_only[t3]"]
    check_certificate(lb, res)  # includes the arithmetic on the scored task alone
    assert res.certificate.rivals.to_dict() == {"r1": 1.0}
    # strict feasibility is the same either way; a full row has no extra constraint
    assert cs.condorcet_weights(lb, "r1").constraints == ()
    assert cs.condorcet_weights(lb, "m").feasible == cs.condorcet_weights(lb, "m", scored_tasks_only=False).feasible


def test_prospective_reports_a_per_system_contradiction_with_the_scored_tasks():
    frame = pd.DataFrame({"t1": [0.5, 0.9, 0.2], "t2": [None, 0.3, 0.4]}, index=["m", "r1", "r2"])
    lb = cs.Leaderboard.from_frame(frame)
    res = cs.prospective(lb, constraints=cs.Constraints(fixed={"t2": 0.5}))
    m = res.results["m"]
    assert m.status is SolveStatus.INFEASIBLE and m.certificate.kind == "constraints" and m.verify(lb)
    assert res.contradiction is None and res.results["r2"].verify(lb)
    single = cs.condorcet_weights(lb, "m", constraints=cs.Constraints(fixed={"t2": 0.5}))
    assert single.status is SolveStatus.INFEASIBLE and single.verify(lb)
