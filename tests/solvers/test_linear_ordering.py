"""The linear-ordering ILP: exact against brute force, on every installed backend."""

from __future__ import annotations

import itertools
import logging
import math

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
import solvers.linear_ordering as lo
import solvers.ordering_search as search
from solvers import SolverError, SolveStatus, available_backends
from solvers.brute_force import brute_force_linear_ordering
from solvers.linear_ordering import (
    SolveProgress,
    heuristic_order,
    improve_order,
    majority_components,
    objective_unit,
    ordering_cost,
    solve_linear_ordering,
    violated_cycles,
)
from solvers.ordering_naive import solve_naive_ilp
from tests.strategies import (
    examples,
    raw_cost_matrices,
    tournament_costs,
    voted_cost_matrices,
)


@pytest.fixture(scope="module", params=available_backends())
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


raw_costs = raw_cost_matrices(7)
voted_costs = voted_cost_matrices(7)


def _check_against_brute_force(costs: np.ndarray, backend: str, **options) -> None:
    ref = brute_force_linear_ordering(costs)
    # every optimum is enumerated by a solve with a no-good row: a board where (nearly) every
    # order is optimal would take thousands of solves, so a cap, as users set it
    cap = 200
    res = solve_linear_ordering(costs, backend=backend, method="ilp", enumerate_optima=cap, **options)
    assert res.status is SolveStatus.OPTIMAL and res.optimal
    assert res.objective == pytest.approx(ref.objective, abs=1e-9)
    assert ordering_cost(costs, res.order) == pytest.approx(ref.objective, abs=1e-9)  # the order attains it
    assert res.lower_bound == res.objective and res.gap == 0.0
    assert res.optima_truncated == (len(ref.optima) > cap)
    if res.optima_truncated:
        assert len(res.optima) == cap and set(res.optima) < set(ref.optima)
    else:
        assert set(res.optima) == set(ref.optima)
        assert res.order == ref.order  # with all optima listed, the first in index order is returned
    assert res.unique == ref.unique
    plain = solve_linear_ordering(costs, backend=backend, method="ilp", **options)
    assert plain.objective == pytest.approx(ref.objective, abs=1e-9) and plain.unique == ref.unique
    assert plain.order in ref.optima


# ---------------------------------------------------------------- exactness
#: The default backend carries the exhaustive sweep; the others (pulp's solvers: CBC starts a
#: process per solve, and enumerating optima takes up to 200 solves) solve the same model, so
#: they are checked at the profile's count.
SWEEP_COUNT = {"highs": 4}


@pytest.mark.slow
@pytest.mark.parametrize("backend", available_backends())
def test_ilp_matches_brute_force_on_raw_matrices(backend):
    @given(costs=raw_costs, decompose=st.booleans())
    @examples(SWEEP_COUNT.get(backend, 1))  # the exhaustive sweep of the Kemeny ILP lives here (tests/test_kemeny.py keeps a few)
    def check(costs, decompose):
        _check_against_brute_force(costs, backend, decompose=decompose)

    check()


@pytest.mark.slow
@pytest.mark.parametrize("backend", available_backends())
def test_ilp_matches_brute_force_on_tournaments_with_majority_ties(backend):
    @given(costs=voted_costs, decompose=st.booleans())
    @examples(SWEEP_COUNT.get(backend, 1))  # as above
    def check(costs, decompose):
        _check_against_brute_force(costs, backend, decompose=decompose)

    check()


