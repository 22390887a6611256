"""Kemeny consensus with ties: the weak-ordering ILP against brute force, costs, time limits, bad input."""

from __future__ import annotations

import dataclasses
import itertools
import time

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import solvers.weak_ordering as wo
from solvers import (
    LinearModel,
    ModelSolution,
    SolverError,
    SolveStatus,
    available_backends,
)
from solvers.brute_force import brute_force_weak_ordering
from solvers.linear_ordering import solve_linear_ordering
from solvers.weak_ordering import (
    solve_weak_ordering,
    violated_transitivity,
    weak_order_cost,
)

FUBINI = [1, 1, 3, 13, 75, 541, 4683, 47293, 545835]


@pytest.fixture(scope="module", params=available_backends())
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


def _pairwise(scores: np.ndarray, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """wins / ties of a systems x tasks table (higher is better; NaN: missing, counts for neither)."""
    scores = np.asarray(scores, dtype=float)
    weights = np.ones(scores.shape[1]) if weights is None else np.asarray(weights, dtype=float)
    seen = ~np.isnan(scores)
    both = seen[:, None, :] & seen[None, :, :]
    with np.errstate(invalid="ignore"):
        wins = ((scores[:, None, :] > scores[None, :, :]) & both) @ weights
        ties = ((scores[:, None, :] == scores[None, :, :]) & both) @ weights
    np.fill_diagonal(ties, 0.0)
    return wins, ties


def _naive_cost(wins: np.ndarray, ties: np.ndarray, groups) -> float:
    """The Kemeny-Snell cost, halved, by a double loop over pairs."""
    group_of = {x: g for g, members in enumerate(groups) for x in members}
    total = 0.0
    for i, j in itertools.combinations(range(len(wins)), 2):
        if group_of[i] < group_of[j]:
            total += wins[j, i] + ties[i, j] / 2
        elif group_of[i] > group_of[j]:
            total += wins[i, j] + ties[i, j] / 2
        else:
            total += (wins[i, j] + wins[j, i]) / 2
    return total


def _is_weak_order(groups, n: int) -> bool:
    items = [x for g in groups for x in g]
    return sorted(items) == list(range(n)) and all(len(g) and list(g) == sorted(g) for g in groups)


@st.composite
def tied_tables(draw, min_systems: int = 2, max_systems: int = 7, missing: bool = True):
    """wins / ties from small integer scores (0..2) on 3-6 tasks, so that tasks tie often;
    sometimes integer task weights and missing scores."""
    n = draw(st.integers(min_systems, max_systems))
    m = draw(st.integers(3, 6))
    cells = st.integers(0, 2).map(float)
    if missing:
        cells = st.one_of(cells, cells, cells, cells, st.just(float("nan")))
    scores = np.array(draw(st.lists(st.lists(cells, min_size=m, max_size=m), min_size=n, max_size=n)))
    weights = np.array(draw(st.lists(st.integers(1, 3), min_size=m, max_size=m)), dtype=float)
    return _pairwise(scores, weights if draw(st.booleans()) else None)


@st.composite
def strict_tables(draw, max_systems: int = 8):
    """wins / ties of tasks that each rank every system strictly (no tied votes; some missing)."""
    n = draw(st.integers(2, max_systems))
    m = draw(st.integers(1, 6))
    scores = np.array([draw(st.permutations(range(n))) for _ in range(m)], dtype=float).T
    if n > 2 and draw(st.booleans()):
        scores[draw(st.integers(0, n - 1)), draw(st.integers(0, m - 1))] = np.nan
    return _pairwise(scores)


def _random_tied(n: int, seed: int, tasks: int = 8, levels: int = 3) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return _pairwise(rng.integers(0, levels, size=(n, tasks)).astype(float))


# ---------------------------------------------------------------- costs and the reference
@given(tied_tables(max_systems=6), st.data())
def test_weak_order_cost_is_the_pairwise_double_loop(pair, data):
    wins, ties = pair
    n = len(wins)
    level = data.draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n))
    groups = [[x for x in range(n) if level[x] == v] for v in sorted(set(level))]
    assert weak_order_cost(wins, ties, groups) == pytest.approx(_naive_cost(wins, ties, groups), abs=1e-12)


@given(tied_tables(max_systems=5))
def test_brute_force_lists_exactly_the_cheapest_weak_orders(pair):
    wins, ties = pair
    n = len(wins)
    every = {}
    for level in itertools.product(range(n), repeat=n):
        if set(level) == set(range(max(level) + 1)):  # levels 0..k-1, each used: one weak order
            groups = tuple(tuple(x for x in range(n) if level[x] == g) for g in range(max(level) + 1))
            every[groups] = _naive_cost(wins, ties, groups)
    best = min(every.values())
    res = brute_force_weak_ordering(wins, ties)
    assert res.n_orders == len(every) == FUBINI[n]
    assert res.objective == best
    assert set(res.optima) == {g for g, v in every.items() if v == best}
    assert list(res.optima) == sorted(res.optima) and res.groups == res.optima[0]
    assert res.unique == (len(res.optima) == 1)