@pytest.mark.slow
@given(
    st.integers(3, 7).flatmap(
        lambda n: st.lists(st.floats(0, 3, allow_nan=False, allow_subnormal=False), min_size=n * n, max_size=n * n).map(
            lambda v: np.array(v).reshape(n, n) * (1 - np.eye(n))
        )
    )
)
def test_ilp_matches_brute_force_with_incommensurable_weights(costs):
    ref = brute_force_linear_ordering(costs)
    res = solve_linear_ordering(costs, method="ilp")
    assert res.status is SolveStatus.OPTIMAL
    assert res.objective == pytest.approx(ref.objective, rel=1e-9, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize(("tasks", "seed"), [(5, 1), (3, 1), (3, 2)])
def test_beyond_brute_force_the_naive_full_model_agrees(tasks, seed, backend):
    costs = tournament_costs(13, tasks, seed)  # one 12-item majority component
    naive = solve_naive_ilp(costs)  # every 3-cycle row up front, one solve: shares no code with the package's
    assert naive.status is SolveStatus.OPTIMAL
    expected = naive.objective
    for decompose in (True, False):
        res = solve_linear_ordering(costs, backend=backend, decompose=decompose, unique=False)
        assert res.optimal and res.objective == pytest.approx(expected) and res.method == f"ilp:{backend}"


# ---------------------------------------------------------------- decomposition
def test_components_are_the_strongly_connected_components_in_majority_order():
    costs = tournament_costs(12, 4, 7)  # even: majority ties
    groups = majority_components(costs)
    margins = costs - costs.T
    graph = nx.DiGraph((i, j) for i in range(12) for j in range(12) if margins[i, j] > 0)
    graph.add_nodes_from(range(12))
    assert sorted(map(sorted, groups)) == sorted(sorted(c) for c in nx.strongly_connected_components(graph))
    rank = {i: g for g, members in enumerate(groups) for i in members}
    assert not any(margins[i, j] > 0 and rank[i] > rank[j] for i in range(12) for j in range(12))


def test_an_optimum_may_cross_components_through_a_majority_tie():
    # a ties b, b ties c, a beats c: three singleton components a, b, c, yet b can sit anywhere
    costs = np.array([[0, 1, 2], [1, 0, 1], [0, 1, 0]], dtype=float)
    assert majority_components(costs) == [[0], [1], [2]]
    res = solve_linear_ordering(costs, enumerate_optima=10)
    assert res.optima == ((0, 1, 2), (0, 2, 1), (1, 0, 2)) and res.unique is False
    assert set(res.optima) == set(brute_force_linear_ordering(costs).optima)
    assert solve_linear_ordering(costs).unique is False


def test_a_transitive_majority_needs_no_solver():
    costs = np.array([[0, 3, 3], [0, 0, 2], [0, 1, 0]], dtype=float)
    res = solve_linear_ordering(costs)
    assert (res.order, res.objective, res.method, res.iterations, res.unique) == ((0, 1, 2), 1.0, "decomposition", 0, True)


# ---------------------------------------------------------------- pieces
def test_violated_cycles_matches_a_loop_over_triples():
    rng = np.random.default_rng(3)
    y = rng.random((9, 9))
    above = np.triu(y, 1) + np.tril(1 - y.T, -1)
    found = {tuple(r) for r in violated_cycles(above, eps=1e-9).tolist()}
    expected = {
        (a, b, c)
        for a, b, c in itertools.permutations(range(9), 3)
        if a < b and a < c and above[a, b] + above[b, c] + above[c, a] > 2 + 1e-9
    }
    assert found == expected
    ranked = violated_cycles(above, eps=1e-9)
    slack = [above[a, b] + above[b, c] + above[c, a] for a, b, c in ranked.tolist()]
    assert slack == sorted(slack, reverse=True)
    assert len(violated_cycles(above, eps=1e-9, limit=3)) == min(3, len(expected))


def test_a_linear_order_has_no_violated_cycle():
    order = [3, 0, 2, 1]
    position = np.argsort(order)
    above = (position[:, None] < position[None, :]).astype(float)
    assert violated_cycles(above).shape == (0, 3)


@pytest.mark.parametrize(
    ("costs", "unit"),
    [
        (np.array([[0, 3, 1], [1, 0, 2], [2, 1, 0]]), 1.0),
        (np.array([[0, 12, 8], [8, 0, 14], [12, 6, 0]]), 4.0),
        (np.array([[0, 1.5], [0.5, 0]]), 1.0),
        (np.array([[0, 0.6, 0.2], [0.2, 0, 0.6], [0.6, 0.2, 0]]), 0.4),
        (np.array([[0, 1 / 3], [0, 0]]), 1 / 3),
        (np.array([[0, 1], [1, 0]]), None),
        (np.array([[0, math.pi], [1, 0]]), None),
    ],
)
def test_objective_unit_is_the_gcd_of_margins(costs, unit):
    found = objective_unit(costs)
    assert (found is None) if unit is None else found == pytest.approx(unit)


@given(raw_costs)
def test_orders_cost_the_same_modulo_the_unit(costs):
    unit = objective_unit(costs)
    values = [ordering_cost(costs, o) for o in itertools.permutations(range(len(costs)))]
    if unit is not None:
        steps = (np.array(values) - values[0]) / unit
        assert np.allclose(steps, np.round(steps))


@given(raw_costs)
def test_local_search_never_worsens_and_ends_at_a_local_optimum(costs):
    start = list(range(len(costs)))[::-1]
    order, value = improve_order(costs, start)
    assert value <= ordering_cost(costs, start) + 1e-9 and value == ordering_cost(costs, order)
    for source, target in itertools.permutations(range(len(costs)), 2):
        moved = list(order)
        moved.insert(target, moved.pop(source))
        assert ordering_cost(costs, moved) >= value - 1e-9
    best, best_value = heuristic_order(costs)
    assert best_value == ordering_cost(costs, best) >= brute_force_linear_ordering(costs).objective - 1e-9


def test_ordering_cost_refuses_a_non_permutation():
    with pytest.raises(ValueError, match="permutation"):
        ordering_cost(np.zeros((3, 3)), [0, 0, 1])


# ---------------------------------------------------------------- time limits, bounds, progress
@pytest.mark.slow
def test_a_tiny_time_limit_on_a_hard_instance_is_never_called_optimal(backend):
    costs = tournament_costs(45, 20, 11)
    res = solve_linear_ordering(costs, backend=backend, time_limit=0.05, unique=False)
    assert res.status is SolveStatus.TIME_LIMIT and not res.optimal
    assert res.objective == ordering_cost(costs, res.order)
    assert res.lower_bound <= res.objective and res.gap == res.objective - res.lower_bound
    assert res.unique is None


@pytest.mark.slow
def test_time_limited_bounds_never_exceed_the_optimum():
    costs = tournament_costs(30, 8, 5)
    optimum = solve_linear_ordering(costs, unique=False).objective
    for limit in (0.02, 0.1, 0.3):
        res = solve_linear_ordering(costs, time_limit=limit, unique=False)
        assert res.lower_bound <= optimum + 1e-9 <= res.objective + 1e-9
        if res.optimal:
            assert res.objective == optimum


def test_without_a_time_limit_a_failed_solve_raises(monkeypatch):
    def no_solution(self, time_limit):
        return SolveStatus.NOT_SOLVED, None, None

    monkeypatch.setattr(lo._OrderingModel, "solve_lp", no_solution)
    with pytest.raises(SolverError, match="LP relaxation ended with status 'not_solved'"):
        solve_linear_ordering(tournament_costs(12, 3, 1), method="ilp")


def test_progress_reports_rounds_with_consistent_bounds():
    costs = tournament_costs(25, 6, 2)
    seen: list[SolveProgress] = []
    res = solve_linear_ordering(costs, progress=seen.append, unique=False)
    assert seen and all(isinstance(p, SolveProgress) for p in seen)
    assert all(p.bound <= p.incumbent + 1e-9 and p.gap >= 0 for p in seen)
    assert [p.elapsed for p in seen] == sorted(p.elapsed for p in seen)
    assert all(0 <= p.component < p.n_components for p in seen)
    assert seen[-1].incumbent == pytest.approx(res.objective) and seen[-1].cuts <= res.constraints_added
    assert {p.stage for p in seen} <= {"heuristic", "lp", "mip"}


def test_silent_unless_asked(capsys, caplog):
    with caplog.at_level(logging.WARNING):
        solve_linear_ordering(tournament_costs(15, 3, 0), method="ilp")
    assert capsys.readouterr() == ("", "") and not caplog.records
    with caplog.at_level(logging.DEBUG, logger="solvers.linear_ordering"):
        solve_linear_ordering(tournament_costs(15, 3, 0), method="ilp", unique=False)
    assert any("round" in r.getMessage() for r in caplog.records)


# ---------------------------------------------------------------- options
def test_brute_force_method_and_its_limit():
    costs = tournament_costs(6, 3, 4)
    res = solve_linear_ordering(costs, method="brute_force", enumerate_optima=3)
    ref = brute_force_linear_ordering(costs)
    assert (res.method, res.order, res.objective, res.unique) == ("brute_force", ref.order, ref.objective, ref.unique)
    assert res.optima == ref.optima[:3] and res.optima_truncated == (len(ref.optima) > 3)
    with pytest.raises(ValueError, match="at most 8"):
        solve_linear_ordering(np.zeros((9, 9)), method="brute_force")


def test_enumeration_cap_is_reported():
    costs = np.zeros((5, 5))  # every order is optimal
    res = solve_linear_ordering(costs, enumerate_optima=7)
    assert len(res.optima) == 7 and res.optima_truncated and res.unique is False
    res = solve_linear_ordering(costs, method="ilp", decompose=False, enumerate_optima=200)
    assert len(res.optima) == 120 and not res.optima_truncated


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"method": "exact"}, "unknown method"),
        ({"time_limit": 0}, "time_limit"),
        ({"time_limit": math.inf}, "time_limit"),
        ({"enumerate_optima": -1}, "enumerate_optima"),
        ({"enumerate_optima": 1.5}, "enumerate_optima"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(ValueError, match=message):
        solve_linear_ordering(np.zeros((3, 3)), **options)


@pytest.mark.slow
def test_gumbel_leaderboard_with_signal_is_solved_at_the_lp(backend):
    costs = cs.pairwise(cs.datasets.gumbel_leaderboard(60, 20, phi=0.05, seed=1)).preferences
    res = solve_linear_ordering(costs, backend=backend, unique=False)
    assert res.optimal and res.objective == ordering_cost(costs, res.order)
    assert sum(len(c) for c in res.components) == 60 and len(res.components) > 1
    assert res.objective <= heuristic_order(costs)[1]


@pytest.mark.slow
def test_purging_slack_cuts_keeps_the_optimum(monkeypatch):
    costs = tournament_costs(30, 20, 9)
    expected = solve_linear_ordering(costs, unique=False)
    removed: list[int] = []
    purge = lo._OrderingModel.purge_slack_cycles

    def spy(self, y, *, slack):
        removed.append(purge(self, y, slack=slack))
        return removed[-1]

    monkeypatch.setattr(lo._OrderingModel, "purge_slack_cycles", spy)
    monkeypatch.setattr(search, "_PURGE_MIN_ROWS", 0)  # purge after every LP round
    monkeypatch.setattr(search, "_CUTS_PER_ITEM", 2)
    purged = solve_linear_ordering(costs, unique=False)
    assert sum(removed) > 0
    assert purged.optimal and purged.objective == expected.objective
    assert ordering_cost(costs, purged.order) == purged.objective