def test_brute_force_counts_the_fubini_numbers():
    for n in range(0, 7):  # nothing to pay: every weak order is optimal
        res = brute_force_weak_ordering(np.zeros((n, n)), np.zeros((n, n)))
        assert res.n_orders == FUBINI[n] and res.objective == 0.0 and len(res.optima) == FUBINI[n]


def test_eight_systems_against_the_solver():
    wins, ties = _random_tied(8, seed=2, tasks=5)
    ref = brute_force_weak_ordering(wins, ties)
    assert ref.n_orders == FUBINI[8]
    res = solve_weak_ordering(wins, ties)
    assert res.objective == ref.objective and res.groups in ref.optima


def test_brute_force_reads_float_weights_as_the_fractions_they_sum_to():
    # 0.1 + 0.2 != 0.3 in floats; the reference reads both as 3/10: all three answers cost 3/10
    wins = np.array([[0, 0.1 + 0.2], [0.3, 0]])
    res = brute_force_weak_ordering(wins, np.zeros((2, 2)))
    assert set(res.optima) == {((0,), (1,)), ((0, 1),), ((1,), (0,))} and res.objective == 0.3


# ---------------------------------------------------------------- exactness
def _check_against_brute_force(wins, ties, backend):
    ref = brute_force_weak_ordering(wins, ties)
    res = solve_weak_ordering(wins, ties, backend=backend)
    assert res.status is SolveStatus.OPTIMAL and res.optimal
    assert res.objective == ref.objective  # integer weights: exact
    assert res.groups in ref.optima and _is_weak_order(res.groups, len(wins))
    assert res.objective == weak_order_cost(wins, ties, res.groups) == _naive_cost(wins, ties, res.groups)
    assert res.lower_bound == res.objective and res.gap == 0.0


@given(pair=tied_tables())
def test_solver_matches_brute_force(pair, backend):
    _check_against_brute_force(*pair, backend)


def _model_alone(mp: pytest.MonkeyPatch, lp_rounds: int) -> None:
    """Every row lazily, at most `lp_rounds` LP rounds, and no heuristic beyond the Borda order."""
    mp.setattr(wo, "ALL_ROWS_UP_TO", 2)
    mp.setattr(wo, "_MAX_LP_ROUNDS", lp_rounds)
    mp.setattr(wo, "_improve", lambda level, c, **kwargs: level)
    mp.setattr(wo, "_bucket", lambda order, c: np.argsort(np.asarray(order)).astype(np.int64))


@given(pair=tied_tables(min_systems=3, max_systems=7), lp_rounds=st.sampled_from([0, 50]))
def test_lazy_rows_without_heuristics_match_brute_force(pair, lp_rounds):
    """LP rounds then MIP rounds, or MIP rounds only (cuts from intransitive integer points)."""
    with pytest.MonkeyPatch.context() as mp:
        _model_alone(mp, lp_rounds)
        _check_against_brute_force(*pair, "highs")


@pytest.mark.parametrize("lp_rounds", [0, 50])
def test_lazy_rows_are_few_and_the_rounds_many(lp_rounds, monkeypatch):
    _model_alone(monkeypatch, lp_rounds)
    wins, ties = _random_tied(8, seed=4, tasks=5)
    res = solve_weak_ordering(wins, ties)
    assert res.objective == brute_force_weak_ordering(wins, ties).objective
    assert res.iterations >= 2 and 0 < res.constraints_added < 8 * 7 * 6


@given(strict_tables())
def test_without_tied_votes_the_optimum_is_the_strict_kemeny_optimum(pair):
    wins, ties = pair
    assert not ties.any()
    strict = solve_linear_ordering(wins + ties / 2)
    res = solve_weak_ordering(wins, ties, initial=strict.order)
    assert res.optimal and res.objective == strict.objective


@given(tied_tables(max_systems=7))
def test_breaking_the_optimal_groups_costs_at_most_half_their_tied_weight(pair):
    """The averaging argument: a group ordered one way or the reverse way costs, on average,
    its tie cost plus half its tied weight; so the strict optimum is within that of the weak one."""
    wins, ties = pair
    res = solve_weak_ordering(wins, ties)
    strict = solve_linear_ordering(wins + ties / 2)
    inside = sum(ties[i, j] for g in res.groups for i, j in itertools.combinations(g, 2))
    assert res.objective <= strict.objective <= res.objective + inside / 2
    forward = [(x,) for g in res.groups for x in g]
    backward = [(x,) for g in res.groups for x in reversed(g)]
    both = weak_order_cost(wins, ties, forward) + weak_order_cost(wins, ties, backward)
    assert both == pytest.approx(2 * res.objective + inside)


def test_worked_example_ties_the_two_systems_that_tie_on_most_tasks():
    # systems A = 0, B = 1, C = 2 on four tasks (higher is better):
    #   t1: A 2, B 2, C 1    t2: A 2, B 2, C 1    t3: A 1, B 1, C 2    t4: A 2, B 1, C 0
    # wins[A, B] = 1 (t4), wins[B, A] = 0, ties[A, B] = 3 (t1-t3)
    # wins[A, C] = wins[B, C] = 3 (t1, t2, t4), wins[C, A] = wins[C, B] = 1 (t3), no other ties
    # pair {A, B}: A > B costs 0 + 3/2 = 1.5, A = B costs (1 + 0)/2 = 0.5, B > A costs 1 + 3/2 = 2.5
    # pair {A, C}: A > C costs 1, A = C costs (3 + 1)/2 = 2, C > A costs 3; {B, C} the same
    # {A, B} > C takes the cheapest answer of every pair: 0.5 + 1 + 1 = 2.5, the unique optimum;
    # the strict Kemeny optimum A > B > C costs 1.5 + 1 + 1 = 3.5
    scores = np.array([[2, 2, 1, 2], [2, 2, 1, 1], [1, 1, 2, 0]], dtype=float)
    wins, ties = _pairwise(scores)
    assert wins.tolist() == [[0, 1, 3], [0, 0, 3], [1, 1, 0]] and ties[0].tolist() == [0, 3, 0]
    res = solve_weak_ordering(wins, ties)
    assert (res.groups, res.objective, res.status) == (((0, 1), (2,)), 2.5, SolveStatus.OPTIMAL)
    assert brute_force_weak_ordering(wins, ties).optima == (((0, 1), (2,)),)
    assert solve_linear_ordering(wins + ties / 2).objective == 3.5


def test_tasks_that_all_tie_give_one_group():
    wins, ties = _pairwise(np.ones((5, 3)))
    res = solve_weak_ordering(wins, ties)
    assert res.groups == ((0, 1, 2, 3, 4),) and res.objective == 0.0 and res.optimal


@pytest.mark.parametrize("n", [0, 1, 2])
def test_tiny_inputs(n):
    wins, ties = _random_tied(n, seed=3) if n else (np.zeros((0, 0)), np.zeros((0, 0)))
    res = solve_weak_ordering(wins, ties)
    assert res.optimal and res.objective == brute_force_weak_ordering(wins, ties).objective
    assert _is_weak_order(res.groups, n)


def test_float_weights_are_solved_on_their_lattice():
    scores = np.array([[2, 2, 1, 2], [2, 2, 1, 1], [1, 1, 2, 0], [0, 2, 2, 1]], dtype=float)
    wins, ties = _pairwise(scores, weights=[0.1, 0.2, 0.3, 0.4])
    res = solve_weak_ordering(wins, ties)
    assert res.unit == pytest.approx(0.05)
    assert res.objective == pytest.approx(brute_force_weak_ordering(wins, ties).objective, abs=1e-12)


# ---------------------------------------------------------------- warm starts and limits
def test_initial_may_be_a_linear_or_a_weak_order():
    wins, ties = _random_tied(9, seed=5)
    ref = brute_force_weak_ordering(wins[:8, :8], ties[:8, :8])
    for initial in (list(range(8)), [(0, 1, 2, 3), (4, 5, 6, 7)], ref.groups, [frozenset({0, 1}), [7, 2, 3], (4, 5, 6)]):
        res = solve_weak_ordering(wins[:8, :8], ties[:8, :8], initial=initial)
        assert res.optimal and res.objective == ref.objective


@pytest.mark.parametrize(
    ("initial", "message"),
    [
        ([0, 1, 1], r"item 1 appears twice"),
        ([0, 1], r"missing \[2\]"),
        ([0, 1, 5], r"5 is not an item index in 0..2"),
        ([[0, 1], [], [2]], r"non-empty groups"),
        (["a", "b", "c"], r"non-empty groups"),
    ],
)
def test_bad_initial_is_refused(initial, message):
    wins, ties = _random_tied(3, seed=0)
    with pytest.raises(ValueError, match=message):
        solve_weak_ordering(wins, ties, initial=initial)


def test_a_time_limit_returns_the_best_weak_order_and_a_bound():
    rng = np.random.default_rng(11)
    wins, ties = _pairwise(np.array([rng.permutation(40) for _ in range(4)], dtype=float).T)  # majority cycles
    res = solve_weak_ordering(wins, ties, time_limit=1e-3)
    assert res.status is SolveStatus.TIME_LIMIT and not res.optimal
    assert res.lower_bound <= res.objective and res.gap == res.objective - res.lower_bound > 0
    assert _is_weak_order(res.groups, 40) and res.objective == weak_order_cost(wins, ties, res.groups)


def test_without_a_limit_a_failed_solve_raises(monkeypatch):
    def fail(self, **kwargs):
        return ModelSolution(SolveStatus.NOT_SOLVED, None, None, None, None, 0.0, "broken")

    monkeypatch.setattr(LinearModel, "solve", fail)
    wins, ties = _random_tied(6, seed=1)
    with pytest.raises(SolverError, match="stopped with status 'not_solved'"):
        solve_weak_ordering(wins, ties)


@pytest.mark.xdist_group(name="serial")  # a wall-time assertion: see tests/conftest.py
def test_thirty_systems_with_tied_data_are_solved_to_optimality():
    wins, ties = _random_tied(30, seed=7, tasks=6, levels=4)
    begin = time.perf_counter()
    res = solve_weak_ordering(wins, ties)
    assert time.perf_counter() - begin < 30
    assert res.optimal and res.objective == weak_order_cost(wins, ties, res.groups) == _naive_cost(wins, ties, res.groups)
    assert _is_weak_order(res.groups, 30) and len(res.groups) > 1 and res.constraints_added > 0
    strict = solve_linear_ordering(wins + ties / 2)
    warm = solve_weak_ordering(wins, ties, initial=strict.order)
    assert warm.objective == res.objective <= strict.objective


# ---------------------------------------------------------------- pieces
@given(st.integers(3, 6).flatmap(lambda n: st.lists(st.booleans(), min_size=n * n, max_size=n * n)))
def test_violated_transitivity_is_the_triple_loop(cells):
    n = int(round(len(cells) ** 0.5))
    a = np.array(cells, dtype=float).reshape(n, n)
    found = {tuple(x) for x in violated_transitivity(a).tolist()}
    expected = {
        (i, j, k) for i, j, k in itertools.permutations(range(n), 3) if a[i, j] + a[j, k] - a[i, k] > 1
    }
    assert found == expected


def test_a_weak_order_violates_no_transitivity_row():
    level = np.array([1, 0, 1, 2, 0])
    assert violated_transitivity(level[:, None] <= level[None, :]).shape == (0, 3)


def test_the_outcome_is_frozen():
    res = solve_weak_ordering([[0, 1], [0, 0]], [[0, 0], [0, 0]])
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.objective = 0.0  # type: ignore[misc]


@pytest.mark.parametrize(
    ("wins", "ties", "message"),
    [
        (np.zeros((2, 3)), np.zeros((2, 3)), r"wins must be a square matrix, got shape \(2, 3\)"),
        (np.zeros((3, 3)), np.zeros((2, 2)), r"ties must have the shape of wins \(3, 3\), got \(2, 2\)"),
        ([[0, np.nan], [1, 0]], np.zeros((2, 2)), r"wins must be finite: wins\[0, 1\] is nan"),
        ([[0, 1], [-1, 0]], np.zeros((2, 2)), r"wins must be non-negative: wins\[1, 0\] = -1"),
        (np.zeros((2, 2)), [[0, np.inf], [np.inf, 0]], r"ties must be finite: ties\[0, 1\] is inf"),
        (np.zeros((2, 2)), [[0, 2], [1, 0]], r"ties must be symmetric: ties\[0, 1\] = 2 but ties\[1, 0\] = 1"),
    ],
)
def test_bad_input_is_refused_with_its_position(wins, ties, message):
    for call in (solve_weak_ordering, brute_force_weak_ordering, lambda w, t: weak_order_cost(w, t, [[0, 1]])):
        with pytest.raises(ValueError, match=message):
            call(wins, ties)


@pytest.mark.parametrize("limit", [0, -1.0, float("nan"), float("inf")])
def test_bad_time_limit_is_refused(limit):
    with pytest.raises(ValueError, match="time_limit must be a positive number of seconds"):
        solve_weak_ordering(np.zeros((2, 2)), np.zeros((2, 2)), time_limit=limit)


def test_brute_force_refuses_more_than_eight_systems():
    with pytest.raises(ValueError, match="at most 8 items"):
        brute_force_weak_ordering(np.zeros((9, 9)), np.zeros((9, 9)))


def test_cost_of_an_invalid_weak_order_is_refused():
    with pytest.raises(ValueError, match=r"groups must hold every item 0..2; missing \[2\]"):
        weak_order_cost(np.zeros((3, 3)), np.zeros((3, 3)), [[0], [1]])
